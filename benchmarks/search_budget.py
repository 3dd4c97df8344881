"""What `hard` does with its 0.7 s: worlds, iterations and play-out moves per decision, kernel off and on.

For every game (Lost Cities 5 and 6 colours, Lost Ranks 4 and 2 players, Ранг 4
players) the same fixed decision points — taken from seeded heuristic self-play, as in
docs/strength.md "Decision times" (a position with a choice is kept with chance 0.08) —
are searched by `hard` (0.7 s) twice in the same run: with ``kernel=False`` (the
play-outs in the Python engine) and with ``kernel=True`` (the play-outs in the game's
compiled kernel, ``pip install 'cardtable[fast]'``).  Per decision: the search's
iterations (the tree's iterations, or the flat search's worlds), the play-out moves
(``RootStats.playout_moves``), the wall-clock and CPU time of ``act``; and the CPU
cost of the kernel's ``export`` of a sampled world (state → arrays).  Printed: mean,
median and min of each, the ratio kernel/Python of the means and of the per-decision
ratios' median, p95 of the decision times, and the load average before and after each
game (the budget is wall-clock: a loaded machine costs play-outs, so compare the two
columns of one run).  Lost Cities' flat search stops early once only the heuristic's
move is left (``race_z``): its decisions that used the whole budget with the kernel are
reported again on their own.  Decisions the agent did not search (one legal move, or
:meth:`~cardtable.agents.knowledge.Knowledge.worth_searching` false) are left out::

    PYTHONPATH=src python benchmarks/search_budget.py               # about 5 minutes
    PYTHONPATH=src python benchmarks/search_budget.py --points 10 --only lost-ranks
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

from cardtable.agents import Observation, make_agent
from cardtable.agents.search import HardAgent
from cardtable.protocol import Game, State
from cardtable.registry import kernel_for, load_game

CASES: list[tuple[str, dict[str, int]]] = [
    ("lost-cities", {}), ("lost-cities", {"colors": 6}), ("lost-ranks", {}), ("lost-ranks", {"players": 2}),
    ("rank", {"players": 4}),
]
SECONDS = 0.7
"""`hard`'s budget."""
FULL_BUDGET = 0.95
"""A search that ran this share of its budget used the whole of it (it did not stop early)."""


@dataclass
class Decision:
    """One searched decision: the search's work and the time ``act`` took."""

    iterations: int
    playout_moves: int
    wall: float
    cpu: float
    searched_for: float


def decision_points(game: Game, count: int) -> list[State]:
    """``count`` positions with a choice from seeded heuristic self-play (docs/strength.md)."""
    points: list[State] = []
    seed = 0
    while len(points) < count:
        state = game.new_state(seed=seed)
        seed += 1
        rng = random.Random(seed)
        bots = [make_agent("heuristic", game, seed=i) for i in range(game.num_players)]
        while not state.is_terminal() and len(points) < count:
            p = state.current_player()
            legal = state.legal_actions()
            if len(legal) > 1 and rng.random() < 0.08:
                points.append(state.clone())
            state.apply_action(bots[p].act(Observation.of(state, p)) if len(legal) > 1 else legal[0])
    return points


def decide(agent: HardAgent, state: State) -> Decision | None:
    """``agent``'s decision at ``state``, or ``None`` when it did not search."""
    agent.last = None
    wall, cpu = time.perf_counter(), time.process_time()
    agent.act(Observation.of(state))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    stats = agent.last
    if stats is None or not stats.iterations:
        return None
    return Decision(stats.iterations, stats.playout_moves, wall, cpu, stats.seconds)


def summary(values: list[float]) -> str:
    return f"mean {statistics.fmean(values):10.0f}  median {statistics.median(values):10.0f}  min {min(values):10.0f}"


def p95(values: list[float]) -> float:
    return sorted(values)[max(0, round(0.95 * len(values)) - 1)]


def report(label: str, pairs: list[tuple[Decision, Decision]]) -> None:
    """Print the Python/kernel comparison of the decisions ``pairs``."""
    print(f"  {label}: {len(pairs)} decisions")
    for i, engine in enumerate(("python", "kernel")):
        runs = [pair[i] for pair in pairs]
        print(f"    {engine}  iterations   {summary([r.iterations for r in runs])}")
        print(f"    {engine}  play-out mv  {summary([r.playout_moves for r in runs])}")
        print(f"    {engine}  act wall p95 {1000 * p95([r.wall for r in runs]):6.0f} ms   cpu p95 "
              f"{1000 * p95([r.cpu for r in runs]):6.0f} ms   max wall {1000 * max(r.wall for r in runs):6.0f} ms")
    measures: tuple[tuple[str, Callable[[Decision], int]], ...] = (
        ("iterations", lambda d: d.iterations), ("play-out moves", lambda d: d.playout_moves))
    for name, get in measures:
        ratio = statistics.fmean(get(k) for _, k in pairs) / max(1e-9, statistics.fmean(get(p) for p, _ in pairs))
        each = [get(k) / max(1, get(p)) for p, k in pairs]
        print(f"    ratio kernel/python {name:15s}: of the means {ratio:6.1f}x, median of the decisions "
              f"{statistics.median(each):6.1f}x, min {min(each):6.1f}x")


def export_cost(game: Game, states: list[State]) -> float:
    """CPU µs of the kernel's ``export`` of a world sampled at each decision point."""
    kernel = kernel_for(game.name)
    assert kernel is not None, f"{game.name} has no kernel"
    rng = random.Random(0)
    worlds = [Observation.of(state).sample_state(rng) for state in states]
    repeats = 200
    start = time.process_time()
    for _ in range(repeats):
        for world in worlds:
            kernel.export(world)
    return 1e6 * (time.process_time() - start) / (repeats * len(worlds))


def run_case(name: str, options: dict[str, int], points: int) -> None:
    game = load_game(name, **options)
    label = name + "".join(f" {k}={v}" for k, v in options.items())
    states = decision_points(game, points)
    agents = [HardAgent(game, seed=1, kernel=False), HardAgent(game, seed=1, kernel=True)]
    agents[1].act(Observation.of(states[0]))  # the kernel's first call (numba's cache) is not timed
    print(f"{label}: {len(states)} decision points, load average before {os.getloadavg()[0]:.2f}; "
          f"export of a sampled world {export_cost(game, states):.1f} µs (CPU)")
    pairs: list[tuple[Decision, Decision]] = []
    for state in states:
        python, kernel = (decide(agent, state) for agent in agents)
        if python is not None and kernel is not None:
            pairs.append((python, kernel))
    if not pairs:
        print("  no decision was searched")
        return
    report("every searched decision", pairs)
    full = [pair for pair in pairs if pair[1].searched_for >= FULL_BUDGET * SECONDS]
    if len(full) < len(pairs):
        report(f"the kernel searches that used the whole budget (>= {FULL_BUDGET:.0%} of {SECONDS} s)", full) \
            if full else print("  no kernel search used the whole budget")
    print(f"  load average after {os.getloadavg()[0]:.2f}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--points", type=int, default=30, help="decision points per game")
    parser.add_argument("--only", choices=sorted({c[0] for c in CASES}), help="measure only this game")
    args = parser.parse_args(argv)
    if args.points < 1:
        parser.error("--points must be at least 1")
    for name, options in CASES:
        if args.only is None or name == args.only:
            run_case(name, options, args.points)


if __name__ == "__main__":
    main()
