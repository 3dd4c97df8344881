"""Match clocks (docs/server-protocol.md, "Clocks"): the create option and its bad
inputs, a time per move and per match, each ``on_timeout`` choice, a move arriving
exactly at the deadline, the clock in every state, and a restart that finds the
stored deadline.  Time is a :class:`ManualClock` the tests advance; the deadline
task is woken by hand, so nothing waits on real time."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from srvkit import BACKENDS, CEILING, CLIENT_LIMITS, ServerThread, WsClient, db_url_for, eventually, join

from cardtable.server.limits import ManualClock

Msg = dict[str, Any]
START = 1_800_000_000.0


@pytest.fixture(params=BACKENDS)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """SQLite, and PostgreSQL when ``CARDTABLE_TEST_PG`` is set (srvkit.BACKENDS)."""
    return db_url_for(str(request.param), tmp_path)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(START)


@pytest.fixture
def srv(db: str, clock: ManualClock) -> Iterator[ServerThread]:
    with ServerThread(db, wall_clock=clock) as server:
        yield server


def advance(srv: ServerThread, clock: ManualClock, seconds: float) -> None:
    """Move the server's wall clock on and let its deadline task look."""
    clock.advance(seconds)
    srv.rooms.deadlines.wake_threadsafe()


def seated(srv: ServerThread, game: str, config: Msg, clock: Msg, humans: int | None = None,
           **extra: Any) -> tuple[str, list[WsClient]]:
    """A match with ``clock`` whose human seats (all, or the first ``humans``) are taken."""
    seats = None if humans is None else [{"kind": "human"} if i < humans else {"kind": "ai", "agent": "random"}
                                         for i in range(extra.pop("players", 2))]
    made = srv.create(game, config, seats, clock=clock, **extra)
    clients = [join(srv, made["match"], s["token"]) for s in made["seats"] if "token" in s]
    return made["match"], clients


def turn_of(client: WsClient) -> tuple[int, int]:
    """The seat to move in a two-seat match, and the other one."""
    mover = int(sync(client)["match"]["current_player"])
    return mover, 1 - mover


def play_turn(player: WsClient, seat: int) -> Msg:
    """``seat``'s player makes its whole turn (a Lost Cities turn is a play and a
    draw); returns the state after it."""
    while True:
        state = sync(player)
        if state["match"]["current_player"] != seat:
            return state
        player.send({"type": "move", "seq": state["seq"], "action": state["legal"][0]["action"]})
        player.wait_seq(state["seq"] + 1)


def sync(client: WsClient) -> Msg:
    return client.request({"type": "sync"}, "state")


def refusal(client: WsClient, msg: Msg) -> Msg:
    reply = client.request({**msg, "id": "r"}, lambda m: m.get("id") == "r")
    assert reply["type"] == "error", reply
    return reply


def test_bad_clock_options_are_refused_with_what_is_allowed(srv: ServerThread) -> None:
    bad: list[tuple[Any, str]] = [
        ("30s", "must be an object"),
        ([30], "must be an object"),
        ({"per": "move", "seconds": 30, "increment": 2}, "unknown clock field 'increment'"),
        ({"seconds": 30}, "'per' must be one of: move, match"),
        ({"per": "turn", "seconds": 30}, "'per' must be one of"),
        ({"per": "move"}, "'seconds' must be a whole number from 5 to 1209600"),
        ({"per": "move", "seconds": 4}, "from 5 to 1209600"),
        ({"per": "move", "seconds": 14 * 86400 + 1}, "from 5 to 1209600"),
        ({"per": "move", "seconds": 30.5}, "whole number"),
        ({"per": "move", "seconds": True}, "whole number"),
        ({"per": "move", "seconds": "30"}, "whole number"),
        ({"per": "match", "seconds": 59}, "from 60 to 14400 for a clock per match"),
        ({"per": "match", "seconds": 4 * 3600 + 1}, "from 60 to 14400"),
        ({"per": "move", "seconds": 30, "on_timeout": "draw"}, "'on_timeout' must be one of: ai, lose"),
        ({"per": "move", "seconds": 30, "on_timeout": None}, "'on_timeout' must be one of"),
    ]
    for value, says in bad:
        r = srv.http.post("/api/matches", json={"game": "lost-cities", "clock": value})
        assert r.status_code == 400, (value, r.text)
        body = r.json()
        assert body["code"] == "bad_clock" and says in body["message"], (value, body)
    ok = srv.http.post("/api/matches", json={"game": "lost-cities", "clock": {"per": "move", "seconds": 5}})
    assert ok.status_code == 201 and ok.json()["info"]["clock"]["on_timeout"] == "ai"
    none = srv.http.post("/api/matches", json={"game": "lost-cities", "clock": None})
    assert none.status_code == 201 and none.json()["info"]["clock"] is None
    listed = srv.http.post("/api/matches", json={"game": "lost-cities", "listed": True,
                                                  "clock": {"per": "match", "seconds": 600, "on_timeout": "lose"}})
    lobby = {m["id"]: m for m in srv.http.get("/api/matches", params={"status": "active"}).json()}
    assert lobby[listed.json()["match"]]["clock"] == {"per": "match", "seconds": 600, "on_timeout": "lose"}


