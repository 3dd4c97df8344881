"""The server on several processes over one PostgreSQL database (``--cluster``,
docs/scaling.md): real server processes, clients on each, the owner of a match
killed (SIGKILL) again and again while its match is played."""

from __future__ import annotations

import json
import os
import random
import secrets
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from srvkit import CEILING, CLIENT_LIMITS, WsClient, eventually
from websockets.exceptions import WebSocketException

from cardtable.server.lease import Lease
from cardtable.server.store import normalise_url

ROOT = Path(__file__).resolve().parents[2]

needs_pg = pytest.mark.skipif(not os.environ.get("CARDTABLE_TEST_PG"),
                              reason="needs PostgreSQL: CARDTABLE_TEST_PG (scripts/ci-postgres.sh)")


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A new empty PostgreSQL database, dropped after the test."""
    base = make_url(normalise_url(os.environ["CARDTABLE_TEST_PG"]))
    name = f"cardtable_cluster_{secrets.token_hex(4)}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield base.set(database=name).set(drivername="postgresql").render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


class Node:
    """One server process of the cluster."""

    def __init__(self, db_url: str) -> None:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "cardtable.server", "--port", "0", "--db", db_url, "--ai-delay", "0",
             "--cluster", "--cluster-check-seconds", "0.2"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT, env=env)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert "cardtable server on http://" in line and "cluster node" in line, line
        self.base = line.split()[3].rstrip("/")
        self.name = line.rsplit("cluster node ", 1)[1].strip(" )\n")
        self.ws_url = self.base.replace("http://", "ws://") + "/ws"
        self.http = httpx.Client(limits=CLIENT_LIMITS, base_url=self.base, timeout=CEILING)
        threading.Thread(target=self._drain, daemon=True).start()
        eventually(self.healthy, "the server did not come up")

    def _drain(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:  # (shown by pytest when a test fails)
            print(f"[{self.name}] {line}", end="", file=sys.stderr)

    def healthy(self) -> bool:
        try:
            return self.http.get("/api/health").status_code == 200
        except httpx.TransportError:
            return False

    def cluster(self) -> dict[str, Any]:
        stats: dict[str, Any] = self.http.get("/api/health").json()["cluster"]
        return stats

    def join(self, match: str, token: str | None) -> WsClient:
        c = WsClient(self.ws_url)
        c.send({"type": "hello", "v": 1, "match": match, "token": token})
        c.wait("state")
        return c

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(CEILING)
        self.http.close()


def owner_of(db_url: str, match: str) -> str | None:
    """The node holding ``match``'s lease, asked of PostgreSQL directly."""
    import asyncio

    async def ask() -> str | None:
        lease = Lease(db_url, "test")
        await lease.open()
        try:
            return await lease.owner_of(match)
        finally:
            await lease.close()

    return asyncio.run(ask())


def stored_moves(db_url: str, match: str) -> list[tuple[int, int, int]]:
    with psycopg.connect(db_url) as conn:
        rows = conn.execute("SELECT seq, seat, action FROM events WHERE match_id = %s ORDER BY seq", (match,))
        return [(int(a), int(b), int(c)) for a, b, c in rows.fetchall()]


def play_turn(clients: dict[int, WsClient], rng: random.Random) -> int:
    """The player to move plays a random legal move; returns the acknowledged seq."""
    first = clients[0]
    assert first.view is not None
    mover = clients[first.view["current_player"]]
    mover.send({"type": "move", "seq": mover.seq, "action": rng.choice(mover.legal)["action"]})
    acked: int = mover.wait("ack")["seq"]
    for c in clients.values():
        c.wait_seq(acked)
    return acked


