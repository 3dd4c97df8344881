"""Resource limits of the match server (issue #12, findings 3, 5, 8, 10): per-address
rates on a clock the tests drive, socket caps, bodies cut off at the limit, the
Origin/Host checks, idle matches leaving memory, searches in worker processes,
one server per SQLite file, and a bounded WAL."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from srvkit import CEILING, GENEROUS_LIMITS, ServerThread, WsClient, eventually, generous_settings, join
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from cardtable.server.limits import ManualClock
from cardtable.server.room import Settings
from cardtable.server.store import DatabaseInUse, MatchRow, SeatRow, Store
from cardtable.server import workers
from cardtable.server.workers import SearchJob, run_search

ROOT = Path(__file__).resolve().parents[2]


settings = generous_settings


@pytest.fixture()
def clock() -> ManualClock:
    return ManualClock()


def wait_for_sweeps(srv: ServerThread, n: int) -> None:
    """Wait until the idle sweeper has looked ``n`` more times."""
    start = srv.rooms.sweeps
    eventually(lambda: srv.rooms.sweeps >= start + n, f"{n} idle sweeps")


@pytest.fixture()
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'limits.db'}"


# --- per-address rates ----------------------------------------------------------------
def test_match_creation_is_rate_limited_per_address(db: str, clock: ManualClock) -> None:
    with ServerThread(db, settings=settings(clock=clock, max_matches_per_minute=3)) as srv:
        body = {"game": "rank", "config": {"players": 2}}
        codes = [srv.http.post("/api/matches", json=body).status_code for _ in range(5)]
        assert codes == [201, 201, 201, 429, 429]
        refused = srv.http.post("/api/matches", json=body)
        assert refused.json()["code"] == "rate_limited" and "3 new matches a minute" in refused.json()["message"]
        clock.advance(20.0)  # a minute buys 3: 20 s buys one
        assert [srv.http.post("/api/matches", json=body).status_code for _ in range(2)] == [201, 429]
        assert srv.http.get("/api/health").status_code == 200  # other requests are not creations


def test_http_requests_are_rate_limited_per_address(db: str, clock: ManualClock) -> None:
    with ServerThread(db, settings=settings(clock=clock, http_rate_per_second=2.0, http_burst=5.0)) as srv:
        codes = [srv.http.get("/api/health").status_code for _ in range(7)]
        assert codes == [200] * 5 + [429] * 2
        clock.advance(1.0)
        assert [srv.http.get("/api/games").status_code for _ in range(3)] == [200, 200, 429]


def test_hints_are_rate_limited_per_address(db: str, clock: ManualClock) -> None:
    with ServerThread(db, settings=settings(clock=clock, hints_per_minute=2)) as srv:
        created = srv.create("rank", {"players": 2}, hints=True)
        mid = created["match"]
        clients = [join(srv, mid, s["token"]) for s in created["seats"]]
        try:
            view = clients[0].view
            assert view is not None
            mover = clients[view["current_player"]]
            first = mover.request({"type": "hint", "id": 1}, lambda m: m.get("id") == 1)
            second = srv.http.post(f"/api/matches/{mid}/hint",
                                   headers={"Authorization": f"Bearer {mover.token}"})
            third = mover.request({"type": "hint", "id": 3}, lambda m: m.get("id") == 3)
            assert first["type"] == "hint" and second.status_code == 200
            assert third["type"] == "error" and third["code"] == "rate_limited"
            clock.advance(30.0)
            assert mover.request({"type": "hint", "id": 4}, lambda m: m.get("id") == 4)["type"] == "hint"
        finally:
            for c in clients:
                c.close()


# --- sockets and the hello phase --------------------------------------------------------------
def test_sockets_per_address_are_capped(db: str) -> None:
    with ServerThread(db, settings=settings(max_sockets_per_address=3)) as srv:
        mid = srv.create("rank", {"players": 2})["match"]
        watchers = [join(srv, mid) for _ in range(3)]
        try:
            extra = WsClient(srv.ws_url)
            err = extra.wait("error")
            assert err["code"] == "too_many_connections"
            assert extra.closed.wait(CEILING)
            watchers.pop().close()

            def admitted() -> bool:
                c = WsClient(srv.ws_url)
                try:
                    c.send({"type": "hello", "v": 1, "match": mid})
                    ok = c.wait(lambda m: m["type"] in ("welcome", "error"))["type"] == "welcome"
                except ConnectionClosed:
                    ok = False
                if ok:
                    watchers.append(c)
                else:
                    c.close()
                return ok

            eventually(admitted, "the spectators admitted")
        finally:
            for c in watchers:
                c.close()


def test_frames_before_hello_are_rate_limited(db: str, clock: ManualClock) -> None:
    with ServerThread(db, settings=settings(clock=clock, rate_burst=10.0, rate_per_second=1.0)) as srv:
        c = WsClient(srv.ws_url)
        try:
            for i in range(30):
                try:
                    c.send({"type": "ping", "id": i})
                except ConnectionClosed:  # the server has closed it: what the test waits for
                    break
            assert c.closed.wait(CEILING)
            codes = [m["code"] for m in c.drain()]
            assert codes == ["not_joined"] * 10 + ["rate_limited"]
        finally:
            c.close()


def test_hello_timeout_is_a_deadline_from_the_socket_opening(db: str, clock: ManualClock) -> None:
    with ServerThread(db, settings=settings(clock=clock, hello_timeout=500.0)) as srv:
        c = WsClient(srv.ws_url)
        try:
            for _ in range(2):
                assert c.request({"type": "ping"}, "error")["code"] == "not_joined"
                clock.advance(300.0)  # each frame came within 500 s of the previous one
            assert c.request({"type": "ping"}, "error")["code"] == "hello_timeout"
            assert c.closed.wait(CEILING)
        finally:
            c.close()


# --- bodies -------------------------------------------------------------------------
def raw_request(srv: ServerThread, head: str, body_chunks: list[bytes]) -> bytes:
    """Send ``head`` and the chunks (without ending the body), then read the answer."""
    with socket.create_connection(("127.0.0.1", srv.port), timeout=CEILING) as s:
        s.sendall(head.encode())
        for chunk in body_chunks:
            try:
                s.sendall(chunk)
            except OSError:
                break
        return s.recv(65536)


def test_a_long_chunked_body_is_cut_off_at_the_limit(db: str) -> None:
    with ServerThread(db, settings=settings(max_body_bytes=16384)) as srv:
        head = (f"POST /api/matches HTTP/1.1\r\nHost: 127.0.0.1:{srv.port}\r\n"
                "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
        chunk = b"x" * 8192
        framed = f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n"
        answer = raw_request(srv, head, [framed] * 4)  # 32 KiB sent, the body never ends
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
        assert b'"too_large"' in answer


def test_a_declared_length_over_the_limit_is_refused_at_once(db: str) -> None:
    with ServerThread(db, settings=settings(max_body_bytes=16384)) as srv:
        head = (f"POST /api/matches HTTP/1.1\r\nHost: 127.0.0.1:{srv.port}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {300 * 2**20}\r\n\r\n")
        answer = raw_request(srv, head, [])
        assert answer.startswith(b"HTTP/1.1 413") and b'"too_large"' in answer


# --- Origin and Host ------------------------------------------------------------------------
def test_cross_origin_requests_and_foreign_hosts_are_refused(db: str) -> None:
    with ServerThread(db, settings=settings(allowed_origins=("https://friend.example",))) as srv:
        body = json.dumps({"game": "rank", "config": {"players": 2}})
        plain = {"Content-Type": "text/plain"}
        r = srv.http.post("/api/matches", content=body, headers={**plain, "Origin": "http://evil.example"})
        assert r.status_code == 403 and r.json()["code"] == "bad_origin"
        assert srv.http.post("/api/matches", content=body, headers={**plain, "Origin": "null"}).status_code == 403
        assert srv.http.post("/api/matches", content=body, headers={"Origin": srv.base}).status_code == 201
        assert srv.http.post("/api/matches", content=body,
                             headers={"Origin": "https://friend.example"}).status_code == 201
        assert srv.http.post("/api/matches", content=body).status_code == 201  # no Origin: not a browser
        assert srv.http.get("/api/games", headers={"Origin": "http://evil.example"}).status_code == 200
        r = srv.http.get("/api/games", headers={"Host": "evil.example"})
        assert r.status_code == 403 and r.json()["code"] == "bad_origin"
        assert srv.http.get("/api/games", headers={"Host": f"localhost:{srv.port}"}).status_code == 200


def test_foreign_hosts_are_answered_when_allowed(db: str) -> None:
    with ServerThread(db, settings=settings(allowed_hosts=("cards.example",))) as srv:
        assert srv.http.get("/api/games", headers={"Host": "cards.example"}).status_code == 200
        assert srv.http.get("/api/games", headers={"Host": "other.example"}).status_code == 403


def test_websockets_check_their_origin(db: str) -> None:
    with ServerThread(db) as srv:
        mid = srv.create("rank", {"players": 2})["match"]
        hello = json.dumps({"type": "hello", "v": 1, "match": mid})
        with connect(srv.ws_url, origin="http://evil.example", open_timeout=CEILING) as ws:  # type: ignore[arg-type]
            err = json.loads(ws.recv(timeout=CEILING))
            assert err["code"] == "bad_origin"
        with connect(srv.ws_url, origin=srv.base, open_timeout=CEILING) as ws:  # type: ignore[arg-type]
            ws.send(hello)
            assert json.loads(ws.recv(timeout=CEILING))["type"] == "welcome"


# --- idle matches ------------------------------------------------------------------------------
def test_idle_matches_leave_memory_and_reload(db: str, clock: ManualClock) -> None:
    cfg = settings(clock=clock, room_idle_seconds=60.0, room_sweep_seconds=0.01, ai_delay=0.01)
    with ServerThread(db, settings=cfg) as srv:
        created = srv.create("rank", {"players": 2})
        mid = created["match"]
        bots = srv.create("lost-cities", {"rounds": 3}, seats=[{"kind": "ai"}, {"kind": "ai"}])["match"]
        c = join(srv, mid, created["seats"][0]["token"])
        token = c.token
        clock.advance(120.0)
        wait_for_sweeps(srv, 2)
        assert mid in srv.rooms.rooms  # a connected match stays
        c.close()
        eventually(lambda: srv.rooms.rooms[mid].connection_count() == 0, "the match without connections")
        clock.advance(30.0)
        wait_for_sweeps(srv, 2)
        assert mid in srv.rooms.rooms  # idle for 30 s only
        clock.advance(31.0)
        eventually(lambda: mid not in srv.rooms.rooms, "the idle match evicted")
        room = srv.rooms.rooms[bots]  # the AI-only match is still playing
        assert room.seq > 0 and not room.finished
        info = srv.http.get(f"/api/matches/{mid}").json()
        assert info["id"] == mid and info["seq"] == 0 and mid in srv.rooms.rooms
        with join(srv, mid, token) as again:
            assert again.view is not None and again.view["player"] == 0


# --- the search pool ---------------------------------------------------------------------------
def test_ai_moves_and_hints_are_searched_in_worker_processes(db: str) -> None:
    with ServerThread(db, settings=settings(ai_workers=1)) as srv:
        created = srv.create("lost-cities", {"rounds": 1}, seats=[{"kind": "human"}, {"kind": "ai", "agent": "easy"}],
                             hints=True)
        with join(srv, created["match"], created["seats"][0]["token"]) as me:
            assert me.view is not None
            if me.view["current_player"] != 0:
                me.wait(lambda m: m.get("type") == "update" and m["view"]["current_player"] == 0)
            hint = me.request({"type": "hint", "agent": "easy", "id": "h"}, lambda m: m.get("id") == "h")
            assert hint["type"] == "hint" and hint["action"] in [m["action"] for m in me.legal]
            action = hint["action"]
            while me.view["current_player"] == 0:  # (a Lost Cities turn is a play and a draw)
                seq = me.seq
                me.send({"type": "move", "seq": seq, "action": action})
                me.wait_seq(seq + 1)
                action = me.legal[0]["action"] if me.legal else None
            me.wait(lambda m: m.get("type") == "update" and m["event"]["seat"] == 1)  # the AI moved
        executor = srv.rooms.searches._executor
        assert executor is not None
        pids = {p.pid for p in executor._processes.values()}
        assert pids and os.getpid() not in pids


def test_a_search_job_is_deterministic() -> None:
    """The job's seeds fix the move when the agent's budget is counted in iterations
    (``medium`` itself stops on the clock, so under load it may search less)."""
    job = SearchJob(game="lost-cities", config_json='{"rounds": 1}', seed=5, history=(), player=0,
                    agent="medium:iterations=150", agent_seed=11)
    assert run_search(job) == run_search(job)


def test_hints_are_refused_when_the_pool_is_saturated(db: str) -> None:
    with ServerThread(db, settings=settings(max_queued_searches=0)) as srv:
        created = srv.create("rank", {"players": 2}, hints=True)
        clients = [join(srv, created["match"], s["token"]) for s in created["seats"]]
        try:
            view = clients[0].view
            assert view is not None
            err = clients[view["current_player"]].request({"type": "hint", "id": 1}, lambda m: m.get("id") == 1)
            assert err["type"] == "error" and err["code"] == "busy"
        finally:
            for c in clients:
                c.close()


def test_ai_moves_never_make_a_hint_busy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hints and AI moves are counted apart: ten AI moves waiting leave room for
    ``max_queued_searches`` hints, and only hints make another hint ``busy``."""
    release = threading.Event()

    def held_search(job: SearchJob) -> int:
        assert release.wait(CEILING), "the held searches were never released"
        return 7

    monkeypatch.setattr(workers, "run_search", held_search)
    job = SearchJob(game="rank", config_json="{}", seed=1, history=(), player=0, agent="random", agent_seed=1)

    async def until(condition: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + CEILING
        while not condition():
            assert time.monotonic() < deadline, what
            await asyncio.sleep(0)

    async def scenario() -> None:
        pool = workers.SearchPool(0, max_queued=2)
        loop = asyncio.get_running_loop()
        moves = [loop.create_task(pool.run(job)) for _ in range(10)]
        await until(lambda: pool.pending == 10, "ten AI moves counted")
        hints = [loop.create_task(pool.run(job, refusable=True)) for _ in range(2)]
        await until(lambda: pool.pending == 12 or any(h.done() for h in hints), "two hints counted")
        refused = [h.exception() for h in hints if h.done()]
        assert not refused, f"AI moves made a hint busy: {refused}"
        assert (pool.moves, pool.hints, pool.pending) == (10, 2, 12)
        with pytest.raises(workers.PoolBusy, match="busy with 2 hints"):
            await pool.run(job, refusable=True)
        more_moves = loop.create_task(pool.run(job))  # an AI move still waits its turn
        await until(lambda: pool.moves == 11, "an eleventh AI move counted")
        release.set()
        assert await asyncio.gather(*moves, *hints, more_moves) == [7] * 13
        assert (pool.moves, pool.hints) == (0, 0)

    async def released() -> None:
        try:
            await scenario()
        finally:
            release.set()  # (before asyncio.run waits for the held threads)

    asyncio.run(released())


# --- serving beyond this machine ---------------------------------------------------------------
@pytest.fixture()
def uvicorn_configs(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The uvicorn configs ``cardtable serve`` starts, without serving (so it exits
    saying the server did not start) and without tuning this process's GC."""
    import uvicorn

    import cardtable.server

    seen: list[Any] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: seen.append(self.config))
    monkeypatch.setattr(cardtable.server, "tune_gc", lambda: None)
    return seen


def serve_main(args: list[str]) -> None:
    from cardtable.server import main

    with pytest.raises(SystemExit, match="did not start"):
        main(args)


def test_a_server_beyond_loopback_warns_how_to_allow_its_names(db: str, uvicorn_configs: list[Any],
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    serve_main(["--host", "0.0.0.0", "--port", "0", "--db", db])
    err = capsys.readouterr().err
    assert "answering only requests addressed to localhost, 127.0.0.1 and ::1;" in err
    assert "--allowed-host NAME" in err
    for quiet in (["--host", "0.0.0.0", "--allowed-host", "mybox.lan"], ["--host", "127.0.0.1"]):
        serve_main([*quiet, "--port", "0", "--db", db])
        assert "warning" not in capsys.readouterr().err, quiet
    assert len(uvicorn_configs) == 3


def test_the_host_warning_names_what_is_answered() -> None:
    from cardtable.server import host_warning

    assert host_warning("127.0.0.2", ()) is None and host_warning("::1", ()) is None
    assert host_warning("localhost", ()) is None and host_warning("::", ("*",)) is None
    named = host_warning("192.168.1.5", ())
    assert named is not None and "::1 and 192.168.1.5;" in named and "--allowed-host" in named


def test_serve_passes_the_forwarded_ip_settings_to_uvicorn(db: str, uvicorn_configs: list[Any]) -> None:
    serve_main(["--port", "0", "--db", db, "--proxy-headers", "--forwarded-allow-ips", "10.0.0.7,10.0.0.8"])
    serve_main(["--port", "0", "--db", db])
    from typer.testing import CliRunner

    from cardtable.cli import app

    done = CliRunner().invoke(app, ["serve", "--port", "0", "--db", db, "--proxy-headers",
                                    "--forwarded-allow-ips", "10.0.0.9"])
    assert done.exit_code != 0 and "did not start" in done.output
    forwarded = [(c.proxy_headers, c.forwarded_allow_ips) for c in uvicorn_configs]
    assert forwarded == [(True, "10.0.0.7,10.0.0.8"), (False, "127.0.0.1"), (True, "10.0.0.9")]


# --- one server per SQLite file ----------------------------------------------------------------
def test_a_second_store_on_one_sqlite_file_is_refused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'one.db'}"

    async def scenario() -> None:
        first = Store(url)
        with pytest.raises(DatabaseInUse, match="in use by another cardtable server"):
            Store(url)
        await first.close()
        second = Store(url)  # free again once the first is closed
        await second.close()

    asyncio.run(scenario())


def test_a_second_server_on_one_sqlite_file_exits_with_a_message(tmp_path: Path) -> None:
    db = tmp_path / "one.db"
    with ServerThread(f"sqlite:///{db}"):
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "CARDTABLE_HOME": str(tmp_path)}
        done = subprocess.run([sys.executable, "-m", "cardtable.server", "--port", "0", "--db", f"sqlite:///{db}"],
                              capture_output=True, text=True, timeout=60, env=env)
        assert done.returncode != 0
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and "in use by another cardtable server" in lines[0], done.stderr


