"""Matches in memory: the authoritative state, its seats and connections.

A :class:`Room` owns one match.  Everything that changes it runs under the
room's ``asyncio.Lock`` (one message at a time per match, like boardgame.io's
per-match queue), in this order for a move:

1. who is asking (a seat, never a spectator), whose turn, the ``seq`` rule,
   legality — any failure is a :class:`ProtocolError` and changes nothing;
2. the move is appended to the event store and committed;
3. only then is it applied to the in-memory state and sent to everyone,
   each recipient getting its own projection (:mod:`cardtable.server.views`).

Outbound messages go through a bounded per-connection queue; a client that
does not read is disconnected (it resynchronises on reconnect) rather than
slowing the match down.
"""

from __future__ import annotations

import asyncio
import collections
import functools
import hashlib
import json
import hmac
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import IntegrityError

from cardtable.agents import agent_names
from cardtable.protocol import JSON, Event, EventDetail, Game, IllegalAction, State, details_json
from cardtable.registry import load_game
from cardtable.server import ratings
from cardtable.server.chat import MatchChat
from cardtable.server.clocks import ClockOptions, Deadlines, MatchClock
from cardtable.server.errors import ProtocolError, reason_body
from cardtable.server.limits import Clock, LimitError, Limits, MonotonicClock, WallClock
from cardtable.server.lobby import LobbyFeed
from cardtable.server.store import MatchRow, SeatRow, Store
from cardtable.server.turns import TurnFeed
from cardtable.server.validate import is_match_id
from cardtable.server.views import (
    Key,
    card_names,
    dumps,
    redact,
    redact_json,
    view_for,
)
from cardtable.server.workers import PoolBusy, SearchJob, SearchPool, default_workers

if TYPE_CHECKING:
    from cardtable.server.accounts import User

log = logging.getLogger("cardtable.server")

PROTOCOL_VERSION = 1
PROTOCOL_REVISION = 8
"""Additions within version 1 (docs/server-protocol.md, "Revisions"): 2 adds open
seats and ``POST /api/matches/{id}/join``; 3 issues a fresh seat token to whoever
claims a seat by its invite link (``token`` in ``welcome``); 4 adds accounts and ratings;
5 adds resigning, aborting, draws and rematches (:mod:`cardtable.server.lifecycle`); 6 chat
and analysis; 7 tutorials, reviews and win chances in hints; 8 match clocks
(:mod:`cardtable.server.clocks`) and turn news (:mod:`cardtable.server.turns`)."""


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


@functools.lru_cache(maxsize=64)
def _shared_game(name: str, config_json: str) -> Game:
    return load_game(name, **json.loads(config_json))


def shared_game(name: str, config: dict[str, Any]) -> Game:
    """The configured game, built once per configuration and shared by every
    match (a game is an immutable rule set; building one costs milliseconds)."""
    return _shared_game(name, json.dumps(config, sort_keys=True))


def default_agent(game_name: str) -> str:
    names = agent_names(game_name)
    return "heuristic" if "heuristic" in names else names[0]


@dataclass
class Settings:
    ai_delay: float = 0.0
    """Seconds an AI seat waits before moving (lets people follow AI-only turns)."""
    takeover_grace: float = 30.0
    """Seconds a seat's player must be gone before another player may hand it to an AI."""
    max_message_bytes: int = 8192
    outbox_limit: int = 256
    """Messages queued for one connection before it is dropped as too slow."""
    rate_per_second: float = 50.0
    """Messages per second one connection may send on average (flood control)."""
    rate_burst: float = 200.0
    hello_timeout: float = 10.0
    """Seconds from a socket's opening by which it must have sent a good ``hello``."""
    clock: Clock = field(default_factory=MonotonicClock)
    """The clock of every rate limit and idle time (tests drive a :class:`ManualClock`)."""
    wall_clock: Clock = field(default_factory=WallClock)
    """Seconds since the epoch: the match clocks' deadlines, stored with their matches
    (tests drive a :class:`ManualClock` and wake :class:`~cardtable.server.clocks.Deadlines`)."""
    max_body_bytes: int = 16384
    """Largest HTTP request body; a longer one is cut off with ``too_large`` (413)."""
    http_rate_per_second: float = 20.0
    """HTTP requests per second one client address may make on average (``rate_limited``, 429)."""
    http_burst: float = 200.0
    """HTTP requests one client address may make at once before the rate applies."""
    max_matches_per_minute: float = 30.0
    """New matches one client address may create per minute (also the burst)."""
    hints_per_minute: float = 60.0
    """Hints one client address may ask for per minute (also the burst)."""
    max_sockets_per_address: int = 32
    """Open websockets one client address may hold (``too_many_connections``)."""
    max_sockets: int = 4096
    """Open websockets in all."""
    max_tracked_addresses: int = 10000
    """Client addresses the rate limiters remember (the least recently seen are forgotten)."""
    room_idle_seconds: float = 300.0
    """A match with no connection and no AI to move leaves memory after this long
    (it reloads from the store when next asked for)."""
    room_sweep_seconds: float = 10.0
    """How often (real seconds) idle matches are looked for."""
    ai_workers: int = field(default_factory=default_workers)
    """Worker processes searching AI moves and hints; 0 searches in a thread of the server."""
    max_queued_searches: int = 8
    """Hints running or waiting beyond which another hint is refused with ``busy``; AI moves
    are counted apart and never refused (they wait their turn), so they never make a hint busy."""
    allowed_origins: tuple[str, ...] = ()
    """Browser origins (``https://example.org``) allowed besides the server's own."""
    allowed_hosts: tuple[str, ...] = ()
    max_lobby_subscribers: int = 256
    """Lobby pages kept up to date by push at once (``/api/lobby/events``); more get ``busy``."""
    lobby_heartbeat: float = 25.0
    """Seconds between keep-alive comments on a quiet lobby event stream."""
    """Host names the server answers to besides localhost, 127.0.0.1 and ::1 (``*``: any)."""
    signin_per_minute: float = 10.0
    """Sign-up and sign-in attempts one client address may make per minute (also the burst)."""
    session_days: float = 30.0
    """Days a sign-in session lasts."""
    abort_moves: int = 4
    """A seated player may abort a match (no result, not rated) until this many moves are made."""
    chat_max_chars: int = 300
    """Longest chat line, in characters (``bad_message``)."""
    chat_per_minute: float = 20.0
    """Chat messages one connection may send per minute on average (``rate_limited``)."""
    chat_burst: float = 5.0
    """Chat messages one connection may send at once before the rate applies."""