@needs_pg
def test_a_match_played_across_two_processes(pg_url: str) -> None:
    a, b = Node(pg_url), Node(pg_url)
    try:
        made = a.http.post("/api/matches", json={"game": "lost-cities", "config": {"rounds": 1}}).json()
        match = made["match"]
        assert owner_of(pg_url, match) is None  # a new match waits for the first node its players reach
        seat0 = a.join(match, made["seats"][0]["token"])
        assert owner_of(pg_url, match) == a.name
        seat1 = b.join(match, made["seats"][1]["token"])  # relayed to the owner, a
        tokens = [seat0.token, seat1.token]
        direct1 = a.join(match, tokens[1])  # the same seat straight at the owner
        watcher_b, watcher_a = b.join(match, None), a.join(match, None)
        assert b.cluster()["relayed_sockets"] == 2 and a.cluster()["served_sockets"] == 2
        rng = random.Random(18)
        clients = {0: seat0, 1: seat1}
        for _ in range(6):
            play_turn(clients, rng)
        # a stale and a duplicate move through the relaying process are refused as on one server
        last = stored_moves(pg_url, match)[-1]
        mover = clients[last[1]]
        mover.send({"type": "move", "seq": last[0] - 1, "action": last[2], "id": "dup"})
        assert mover.wait(lambda m: m.get("id") == "dup")["code"] == "duplicate"
        mover.send({"type": "move", "seq": last[0] + 5, "action": last[2], "id": "stale"})
        assert mover.wait(lambda m: m.get("id") == "stale")["code"] == "stale"
        # REST on the process that does not own the match is served by the owner
        auth = {"Authorization": f"Bearer {tokens[1]}"}
        assert b.http.get(f"/api/matches/{match}/state", headers=auth).text == \
            a.http.get(f"/api/matches/{match}/state", headers=auth).text
        while seat0.view is not None and seat0.view["current_player"] >= 0:
            assert seat0.view is not None
            mover = clients[seat0.view["current_player"]]
            headers = {"Authorization": f"Bearer {tokens[mover is seat1]}"}
            if rng.random() < 0.2:  # now and then a move over REST through b
                seq = mover.seq
                reply = b.http.post(f"/api/matches/{match}/moves", headers=headers,
                                    json={"seq": seq, "action": rng.choice(mover.legal)["action"]})
                assert reply.status_code == 200, reply.text
                for c in clients.values():
                    c.wait_seq(seq + 1)
            else:
                play_turn(clients, rng)
        for c in (seat0, seat1, direct1, watcher_a, watcher_b):
            eventually(lambda: any('"status":"finished"' in t for t in c.raw), "a client did not see the end")
        # what crossed processes was made (and redacted) by the owner: byte for byte what
        # the same seat, and a spectator, get from the owner directly
        seen = lambda c: [t for t in c.raw if json.loads(t)["type"] in ("update", "state")][-60:]  # noqa: E731
        assert seen(seat1) == seen(direct1)
        assert seen(watcher_b) == seen(watcher_a)
        moves = stored_moves(pg_url, match)
        assert [m[0] for m in moves] == list(range(1, seat0.seq + 1))
        assert b.http.get(f"/api/matches/{match}").json()["status"] == "finished"
        for c in (seat0, seat1, direct1, watcher_a, watcher_b):
            c.close()
    finally:
        a.kill()
        b.kill()


class Player(threading.Thread):
    """A seat's player: plays random legal moves on whichever live node it reaches,
    reconnecting (and resynchronising) whenever its socket closes; keeps the moves
    acknowledged to it."""

    def __init__(self, seat: int, match: str, token: str, nodes: list[Node], seed: int,
                 gate: threading.Event) -> None:
        super().__init__(daemon=True)
        self.seat, self.match, self.token, self.nodes = seat, match, token, nodes
        self.gate = gate
        """Moves are sent only while it is set (the test holds play while it restarts a node)."""
        self.rng = random.Random(seed)
        self.acked: dict[int, int] = {}
        """seq → action of every move of this seat acknowledged to it."""
        self.reconnects = 0
        self.finished = threading.Event()
        self.failure: BaseException | None = None
        self.where = ""
        """The node of the current session and the last messages (for a failure's report)."""

    def run(self) -> None:
        try:
            while not self.finished.is_set():
                try:
                    self._session(self.rng.choice(list(self.nodes)))
                except (ConnectionError, OSError, TimeoutError, WebSocketException):
                    pass
                self.reconnects += 1
        except BaseException as err:  # noqa: BLE001 - reported by the test
            self.failure = AssertionError(f"seat {self.seat} on {self.where}: {err!r}")

    def _session(self, node: Node) -> None:
        client = WsClient(node.ws_url)
        self.where = node.name
        try:
            client.send({"type": "hello", "v": 1, "match": self.match, "token": self.token})
            pending: tuple[int, int] | None = None
            while True:
                msg = client.next(CEILING)
                self.where = f"{node.name}, last: {client.raw[-3:]}"[:1500]
                if msg.get("type") == "error" and msg.get("code") == "unavailable":
                    return  # the match is changing hands: come back
                if msg.get("type") == "ack":
                    assert pending is not None and msg["seq"] == pending[0] + 1, (msg, pending)
                    self.acked[msg["seq"]] = pending[1]
                    pending = None
                elif msg.get("type") == "error":
                    assert msg["code"] in ("stale", "not_your_turn", "rate_limited"), msg
                    if msg["code"] == "rate_limited":  # a bot outplays the per-connection flood limit
                        time.sleep(0.05)  # (a back-off, not a wait for anything)
                    pending = None
                    client.send({"type": "sync"})
                if msg.get("status") == "finished":
                    self.finished.set()
                    return
                if msg.get("type") not in ("state", "update"):
                    continue
                # (the message's own view: the client's may already be a later message's)
                if pending is None and msg["view"]["current_player"] == self.seat and msg["legal"]:
                    assert self.gate.wait(CEILING * 5), "play was held too long"
                    pending = (msg["seq"], self.rng.choice(msg["legal"])["action"])
                    client.send({"type": "move", "seq": pending[0], "action": pending[1]})
        finally:
            client.close()