def test_the_clock_waits_for_every_seat_then_is_in_every_state(srv: ServerThread, clock: ManualClock) -> None:
    made = srv.create("lost-cities", {"rounds": 1}, clock={"per": "move", "seconds": 30})
    assert made["info"]["clock"]["seat"] is None, "no time runs before every seat is taken"
    mover = made["info"]["current_player"]
    a = join(srv, made["match"], made["seats"][0]["token"])
    with a, join(srv, made["match"]) as watcher:
        assert sync(a)["clock"]["deadline"] is None
        b = join(srv, made["match"], made["seats"][1]["token"])
        with b:
            news = watcher.wait("clock")["clock"]
            assert news["seat"] == mover and news["deadline"] == START + 30
            advance(srv, clock, 12)
            for c in (a, b, watcher):
                state = sync(c)
                assert state["clock"]["remaining"][mover] == 18.0 and state["clock"]["seat"] == mover
                assert state["clock"]["remaining"][1 - mover] == 30.0
                assert state["match"]["clock"]["per"] == "move" and not state["clock"]["correspondence"]
            player = (a, b)[mover]
            player.send({"type": "move", "seq": 0, "action": sync(player)["legal"][0]["action"]})
            update = watcher.wait("update")
            assert update["clock"]["seat"] in (0, 1) and update["clock"]["deadline"] is not None


def test_per_move_ai_plays_the_turn_that_ran_out_and_the_player_plays_on(srv: ServerThread,
                                                                          clock: ManualClock) -> None:
    mid, (a, b) = seated(srv, "lost-cities", {"rounds": 1}, {"per": "move", "seconds": 30, "on_timeout": "ai"})
    with a, b:
        mover, other = turn_of(a)
        advance(srv, clock, 29.5)
        assert sync(a)["seq"] == 0, "not yet out of time"
        advance(srv, clock, 0.5)
        notice = b.wait("timeout")
        assert notice["seat"] == mover and notice["on_timeout"] == "ai"
        state = b.wait(lambda m: m.get("type") == "update" and m["clock"]["seat"] == other)
        assert all(line["seat"] == mover for line in sync(b)["log"]), "only the mover's turn was played for it"
        assert state["clock"]["deadline"] == START + 30 + 30
        seats = sync(a)["match"]["seats"]
        assert seats[mover]["kind"] == "human", "the seat stays its player's"
        player = (a, b)[other]
        now = sync(player)
        player.send({"type": "move", "seq": now["seq"], "action": now["legal"][0]["action"]})
        player.wait_seq(now["seq"] + 1)


