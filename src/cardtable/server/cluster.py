"""The server on several processes sharing one PostgreSQL database (``cardtable serve --cluster``).

Each match has one owning process (*node*) at a time, which holds its lease
(:mod:`cardtable.server.lease`) and keeps the match in memory; its moves are decided
there alone, in seq order, stored before they are acknowledged — exactly as on a
single server (:mod:`cardtable.server.room`).  A websocket or HTTP request for a
match that reaches another node is *relayed*: that node takes the lease itself if
nobody holds it, and otherwise tunnels the connection's ASGI messages to the owner
over the cluster bus (:mod:`cardtable.server.bus`), where the owner's own app serves
it like any other connection.  Whatever leaves the owner — each seat's projection,
errors, replies — is made there, so per-seat redaction happens before anything
crosses processes; the relaying node only copies frames.

When a node dies, PostgreSQL releases its leases; the nodes check who is alive every
:attr:`ClusterConfig.check_seconds` and close the sockets they relayed to a dead
owner, so their clients reconnect, the next node to be asked takes the lease and
rebuilds the match from its stored moves, and the clients resynchronise.  A node
that cannot prove its own lease any more gives up every match it held (fencing);
should two nodes ever race for the same move, the events table's primary key
``(match_id, seq)`` lets one win and the loser rebuilds (:meth:`Room._commit`).
See ``docs/scaling.md``.
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import re
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import psycopg
from sqlalchemy.engine import make_url
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket

from cardtable.server.bus import EVERYONE, Bus
from cardtable.server.errors import ProtocolError
from cardtable.server.lease import Lease, LeaseTimings
from cardtable.server.limits import Limits
from cardtable.server.room import Connection, Room, Rooms, Settings
from cardtable.server.store import MatchRow, Store, normalise_url
from cardtable.server.validate import is_match_id

if TYPE_CHECKING:
    from fastapi import FastAPI

log = logging.getLogger("cardtable.server.cluster")

RELAYED_HEADER = b"x-cardtable-relayed"
"""Marks a request a node relays to the owner (who must not relay it on)."""
HTTP_RELAY_SECONDS = 60.0
"""The longest a relayed HTTP request waits for the owner's answer."""
MATCH_PATH = re.compile(r"^/api/matches/([^/]+)(?:/|$)")


class ClusterUnsupported(ValueError):
    """Cluster mode was asked for on a database that cannot coordinate processes (SQLite)."""


@dataclass(frozen=True)
class ClusterConfig:
    """How a node takes part in the cluster."""

    check_seconds: float = 1.0
    """How often the node checks its own lease and which nodes are alive (the delay
    before clients of a dead owner are told to reconnect)."""
    timings: LeaseTimings = field(default_factory=LeaseTimings)
    node: str = field(default_factory=lambda: secrets.token_hex(6))
    """This node's name (lower-case hex: it is part of a channel name)."""


def cluster_conninfo(db_url: str) -> str:
    """The psycopg connection string of a PostgreSQL ``db_url``; SQLite is refused
    (its file lock lets only one server in, so there is nothing to share)."""
    url = make_url(normalise_url(db_url))
    if url.get_backend_name() != "postgresql":
        raise ClusterUnsupported(
            f"several server processes need PostgreSQL (--db postgresql://…), not {url.get_backend_name()}: "
            "an SQLite database is served by one process only")
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


class OwnedElsewhere(ProtocolError):
    """The match is owned by another node (``node``); its connections are relayed there."""

    def __init__(self, match_id: str, node: str) -> None:
        super().__init__("unavailable", f"match {match_id} is being served by another server process; try again",
                         status=503)
        self.node = node
        self.hello: str | None = None
        """The socket's ``hello`` frame, to be replayed to the owner."""


# --- ASGI scopes across processes -------------------------------------------------------
def scope_to_json(scope: Scope) -> dict[str, Any]:
    """The parts of an ASGI scope another process needs to serve the connection."""
    return {
        "type": scope["type"], "path": scope["path"], "root_path": scope.get("root_path", ""),
        "query_string": bytes(scope.get("query_string", b"")).decode("latin-1"),
        "headers": [[bytes(k).decode("latin-1"), bytes(v).decode("latin-1")] for k, v in scope.get("headers", ())],
        "method": scope.get("method"), "scheme": scope.get("scheme", "http"),
        "http_version": scope.get("http_version", "1.1"), "client": list(scope.get("client") or ("unknown", 0)),
        "server": list(scope.get("server") or ("unknown", 0)), "subprotocols": list(scope.get("subprotocols", ())),
    }