@needs_pg
def test_owner_killed_ten_times_mid_match(pg_url: str) -> None:
    rng = random.Random(1818)
    nodes = [Node(pg_url), Node(pg_url)]
    players: list[Player] = []
    try:
        made = nodes[0].http.post("/api/matches", json={"game": "lost-cities", "config": {"rounds": 2}}).json()
        match = made["match"]
        claim = [nodes[i].join(match, made["seats"][i]["token"]) for i in (0, 1)]
        tokens = [str(c.token) for c in claim]
        for c in claim:
            c.close()
        gate = threading.Event()
        gate.set()
        players = [Player(i, match, tokens[i], nodes, seed=i, gate=gate) for i in (0, 1)]
        for p in players:
            p.start()

        def moves() -> int:
            return sum(len(p.acked) for p in players)

        kills = 0
        while kills < 10:
            target = moves() + rng.randint(2, 8)
            eventually(lambda: moves() >= target or any(p.finished.is_set() or p.failure for p in players),
                       f"the match did not go on after takeover {kills}")
            assert not any(p.failure for p in players), [p.failure for p in players]
            assert not any(p.finished.is_set() for p in players), f"the match ended after only {kills} kills"
            eventually(lambda: owner_of(pg_url, match) is not None, "nobody took the match over")
            owner = next(n for n in nodes if n.name == owner_of(pg_url, match))
            owner.kill()  # (moves may be in flight: the players do not wait for the test)
            gate.clear()  # play holds while the test starts a node in place of the dead one
            kills += 1
            nodes[nodes.index(owner)] = Node(pg_url)
            gate.set()
            if kills == 5:  # an old move sent again after the takeover is refused as a duplicate
                seq, action = max(players[0].acked.items())
                replies: list[str] = []

                def refused() -> bool:
                    try:
                        with nodes[1].join(match, tokens[0]) as again:
                            again.send({"type": "move", "seq": seq - 1, "action": action, "id": "again"})
                            replies.append(again.wait(lambda m: m.get("id") == "again")["code"])
                    except (ConnectionError, OSError, WebSocketException):
                        return False  # the match was changing hands: ask again
                    return True

                eventually(refused, "the duplicate move got no answer")
                assert replies[-1] == "duplicate", replies
        for p in players:
            p.join(CEILING * 5)
        failures = [p.failure for p in players if p.failure is not None]
        assert not failures, (failures, [(n.name, n.cluster()) for n in nodes], owner_of(pg_url, match))
        for p in players:
            assert p.finished.is_set()
        stored = stored_moves(pg_url, match)
        assert [m[0] for m in stored] == list(range(1, len(stored) + 1))  # each seq once, none missing
        by_seq = {seq: (seat, action) for seq, seat, action in stored}
        for p in players:
            for seq, action in p.acked.items():
                assert by_seq[seq] == (p.seat, action), f"acknowledged move {seq} of seat {p.seat} is not stored"
        assert sum(p.reconnects for p in players) >= 10
        info = nodes[0].http.get(f"/api/matches/{match}").json()
        assert info["status"] == "finished" and info["seq"] == len(stored)
    finally:
        for p in players:
            p.finished.set()
        for n in nodes:
            n.kill()


def test_cluster_mode_refuses_sqlite(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "cardtable.server", "--port", "0", "--cluster",
                           "--db", f"sqlite:///{tmp_path / 'c.db'}"],
                          capture_output=True, text=True, cwd=ROOT, timeout=CEILING)
    assert proc.returncode != 0
    assert "need PostgreSQL" in proc.stderr and "Traceback" not in proc.stderr


@needs_pg
def test_lobby_pages_on_every_process_hear_of_a_listed_match(pg_url: str) -> None:
    a, b = Node(pg_url), Node(pg_url)
    try:
        heard: list[str] = []
        ready = threading.Event()

        def listen() -> None:
            with httpx.Client(limits=CLIENT_LIMITS, base_url=b.base, timeout=CEILING) as http:
                with http.stream("GET", "/api/lobby/events") as events:
                    for line in events.iter_lines():
                        if line == ": ready":
                            ready.set()
                        if line.startswith("data: "):
                            heard.append(line[6:])
                            return

        listener = threading.Thread(target=listen, daemon=True)
        listener.start()
        assert ready.wait(CEILING)
        made = a.http.post("/api/matches", json={"game": "lost-cities", "listed": True}).json()
        listener.join(CEILING)
        assert heard and json.loads(heard[0]) == {"match": made["match"], "change": "created"}
    finally:
        a.kill()
        b.kill()