def test_a_move_exactly_at_the_deadline_is_late_one_just_before_is_on_time(srv: ServerThread,
                                                                           clock: ManualClock) -> None:
    mid, (a, b) = seated(srv, "lost-cities", {"rounds": 1}, {"per": "move", "seconds": 10, "on_timeout": "ai"})
    with a, b:
        mover, other = turn_of(a)
        first, second = (a, b)[mover], (a, b)[other]
        clock.advance(9.999)  # (the deadline task is not woken: the move itself decides)
        assert play_turn(first, mover)["clock"]["seat"] == other
        deadline = sync(second)["clock"]["deadline"]
        clock.advance(deadline - clock.now())  # exactly the deadline, still not woken
        state = sync(second)
        reply = refusal(second, {"type": "move", "seq": state["seq"], "action": state["legal"][0]["action"]})
        assert reply["code"] == "out_of_time" and "ai" in reply["message"]
        first.wait("timeout")
        first.wait(lambda m: m.get("type") == "update" and m["clock"]["seat"] == mover)
        assert other in [line["seat"] for line in sync(first)["log"]], "the AI played the late seat's turn"


def test_per_move_lose_ends_a_lost_ranks_match_for_the_partnership(srv: ServerThread, clock: ManualClock) -> None:
    mid, clients = seated(srv, "lost-ranks", {}, {"per": "move", "seconds": 20, "on_timeout": "lose"})
    try:
        mover = sync(clients[0])["match"]["current_player"]
        advance(srv, clock, 20)
        ended = clients[1].wait("ended")
        side = [mover, (mover + 2) % 4]
        assert ended["ending"] == "timeout" and sorted(ended["seats"]) == sorted(side)
        final = clients[3].wait("state")
        assert final["status"] == "finished" and final["match"]["ending"] == "timeout"
        returns = final["result"]["returns"]
        assert [returns[s] for s in side] == [-1.0, -1.0] and sum(returns) == 0, "LR partners lose together"
        assert final["clock"]["deadline"] is None and final["legal"] == []
        eventually(lambda: srv.http.get(f"/api/matches/{mid}").json()["ending"] == "timeout", "not stored")
    finally:
        for c in clients:
            c.close()


def test_rank_seat_out_of_time_is_the_one_loser(srv: ServerThread, clock: ManualClock) -> None:
    """RG-7: one player loses (−1), the others score 0; a seat out of time is that player."""
    mid, clients = seated(srv, "rank", {"players": 3}, {"per": "move", "seconds": 15, "on_timeout": "lose"})
    try:
        mover = sync(clients[0])["match"]["current_player"]
        advance(srv, clock, 15)
        final = clients[0].wait("state")
        assert final["result"]["ending"] == "timeout" and final["result"]["seats"] == [mover]
        assert final["result"]["returns"] == [-1.0 if s == mover else 0.0 for s in range(3)]
    finally:
        for c in clients:
            c.close()


def test_per_match_bank_is_spent_only_on_its_own_turns(srv: ServerThread, clock: ManualClock) -> None:
    mid, (a, b) = seated(srv, "lost-cities", {"rounds": 1}, {"per": "match", "seconds": 60, "on_timeout": "lose"})
    with a, b:
        mover, other = turn_of(a)
        player = (a, b)[mover]
        clock.advance(25)
        state = play_turn(player, mover)  # 25 s into its bank
        assert state["clock"]["seat"] == other
        assert state["clock"]["remaining"][mover] == 35.0 and state["clock"]["remaining"][other] == 60.0
        advance(srv, clock, 59)
        assert sync(b)["status"] == "active"
        advance(srv, clock, 1)
        final = a.wait(lambda m: m.get("type") == "state" and m["status"] == "finished")
        assert final["result"]["ending"] == "timeout" and final["result"]["seats"] == [other]
        assert final["result"]["returns"][other] == -1.0 and final["result"]["returns"][mover] == 1.0


