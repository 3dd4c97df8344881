"""Match clocks: a time per move or per match for each human seat, the deadlines
stored with the match, and the one task that wakes at the earliest deadline.

A clock is chosen when the match is created (``"clock"`` in the body of
``POST /api/matches``, :meth:`ClockOptions.parse`):

* ``per: "move"`` — each turn of a human seat has ``seconds`` (a turn lasts while
  the same seat stays to move, so a Lost Cities turn is its play and its draw).
  From an hour up it is a *correspondence* match (hours or days per move).
* ``per: "match"`` — each human seat has a bank of ``seconds`` for the whole
  match, spent while it is that seat's turn.
* ``on_timeout`` — ``"ai"``: the seat's AI makes the move(s) of the turn that ran
  out, and the seat's player plays on; ``"lose"``: the seat's side loses the match
  on time (``ending: "timeout"``, rated like a resignation).

A clock runs only while a human seat is to move and every human seat is taken;
AI seats have no clock.  The running clock's deadline is seconds since the epoch
on :attr:`~cardtable.server.room.Settings.wall_clock`, stored with the match
(``matches.clock`` and ``matches.deadline``), so a restarted server finds it.

>>> opts = ClockOptions.parse({"per": "match", "seconds": 300, "on_timeout": "lose"})
>>> clock = MatchClock(opts, 2, None)
>>> clock.run(0, now=1000.0)
True
>>> clock.deadline, clock.remaining(0, 1100.0)
(1300.0, 200.0)
>>> clock.run(1, now=1100.0), clock.banks
(True, [200.0, 300.0])
>>> clock.expired(1400.0), clock.expired(1399.5)
(True, False)
>>> ClockOptions.parse({"per": "move", "seconds": 86400}).correspondence
True
"""

from __future__ import annotations

import asyncio
import heapq
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from cardtable.protocol import JSON
from cardtable.server.errors import ProtocolError
from cardtable.server.limits import Clock

log = logging.getLogger("cardtable.server.clocks")

PER = ("move", "match")
ON_TIMEOUT = ("ai", "lose")
SECONDS = {"move": (5, 14 * 86400), "match": (60, 4 * 3600)}
"""The allowed ``seconds`` of each kind of clock: 5 s to 14 days a move, 1 minute to 4 hours a match."""
CORRESPONDENCE_SECONDS = 3600
"""A per-move time from which a match is played by correspondence (hours or days a move)."""


def _bad(message: str) -> ProtocolError:
    return ProtocolError("bad_clock", message)


@dataclass(frozen=True)
class ClockOptions:
    """The clock a match was created with."""

    per: str
    seconds: int
    on_timeout: str

    @property
    def correspondence(self) -> bool:
        return self.per == "move" and self.seconds >= CORRESPONDENCE_SECONDS

    def as_json(self) -> dict[str, JSON]:
        return {"per": self.per, "seconds": self.seconds, "on_timeout": self.on_timeout}

    @classmethod
    def parse(cls, value: Any) -> ClockOptions | None:
        """The ``clock`` of a create request (``None``/absent: no clock); anything
        else than the documented fields and ranges is ``bad_clock``."""
        if value is None:
            return None
        if not isinstance(value, dict):
            raise _bad("'clock' must be an object such as {\"per\": \"move\", \"seconds\": 30, "
                       "\"on_timeout\": \"ai\"}")
        unknown = sorted(set(value) - {"per", "seconds", "on_timeout"})
        if unknown:
            raise _bad(f"unknown clock field {unknown[0]!r}; known: per, seconds, on_timeout")
        per = value.get("per")
        if per not in PER:
            raise _bad(f"clock 'per' must be one of: {', '.join(PER)}")
        seconds = value.get("seconds")
        low, high = SECONDS[per]
        if not isinstance(seconds, int) or isinstance(seconds, bool) or not low <= seconds <= high:
            raise _bad(f"clock 'seconds' must be a whole number from {low} to {high} for a clock per {per}")
        on_timeout = value.get("on_timeout", "ai")
        if on_timeout not in ON_TIMEOUT:
            raise _bad(f"clock 'on_timeout' must be one of: {', '.join(ON_TIMEOUT)}")
        return cls(per, seconds, on_timeout)

    @classmethod
    def stored(cls, value: Any) -> ClockOptions | None:
        """The options as kept in a match's stored options (already checked)."""
        return None if value is None else cls(str(value["per"]), int(value["seconds"]), str(value["on_timeout"]))


