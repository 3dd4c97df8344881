"""Random-playout speed of every game through the public protocol, on one core,
next to the peers named in the issues (measured in the same run):

* OpenSpiel's C++ ``crazy_eights`` driven through its Python API (``pip install open_spiel``);
* RLCard's UNO (``pip install rlcard``).

Run::

    python benchmarks/playouts.py            # ~3 s per measurement
    python benchmarks/playouts.py --seconds 10 --only lost-cities
    python benchmarks/playouts.py --clock cpu      # CPU time: for a machine shared with other jobs

An action is one ``apply_action`` of a player decision (our deals happen inside
``apply_action``; OpenSpiel's chance deals are applied but not counted).

Lost Ranks: in Command of Two (2 players) ``draw two`` and the choice of the drawn card
are two actions.  Per action, the time goes to ``apply_action`` and ``legal_actions``
(their fast paths: ``LostRanksState`` in ``games/lost_ranks/rules.py``) and, once per round,
to the deal: seeding ``random.Random`` from the round's string seed and the shuffle take
12-15% of the instructions and are fixed by the deals' reproducibility.  On a busy machine,
compare versions by CPU time or instruction counts (``valgrind --tool=cachegrind``),
not by this script's wall-clock rates.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable

from cardtable.registry import load_game

TARGET = 300_000

VARIANTS: list[tuple[str, str, dict[str, object]]] = [
    ("lost-cities", "Lost Cities (5 colours)", {}),
    ("lost-cities", "Lost Cities (6 colours)", {"colors": 6}),
    ("lost-ranks", "Lost Ranks (4 players)", {"players": 4}),
    ("lost-ranks", "Lost Ranks (2 players)", {"players": 2}),
    ("rank", "Ранг (4 players)", {"players": 4}),
    ("rank", "Ранг (8 players)", {"players": 8}),
]


CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}


def measure(run_one: Callable[[int], int], seconds: float, clock: Callable[[], float] = time.perf_counter) -> tuple[float, int]:
    """Actions per second of repeated ``run_one(seed) -> actions`` for about ``seconds``
    of ``clock`` (wall clock by default; CPU time of this process on a busy machine)."""
    run_one(0)  # warm-up
    actions = games = 0
    start = clock()
    while clock() - start < seconds:
        actions += run_one(games + 1)
        games += 1
    return actions / (clock() - start), games


def cardtable_runner(game_name: str, options: dict[str, object]) -> Callable[[int], int]:
    game = load_game(game_name, **options)

    def run(seed: int) -> int:
        rng = random.Random(seed)
        choice = rng.choice
        state = game.new_state(seed=seed)
        legal_actions, apply_action, is_terminal = state.legal_actions, state.apply_action, state.is_terminal
        n = 0
        while not is_terminal():
            apply_action(choice(legal_actions()))
            n += 1
        return n

    return run


def openspiel_runner(name: str) -> Callable[[int], int] | None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game(name)

    def run(seed: int) -> int:
        rng = random.Random(seed)
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                n += 1
        return n

    return run


def rlcard_uno_runner() -> Callable[[int], int] | None:
    try:
        import rlcard  # type: ignore[import-untyped]
    except ImportError:
        return None
    env = rlcard.make("uno", config={"seed": 0})

    def run(seed: int) -> int:
        rng = random.Random(seed)
        state, _ = env.reset()
        n = 0
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"])))
            n += 1
        return n

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement (default 3)")
    parser.add_argument("--only", help="measure only this game (lost-cities, lost-ranks, rank)")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                        help="wall (default; the target's clock, on a quiet machine) or cpu (this process's CPU "
                             "time: steadier when other jobs share the core)")
    args = parser.parse_args()
    clock = CLOCKS[args.clock]
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core

    peers: dict[str, float] = {}
    for label, runner in (("OpenSpiel crazy_eights (C++ via pyspiel)", openspiel_runner("crazy_eights")),
                          ("RLCard UNO (Python)", rlcard_uno_runner())):
        if runner is None:
            print(f"{label:45s}  not installed (pip install 'cardtable[bench]')")
            continue
        rate, games = measure(runner, args.seconds, clock)
        peers[label] = rate
        print(f"{label:45s} {rate:12,.0f} actions/s  ({games} games)")
    print()
    header = f"{'cardtable':45s} {'actions/s':>12s}  {'target':>7s}" + "".join(f"  {'vs ' + p.split()[0] + ' ' + p.split()[1]:>26s}" for p in peers)
    print(header)
    for game_name, label, options in VARIANTS:
        if args.only and game_name != args.only:
            continue
        rate, games = measure(cardtable_runner(game_name, options), args.seconds, clock)
        ok = "ok" if rate >= TARGET else "MISS"
        ratios = "".join(f"  {rate / peer:25.2f}x" for peer in peers.values())
        print(f"{label:45s} {rate:12,.0f}  {ok:>7s}{ratios}   ({games} games)")
    print(f"\nTarget: {TARGET:,} actions/s per game on one core ({args.clock} clock).")


if __name__ == "__main__":
    main()