def test_ai_seats_have_no_clock_and_a_rated_loss_on_time_is_rated(srv: ServerThread, clock: ManualClock) -> None:
    b = httpx.Client(limits=CLIENT_LIMITS, base_url=srv.base, timeout=CEILING, headers={"Origin": srv.base})
    name = f"Slow{secrets.token_hex(3)}"  # (a PostgreSQL test database is shared by the runs)
    try:
        assert b.post("/api/account/signup", json={"name": name, "password": "correct horse"}).status_code == 201
        made = b.post("/api/matches", json={
            "game": "lost-cities", "config": {"rounds": 1}, "rated": True,
            "clock": {"per": "move", "seconds": 60, "on_timeout": "lose"},
            "seats": [{"kind": "human", "me": True}, {"kind": "ai", "agent": "random"}]})
        assert made.status_code == 201, made.text
        mid = made.json()["match"]
        eventually(lambda: b.get(f"/api/matches/{mid}").json()["clock"]["seat"] == 0, "the human's time never ran")
        info = b.get(f"/api/matches/{mid}").json()["clock"]
        assert info["remaining"][1] is None and info["remaining"][0] > 0, "the AI seat has no clock"
        advance(srv, clock, info["deadline"] - clock.now())
        eventually(lambda: b.get(f"/api/matches/{mid}").json()["ending"] == "timeout", "no loss on time")
        eventually(lambda: name in {e["name"] for e in b.get(
            "/api/leaderboard", params={"game": "lost-cities"}).json()["entries"]}, "the loss was not rated")
        board = {e["name"]: e for e in b.get("/api/leaderboard", params={"game": "lost-cities"}).json()["entries"]}
        assert board[name]["rating"] < 1500 and board[name]["games"] == 1
    finally:
        b.close()


def test_a_restarted_server_handles_the_expired_deadline_once(db: str, clock: ManualClock) -> None:
    with ServerThread(db, wall_clock=clock) as srv:
        mid, (a, b) = seated(srv, "lost-cities", {"rounds": 1}, {"per": "move", "seconds": 30, "on_timeout": "ai"})
        assert sync(a)["clock"]["deadline"] == START + 30
        mover, other = turn_of(a)
        a.close()
        b.close()
    clock.advance(3600)  # the server is down when the time runs out
    with ServerThread(db, wall_clock=clock) as srv:
        eventually(lambda: srv.http.get(f"/api/matches/{mid}").json()["current_player"] == other,
                   "the expired turn was not played after the restart")
        state = srv.http.get(f"/api/matches/{mid}/state").json()
        turn = [line["seat"] for line in state["log"]]
        assert turn and set(turn) == {mover}, "the mover's turn only, once"
        assert state["clock"]["seat"] == other and state["clock"]["deadline"] == START + 3600 + 30
        srv.rooms.deadlines.wake_threadsafe()
        assert srv.http.get(f"/api/matches/{mid}/state").json()["seq"] == state["seq"]
    with ServerThread(db, wall_clock=clock) as srv:
        again = srv.http.get(f"/api/matches/{mid}/state").json()
        assert again["seq"] == state["seq"] and again["clock"]["deadline"] == START + 3600 + 30


def turn_events(srv: ServerThread, query: str) -> tuple[httpx.Client, Any, Iterator[str]]:
    client = httpx.Client(limits=CLIENT_LIMITS, base_url=srv.base, timeout=CEILING)
    stream = client.stream("GET", "/api/turns/events", params={"matches": query})
    response = stream.__enter__()
    return client, (stream, response), response.iter_lines()


def next_turn(lines: Iterator[str], change: str | None = "turn") -> Msg:
    """The data of the next ``turn`` event of ``change`` (comments, keep-alives and
    news of other changes skipped; ``None``: of any change)."""
    kind = None
    for line in lines:
        if line.startswith("event: "):
            kind = line[len("event: "):]
        elif line.startswith("data: ") and kind == "turn":
            data: Msg = json.loads(line[len("data: "):])
            if change is None or data.get("change") == change:
                return data
    raise AssertionError("the turn event stream ended")


def test_a_correspondence_match_tells_the_watching_pages_whose_turn_it_is(srv: ServerThread) -> None:
    mid, (a, b) = seated(srv, "lost-cities", {"rounds": 1}, {"per": "move", "seconds": 2 * 86400})
    other_mid = srv.create("lost-cities", {"rounds": 1})["match"]
    client, (stream, response), lines = turn_events(srv, f"{mid},{other_mid}")
    try:
        assert response.status_code == 200 and response.headers["content-type"].startswith("text/event-stream")
        assert next(line for line in lines if line.startswith(":")) == ": ready"
        with a, b:
            state = sync(a)
            assert state["clock"]["correspondence"] is True
            mover, other = turn_of(a)
            play_turn((a, b)[mover], mover)
            news = next_turn(lines)
            assert news["match"] == mid and news["current_player"] == other and news["status"] == "active"
            assert news["clock"]["seat"] == other and news["clock"]["correspondence"] is True
            (a, b)[other].send({"type": "resign", "confirm": True})
            ended = next_turn(lines)
            assert ended["match"] == mid and ended["status"] == "finished" and ended["current_player"] is None
    finally:
        stream.__exit__(None, None, None)
        client.close()


