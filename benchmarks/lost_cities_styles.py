"""Lost Cities heuristic styles against each other: the tuning behind ``bold``.

Plays every deal twice, once from each seat (duplicate matches), with the
heuristic's :func:`~cardtable.games.lost_cities.heuristic.policy_action` on the states
themselves (no JSON views): about 80 matches a second on one core.  The first style is a named
style (default ``bold``) with optional ``field=value`` overrides of
:class:`~cardtable.games.lost_cities.heuristic.LostCitiesStyle`; it plays against
``--against`` (default ``steady``, the baseline ``heuristic``)::

    python benchmarks/lost_cities_styles.py                         # bold vs steady, 1000 deals
    python benchmarks/lost_cities_styles.py --colors 6 --seed 50000
    python benchmarks/lost_cities_styles.py --style steady wager_min_numbers=2 conservative=1.0

Prints the share of matches won (draws count half) with its standard error and
the mean score margin per match.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import sys
from typing import Any

from cardtable.games.lost_cities.heuristic import policy_action
from cardtable.games.lost_cities.heuristic import STYLES, LostCitiesStyle
from cardtable.registry import load_game


def parse_overrides(base: LostCitiesStyle, items: list[str]) -> LostCitiesStyle:
    """``base`` with ``field=value`` overrides (numbers)."""
    fields = {f.name: f for f in dataclasses.fields(LostCitiesStyle)}
    changes: dict[str, float | int] = {}
    for item in items:
        key, eq, raw = item.partition("=")
        if not eq or key not in fields:
            raise SystemExit(f"override {item!r} is not field=value; fields: {', '.join(fields)}")
        try:
            changes[key] = int(raw) if key == "wager_min_numbers" else float(raw)
        except ValueError:
            raise SystemExit(f"override {item!r}: {raw!r} is not a number") from None
    return dataclasses.replace(base, **changes)  # type: ignore[arg-type]


def duel(first: LostCitiesStyle, second: LostCitiesStyle, *, colors: int, deals: int, seed: int) -> tuple[float, float]:
    """(share of matches ``first`` wins, mean score margin) over ``deals`` deals from both seats."""
    game = load_game("lost-cities", colors=colors)
    won = margin = 0.0
    for deal in range(seed, seed + deals):
        for me in (0, 1):
            state: Any = game.new_state(seed=deal)
            styles = (first, second) if me == 0 else (second, first)
            while not state.is_terminal():
                legal = state.legal_actions()
                state.apply_action(legal[0] if len(legal) == 1 else policy_action(state, styles[state.current_player()]))
            mine, theirs = state.scores()[me], state.scores()[1 - me]
            won += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
            margin += mine - theirs
    return won / (2 * deals), margin / (2 * deals)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("overrides", nargs="*", help="field=value changes to --style")
    parser.add_argument("--style", default="bold", choices=sorted(STYLES))
    parser.add_argument("--against", default="steady", choices=sorted(STYLES))
    parser.add_argument("--colors", type=int, default=5, choices=(5, 6))
    parser.add_argument("--deals", type=int, default=1000, help="deals, each played from both seats")
    parser.add_argument("--seed", type=int, default=50000, help="first deal's seed")
    args = parser.parse_args(argv)
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    first = parse_overrides(STYLES[args.style], args.overrides)
    share, margin = duel(first, STYLES[args.against], colors=args.colors, deals=args.deals, seed=args.seed)
    label = args.style + (" " + " ".join(args.overrides) if args.overrides else "")
    print(f"{label} vs {args.against}, {args.colors} colours, {2 * args.deals} matches: "
          f"won {100 * share:.1f} % ± {100 * 0.5 / math.sqrt(2 * args.deals):.1f}, margin {margin:+.2f} a match")


if __name__ == "__main__":
    main(sys.argv[1:])