class MatchClock:
    """The clock of one match: whose time runs, until when, and each seat's bank."""

    def __init__(self, options: ClockOptions, num_players: int, stored: dict[str, Any] | None) -> None:
        self.options = options
        self.seat: int | None = None
        """The seat whose time runs (``None``: nobody's)."""
        self.deadline: float | None = None
        """When :attr:`seat`'s time runs out (seconds on the wall clock)."""
        self.banks: list[float] | None = [float(options.seconds)] * num_players if options.per == "match" else None
        """Per match: each seat's time left, as of the start of its running turn."""
        if stored:
            self.seat = stored.get("seat")
            self.deadline = stored.get("deadline")
            banks = stored.get("banks")
            if self.banks is not None and isinstance(banks, list) and len(banks) == num_players:
                self.banks = [float(b) for b in banks]

    def run(self, seat: int | None, now: float) -> bool:
        """Let ``seat``'s time run from ``now`` (``None``: stop every clock); the
        seat whose time ran is charged for it.  A seat that stays to move keeps its
        deadline.  Returns whether anything changed."""
        if seat == self.seat and (seat is None or self.deadline is not None):
            return False
        if self.seat is not None and self.deadline is not None and self.banks is not None:
            self.banks[self.seat] = max(0.0, self.deadline - now)
        self.seat = seat
        if seat is None:
            self.deadline = None
        else:
            self.deadline = now + (self.banks[seat] if self.banks is not None else float(self.options.seconds))
        return True

    def forget_running(self) -> None:
        """Drop the running deadline without charging anyone (a stored clock that no
        longer matches the match's seat to move: the store missed a change)."""
        self.seat = None
        self.deadline = None

    def expired(self, now: float) -> bool:
        """Whether the running time is out: a move at the deadline itself is late."""
        return self.deadline is not None and now >= self.deadline

    def remaining(self, seat: int, now: float) -> float:
        if seat == self.seat and self.deadline is not None:
            return max(0.0, self.deadline - now)
        return self.banks[seat] if self.banks is not None else float(self.options.seconds)

    def stored_json(self) -> dict[str, Any]:
        """What the store keeps (``matches.clock``)."""
        return {"seat": self.seat, "deadline": self.deadline, "banks": self.banks}

    def info(self, now: float, timed: list[bool]) -> dict[str, JSON]:
        """The clock as every seat and spectator sees it (public): the options, the
        running seat and deadline, and each seat's time left (``None`` for the seats
        with no clock, ``timed`` False: AI seats)."""
        remaining: list[JSON] = [round(self.remaining(s, now), 3) if on else None for s, on in enumerate(timed)]
        return {**self.options.as_json(), "correspondence": self.options.correspondence, "seat": self.seat,
                "deadline": self.deadline, "remaining": remaining, "now": now}


class Deadlines:
    """The earliest-deadline-first queue of the running clocks of every match (loaded
    or not), and the one task that wakes when the earliest is due and hands the
    match to ``expire``.  Tests on a :class:`~cardtable.server.limits.ManualClock`
    advance it and call :meth:`wake_threadsafe`; :attr:`handled` counts expiries."""

    def __init__(self, clock: Clock, expire: Callable[[str], Awaitable[None]], max_nap: float = 60.0) -> None:
        self.clock = clock
        self.expire = expire
        self.max_nap = max_nap
        """Longest real sleep (s) between looks, so a wall clock that jumps is noticed."""
        self._heap: list[tuple[float, str]] = []
        self._due: dict[str, float] = {}
        self._wake = asyncio.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[None] | None = None
        self.handled = 0

    def set(self, match_id: str, deadline: float | None) -> None:
        """The running deadline of ``match_id`` is now ``deadline`` (``None``: none)."""
        if deadline is None:
            self._due.pop(match_id, None)
            return
        if self._due.get(match_id) == deadline:
            return
        self._due[match_id] = deadline
        if len(self._heap) > 2 * len(self._due) + 64:
            self._heap = [(d, m) for m, d in self._due.items()]
            heapq.heapify(self._heap)
        else:
            heapq.heappush(self._heap, (deadline, match_id))
        if self._heap[0] == (deadline, match_id):
            self._wake.set()

    def pending(self) -> dict[str, float]:
        return dict(self._due)

    def wake_threadsafe(self) -> None:
        """Look at the deadlines now (from any thread: a test that moved the clock)."""
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._wake.set)

    def start(self, stored: list[tuple[str, float]]) -> None:
        """Queue the ``stored`` deadlines and start waking (on the running loop)."""
        for match_id, deadline in stored:
            self.set(match_id, deadline)
        self._loop = asyncio.get_running_loop()
        self._task = self._loop.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass

    def _take_due(self, now: float) -> list[str]:
        due: list[str] = []
        while self._heap and self._heap[0][0] <= now:
            deadline, match_id = heapq.heappop(self._heap)
            if self._due.get(match_id) == deadline:
                del self._due[match_id]
                due.append(match_id)
        return due

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            for match_id in self._take_due(self.clock.now()):
                try:
                    await self.expire(match_id)
                except Exception:  # noqa: BLE001 - one match's trouble must not stop the clocks
                    log.exception("match %s: handling its clock running out failed", match_id)
                self.handled += 1
            nap = self.max_nap
            if self._heap:
                nap = min(nap, max(0.0, self._heap[0][0] - self.clock.now()))
            try:
                await asyncio.wait_for(self._wake.wait(), nap)
            except asyncio.TimeoutError:
                pass
