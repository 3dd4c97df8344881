"""Refusals over the wire: the ``illegal`` error and the hand's tooltips carry the record."""

from __future__ import annotations

from typing import Any

from srvkit import ServerThread, WsClient, join

from cardtable.cards import COLOR_WORDS
from cardtable.games.lost_cities import LostCities
from cardtable.i18n import LANGUAGES, catalog


def wager_seed() -> tuple[int, str, str]:
    """A seed whose round-1 starter holds a wager and a number card of one colour (LC-3)."""
    game = LostCities(rounds=1)
    for seed in range(1000):
        hand = game.new_state(seed=seed).view(game.new_state(seed=seed).current_player())["hand"]
        for card in hand:
            wager = card[0] + "w"
            if card[1:].isdigit() and wager in hand:
                return seed, wager, card
    raise AssertionError("no such seed")


def mover_of(a: WsClient, b: WsClient) -> tuple[WsClient, WsClient]:
    assert a.view is not None
    return (a, b) if a.view["current_player"] == 0 else (b, a)


def move(client: WsClient, seq: int, text: str) -> dict[str, Any]:
    client.send({"type": "move", "seq": seq, "move": text})
    return client.wait_seq(seq + 1)


def test_illegal_move_error_carries_the_refusal_record(server: ServerThread) -> None:
    seed, wager, number = wager_seed()
    created = server.create("lost-cities", {"rounds": 1}, seed=seed)
    mid = created["match"]
    a, b = (join(server, mid, s["token"]) for s in created["seats"])
    try:
        mover, other = mover_of(a, b)
        err = mover.request({"type": "move", "seq": 0, "move": "draw deck"}, "error")
        assert err["code"] == "illegal" and err["rule"] == "LC-3"
        assert err["reason"] == {"key": "lost-cities.play_first", "params": {"move": "'draw deck'"}}
        assert err["message"] == "first play or discard a card, then draw; 'draw deck' must wait (LC-3)"
        r = server.http.post(f"/api/matches/{mid}/moves", json={"seq": 0, "move": "draw deck"},
                             headers={"Authorization": f"Bearer {mover.token}"})
        assert r.status_code == 409 and r.json()["reason"] == err["reason"] and r.json()["rule"] == "LC-3"

        # LC-3: once a number card lies on the expedition, the wager's tooltip says why.
        move(mover, 0, f"play {number}")
        up = move(mover, 1, "draw deck")
        assert up["refused"] == []  # not this seat's turn now
        other.wait_seq(2)
        assert other.view is not None
        other_discard = other.view["hand"][0]
        move(other, 2, f"discard {other_discard}")
        assert move(other, 3, "draw deck")["refused"] == []  # the other seat's hand stays unexplained
        state = mover.wait_seq(4)
        refused = {entry["move"]: entry for entry in state["refused"]}
        colour = LostCities().parse_action_name(f"play {wager}") // 20
        assert refused[f"play {wager}"] == {
            "action": LostCities().parse_action_name(f"play {wager}"), "move": f"play {wager}", "rule": "LC-3",
            "reason": {"key": "lost-cities.wager_after_number",
                       "params": {"colour": COLOR_WORDS[colour], "top": number}},
        }
        assert all(entry["move"].split()[1] in state["view"]["hand"] for entry in state["refused"])
    finally:
        a.close()
        b.close()


def test_the_catalog_is_served_for_every_language(server: ServerThread) -> None:
    r = server.http.get("/api/i18n")
    assert r.status_code == 200
    body = r.json()
    assert sorted(body) == sorted(LANGUAGES)
    for lang in LANGUAGES:
        assert body[lang] == catalog(lang)
    assert set(body["ru"]["refusals"]) == set(body["en"]["refusals"])
