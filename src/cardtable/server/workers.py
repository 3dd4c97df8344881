"""AI moves and hints searched off the event loop, in a bounded pool of worker
processes (a search is CPU-bound: in a thread it would hold the GIL and slow
every human match down).

A job carries what a worker needs to rebuild the search from scratch: the game
and its configuration, the match seed and the moves so far (the state is
replayed, so the agent sees exactly what it would see in the server), the seat,
the agent spec and the agent's seed.  The same job always gives the same move
for a deterministic agent.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import json
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from cardtable.agents import Observation, make_agent
from cardtable.protocol import Game
from cardtable.registry import load_game


class PoolBusy(Exception):
    """Every worker is taken and the queue is full: a hint is refused, not queued."""


@dataclass(frozen=True)
class SearchJob:
    """One decision to search: the seat ``player`` to move after ``history``."""

    game: str
    config_json: str
    seed: int
    history: tuple[int, ...]
    player: int
    agent: str
    agent_seed: int


HINT_ITERATIONS: Final = 300
"""Search budget of the win chances a hint shows beside its move."""


@functools.lru_cache(maxsize=16)
def _game(name: str, config_json: str) -> Game:
    return load_game(name, **json.loads(config_json))


def _observation(job: SearchJob) -> Observation:
    """What the job's seat sees after the job's moves (the state replayed from the seed)."""
    state = _game(job.game, job.config_json).new_state(seed=job.seed)
    for action in job.history:
        state.apply_action(action)
    return Observation.of(state, job.player)


def run_search(job: SearchJob) -> int:
    """The action the job's agent chooses (runs in a worker process)."""
    obs = _observation(job)
    return make_agent(job.agent, obs.game, seed=job.agent_seed).act(obs)


def run_hint(job: SearchJob) -> dict[str, Any]:
    """A hint (runs in a worker process): the job's agent's move, and the estimated win
    chance of every legal move from a search of :data:`HINT_ITERATIONS` play-outs seeded
    by the job (the seat's observation only, as in :mod:`cardtable.agents.analysis`).
    With one legal move there is nothing to estimate: ``estimates`` is empty."""
    from cardtable.agents.analysis import estimate_moves
    from cardtable.agents.knowledge import knowledge_for

    obs = _observation(job)
    action = make_agent(job.agent, obs.game, seed=job.agent_seed).act(obs)
    estimates = [] if len(obs.legal_actions) < 2 else estimate_moves(obs, HINT_ITERATIONS, job.agent_seed)[1]
    return {"action": action, "value_label": knowledge_for(obs.game).value_label(),
            "estimates": [{"move": m.move, "action": m.action, "win": round(m.win, 4), "visits": m.visits}
                          for m in estimates]}


@dataclass(frozen=True)
class AnalysisJob:
    """The move analysis of ``seat`` in a finished match, given by its record."""

    record_json: str
    seat: int
    iterations: int
    seed: int


def run_analysis(job: AnalysisJob) -> dict[str, Any]:
    """The analysis as a JSON-ready dict (runs in a worker process)."""
    from cardtable import records
    from cardtable.agents.analysis import analyse

    return analyse(records.loads(job.record_json), job.seat, iterations=job.iterations, seed=job.seed).as_dict()


def default_workers() -> int:
    """One worker per core but one (the event loop keeps a core), at least one."""
    return max(1, (os.cpu_count() or 1) - 1)


SERVER_CHECK_SECONDS: Final = 1.0
"""How often a worker looks whether its server still runs (:func:`watch_server`)."""


def watch_server(server_pid: int) -> None:
    """Each worker's initializer: a daemon thread that ends the worker once the server
    process ``server_pid`` is gone.  A server killed outright (SIGKILL, the kernel's
    out-of-memory killer) cannot shut its pool down, and its workers — children of the
    forkserver, not of the server, waiting on a task queue whose pipe they hold both
    ends of — would wait for ever, keeping the forkserver and the resource tracker
    alive with them."""
    def watch() -> None:
        while process_alive(server_pid):
            time.sleep(SERVER_CHECK_SECONDS)
        os.kill(os.getpid(), getattr(signal, "SIGKILL", signal.SIGTERM))  # nothing of a worker's to save

    threading.Thread(target=watch, name="server-watch", daemon=True).start()


def process_alive(pid: int) -> bool:
    """Whether process ``pid`` runs (on Linux a zombie, dead but not yet reaped, does not)."""
    if os.path.isdir("/proc/self"):
        try:
            with open(f"/proc/{pid}/stat") as f:
                return f.read().rsplit(")", 1)[1].split()[0] != "Z"
        except FileNotFoundError:
            return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, another user's
        return True
    return True


def _context() -> multiprocessing.context.BaseContext:
    method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    return multiprocessing.get_context(method)


class SearchPool:
    """Runs :class:`SearchJob`\\ s: in ``workers`` processes, or in a thread when
    ``workers`` is 0.

    Hints and AI moves are counted apart (:attr:`hints`, :attr:`moves`: searches
    running or waiting).  A hint is refused (:class:`PoolBusy`) when ``max_queued``
    hints are already running or waiting (a move analysis counts as a hint); AI
    moves always wait their turn and do not count against hints, so many AI-only
    matches never make a hint busy."""

    def __init__(self, workers: int, max_queued: int) -> None:
        self.workers = workers
        self.max_queued = max_queued
        self.hints = 0
        """Hints running or waiting."""
        self.moves = 0
        """AI moves running or waiting."""
        self._executor: concurrent.futures.ProcessPoolExecutor | None = None
        if workers > 0:
            self._executor = concurrent.futures.ProcessPoolExecutor(
                max_workers=workers, mp_context=_context(), initializer=watch_server, initargs=(os.getpid(),))

    @property
    def pending(self) -> int:
        """Searches running or waiting, of both kinds."""
        return self.hints + self.moves

    async def run(self, job: SearchJob, *, refusable: bool = False) -> int:
        """The job's action; ``refusable`` marks a hint (refused when too many wait)."""
        return int(await self._submit(run_search, job, refusable))

    async def hint(self, job: SearchJob) -> dict[str, Any]:
        """The job's hint with win chances (:func:`run_hint`); refused when too many wait."""
        result: dict[str, Any] = await self._submit(run_hint, job, True)
        return result

    async def analyse(self, job: AnalysisJob) -> dict[str, Any]:
        """The job's move analysis; refused like a hint when too many wait."""
        result: dict[str, Any] = await self._submit(run_analysis, job, True)
        return result

    async def _submit(self, work: Callable[[Any], Any], job: Any, refusable: bool) -> Any:
        if refusable and self.hints >= self.max_queued:
            raise PoolBusy(f"the server is busy with {self.hints} hints; ask again in a moment")
        if refusable:
            self.hints += 1
        else:
            self.moves += 1
        try:
            if self._executor is None:
                return await asyncio.to_thread(work, job)
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._executor, work, job)
        finally:
            if refusable:
                self.hints -= 1
            else:
                self.moves -= 1

    def shutdown(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None
