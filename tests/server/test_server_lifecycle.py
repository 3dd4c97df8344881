"""Ending a match early and starting the next one: ``resign``, ``abort``, the draw
messages and ``rematch`` (docs/server-protocol.md, "Ending a match"), with every
refusal, the result kept across a restart, and the ratings of a resigned or
aborted rated match."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from srvkit import CEILING, CLIENT_LIMITS, ServerThread, WsClient, eventually, join

Msg = dict[str, Any]


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'life.db'}"


@pytest.fixture
def srv(db: str) -> Iterator[ServerThread]:
    with ServerThread(db) as server:
        yield server


def seated(srv: ServerThread, game: str, config: Msg | None = None, seats: list[Msg] | None = None,
           **extra: Any) -> tuple[str, list[WsClient]]:
    made = srv.create(game, config, seats, **extra)
    clients = [join(srv, made["match"], s["token"]) for s in made["seats"] if "token" in s]
    return made["match"], clients


def refusal(client: WsClient, msg: Msg) -> str:
    reply = client.request({**msg, "id": "r"}, lambda m: m.get("id") == "r")
    assert reply["type"] == "error", reply
    return str(reply["code"])


def play_one(clients: list[WsClient]) -> None:
    """The seat to move plays its first legal move; everyone waits for the update."""
    states = [c.request({"type": "sync"}, "state") for c in clients]
    mover = next(i for i, s in enumerate(states) if s["legal"])
    seq = states[mover]["seq"]
    clients[mover].send({"type": "move", "seq": seq, "action": states[mover]["legal"][0]["action"]})
    for c in clients:
        c.wait_seq(seq + 1)


def test_resign_needs_confirmation_ends_the_match_and_survives_a_restart(db: str) -> None:
    with ServerThread(db) as srv:
        mid, (a, b) = seated(srv, "lost-cities", {"rounds": 1})
        with a, b, join(srv, mid) as watcher:
            assert refusal(a, {"type": "resign"}) == "not_confirmed"
            assert refusal(a, {"type": "resign", "confirm": "yes"}) == "not_confirmed"
            assert refusal(watcher, {"type": "resign", "confirm": True}) == "not_a_player"
            a.send({"type": "resign", "confirm": True, "id": 7})
            ended = a.wait("ended")
            assert ended["id"] == 7 and ended["ending"] == "resigned" and ended["seats"] == [0]
            assert b.wait("ended")["seats"] == [0] and "id" not in watcher.wait("ended")
            final = b.wait("state")
            assert final["status"] == "finished" and final["match"]["ending"] == "resigned"
            assert final["result"]["returns"] == [-1.0, 1.0] and final["legal"] == []
            assert refusal(b, {"type": "move", "seq": final["seq"], "action": 0}) == "match_over"
            assert refusal(b, {"type": "resign", "confirm": True}) == "match_over"
            assert refusal(a, {"type": "abort"}) == "match_over"
            assert refusal(a, {"type": "draw_offer"}) == "match_over"
        eventually(lambda: srv.http.get(f"/api/matches/{mid}").json()["status"] == "finished", "not stored")
    with ServerThread(db) as again:
        info = again.http.get(f"/api/matches/{mid}").json()
        assert info["status"] == "finished" and info["ending"] == "resigned"
        state = again.http.get(f"/api/matches/{mid}/state").json()
        assert state["result"]["ending"] == "resigned" and state["result"]["returns"] == [-1.0, 1.0]
        assert state["legal"] == []


def test_a_lost_ranks_partnership_resigns_together(srv: ServerThread) -> None:
    mid, clients = seated(srv, "lost-ranks", {"players": 4})
    c0, c1, c2, c3 = clients
    try:
        c0.send({"type": "resign", "confirm": True, "id": 1})
        offer = c0.wait("resign_offer")
        assert offer["side"] == [0, 2] and offer["waiting"] == [2] and offer["id"] == 1
        assert c2.wait("resign_offer")["seat"] == 0
        c2.send({"type": "resign", "confirm": True})
        for c in clients:
            assert c.wait("ended")["seats"] == [0, 2]
        final = c1.wait("state")
        assert final["result"]["returns"] == [-1.0, 1.0, -1.0, 1.0]
        # the opponents never heard of the offer before the end
        seen = [m["type"] for m in c1.drain()] + [m["type"] for m in c3.drain()]
        assert "resign_offer" not in seen
    finally:
        for c in clients:
            c.close()


def test_abort_only_in_the_first_moves_and_without_a_result(db: str) -> None:
    with ServerThread(db, abort_moves=2) as srv:
        mid, (a, b) = seated(srv, "lost-cities", {"rounds": 1})
        with a, b:
            play_one([a, b])
            play_one([a, b])
            assert refusal(a, {"type": "abort"}) == "too_late"
        mid, (a, b) = seated(srv, "lost-cities", {"rounds": 1})
        with a, b:
            play_one([a, b])
            b.send({"type": "abort"})
            assert a.wait("ended")["ending"] == "aborted"
            final = a.wait("state")
            assert final["status"] == "finished" and final["result"]["returns"] is None
            assert refusal(a, {"type": "abort"}) == "match_over"


def test_draws_where_the_game_can_tie(srv: ServerThread) -> None:
    _, rank = seated(srv, "rank", {"players": 3})
    try:
        assert refusal(rank[0], {"type": "draw_offer"}) == "no_ties"
    finally:
        for c in rank:
            c.close()
    _, (alone,) = seated(srv, "lost-cities", {"rounds": 1}, [{"kind": "human"}, {"kind": "ai"}])
    with alone:
        assert refusal(alone, {"type": "draw_offer"}) == "ai_declines"
    mid, (a, b) = seated(srv, "lost-cities", {"rounds": 1})
    with a, b:
        assert refusal(b, {"type": "draw_accept"}) == "no_draw_offer"
        assert refusal(b, {"type": "draw_decline"}) == "no_draw_offer"
        a.send({"type": "draw_offer"})
        offer = b.wait("draw_offer")
        assert offer["seat"] == 0 and offer["waiting"] == [1]
        assert refusal(b, {"type": "draw_offer"}) == "draw_pending"
        play_one([a, b])  # a move ends the offer
        assert refusal(b, {"type": "draw_accept"}) == "no_draw_offer"
        a.send({"type": "draw_offer"})
        b.wait("draw_offer")
        b.send({"type": "draw_decline"})
        assert a.wait("draw_declined")["seat"] == 1
        assert refusal(a, {"type": "draw_accept"}) == "no_draw_offer"
        b.send({"type": "draw_offer"})
        a.wait("draw_offer")
        a.send({"type": "draw_accept"})
        assert b.wait("ended")["ending"] == "drawn"
        final = b.wait("state")
        assert final["result"]["returns"] == [0.0, 0.0] and final["status"] == "finished"


def test_rematch_rotates_the_seats_and_gives_each_its_own_token(srv: ServerThread) -> None:
    made = srv.create("lost-cities", {"rounds": 1}, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}])
    mid = made["match"]
    a, b = (join(srv, mid, s["token"]) for s in made["seats"])
    with a, b, join(srv, mid) as watcher:
        assert refusal(a, {"type": "rematch"}) == "not_over"
        assert refusal(watcher, {"type": "rematch"}) == "not_a_player"
        a.send({"type": "resign", "confirm": True})
        b.wait("ended")
        a.send({"type": "rematch"})
        wanted = b.wait("rematch_wanted")
        assert wanted["agreed"] == [0] and wanted["waiting"] == [1]
        b.send({"type": "rematch", "id": "again"})
        for_a, for_b, for_watcher = a.wait("rematch"), b.wait("rematch"), watcher.wait("rematch")
        new = for_a["match"]
        assert new != mid and for_b["match"] == new == for_watcher["match"] and for_b["id"] == "again"
        assert for_a["seat"] == 1 and for_b["seat"] == 0 and for_watcher["token"] is None
        assert for_a["token"] and for_b["token"] and for_a["token"] != for_b["token"]
        assert refusal(a, {"type": "rematch"}) == "rematch_started"
    with join(srv, new, for_a["token"]) as a2, join(srv, new, for_b["token"]) as b2:
        state = a2.request({"type": "sync"}, "state")
        assert state["you"] == 1 and state["status"] == "active"
        assert [s["name"] for s in state["match"]["seats"]] == ["Bo", "Ann"]
        assert state["match"]["config"]["rounds"] == 1
        assert b2.request({"type": "sync"}, "state")["you"] == 0


def rated_vs_ai(srv: ServerThread, name: str) -> tuple[httpx.Client, str, WsClient]:
    b = httpx.Client(limits=CLIENT_LIMITS, base_url=srv.base, timeout=CEILING, headers={"Origin": srv.base})
    assert b.post("/api/account/signup", json={"name": name, "password": "correct horse"}).status_code == 201
    made = b.post("/api/matches", json={"game": "lost-cities", "config": {"rounds": 1}, "rated": True,
                                        "seats": [{"kind": "human", "me": True}, {"kind": "ai", "agent": "random"}]})
    assert made.status_code == 201, made.text
    mid = made.json()["match"]
    cookie = "; ".join(f"{k}={v}" for k, v in b.cookies.items())
    ws = srv.client(mid, None, headers={"Origin": srv.base, "Cookie": cookie})
    assert ws.wait("welcome")["you"] == 0
    return b, mid, ws


def ratings_of(b: httpx.Client) -> dict[str, Msg]:
    board = b.get("/api/leaderboard", params={"game": "lost-cities", "players": 2}).json()
    return {e["name"]: e for e in board["entries"]}


def test_a_resigned_rated_match_is_a_loss_and_an_aborted_one_is_unrated(srv: ServerThread) -> None:
    b, mid, ws = rated_vs_ai(srv, "Quitter")
    with ws:
        ws.send({"type": "abort"})
        ws.wait("ended")
        eventually(lambda: b.get(f"/api/matches/{mid}").json()["status"] == "finished", "abort not stored")
        eventually(lambda: srv.rooms.rooms.get(mid) is None or srv.rooms.rooms[mid].row.status == "finished",
                   "abort not stored")
        assert "Quitter" not in ratings_of(b)
    b.close()
    b, mid, ws = rated_vs_ai(srv, "Resigner")
    with ws:
        ws.send({"type": "resign", "confirm": True})
        ws.wait("ended")
        eventually(lambda: "Resigner" in ratings_of(b), "the resignation was not rated")
        mine, bot = ratings_of(b)["Resigner"], ratings_of(b)["AI: random"]
        assert mine["rating"] < 1500 < bot["rating"] and mine["games"] == 1
    b.close()