def test_the_turn_feed_tells_the_players_pages_when_somebody_takes_a_seat(srv: ServerThread) -> None:
    """An unlisted match too: "Your matches" shows who joined without waiting for a refresh."""
    made = srv.create("lost-cities", {"rounds": 1}, [{"kind": "human"}, {"kind": "human"}])
    mid = made["match"]
    client, (stream, response), lines = turn_events(srv, mid)
    try:
        assert next(line for line in lines if line.startswith(":")) == ": ready"
        players = (join(srv, mid, made["seats"][0]["token"], name="Ann"),
                   join(srv, mid, made["seats"][1]["token"], name="Bob"))
        with players[0], players[1]:
            mover, _ = turn_of(players[0])
            play_turn(players[mover], mover)  # then a new turn: the news of the seats came before it
            seen = []
            while not seen or seen[-1]["change"] != "turn":
                seen.append(next_turn(lines, change=None))
            assert [n["change"] for n in seen].count("seats") >= 2, seen
            assert all(n["match"] == mid and n["status"] == "active" for n in seen)
    finally:
        stream.__exit__(None, None, None)
        client.close()


def test_the_turn_feed_refuses_bad_match_lists(srv: ServerThread) -> None:
    for query, says in (("", "must list the ids"), (",,", "must list the ids"),
                        ("not an id!", "not a match id"), (",".join(["abcdefghijkl"] * 51), "at most 50")):
        r = srv.http.get("/api/turns/events", params={"matches": query})
        assert r.status_code == 400 and r.json()["code"] == "bad_message" and says in r.json()["message"], r.text


def test_the_turn_feed_is_bounded(db: str, clock: ManualClock) -> None:
    with ServerThread(db, wall_clock=clock, max_lobby_subscribers=1) as srv:
        client, (stream, response), lines = turn_events(srv, "abcdefghijkl")
        try:
            assert next(line for line in lines if line.startswith(":")) == ": ready"
            refused = srv.http.get("/api/turns/events", params={"matches": "abcdefghijkl"})
            assert refused.status_code == 503 and refused.json()["code"] == "busy"
        finally:
            stream.__exit__(None, None, None)
            client.close()


def test_a_seat_handed_to_the_ai_stops_its_clock_and_a_per_match_bank_keeps_what_is_left(
        srv: ServerThread, clock: ManualClock) -> None:
    mid, (a, b) = seated(srv, "lost-cities", {"rounds": 1}, {"per": "match", "seconds": 300, "on_timeout": "lose"})
    with a, b:
        mover, other = turn_of(a)
        leaving, staying = (a, b)[mover], (a, b)[other]
        clock.advance(100)
        staying.drain()
        leaving.drain()
        leaving.send({"type": "leave"})
        stopped = staying.wait(lambda m: m.get("type") == "clock" or (
            m.get("type") == "update" and m["clock"]["seat"] == other))
        assert stopped["clock"]["remaining"][mover] is None, "an AI seat has no clock"
        staying.wait(lambda m: m.get("type") in ("update", "clock") and m["clock"]["seat"] == other)
        state = sync(staying)
        assert state["clock"]["remaining"][other] == 300.0 and state["status"] == "active"
        leaving.send({"type": "reclaim"})
        leaving.wait(lambda m: m.get("type") == "seats" and m["seats"][mover]["kind"] == "human")
        play_turn(staying, other)
        back = leaving.wait(lambda m: m.get("type") in ("clock", "update", "state") and m.get("clock")
                            and m["clock"]["seat"] == mover)
        assert back["clock"]["remaining"][mover] == 200.0, "the bank kept the 200 s left when the seat left"
