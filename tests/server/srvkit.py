"""Test kit of the server tests: a uvicorn server in a thread, and a small
synchronous websocket client that records every message it receives."""

from __future__ import annotations

import json
import os
import queue
import secrets
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from cardtable.server import GRACEFUL_SHUTDOWN_SECONDS
from cardtable.server.app import create_app
from cardtable.server.room import Settings

Msg = dict[str, Any]

CLIENT_LIMITS = httpx.Limits(keepalive_expiry=1.0)
"""The test clients' connection pool: a connection idle for a second is not reused.  uvicorn
closes a keep-alive connection idle for its ``timeout_keep_alive`` (5 s by default, the
same as httpx's own expiry): on a loaded machine a request sent on such a connection as the
server closes it fails with "Server disconnected without sending a response"."""

CEILING = 60.0
"""Seconds any wait of the tests may last before it counts as a failure.  Generous on
purpose (the machine may be busy): a wait ends as soon as its condition holds, so a
ceiling only bounds a test that is failing anyway."""


def eventually(condition: Callable[[], bool], what: str, timeout: float = CEILING) -> None:
    """Return once ``condition()`` holds; fail saying ``what`` did not happen after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} (still not so after {timeout:.0f} s)")
        time.sleep(0.02)


BACKENDS = ["sqlite"] + (["postgresql"] if os.environ.get("CARDTABLE_TEST_PG") else [])
"""The databases the server tests run against: SQLite always, PostgreSQL when
``CARDTABLE_TEST_PG`` is its URL (``scripts/ci-postgres.sh`` prints one)."""


GENEROUS_LIMITS: dict[str, Any] = {
    "http_rate_per_second": 1e6, "http_burst": 1e6, "max_matches_per_minute": 1e6, "hints_per_minute": 1e6,
    "max_sockets_per_address": 100000, "ai_workers": 0, "outbox_limit": 100000,
}
"""Limits of the servers of tests that do not test limits: every request comes from
127.0.0.1, far faster than any one client would; AI searches run in a thread (the
process pool has tests of its own); a connection's outbox never overflows (on a loaded
machine the server may answer a burst of messages faster than its sender task drains
them: the slow-consumer cut-off has a test of its own)."""


_PG_DATABASES: list[str] = []
"""The PostgreSQL databases this test run made (dropped by :func:`drop_test_databases`)."""


def _pg_admin() -> Any:
    from sqlalchemy import create_engine
    from sqlalchemy.engine import make_url

    from cardtable.server.store import normalise_url

    base = make_url(normalise_url(os.environ["CARDTABLE_TEST_PG"]))
    return base, create_engine(base.set(database="postgres"), isolation_level="AUTOCOMMIT")


def fresh_pg_database() -> str:
    """The URL of a new, empty database on the ``CARDTABLE_TEST_PG`` server, named for
    this process: test runs beside each other (several clones, a developer's run next to
    CI) never share or drop each other's tables."""
    from sqlalchemy import text

    base, admin = _pg_admin()
    name = f"cardtable_t{os.getpid()}_{secrets.token_hex(3)}"
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        admin.dispose()
    _PG_DATABASES.append(name)
    return str(base.set(database=name).render_as_string(hide_password=False))


def drop_test_databases() -> None:
    """Drop the databases :func:`fresh_pg_database` made in this process."""
    if not _PG_DATABASES:
        return
    from sqlalchemy import text

    _, admin = _pg_admin()
    try:
        with admin.connect() as conn:
            while _PG_DATABASES:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{_PG_DATABASES.pop()}" WITH (FORCE)'))
    finally:
        admin.dispose()


def db_url_for(backend: str, tmp: Path) -> str:
    """A new, empty database of ``backend`` for one test or module."""
    if backend == "postgresql":
        return fresh_pg_database()
    return f"sqlite:///{tmp / 'cardtable.db'}"


def generous_settings(**fields: Any) -> Settings:
    """Server settings with :data:`GENEROUS_LIMITS` but for the ``fields`` a test is about."""
    return Settings(**{**GENEROUS_LIMITS, **fields})


