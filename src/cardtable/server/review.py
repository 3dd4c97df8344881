"""The review of a finished match: its steps with every hand revealed
(``GET /api/matches/{id}/review``) and the move analysis of a seat
(``GET /api/matches/{id}/analysis?seat=N``).

The hands are revealed only once the match is over (before that the review is
refused with ``not_finished``, as records and analyses are): while a match is
played each seat sees its own hand only (each game's "Information" ruling).

An analysis (:func:`cardtable.agents.analysis.analyse`) is CPU-bound and long (a
search per decision), so it runs in the server's worker pool like a hint — refused
with ``busy`` when too many hints and analyses wait — and is kept in memory per
match and seat: asking again, or asking while it runs, costs nothing more.  The
searches are seeded by the match id, so the same match gets the same analysis.
"""

from __future__ import annotations

import asyncio
import collections
import json
import zlib
from typing import Any, Final

from cardtable import records
from cardtable.protocol import JSON, State
from cardtable.server.errors import ProtocolError
from cardtable.server.room import Room
from cardtable.server.views import Key, dumps, view_for
from cardtable.server.workers import AnalysisJob, PoolBusy, SearchPool

ANALYSIS_ITERATIONS: Final = 200
"""Search budget per decision of a server analysis."""
CACHED_ANALYSES: Final = 256
"""Analyses kept in memory (the least recently asked for are forgotten first)."""


class Analyses:
    """Analyses per ``(match, seat)``: finished ones cached, running ones shared."""

    def __init__(self, pool: SearchPool, *, iterations: int = ANALYSIS_ITERATIONS,
                 capacity: int = CACHED_ANALYSES) -> None:
        self.pool = pool
        self.iterations = iterations
        self.capacity = capacity
        self.done: collections.OrderedDict[tuple[str, int], dict[str, Any]] = collections.OrderedDict()
        self.running: dict[tuple[str, int], asyncio.Task[dict[str, Any]]] = {}
        self.started = 0
        """Analyses run so far (not served from the cache: tests count them)."""

    async def get(self, room: Room, seat: object) -> dict[str, Any]:
        """The analysis of ``seat`` in the finished match of ``room``."""
        check_finished(room, "a match is analysed")
        n = room.state.game.num_players
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
            raise ProtocolError("bad_message", f"'seat' must be a seat number 0..{n - 1}")
        key = (room.id, seat)
        if key in self.done:
            self.done.move_to_end(key)
            return self.done[key]
        task = self.running.get(key)
        if task is None:
            task = self.running[key] = asyncio.ensure_future(self._run(room, seat))
            task.add_done_callback(lambda _: self.running.pop(key, None))
        try:
            return await asyncio.shield(task)
        except PoolBusy as err:
            raise ProtocolError("busy", str(err), status=503) from None

    async def _run(self, room: Room, seat: int) -> dict[str, Any]:
        record = records.record_of(room.state, players=[s.row.name for s in room.seats])
        job = AnalysisJob(json.dumps(record), seat, self.iterations, zlib.crc32(room.id.encode()))
        self.started += 1
        result = await self.pool.analyse(job)
        self.done[(room.id, seat)] = result
        while len(self.done) > self.capacity:
            self.done.popitem(last=False)
        return result


def check_finished(room: Room, what: str) -> None:
    """Refuse (409 ``not_finished``) ``what`` of a match still being played."""
    if not room.finished:
        raise ProtocolError("not_finished", f"{what} once the match is over", status=409)


def revealed(state: State) -> dict[str, JSON]:
    """What every seat holds unseen by the others at ``state``: ``hands`` (seat by
    seat) and, in a game with phantom decks, each seat's own ``phantoms`` row."""
    views = [state.view(seat) for seat in range(state.game.num_players)]
    out: dict[str, JSON] = {"hands": [v.get("hand") or [] for v in views]}
    if all(isinstance(v.get("phantoms"), list) for v in views):
        out["phantoms"] = [v["phantoms"][seat] for seat, v in enumerate(views)]
    return out


def review_steps(room: Room, key: Key) -> list[dict[str, JSON]]:
    """The finished match step by step: the deal, then every move, each step with the
    view of ``key`` (a seat, or ``None``: the public view) and every hand revealed."""
    check_finished(room, "the hands are revealed")
    state = room.game.new_state(seed=room.row.seed)
    steps: list[dict[str, JSON]] = [{"seq": 0, "view": view_for(state, key), **revealed(state)}]
    for line, action in zip(list(room.log), list(room.state.history)):
        state.apply_action(action)
        steps.append({"seq": line.seq, "event": line.for_key(key), "view": view_for(state, key), **revealed(state)})
    return steps


async def review_message(room: Room, key: Key) -> str:
    """The ``review`` message of a finished match for ``key`` (see :func:`review_steps`)."""
    check_finished(room, "the hands are revealed")
    steps = await asyncio.to_thread(review_steps, room, key)
    msg: dict[str, JSON] = {"type": "review", "match": room.id, "seq": room.seq, "you": key,
                            "status": room.status(), "result": room.result_for(key), "steps": steps}
    return dumps(msg)
