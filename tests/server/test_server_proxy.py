"""The nginx configuration of docs/scaling.md, run by Debian's nginx in front of two
cluster nodes: traffic of a match reaches its owner directly (routing by match id),
and when the owner dies nginx's next choice takes the match over."""

from __future__ import annotations

import random
import re
import shutil
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from srvkit import CEILING, CLIENT_LIMITS, WsClient, eventually
from test_server_cluster import Node, needs_pg, pg_url, play_turn  # noqa: F401 - pg_url is a fixture

ROOT = Path(__file__).resolve().parents[2]
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)


def documented_config() -> str:
    """The nginx block of docs/scaling.md (what is tested is what is documented)."""
    doc = (ROOT / "docs" / "scaling.md").read_text()
    found = re.search(r"```nginx\n(.*?)```", doc, re.S)
    assert found, "docs/scaling.md has no nginx configuration"
    return found.group(1)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def nginx_for(tmp_path: Path) -> Iterator[object]:
    procs: list[subprocess.Popen[bytes]] = []

    def start(ports: list[int]) -> str:
        conf = documented_config()
        servers = "\n".join(f"    server 127.0.0.1:{p} max_fails=1 fail_timeout=5s;" for p in ports)
        conf = re.sub(r"(upstream cardtable \{\n\s*hash[^\n]*\n)(?:\s*server [^\n]*\n)+", rf"\g<1>{servers}\n", conf)
        listen = free_port()
        conf = conf.replace("listen 80;", f"listen 127.0.0.1:{listen};")
        for d in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (tmp_path / d).mkdir(exist_ok=True)
        temps = "".join(f"    {d}_temp_path {tmp_path / d};\n" for d in ("proxy", "fastcgi", "uwsgi", "scgi"))
        (tmp_path / "nginx.conf").write_text(
            f"user root;\nworker_processes 1;\ndaemon off;\npid {tmp_path / 'nginx.pid'};\n"
            f"error_log {tmp_path / 'error.log'};\nevents {{}}\nhttp {{\n    access_log off;\n"
            f"    client_body_temp_path {tmp_path / 'body'};\n{temps}{conf}\n}}\n")
        assert NGINX is not None
        check = subprocess.run([NGINX, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")],
                               capture_output=True, text=True, timeout=CEILING)
        assert check.returncode == 0, check.stderr
        procs.append(subprocess.Popen([NGINX, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")]))
        base = f"http://127.0.0.1:{listen}"

        def up() -> bool:
            try:
                return httpx.get(base + "/api/health", timeout=CEILING).status_code == 200
            except httpx.TransportError:
                return False

        eventually(up, "nginx did not come up")
        return base

    yield start
    for p in procs:
        p.kill()
        p.wait(CEILING)


@needs_pg
@pytest.mark.skipif(NGINX is None, reason="needs Debian's nginx (apt-get install nginx-light)")
def test_nginx_routes_a_match_to_its_owner_and_fails_over(pg_url: str, nginx_for: object) -> None:  # noqa: F811
    nodes = [Node(pg_url), Node(pg_url)]
    try:
        ports = [int(n.base.rsplit(":", 1)[1]) for n in nodes]
        base = nginx_for(ports)  # type: ignore[operator]
        ws_url = base.replace("http://", "ws://") + "/ws"
        proxy = httpx.Client(limits=CLIENT_LIMITS, base_url=base, timeout=CEILING)
        made = proxy.post("/api/matches", json={"game": "lost-cities", "config": {"rounds": 1}}).json()
        match = made["match"]

        def join(token: str) -> WsClient:
            c = WsClient(f"{ws_url}?match={match}")
            c.send({"type": "hello", "v": 1, "match": match, "token": token})
            c.wait("state")
            return c

        clients = {i: join(made["seats"][i]["token"]) for i in (0, 1)}
        tokens = [str(clients[i].token) for i in (0, 1)]
        rng = random.Random(7)
        for _ in range(6):
            play_turn(clients, rng)
        auth = {"Authorization": f"Bearer {tokens[0]}"}
        assert proxy.get(f"/api/matches/{match}/state", headers=auth).status_code == 200
        # routed by match id: both seats reached the owner itself, nothing was relayed
        stats = [n.cluster() for n in nodes]
        assert sum(s["relayed_sockets"] for s in stats) == 0 and sum(s["leases"] for s in stats) == 1
        owner = next(n for n, s in zip(nodes, stats) if s["leases"] == 1)
        seq = clients[0].seq
        owner.kill()
        for c in clients.values():
            assert c.closed.wait(CEILING)
        survivor = next(n for n in nodes if n is not owner)

        def rejoined() -> bool:
            try:
                for i in (0, 1):
                    clients[i] = join(tokens[i])
                return True
            except (ConnectionError, OSError, TimeoutError, Exception):  # noqa: BLE001 - nginx may try the dead one
                return False

        eventually(rejoined, "the clients could not get back through nginx")
        assert clients[0].seq == clients[1].seq == seq
        assert survivor.cluster()["leases"] == 1
        for _ in range(4):
            play_turn(clients, rng)
        for c in clients.values():
            c.close()
    finally:
        for n in nodes:
            n.kill()
