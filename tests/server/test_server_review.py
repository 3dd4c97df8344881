"""``GET /api/matches/{id}/review``: a finished match step by step with every hand
revealed — and refused while the match is played (RG-9, LC-8, LR-20: each seat sees
only its own hand until the end) — and the win chances of ``hint`` answers."""

from __future__ import annotations

import re
from typing import Any

import pytest

from cardtable.registry import load_game

from srvkit import ServerThread, eventually

AI_SEATS = [{"kind": "ai", "agent": "random"}, {"kind": "ai", "agent": "heuristic"}]


def _finished(server: ServerThread, game: str, config: dict[str, Any], seats: list[dict[str, Any]],
              **options: Any) -> dict[str, Any]:
    created = server.create(game, config, seats=seats, **options)
    mid = created["match"]
    eventually(lambda: server.http.get(f"/api/matches/{mid}").json()["status"] == "finished",
               "the AI-only match did not finish")
    return created


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _record(server: ServerThread, created: dict[str, Any]) -> dict[str, Any]:
    r = server.http.get(f"/api/matches/{created['match']}/record", headers=_bearer(created["host_token"]))
    assert r.status_code == 200, r.text
    record: dict[str, Any] = r.json()
    return record


@pytest.mark.parametrize(("game", "config"), [("rank", {"players": 3}), ("lost-cities", {"rounds": 1}),
                                              ("lost-ranks", {"players": 2})])
def test_review_reveals_every_hand_of_every_step_once_the_match_is_over(server: ServerThread, game: str,
                                                                         config: dict[str, Any]) -> None:
    n = load_game(game, **config).num_players
    created = _finished(server, game, config, [AI_SEATS[i % 2] for i in range(n)], seed=11)
    mid = created["match"]
    r = server.http.get(f"/api/matches/{mid}/review")  # a spectator may open it
    assert r.status_code == 200, r.text
    review = r.json()
    assert review["type"] == "review" and review["status"] == "finished" and review["you"] is None
    record = _record(server, created)
    state = load_game(game, **record["config"]).new_state(seed=record["seed"])
    assert len(review["steps"]) == len(record["moves"]) + 1
    for k, step in enumerate(review["steps"]):
        if k:
            state.apply_action(state.parse_action(record["moves"][k - 1]))
            assert step["seq"] == k and step["event"]["seq"] == k
        assert step["view"] == state.public_view()  # the board: the public view of a spectator
        assert step["hands"] == [state.view(s)["hand"] for s in range(n)], f"step {k}"
        if game == "lost-ranks":
            assert step["phantoms"] == [state.view(s)["phantoms"][s] for s in range(n)]
    assert state.is_terminal()
    assert any(hand for step in review["steps"] for hand in step["hands"][1:])


def test_a_seat_reviews_from_its_own_view_and_the_host_may_review(server: ServerThread) -> None:
    created = _finished(server, "rank", {"players": 2}, AI_SEATS, seed=4)
    mid = created["match"]
    replay = server.http.get(f"/api/matches/{mid}/replay").json()
    review = server.http.get(f"/api/matches/{mid}/review", headers=_bearer(created["host_token"])).json()
    assert [s["view"] for s in review["steps"]] == [s["view"] for s in replay["steps"]]
    assert [s.get("event") for s in review["steps"]] == [s.get("event") for s in replay["steps"]]
    assert review["result"] == replay["result"] is not None


def test_review_is_refused_while_the_match_is_played(server: ServerThread) -> None:
    """RG-9: while the match is played each hand is its owner's only: no review, for
    anybody — a spectator, the host, or a seat (whose own replay stays available)."""
    created = server.create("rank", {"players": 2})
    mid = created["match"]
    hidden = server.http.get(f"/api/matches/{mid}/state", headers=_bearer(created["seats"][1]["token"])).json()
    assert hidden["view"]["hand"]
    for headers in ({}, _bearer(created["host_token"]), _bearer(created["seats"][0]["token"])):
        r = server.http.get(f"/api/matches/{mid}/review", headers=headers)
        assert r.status_code == 409, r.text
        body = r.json()
        assert body["code"] == "not_finished" and "over" in body["message"]
        assert set(body) == {"type", "code", "message"}
        assert not set(re.findall(r"\w+", r.text)) & set(hidden["view"]["hand"])
    assert server.http.get(f"/api/matches/{mid}/replay",
                           headers=_bearer(created["seats"][0]["token"])).status_code == 200


def test_review_refusals(server: ServerThread) -> None:
    r = server.http.get("/api/matches/nosuchmatch/review")
    assert r.status_code == 404 and r.json()["code"] == "no_such_match"
    closed = _finished(server, "rank", {"players": 2}, AI_SEATS, spectators=False)
    mid = closed["match"]
    r = server.http.get(f"/api/matches/{mid}/review")
    assert r.status_code == 403 and r.json()["code"] == "spectators_disallowed"
    r = server.http.get(f"/api/matches/{mid}/review", headers=_bearer("not-a-token"))
    assert r.status_code == 403 and r.json()["code"] == "auth_failed"
    r = server.http.get(f"/api/matches/{mid}/review", headers={"Authorization": "Basic abc"})
    assert r.status_code == 401 and r.json()["code"] == "auth_failed"
    r = server.http.get(f"/api/matches/{mid}/review", headers=_bearer(closed["host_token"]))
    assert r.status_code == 200 and r.json()["steps"]


@pytest.mark.parametrize(("game", "config", "label"), [("lost-cities", {}, "win"),
                                                        ("rank", {"players": 2}, "chance not to lose")])
def test_a_hint_gives_the_win_chance_of_every_legal_move(server: ServerThread, game: str, config: dict[str, Any],
                                                         label: str) -> None:
    created = server.create(game, config, seats=[{"kind": "human"}, {"kind": "ai", "agent": "random"}],
                            seed=3, hints=True)
    mid = created["match"]
    token = created["seats"][0]["token"]

    def my_turn_with_choices() -> bool:
        """Seat 0 to move with a choice to make (its only moves are played meanwhile)."""
        state = server.http.get(f"/api/matches/{mid}/state", headers=_bearer(token)).json()
        mine = state["view"]["current_player"] == 0 and state["status"] == "active"
        if mine and len(state["legal"]) == 1:
            server.http.post(f"/api/matches/{mid}/moves", headers=_bearer(token),
                             json={"seq": state["seq"], "action": state["legal"][0]["action"]})
        return mine and len(state["legal"]) > 1

    eventually(my_turn_with_choices, "seat 0 never had a choice to make")
    state = server.http.get(f"/api/matches/{mid}/state", headers=_bearer(token)).json()
    r = server.http.post(f"/api/matches/{mid}/hint", headers=_bearer(token))
    assert r.status_code == 200, r.text
    hint = r.json()
    legal = {m["move"]: m["action"] for m in state["legal"]}
    assert hint["value_label"] == label and hint["move"] in legal
    estimates = hint["estimates"]
    assert {e["move"] for e in estimates} == set(legal)
    assert all(legal[e["move"]] == e["action"] and 0.0 <= e["win"] <= 1.0 and e["visits"] > 0 for e in estimates)