class Connection:
    """One client connection; messages are queued and sent by the transport."""

    def __init__(self, limit: int, address: str = "unknown") -> None:
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.limit = limit
        self.address = address
        self.key: Key = None
        self.room: Room | None = None
        self.closed = False
        self.overflowed = False

    def send(self, text: str) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= self.limit:
            self.overflowed = True
            self.close()
            return
        self.queue.put_nowait(text)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(None)


@dataclass
class SeatState:
    row: SeatRow
    gone_since: float
    """When the seat's last connection went (or the match was loaded), on :attr:`Settings.clock`."""
    connections: set[Connection] = field(default_factory=set)
    agent_seed: int = field(default_factory=lambda: secrets.randbits(31))
    """Seeds the seat's AI: its move at seq ``n`` is searched with a seed made of this and ``n``."""


@dataclass
class LogLine:
    seq: int
    seat: int
    text: str
    note: str
    details: tuple[EventDetail, ...] = ()

    @classmethod
    def of(cls, seq: int, event: Event) -> LogLine:
        """The log line of the move numbered ``seq`` that made ``event``."""
        return cls(seq, event.player, event.text, event.note, event.details)

    def for_key(self, key: Key) -> dict[str, JSON]:
        """The line as sent to ``key``: the same for everybody, since a game's events
        are public (:class:`cardtable.protocol.Event`).  ``details`` are the event's
        typed records (``docs/server-protocol.md``); ``note`` is English for logs only."""
        return {"seq": self.seq, "seat": self.seat, "move": self.text, "note": self.note,
                "details": details_json(self.details)}


