"""Per-match chat: lines, quick phrases, mutes and the chat's own rate limit.

A match's ``chat`` option says who may talk: ``"seats"`` (the default: the
players talk and only they read it), ``"all"`` (spectators too) or ``"off"``.
A line is free text (:func:`cardtable.server.validate.clean_text`, at most
``Settings.chat_max_chars`` characters) or a quick phrase, sent as its key from
:data:`PHRASES` so that each client shows it in its own language.  The last
:data:`HISTORY` lines are kept, in memory and in the store, and sent in ``state``.  A player mutes
a seat (or all spectators, ``seat`` null) for themself: the server stops sending
that seat's lines to the muter's connections.  See ``docs/server-protocol.md``.

>>> from cardtable.server.limits import ManualClock
>>> chat = MatchChat("all", ManualClock(), rate_per_minute=60.0, burst=2.0, max_chars=20)
>>> line = chat.line_from({"text": "  good   luck "}, seat=0, name="Ann", at=1.5)
>>> chat.keep(line)
>>> line.as_json()
{'seq': 1, 'from': 0, 'name': 'Ann', 'text': 'good luck', 'at': 1.5}
>>> chat.line_from({"phrase": "gg"}, seat=None, name=None, at=2.0).as_json()
{'seq': 2, 'from': None, 'name': None, 'phrase': 'gg', 'at': 2.0}
"""

from __future__ import annotations

import collections
import logging
import time
import weakref
from collections.abc import Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardtable.protocol import JSON
from cardtable.server.errors import ProtocolError
from cardtable.server.limits import Clock, TokenBucket
from cardtable.server.validate import clean_text
from cardtable.server.views import dumps

if TYPE_CHECKING:
    from cardtable.server.room import Connection, Room

MODES = ("seats", "all", "off")
"""Values of a match's ``chat`` option (the first is the default)."""

PHRASES = ("hi", "gl", "gg", "wp", "thanks", "oops", "wait", "bye")
"""Keys of the quick phrases; their texts are in the clients' catalogs (``web/static/i18n.js``)."""

HISTORY = 50
"""Lines of a match's chat kept and sent in ``state``."""

log = logging.getLogger("cardtable.server")

SPECTATORS = "spectators"
"""The mute key of every spectator's lines (``{"type": "mute", "seat": null}``)."""


@dataclass(frozen=True)
class ChatLine:
    """One line of a match's chat: from a seat, or from a spectator (``seat`` None)."""

    seq: int
    seat: int | None
    name: str | None
    text: str | None
    phrase: str | None
    at: float

    def as_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {"seq": self.seq, "from": self.seat, "name": self.name}
        if self.phrase is not None:
            out["phrase"] = self.phrase
        else:
            out["text"] = self.text
        out["at"] = self.at
        return out

    @property
    def mute_key(self) -> int | str:
        return SPECTATORS if self.seat is None else self.seat


def check_mode(value: Any) -> str:
    """The ``chat`` option of a new match (``bad_message`` unless one of :data:`MODES`)."""
    if value is None:
        return MODES[0]
    if not isinstance(value, str) or value not in MODES:
        raise ProtocolError("bad_message", f"'chat' must be one of: {', '.join(MODES)}")
    return value


