"""CPU time per move of the search's play-outs: each game's knowledge policy, to its cut-off.

Plays ``--repeats`` play-outs from the start of each of ``--deals`` fixed deals with
the play-out policy of a search by seat 0 (``Knowledge.rollout_for(0)``: for Lost
Cities the ``bold`` heuristic against ``steady``, for Lost Ranks and Ранг their
fast policies) to the knowledge's cut-off (the end of the round; Ранг: the game),
and prints the best of ``--trials`` runs.  The numbers are CPU time: compare
versions in the same session, one after the other::

    PYTHONPATH=src python benchmarks/search_playouts.py
    PYTHONPATH=src python benchmarks/search_playouts.py --only lost-cities --deals 300
"""

from __future__ import annotations

import argparse
import random
import time

from cardtable.agents.knowledge import knowledge_for
from cardtable.registry import load_game

CASES: list[tuple[str, dict[str, int], float]] = [
    ("lost-cities", {}, 1.0), ("lost-cities", {"colors": 6}, 1.0),
    ("lost-ranks", {}, 2.0), ("lost-ranks", {"players": 2}, 1.3), ("rank", {"players": 4}, 4.0),
]
"""(game, options, deals multiplier: about the same time per case)."""


def play_outs(name: str, options: dict[str, int], deals: int, repeats: int) -> tuple[int, float]:
    """(moves played, CPU seconds) of ``repeats`` play-outs from each of ``deals`` deals."""
    game = load_game(name, **options)
    knowledge = knowledge_for(game)
    act = knowledge.rollout_for(0)
    roots = [game.new_state(seed=seed) for seed in range(deals)]
    rng = random.Random(0)
    moves = 0
    start = time.process_time()
    for root in roots:
        for _ in range(repeats):
            state = root.clone()
            first = knowledge.round_of(state)
            while not knowledge.cutoff(state, first):
                state.apply_action(act(state, rng))
                moves += 1
            knowledge.evaluate(state)
    return moves, time.process_time() - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=150, help="deals per case (scaled per game)")
    parser.add_argument("--repeats", type=int, default=3, help="play-outs per deal")
    parser.add_argument("--trials", type=int, default=5, help="runs per case; the best is shown")
    parser.add_argument("--only", choices=sorted({c[0] for c in CASES}), help="measure only this game")
    args = parser.parse_args(argv)
    if min(args.deals, args.repeats, args.trials) < 1:
        parser.error("--deals, --repeats and --trials must be at least 1")
    for name, options, scale in CASES:
        if args.only and name != args.only:
            continue
        deals = max(1, round(args.deals * scale))
        runs = [play_outs(name, options, deals, args.repeats) for _ in range(args.trials)]
        moves, best = runs[0][0], min(seconds for _, seconds in runs)
        label = name + "".join(f" {k}={v}" for k, v in options.items())
        print(f"{label:28s} {moves:8d} moves  {1e6 * best / moves:6.2f} µs/move (CPU, best of {args.trials})")


if __name__ == "__main__":
    main()