class Room:
    """One match in memory (see the module doc for the move pipeline)."""

    def __init__(self, row: MatchRow, store: Store, settings: Settings, searches: SearchPool | None = None) -> None:
        self.row = row
        self.id = row.id
        self.store = store
        self.settings = settings
        self.searches = searches or SearchPool(0, settings.max_queued_searches)
        self.last_used = settings.clock.now()
        """When a request or a connection last touched the match (``settings.clock``)."""
        self.game: Game = shared_game(row.game, row.config)
        self.cards = card_names(self.game)
        self.state: State = self.game.new_state(seed=row.seed)
        self.seats = [SeatState(s, gone_since=settings.clock.now()) for s in row.seats]
        self.spectators: set[Connection] = set()
        self.lock = asyncio.Lock()
        self.log: list[LogLine] = []
        self.keys: list[Key] = [*range(self.game.num_players), None]
        self._views: dict[Key, tuple[dict[str, JSON], str]] = {}
        self._ai_task: asyncio.Task[None] | None = None
        self._finish_task: asyncio.Task[None] | None = None
        self._clock_task: asyncio.Task[None] | None = None
        self.announce: Callable[[Room, str], None] = lambda room, change: None
        """Tells the lobby of a change to this match (set by :class:`Rooms`)."""
        self.on_turn: Callable[[Room], None] = lambda room: None
        """Tells the pages watching this match's turns that a new seat is to move or it ended."""
        self.broken: str | None = None
        self.outcome: dict[str, Any] | None = row.result if row.ending is not None else None
        """The result of a match ended early (resigned, agreed drawn, aborted:
        :mod:`cardtable.server.lifecycle`), which overrides the state's."""
        self.agreed: dict[str, set[int]] = {}
        """Seats that asked for ``resign`` (a partnership's), ``draw`` or ``rematch``
        and wait for the others; a move ends a draw offer."""
        self.rematch: str | None = None
        """The id of the match that followed this one (``rematch``)."""
        self.chat = MatchChat(str(row.options.get("chat", "seats")), settings.clock,
                              rate_per_minute=settings.chat_per_minute, burst=settings.chat_burst,
                              max_chars=settings.chat_max_chars)
        """The match's chat (:mod:`cardtable.server.chat`)."""
        self.chat.restore(row.chat)
        options = ClockOptions.stored(row.options.get("clock"))
        self.clock = None if options is None else MatchClock(options, self.game.num_players, row.clock)
        """The match clock (:mod:`cardtable.server.clocks`), if the match has one."""
        self.timed_out: int | None = None
        """The seat whose time ran out with ``on_timeout: "ai"``: its AI plays the turn."""
        self.deadlines: Deadlines | None = None
        """The server's deadline queue, told of this match's running deadline (set by :class:`Rooms`)."""
        for seq, seat, action in row.moves:
            if seq != len(self.state.history) + 1:
                raise ValueError(f"match {row.id}: stored move {seq} is out of order")
            event = self.state.apply_action(action)
            self.log.append(LogLine.of(seq, event))
        self._views = {}
        if self.clock is not None and self.clock.seat != self.timed_seat():
            self.clock.forget_running()  # the store missed the last change of turn

    # --- projections ---------------------------------------------------------
    @property
    def seq(self) -> int:
        return len(self.state.history)

    @property
    def finished(self) -> bool:
        return self.outcome is not None or self.state.is_terminal()

    def view(self, key: Key) -> tuple[dict[str, JSON], str]:
        """The view of ``key`` at the current seq, and its JSON text (cached)."""
        cached = self._views.get(key)
        if cached is None:
            v = view_for(self.state, key)
            cached = (v, dumps(v))
            self._views[key] = cached
        return cached

    def redact_for(self, key: Key, text: str) -> str:
        return redact(text, self.cards, (self.view(key)[1],))

    def legal_for(self, key: Key) -> list[dict[str, JSON]]:
        if key is None or self.finished or self.state.current_player() != key:
            return []
        return [{"action": a, "move": self.state.action_to_string(a)} for a in self.state.legal_actions()]

    def refused_for(self, key: Key) -> list[dict[str, JSON]]:
        """Why each card of the mover's own hand cannot be played now (tooltips).

        Only the seat to move gets any, and only about ``play <card>`` moves naming a
        card of its own hand: the reasons speak of that seat's cards and of public ones.
        """
        if key is None or self.finished or self.state.current_player() != key:
            return []
        view, vtext = self.view(key)
        hand = set(view.get("hand") or ())
        out: list[dict[str, JSON]] = []
        for action in range(self.game.num_distinct_actions):
            move = self.state.action_to_string(action)
            verb, _, card = move.partition(" ")
            if verb != "play" or card not in hand:
                continue
            refusal = self.state.why_illegal(action)
            if refusal is not None:
                out.append({"action": action, "move": move, "rule": refusal.rule, "reason": reason_body(refusal)})
        return [redact_json(entry, self.cards, (vtext,)) for entry in out]

    def status(self) -> str:
        return "finished" if self.finished else "active"

    def result_for(self, key: Key) -> JSON:
        if not self.finished:
            return None
        result = self.state.result() if self.outcome is None else self.outcome
        return redact_json(result, self.cards, (self.view(key)[1],))

    def seats_info(self) -> list[dict[str, JSON]]:
        return [
            {
                "seat": s.row.seat,
                "name": s.row.name,
                "kind": s.row.kind,
                "agent": s.row.agent,
                "claimed": s.row.claimed,
                "account": s.row.user_id is not None,
                "connected": bool(s.connections),
                "open": self.is_open(s),
            }
            for s in self.seats
        ]

    def open_seats(self) -> list[int]:
        """The seats the creator opened to anyone (taken or not)."""
        value = self.row.options.get("open_seats") or []
        return [int(x) for x in value]

    def is_open(self, seat: SeatState) -> bool:
        """Whether anyone may take ``seat`` now (:meth:`join`): the creator opened it,
        nobody has claimed it, no AI plays it, and the match is not over."""
        return (seat.row.seat in self.open_seats() and seat.row.kind == "human" and not seat.row.claimed
                and not self.finished)

    def info(self) -> dict[str, JSON]:
        """Public facts about the match (no seed, no tokens)."""
        public = self.view(None)[0]
        return {
            "id": self.id,
            "game": self.game.name,
            "title": self.game.title,
            "config": self.game.config_dict(),
            "num_players": self.game.num_players,
            "seats": self.seats_info(),
            "status": self.status(),
            "ending": None if self.outcome is None else self.outcome.get("ending"),
            "draws": self.game.info.can_tie,
            "abort_moves": self.settings.abort_moves,
            "seq": self.seq,
            "current_player": None if self.finished else self.state.current_player(),
            "hints": bool(self.row.options.get("hints", False)),
            "spectators": bool(self.row.options.get("spectators", True)),
            "fixed_seed": bool(self.row.options.get("fixed_seed", False)),
            "rated": bool(self.row.options.get("rated", False)),
            "chat": self.chat.mode,
            "clock": self.clock_info(),
            "created": self.row.created,
            # where the match stands, as everyone sees it (for the lobby's lists)
            "round": public.get("round"),
            "scores": public.get("scores"),
        }

    # --- messages ---------------------------------------------------------------
    @staticmethod
    def _with_view(head: dict[str, JSON], view_text: str, tail: dict[str, JSON] | None = None) -> str:
        text = dumps(head)[:-1] + ',"view":' + view_text
        if tail:
            text += "," + dumps(tail)[1:-1]
        return text + "}"

    def state_message(self, key: Key, conn: Connection | None = None) -> str:
        """The ``state`` for ``key``; its chat leaves out what ``conn``'s user muted."""
        _, vtext = self.view(key)
        head: dict[str, JSON] = {
            "type": "state",
            "seq": self.seq,
            "you": key,
            "match": self.info(),
            "status": self.status(),
            "clock": self.clock_info(),
        }
        tail: dict[str, JSON] = {
            "legal": self.legal_for(key),
            "refused": self.refused_for(key),
            "log": [line.for_key(key) for line in self.log],
            "result": self.result_for(key),
            "chat": self.chat.history_for(conn if key is None else key, key),
        }
        return self._with_view(head, vtext, tail)

    def error_message(self, key: Key, err: ProtocolError, req_id: JSON = None) -> str:
        msg: dict[str, JSON] = {
            "type": "error",
            "seq": self.seq,
            "code": err.code,
            "message": self.redact_for(key, err.message),
        }
        if err.refusal is not None:
            if err.refusal.rule is not None:
                msg["rule"] = err.refusal.rule
            msg["reason"] = redact_json(reason_body(err.refusal), self.cards, (self.view(key)[1],))
        if req_id is not None:
            msg["id"] = req_id
        return dumps(msg)

    def seats_message(self) -> str:
        return dumps({"type": "seats", "seq": self.seq, "seats": self.seats_info()})

    def connections_of(self, key: Key) -> set[Connection]:
        return self.spectators if key is None else self.seats[key].connections

    def broadcast(self, make: Callable[[Key], str]) -> None:
        for k in self.keys:
            conns = self.connections_of(k)
            if conns:
                text = make(k)
                for c in list(conns):
                    c.send(text)

    def _broadcast_update(self, line: LogLine) -> None:
        status = self.status()
        clock = self.clock_info()

        def make(k: Key) -> str:
            head: dict[str, JSON] = {"type": "update", "seq": self.seq, "event": line.for_key(k), "status": status,
                                     "clock": clock}
            tail: dict[str, JSON] = {"legal": self.legal_for(k), "refused": self.refused_for(k),
                                     "result": self.result_for(k)}
            return self._with_view(head, self.view(k)[1], tail)

        self.broadcast(make)

    # --- connections -------------------------------------------------------------
    def authenticate(self, token: str | None, user: User | None = None) -> Key:
        """The seat whose token this is (constant-time comparisons); with no token,
        the seat bound to the signed-in ``user``, or ``None`` for a spectator."""
        if token is None:
            mine = self.seat_of(user)
            if mine is not None:
                return mine
            if not self.row.options.get("spectators", True):
                raise ProtocolError("spectators_disallowed", "this match does not admit spectators", status=403)
            return None
        given = hash_token(token)
        found: int | None = None
        for s in self.seats:
            stored = s.row.token_hash or ""
            if hmac.compare_digest(given, stored) and found is None:
                found = s.row.seat
        if found is None:
            raise ProtocolError("auth_failed", "this token is not a seat of this match", status=403)
        return found

    def seat_of(self, user: User | None) -> int | None:
        """The seat bound to ``user``'s account (the lowest, should there be two)."""
        if user is None:
            return None
        return next((s.row.seat for s in self.seats if s.row.user_id == user.id), None)

    def check_token(self, key: Key, token: str | None) -> None:
        """Refuse ``token`` unless it is still seat ``key``'s (lock held): an HTTP
        request authenticates before it waits for the lock, and a claim may have
        voided its invite token meanwhile.  ``None`` (a websocket, seated by
        :meth:`attach` under the lock) is not checked again."""
        if token is not None and self.authenticate(token) != key:
            raise ProtocolError("auth_failed", "this token is not a seat of this match", status=403)

    def is_host(self, token: str | None) -> bool:
        return token is not None and hmac.compare_digest(hash_token(token), self.row.host_hash)

    async def attach(self, conn: Connection, token: str | None, name: str | None, user: User | None = None) -> None:
        """Seat ``conn`` by its ``token``, or with none by the seat bound to the
        signed-in ``user``, or as a spectator.  The first to come with an unclaimed
        seat's invite token claims the seat: it is stored under ``name`` (the
        account's, for a signed-in ``user``, and bound to it) with a fresh token,
        sent in the ``welcome``, and the invite token stops working (the token is
        checked under the lock, so one claim wins)."""
        async with self.lock:
            key = self.authenticate(token, user)
            welcome: dict[str, JSON] = {
                "type": "welcome",
                "v": PROTOCOL_VERSION,
                "seq": self.seq,
                "you": key,
                "role": "spectator" if key is None else "player",
            }
            changed = False
            if key is not None:
                seat = self.seats[key]
                if not seat.row.claimed:
                    welcome["token"] = await self._claim(seat, name, user)
                    changed = True
                changed = changed or not seat.connections
                seat.connections.add(conn)
            else:
                self.spectators.add(conn)
            conn.key = key
            conn.room = self
            conn.send(dumps(welcome))
            conn.send(self.state_message(key, conn))
            if changed:
                self.broadcast(lambda k: self.seats_message())
                self.announce(self, "seats")
            await self._clock_moved()

    async def _claim(self, seat: SeatState, name: str | None, user: User | None = None) -> str:
        """Claim ``seat`` under ``name`` (bound to ``user``'s account and named after
        it, if signed in) with a fresh token, which is returned; the store is
        written first, so a failed write changes nothing (lock held)."""
        if user is None and self.row.options.get("rated", False):
            raise ProtocolError("account_required", "this match is rated: sign in to take a seat", status=401)
        token = new_token()
        row = SeatRow(seat=seat.row.seat, kind=seat.row.kind, name=user.name if user else name or seat.row.name,
                      agent=seat.row.agent, token_hash=hash_token(token), claimed=True,
                      user_id=user.id if user else None)
        try:
            await self.store.update_seat(self.id, row)
        except Exception as err:  # noqa: BLE001 - reported as a typed error
            log.exception("match %s: storing a claimed seat failed", self.id)
            raise ProtocolError("storage", f"the seat could not be stored ({type(err).__name__}); try again",
                                status=503) from None
        seat.row.name = row.name
        seat.row.token_hash = row.token_hash
        seat.row.claimed = True
        seat.row.user_id = row.user_id
        return token

    def detach(self, conn: Connection) -> None:
        key = conn.key
        self.last_used = self.settings.clock.now()
        if key is None:
            self.spectators.discard(conn)
            return
        seat = self.seats[key]
        if conn in seat.connections:
            seat.connections.discard(conn)
            if not seat.connections:
                seat.gone_since = self.settings.clock.now()
                self.broadcast(lambda k: self.seats_message())

    def connection_count(self) -> int:
        return len(self.spectators) + sum(len(s.connections) for s in self.seats)

    # --- moves -----------------------------------------------------------------
    def _read_action(self, move: JSON, action: JSON) -> int:
        if action is not None:
            if not isinstance(action, int) or isinstance(action, bool):
                raise ProtocolError("bad_message", "'action' must be an integer action id")
            if not 0 <= action < self.game.num_distinct_actions:
                raise ProtocolError("illegal", f"action {action} does not exist in {self.game.title}")
            reason = self.state.why_illegal(action)
            if reason is not None:
                raise ProtocolError("illegal", reason, status=409)
            return action
        if not isinstance(move, str) or not move.strip():
            raise ProtocolError("bad_message", "a move needs 'move' (text in the game's notation) or 'action' (an id)")
        if len(move) > 200:
            raise ProtocolError("bad_message", "'move' is too long")
        try:
            return self.state.parse_action(move)
        except IllegalAction as err:
            raise ProtocolError("illegal", err.refusal or str(err), status=409) from None

    async def move(self, key: Key, seq: JSON, move: JSON = None, action: JSON = None,
                   conn: Connection | None = None, req_id: JSON = None, token: str | None = None) -> int:
        """Apply a move from seat ``key`` (whose HTTP ``token`` is checked again
        under the lock: :meth:`check_token`); returns the new seq."""
        if not isinstance(seq, int) or isinstance(seq, bool):
            raise ProtocolError("bad_message", "a move needs 'seq': the seq of the state it was chosen in")
        async with self.lock:
            self.check_token(key, token)
            if key is None:
                raise ProtocolError("not_a_player", "spectators cannot move", status=403)
            if self.broken:
                raise ProtocolError("unavailable", self.broken, status=503)
            if self.finished:
                raise ProtocolError("match_over", "the match is over: no more moves", status=409)
            if seq != self.seq:
                if 0 <= seq < self.seq and self._is_duplicate(key, seq, move, action):
                    raise ProtocolError("duplicate", f"this move was already accepted as move {seq + 1}", status=409)
                raise ProtocolError(
                    "stale", f"seq {seq} is not the current state (seq {self.seq}): resynchronise and choose again",
                    status=409)
            seat = self.seats[key]
            if seat.row.kind != "human":
                raise ProtocolError("seat_is_ai", "an AI plays this seat now; send 'reclaim' to take it back", status=409)
            if self.state.current_player() != key:
                raise ProtocolError("not_your_turn", f"it is seat {self.state.current_player()}'s turn", status=409)
            if self.clock is not None and self.clock.expired(self.settings.wall_clock.now()):
                await self._run_out()
                raise ProtocolError("out_of_time", f"seat {key}'s time ran out before this move arrived "
                                    f"(on_timeout: {self.clock.options.on_timeout})", status=409)
            chosen = self._read_action(move, action)
            await self._commit(key, chosen, conn, req_id)
            return self.seq

    def _is_duplicate(self, key: int, seq: int, move: JSON, action: JSON) -> bool:
        line = self.log[seq]  # the move that was accepted at seq (it became seq + 1)
        if line.seat != key:
            return False
        if isinstance(action, int) and not isinstance(action, bool):
            return self.state.history[seq] == action
        return isinstance(move, str) and " ".join(move.split()).upper() == " ".join(line.text.split()).upper()

    async def _commit(self, seat: int, action: int, conn: Connection | None, req_id: JSON) -> None:
        """Persist then apply a legal ``action`` (lock held)."""
        text = self.state.action_to_string(action)
        new_seq = self.seq + 1
        try:
            await self.store.append_move(self.id, new_seq, seat, action, text)
        except IntegrityError:
            # Move new_seq is already stored: another server process (a cluster's
            # former owner) moved meanwhile.  This copy is stale: rebuild it.
            self.give_up("another server process stored this match's next move; reconnect to resynchronise")
            raise ProtocolError("unavailable", str(self.broken), status=503) from None
        except Exception as err:  # noqa: BLE001 - reported as a typed error
            log.exception("match %s: storing move %s failed", self.id, new_seq)
            raise ProtocolError("storage", f"the move could not be stored ({type(err).__name__}); try again",
                                status=503) from None
        try:
            event = self.state.apply_action(action)
        except Exception:  # pragma: no cover - why_illegal said legal
            self.broken = "the match is being restored after an internal error; reconnect"
            log.exception("match %s: stored move %s did not apply", self.id, new_seq)
            raise ProtocolError("internal", self.broken, status=500) from None
        self._views = {}
        self.agreed.pop("draw", None)
        line = LogLine.of(new_seq, event)
        self.log.append(line)
        clock_changed = self._tick_clock()
        if conn is not None:
            ack: dict[str, JSON] = {"type": "ack", "seq": new_seq}
            if req_id is not None:
                ack["id"] = req_id
            conn.send(dumps(ack))
        self._broadcast_update(line)
        if self.finished or self.state.current_player() != seat:
            self.on_turn(self)
        if self.finished:
            self._record_finish(self.state.result(), None)
        else:
            self.schedule_ai()
        if clock_changed:
            await self._save_clock()

    def give_up(self, why: str) -> None:
        """Stop serving this copy of the match (it is rebuilt from the store when next
        asked for): every connection is closed, so its client reconnects."""
        self.broken = why
        for k in self.keys:
            for c in list(self.connections_of(k)):
                c.close()

    def end_early(self, result: dict[str, Any]) -> None:
        """End the match now with ``result``, whose ``ending`` says how (resigned,
        drawn, aborted: :mod:`cardtable.server.lifecycle`); everyone gets the new
        state (lock held)."""
        self.outcome = result
        self.agreed.clear()
        self._views = {}
        self._tick_clock()
        self.on_turn(self)
        self._record_finish(result, str(result["ending"]))
        self.broadcast(self.state_message)

    def _record_finish(self, result: dict[str, Any], ending: str | None) -> None:
        self._finish_task = asyncio.get_running_loop().create_task(self._store_finish(result, ending))
        self.announce(self, "finished")

    async def _store_finish(self, result: dict[str, Any], ending: str | None = None) -> None:
        """Store the end of the match, and in the same transaction the rating update
        of a rated match (:func:`cardtable.server.ratings.finish_update`); an
        aborted match is not rated."""
        also = None
        if self.row.options.get("rated", False) and ending != "aborted":
            also = ratings.finish_update(self.id, self.game.name, [s.row for s in self.seats], self.game.teams(),
                                         result)
        try:
            await self.store.finish(self.id, result, also, ending)
            self.row.status = "finished"
        except Exception:  # noqa: BLE001 - the status is derivable from the events
            log.exception("match %s: storing the result failed", self.id)

    # --- the match clock (cardtable.server.clocks) -------------------------------------
    def timed_seat(self) -> int | None:
        """The seat whose time runs now: a human seat to move, once every human seat
        is taken, while the match is on."""
        if self.clock is None or self.finished or self.broken:
            return None
        if any(s.row.kind == "human" and not s.row.claimed for s in self.seats):
            return None
        cur = self.state.current_player()
        return cur if self.seats[cur].row.kind == "human" else None

    def clock_info(self) -> JSON:
        """The match clock as everyone sees it (``None``: the match has none)."""
        if self.clock is None:
            return None
        return self.clock.info(self.settings.wall_clock.now(), [s.row.kind == "human" for s in self.seats])

    def _tick_clock(self) -> bool:
        """Let the time of :meth:`timed_seat` run (lock held); returns whether the
        clock changed.  The deadline queue hears of the running deadline."""
        if self.clock is None:
            return False
        changed = self.clock.run(self.timed_seat(), self.settings.wall_clock.now())
        if changed:
            self.timed_out = None
        if self.deadlines is not None:
            self.deadlines.set(self.id, self.clock.deadline)
        return changed

    async def _save_clock(self) -> None:
        assert self.clock is not None
        try:
            await self.store.save_clock(self.id, self.clock.stored_json(), self.clock.deadline)
        except Exception:  # noqa: BLE001 - the running clock is in memory; a reload restarts it
            log.exception("match %s: storing its clock failed", self.id)

    async def _clock_moved(self) -> None:
        """After a change of seats: start or stop the clock, tell everyone, store it (lock held)."""
        if self._tick_clock():
            text = dumps({"type": "clock", "seq": self.seq, "clock": self.clock_info()})
            self.broadcast(lambda k: text)
            await self._save_clock()

    def resume_clock(self) -> None:
        """After loading: queue the stored deadline, or set the clock right (a task)."""
        if self.clock is None:
            return
        if self.deadlines is not None:
            self.deadlines.set(self.id, self.clock.deadline)
        if self.clock.seat != self.timed_seat():
            self._clock_task = asyncio.get_running_loop().create_task(self._locked_clock_moved())

    async def _locked_clock_moved(self) -> None:
        async with self.lock:
            await self._clock_moved()

    async def expire_clock(self) -> None:
        """The deadline queue says the running time is out: check it against the
        match's own deadline under the lock, and apply ``on_timeout``."""
        async with self.lock:
            if self.clock is None:
                return
            if not self.clock.expired(self.settings.wall_clock.now()):
                if self.deadlines is not None:
                    self.deadlines.set(self.id, self.clock.deadline)
                return
            await self._run_out()

    async def _run_out(self) -> None:
        """Seat :attr:`MatchClock.seat`'s time is out (lock held): its side loses on
        time, or its AI plays the turn."""
        assert self.clock is not None
        seat = self.clock.seat
        if seat is None or self.finished or self.timed_out == seat:
            return
        if self.clock.options.on_timeout == "lose":
            from cardtable.server.lifecycle import lose_on_time

            lose_on_time(self, seat)
            await self._save_clock()
            return
        self.timed_out = seat
        text = dumps({"type": "timeout", "seq": self.seq, "seat": seat, "on_timeout": "ai"})
        self.broadcast(lambda k: text)
        self.schedule_ai()

    # --- AI seats ------------------------------------------------------------------
    def schedule_ai(self) -> None:
        if self.finished or self.broken:
            return
        cur = self.state.current_player()
        if not self.ai_moves_for(cur):
            return
        if self._ai_task is not None and not self._ai_task.done():
            return
        self._ai_task = asyncio.get_running_loop().create_task(self._run_ai())

    def ai_moves_for(self, seat: int) -> bool:
        """Whether an AI makes ``seat``'s moves now: it plays the seat, or the seat's
        time ran out with ``on_timeout: "ai"`` (:attr:`timed_out`)."""
        return self.seats[seat].row.kind == "ai" or self.timed_out == seat

    def search_job(self, seat: int, agent: str, agent_seed: int) -> SearchJob:
        """The search of ``seat``'s move now, for the worker pool."""
        return SearchJob(game=self.game.name, config_json=json.dumps(self.game.config_dict(), sort_keys=True),
                         seed=self.row.seed, history=tuple(self.state.history), player=seat, agent=agent,
                         agent_seed=(agent_seed * 1_000_003 + self.seq) % 2**31)

    def is_idle(self, now: float, idle_seconds: float) -> bool:
        """Nobody connected, no AI thinking or storing, untouched for ``idle_seconds``."""
        return self.idle_now() and now - self.last_used >= idle_seconds

    def idle_now(self) -> bool:
        """Nobody connected, no AI thinking, storing or clock saving, nothing waiting for the lock."""
        busy = any(t is not None and not t.done() for t in (self._ai_task, self._finish_task, self._clock_task))
        return not busy and not self.lock.locked() and self.connection_count() == 0

    async def _run_ai(self) -> None:
        while True:
            if self.settings.ai_delay > 0:
                await asyncio.sleep(self.settings.ai_delay)
            async with self.lock:
                if self.finished or self.broken:
                    return
                cur = self.state.current_player()
                seat = self.seats[cur]
                if not self.ai_moves_for(cur):
                    return
                agent = seat.row.agent or default_agent(self.game.name)
                job = self.search_job(cur, agent, seat.agent_seed)
            try:
                action: int | None = await self.searches.run(job)
            except Exception:  # noqa: BLE001 - a broken agent must not stop the match
                log.exception("match %s: agent %s failed; playing the first legal move", self.id, agent)
                action = None
            async with self.lock:
                if self.finished or self.broken or tuple(self.state.history) != job.history:
                    continue  # the match moved on meanwhile (say, the seat was reclaimed): look again
                if not self.ai_moves_for(cur):
                    return
                if action is None or self.state.why_illegal(action) is not None:
                    if action is not None:
                        log.error("match %s: agent %s chose illegal action %s; playing the first legal move",
                                  self.id, agent, action)
                    action = self.state.legal_actions()[0]
                seq_before = self.seq
                try:
                    # _commit's schedule_ai() sees this task running and leaves it be.
                    await self._commit(cur, action, None, None)
                except ProtocolError:
                    await asyncio.sleep(0.5)  # storage trouble: try again
                    continue
                if self.seq == seq_before or self.finished:
                    return
                if not self.ai_moves_for(self.state.current_player()):
                    return

    # --- seats -------------------------------------------------------------------
    async def set_ai(self, seat_no: int, agent: str | None, *, by: Key, host: bool,
                     conn: Connection | None = None, req_id: JSON = None, token: str | None = None) -> None:
        """Hand seat ``seat_no`` to an AI: its own player (``by``) may at any time;
        another player, or the host (``by`` None with ``host``), only once the
        seat's player has been gone for the grace time — the host may also fill a
        seat nobody has claimed yet.  ``conn`` gets the ``seats`` answer with ``req_id``;
        the HTTP ``token`` of ``by`` is checked again under the lock (:meth:`check_token`)."""
        if agent is not None and agent not in agent_names(self.game.name):
            raise ProtocolError("bad_agent", f"unknown agent {agent!r}; choose from: "
                                f"{', '.join(agent_names(self.game.name))}")
        async with self.lock:
            self.check_token(by, token)
            if not 0 <= seat_no < self.game.num_players:
                raise ProtocolError("bad_seat", f"seat must be 0..{self.game.num_players - 1}")
            if self.finished:
                raise ProtocolError("match_over", "the match is over: its seats no longer change", status=409)
            seat = self.seats[seat_no]
            if seat.row.kind == "ai":
                raise ProtocolError("seat_is_ai", f"seat {seat_no} is already played by an AI", status=409)
            if by != seat_no:
                if by is None and not host:
                    raise ProtocolError("not_a_player", "spectators cannot hand seats to the AI", status=403)
                if not (host and not seat.row.claimed):
                    self._check_absent(seat)
            seat.row.kind = "ai"
            seat.row.agent = agent or default_agent(self.game.name)
            await self.store.update_seat(self.id, seat.row)
            self._announce_seats(conn, req_id)
            self.schedule_ai()
            await self._clock_moved()

    def _check_absent(self, seat: SeatState) -> None:
        """Refuse to displace a seat's player who is connected, or left less than
        the grace time ago."""
        if seat.connections:
            raise ProtocolError("seat_connected", f"seat {seat.row.seat}'s player is still connected", status=409)
        gone = self.settings.clock.now() - seat.gone_since
        if gone < self.settings.takeover_grace:
            wait = self.settings.takeover_grace - gone
            raise ProtocolError("too_early", f"seat {seat.row.seat}'s player left {gone:.0f} s ago; "
                                f"an AI may take over in {wait:.0f} s", status=409)

    def _announce_seats(self, conn: Connection | None, req_id: JSON) -> None:
        """Send everyone the seats; the asking connection's copy carries ``req_id``."""
        self.announce(self, "seats")
        text = self.seats_message()
        reply = text
        if req_id is not None:
            reply = text[:-1] + ',"id":' + dumps(req_id) + "}"
        for k in self.keys:
            for c in list(self.connections_of(k)):
                c.send(reply if c is conn else text)

    async def reclaim(self, key: Key, conn: Connection | None = None, req_id: JSON = None,
                      token: str | None = None) -> None:
        """The seat's own player takes it back from the AI (an HTTP ``token``
        checked again under the lock)."""
        async with self.lock:
            self.check_token(key, token)
            if key is None:
                raise ProtocolError("not_a_player", "spectators have no seat to reclaim", status=403)
            if self.finished:
                raise ProtocolError("match_over", "the match is over: its seats no longer change", status=409)
            seat = self.seats[key]
            if seat.row.kind != "ai":
                raise ProtocolError("seat_is_human", "you already play this seat", status=409)
            seat.row.kind = "human"
            await self.store.update_seat(self.id, seat.row)
            self._announce_seats(conn, req_id)
            await self._clock_moved()

    async def join(self, seat_no: int | None, name: str | None, user: User | None = None) -> tuple[int, str]:
        """Give a newcomer a free open seat (``seat_no``, or the lowest one free):
        the seat is claimed under ``name`` (bound to a signed-in ``user``) and gets a
        fresh token, which is returned
        with the seat.  Any earlier invite link of that seat stops working, so nobody
        else (the creator included) holds the newcomer's token."""
        async with self.lock:
            if self.broken:
                raise ProtocolError("unavailable", self.broken, status=503)
            if self.finished:
                raise ProtocolError("match_over", "the match is over: no seats to take", status=409)
            opened = self.open_seats()
            if seat_no is None:
                if not opened:
                    raise ProtocolError("invite_only", "the seats of this match are by invitation only",
                                        status=403)
                free = [s for s in self.seats if self.is_open(s)]
                if not free:
                    raise ProtocolError("no_free_seat", "every open seat of this match is taken", status=409)
                seat = free[0]
            else:
                if not 0 <= seat_no < self.game.num_players:
                    raise ProtocolError("bad_seat", f"seat must be 0..{self.game.num_players - 1}")
                seat = self.seats[seat_no]
                if seat_no not in opened:
                    raise ProtocolError("invite_only", f"seat {seat_no} is by invitation only", status=403)
                if not self.is_open(seat):
                    raise ProtocolError("seat_taken", f"seat {seat_no} is already taken", status=409)
            token = await self._claim(seat, name, user)
            self.broadcast(lambda k: self.seats_message())
            self.announce(self, "seats")
            await self._clock_moved()
            return seat.row.seat, token

    # --- hints and replays ----------------------------------------------------------
    async def hint(self, key: Key, agent_name: str | None = None, token: str | None = None) -> dict[str, JSON]:
        """A suggested move for seat ``key`` (its HTTP ``token`` checked again under the lock)."""
        if key is None:
            raise ProtocolError("not_a_player", "spectators get no hints", status=403)
        if not self.row.options.get("hints", False):
            raise ProtocolError("hints_off", "hints are off in this match", status=403)
        name = agent_name or default_agent(self.game.name)
        if name not in agent_names(self.game.name):
            raise ProtocolError("bad_agent", f"unknown agent {name!r}; choose from: "
                                f"{', '.join(agent_names(self.game.name))}")
        async with self.lock:
            self.check_token(key, token)
            if self.finished:
                raise ProtocolError("match_over", "the match is over", status=409)
            if self.state.current_player() != key:
                raise ProtocolError("not_your_turn", "hints are for your own turn", status=409)
            seq = self.seq
            job = self.search_job(key, name, secrets.randbits(31))
            text_of = self.state.clone().action_to_string
        try:
            found = await self.searches.hint(job)
        except PoolBusy as err:
            raise ProtocolError("busy", str(err), status=503) from None
        action = int(found["action"])
        return {"type": "hint", "seq": seq, "action": action, "move": text_of(action), "agent": name,
                "value_label": found["value_label"], "estimates": found["estimates"]}

    def replay_steps(self, key: Key) -> list[dict[str, JSON]]:
        """The match as ``key`` saw it: the first view, then every move with the view after it."""
        state = self.game.new_state(seed=self.row.seed)
        steps: list[dict[str, JSON]] = [{"seq": 0, "view": view_for(state, key)}]
        for line, action in zip(list(self.log), list(self.state.history)):
            state.apply_action(action)
            steps.append({"seq": line.seq, "event": line.for_key(key), "view": view_for(state, key)})
        return steps


