"""Ранг, 4 players: two questions about the search's raw material (measurement only).

``bias POINTS``
    Is ``resample``'s deal (:func:`~cardtable.games.rank.rules.constrained_deal`: the most
    constrained slots first, each from the cards it allows) far from the uniform law over
    the deals the view allows, and does it matter?  A swap chain over the same slots
    (:class:`SwapChain`: two places — slots or stock — exchange cards when both allow the
    other's card; a Metropolis chain with a symmetric proposal, so its stationary law is
    uniform) gives the reference.  Per open decision of :mod:`open_points` whose stock is
    empty: the total variation, per card, between the marginals "seat s holds kind k" of
    the sampler and of the chain (and of the sampler against itself: the noise), and the
    Brier score of each set of marginals against the true hands (lower is better).
``score POINTS ENTRY… --chain K``
    :mod:`open_points`' score with ``resample`` dealing from one swap chain per decision,
    ``K`` proposals a card between worlds (``--chain 0``: the sampler itself).
``styles WEIGHTS…``
    Is there a stronger heuristic to improve on?  One seat plays the heuristic with other
    weights of :mod:`cardtable.games.rank.decisions` (JSON, e.g. ``'{"W_NEXT": 1.0}'``)
    against three default heuristics; the same deals are played with the default heuristic
    in that seat (same seeds): losses of each and the games turned either way.  The weights
    are set around each of that seat's decisions only, in Python (the compiled kernel keeps
    its own).

    python benchmarks/rank_sampler.py bias rank_late2.pkl --samples 3000 --limit 25
    python benchmarks/rank_sampler.py score rank_late2.pkl ismcts:seconds=0.1:cpu=true --chain 3
    python benchmarks/rank_sampler.py styles '{"W_NEXT_EMPTY": 3.0}' '{"ANTI_NEXT": 0.0}' --seed 100000 --games 3000
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import random
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import cardtable.games.rank.decisions as decisions
from cardtable.agents import Agent, Observation, make_agent
from cardtable.games.rank import rules
from cardtable.games.rank.rules import ALL_KINDS, HandConstraints, RankState
from cardtable.protocol import Game
from cardtable.registry import load_game

WEIGHTS = ("OUT_VALUE", "PULLED_BACK", "W_COVER", "W_NEXT", "W_NEXT_EMPTY", "ANTI_NEXT")
"""The heuristic's weights that ``styles`` may set."""

STOCK = -1
"""The owner of a stock place in a :class:`SwapChain`."""

SAMPLER = rules.constrained_deal
"""``resample``'s own deal (kept here: :func:`chain_deals` replaces it for a while)."""


class SwapChain:
    """Cards on places: every slot of ``cons`` (owner: its seat) and the stock (owner
    :data:`STOCK`), started from one ``constrained_deal``.  :meth:`mix` proposes swaps of
    two places' cards and keeps those every constraint allows."""

    def __init__(self, cons: HandConstraints, counts: Sequence[int], rng: random.Random) -> None:
        self.cons = cons
        self.rng = rng
        hands, stock = SAMPLER(cons, list(counts), rng)
        self.owner: list[int] = []
        self.mask: list[int] = []
        self.card: list[int] = []
        for seat, slots in enumerate(cons.slots):
            for j, m in enumerate(slots):
                self._place(seat, m, hands[seat][j])
        for c in stock:
            self._place(STOCK, ALL_KINDS, c)

    def _place(self, owner: int, mask: int, card: int) -> None:
        self.owner.append(owner)
        self.mask.append(mask)
        self.card.append(card)

    def _some_met(self) -> bool:
        if self.cons.some is None:
            return True
        seats, kinds = self.cons.some
        return any(o in seats and kinds >> c & 1 for o, c in zip(self.owner, self.card))

    def mix(self, proposals: int) -> int:
        """Propose ``proposals`` swaps; the number kept."""
        owner, mask, card, rng = self.owner, self.mask, self.card, self.rng
        n = len(card)
        kept = 0
        for _ in range(proposals):
            p, q = rng.randrange(n), rng.randrange(n)
            cp, cq = card[p], card[q]
            if cp == cq or owner[p] == owner[q] == STOCK:
                continue
            if not (mask[p] >> cq & 1 and mask[q] >> cp & 1):
                continue
            card[p], card[q] = cq, cp
            if not self._some_met():
                card[p], card[q] = cp, cq
                continue
            kept += 1
        return kept

    def deal(self) -> tuple[list[list[int]], list[int]]:
        """The hands by seat and the stock (shuffled), as ``constrained_deal`` returns them."""
        hands: list[list[int]] = [[] for _ in self.cons.slots]
        stock: list[int] = []
        for o, c in zip(self.owner, self.card):
            (stock if o == STOCK else hands[o]).append(c)
        self.rng.shuffle(stock)
        return hands, stock


