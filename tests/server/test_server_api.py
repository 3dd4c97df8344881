"""API and protocol tests of the match server, for every game, with several
clients per test (players and spectators) over real websockets."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from srvkit import CEILING, ServerThread, WsClient, generous_settings, join

from cardtable import records
from cardtable.registry import game_info
from cardtable.server.limits import ManualClock

VARIANTS = [
    ("lost-cities", {"rounds": 1}),
    ("lost-ranks", {"players": 4}),
    ("lost-ranks", {"players": 2}),
    ("rank", {"players": 3}),
]
IDS = ["lost-cities", "lost-ranks-4", "lost-ranks-2", "rank-3"]


def play_random(clients: dict[int, WsClient], watchers: list[WsClient], rng: random.Random,
                limit: int = 100000) -> int:
    """Random legal moves by whichever seat is to move until the end (or ``limit`` moves);
    every client must see every update.  Returns the final seq."""
    everyone = list(clients.values()) + watchers
    any_client = next(iter(clients.values()))
    moves = 0
    while moves < limit:
        view = any_client.view
        assert view is not None
        cur = view["current_player"]
        if cur < 0:
            break
        mover = clients[cur]
        assert mover.seq == any_client.seq
        assert mover.legal, "the seat to move must get its legal moves"
        choice = rng.choice(mover.legal)
        seq = mover.seq
        if rng.random() < 0.5:
            mover.send({"type": "move", "seq": seq, "move": choice["move"], "id": seq})
        else:
            mover.send({"type": "move", "seq": seq, "action": choice["action"], "id": seq})
        for c in everyone:
            c.wait_seq(seq + 1)
        moves += 1
    return any_client.seq


@pytest.mark.parametrize("game,config", VARIANTS, ids=IDS)
def test_full_match_all_clients_see_everything_they_should(server: ServerThread, game: str,
                                                           config: dict[str, Any]) -> None:
    created = server.create(game, config)
    mid = created["match"]
    n = created["info"]["num_players"]
    assert [s["seat"] for s in created["seats"]] == list(range(n))
    clients = {s["seat"]: join(server, mid, s["token"], name=f"P{s['seat']}") for s in created["seats"]}
    spectator = join(server, mid)
    try:
        for seat, c in clients.items():
            assert c.view is not None and c.view["player"] == seat
        assert spectator.view is not None and spectator.view["player"] is None
        assert "hand" not in spectator.view
        final = play_random(clients, [spectator], random.Random(7))
        for c in [*clients.values(), spectator]:
            last = json.loads(c.raw[-1]) if json.loads(c.raw[-1])["type"] == "update" else None
            assert c.seq == final
            assert last is not None and last["status"] == "finished" and last["result"] is not None
        info = server.http.get(f"/api/matches/{mid}").json()
        assert info["status"] == "finished" and info["seq"] == final
        assert [s["name"] for s in info["seats"]] == [f"P{i}" for i in range(n)]
        assert '"seed"' not in json.dumps(info)

        # Export: the same record the CLI uses, replaying to the same result.
        rec = server.http.get(f"/api/matches/{mid}/record",
                              headers={"Authorization": f"Bearer {clients[0].token}"})
        assert rec.status_code == 200, rec.text
        state = records.replay(records.loads(json.dumps(rec.json())))
        assert state.is_terminal() and len(state.history) == final
        assert rec.json()["players"] == [f"P{i}" for i in range(n)]
        assert server.http.get(f"/api/matches/{mid}/record").status_code == 401

        # Replays from each participant's point of view (and the public one).
        for seat, c in clients.items():
            rep = c.request({"type": "replay", "id": "r"}, "replay")
            assert rep["you"] == seat and len(rep["steps"]) == final + 1
            assert all(step["view"]["player"] == seat for step in rep["steps"])
            assert rep["steps"][-1]["view"] == c.view
        rep = spectator.request({"type": "replay"}, "replay")
        assert rep["you"] is None and rep["steps"][-1]["view"] == spectator.view
        http_rep = server.http.get(f"/api/matches/{mid}/replay",
                                   headers={"Authorization": f"Bearer {clients[1].token}"}).json()
        assert http_rep["you"] == 1 and len(http_rep["steps"]) == final + 1

        # No moves after the end.
        err = clients[0].request({"type": "move", "seq": final, "action": 0}, "error")
        assert err["code"] == "match_over"
    finally:
        for c in [*clients.values(), spectator]:
            c.close()


def test_health_games_and_creation_errors(server: ServerThread) -> None:
    h = server.http.get("/api/health").json()
    assert h["ok"] and h["protocol"] == 1 and h["db"] in ("sqlite", "postgresql") and "moves" in h
    games = {g["name"]: g for g in server.http.get("/api/games").json()}
    assert set(games) == {"lost-cities", "lost-ranks", "rank"}
    assert "heuristic" in games["lost-cities"]["agents"]
    for name, entry in games.items():  # each game's description, as the lobby's form reads it
        assert entry["description"] == game_info(name).as_json()
    longer = {o["name"]: o for o in games["lost-ranks"]["description"]["options"]}["longer_game"]
    assert longer["type"] == "bool" and longer["default"] is False and "LR-17" in longer["help"]["en"]
    assert longer["help"]["ru"].startswith("4 игрока")
    rounds = {o["name"]: o for o in games["lost-cities"]["description"]["options"]}["rounds"]
    assert (rounds["default"], rounds["minimum"], rounds["maximum"]) == (3, 1, 20)
    assert games["lost-ranks"]["description"]["teams"]["4"] == [[0, 2], [1, 3]]
    bad = [
        ({"game": "chess"}, "bad_game"),
        ({"game": "lost-cities", "config": {"colors": 9}}, "bad_config"),
        ({"game": "lost-cities", "config": {"wings": 2}}, "bad_config"),
        ({"game": "lost-cities", "config": [1]}, "bad_config"),
        ({"game": "lost-cities", "seats": [{"kind": "human"}]}, "bad_seats"),
        ({"game": "lost-cities", "seats": [{"kind": "human"}, {"kind": "ai", "agent": "deep-blue"}]}, "bad_agent"),
        ({"game": "lost-cities", "seats": [{"kind": "human"}, {"kind": "robot"}]}, "bad_seats"),
        ({"game": "lost-cities", "seed": -1}, "bad_message"),
        ({"game": "lost-cities", "hints": "yes"}, "bad_message"),
    ]
    for body, code in bad:
        r = server.http.post("/api/matches", json=body)
        assert r.status_code == 400, (body, r.text)
        assert r.json()["type"] == "error" and r.json()["code"] == code, (body, r.json())
    r = server.http.post("/api/matches", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["code"] == "bad_json"
    r = server.http.get("/api/matches/nope")
    assert r.status_code == 404 and r.json()["code"] == "no_such_match"


def test_listing_and_unlisted(server: ServerThread) -> None:
    listed = server.create("rank", {"players": 2}, listed=True)["match"]
    hidden = server.create("rank", {"players": 2})["match"]
    ids = [m["id"] for m in server.http.get("/api/matches").json()]
    assert listed in ids and hidden not in ids


def _snapshot(server: ServerThread, mid: str, token: str) -> str:
    r = server.http.get(f"/api/matches/{mid}/state", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200
    return r.text


def test_bad_messages_get_typed_errors_and_change_nothing(server: ServerThread) -> None:
    created = server.create("lost-cities", {"rounds": 1})
    mid = created["match"]
    t0, t1 = created["seats"][0]["token"], created["seats"][1]["token"]
    a, b = join(server, mid, t0), join(server, mid, t1)
    spec = join(server, mid)
    try:
        assert a.view is not None
        first = a.view["current_player"]
        mover, other = (a, b) if first == 0 else (b, a)
        mover_token = mover.token  # claiming the seat gave it a fresh token
        assert mover_token is not None and mover_token not in (t0, t1)
        before = _snapshot(server, mid, mover_token)
        legal = mover.legal
        illegal_action = next(x for x in range(200) if x not in {m["action"] for m in legal})
        cases: list[tuple[WsClient, Any, str]] = [
            (mover, "{broken json", "bad_json"),
            (mover, b"\x00\x01binary", "bad_message"),
            (mover, "[1, 2]", "bad_message"),
            (mover, {"no": "type"}, "bad_message"),
            (mover, {"type": 5}, "bad_message"),
            (mover, {"type": "fly"}, "unknown_type"),
            (mover, {"type": "hello", "v": 1, "match": mid}, "already_joined"),
            (mover, {"type": "move", "move": legal[0]["move"]}, "bad_message"),
            (mover, {"type": "move", "seq": "0", "move": legal[0]["move"]}, "bad_message"),
            (mover, {"type": "move", "seq": 0}, "bad_message"),
            (mover, {"type": "move", "seq": 0, "move": 17}, "bad_message"),
            (mover, {"type": "move", "seq": 0, "action": "x"}, "bad_message"),
            (mover, {"type": "move", "seq": 0, "action": True}, "bad_message"),
            (mover, {"type": "move", "seq": 0, "action": 10**9}, "illegal"),
            (mover, {"type": "move", "seq": 0, "action": illegal_action}, "illegal"),
            (mover, {"type": "move", "seq": 0, "move": "fly to the moon"}, "illegal"),
            (mover, {"type": "move", "seq": 0, "move": "x" * 300}, "bad_message"),
            (mover, {"type": "move", "seq": 5, "move": legal[0]["move"]}, "stale"),
            (mover, {"type": "move", "seq": -1, "move": legal[0]["move"]}, "stale"),
            (mover, {"type": "move", "seq": 0, "move": legal[0]["move"], "id": [1]}, "bad_message"),
            (mover, "x" * 10000, "too_large"),
            (other, {"type": "move", "seq": 0, "move": legal[0]["move"]}, "not_your_turn"),
            (other, {"type": "hint"}, "hints_off"),
            (spec, {"type": "move", "seq": 0, "move": legal[0]["move"]}, "not_a_player"),
            (spec, {"type": "hint"}, "not_a_player"),
            (spec, {"type": "leave"}, "not_a_player"),
            (spec, {"type": "reclaim"}, "not_a_player"),
            (other, {"type": "reclaim"}, "seat_is_human"),
            (other, {"type": "takeover", "seat": "1"}, "bad_message"),
            (other, {"type": "takeover", "seat": 7}, "bad_seat"),
            (other, {"type": "takeover", "seat": 1 - (0 if other is a else 1), "agent": "nobody"}, "bad_agent"),
            (other, {"type": "takeover", "seat": first}, "seat_connected"),
        ]
        for client, msg, code in cases:
            client.send(msg)
            err = client.wait("error")
            assert err["code"] == code, (msg, err)
            assert err["seq"] == 0 and isinstance(err["message"], str) and err["message"]
        r = server.http.post(f"/api/matches/{mid}/moves", json={"seq": 0, "action": illegal_action},
                             headers={"Authorization": f"Bearer {mover_token}"})
        assert r.status_code == 409 and r.json()["code"] == "illegal"
        assert _snapshot(server, mid, mover_token) == before
        assert not a.closed.is_set() and not b.closed.is_set() and not spec.closed.is_set()

        # The request id is echoed; the move is acknowledged then broadcast.
        mover.send({"type": "move", "seq": 0, "move": legal[0]["move"], "id": "m1"})
        ack = mover.wait("ack")
        assert ack == {"type": "ack", "seq": 1, "id": "m1"}
        for c in (a, b, spec):
            up = c.wait_seq(1)
            assert up["event"]["seq"] == 1 and up["event"]["seat"] == first
        # Resending the same move is a duplicate; another old move is stale.
        dup = mover.request({"type": "move", "seq": 0, "move": legal[0]["move"]}, "error")
        assert dup["code"] == "duplicate"
        dup = mover.request({"type": "move", "seq": 0, "action": legal[0]["action"]}, "error")
        assert dup["code"] == "duplicate"
        stale = mover.request({"type": "move", "seq": 0, "move": legal[-1]["move"]}, "error")
        assert stale["code"] in ("stale", "duplicate")
        assert server.http.get(f"/api/matches/{mid}").json()["seq"] == 1
        pong = a.request({"type": "ping", "id": 9}, "pong")
        assert pong == {"type": "pong", "seq": 1, "id": 9}
    finally:
        for c in (a, b, spec):
            c.close()


def test_hello_errors(server: ServerThread) -> None:
    created = server.create("lost-cities", {"rounds": 1}, spectators=False)
    mid = created["match"]
    other = server.create("lost-cities", {"rounds": 1})
    cases = [
        ({"type": "move", "seq": 0, "action": 1}, "not_joined", False),
        ({"type": "hello", "v": 2, "match": mid}, "unsupported_version", True),
        ({"type": "hello", "v": 1, "match": "nope"}, "no_such_match", True),
        ({"type": "hello", "v": 1, "match": 7}, "bad_message", False),
        ({"type": "hello", "v": 1, "match": mid, "token": "wrong"}, "auth_failed", True),
        ({"type": "hello", "v": 1, "match": mid, "token": other["seats"][0]["token"]}, "auth_failed", True),
        ({"type": "hello", "v": 1, "match": mid, "token": other["host_token"]}, "auth_failed", True),
        ({"type": "hello", "v": 1, "match": mid}, "spectators_disallowed", True),
    ]
    for msg, code, closes in cases:
        c = WsClient(server.ws_url)
        try:
            err = c.request(msg, "error")
            assert err["code"] == code, (msg, err)
            if closes:
                assert c.closed.wait(5)
            else:
                assert not c.closed.wait(0.05)
        finally:
            c.close()


def test_reconnect_resumes_where_it_was(server: ServerThread) -> None:
    created = server.create("rank", {"players": 3})
    mid = created["match"]
    tokens = [s["token"] for s in created["seats"]]
    clients = {i: join(server, mid, t) for i, t in enumerate(tokens)}
    rng = random.Random(3)
    seq = play_random(clients, [], rng, limit=10)
    seat = 1
    before = clients[seat]
    before_view, before_legal = before.view, before.legal
    before.close()
    # The others see seat 1 disconnected.
    seats = clients[0].wait(lambda m: m["type"] == "seats" and not m["seats"][seat]["connected"])
    assert seats["seats"][seat]["claimed"]
    assert before.token is not None and before.token != tokens[seat]  # the claim's fresh token
    again = join(server, mid, before.token)
    assert again.seq == seq and again.view == before_view and again.legal == before_legal
    state = json.loads(again.raw[1])
    assert [e["seq"] for e in state["log"]] == list(range(1, seq + 1))
    clients[seat] = again
    play_random(clients, [], rng, limit=10)
    for c in clients.values():
        c.close()


def test_ai_seats_hints_and_takeover(server: ServerThread) -> None:
    created = server.create("lost-cities", {"rounds": 1},
                            seats=[{"kind": "human", "name": "Ann"}, {"kind": "ai", "agent": "random"}])
    assert created["info"]["hints"] is True
    mid = created["match"]
    ann = join(server, mid, created["seats"][0]["token"])
    token = ann.token
    try:
        # Ann follows the hints; the AI answers; after a few turns Ann hands her seat to the AI.
        turns = 0
        while turns < 6:
            assert ann.view is not None
            if ann.view["current_player"] != 0:
                ann.wait(lambda m: m["type"] == "update" and m["view"]["current_player"] == 0)
                continue
            hint = ann.request({"type": "hint", "id": "h"}, "hint")
            assert hint["seq"] == ann.seq and hint["move"] in [m["move"] for m in ann.legal]
            assert hint["id"] == "h" and hint["agent"] == "heuristic"
            rest = server.http.post(f"/api/matches/{mid}/hint", headers={"Authorization": f"Bearer {token}"})
            assert rest.status_code == 200 and rest.json()["seq"] == ann.seq
            ann.send({"type": "move", "seq": hint["seq"], "action": hint["action"]})
            ack = ann.wait("ack")
            ann.wait_seq(ack["seq"])
            turns += 1
        ann.wait(lambda m: m["type"] == "update" and m["view"]["current_player"] == 0)
        seq = ann.seq
        ann.send({"type": "leave", "agent": "heuristic"})
        ann.wait(lambda m: m["type"] == "seats" and m["seats"][0]["kind"] == "ai")
        ann.wait_seq(seq + 4)  # the AI plays on for her
        err = ann.request({"type": "move", "seq": ann.seq, "action": 0}, "error")
        assert err["code"] in ("seat_is_ai", "stale")
        ann.send({"type": "reclaim"})
        ann.wait(lambda m: m["type"] == "seats" and m["seats"][0]["kind"] == "human")
    finally:
        ann.close()


def test_takeover_of_a_departed_player(tmp_path: Any) -> None:
    clock = ManualClock()
    settings = generous_settings(takeover_grace=30.0, clock=clock, rate_per_second=5000.0, rate_burst=20000.0)
    with ServerThread(f"sqlite:///{tmp_path / 'takeover.db'}", settings=settings) as server:
        _takeover_of_a_departed_player(server, clock)


def _takeover_of_a_departed_player(server: ServerThread, clock: ManualClock) -> None:
    created = server.create("lost-cities", {"rounds": 1})
    mid, host = created["match"], created["host_token"]
    t0, t1 = created["seats"][0]["token"], created["seats"][1]["token"]
    a, b = join(server, mid, t0), join(server, mid, t1)
    b.close()
    a.wait(lambda m: m["type"] == "seats" and not m["seats"][1]["connected"])
    err = a.request({"type": "takeover", "seat": 1}, "error")
    assert err["code"] == "too_early"
    clock.advance(30.0)  # the grace period
    a.send({"type": "takeover", "seat": 1, "agent": "random"})
    seats = a.wait(lambda m: m["type"] == "seats" and m["seats"][1]["kind"] == "ai")
    assert seats["seats"][1]["agent"] == "random"
    # The AI now plays seat 1 whenever it is its turn.
    rng = random.Random(1)
    for _ in range(3):
        while a.view is not None and a.view["current_player"] != 0:
            a.wait("update")
        seq = a.seq
        a.send({"type": "move", "seq": seq, "action": rng.choice(a.legal)["action"]})
        a.wait_seq(seq + 1)
    # Host takeover over REST, once the player is gone for the grace period; a stranger cannot.
    def host_takes(seat: int) -> Any:
        return server.http.post(f"/api/matches/{mid}/seats/{seat}/ai", json={"agent": "heuristic"},
                                headers={"Authorization": f"Bearer {host}"})

    r = server.http.post(f"/api/matches/{mid}/seats/0/ai", json={"agent": "heuristic"})
    assert r.status_code == 401
    assert host_takes(0).json()["code"] == "seat_connected"
    watcher = join(server, mid)
    a.close()
    watcher.wait(lambda m: m["type"] == "seats" and not m["seats"][0]["connected"])
    assert host_takes(0).json()["code"] == "too_early"
    clock.advance(30.0)
    r = host_takes(0)
    assert r.status_code == 200 and r.json()["seats"][0]["kind"] == "ai"
    # Two AIs finish the match on their own.
    watcher.wait(lambda m: m["type"] == "update" and m["status"] == "finished", timeout=2 * CEILING)
    r = server.http.post(f"/api/matches/{mid}/seats/1/human", headers={"Authorization": f"Bearer {a.token}"})
    assert r.status_code == 403 and r.json()["code"] == "not_your_seat"
    watcher.close()


def test_rest_play(server: ServerThread) -> None:
    created = server.create("rank", {"players": 2}, seed=11)
    mid = created["match"]
    assert created["info"]["fixed_seed"] is True
    tokens = [s["token"] for s in created["seats"]]
    rng = random.Random(2)
    for _ in range(8):
        states = [server.http.get(f"/api/matches/{mid}/state", headers={"Authorization": f"Bearer {t}"}).json()
                  for t in tokens]
        cur = states[0]["view"]["current_player"]
        st = states[cur]
        assert st["you"] == cur and st["legal"]
        move = rng.choice(st["legal"])["move"]
        r = server.http.post(f"/api/matches/{mid}/moves", json={"seq": st["seq"], "move": move},
                             headers={"Authorization": f"Bearer {tokens[cur]}"})
        assert r.status_code == 200, r.text
        assert r.json()["seq"] == st["seq"] + 1
        again = server.http.post(f"/api/matches/{mid}/moves", json={"seq": st["seq"], "move": move},
                                 headers={"Authorization": f"Bearer {tokens[cur]}"})
        assert again.status_code == 409 and again.json()["code"] == "duplicate"
    r = server.http.get(f"/api/matches/{mid}/state", headers={"Authorization": "Basic abc"})
    assert r.status_code == 401
    r = server.http.get(f"/api/matches/{mid}/record", headers={"Authorization": f"Bearer {tokens[0]}"})
    assert r.status_code == 409 and r.json()["code"] == "not_finished"
    spectator = server.http.get(f"/api/matches/{mid}/state").json()
    assert spectator["you"] is None and spectator["legal"] == [] and "hand" not in spectator["view"]


def test_flood_is_rate_limited(tmp_path: Any) -> None:
    """The message bucket runs on a clock the test drives: with the clock stopped,
    exactly the burst is answered (the hello took one token); each second of the
    clock then buys exactly ``rate`` more messages."""
    clock = ManualClock()
    settings = generous_settings(rate_per_second=5.0, rate_burst=200.0, clock=clock, ai_workers=0)
    with ServerThread(f"sqlite:///{tmp_path / 'flood.db'}", settings=settings) as srv:
        created = srv.create("rank", {"players": 2})
        c = join(srv, created["match"], created["seats"][0]["token"])
        try:
            for i in range(260):
                c.send({"type": "ping", "id": i})
            replies = [c.wait(lambda m: m["type"] in ("pong", "error")) for _ in range(260)]
            assert sum(m["type"] == "pong" for m in replies) == 199
            assert [m.get("code") for m in replies if m["type"] == "error"] == ["rate_limited"] * 61
            clock.advance(2.0)
            for i in range(15):
                c.send({"type": "ping", "id": 1000 + i})
            replies = [c.wait(lambda m: m["type"] in ("pong", "error")) for _ in range(15)]
            assert [m["type"] for m in replies] == ["pong"] * 10 + ["error"] * 5
            assert not c.closed.is_set()
        finally:
            c.close()


def test_a_failed_write_is_refused_and_changes_nothing(server: ServerThread) -> None:
    created = server.create("rank", {"players": 2})
    mid = created["match"]
    clients = {s["seat"]: join(server, mid, s["token"]) for s in created["seats"]}
    store = server.app.state.store
    original = store.append_move

    async def broken(*args: Any) -> None:
        raise RuntimeError("disk on fire")

    try:
        view = clients[0].view
        assert view is not None
        mover = clients[view["current_player"]]
        before = (mover.view, mover.legal)
        store.append_move = broken
        err = mover.request({"type": "move", "seq": 0, "action": mover.legal[0]["action"]}, "error")
        assert err["code"] == "storage" and err["seq"] == 0
        assert server.http.get(f"/api/matches/{mid}").json()["seq"] == 0
        store.append_move = original
        state = mover.request({"type": "sync"}, "state")
        assert (state["view"], state["legal"]) == before
        mover.send({"type": "move", "seq": 0, "action": mover.legal[0]["action"]})
        for c in clients.values():
            c.wait_seq(1)
    finally:
        store.append_move = original
        for c in clients.values():
            c.close()
