"""Where a Lost Cities search decision's time goes: worlds, play-outs and the parts of a decision.

Collects ``--points`` decision points from ``bold`` self-play (5 colours, 3 rounds; a
point where the seat to move has a choice, with chance 0.08, as the Decision times script
of docs/strength.md does), then

1. searches each with a CPU-time budget (``--budgets``, seconds of the thread's CPU time:
   ``medium`` is 0.1, ``hard`` 0.7) and prints per decision the worlds sampled, the
   play-outs, the play-out moves and the CPU time (some decisions end early, when only
   the heuristic's move is left);
2. searches them again at the first budget with timers around the parts — sampling a
   world (``sample_world``: the engine's ``resample`` and the drawn opponent), the
   export of a world to the kernel's vector, the kernel calls (with their argument
   set-up) — and prints each part's share of the decision's CPU time; the rest is the
   search's own Python bookkeeping (root moves, paired statistics, clock).  The timers
   cost a little themselves (two clock reads a call), charged to the parts.

``--one-by-one`` plays each root move's play-out in its own kernel call (the search
before ``kernel_playouts``), for a before/after comparison in the same session::

    PYTHONPATH=src python benchmarks/lost_cities_search_profile.py
    PYTHONPATH=src python benchmarks/lost_cities_search_profile.py --one-by-one
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable
from typing import Any

from cardtable.agents import Observation
from cardtable.agents.search import SearchParams, search
from cardtable.games.lost_cities import LostCities, LostCitiesState
from cardtable.games.lost_cities.heuristic import STYLES, policy_action
from cardtable.games.lost_cities.knowledge import LostCitiesKnowledge


def decision_points(game: LostCities, count: int) -> list[LostCitiesState]:
    """``count`` states of ``bold`` self-play where the seat to move has a choice."""
    points: list[LostCitiesState] = []
    rng = random.Random(1)
    seed = 0
    while len(points) < count:
        state = game.new_state(seed=seed)
        seed += 1
        while not state.is_terminal():
            legal = state.legal_actions()
            if len(legal) > 1 and rng.random() < 0.08:
                points.append(state.clone())
            state.apply_action(policy_action(state, STYLES["bold"]) if len(legal) > 1 else legal[0])
    return points[:count]


class Timers:
    """CPU seconds and calls per part, and wrappers that add to them."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self.calls: dict[str, int] = {}

    def wrap(self, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        clock = time.thread_time

        def timed(*args: Any, **kwargs: Any) -> Any:
            start = clock()
            try:
                return function(*args, **kwargs)
            finally:
                self.seconds[name] = self.seconds.get(name, 0.0) + clock() - start
                self.calls[name] = self.calls.get(name, 0) + 1

        return timed


class TimedKernel:
    """The kernel module with timers around the calls the search makes."""

    def __init__(self, kernel: Any, timers: Timers) -> None:
        self._kernel = kernel
        self.export = timers.wrap("export", kernel.export)
        self.heuristic_round = timers.wrap("kernel", kernel.heuristic_round)
        self.heuristic_rounds = timers.wrap("kernel", kernel.heuristic_rounds)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._kernel, name)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--points", type=int, default=30, help="decision points")
    parser.add_argument("--budgets", default="0.1,0.7", help="CPU seconds a decision, comma-separated")
    parser.add_argument("--one-by-one", action="store_true", help="one kernel call per root move's play-out")
    args = parser.parse_args(argv)
    budgets = [float(b) for b in args.budgets.split(",")]
    game = LostCities()
    points = decision_points(game, args.points)
    knowledge = LostCitiesKnowledge(game)
    if knowledge.kernel is None:
        raise SystemExit("the search's kernel is not available: pip install 'cardtable[fast]'")
    if args.one_by_one:
        knowledge.kernel_playouts = None  # type: ignore[assignment,method-assign]  # the search reads it with getattr
    search(Observation.of(points[0]), SearchParams(iterations=50), 0, knowledge)  # loads the compiled code
    label = "one by one" if args.one_by_one else "one kernel call a world"
    for budget in budgets:
        worlds = playouts = moves = 0
        seconds = 0.0
        for i, state in enumerate(points):
            stats = search(Observation.of(state), SearchParams(seconds=budget, cpu=True), i, knowledge)
            worlds += stats.iterations
            playouts += sum(stats.visits.values())
            moves += stats.playout_moves
            seconds += stats.seconds
        n = len(points)
        print(f"{label}, budget {budget} CPU s: a decision {worlds / n:.0f} worlds, {playouts / n:.0f} play-outs, "
              f"{moves / n:.0f} play-out moves, {1000 * seconds / n:.1f} ms CPU; load {os.getloadavg()[0]:.2f}")
    timers = Timers()
    knowledge.sample_world = timers.wrap("sample world", knowledge.sample_world)  # type: ignore[method-assign]
    knowledge.__dict__["_kernel_module"] = TimedKernel(knowledge.kernel, timers)
    total = 0.0
    worlds = playouts = 0
    for i, state in enumerate(points):
        stats = search(Observation.of(state), SearchParams(seconds=budgets[0], cpu=True), i, knowledge)
        total += stats.seconds
        worlds += stats.iterations
        playouts += sum(stats.visits.values())
    parts = ", ".join(f"{name} {100 * s / total:.0f} % ({1e6 * s / timers.calls[name]:.1f} µs a call, "
                      f"{timers.calls[name] / len(points):.0f} calls)" for name, s in timers.seconds.items())
    rest = total - sum(timers.seconds.values())
    print(f"{label}, budget {budgets[0]} CPU s, timed ({worlds / len(points):.0f} worlds, "
          f"{playouts / len(points):.0f} play-outs a decision): {parts}; the rest (the search's bookkeeping) "
          f"{100 * rest / total:.0f} % ({1e6 * rest / max(1, worlds):.1f} µs a world); load {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