def unseen_counts(state: RankState, player: int) -> list[int]:
    """Copies of each kind ``player`` has not seen (the deck less the pile and the hand)."""
    counts = list(state.game.pack)
    for c in state.pile_cards:
        counts[c] -= 1
    for c in state.hand_cards(player):
        counts[c] -= 1
    return counts


def _marginals(deals: list[list[list[int]]]) -> Counter[tuple[int, int]]:
    held: Counter[tuple[int, int]] = Counter()
    for hands in deals:
        for seat, hand in enumerate(hands):
            for k in hand:
                held[(seat, k)] += 1
    return held


def _distance(a: Counter[tuple[int, int]], b: Counter[tuple[int, int]], n: int) -> float:
    return sum(abs(a[key] - b[key]) for key in set(a) | set(b)) / n / 2


def bias(points: list[dict[str, Any]], samples: int, limit: int, seed: int) -> dict[str, Any]:
    """The ``bias`` command over the first ``limit`` empty-stock decisions of ``points``."""
    rng = random.Random(seed)
    rows = []
    for point in points:
        state, me = point["state"], point["player"]
        if state.stock_cards or len(rows) >= limit:
            continue
        cons = state.hand_constraints(me)
        counts = unseen_counts(state, me)
        first = [SAMPLER(cons, list(counts), rng)[0] for _ in range(samples)]
        again = [SAMPLER(cons, list(counts), rng)[0] for _ in range(samples)]
        chain = SwapChain(cons, counts, rng)
        chain.mix(200 * len(chain.card))
        mixed = []
        for _ in range(samples):
            chain.mix(10 * len(chain.card))
            mixed.append(chain.deal()[0])
        cards = max(1, sum(len(s) for s in cons.slots))
        sampler, reference, noise = _marginals(first), _marginals(mixed), _marginals(again)
        truth = {(s, k): state.hand_cards(s).count(k)
                 for s in range(len(cons.slots)) if cons.slots[s] for k in range(len(counts)) if counts[k]}
        rows.append({"cards": cards,
                     "tv": _distance(sampler, reference, samples) / cards,
                     "noise": _distance(sampler, noise, samples) / cards,
                     "brier_sampler": sum((sampler[key] / samples - v) ** 2 for key, v in truth.items()),
                     "brier_chain": sum((reference[key] / samples - v) ** 2 for key, v in truth.items())})
    n = max(1, len(rows))
    return {"positions": len(rows), "samples": samples,
            **{key: round(sum(r[key] for r in rows) / n, 4)
               for key in ("tv", "noise", "brier_sampler", "brier_chain")}}


@contextmanager
def chain_deals(per_card: float, burn: int = 40) -> Iterator[None]:
    """While the block runs, ``resample`` deals from one :class:`SwapChain` per set of
    constraints (one decision's), ``per_card`` proposals a card between deals."""
    chains: dict[int, SwapChain] = {}

    def deal(cons: HandConstraints, counts: Sequence[int], rng: random.Random) -> tuple[list[list[int]], list[int]]:
        chain = chains.get(id(cons))
        if chain is None or chain.cons is not cons:
            chains.clear()
            chain = chains[id(cons)] = SwapChain(cons, counts, rng)
            chain.mix(burn * len(chain.card))
        chain.mix(int(per_card * len(chain.card)))
        return chain.deal()

    rules.constrained_deal = deal  # type: ignore[assignment]
    try:
        yield
    finally:
        rules.constrained_deal = SAMPLER


