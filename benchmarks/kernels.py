"""Play-out speed of the compiled kernels on one core, next to the Python engine and
OpenSpiel's C++ ``crazy_eights`` (through pyspiel), measured in the same run.

Run::

    python benchmarks/kernels.py                 # ~3 s per measurement
    python benchmarks/kernels.py --clock cpu     # CPU time: for a machine shared with other jobs
    python benchmarks/kernels.py --only lost-ranks --clock cpu   # one game's variants

Prints, per variant of every game with a kernel (Lost Cities with 5 and 6 colours,
Ранг with 2, 4 and 8 players, Lost Ranks with 4 and 2 players), random and heuristic play-outs in actions/s (an action
is one player decision, as in ``benchmarks/playouts.py``) with their ratios to the
Python engine doing the same (random moves through the protocol; the game's heuristic
agent on the state) and to OpenSpiel, then the cost of exporting a Lost Cities engine
state to the kernel and the first-call cost: a fresh process compiling into an empty
numba cache, and one loading that cache from disk (``cache=True``).  The targets of
issue #16: random play-outs at least 20 M actions/s for Lost Cities and 10 M for Ранг
and Lost Ranks, heuristic ones at least 2 M.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable

from playouts import CLOCKS, cardtable_runner, measure, openspiel_runner

from cardtable.agents.base import Observation
from cardtable.games.lost_cities.heuristic import policy_action
from cardtable.games.lost_cities import LostCities
from cardtable.kernels import play_many
from cardtable.registry import heuristic_class, kernel_for, load_game

VARIANTS: list[tuple[str, str, dict[str, int]]] = [
    ("Lost Cities (5 colours)", "lost-cities", {}), ("Lost Cities (6 colours)", "lost-cities", {"colors": 6}),
    ("Ранг (2 players)", "rank", {"players": 2}), ("Ранг (4 players)", "rank", {"players": 4}),
    ("Ранг (8 players)", "rank", {"players": 8}), ("Lost Ranks (4 players)", "lost-ranks", {}),
    ("Lost Ranks (2 players)", "lost-ranks", {"players": 2}),
]
TARGETS = {"lost-cities": {"random": 20e6, "heuristic": 2e6}, "rank": {"random": 10e6, "heuristic": 2e6},
           "lost-ranks": {"random": 10e6, "heuristic": 2e6}}
FIRST_CALL = (
    "import time; t = time.perf_counter(); "
    "from cardtable.registry import load_game; from cardtable.kernels import play_many; "
    "play_many(load_game('lost-cities'), 'heuristic', 1, 0); play_many(load_game('lost-cities', colors=6), 'random', 1, 0); "
    "play_many(load_game('rank'), 'heuristic', 1, 0); play_many(load_game('rank', players=8), 'random', 1, 0); "
    "play_many(load_game('lost-ranks'), 'heuristic', 1, 0); "
    "print(time.perf_counter() - t)"
)


def python_heuristic_runner(name: str, options: dict[str, int]) -> Callable[[int], int]:
    """Whole matches of the game's Python heuristic in every seat, on the state
    (Lost Cities: :func:`policy_action`, the ``steady`` style; others: the agent)."""
    game = load_game(name, **options)
    agent_class = heuristic_class(name)
    assert agent_class is not None

    def run(seed: int) -> int:
        state = game.new_state(seed=seed)
        agent = agent_class(game, seed=seed)
        n = 0
        while not state.is_terminal():
            if isinstance(game, LostCities):
                state.apply_action(policy_action(state))
            else:
                state.apply_action(agent.act(Observation.of(state)))
            n += 1
        return n

    return run


def kernel_rate(name: str, options: dict[str, int], policy: str, seconds: float, clock: Callable[[], float]) -> float:
    """Kernel actions per second over batches of matches for about ``seconds``."""
    game = load_game(name, **options)
    play_many(game, policy, 1, 0)  # compiled (or loaded from the cache) before timing
    batch = 2000 if policy == "random" else 200
    actions, seed = 0, 1
    start = clock()
    while clock() - start < seconds:
        actions += int(play_many(game, policy, batch, seed).actions.sum())
        seed += 1
    return actions / (clock() - start)


def export_microseconds(clock: Callable[[], float]) -> float:
    """Microseconds per :func:`cardtable.games.lost_cities.kernel.export` of mid-round states."""
    from cardtable.games.lost_cities.kernel import export

    game = LostCities()
    states = []
    for seed in range(50):
        state = game.new_state(seed=seed)
        for _ in range(40):
            state.apply_action(policy_action(state))
        states.append(state)
    start = clock()
    for _ in range(40):
        for state in states:
            export(state)
    return 1e6 * (clock() - start) / (40 * len(states))


def first_call_seconds(cache_dir: str) -> float:
    """Seconds from import to the end of the first heuristic and random matches in a new
    process whose numba cache is ``cache_dir``."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    out = subprocess.run([sys.executable, "-c", FIRST_CALL], env=env, check=True, capture_output=True, text=True)
    return float(out.stdout.strip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement (default 3)")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall", help="wall (default) or cpu")
    parser.add_argument("--only", choices=sorted(TARGETS),
                        help="measure this game's variants only (no export and first-call costs)")
    args = parser.parse_args()
    clock = CLOCKS[args.clock]
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}, {args.clock} clock")
    spiel = openspiel_runner("crazy_eights")
    spiel_rate = measure(spiel, args.seconds, clock)[0] if spiel else None
    print(f"{'OpenSpiel crazy_eights (C++ via pyspiel)':42s} "
          + (f"{spiel_rate:13,.0f} actions/s" if spiel_rate else "not installed (pip install 'cardtable[bench]')"))
    print(f"\n{'kernel':42s} {'actions/s':>13s} {'target':>12s} {'vs Python':>10s} {'vs OpenSpiel':>13s}")
    for label, name, options in VARIANTS:
        if args.only and name != args.only:
            continue
        python_rates = {
            "random": measure(cardtable_runner(name, options), args.seconds, clock)[0],
            "heuristic": measure(python_heuristic_runner(name, options), args.seconds, clock)[0],
        }
        print(f"{label:42s} Python engine: random {python_rates['random']:,.0f}, "
              f"heuristic {python_rates['heuristic']:,.0f} actions/s")
        for policy in ("random", "heuristic"):
            try:
                kernel_for(name).check(load_game(name, **options), [policy])  # type: ignore[union-attr]
            except ValueError as error:
                print(f"{label + ', ' + policy:42s} {'-':>13s} {'MISS':>12s}   ({error})")
                continue
            rate = kernel_rate(name, options, policy, args.seconds, clock)
            target = TARGETS[name][policy]
            ok = f"{'ok' if rate >= target else 'MISS'} {rate / target:4.2f}x"  # the margin: leave one
            versus = f"{rate / spiel_rate:12.1f}x" if spiel_rate else f"{'-':>13s}"
            print(f"{label + ', ' + policy:42s} {rate:13,.0f} {ok:>12s} {rate / python_rates[policy]:9.1f}x {versus}"
                  f"   (Python engine {python_rates[policy]:,.0f})")
    if args.only:
        return
    print(f"\nstate export (engine state -> match vector, for the search's play-outs): "
          f"{export_microseconds(clock):.1f} µs")
    with tempfile.TemporaryDirectory() as cache:
        cold = first_call_seconds(cache)
        warm = first_call_seconds(cache)
    print(f"first call (import + one match of each policy and game): {cold:.1f} s compiling into an empty cache, "
          f"{warm:.2f} s loading it from disk")


if __name__ == "__main__":
    main()
