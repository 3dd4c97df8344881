"""Per-client resource limits of the match server: clocks, token buckets,
per-address limiters, connection counters, and the ASGI middleware that applies
them (with the ``Origin``/``Host`` checks) before a request reaches the app.

Every limit is a field of :class:`cardtable.server.room.Settings`; a refusal is a
typed error: ``rate_limited`` (429), ``too_large`` (413), ``too_many_connections``
(503 for HTTP, a close for sockets) or ``bad_origin`` (403).

>>> clock = ManualClock()
>>> bucket = TokenBucket(rate=2.0, burst=3.0, clock=clock)
>>> [bucket.take() for _ in range(4)]
[True, True, True, False]
>>> clock.advance(0.5)
>>> bucket.take(), bucket.take()
(True, False)
"""

from __future__ import annotations

import collections
import json
import time
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any, Protocol
from urllib.parse import urlsplit

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")


class Clock(Protocol):
    """Seconds on a monotonic scale (only differences mean anything)."""

    def now(self) -> float: ...


class MonotonicClock:
    """The real clock: :func:`time.monotonic`."""

    def now(self) -> float:
        return time.monotonic()


class WallClock:
    """Seconds since the epoch: :func:`time.time` (match clocks' deadlines are stored
    with the match, so they must mean the same after a restart)."""

    def now(self) -> float:
        return time.time()


class ManualClock:
    """A clock that moves only when told to (tests drive time with it)."""

    def __init__(self, start: float = 1000.0) -> None:
        self.time = start

    def now(self) -> float:
        return self.time

    def advance(self, seconds: float) -> None:
        self.time += seconds


class TokenBucket:
    """``burst`` tokens at most, refilled at ``rate`` per second; each event takes one."""

    def __init__(self, rate: float, burst: float, clock: Clock) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.tokens = burst
        self.stamp = clock.now()

    def _refill(self) -> None:
        now = self.clock.now()
        self.tokens = min(self.burst, self.tokens + max(0.0, now - self.stamp) * self.rate)
        self.stamp = now

    def take(self) -> bool:
        """Spend a token if there is one."""
        self._refill()
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def is_full(self) -> bool:
        self._refill()
        return self.tokens >= self.burst


class AddressLimiter:
    """One :class:`TokenBucket` per client address.  Memory stays bounded: at most
    ``max_addresses`` are tracked, the least recently seen forgotten first (an
    address forgotten gets a full bucket, which is what waiting would give it)."""

    def __init__(self, rate: float, burst: float, clock: Clock, max_addresses: int = 10000) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.max_addresses = max_addresses
        self.buckets: collections.OrderedDict[str, TokenBucket] = collections.OrderedDict()

    def take(self, address: str) -> bool:
        bucket = self.buckets.get(address)
        if bucket is None:
            bucket = self.buckets[address] = TokenBucket(self.rate, self.burst, self.clock)
            while len(self.buckets) > self.max_addresses:
                self.buckets.popitem(last=False)
        else:
            self.buckets.move_to_end(address)
        return bucket.take()


class ConnectionCounter:
    """Open connections per address and in all, each under its own cap."""

    def __init__(self, per_address: int, total: int) -> None:
        self.per_address = per_address
        self.total_limit = total
        self.total = 0
        self.by_address: dict[str, int] = {}

    def acquire(self, address: str) -> str | None:
        """Count one more connection of ``address``, or say why not (nothing counted)."""
        if self.total >= self.total_limit:
            return f"the server has its maximum of {self.total_limit} connections; try again later"
        held = self.by_address.get(address, 0)
        if held >= self.per_address:
            return f"at most {self.per_address} connections per client address"
        self.by_address[address] = held + 1
        self.total += 1
        return None

    def release(self, address: str) -> None:
        held = self.by_address.get(address, 0)
        if held <= 1:
            self.by_address.pop(address, None)
        else:
            self.by_address[address] = held - 1
        self.total = max(0, self.total - 1)


class LimitError(Exception):
    """A refusal of the limits layer, carried as a typed error to the client."""

    def __init__(self, code: str, message: str, status: int) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


def origin_allowed(origin: str, host: str, allowed: Iterable[str]) -> bool:
    """Whether a request with ``Origin: origin`` to ``Host: host`` may go on: the
    origin is listed, or it is the server's own (same host and port, http or https)."""
    origin = origin.strip().lower()
    if origin in (o.rstrip("/").lower() for o in allowed) or "*" in allowed:
        return True
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and bool(parts.netloc) and parts.netloc == host.strip().lower()


def host_allowed(host: str, allowed: Iterable[str]) -> bool:
    """Whether the ``Host`` header names this server (its name without the port is listed)."""
    names = [a.lower() for a in allowed]
    if "*" in names:
        return True
    name = host.strip().lower()
    if name.startswith("["):
        name = name[1:].partition("]")[0]
    elif name.count(":") == 1:
        name = name.partition(":")[0]
    return name in names


