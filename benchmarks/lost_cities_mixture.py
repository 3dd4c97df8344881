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
count half), mean margin with its standard error, the search's worlds, play-outs and
play-out moves per searched decision, CPU seconds and the load average.
``--out FILE`` keeps the per-deal margins (JSON) for paired comparisons on the same deals;
``--baseline FILE`` (an earlier ``--out`` on the same deals) prints the paired difference
per round with its standard error and the games won and lost against it.  Other search
settings: ``--set name=value`` sets a knowledge attribute (``candidates_kept``, ``keep_z``,
``race_z``, ``margin_kept``, ``sigma``); ``--one-by-one`` plays each root move's play-out
in its own kernel call (the search before ``kernel_playouts``)::

    python benchmarks/lost_cities_mixture.py --against bold --deals 60 --cpu 0.1 --out base.json
    python benchmarks/lost_cities_mixture.py --against bold --deals 60 --cpu 0.1 --set race_z=2 --baseline base.json
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
from cardtable.games.lost_cities.knowledge import OPPONENT_MIXTURE, RANDOMISED, LostCitiesKnowledge, OpponentMixture

SETTABLE = {"candidates_kept": int, "keep_z": float, "race_z": float, "margin_kept": float, "sigma": float}
"""The knowledge attributes ``--set`` may change, with their types."""


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


def parse_setting(text: str) -> tuple[str, int | float]:
    """``name=value`` for one of :data:`SETTABLE`."""
    name, _, value = text.partition("=")
    if name not in SETTABLE:
        raise SystemExit(f"--set {text!r}: choose a setting from {', '.join(SETTABLE)}")
    try:
        return name, SETTABLE[name](value)
    except ValueError:
        raise SystemExit(f"--set {text!r}: {value!r} is not a {SETTABLE[name].__name__}") from None


def play(game: LostCities, deal: int, me: int, searcher: ISMCTSAgent, against: str,
         work: list[int] | None = None) -> int:
    """One match of ``deal`` with the search in seat ``me``: its score margin.  ``work``
    (if given) adds up searched decisions, worlds, play-outs and play-out moves."""
    state: Any = game.new_state(seed=deal)
    style = STYLES[against]
    while not state.is_terminal():
        legal = state.legal_actions()
        p = state.current_player()
        if len(legal) == 1:
            action = legal[0]
        elif p == me:
            searcher.last = None
            action = searcher.act(Observation(game, p, state.view(p), tuple(legal), state))
            last = searcher.last
            if work is not None and last is not None:
                for i, n in enumerate((1, last.iterations, sum(last.visits.values()), last.playout_moves)):
                    work[i] += n
        else:
            action = policy_action(state, style)
        state.apply_action(action)
    scores = state.scores()
    return int(scores[me] - scores[1 - me])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mixture", help="name:weight,… (STYLES names or randomised; default: OPPONENT_MIXTURE)")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help=f"a knowledge setting ({', '.join(SETTABLE)}); repeatable")
    parser.add_argument("--one-by-one", action="store_true",
                        help="one kernel call per root move's play-out (not kernel_playouts)")
    parser.add_argument("--baseline", help="an earlier --out on the same deals: print the paired difference")
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
    mixture = OPPONENT_MIXTURE if args.mixture is None else parse_mixture(args.mixture)
    label = args.mixture or ",".join(f"{n}:{w:g}" for n, w in mixture.parts)
    game = LostCities(colors=args.colors, rounds=args.rounds)
    knowledge = LostCitiesKnowledge(game)
    knowledge.mixture = mixture
    settings = dict(parse_setting(text) for text in args.set)
    for name, value in settings.items():
        setattr(knowledge, name, value)
    if args.one_by_one:
        knowledge.kernel_playouts = None  # type: ignore[assignment,method-assign]  # the search reads it with getattr
    options: dict[str, Any] = ({"iterations": args.iterations} if args.iterations else
                               {"seconds": args.cpu, "cpu": True})
    margins: list[tuple[int, int]] = []
    work = [0, 0, 0, 0]
    won = 0.0
    start = time.process_time()
    for deal in range(args.seed, args.seed + args.deals):
        pair = []
        for me in (0, 1):
            searcher = ISMCTSAgent(game, seed=deal * 2 + me, **options)
            searcher.knowledge = knowledge
            margin = play(game, deal, me, searcher, args.against, work)
            won += 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
            pair.append(margin)
        margins.append((pair[0], pair[1]))
        print(f"deal {deal}: {pair[0]:+d} {pair[1]:+d}", flush=True)
    flat = [m for pair in margins for m in pair]
    n = len(flat)
    mean = sum(flat) / n
    deal_means = [(a + b) / 2 for a, b in margins]
    var = sum((x - mean) ** 2 for x in deal_means) / max(1, len(deal_means) - 1)
    decisions = max(1, work[0])
    print(f"mixture {label} vs {args.against}, settings {settings or 'default'}"
          f"{', one by one' if args.one_by_one else ''}, {args.colors} colours, {args.rounds} round(s), {n} games "
          f"({args.deals} deals x 2 seats), budget {options}: won {100 * won / n:.1f} %, margin {mean:+.2f} "
          f"± {math.sqrt(var / len(deal_means)):.2f}; a searched decision: {work[1] / decisions:.0f} worlds, "
          f"{work[2] / decisions:.0f} play-outs, {work[3] / decisions:.0f} play-out moves ({work[0]} decisions); "
          f"CPU {time.process_time() - start:.0f} s, load {os.getloadavg()[0]:.2f}", flush=True)
    if args.baseline:
        print(paired_difference(margins, args.baseline, args), flush=True)
    if args.out:
        with open(args.out, "w") as out:
            json.dump({"mixture": label, "against": args.against, "colors": args.colors, "rounds": args.rounds,
                       "seed": args.seed, "budget": options, "settings": settings, "one_by_one": args.one_by_one,
                       "margins": margins, "mixture_parts": [list(p) for p in mixture.parts],
                       "randomised": RANDOMISED}, out)


def paired_difference(margins: list[tuple[int, int]], path: str, args: argparse.Namespace) -> str:
    """This run's margins minus the baseline's on the same deals and seats: the mean per
    round with the standard error of the per-deal differences, and the games that
    changed from a loss (or draw) to a win and back."""
    with open(path) as file:
        base = json.load(file)
    if (base["seed"], base["colors"], base["rounds"], base["against"]) != (args.seed, args.colors, args.rounds,
                                                                           args.against):
        raise SystemExit(f"{path} was played on other deals or against another opponent")
    pairs = list(zip(margins, base["margins"]))
    diffs = [(a + b - c - d) / 2 for (a, b), (c, d) in pairs]
    mean = sum(diffs) / len(diffs)
    var = sum((x - mean) ** 2 for x in diffs) / max(1, len(diffs) - 1)
    won = sum((x > 0) > (y > 0) for this, that in pairs for x, y in zip(this, that))
    lost = sum((x > 0) < (y > 0) for this, that in pairs for x, y in zip(this, that))
    same = sum(x == y for this, that in pairs for x, y in zip(this, that))
    return (f"paired with {path} ({len(pairs)} deals): {mean:+.2f} ± {math.sqrt(var / len(diffs)):.2f} a round; "
            f"games won that it lost {won}, lost that it won {lost}; identical margins {same} of {2 * len(pairs)}")


if __name__ == "__main__":
    main(sys.argv[1:])
