"""Command of Two: two levers for a stronger player inside the search, measured.

Both ask whether the player that continues a play-out (the heuristic) can be made
stronger cheaply — the Lost Cities lever, where the search improved on a stronger
style (docs/strength.md, "Fourteenth session"):

``styles WEIGHTS…``
    The heuristic with other weights — constants of
    :mod:`cardtable.games.lost_ranks.decisions` (``{"TWO_LEAD_VALUE": 0.5}``) and
    biases added to the value of a lead from the hand by the kind of card led
    (``lead_spy``, ``lead_own_jack``, ``lead_enemy_jack``, ``lead_inactive_jack``,
    ``lead_trump``, ``lead_plain``) or of ``draw two`` as a lead (``lead_draw``) —
    against the default heuristic, every deal played from both seats (duplicate
    matches, ``--deals`` deals from ``--seed``, ``--jobs`` processes).  Prints the
    styled seat's share of the matches (draws half).
``points POINTS WEIGHTS…``
    The same styles at the open decisions of ``open_points.py collect``: the styled
    heuristic's move against the default's, each valued on the true deal with the
    heuristic playing on (paired, mean gain and standard error).
``lookahead POINTS ENTRY --depth D``
    The search ``ENTRY`` at those open decisions with play-outs in which the searching
    seat chooses its first ``D`` decisions of the play-out by a one-step look-ahead in
    the sampled world (every legal move continued by the heuristic to the round's end,
    the move with the best army point difference; the heuristic's move on ties —
    :func:`cardtable.games.lost_ranks.kernel.lookahead_rounds`, the search's play-outs
    since the twenty-eighth session, at depth 2 since the twenty-ninth): the search
    seeing, inside each world, what its later self would do with that world's cards.  ``--depth 0``: the
    heuristic's play-outs.

::

    python benchmarks/open_points.py collect cot.pkl --seed 20000 --matches 40 --share 1.0
    python benchmarks/command_of_two_levers.py styles '{"TWO_LEAD_VALUE": 0.5}' '{"lead_enemy_jack": 0.6}' --deals 500
    python benchmarks/command_of_two_levers.py points cot.pkl '{"lead_trump": 0.15}'
    python benchmarks/command_of_two_levers.py lookahead cot.pkl ismcts:seconds=0.2:cpu=true --depth 1
"""

from __future__ import annotations

import argparse
import json
import math
import os
import pickle
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from multiprocessing import Pool
from typing import Any

from cardtable.agents import Agent, Observation, make_agent
from cardtable.games.lost_ranks import decisions
from cardtable.games.lost_ranks.heuristic import AVOID, knowledge
from cardtable.lab.series import play_match
from cardtable.protocol import Game
from cardtable.registry import load_game

LEADS = ("lead_spy", "lead_own_jack", "lead_enemy_jack", "lead_inactive_jack", "lead_trump", "lead_plain",
         "lead_draw")
"""The lead biases a style may set."""
CONSTANTS = ("RANK_COST", "TRUMP_COST", "MASTER_COST", "GUARD_COST", "TWO_VOID_BONUS", "TWO_LEAD_VALUE",
             "TWO_LOST_DUMP", "Q_JACK", "D_SPY")
"""The constants of :mod:`~cardtable.games.lost_ranks.decisions` that the 2-player decisions read."""

_VALUE_TWO, _VALUE_DRAW = decisions.value_two, decisions.value_draw
_BIAS: dict[str, float] = {}


