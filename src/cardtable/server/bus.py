"""Messages between the server processes of a cluster, over PostgreSQL ``LISTEN/NOTIFY``.

Every process (a *node*) listens on a channel of its own, ``cardtable_<node>``, and
on ``cardtable_all``; :meth:`Bus.publish` sends a JSON message to one node (or to all).
PostgreSQL delivers the notifications of one sending connection in the order they
were committed, so the messages from one node to another arrive in the order they
were published — what a relayed websocket needs.

A notification's payload is limited to 8000 bytes, so a longer message is cut into
pieces sent one after the other in the same transaction; each payload starts with
the sender's running number of that notification (PostgreSQL folds identical
payloads of one transaction into one) and ``+`` (more pieces follow) or ``.``.
Messages waiting to be sent go out together in one transaction (one round trip for
a whole batch, psycopg's pipelined ``executemany``).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import Any

import psycopg

log = logging.getLogger("cardtable.server.bus")

CHANNEL_PREFIX = "cardtable_"
EVERYONE = "all"
"""The node name that addresses every node (channel ``cardtable_all``)."""
PIECE_BYTES = 7800
"""Largest payload of one notification (PostgreSQL's limit is 8000 bytes)."""
MAX_BATCH = 1000

Message = dict[str, Any]
Handler = Callable[[Message], None]


def channel_of(node: str) -> str:
    """The channel of ``node`` (node names are lower-case hex, or :data:`EVERYONE`)."""
    return CHANNEL_PREFIX + node


def pieces(text: str, limit: int = PIECE_BYTES) -> list[str]:
    """``text`` cut into pieces of at most ``limit`` UTF-8 bytes, never inside a character.

    >>> pieces("abcdef", 4)
    ['abcd', 'ef']
    >>> pieces("жжж", 4)
    ['жж', 'ж']
    >>> "".join(pieces("x" * 20000)) == "x" * 20000
    True
    """
    out: list[str] = []
    start = 0
    while start < len(text):
        end = min(len(text), start + limit)
        while len(text[start:end].encode("utf-8", "surrogatepass")) > limit:
            end = start + max(1, (end - start) * 3 // 4)
        out.append(text[start:end])
        start = end
    return out or [""]


class Reassembly:
    """Joins the pieces of each sender's messages back together."""

    def __init__(self) -> None:
        self._partial: dict[int, list[str]] = {}

    def add(self, sender_pid: int, payload: str) -> str | None:
        """One notification's payload; the whole message once its last piece came.

        >>> r = Reassembly()
        >>> r.add(7, "1+ab"), r.add(7, "2.cd"), r.add(8, "1.x")
        (None, 'abcd', 'x')
        """
        i = 0
        while i < len(payload) and payload[i].isdigit():
            i += 1
        if i == 0 or i >= len(payload) or payload[i] not in "+.":
            raise ValueError(f"not a cluster message piece: {payload[:40]!r}")
        parts = self._partial.setdefault(sender_pid, [])
        parts.append(payload[i + 1:])
        if payload[i] == "+":
            return None
        del self._partial[sender_pid]
        return "".join(parts)


class Bus:
    """One node's end of the cluster's messages: a listening connection, a
    sending connection, and the handler called with each message received."""

    def __init__(self, conninfo: str, node: str, handler: Handler,
                 on_loss: Callable[[], None] = lambda: None) -> None:
        self.conninfo = conninfo
        self.node = node
        self.handler = handler
        self.on_loss = on_loss
        """Called when messages may have been lost (a batch failed to go out)."""
        self._listen: psycopg.AsyncConnection[Any] | None = None
        self._send: psycopg.AsyncConnection[Any] | None = None
        self._outbox: list[tuple[str, str]] = []
        self._wakeup = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._numbers = 0
        self._closed = False
        self.sent = 0
        self.received = 0
        """Messages sent to and received from other nodes so far."""

    async def open(self) -> None:
        """Connect, listen on this node's channel and everyone's, start sending."""
        name = f"cardtable-bus/{self.node}"
        self._listen = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True, application_name=name)
        self._send = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=False, application_name=name)
        for node in (self.node, EVERYONE):
            await self._listen.execute(f'LISTEN "{channel_of(node)}"')
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._receive_loop()), loop.create_task(self._send_loop())]

    def publish(self, node: str, message: Message) -> None:
        """Send ``message`` (JSON-able) to ``node`` (or :data:`EVERYONE`); returns at once,
        the message goes out with the next batch."""
        if self._closed:
            return
        channel = channel_of(node)
        text = json.dumps(message, separators=(",", ":"), ensure_ascii=False)
        parts = pieces(text)
        for i, part in enumerate(parts):
            self._numbers += 1
            flag = "." if i == len(parts) - 1 else "+"
            self._outbox.append((channel, f"{self._numbers}{flag}{part}"))
        self.sent += 1
        self._wakeup.set()

    async def _send_loop(self) -> None:
        assert self._send is not None
        while not self._closed or self._outbox:
            if not self._outbox:
                self._wakeup.clear()
                await self._wakeup.wait()
                continue
            # Never split a message between batches needlessly: cut after a last piece.
            cut = min(len(self._outbox), MAX_BATCH)
            while cut < len(self._outbox) and self._outbox[cut - 1][1].lstrip("0123456789")[0] == "+":
                cut += 1
            batch = self._outbox[:cut]
            del self._outbox[:cut]
            try:
                async with self._send.cursor() as cur:
                    await cur.executemany("SELECT pg_notify(%s, %s)", batch)
                await self._send.commit()
            except psycopg.Error:
                log.exception("node %s: sending %d cluster notifications failed", self.node, len(batch))
                self.on_loss()
                await self._reconnect_sender()

    async def _reconnect_sender(self) -> None:
        try:
            if self._send is not None:
                await self._send.close()
            self._send = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=False,
                                                               application_name=f"cardtable-bus/{self.node}")
        except psycopg.Error:
            log.exception("node %s: the cluster's sending connection is down", self.node)
            await asyncio.sleep(1.0)

    async def _receive_loop(self) -> None:
        assert self._listen is not None
        joined = Reassembly()
        try:
            async for note in self._listen.notifies():
                try:
                    text = joined.add(note.pid, note.payload)
                    if text is None:
                        continue
                    message = json.loads(text)
                    if message.get("from") == self.node:
                        continue  # our own message to everyone
                    self.received += 1
                    self.handler(message)
                except Exception:  # noqa: BLE001 - one bad message must not stop the node
                    log.exception("node %s: a cluster message could not be handled", self.node)
        except psycopg.Error:
            if not self._closed:
                log.exception("node %s: the cluster's listening connection broke", self.node)
                raise

    def healthy(self) -> bool:
        """Whether the bus still listens (its listening connection has not broken)."""
        return len(self._tasks) == 2 and not self._tasks[0].done()

    async def close(self) -> None:
        """Send what is queued, then stop listening and close the connections."""
        self._closed = True
        self._wakeup.set()
        if len(self._tasks) == 2:
            try:
                await asyncio.wait_for(self._tasks[1], 5)
            except (asyncio.TimeoutError, psycopg.Error):
                pass
        for task in self._tasks:
            task.cancel()
        for conn in (self._listen, self._send):
            if conn is not None:
                await conn.close()