def scope_from_json(data: dict[str, Any], relay: str) -> Scope:
    """The scope of a relayed connection (marked with :data:`RELAYED_HEADER`)."""
    headers = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in data["headers"]]
    headers.append((RELAYED_HEADER, relay.encode()))
    scope: dict[str, Any] = {
        "type": data["type"], "asgi": {"version": "3.0"}, "path": data["path"], "raw_path": data["path"].encode(),
        "root_path": data["root_path"], "query_string": data["query_string"].encode("latin-1"), "headers": headers,
        "scheme": data["scheme"], "http_version": data["http_version"], "client": tuple(data["client"]),
        "server": tuple(data["server"]), "state": {},
    }
    if data["type"] == "http":
        scope["method"] = data["method"]
    else:
        scope["subprotocols"] = data["subprotocols"]
    return scope


def is_relayed(scope: Scope) -> bool:
    return any(k == RELAYED_HEADER for k, _ in scope.get("headers", ()))


def _error_reply(code: str, message: str, status: int) -> dict[str, Any]:
    body = json.dumps({"type": "error", "code": code, "message": message}).encode()
    return {"status": status, "headers": [["content-type", "application/json"]],
            "body": base64.b64encode(body).decode()}


@dataclass
class _Stream:
    """A relayed connection: ``peer`` is the other node, ``epoch`` the liveness
    check it was opened in (only later checks may declare its peer dead)."""

    peer: str
    epoch: int
    conn: Connection | None = None
    inbox: asyncio.Queue[Message] | None = None
    reply: asyncio.Future[dict[str, Any]] | None = None


