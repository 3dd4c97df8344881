"""Event-sourced storage of matches through SQLAlchemy (SQLite or PostgreSQL).

A match is stored as its configuration (game, options, seed, seats) plus an
append-only list of accepted moves; the in-memory state is always rebuilt by
replaying those moves, so nothing else needs to be saved.

Tables (SQLAlchemy Core, the same schema on both back ends):

* ``matches(id, game, config, seed, options, host_hash, status, result, ending, created, updated,
  clock, deadline)``; ``ending`` says how a match ended early (``resigned``, ``drawn``, ``aborted``,
  ``timeout``), else null; ``clock`` is the running match clock (:mod:`cardtable.server.clocks`)
  and ``deadline`` its running deadline (seconds since the epoch), indexed for the server's start
* ``seats(match_id, seat, kind, name, agent, token_hash, claimed)``
* ``events(match_id, seq, seat, action, text, ts)`` with primary key ``(match_id, seq)``:
  two writers can never both append move ``seq`` (optimistic concurrency).
* ``users``, ``sessions`` (:mod:`cardtable.server.accounts`); a seat's ``user_id`` binds
  it to an account;
* ``ratings``, ``rating_history`` (:mod:`cardtable.server.ratings`).

The schema is made and changed by Alembic migrations
(:mod:`cardtable.server.migrations`), run to the newest revision when a store opens;
the tables below describe that newest schema for the queries.

Operations that arrive together are committed in a single transaction
("group commit", see :class:`Store`), so an ``await store.append_move(...)``
returns only once the move is committed, at a cost shared by the moves that
arrived meanwhile.  If a batch fails, its operations are retried one by one so
that one bad operation fails alone.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    create_engine,
    delete,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.pool import StaticPool

log = logging.getLogger("cardtable.server.store")

T = TypeVar("T")

metadata = MetaData()

matches_table = Table(
    "matches",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("config", Text, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("options", Text, nullable=False),
    Column("host_hash", String(64), nullable=False),
    Column("status", String(16), nullable=False),
    Column("result", Text, nullable=True),
    Column("ending", String(16), nullable=True),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("clock", Text, nullable=True),
    Column("deadline", Float, nullable=True),
    Index("matches_deadline", "deadline"),
)

seats_table = Table(
    "seats",
    metadata,
    Column("match_id", String(40), ForeignKey("matches.id", ondelete="CASCADE"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("kind", String(8), nullable=False),
    Column("name", String(64), nullable=False),
    Column("agent", String(64), nullable=True),
    Column("token_hash", String(64), nullable=True),
    Column("claimed", Boolean, nullable=False, default=False),
    Column("user_id", Integer, nullable=True),
    PrimaryKeyConstraint("match_id", "seat"),
    Index("seats_user", "user_id"),
)

events_table = Table(
    "events",
    metadata,
    Column("match_id", String(40), ForeignKey("matches.id", ondelete="CASCADE"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("action", Integer, nullable=False),
    Column("text", Text, nullable=False),
    Column("ts", Float, nullable=False),
    PrimaryKeyConstraint("match_id", "seq"),
)

chat_table = Table(
    "chat_lines",
    metadata,
    Column("match_id", String(40), ForeignKey("matches.id", ondelete="CASCADE"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("seat", Integer, nullable=True),
    Column("name", String(64), nullable=True),
    Column("text", Text, nullable=True),
    Column("phrase", String(16), nullable=True),
    Column("at", Float, nullable=False),
    PrimaryKeyConstraint("match_id", "seq"),
)


users_table = Table(
    "users",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(40), nullable=False),
    Column("name_key", String(160), nullable=False, unique=True),
    Column("password_hash", String(200), nullable=False),
    Column("created", Float, nullable=False),
)

sessions_table = Table(
    "sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False),
    Index("sessions_user", "user_id"),
)

ratings_table = Table(
    "ratings",
    metadata,
    Column("game", String(64), nullable=False),
    Column("players", Integer, nullable=False),
    Column("player", String(80), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated", Float, nullable=False),
    PrimaryKeyConstraint("game", "players", "player"),
)

rating_history_table = Table(
    "rating_history",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("match_id", String(40), nullable=True),
    Column("game", String(64), nullable=False),
    Column("players", Integer, nullable=False),
    Column("player", String(80), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("ts", Float, nullable=False),
    Index("rating_history_player", "player", "game", "players"),
)


_INSERT_EVENT_SQL = {
    "sqlite": "INSERT INTO events (match_id, seq, seat, action, text, ts) VALUES (?, ?, ?, ?, ?, ?)",
    "postgresql": "INSERT INTO events (match_id, seq, seat, action, text, ts) VALUES (%s, %s, %s, %s, %s, %s)",
}

_SAVE_CLOCK_SQL = {
    "sqlite": "UPDATE matches SET clock = ?, deadline = ? WHERE id = ?",
    "postgresql": "UPDATE matches SET clock = %s, deadline = %s WHERE id = %s",
}


@dataclass
class SeatRow:
    seat: int
    kind: str
    """``"human"`` or ``"ai"``."""
    name: str
    agent: str | None
    token_hash: str | None
    claimed: bool = False
    user_id: int | None = None
    """The account the seat is bound to (its player may resume it signed in anywhere)."""


@dataclass
class MatchRow:
    id: str
    game: str
    config: dict[str, Any]
    seed: int
    options: dict[str, Any]
    host_hash: str
    status: str
    result: dict[str, Any] | None
    created: float
    updated: float
    seats: list[SeatRow] = field(default_factory=list)
    ending: str | None = None
    """How the match ended early (``resigned``, ``drawn``, ``aborted``), or ``None``."""
    moves: list[tuple[int, int, int]] = field(default_factory=list)
    """``(seq, seat, action)`` of every accepted move, in order."""
    chat: list[dict[str, Any]] = field(default_factory=list)
    """The kept chat lines, oldest first: ``{"seq", "seat", "name", "text", "phrase", "at"}``."""
    clock: dict[str, Any] | None = None
    """The stored state of the match clock (:meth:`cardtable.server.clocks.MatchClock.stored_json`)."""


def normalise_url(url: str) -> str:
    """SQLAlchemy URL with an installed driver: ``postgresql://`` uses psycopg 3;
    a bare path means an SQLite file."""
    if "://" not in url:
        return f"sqlite:///{Path(url).expanduser()}"
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


def make_engine(url: str, *, sqlite_synchronous: str = "NORMAL") -> Engine:
    """An engine for ``url``; SQLite files get WAL mode and a busy timeout."""
    url = normalise_url(url)
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database or ""
        if database and database != ":memory:":
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(
            url,
            poolclass=StaticPool,
            connect_args={"check_same_thread": False, "isolation_level": None},
        )
        sync = sqlite_synchronous.upper()
        if sync not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise ValueError(f"sqlite synchronous must be OFF, NORMAL, FULL or EXTRA, not {sqlite_synchronous!r}")

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            if database and database != ":memory:":
                cur.execute("PRAGMA journal_mode=WAL")
                # Checkpoints normally run on a thread of their own (Store._checkpointer),
                # off the event loop; SQLite's own autocheckpoint is the bound for bursts
                # the thread does not keep up with, and the WAL file is truncated back.
                cur.execute(f"PRAGMA wal_autocheckpoint={WAL_AUTOCHECKPOINT_PAGES}")
                cur.execute(f"PRAGMA journal_size_limit={WAL_SIZE_LIMIT}")
            cur.execute(f"PRAGMA synchronous={sync}")
            cur.execute("PRAGMA busy_timeout=5000")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        # pysqlite's own transaction handling is off (isolation_level None):
        # emit BEGIN IMMEDIATE ourselves so a writer takes the lock up front.
        @event.listens_for(engine, "begin")
        def _begin(conn: Connection) -> None:
            conn.exec_driver_sql("BEGIN IMMEDIATE")

        return engine
    return create_engine(url, pool_pre_ping=True)


WAL_AUTOCHECKPOINT_PAGES = 2000
"""WAL pages (4 KiB) after which a commit checkpoints: the WAL's bound in a burst."""
WAL_SIZE_LIMIT = 16 * 2**20
"""Bytes the WAL file is truncated back to after a checkpoint."""


