"""Restart test: kill the server process (SIGKILL) during matches, start it
again on the same database, and check that every acknowledged move is there
and that the matches continue — a human-vs-human match and one against an AI;
and that the killed server's AI workers do not outlive it."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from srvkit import BACKENDS, CEILING, CLIENT_LIMITS, WsClient, db_url_for, eventually

from cardtable.server.workers import process_alive

ROOT = Path(__file__).resolve().parents[2]


class ServerProcess:
    def __init__(self, db_url: str) -> None:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "cardtable.server", "--port", "0", "--db", db_url, "--ai-delay", "0"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT, env=env,
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert "cardtable server on http://" in line, line
        self.base = line.split()[3].rstrip("/")
        self.ws_url = self.base.replace("http://", "ws://") + "/ws"
        self.http = httpx.Client(limits=CLIENT_LIMITS, base_url=self.base, timeout=CEILING)
        eventually(self.healthy, "the server did not come up")

    def healthy(self) -> bool:
        try:
            return self.http.get("/api/health").status_code == 200
        except httpx.TransportError:
            return False

    def descendants(self) -> set[int]:
        """Every process started under the server (its AI workers, their forkserver and
        resource tracker), from ``/proc``; empty where there is none."""
        parents: dict[int, int] = {}
        for entry in Path("/proc").glob("[0-9]*/stat") if Path("/proc/self").is_dir() else []:
            try:
                fields = entry.read_text().rsplit(")", 1)[1].split()
            except OSError:  # ended while we looked
                continue
            parents[int(entry.parent.name)] = int(fields[1])
        found: set[int] = set()
        frontier = {self.proc.pid}
        while frontier:
            frontier = {pid for pid, parent in parents.items() if parent in frontier} - found
            found |= frontier
        return found

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(CEILING)
        self.http.close()
        if self.proc.stdout is not None:
            self.proc.stdout.close()

    def join(self, match: str, token: str | None) -> WsClient:
        c = WsClient(self.ws_url)
        c.send({"type": "hello", "v": 1, "match": match, "token": token})
        c.wait("state")
        return c


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield db_url_for(request.param, tmp_path)


def test_kill_and_restart_keeps_every_acknowledged_move(db_url: str) -> None:
    server = ServerProcess(db_url)
    try:
        pvp = server.http.post("/api/matches", json={"game": "lost-cities", "config": {"rounds": 1}}).json()
        pve = server.http.post("/api/matches", json={
            "game": "lost-ranks", "config": {"players": 2},
            "seats": [{"kind": "human"}, {"kind": "ai", "agent": "heuristic"}]}).json()
        tokens = [s["token"] for s in pvp["seats"]]
        a, b = server.join(pvp["match"], tokens[0]), server.join(pvp["match"], tokens[1])
        solo = server.join(pve["match"], pve["seats"][0]["token"])
        # claiming a seat gives it a fresh token (protocol revision 3): the one to come back with
        tokens = [str(a.token), str(b.token)]
        solo_token = solo.token
        clients = {0: a, 1: b}
        rng = random.Random(4)
        acked = 0
        for _ in range(40):
            assert a.view is not None
            mover = clients[a.view["current_player"]]
            seq = mover.seq
            mover.send({"type": "move", "seq": seq, "action": rng.choice(mover.legal)["action"]})
            acked = mover.wait("ack")["seq"]
            a.wait_seq(acked)
            b.wait_seq(acked)
        # Against the AI: play a few turns, then fire a move and kill at once.
        for _ in range(5):
            while solo.view is not None and solo.view["current_player"] != 0:
                solo.wait("update")
            seq = solo.seq
            solo.send({"type": "move", "seq": seq, "action": rng.choice(solo.legal)["action"]})
            solo.wait_seq(seq + 1)
        solo_acked = solo.seq
        views = {0: a.view, 1: b.view}
        assert a.view is not None
        last = clients[a.view["current_player"]]
        last.send({"type": "move", "seq": last.seq, "action": rng.choice(last.legal)["action"]})
        under_server = server.descendants()
        assert under_server or not Path("/proc/self").is_dir()  # the AI's moves ran in workers
        server.kill()
        for c in (a, b, solo):
            assert c.closed.wait(CEILING)
        # its AI workers notice the server is gone and end, and with them the forkserver
        eventually(lambda: not any(process_alive(pid) for pid in under_server),
                   f"processes of the killed server still run: {sorted(under_server)}")
    finally:
        if server.proc.poll() is None:
            server.kill()

    server = ServerProcess(db_url)
    try:
        a, b = server.join(pvp["match"], tokens[0]), server.join(pvp["match"], tokens[1])
        solo = server.join(pve["match"], solo_token)
        # Every acknowledged move is there; the unacknowledged one may or may not be.
        assert a.seq in (acked, acked + 1) and b.seq == a.seq
        if a.seq == acked:
            assert a.view == views[0] and b.view == views[1]
        assert solo.seq >= solo_acked
        info = server.http.get(f"/api/matches/{pvp['match']}").json()
        assert info["seq"] == a.seq and info["status"] == "active"
        # ... and the matches go on to the end.
        clients = {0: a, 1: b}
        while a.view is not None and a.view["current_player"] >= 0:
            mover = clients[a.view["current_player"]]
            seq = mover.seq
            mover.send({"type": "move", "seq": seq, "action": rng.choice(mover.legal)["action"]})
            a.wait_seq(seq + 1)
            b.wait_seq(seq + 1)
        assert json.loads(a.raw[-1])["status"] == "finished"
        while solo.view is not None and solo.view["current_player"] >= 0:
            if solo.view["current_player"] != 0:
                solo.wait("update")
                continue
            seq = solo.seq
            solo.send({"type": "move", "seq": seq, "action": rng.choice(solo.legal)["action"]})
            solo.wait_seq(seq + 1)
        record = server.http.get(f"/api/matches/{pvp['match']}/record",
                           headers={"Authorization": f"Bearer {tokens[0]}"})
        assert record.status_code == 200 and len(record.json()["moves"]) == a.seq
        for c in (a, b, solo):
            c.close()
    finally:
        server.kill()





def test_a_process_is_alive_until_it_ends_a_zombie_included() -> None:
    assert process_alive(os.getpid())
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    eventually(lambda: not process_alive(child.pid), "the ended child (a zombie until reaped) still counts as alive")
    child.wait()
    assert not process_alive(child.pid)