# --- the WAL -------------------------------------------------------------------------------------
def test_the_wal_stays_bounded_in_a_burst_of_moves(tmp_path: Path) -> None:
    path = tmp_path / "wal.db"
    wal = Path(f"{path}-wal")

    async def burst() -> tuple[int, int]:
        store = Store(f"sqlite:///{path}", checkpoint_seconds=3600)  # the thread does not help
        row = MatchRow(id="m", game="rank", config={}, seed=1, options={}, host_hash="h", status="active",
                       result=None, created=0.0, updated=0.0,
                       seats=[SeatRow(seat=0, kind="human", name="a", agent=None, token_hash=None)])
        await store.create_match(row)
        largest = 0
        for seq in range(1, 4001):
            await store.append_move("m", seq, 0, seq, "x" * 200)
            largest = max(largest, wal.stat().st_size)
        await store.close()
        return largest, store.batches

    largest, commits = asyncio.run(burst())
    assert commits >= 4000  # one commit per move: at least 2 pages each, 32 MB of WAL frames
    assert largest < 10 * 2**20, f"the WAL reached {largest / 2**20:.1f} MB"


def test_a_connection_that_does_not_drain_its_outbox_is_cut_off() -> None:
    """A slow consumer: past ``outbox_limit`` queued messages the connection is marked
    overflowed and closed (the transport then closes the socket with 1013, "try again
    later"), instead of the server holding an ever longer queue for it; nothing more is
    queued after the cut-off."""
    from cardtable.server.room import Connection

    conn = Connection(3, "127.0.0.1")
    for i in range(3):
        conn.send(f"message {i}")
    assert not conn.overflowed and not conn.closed and conn.queue.qsize() == 3
    conn.send("one too many")
    assert conn.overflowed and conn.closed
    conn.send("after the cut-off")
    drained = [conn.queue.get_nowait() for _ in range(conn.queue.qsize())]
    assert drained == ["message 0", "message 1", "message 2", None]
    assert Settings().outbox_limit >= 256  # a real client's burst fits