class ServerThread:
    """``with ServerThread(db_url) as srv:`` — a live server on 127.0.0.1."""

    def __init__(self, db_url: str, **options: Any) -> None:
        self.db_url = db_url
        if "settings" not in options:
            options = {**GENEROUS_LIMITS, **options}
        self.app = create_app(db_url, **options)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}/ws"
        config = uvicorn.Config(self.app, log_level="warning", ws_max_size=65536, lifespan="on",
                                ws_per_message_deflate=False, timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_SECONDS,
                                timeout_keep_alive=int(CEILING))
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)
        self.http = httpx.Client(base_url=self.base, timeout=CEILING, limits=CLIENT_LIMITS)

    def __enter__(self) -> ServerThread:
        self.thread.start()
        eventually(lambda: self.server.started or not self.thread.is_alive(), "the server did not start")
        if not self.thread.is_alive():
            raise RuntimeError("the server thread ended while starting")
        return self

    def __exit__(self, *exc: object) -> None:
        self.http.close()
        self.server.should_exit = True
        self.thread.join(CEILING)
        self.sock.close()

    @property
    def rooms(self) -> Any:
        return self.app.state.rooms

    # --- helpers ------------------------------------------------------------------
    def create(self, game: str, config: dict[str, Any] | None = None, seats: list[Msg] | None = None,
               **extra: Any) -> Msg:
        body: Msg = {"game": game, "config": config or {}, **extra}
        if seats is not None:
            body["seats"] = seats
        r = self.http.post("/api/matches", json=body)
        assert r.status_code == 201, r.text
        data: Msg = r.json()
        return data

    def client(self, match: str, token: str | None = None, *, headers: dict[str, str] | None = None,
               **hello: Any) -> WsClient:
        c = WsClient(self.ws_url, headers)
        c.token = token
        c.send({"type": "hello", "v": 1, "match": match, "token": token, **hello})
        return c


class WsClient:
    """A websocket client whose reader thread keeps every message received."""

    def __init__(self, url: str, headers: dict[str, str] | None = None) -> None:
        self.ws: ClientConnection = connect(url, open_timeout=CEILING, max_size=2**24,
                                            additional_headers=headers).__enter__()
        self.raw: list[str] = []
        self.inbox: queue.Queue[Msg | None] = queue.Queue()
        self.closed = threading.Event()
        self.seq = -1
        self.view: Msg | None = None
        self.legal: list[Msg] = []
        self.token: str | None = None
        """The seat's token: the one of the hello (:meth:`ServerThread.client`), or the
        fresh one of a ``welcome`` that claimed the seat (protocol revision 3)."""
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        try:
            for text in self.ws:
                assert isinstance(text, str)
                self.raw.append(text)
                msg = json.loads(text)
                if msg.get("type") in ("state", "update"):
                    self.seq = msg["seq"]
                    self.view = msg["view"]
                    self.legal = msg["legal"]
                if msg.get("type") == "welcome" and "token" in msg:
                    self.token = msg["token"]
                self.inbox.put(msg)
        except ConnectionClosed:
            pass
        finally:
            self.closed.set()
            self.inbox.put(None)

    def send(self, msg: Msg | str | bytes) -> None:
        self.ws.send(msg if isinstance(msg, (str, bytes)) else json.dumps(msg))

    def next(self, timeout: float = CEILING) -> Msg:
        msg = self.inbox.get(timeout=timeout)
        if msg is None:
            self.inbox.put(None)
            last = self.raw[-1][:300] if self.raw else None
            raise ConnectionError(f"connection closed ({self.ws.close_code} {self.ws.close_reason!r}); last: {last}")
        return msg

    def wait(self, pred: Callable[[Msg], bool] | str, timeout: float = CEILING) -> Msg:
        """The next message matching ``pred`` (a type name or a predicate); others are skipped."""
        test = (lambda m: m.get("type") == pred) if isinstance(pred, str) else pred
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no message matching {pred!r}")
            msg = self.next(left)
            if test(msg):
                return msg

    def wait_seq(self, seq: int, timeout: float = CEILING) -> Msg:
        """Wait until this client has seen the state of ``seq`` (an update or a state)."""
        return self.wait(lambda m: m.get("type") in ("state", "update") and m["seq"] >= seq, timeout)

    def request(self, msg: Msg, reply: str | Callable[[Msg], bool], timeout: float = CEILING) -> Msg:
        self.send(msg)
        return self.wait(reply, timeout)

    def drain(self) -> list[Msg]:
        out: list[Msg] = []
        while True:
            try:
                m = self.inbox.get_nowait()
            except queue.Empty:
                return out
            if m is not None:
                out.append(m)

    def close(self) -> None:
        try:
            self.ws.close()
        except Exception:  # noqa: BLE001
            pass
        self.reader.join(CEILING)

    def __enter__(self) -> WsClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def join(srv: ServerThread, match: str, token: str | None = None, **hello: Any) -> WsClient:
    """Connect and wait for the welcome and the first state."""
    c = srv.client(match, token, **hello)
    c.wait("welcome")
    c.wait("state")
    return c