class Rooms:
    """The rooms in memory, loaded from the store on first use."""

    def __init__(self, store: Store, settings: Settings, limits: Limits | None = None) -> None:
        self.store = store
        self.settings = settings
        self.limits = limits or Limits(settings)
        self.searches = SearchPool(settings.ai_workers, settings.max_queued_searches)
        self.lobby = LobbyFeed(settings.max_lobby_subscribers)
        """News of listed matches for the lobby pages (``/api/lobby/events``)."""
        self.turns = TurnFeed(settings.max_lobby_subscribers)
        """News of whose turn it is in given matches (``/api/turns/events``)."""
        self.rooms: dict[str, Room] = {}
        self.deadlines = Deadlines(settings.wall_clock, self._expire)
        """The running match clocks of every match, earliest first (:mod:`cardtable.server.clocks`)."""
        self._sweeper: asyncio.Task[None] | None = None
        self.sweeps = 0
        """Idle sweeps done so far (tests wait on it rather than on time)."""
        self._loading: dict[str, asyncio.Lock] = {}
        self.moves_handled = 0
        self.move_seconds: collections.deque[float] = collections.deque(maxlen=20000)
        """How long the latest accepted moves took inside the server: from the
        message being read to every update being queued for sending."""

    def record_move(self, seconds: float) -> None:
        self.moves_handled += 1
        self.move_seconds.append(seconds)

    def move_stats(self) -> dict[str, Any]:
        times = sorted(self.move_seconds)
        if not times:
            return {"moves": self.moves_handled}

        def pct(q: float) -> float:
            return round(1000 * times[min(len(times) - 1, int(q * (len(times) - 1) + 0.5))], 3)

        return {"moves": self.moves_handled, "recent": len(times), "move_ms_p50": pct(0.5),
                "move_ms_p90": pct(0.9), "move_ms_p99": pct(0.99), "move_ms_max": round(1000 * times[-1], 3)}

    async def get(self, match_id: str) -> Room:
        if not is_match_id(match_id):
            raise ProtocolError("no_such_match", "no match has this id", status=404)
        room = self.rooms.get(match_id)
        if room is not None and not room.broken:
            room.last_used = self.settings.clock.now()
            return room
        lock = self._loading.setdefault(match_id, asyncio.Lock())
        async with lock:
            room = self.rooms.get(match_id)
            if room is not None and not room.broken:
                return room
            row = await self.store.load_match(match_id)
            if row is None:
                self._loading.pop(match_id, None)
                raise ProtocolError("no_such_match", "no match has this id", status=404)
            try:
                room = await asyncio.to_thread(Room, row, self.store, self.settings, self.searches)
            except Exception:
                log.exception("match %s cannot be rebuilt from its events", match_id)
                raise ProtocolError("corrupt", "this match cannot be rebuilt from its stored moves",
                                    status=500) from None
            room.announce = self.announce
            room.on_turn = self.publish_turn
            room.deadlines = self.deadlines
            self.rooms[match_id] = room
            self._loading.pop(match_id, None)
            room.resume_clock()
        room.schedule_ai()
        return room

    def is_loading(self, match_id: str) -> bool:
        """Whether :meth:`get` is loading ``match_id`` from the store right now."""
        return match_id in self._loading

    async def create(self, row: MatchRow) -> Room:
        """Store a new match and start it: kept in memory, announced, its AI to move."""
        room = Room(row, self.store, self.settings, self.searches)
        try:
            await self.store.create_match(row)
        except Exception as err:  # noqa: BLE001
            log.exception("creating a match failed")
            raise ProtocolError("storage", f"the match could not be stored ({type(err).__name__})",
                                status=503) from None
        self.add(room)
        room.schedule_ai()
        return room

    def add(self, room: Room) -> None:
        """A new match: kept in memory, and announced to the lobby if it is listed."""
        room.announce = self.announce
        room.on_turn = self.publish_turn
        room.deadlines = self.deadlines
        self.rooms[room.id] = room
        room.resume_clock()
        self.announce(room, "created")

    def announce(self, room: Room, change: str) -> None:
        """Tell the lobby pages of a change to ``room``, if the lobby lists it, and the
        pages of its players of a change of seats (listed or not: "Your matches" shows
        who joined)."""
        if room.row.options.get("listed"):
            self.lobby.publish(room.id, change)
        if change == "seats":
            self.publish_turn(room, "seats")

    def publish_turn(self, room: Room, change: str = "turn") -> None:
        """Tell the pages watching ``room``'s turns (:class:`~cardtable.server.turns.TurnFeed`)
        that it came to a new turn or ended (``change`` ``"turn"``) or that its seats changed
        (``"seats"``)."""
        if self.turns.watched(room.id):
            self.turns.publish(room.id, {"match": room.id, "change": change, "seq": room.seq, "status": room.status(),
                                         "current_player": None if room.finished else room.state.current_player(),
                                         "clock": room.clock_info()})

    def check_hint(self, address: str) -> None:
        """Count a hint asked for by ``address`` (``rate_limited`` past the limit)."""
        try:
            self.limits.check_hint(address)
        except LimitError as err:
            raise ProtocolError(err.code, err.message, status=err.status) from None

    def evict_idle(self) -> list[str]:
        """Forget the idle matches (:meth:`Room.is_idle`); returns their ids."""
        now = self.settings.clock.now()
        gone = [mid for mid, room in self.rooms.items() if room.is_idle(now, self.settings.room_idle_seconds)]
        for mid in gone:
            del self.rooms[mid]
        return gone

    def start(self) -> None:
        """Start looking for idle matches every ``room_sweep_seconds`` (on the running loop)."""
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep())

    async def start_clocks(self) -> None:
        """Queue the stored deadline of every running match clock and start the task
        that wakes at the earliest (a restarted server goes on where it stopped)."""
        self.deadlines.start(await self.store.deadlines())

    async def _expire(self, match_id: str) -> None:
        try:
            room = await self.get(match_id)
        except ProtocolError:
            return  # gone, or cannot be rebuilt (logged by get)
        await room.expire_clock()

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(self.settings.room_sweep_seconds)
            self.evict_idle()
            self.sweeps += 1

    async def close(self) -> None:
        """Stop the sweeper and the worker pool."""
        if self._sweeper is not None:
            self._sweeper.cancel()
        await self.deadlines.stop()
        await asyncio.to_thread(self.searches.shutdown)

    def maybe_evict(self, room: Room) -> None:
        """Forget a finished match nobody is connected to (it reloads on demand)."""
        if room.finished and room.connection_count() == 0 and self.rooms.get(room.id) is room:
            del self.rooms[room.id]