class StyledHeuristic(Agent):
    """The heuristic bot with other :data:`WEIGHTS`, set around each of its decisions."""

    name = "styled"

    def __init__(self, game: Game, *, seed: int, weights: dict[str, float]) -> None:
        super().__init__(game, seed=seed)
        unknown = sorted(set(weights) - set(WEIGHTS))
        if unknown:
            raise SystemExit(f"unknown weights {unknown}; the heuristic's weights are {list(WEIGHTS)}")
        self.inner = make_agent("heuristic", game, seed=seed)
        self.weights = weights

    def act(self, obs: Observation) -> int:
        kept = {k: getattr(decisions, k) for k in self.weights}
        for k, v in self.weights.items():
            setattr(decisions, k, v)
        try:
            return self.inner.act(obs)
        finally:
            for k, v in kept.items():
                setattr(decisions, k, v)


def loses(game: Game, seed: int, seat: int, weights: dict[str, float] | None) -> bool:
    """Whether ``seat`` stays in Rank (RG-7) in the game of ``seed``, the heuristic with
    ``weights`` in that seat (``None``: the default) and default heuristics elsewhere."""
    state = game.new_state(seed=seed)
    agents: list[Agent] = [
        StyledHeuristic(game, seed=seed * 10 + s, weights=weights) if s == seat and weights is not None
        else make_agent("heuristic", game, seed=seed * 10 + s) for s in range(game.num_players)]
    while not state.is_terminal():
        q = state.current_player()
        legal = state.legal_actions()
        state.apply_action(legal[0] if len(legal) == 1 else agents[q].act(Observation.of(state, q)))
    order = state.result()["order"]
    assert isinstance(order, list)
    return int(order[-1]) == seat


def styles(game: Game, weights: dict[str, float], first: int, games: int) -> dict[str, Any]:
    """The ``styles`` command for one set of weights (the seat rotates with the seed)."""
    start = time.process_time()
    default = styled = better = worse = 0
    for seed in range(first, first + games):
        seat = seed % game.num_players
        a, b = loses(game, seed, seat, None), loses(game, seed, seat, weights)
        default += a
        styled += b
        better += a and not b
        worse += b and not a
    return {"weights": weights, "games": games, "default_losses": default, "styled_losses": styled,
            "turned_better": better, "turned_worse": worse, "cpu": round(time.process_time() - start, 1),
            "load": round(os.getloadavg()[0], 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("bias")
    b.add_argument("points")
    b.add_argument("--samples", type=int, default=3000)
    b.add_argument("--limit", type=int, default=25, help="empty-stock decisions looked at")
    b.add_argument("--seed", type=int, default=1)
    s = sub.add_parser("score")
    s.add_argument("points")
    s.add_argument("entries", nargs="+")
    s.add_argument("--chain", type=float, default=3.0, help="proposals a card between worlds (0: the sampler)")
    s.add_argument("--out", default=None)
    t = sub.add_parser("styles")
    t.add_argument("weights", nargs="+", help="JSON objects of weights, e.g. '{\"W_NEXT\": 1.0}'")
    t.add_argument("--seed", type=int, default=100000)
    t.add_argument("--games", type=int, default=3000)
    args = parser.parse_args()
    game = load_game("rank", players=4)
    if args.command == "styles":
        for text in args.weights:
            try:
                weights = json.loads(text)
            except json.JSONDecodeError as e:
                raise SystemExit(f"{text!r} is not JSON ({e}); give e.g. '{{\"W_NEXT\": 1.0}}'") from e
            print(json.dumps(styles(game, {k: float(v) for k, v in weights.items()}, args.seed, args.games)), flush=True)
        return
    with open(args.points, "rb") as f:
        points = pickle.load(f)
    if args.command == "bias":
        print(json.dumps(bias(points, args.samples, args.limit, args.seed)))
        return
    import open_points

    for spec in args.entries:
        if args.chain > 0:
            with chain_deals(args.chain):
                row = open_points.score(game, points, spec)
        else:
            row = open_points.score(game, points, spec)
        row["entry"] = f"{spec} chain={args.chain}"
        open_points.emit(row, args.out)


if __name__ == "__main__":
    main()