class Limits:
    """The server-wide limiters built from the settings (one set per app)."""

    def __init__(self, settings: Any) -> None:
        self.settings = settings
        clock: Clock = settings.clock
        keep = settings.max_tracked_addresses
        self.requests = AddressLimiter(settings.http_rate_per_second, settings.http_burst, clock, keep)
        self.creations = AddressLimiter(settings.max_matches_per_minute / 60.0, settings.max_matches_per_minute,
                                        clock, keep)
        self.hints = AddressLimiter(settings.hints_per_minute / 60.0, settings.hints_per_minute, clock, keep)
        self.sockets = ConnectionCounter(settings.max_sockets_per_address, settings.max_sockets)

    def check_hint(self, address: str) -> None:
        if not self.hints.take(address):
            raise LimitError("rate_limited", f"at most {self.settings.hints_per_minute:g} hints a minute per client",
                             429)

    def message_bucket(self) -> TokenBucket:
        """The flood-control bucket of one websocket connection."""
        return TokenBucket(self.settings.rate_per_second, self.settings.rate_burst, self.settings.clock)


def client_address(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


def _error_json(code: str, message: str) -> bytes:
    return json.dumps({"type": "error", "code": code, "message": message}).encode()


class LimitsMiddleware:
    """ASGI middleware: the ``Host``/``Origin`` checks, per-address request and
    match-creation rates, socket counts, and bodies cut off at the size limit."""

    STATE_CHANGING = ("POST", "PUT", "PATCH", "DELETE")

    def __init__(self, app: ASGIApp, limits: Limits) -> None:
        self.app = app
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "websocket":
            await self._websocket(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    def _check_origin(self, scope: Scope) -> None:
        cfg = self.limits.settings
        host = _header(scope, b"host") or ""
        if not host_allowed(host, (*LOOPBACK_HOSTS, *cfg.allowed_hosts)):
            raise LimitError("bad_origin", f"this server does not answer to the host {host[:100]!r}", 403)
        origin = _header(scope, b"origin")
        changing = scope["type"] == "websocket" or scope["method"] in self.STATE_CHANGING
        if changing and origin is not None and not origin_allowed(origin, host, cfg.allowed_origins):
            raise LimitError("bad_origin", f"requests from the origin {origin[:100]!r} are not allowed", 403)

    def _check_http(self, scope: Scope, address: str) -> None:
        cfg = self.limits.settings
        self._check_origin(scope)
        if not self.limits.requests.take(address):
            raise LimitError("rate_limited", f"at most {cfg.http_rate_per_second:g} requests a second per client",
                             429)
        length = _header(scope, b"content-length")
        if length is not None and length.strip().isdigit() and int(length) > cfg.max_body_bytes:
            raise LimitError("too_large", f"the body is larger than {cfg.max_body_bytes} bytes", 413)
        if scope["method"] == "POST" and scope["path"].rstrip("/") == "/api/matches":
            if not self.limits.creations.take(address):
                raise LimitError("rate_limited",
                                 f"at most {cfg.max_matches_per_minute:g} new matches a minute per client", 429)
        if scope["method"] == "POST" and scope["path"].startswith("/api/matches/") and scope["path"].endswith(
                "/hint"):
            self.limits.check_hint(address)

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            self._check_http(scope, client_address(scope))
        except LimitError as err:
            await _send_http_error(send, err)
            return
        limit = self.limits.settings.max_body_bytes
        seen = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise LimitError("too_large", f"the body is larger than {limit} bytes", 413)
            return message

        async def watched_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited_receive, watched_send)
        except LimitError as err:
            if started:
                raise
            await _send_http_error(send, err)

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        address = client_address(scope)
        try:
            self._check_origin(scope)
        except LimitError as err:
            await _refuse_socket(receive, send, err, 1008)
            return
        why = self.limits.sockets.acquire(address)
        if why is not None:
            await _refuse_socket(receive, send, LimitError("too_many_connections", why, 503), 1013)
            return
        scope.setdefault("state", {})["client_address"] = address
        try:
            await self.app(scope, receive, send)
        finally:
            self.limits.sockets.release(address)


async def _send_http_error(send: Send, err: LimitError) -> None:
    body = _error_json(err.code, err.message)
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if err.status == 429:
        headers.append((b"retry-after", b"1"))
    if err.status == 413:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": err.status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _refuse_socket(receive: Receive, send: Send, err: LimitError, close_code: int) -> None:
    """Accept only to say why (a typed error frame), then close."""
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": _error_json(err.code, err.message).decode()})
    await send({"type": "websocket.close", "code": close_code})
