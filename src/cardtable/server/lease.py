"""Which server process owns which match: PostgreSQL advisory locks.

A node holds one *lease connection*; owning a match means holding the session-level
advisory lock :func:`lease_key` of its id on that connection
(``pg_try_advisory_lock``).  The lock lasts exactly as long as the connection:

* the node releases it when the match leaves its memory;
* when the node's process dies (``kill -9``, a crash), its socket closes and
  PostgreSQL ends the session at once, releasing every lock it held;
* when its machine dies or the network between them breaks, PostgreSQL ends the
  session once TCP keepalive gives up on it — the connection asks for
  ``tcp_keepalives_idle``/``_interval``/``_count`` and ``tcp_user_timeout`` of
  :attr:`LeaseTimings`, which bound that time (the lease's expiry).

The lease connection is named ``cardtable/<node>`` (``application_name``), so that
anyone can ask PostgreSQL who holds a match's lock (:meth:`Lease.owner_of`) and which
nodes are alive (:meth:`Lease.live_nodes`) without a table of their own.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import psycopg

APP_PREFIX = "cardtable/"


def lease_key(match_id: str) -> int:
    """The advisory lock key (a signed 64-bit integer) of ``match_id``.  Two ids
    sharing a key (odds 2^-64) would only have to share an owner.

    >>> lease_key("abc") == lease_key("abc") != lease_key("abd")
    True
    >>> -2**63 <= lease_key("abc") < 2**63
    True
    """
    digest = hashlib.sha256(b"cardtable-match:" + match_id.encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


@dataclass(frozen=True)
class LeaseTimings:
    """How soon PostgreSQL gives up on a silent lease connection (seconds): after
    ``idle`` quiet, ``count`` probes ``interval`` apart; unacknowledged data for
    ``user_timeout`` also ends it.  Their sum bounds the lease's expiry when the
    owner's machine or network dies (not its process: that is noticed at once)."""

    idle: int = 5
    interval: int = 2
    count: int = 3
    user_timeout: int = 11

    def options(self) -> str:
        """The ``options`` connection parameter setting them for the session."""
        return (f"-c tcp_keepalives_idle={self.idle} -c tcp_keepalives_interval={self.interval} "
                f"-c tcp_keepalives_count={self.count} -c tcp_user_timeout={self.user_timeout * 1000}")

    @property
    def expiry(self) -> int:
        """The longest a dead owner's machine can hold its leases (seconds)."""
        return max(self.idle + self.interval * self.count, self.user_timeout)


_OWNER_SQL = """
SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
  AND l.classid::bigint = %s AND l.objid::bigint = %s
  AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
"""

_LIVE_SQL = """
SELECT application_name FROM pg_stat_activity
WHERE datname = current_database() AND application_name LIKE 'cardtable/%%'
"""


class Lease:
    """A node's lease connection and the match locks held on it."""

    def __init__(self, conninfo: str, node: str, timings: LeaseTimings | None = None) -> None:
        self.conninfo = conninfo
        self.node = node
        self.timings = timings or LeaseTimings()
        self._conn: psycopg.AsyncConnection[Any] | None = None

    async def open(self) -> None:
        t = self.timings
        self._conn = await psycopg.AsyncConnection.connect(
            self.conninfo, autocommit=True, application_name=APP_PREFIX + self.node, options=t.options(),
            keepalives=1, keepalives_idle=t.idle, keepalives_interval=t.interval, keepalives_count=t.count,
            tcp_user_timeout=t.user_timeout * 1000)

    @property
    def conn(self) -> psycopg.AsyncConnection[Any]:
        if self._conn is None:
            raise psycopg.OperationalError("the lease connection is not open")
        return self._conn

    async def try_acquire(self, match_id: str) -> bool:
        """Take ``match_id``'s lock if nobody holds it (never waits)."""
        cur = await self.conn.execute("SELECT pg_try_advisory_lock(%s)", (lease_key(match_id),))
        row = await cur.fetchone()
        return bool(row and row[0])

    async def release(self, match_id: str) -> None:
        await self.conn.execute("SELECT pg_advisory_unlock(%s)", (lease_key(match_id),))

    async def owner_of(self, match_id: str) -> str | None:
        """The node holding ``match_id``'s lock, or ``None`` if nobody does."""
        key = lease_key(match_id)
        cur = await self.conn.execute(_OWNER_SQL, ((key >> 32) & 0xFFFFFFFF, key & 0xFFFFFFFF))
        row = await cur.fetchone()
        if row is None or not str(row[0]).startswith(APP_PREFIX):
            return None
        return str(row[0])[len(APP_PREFIX):]

    async def live_nodes(self) -> set[str]:
        """The nodes whose lease connections are open — ours among them, which also
        proves that our own lease still stands (this raises if it broke)."""
        cur = await self.conn.execute(_LIVE_SQL)
        return {str(r[0])[len(APP_PREFIX):] for r in await cur.fetchall()}

    async def close(self) -> None:
        """Close the connection, releasing every lock it held."""
        if self._conn is not None:
            await self._conn.close()
            self._conn = None
