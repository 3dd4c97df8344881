"""``/api/tutorials``: the browser's tutorial steps served by the real runner (issue #14 "New: learn")."""

from __future__ import annotations

from typing import Any

import pytest
from srvkit import ServerThread

from cardtable.i18n import catalog
from cardtable.tutorials import load_tutorial

GAMES = ["lost-cities", "lost-ranks", "rank"]


def walk(server: ServerThread, game: str, lang: str) -> dict[str, Any]:
    """Every step over HTTP the lesson's way; the last answer."""
    r = server.http.get(f"/api/tutorials/{game}", params={"lang": lang})
    assert r.status_code == 200, r.text
    table = r.json()
    steps = table["tutorial"]["steps"]
    while not table["finished"]:
        step = steps[table["step"]]
        if step["reading"]:
            r = server.http.get(f"/api/tutorials/{game}", params={"step": table["step"] + 1, "lang": lang})
            table = r.json()
            continue
        action = next(m["action"] for m in table["legal"] if m["move"] == step["expect"][0])
        r = server.http.post(f"/api/tutorials/{game}/moves", params={"lang": lang},
                             json={"step": table["step"], "action": action})
        assert r.status_code == 200, r.text
        answer = r.json()
        assert answer["verdict"]["kind"] == "ok"
        assert answer["events"][0]["move"] == step["expect"][0]
        table = answer
    return table


@pytest.mark.parametrize("game", GAMES)
def test_tutorial_walks_to_its_end_over_http(server: ServerThread, game: str) -> None:
    last = walk(server, game, "ru")
    assert last["step"] == len(load_tutorial(game).steps)
    assert last["legal"] == [] and last["refused"] == []
    assert len(last["log"]) >= len([s for s in load_tutorial(game).steps if not s.reading])


def test_tutorials_are_listed_with_their_titles(server: ServerThread) -> None:
    listed = server.http.get("/api/tutorials").json()
    assert [t["game"] for t in listed] == GAMES
    assert all(t["title"]["en"] and t["title"]["ru"] for t in listed)


def test_illegal_move_gets_the_engines_refusal_record_and_rule(server: ServerThread) -> None:
    # LR-7 Jack protection: hearts are led and the learner holds J♥ and 4♥
    steps = [s.id for s in load_tutorial("lost-ranks").steps]
    step = steps.index("jack-protection")
    r = server.http.post("/api/tutorials/lost-ranks/moves", json={"step": step, "move": "play JH"})
    assert r.status_code == 200, r.text
    verdict = r.json()["verdict"]
    assert verdict["kind"] == "illegal" and verdict["rule"] == "LR-7"
    assert verdict["refusal"]["key"] in catalog("ru")["refusals"]
    assert "view" not in r.json()  # nothing moved


def test_off_lesson_move_gets_the_hint_in_the_language_asked(server: ServerThread) -> None:
    r = server.http.post("/api/tutorials/lost-cities/moves", params={"lang": "ru"},
                         json={"step": 1, "move": "play Y4"})
    verdict = r.json()["verdict"]
    assert verdict["kind"] == "off_lesson" and verdict["rule"] == "LC-3"
    assert verdict["hint"] == load_tutorial("lost-cities").steps[1].hint("ru")  # type: ignore[union-attr]


def test_a_text_to_read_offers_no_move(server: ServerThread) -> None:
    table = server.http.get("/api/tutorials/rank", params={"step": 0}).json()
    assert table["tutorial"]["steps"][0]["reading"]
    assert table["legal"] == [] and table["refused"] == [] and table["view"]["current_player"] == 0


def test_hand_refusals_explain_the_unplayable_cards(server: ServerThread) -> None:
    table = server.http.get("/api/tutorials/rank", params={"step": 1}).json()
    refused = {r["move"]: r["rule"] for r in table["refused"]}
    assert refused["play 7D"] == "RG-4" and "play 8S" not in refused
    assert table["legal"] == [{"action": table["legal"][0]["action"], "move": "play 8S"}]
    assert "hand" in table["view"] and table["view"]["player"] == 0


@pytest.mark.parametrize("path, params, body, status, code", [
    ("/api/tutorials/chess", {}, None, 404, "not_found"),
    ("/api/tutorials/rank", {"step": 99}, None, 400, "bad_message"),
    ("/api/tutorials/rank", {"lang": "fr"}, None, 400, "bad_request"),
    ("/api/tutorials/rank/moves", {}, {"step": 0, "move": "play 8S"}, 400, "bad_message"),  # a reading step
    ("/api/tutorials/rank/moves", {}, {"step": 1}, 400, "bad_message"),
    ("/api/tutorials/rank/moves", {}, {"step": "1", "action": 0}, 400, "bad_message"),
    ("/api/tutorials/rank/moves", {}, {"step": 12, "action": 0}, 409, "match_over"),
])
def test_bad_requests_are_typed_errors(server: ServerThread, path: str, params: dict[str, Any],
                                       body: dict[str, Any] | None, status: int, code: str) -> None:
    r = server.http.get(path, params=params) if body is None else server.http.post(path, params=params, json=body)
    assert r.status_code == status, r.text
    assert r.json()["code"] == code