class MatchChat:
    """The chat of one match: its recent lines, who muted whom, each connection's bucket."""

    def __init__(self, mode: str, clock: Clock, *, rate_per_minute: float, burst: float, max_chars: int) -> None:
        self.mode = mode
        self.clock = clock
        self.rate = rate_per_minute / 60.0
        self.burst = burst
        self.max_chars = max_chars
        self.lines: collections.deque[ChatLine] = collections.deque(maxlen=HISTORY)
        self.seq = 0
        self.mutes: dict[Hashable, set[int | str]] = {}
        """Mute keys (a seat, or :data:`SPECTATORS`) muted by each muter (a seat, or a spectator's connection)."""
        self._buckets: weakref.WeakKeyDictionary[Any, TokenBucket] = weakref.WeakKeyDictionary()

    # --- who may do what --------------------------------------------------------------
    def reads(self, seat: int | None) -> bool:
        """Whether ``seat`` (None: a spectator) gets the chat at all."""
        return self.mode == "all" or (self.mode == "seats" and seat is not None)

    def check_speaker(self, seat: int | None) -> None:
        if self.mode == "off":
            raise ProtocolError("chat_off", "chat is off in this match", status=403)
        if seat is None and self.mode != "all":
            raise ProtocolError("not_a_player", "in this match only the players chat", status=403)

    def take(self, conn: Any) -> None:
        """Count a ``chat`` message of ``conn``, good or bad (``rate_limited`` past the chat's rate)."""
        bucket = self._buckets.get(conn)
        if bucket is None:
            bucket = self._buckets[conn] = TokenBucket(self.rate, self.burst, self.clock)
        if not bucket.take():
            raise ProtocolError("rate_limited", f"chat is limited to {self.rate * 60:g} lines a minute "
                                f"(bursts of {self.burst:g}): wait a moment", status=429)

    # --- lines -----------------------------------------------------------------------
    def line_from(self, data: dict[str, Any], *, seat: int | None, name: str | None, at: float) -> ChatLine:
        """The next line from a ``chat`` message's ``text`` or ``phrase`` (exactly one);
        :meth:`keep` adds it to the history once it is stored."""
        text, phrase = data.get("text"), data.get("phrase")
        if (text is None) == (phrase is None):
            raise ProtocolError("bad_message", "a chat message needs 'text' or 'phrase' (one of them)")
        if phrase is not None and phrase not in PHRASES:
            raise ProtocolError("bad_message", f"'phrase' must be one of: {', '.join(PHRASES)}")
        clean = None if text is None else clean_text(text, self.max_chars)
        return ChatLine(self.seq + 1, seat, name, clean, phrase if isinstance(phrase, str) else None, at)

    def keep(self, line: ChatLine) -> None:
        """Add ``line`` (numbered by :meth:`line_from` or read from the store) to the history."""
        self.seq = max(self.seq, line.seq)
        self.lines.append(line)

    def restore(self, rows: list[dict[str, Any]]) -> None:
        """Keep the lines stored for the match (``MatchRow.chat``, oldest first)."""
        for row in rows:
            self.keep(ChatLine(int(row["seq"]), row["seat"], row["name"], row["text"], row["phrase"],
                               float(row["at"])))

    def history_for(self, muter: Hashable | None, seat: int | None) -> list[dict[str, JSON]]:
        """The kept lines ``seat`` may read, less those ``muter`` muted."""
        if not self.reads(seat):
            return []
        muted = self.mutes.get(muter, set()) if muter is not None else set()
        return [line.as_json() for line in self.lines if line.mute_key not in muted]

    def hears(self, muter: Hashable, line: ChatLine) -> bool:
        return line.mute_key not in self.mutes.get(muter, ())

    # --- mutes -----------------------------------------------------------------------
    def set_mute(self, muter: Hashable, own_seat: int | None, target: Any, num_seats: int, on: bool) -> list[JSON]:
        """Mute (``on``) or unmute ``target`` (a seat, or None for the spectators) for
        ``muter``; returns what ``muter`` has muted now."""
        if target is None:
            key: int | str = SPECTATORS
        elif isinstance(target, int) and not isinstance(target, bool):
            if not 0 <= target < num_seats:
                raise ProtocolError("bad_seat", f"seat must be 0..{num_seats - 1}, or null for the spectators")
            if target == own_seat:
                raise ProtocolError("bad_seat", "you cannot mute yourself")
            key = target
        else:
            raise ProtocolError("bad_message", "'seat' must be a seat number, or null for the spectators")
        muted = self.mutes.setdefault(muter, set())
        if on:
            muted.add(key)
        else:
            muted.discard(key)
        return muted_json(muted)


def muted_json(muted: set[int | str]) -> list[JSON]:
    """Muted keys as sent: the seats in order, then ``null`` for the spectators."""
    seats: list[JSON] = sorted(k for k in muted if isinstance(k, int))
    return seats + ([None] if SPECTATORS in muted else [])


# --- the websocket messages ---------------------------------------------------------
CHAT_TYPES = ("chat", "mute", "unmute")
"""The client message types handled here (:func:`handle`)."""


async def _store(room: Room, line: ChatLine) -> None:
    """Store ``line`` with the match's last :data:`HISTORY` (``storage`` if the database refuses)."""
    row = {"seq": line.seq, "seat": line.seat, "name": line.name, "text": line.text, "phrase": line.phrase,
           "at": line.at}
    try:
        await room.store.append_chat(room.id, row, HISTORY)
    except Exception as err:  # noqa: BLE001 - reported as a typed error
        log.exception("match %s: storing chat line %s failed", room.id, line.seq)
        raise ProtocolError("storage", f"the line could not be stored ({type(err).__name__}); try again",
                            status=503) from None


def _muter(conn: Connection) -> Hashable:
    """Whose mutes apply: a seat's (shared by its connections) or one spectator connection's."""
    return conn if conn.key is None else conn.key


async def handle(room: Room, conn: Connection, data: dict[str, Any], req_id: JSON) -> None:
    """Answer a ``chat``, ``mute`` or ``unmute`` message of ``conn`` in ``room``."""
    chat = room.chat
    key = conn.key
    if data["type"] == "chat":
        chat.check_speaker(key)
        chat.take(conn)
        name = None if key is None else room.seats[key].row.name
        async with room.lock:  # (one line at a time: lines are numbered, stored, then sent)
            line = chat.line_from(data, seat=key, name=name, at=round(time.time(), 3))
            await _store(room, line)
            chat.keep(line)
        text = dumps({"type": "chat", **line.as_json()})
        reply = text if req_id is None else text[:-1] + ',"id":' + dumps(req_id) + "}"
        for k in room.keys:
            if not chat.reads(k):
                continue
            for c in list(room.connections_of(k)):
                if c is conn:
                    c.send(reply)
                elif chat.hears(_muter(c), line):
                    c.send(text)
        return
    if chat.mode == "off":
        raise ProtocolError("chat_off", "chat is off in this match", status=403)
    if "seat" not in data:
        raise ProtocolError("bad_message", f"'{data['type']}' needs 'seat': a seat number, or null for the spectators")
    muted = chat.set_mute(_muter(conn), key, data["seat"], room.game.num_players, data["type"] == "mute")
    answer: dict[str, JSON] = {"type": "muted", "seats": muted}
    if req_id is not None:
        answer["id"] = req_id
    conn.send(dumps(answer))