def lead_kind(card: int, k: list[int]) -> str:
    """The lead bias that applies to leading ``card`` from the hand, in knowledge ``k``."""
    if card == decisions.SPY:
        return "lead_spy"
    if card % 13 == decisions.JACK:
        colour, trump_colour = decisions.SUIT_COLOUR[card // 13], decisions.SUIT_COLOUR[k[decisions.TRUMP]]
        if colour != trump_colour:
            return "lead_inactive_jack"
        return "lead_own_jack" if colour == k[decisions.ARMY + k[decisions.ME]] else "lead_enemy_jack"
    return "lead_trump" if card // 13 == k[decisions.TRUMP] else "lead_plain"


def _biased_value_two(k: list[int], facts: Any, opp: Any, card: int, from_phantom: bool, table: list[float]) -> float:
    value: float = _VALUE_TWO(k, facts, opp, card, from_phantom, table)
    if _BIAS and not k[decisions.TRICK_N] and not from_phantom:
        value += _BIAS.get(lead_kind(card, k), 0.0)
    return value


def _biased_value_draw(k: list[int], facts: Any, opp: Any, table: list[float]) -> float:
    value: float = _VALUE_DRAW(k, facts, opp, table)
    if _BIAS and not k[decisions.TRICK_N]:
        value += _BIAS.get("lead_draw", 0.0)
    return value


def parse_style(text: str) -> dict[str, float]:
    """A style from its JSON text, checked."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as e:
        raise SystemExit(f"{text!r} is not JSON ({e}); give e.g. '{{\"TWO_LEAD_VALUE\": 0.5}}'") from e
    if not isinstance(raw, dict):
        raise SystemExit(f"{text!r} is not a JSON object of weights")
    unknown = sorted(set(raw) - set(CONSTANTS) - set(LEADS))
    if unknown:
        raise SystemExit(f"unknown weights {unknown}; the weights are {list(CONSTANTS)} and {list(LEADS)}")
    try:
        return {key: float(value) for key, value in raw.items()}
    except (TypeError, ValueError) as e:
        raise SystemExit(f"{text!r}: every weight must be a number") from e


@contextmanager
def styled(style: dict[str, float]) -> Iterator[None]:
    """The Python heuristic plays ``style`` inside the block (module constants set, lead
    biases added); everything is restored after it."""
    kept = {key: getattr(decisions, key) for key in style if key in CONSTANTS}
    decisions.value_two, decisions.value_draw = _biased_value_two, _biased_value_draw
    _BIAS.update({key: value for key, value in style.items() if key in LEADS})
    for key in kept:
        setattr(decisions, key, style[key])
    try:
        yield
    finally:
        _BIAS.clear()
        decisions.value_two, decisions.value_draw = _VALUE_TWO, _VALUE_DRAW
        for key, value in kept.items():
            setattr(decisions, key, value)


class StyledHeuristic(Agent):
    """The heuristic bot playing a style (:func:`styled` around each of its decisions)."""

    name = "styled"

    def __init__(self, game: Game, *, seed: int, style: dict[str, float]) -> None:
        super().__init__(game, seed=seed)
        self.inner = make_agent("heuristic", game, seed=seed)
        self.style = style

    def act(self, obs: Observation) -> int:
        with styled(self.style):
            return self.inner.act(obs)


def duplicate_match(job: tuple[int, int, dict[str, float]]) -> float:
    """The styled seat's return in one match: (deal seed, styled seat, style)."""
    seed, seat, style = job
    game = load_game("lost-ranks", players=2)

    def agent_for(entry: str, g: Game, agent_seed: int) -> Agent:
        return StyledHeuristic(g, seed=agent_seed, style=style) if entry == "styled" else make_agent(entry, g, seed=agent_seed)

    seating = [0, 1] if seat == 0 else [1, 0]
    outcome = play_match(game, ["styled", "heuristic"], seed=seed, seating=seating, agent_for=agent_for)
    return outcome.returns[seat]


def styles(style: dict[str, float], first: int, deals: int, jobs: int) -> dict[str, Any]:
    """The ``styles`` row of one style."""
    start = time.time()
    work = [(seed, seat, style) for seed in range(first, first + deals) for seat in (0, 1)]
    if jobs > 1:
        with Pool(jobs) as pool:
            returns = pool.map(duplicate_match, work, chunksize=10)
    else:
        returns = [duplicate_match(job) for job in work]
    won = sum(r > 0 for r in returns) + 0.5 * sum(r == 0 for r in returns)
    n = len(returns)
    share = won / n
    return {"style": style, "matches": n, "share": round(share, 4), "se": round(math.sqrt(share * (1 - share) / n), 4),
            "wall": round(time.time() - start, 1), "load": round(os.getloadavg()[0], 2)}


def _mean_se(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    return round(mean, 4), round(math.sqrt(sum((v - mean) ** 2 for v in values) / max(1, n - 1) / n), 4)


def points_gain(points: list[dict[str, Any]], style: dict[str, float]) -> dict[str, Any]:
    """The ``points`` row of one style: its move against the default's at each point."""
    gains = []
    changed = 0
    for p in points:
        k = knowledge(p["state"].view(p["player"]))
        legal = sorted(p["values"])
        noise = [0.5] * len(legal)
        default = legal[decisions.choose(list(k), legal, noise, AVOID, [0.0] * decisions.WORK)]
        with styled(style):
            move = legal[decisions.choose(list(k), legal, noise, AVOID, [0.0] * decisions.WORK)]
        changed += move != default
        gains.append(p["values"][move] - p["values"][default])
    mean, se = _mean_se(gains)
    return {"style": style, "points": len(points), "gain": mean, "se": se, "changed": changed}


def lookahead(game: Game, points: list[dict[str, Any]], entry: str, depth: int) -> dict[str, Any]:
    """The ``lookahead`` row: ``entry`` scored at ``points`` with the searching seat's
    first ``depth`` decisions of each play-out looking ahead (its ``leaf`` option must
    leave the play-outs to the look-ahead, the default)."""
    import open_points

    from cardtable.games.lost_ranks.knowledge import LostRanksKnowledge

    if depth < 0:
        raise SystemExit(f"--depth {depth}: give 0 (the heuristic's play-outs) or more")
    default = LostRanksKnowledge.lookahead_depth
    LostRanksKnowledge.lookahead_depth = depth
    try:
        row = open_points.score(game, points, entry)
    finally:
        LostRanksKnowledge.lookahead_depth = default
    row["entry"] = f"{entry} depth={depth}"
    row.pop("gains")
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("styles", help="styled heuristic against the default, duplicate matches")
    s.add_argument("styles", nargs="+", help="JSON objects of weights")
    s.add_argument("--seed", type=int, default=3000)
    s.add_argument("--deals", type=int, default=500)
    s.add_argument("--jobs", type=int, default=max(1, min(2, os.cpu_count() or 1)))
    p = sub.add_parser("points", help="styled heuristic at open decisions")
    p.add_argument("points")
    p.add_argument("styles", nargs="+")
    la = sub.add_parser("lookahead", help="the search with look-ahead play-outs at open decisions")
    la.add_argument("points")
    la.add_argument("entry")
    la.add_argument("--depth", type=int, default=1)
    args = parser.parse_args()
    if args.command == "styles":
        for text in args.styles:
            print(json.dumps(styles(parse_style(text), args.seed, args.deals, args.jobs)), flush=True)
        return
    try:
        with open(args.points, "rb") as f:
            points = pickle.load(f)
    except OSError as e:
        raise SystemExit(f"cannot read {args.points}: {e.strerror}; make it with open_points.py collect") from e
    if args.command == "points":
        for text in args.styles:
            print(json.dumps(points_gain(points, parse_style(text))), flush=True)
        return
    print(json.dumps(lookahead(load_game("lost-ranks", players=2), points, args.entry, args.depth)))


if __name__ == "__main__":
    sys.exit(main())
