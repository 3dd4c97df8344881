"""The compiled Lost Ranks heuristic against the Python one on more matches than the
tests play: ``tests/test_kernel_lost_ranks.py``'s replay (the same knowledge and the
same choice at every decision, the same results) on ``N`` matches per variant.

Run::

    python benchmarks/kernel_heuristic_check.py 1000

Prints per variant the matches, rounds (deals) and decisions compared.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from test_kernel_lost_ranks import heuristic_replay  # noqa: E402

from cardtable.games.lost_ranks import LostRanks  # noqa: E402

VARIANTS = {"4 players": {"players": 4}, "4 players, Force Strength": {"players": 4, "force_strength": True},
            "2 players": {"players": 2}, "2 players, longer game": {"players": 2, "longer_game": True}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("matches", type=int, help="matches per variant (seeds 0 .. N-1)")
    args = parser.parse_args()
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for label, options in VARIANTS.items():
        game = LostRanks(**options)  # type: ignore[arg-type]
        compared, seen = 0, Counter[str]()
        for seed in range(args.matches):
            done, counted = heuristic_replay(game, seed)
            compared += done
            seen += counted
        print(f"{label}: {args.matches} matches, {seen['round_ended']} deals, {compared} decisions: "
              "the same knowledge, choices and results")


if __name__ == "__main__":
    main()