class DatabaseInUse(RuntimeError):
    """Another server (process or store) holds this SQLite database."""


class DatabaseLock:
    """An exclusive lock on ``<database>-lock`` beside an SQLite file, held while
    the store is open: a second server on the same file would serve stale state
    and see its moves fail, so it must not start.  (Where ``fcntl`` is missing,
    no lock is taken.)"""

    def __init__(self, database: str) -> None:
        self.path = f"{database}-lock"
        self._file: Any = None
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not POSIX
            return
        handle = open(self.path, "a+")  # noqa: SIM115 - held for the store's lifetime
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            raise DatabaseInUse(f"the database {database} is in use by another cardtable server "
                                f"(lock file {self.path}); stop it or use another --db") from None
        self._file = handle

    def release(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def check_database_free(url: str) -> None:
    """Raise :class:`DatabaseInUse` if another server holds the SQLite database at
    ``url`` (nothing to check for PostgreSQL, which many servers may share)."""
    parsed = make_url(normalise_url(url))
    if parsed.get_backend_name() == "sqlite" and parsed.database and parsed.database != ":memory:":
        if Path(parsed.database).parent.is_dir():
            DatabaseLock(parsed.database).release()


def check_schema_known(url: str) -> None:
    """Raise :class:`~cardtable.server.migrations.SchemaTooNew` if the database at ``url``
    was migrated by a newer cardtable (checked before serving, so the error is one line)."""
    from cardtable.server.migrations import check_known

    parsed = make_url(normalise_url(url))
    if parsed.get_backend_name() == "sqlite" and not (parsed.database and Path(parsed.database).is_file()):
        return  # a new SQLite database has no schema yet
    engine = make_engine(url)
    try:
        check_known(engine)
    finally:
        engine.dispose()


class StoreClosed(RuntimeError):
    """The store was closed while an operation was pending."""


Op = Callable[[Connection], Any]


def _run_batch(conn: Connection, batch: list[Op]) -> list[tuple[bool, Any]]:
    """Run ``batch`` in one transaction; if it fails, run each operation in a
    transaction of its own so that a bad one fails alone.  Returns
    ``(ok, result or exception)`` per operation."""
    try:
        with conn.begin():
            return [(True, op(conn)) for op in batch]
    except Exception as err:  # noqa: BLE001 - retried one by one below
        if len(batch) == 1:
            return [(False, err)]
    out: list[tuple[bool, Any]] = []
    for op in batch:
        try:
            with conn.begin():
                out.append((True, op(conn)))
        except Exception as err:  # noqa: BLE001 - handed to the awaiting coroutine
            out.append((False, err))
    return out


def _resolve(futures: list[asyncio.Future[Any]], outcomes: list[tuple[bool, Any]]) -> None:
    for fut, (ok, value) in zip(futures, outcomes):
        if fut.done():
            continue
        if ok:
            fut.set_result(value)
        else:
            fut.set_exception(value)


class Store:
    """Async front of the database: each method is a coroutine that completes
    once its operation is committed (or raises what the database raised).

    Operations queue up and are committed together ("group commit"):

    * **SQLite** — on the event loop itself, in one ``BEGIN IMMEDIATE``
      transaction per loop iteration.  A WAL commit with ``synchronous=NORMAL``
      writes to the OS without waiting for the disk: it survives the server
      process being killed (what the restart test checks), not a power cut
      (use ``sqlite_synchronous="FULL"`` for that, at a latency cost).
    * **PostgreSQL** — by one writer task on an asyncio psycopg connection
      (SQLAlchemy's async engine), so the loop never blocks on the network.
    """

    def __init__(self, url: str, *, sqlite_synchronous: str = "NORMAL", max_batch: int = 512,
                 checkpoint_seconds: float = 1.0) -> None:
        self.url = normalise_url(url)
        self.engine = make_engine(url, sqlite_synchronous=sqlite_synchronous)  # (connects lazily)
        self.backend = self.engine.dialect.name
        if self.backend not in ("sqlite", "postgresql"):
            raise ValueError(f"unsupported database {self.backend!r}: use SQLite or PostgreSQL")
        self._lock: DatabaseLock | None = None
        database = self.engine.url.database
        if self.backend == "sqlite" and database and database != ":memory:":
            self._lock = DatabaseLock(database)
        try:
            from cardtable.server.migrations import upgrade

            upgrade(self.engine)
        except BaseException:
            if self._lock is not None:
                self._lock.release()
            raise
        self.max_batch = max_batch
        self._pending: list[tuple[Op, asyncio.Future[Any]]] = []
        self._flush_scheduled = False
        self._conn: Connection | None = None
        self._async_engine: Any = None
        self._wakeup: asyncio.Event | None = None
        self._writer: asyncio.Task[None] | None = None
        self._closed = False
        self.batches = 0
        self.operations = 0
        self._stop = threading.Event()
        self._checkpointer: threading.Thread | None = None
        if self.backend == "sqlite":
            self._conn = self.engine.connect()
            database = self.engine.url.database
            if database and database != ":memory:":
                self._checkpointer = threading.Thread(target=self._checkpoint_loop,
                                                      args=(database, checkpoint_seconds),
                                                      name="cardtable-checkpoint", daemon=True)
                self._checkpointer.start()
        else:
            from sqlalchemy.ext.asyncio import create_async_engine

            self.engine.dispose()
            self._async_engine = create_async_engine(self.url, pool_pre_ping=True)

    def _checkpoint_loop(self, database: str, interval: float = 1.0) -> None:
        """Copy the WAL into the database file every ``interval`` seconds
        (PASSIVE: never blocks the writer; sqlite3 releases the GIL meanwhile)."""
        conn = sqlite3.connect(database, timeout=5, check_same_thread=False)
        try:
            while not self._stop.wait(interval):
                try:
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                except sqlite3.Error:
                    log.warning("WAL checkpoint failed", exc_info=True)
            try:
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
            except sqlite3.Error:
                pass
        finally:
            conn.close()

    def _submit(self, op: Callable[[Connection], T]) -> asyncio.Future[T]:
        if self._closed:
            raise StoreClosed("the store is closed")
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[T] = loop.create_future()
        self._pending.append((op, fut))
        if self.backend == "sqlite":
            if not self._flush_scheduled:
                self._flush_scheduled = True
                loop.call_soon(self._flush_inline)
        else:
            if self._writer is None:
                self._wakeup = asyncio.Event()
                self._writer = loop.create_task(self._write_loop())
            assert self._wakeup is not None
            self._wakeup.set()
        return fut

    def _take(self) -> list[tuple[Op, asyncio.Future[Any]]]:
        batch = self._pending[: self.max_batch]
        del self._pending[: self.max_batch]
        self.batches += 1
        self.operations += len(batch)
        return batch

    def _flush_inline(self) -> None:
        self._flush_scheduled = False
        assert self._conn is not None
        while self._pending:
            batch = self._take()
            try:
                outcomes = _run_batch(self._conn, [op for op, _ in batch])
            except Exception as err:  # noqa: BLE001 - e.g. the connection itself broke
                log.exception("the database connection failed")
                outcomes = [(False, err)] * len(batch)
            _resolve([f for _, f in batch], outcomes)

    async def _write_loop(self) -> None:
        assert self._wakeup is not None
        while not self._closed or self._pending:
            if not self._pending:
                self._wakeup.clear()
                await self._wakeup.wait()
                continue
            batch = self._take()
            futures = [f for _, f in batch]
            try:
                async with self._async_engine.connect() as aconn:
                    ops = [op for op, _ in batch]
                    outcomes = await aconn.run_sync(lambda conn: _run_batch(conn, ops))
            except Exception as err:  # noqa: BLE001 - e.g. the database is down
                outcomes = [(False, err)] * len(batch)
            _resolve(futures, outcomes)

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self.backend == "sqlite":
            self._flush_inline()
            if self._conn is not None:
                self._conn.close()
            self.engine.dispose()
            self._stop.set()
            if self._checkpointer is not None:
                await asyncio.to_thread(self._checkpointer.join, 10)
            if self._lock is not None:
                self._lock.release()
        else:
            if self._writer is not None and self._wakeup is not None:
                self._wakeup.set()
                try:
                    await asyncio.wait_for(self._writer, 10)
                except asyncio.TimeoutError:
                    self._writer.cancel()
            for _, fut in self._pending:
                if not fut.done():
                    fut.set_exception(StoreClosed("the store is closed"))
            await self._async_engine.dispose()

    # --- operations ------------------------------------------------------------
    async def create_match(self, row: MatchRow) -> None:
        def op(conn: Connection) -> None:
            conn.execute(
                insert(matches_table).values(
                    id=row.id,
                    game=row.game,
                    config=json.dumps(row.config),
                    seed=row.seed,
                    options=json.dumps(row.options),
                    host_hash=row.host_hash,
                    status=row.status,
                    result=None,
                    created=row.created,
                    updated=row.updated,
                )
            )
            conn.execute(
                insert(seats_table),
                [
                    dict(match_id=row.id, seat=s.seat, kind=s.kind, name=s.name, agent=s.agent,
                         token_hash=s.token_hash, claimed=s.claimed, user_id=s.user_id)
                    for s in row.seats
                ],
            )

        await self._submit(op)

    async def append_move(self, match_id: str, seq: int, seat: int, action: int, text: str) -> None:
        """Store accepted move number ``seq`` (1-based); fails if it already exists."""
        row = (match_id, seq, seat, action, text, time.time())
        sql = _INSERT_EVENT_SQL[self.backend]

        def op(conn: Connection) -> None:
            # The hot path: plain driver SQL skips SQLAlchemy's statement machinery.
            conn.exec_driver_sql(sql, row)

        await self._submit(op)

    async def append_chat(self, match_id: str, line: dict[str, Any], keep: int) -> None:
        """Store a chat line (``MatchRow.chat``'s fields), keeping the match's last ``keep``."""

        def op(conn: Connection) -> None:
            conn.execute(insert(chat_table).values(match_id=match_id, **line))
            conn.execute(delete(chat_table).where(chat_table.c.match_id == match_id,
                                                  chat_table.c.seq <= line["seq"] - keep))

        await self._submit(op)

    async def save_clock(self, match_id: str, clock: dict[str, Any] | None, deadline: float | None) -> None:
        """Store the match clock's state and its running ``deadline`` (``None``: none runs)."""
        row = (None if clock is None else json.dumps(clock), deadline, match_id)
        sql = _SAVE_CLOCK_SQL[self.backend]

        def op(conn: Connection) -> None:
            # On the path of a timed match's every change of turn: plain driver SQL, as append_move.
            conn.exec_driver_sql(sql, row)

        await self._submit(op)

    async def deadlines(self) -> list[tuple[str, float]]:
        """The running clock deadline of every match still on, earliest first."""

        def op(conn: Connection) -> list[tuple[str, float]]:
            m = matches_table.c
            rows = conn.execute(select(m.id, m.deadline).where(m.status == "active", m.deadline.is_not(None))
                                .order_by(m.deadline)).all()
            return [(str(r[0]), float(r[1])) for r in rows]

        return await self._submit(op)

    async def update_seat(self, match_id: str, seat: SeatRow) -> None:
        def op(conn: Connection) -> None:
            conn.execute(
                update(seats_table)
                .where(seats_table.c.match_id == match_id, seats_table.c.seat == seat.seat)
                .values(kind=seat.kind, name=seat.name, agent=seat.agent, token_hash=seat.token_hash,
                        claimed=seat.claimed, user_id=seat.user_id)
            )

        await self._submit(op)

    async def run(self, op: Callable[[Connection], T]) -> T:
        """Run ``op`` in a transaction (batched with others, see the class doc) and
        return its result: the way other modules (accounts, ratings) use the store."""
        return await self._submit(op)

    async def finish(self, match_id: str, result: dict[str, Any],
                     also: Callable[[Connection], None] | None = None, ending: str | None = None) -> None:
        """Mark the match finished with ``result`` (and its early ``ending``, if it had
        one); ``also`` (the rating update) runs in the same transaction, so both are
        stored or neither."""
        now = time.time()

        def op(conn: Connection) -> None:
            conn.execute(
                update(matches_table)
                .where(matches_table.c.id == match_id)
                .values(status="finished", result=json.dumps(result), ending=ending, updated=now)
            )
            if also is not None:
                also(conn)

        await self._submit(op)

    async def load_match(self, match_id: str) -> MatchRow | None:
        def op(conn: Connection) -> MatchRow | None:
            m = conn.execute(select(matches_table).where(matches_table.c.id == match_id)).mappings().first()
            if m is None:
                return None
            seats = conn.execute(
                select(seats_table).where(seats_table.c.match_id == match_id).order_by(seats_table.c.seat)
            ).mappings().all()
            moves = conn.execute(
                select(events_table.c.seq, events_table.c.seat, events_table.c.action)
                .where(events_table.c.match_id == match_id)
                .order_by(events_table.c.seq)
            ).all()
            chat = conn.execute(
                select(chat_table.c.seq, chat_table.c.seat, chat_table.c.name, chat_table.c.text,
                       chat_table.c.phrase, chat_table.c.at)
                .where(chat_table.c.match_id == match_id)
                .order_by(chat_table.c.seq)
            ).mappings().all()
            return MatchRow(
                id=m["id"],
                game=m["game"],
                config=json.loads(m["config"]),
                seed=int(m["seed"]),
                options=json.loads(m["options"]),
                host_hash=m["host_hash"],
                status=m["status"],
                result=None if m["result"] is None else json.loads(m["result"]),
                ending=m["ending"],
                clock=None if m["clock"] is None else json.loads(m["clock"]),
                created=m["created"],
                updated=m["updated"],
                seats=[
                    SeatRow(seat=s["seat"], kind=s["kind"], name=s["name"], agent=s["agent"],
                            token_hash=s["token_hash"], claimed=bool(s["claimed"]), user_id=s["user_id"])
                    for s in seats
                ],
                moves=[(int(r[0]), int(r[1]), int(r[2])) for r in moves],
                chat=[dict(r) for r in chat],
            )

        return await self._submit(op)

    async def list_matches(self, *, status: str | None = None, limit: int = 100) -> list[dict[str, Any]]:
        """Public summaries (no seed, no secrets) of the newest matches listed in the
        lobby, each with its seats; a seat's ``open`` says that anyone may take it now
        (``POST /api/matches/{id}/join``)."""

        def op(conn: Connection) -> list[dict[str, Any]]:
            q = select(
                matches_table.c.id, matches_table.c.game, matches_table.c.config, matches_table.c.options,
                matches_table.c.status, matches_table.c.created, matches_table.c.updated,
            ).order_by(matches_table.c.created.desc()).limit(limit * 4)
            if status is not None:
                q = q.where(matches_table.c.status == status)
            out: list[dict[str, Any]] = []
            open_lists: dict[str, set[int]] = {}
            for r in conn.execute(q).mappings():
                options = json.loads(r["options"])
                if not options.get("listed", False):
                    continue
                open_lists[r["id"]] = set(options.get("open_seats") or ()) if r["status"] == "active" else set()
                out.append({
                    "id": r["id"], "game": r["game"], "config": json.loads(r["config"]),
                    "status": r["status"], "created": r["created"], "updated": r["updated"], "seats": [],
                    "clock": options.get("clock"),
                })
                if len(out) >= limit:
                    break
            if out:
                by_id = {m["id"]: m for m in out}
                rows = conn.execute(
                    select(seats_table.c.match_id, seats_table.c.seat, seats_table.c.kind, seats_table.c.name,
                           seats_table.c.agent, seats_table.c.claimed)
                    .where(seats_table.c.match_id.in_(list(by_id)))
                    .order_by(seats_table.c.match_id, seats_table.c.seat)
                ).mappings()
                for s in rows:
                    mid = s["match_id"]
                    free = s["kind"] == "human" and not s["claimed"]
                    by_id[mid]["seats"].append({
                        "seat": s["seat"], "kind": s["kind"], "name": s["name"], "agent": s["agent"],
                        "claimed": bool(s["claimed"]), "open": free and s["seat"] in open_lists[mid],
                    })
            return out

        return await self._submit(op)