class Cluster:
    """A node's part in the cluster: its lease, its bus, the connections it relays
    to owners and the ones it serves for other nodes."""

    def __init__(self, config: ClusterConfig, conninfo: str, rooms: Rooms) -> None:
        self.config = config
        self.node = config.node
        self.rooms = rooms
        self.lease = Lease(conninfo, self.node, config.timings)
        self.bus = Bus(conninfo, self.node, self._on_message, self._drop_streams)
        self.app: ASGIApp | None = None
        self.held: set[str] = set()
        """The matches whose lease this node holds."""
        self.live: set[str] = {self.node}
        self._claiming: dict[str, asyncio.Lock] = {}
        self._relaying: dict[str, _Stream] = {}
        """Connections this node relays to their owners, by stream id."""
        self._serving: dict[str, _Stream] = {}
        """Connections other nodes relay to this one, by stream id."""
        self._streams = 0
        self._epoch = 0
        self._watcher: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.checks = 0
        """Liveness checks done so far (tests wait on it rather than on time)."""
        self.fenced = 0
        self.frames_in = 0
        self.frames_out = 0
        """Websocket frames this node relayed to owners and back to its clients."""

    async def open(self, app: ASGIApp) -> None:
        self.app = app
        await self.lease.open()
        await self.bus.open()
        self._watcher = asyncio.get_running_loop().create_task(self._watch())

    async def close(self) -> None:
        if self._watcher is not None:
            self._watcher.cancel()
        await self.bus.close()
        await self.lease.close()

    def stats(self) -> dict[str, Any]:
        return {"node": self.node, "leases": len(self.held), "live_nodes": len(self.live),
                "relayed_sockets": len([s for s in self._relaying.values() if s.conn is not None]),
                "served_sockets": len([s for s in self._serving.values() if s.inbox is not None]),
                "frames_relayed_in": self.frames_in, "frames_relayed_out": self.frames_out,
                "bus_sent": self.bus.sent, "bus_received": self.bus.received, "checks": self.checks,
                "fenced": self.fenced}

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _new_stream(self, peer: str) -> tuple[str, _Stream]:
        self._streams += 1
        return f"{self.node}.{self._streams}", _Stream(peer, self._epoch)

    # --- leases ----------------------------------------------------------------------
    async def route(self, match_id: str) -> str | None:
        """Where ``match_id`` is served: ``None`` for this node (taking its lease if
        nobody holds it), else the owning node.  A malformed id is left to the caller."""
        if match_id in self.held or not is_match_id(match_id):
            return None
        async with self._claiming.setdefault(match_id, asyncio.Lock()):
            if match_id in self.held:
                return None
            try:
                for _ in range(5):  # the owner may be letting go of it right now
                    if await self.lease.try_acquire(match_id):
                        if match_id in self.held:  # a concurrent claim won too: locks stack, undo ours
                            await self.lease.release(match_id)
                        self.held.add(match_id)
                        return None
                    node = await self.lease.owner_of(match_id)
                    if node is not None and node != self.node:
                        return node
            except psycopg.Error:
                log.exception("node %s: the lease of match %s could not be checked", self.node, match_id)
            finally:
                if match_id not in self.held:
                    self._claiming.pop(match_id, None)  # (kept only for the matches held)
        raise ProtocolError("unavailable", "the match is changing server processes; try again in a moment",
                            status=503)

    async def claim_new(self, match_id: str) -> None:
        """Take the lease of a match about to be created."""
        try:
            got = await self.lease.try_acquire(match_id)
        except psycopg.Error:
            got = False
        if not got:
            raise ProtocolError("unavailable", "the new match could not be given a server process; try again",
                                status=503)
        self.held.add(match_id)

    def release_soon(self, match_id: str) -> None:
        """Let go of ``match_id``'s lease once it has left memory."""
        self._spawn(self.release(match_id))

    async def release(self, match_id: str) -> None:
        """Let go of ``match_id``'s lease unless it is in memory again."""
        lock = self._claiming.setdefault(match_id, asyncio.Lock())
        async with lock:
            if match_id not in self.held or match_id in self.rooms.rooms or self.rooms.is_loading(match_id):
                return
            self.held.discard(match_id)
            try:
                await self.lease.release(match_id)
            except psycopg.Error:
                log.exception("node %s: releasing the lease of match %s failed", self.node, match_id)
        if not lock.locked():
            self._claiming.pop(match_id, None)

    # --- liveness and fencing ------------------------------------------------------------
    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(self.config.check_seconds)
            self._epoch += 1
            epoch = self._epoch
            try:
                live = await self.lease.live_nodes()
                healthy = self.node in live and self.bus.healthy()
            except psycopg.Error:
                healthy = False
            if not healthy:
                await self._fence()
                continue
            self.live = live
            self._forget_dead(live, epoch)
            self.checks += 1

    def _forget_dead(self, live: set[str], epoch: int) -> None:
        """Close what this node relays to dead owners and what it serves for dead relays."""
        for sid, stream in list(self._relaying.items()):
            if stream.peer in live or stream.epoch >= epoch:
                continue
            del self._relaying[sid]
            if stream.conn is not None:
                stream.conn.close()
            if stream.reply is not None and not stream.reply.done():
                stream.reply.set_result(_error_reply(
                    "unavailable", "the server process of this match stopped; try again", 503))
        for sid, stream in list(self._serving.items()):
            if stream.peer not in live and stream.epoch < epoch and stream.inbox is not None:
                stream.inbox.put_nowait({"type": "websocket.disconnect", "code": 1001})

    def _drop_streams(self) -> None:
        """Messages of relayed connections may have been lost: close them all, so that
        their clients reconnect and resynchronise rather than miss an update."""
        self._forget_dead(set(), self._epoch + 1)

    async def _fence(self) -> None:
        """This node's lease may be gone: give up every match it held, then open a new
        lease (and bus) connection."""
        self.fenced += 1
        log.error("node %s: its lease connection is lost; giving up %d matches", self.node, len(self.rooms.rooms))
        for room in list(self.rooms.rooms.values()):
            room.give_up("the server process lost its lease on this match; reconnect")
        self.rooms.rooms.clear()
        self.held.clear()
        try:
            await self.lease.close()
            await self.lease.open()
            if not self.bus.healthy():
                await self.bus.close()
                self.bus = Bus(self.lease.conninfo, self.node, self._on_message, self._drop_streams)
                await self.bus.open()
        except psycopg.Error:
            log.exception("node %s: cannot reach the database again yet", self.node)

    # --- messages from other nodes -------------------------------------------------------
    def _on_message(self, msg: dict[str, Any]) -> None:
        kind = msg.get("k")
        sid = str(msg.get("s", ""))
        if kind == "ws-open":
            self._serve_socket(sid, str(msg["from"]), msg["scope"], str(msg["hello"]))
        elif kind in ("ws-in", "ws-end"):
            stream = self._serving.get(sid)
            if stream is not None and stream.inbox is not None:
                if kind == "ws-end":
                    stream.inbox.put_nowait({"type": "websocket.disconnect", "code": 1000})
                elif "b" in msg:
                    stream.inbox.put_nowait({"type": "websocket.receive", "bytes": base64.b64decode(msg["b"])})
                else:
                    stream.inbox.put_nowait({"type": "websocket.receive", "text": msg["t"]})
        elif kind in ("ws-out", "ws-close"):
            stream = self._relaying.get(sid)
            if stream is not None and stream.conn is not None:
                if kind == "ws-out":
                    self.frames_out += 1
                    stream.conn.send(str(msg["t"]))
                else:
                    stream.conn.close()
        elif kind == "http":
            self._spawn(self._serve_http(sid, str(msg["from"]), msg["scope"], base64.b64decode(msg["body"])))
        elif kind == "http-reply":
            stream = self._relaying.pop(sid, None)
            if stream is not None and stream.reply is not None and not stream.reply.done():
                stream.reply.set_result(msg)
        elif kind == "lobby":
            self.rooms.lobby.publish(str(msg["match"]), str(msg["change"]))

    def announce(self, match_id: str, change: str) -> None:
        """Tell the lobby pages of every other node of a change to a listed match."""
        self.bus.publish(EVERYONE, {"k": "lobby", "from": self.node, "match": match_id, "change": change})

    # --- the owner's side: serving relayed connections -----------------------------------
    def _serve_socket(self, sid: str, relay: str, scope_json: dict[str, Any], hello: str) -> None:
        inbox: asyncio.Queue[Message] = asyncio.Queue()
        inbox.put_nowait({"type": "websocket.connect"})
        inbox.put_nowait({"type": "websocket.receive", "text": hello})
        self._serving[sid] = _Stream(relay, self._epoch, inbox=inbox)
        self._spawn(self._run_socket(sid, relay, scope_from_json(scope_json, relay), inbox))

    async def _run_socket(self, sid: str, relay: str, scope: Scope, inbox: asyncio.Queue[Message]) -> None:
        closed = False

        async def send(message: Message) -> None:
            nonlocal closed
            if message["type"] == "websocket.send" and not closed:
                self.bus.publish(relay, {"k": "ws-out", "s": sid, "t": message.get("text") or ""})
            elif message["type"] == "websocket.close" and not closed:
                closed = True
                self.bus.publish(relay, {"k": "ws-close", "s": sid})

        assert self.app is not None
        try:
            await self.app(scope, inbox.get, send)
        except Exception:  # noqa: BLE001 - one relayed socket must not take the node down
            log.exception("node %s: a relayed socket failed", self.node)
        finally:
            self._serving.pop(sid, None)
            if not closed:
                self.bus.publish(relay, {"k": "ws-close", "s": sid})

    async def _serve_http(self, sid: str, relay: str, scope_json: dict[str, Any], body: bytes) -> None:
        reply: dict[str, Any] = {"k": "http-reply", "s": sid, "status": 500, "headers": []}
        chunks: list[bytes] = []
        done = asyncio.Event()
        given = False

        async def receive() -> Message:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            await done.wait()
            return {"type": "http.disconnect"}

        async def send(message: Message) -> None:
            if message["type"] == "http.response.start":
                reply["status"] = message["status"]
                reply["headers"] = [[bytes(k).decode("latin-1"), bytes(v).decode("latin-1")]
                                    for k, v in message.get("headers", ())]
            elif message["type"] == "http.response.body":
                chunks.append(bytes(message.get("body", b"")))

        assert self.app is not None
        try:
            await self.app(scope_from_json(scope_json, relay), receive, send)
            reply["body"] = base64.b64encode(b"".join(chunks)).decode()
        except Exception:  # noqa: BLE001 - answered as a typed error
            log.exception("node %s: a relayed request failed", self.node)
            reply.update(_error_reply("internal", "the server could not handle this request", 500))
        finally:
            done.set()
        self.bus.publish(relay, reply)

    # --- the relay's side ---------------------------------------------------------------
    async def relay_socket(self, ws: WebSocket, conn: Connection, owner: str, hello: str) -> None:
        """Relay an open socket, whose ``hello`` asked for a match ``owner`` serves:
        frames go to the owner, and its frames come back through ``conn``'s outbox."""
        if is_relayed(ws.scope):  # relayed to us, but the match moved on: the client reconnects
            conn.send(json.dumps({"type": "error", "seq": None, "code": "unavailable",
                                  "message": "the match is changing server processes; reconnect"}))
            return
        sid, stream = self._new_stream(owner)
        stream.conn = conn
        self._relaying[sid] = stream
        self.bus.publish(owner, {"k": "ws-open", "s": sid, "from": self.node, "scope": scope_to_json(ws.scope),
                                 "hello": hello})
        try:
            while not conn.closed:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                self.frames_in += 1
                text = message.get("text")
                if text is not None:
                    self.bus.publish(owner, {"k": "ws-in", "s": sid, "t": text})
                else:  # the owner refuses binary frames, in its own words
                    data = base64.b64encode(message.get("bytes") or b"").decode()
                    self.bus.publish(owner, {"k": "ws-in", "s": sid, "b": data})
        finally:
            if self._relaying.pop(sid, None) is not None:
                self.bus.publish(owner, {"k": "ws-end", "s": sid})

    async def relay_http(self, owner: str, scope: Scope, receive: Receive, send: Send) -> None:
        """Relay an HTTP request to the owner of its match and send back its answer."""
        body = b""
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if not message.get("more_body", False):
                break
        sid, stream = self._new_stream(owner)
        stream.reply = asyncio.get_running_loop().create_future()
        self._relaying[sid] = stream
        self.bus.publish(owner, {"k": "http", "s": sid, "from": self.node, "scope": scope_to_json(scope),
                                 "body": base64.b64encode(body).decode()})
        try:
            reply = await asyncio.wait_for(stream.reply, HTTP_RELAY_SECONDS)
        except asyncio.TimeoutError:
            reply = _error_reply("unavailable", "the server process of this match did not answer; try again", 503)
        finally:
            self._relaying.pop(sid, None)
        await send({"type": "http.response.start", "status": int(reply["status"]),
                    "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in reply["headers"]]})
        await send({"type": "http.response.body", "body": base64.b64decode(reply.get("body", ""))})


class ClusterRooms(Rooms):
    """:class:`Rooms` of one node: a match is loaded only with its lease, and one
    owned elsewhere raises :class:`OwnedElsewhere` (its connections get relayed)."""

    def __init__(self, store: Store, settings: Settings, limits: Limits, config: ClusterConfig,
                 conninfo: str) -> None:
        super().__init__(store, settings, limits)
        self.cluster = Cluster(config, conninfo, self)

    async def get(self, match_id: str) -> Room:
        node = await self.cluster.route(match_id)
        if node is not None:
            raise OwnedElsewhere(match_id, node)
        try:
            return await super().get(match_id)
        except ProtocolError as err:
            if err.code == "no_such_match":
                self.cluster.release_soon(match_id)
            raise

    async def create(self, row: MatchRow) -> Room:
        """Store a new match.  Unless an AI moves first, the match leaves this node's
        memory and lease at once: the first node its players reach takes it, so that
        behind a proxy routing by match id (docs/scaling.md) they reach the owner directly."""
        await self.cluster.claim_new(row.id)
        try:
            room = await super().create(row)
        except ProtocolError:
            self.cluster.release_soon(row.id)
            raise
        if room.idle_now():
            del self.rooms[room.id]
            await self.cluster.release(room.id)
        return room

    def announce(self, room: Room, change: str) -> None:
        super().announce(room, change)
        if room.row.options.get("listed"):
            self.cluster.announce(room.id, change)

    def evict_idle(self) -> list[str]:
        gone = super().evict_idle()
        for match_id in gone:
            self.cluster.release_soon(match_id)
        return gone

    def maybe_evict(self, room: Room) -> None:
        super().maybe_evict(room)
        if room.id not in self.rooms:
            self.cluster.release_soon(room.id)

    def move_stats(self) -> dict[str, Any]:
        return {**super().move_stats(), "cluster": self.cluster.stats()}

    async def close(self) -> None:
        await self.cluster.close()
        await super().close()


class ClusterMiddleware:
    """ASGI middleware of a node: an HTTP request about a match owned by another node
    is relayed there (``/api/matches/{id}…``); everything else passes through."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = MATCH_PATH.match(scope["path"]) if scope["type"] == "http" else None
        rooms = scope["app"].state.rooms if found is not None and "app" in scope else None
        if found is None or not isinstance(rooms, ClusterRooms):
            await self.app(scope, receive, send)
            return
        try:
            owner = await rooms.cluster.route(found.group(1))
        except ProtocolError as err:
            await _send_reply(send, _error_reply(err.code, err.message, err.status))
            return
        if owner is None:
            await self.app(scope, receive, send)
        elif is_relayed(scope):
            await _send_reply(send, _error_reply("unavailable", "the match is changing server processes; try again",
                                                 503))
        else:
            await rooms.cluster.relay_http(owner, scope, receive, send)


async def _send_reply(send: Send, reply: dict[str, Any]) -> None:
    await send({"type": "http.response.start", "status": int(reply["status"]),
                "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in reply["headers"]]})
    await send({"type": "http.response.body", "body": base64.b64decode(reply["body"])})


async def open_cluster_rooms(app: FastAPI, store: Store, settings: Settings, limits: Limits,
                             config: ClusterConfig, db_url: str) -> ClusterRooms:
    """The rooms of a node joining the cluster of ``db_url`` (lease and bus open)."""
    rooms = ClusterRooms(store, settings, limits, config, cluster_conninfo(db_url))
    await rooms.cluster.open(app)
    return rooms
