"""Lost Cities: the search's opponent mixture against one heuristic style (the tuning behind
``OPPONENT_MIXTURE`` in :mod:`cardtable.games.lost_cities.knowledge`).

Duplicate deals: every deal is played twice, the search in each seat, against the
heuristic playing ``--against`` (its moves computed on the state, as in
``benchmarks/lost_cities_styles.py``).  The search is ``ismcts`` with the budget given
(``--iterations`` play-outs, or ``--cpu`` seconds of the thread's CPU time) and its
knowledge's ``mixture`` set to ``--mixture`` (``name:weight,…``; names of ``STYLES`` or
``randomised``).  Tune only against ``steady`` and ``bold``: the pool
(``heuristic.POOL``) is never a tuning opponent (docs/strength.md)::

    python benchmarks/lost_cities_mixture.py --mixture steady:1 --against bold --deals 40
    python benchmarks/lost_cities_mixture.py --mixture steady:1,bold:1,randomised:1 --against steady

Prints one line per deal (both seats' margins) and a summary: share of games won (draws
count half), mean margin with its standard error, CPU seconds and the load average.
``--out FILE`` keeps the per-deal margins (JSON) for paired comparisons on the same deals.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from typing import Any

from cardtable.agents import Observation
from cardtable.agents.search import ISMCTSAgent
from cardtable.games.lost_cities import LostCities
from cardtable.games.lost_cities.heuristic import POOL, STYLES, policy_action
from cardtable.games.lost_cities.knowledge import RANDOMISED, LostCitiesKnowledge, OpponentMixture


def parse_mixture(text: str) -> OpponentMixture:
    """``name:weight,…`` as an :class:`OpponentMixture` (a bare name weighs 1)."""
    parts = []
    for item in text.split(","):
        name, _, weight = item.partition(":")
        try:
            parts.append((name.strip(), float(weight) if weight else 1.0))
        except ValueError:
            raise SystemExit(f"mixture part {item!r}: {weight!r} is not a number") from None
    try:
        return OpponentMixture(tuple(parts))
    except ValueError as error:
        raise SystemExit(str(error)) from None


def play(game: LostCities, deal: int, me: int, searcher: ISMCTSAgent, against: str) -> int:
    """One match of ``deal`` with the search in seat ``me``: its score margin."""
    state: Any = game.new_state(seed=deal)
    style = STYLES[against]
    while not state.is_terminal():
        legal = state.legal_actions()
        p = state.current_player()
        if len(legal) == 1:
            action = legal[0]
        elif p == me:
            action = searcher.act(Observation(game, p, state.view(p), tuple(legal), state))
        else:
            action = policy_action(state, style)
        state.apply_action(action)
    scores = state.scores()
    return int(scores[me] - scores[1 - me])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mixture", required=True, help="name:weight,… (STYLES names or randomised)")
    parser.add_argument("--against", default="bold", choices=("steady", "bold"),
                        help="the tuning opponent (the pool is never one)")
    parser.add_argument("--colors", type=int, default=5, choices=(5, 6))
    parser.add_argument("--rounds", type=int, default=1, help="rounds a match (1: single rounds, cheap)")
    parser.add_argument("--deals", type=int, default=40, help="deals, each played from both seats")
    parser.add_argument("--seed", type=int, default=60000, help="first deal's seed")
    budget = parser.add_mutually_exclusive_group(required=True)
    budget.add_argument("--iterations", type=int, help="play-outs a decision")
    budget.add_argument("--cpu", type=float, help="seconds of the thread's CPU time a decision")
    parser.add_argument("--out", help="write the per-deal margins here (JSON)")
    args = parser.parse_args(argv)
    if args.against in POOL:  # pragma: no cover - choices already forbid it
        parser.error("the pool is never a tuning opponent")
    mixture = parse_mixture(args.mixture)
    game = LostCities(colors=args.colors, rounds=args.rounds)
    knowledge = LostCitiesKnowledge(game)
    knowledge.mixture = mixture
    options: dict[str, Any] = ({"iterations": args.iterations} if args.iterations else
                               {"seconds": args.cpu, "cpu": True})
    margins: list[tuple[int, int]] = []
    won = 0.0
    start = time.process_time()
    for deal in range(args.seed, args.seed + args.deals):
        pair = []
        for me in (0, 1):
            searcher = ISMCTSAgent(game, seed=deal * 2 + me, **options)
            searcher.knowledge = knowledge
            margin = play(game, deal, me, searcher, args.against)
            won += 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
            pair.append(margin)
        margins.append((pair[0], pair[1]))
        print(f"deal {deal}: {pair[0]:+d} {pair[1]:+d}", flush=True)
    flat = [m for pair in margins for m in pair]
    n = len(flat)
    mean = sum(flat) / n
    deal_means = [(a + b) / 2 for a, b in margins]
    var = sum((x - mean) ** 2 for x in deal_means) / max(1, len(deal_means) - 1)
    print(f"mixture {args.mixture} vs {args.against}, {args.colors} colours, {args.rounds} round(s), {n} games "
          f"({args.deals} deals x 2 seats), budget {options}: won {100 * won / n:.1f} %, margin {mean:+.2f} "
          f"± {math.sqrt(var / len(deal_means)):.2f}; CPU {time.process_time() - start:.0f} s, "
          f"load {os.getloadavg()[0]:.2f}", flush=True)
    if args.out:
        with open(args.out, "w") as out:
            json.dump({"mixture": args.mixture, "against": args.against, "colors": args.colors, "rounds": args.rounds,
                       "seed": args.seed, "budget": options, "margins": margins, "mixture_parts": [
                           list(p) for p in mixture.parts], "randomised": RANDOMISED}, out)


if __name__ == "__main__":
    main(sys.argv[1:])
