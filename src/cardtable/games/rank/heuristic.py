"""A heuristic player for Ранг (Rank) that reads only its view.

Two facts of the rules shape it.  First, RG-4 makes a turn end only when the player
is stuck (or out), and an Ace, King or joker can always be played, so *between
turns nobody holds an Ace, King or joker* except cards from the deal or from a
pull-back.  Second, a player who ended a turn (drew an unplayable card, passed,
or was forced to play any card in Anti-Rank) holds nothing one rank from, or
equal to, the top card they were stuck on — and their hand has not changed since.

The agent therefore:

* **plays long runs** — a depth-first search over its own hand (suits never
  matter, so it searches rank counts) finds the order of plays that sheds the
  most cards this turn; Aces, Kings and jokers are kept as *escapes*, used as late
  in the chain as possible to bridge to the next run (ties favour playing plain
  cards first);
* **times its last card** — when the hand can be emptied, it prefers the order
  whose last card leaves the next player most likely stuck (so the pull-back of
  RG-6 fails and it is out), estimated from the unseen cards and the next
  player's revealed exclusions;
* in **Anti-Rank** (RG-8) it throws the card whose loss keeps the rest of its hand
  most playable.
"""

from __future__ import annotations

from typing import Any

from cardtable.agents.base import Agent, Observation
from cardtable.cards import FRENCH_NAMES

_KIND_OF = {name: k for k, name in enumerate(FRENCH_NAMES)}
JK = 13
"""Rank index of the joker (cards' ranks are 0 = two … 11 = king, 12 = ace)."""
KING, ACE = 11, 12
_ESCAPES = (KING, ACE, JK)
OUT_VALUE = 20.0
"""Value of emptying the hand for good (compared with −1 per card kept)."""
PULLED_BACK = -2.0
NODE_LIMIT = 4000


def rank_of_kind(kind: int) -> int:
    return JK if kind == 52 else kind % 13


def answers(top: int) -> tuple[int, ...]:
    """Ranks that can be played on a card of rank ``top`` at some RG-4 tier."""
    if top == JK:
        return tuple(range(14))
    return tuple(sorted({(top + 1) % 13, (top - 1) % 13, top, KING, ACE, JK}))


def allowed(counts: list[int], top: int) -> list[int]:
    """Ranks of ``counts`` playable on ``top`` under RG-4's strict tiers."""
    if top == JK:
        return [r for r in range(14) if counts[r]]
    tier = [r for r in ((top + 1) % 13, (top - 1) % 13) if counts[r]]
    if tier:
        return tier
    if counts[top]:
        return [top]
    tier = [r for r in (KING, ACE) if counts[r]]
    if tier:
        return tier
    return [JK] if counts[JK] else []


class RankHeuristic(Agent):
    """Long runs, escapes kept for bridges, last card timed against the next player."""

    name = "heuristic"
    anti_next = 2.0
    """Weight, in Anti-Rank, of leaving the next player unable to play on the card thrown."""

    def act(self, obs: Observation) -> int:
        legal = obs.legal_actions
        if len(legal) <= 1:
            return legal[0]
        view = obs.view
        me = int(view["player"])
        hand = [rank_of_kind(_KIND_OF[c]) for c in view["hand"]]
        counts = [0] * 14
        for r in hand:
            counts[r] += 1
        unseen = self._unseen(view, counts)
        nxt = _next_seat(view, me)
        model = _Opponent(view, nxt, unseen)
        by_rank: dict[int, int] = {}
        for a in legal:
            if a < 53:
                by_rank.setdefault(rank_of_kind(a), a)
        if view["anti_rank"]["active"]:
            return self._anti_rank(counts, by_rank, model)
        search = _Search(model, stock=int(view["stock"]), unseen=unseen)
        best: tuple[float, float, float] | None = None
        choice = legal[0]
        for r, action in sorted(by_rank.items()):
            counts[r] -= 1
            value = search.value(counts, r)
            counts[r] += 1
            # Ties: play plain cards before escapes; then a little noise.
            key = (round(value, 6), 0.0 if r in _ESCAPES else 1.0, self.rng.random())
            if best is None or key > best:
                best, choice = key, action
        return choice

    @staticmethod
    def _unseen(view: dict[str, Any], counts: list[int]) -> list[int]:
        packs = int(view["packs"])
        unseen = [4 * packs] * 13 + [2 * packs]
        for c in view["pile"]:
            unseen[rank_of_kind(_KIND_OF[c])] -= 1
        for r in range(14):
            unseen[r] -= counts[r]
        return [max(0, u) for u in unseen]

    def _anti_rank(self, counts: list[int], by_rank: dict[int, int], model: _Opponent) -> int:
        best: tuple[float, float] | None = None
        choice = next(iter(by_rank.values()))
        for r, action in sorted(by_rank.items()):
            counts[r] -= 1
            score = _coverage(counts) + self.anti_next * model.p_stuck(r)
            counts[r] += 1
            key = (round(score, 6), self.rng.random())
            if best is None or key > best:
                best, choice = key, action
        return choice


def _next_seat(view: dict[str, Any], me: int) -> int:
    seats = [int(s) for s in view["in_game"] if s != me]
    if not seats:
        return me
    later = [s for s in seats if s > me]
    return later[0] if later else seats[0]


def _coverage(counts: list[int]) -> float:
    """Share of the 14 possible top ranks this hand could answer (escapes answer all)."""
    if counts[KING] or counts[ACE] or counts[JK]:
        return 1.0
    covered: set[int] = set()
    for r in range(13):
        if counts[r]:
            covered.update(((r - 1) % 13, r, (r + 1) % 13))
    return len(covered) / 13


class _Opponent:
    """The next player's hand, modelled as cards drawn from the unseen pool minus the
    ranks their play has shown they lack."""

    def __init__(self, view: dict[str, Any], seat: int, unseen: list[int]) -> None:
        self.size = int(view["hand_sizes"][seat])
        excluded = _exclusions(view).get(seat, set())
        allowed_pool = [0 if r in excluded else u for r, u in enumerate(unseen)]
        if sum(allowed_pool) < self.size:
            allowed_pool = unseen
        self.pool = allowed_pool
        self.total = sum(allowed_pool)
        self._cache: dict[int, float] = {}

    def p_stuck(self, top: int) -> float:
        """Chance the next player can play nothing on a card of rank ``top``."""
        cached = self._cache.get(top)
        if cached is not None:
            return cached
        if top == JK or self.size <= 0:
            p = 0.0
        else:
            hits = sum(self.pool[r] for r in answers(top))
            free = self.total - hits
            p = 1.0
            for i in range(self.size):
                if free - i <= 0:
                    p = 0.0
                    break
                p *= (free - i) / (self.total - i)
        self._cache[top] = p
        return p


def _exclusions(view: dict[str, Any]) -> dict[int, set[int]]:
    """Ranks each seat is known not to hold, from the last time it was stuck.

    A seat that drew an unplayable card, passed, or had to play any card in
    Anti-Rank held no card playable on the top card then (RG-4, RG-5, RG-8), and its
    hand has only lost cards since — unless a pull-back (RG-6) gave it new ones.
    """
    pile = view["pile"]
    index = 0
    out: dict[int, set[int]] = {}
    for e in view["log"]:
        kind = e["event"]
        seat = int(e["seat"])
        if kind == "play":
            if e.get("anti_rank"):
                out[seat] = set(answers(rank_of_kind(_KIND_OF[pile[index]])))
            index += 1
        elif (kind == "draw" and not e["played"]) or kind == "pass":
            out[seat] = set(answers(rank_of_kind(_KIND_OF[pile[index]])))
        elif kind == "anti-rank":  # nobody could play on the top card (RG-8)
            stuck = set(answers(rank_of_kind(_KIND_OF[pile[index]])))
            for other in range(len(view["hand_sizes"])):
                out[other] = stuck
        elif kind == "pull-back":
            out.pop(seat, None)
    return out


class _Search:
    """Best play order within one turn, over rank counts (suits never matter: RG-1)."""

    w_cover = 0.25
    w_next = 0.3
    w_draw = 0.0
    w_next_empty = 6.0
    out_value = OUT_VALUE
    pulled_back = PULLED_BACK

    def __init__(self, model: _Opponent, *, stock: int, unseen: list[int]) -> None:
        self.model = model
        self.stock = stock
        self.unseen = unseen
        self.unseen_total = max(1, sum(unseen))
        self.memo: dict[tuple[tuple[int, ...], int], float] = {}
        self.nodes = 0

    def value(self, counts: list[int], top: int) -> float:
        key = (tuple(counts), top)
        cached = self.memo.get(key)
        if cached is not None:
            return cached
        self.nodes += 1
        left = sum(counts)
        if left == 0:
            v = self._out_value(top)
        else:
            moves = allowed(counts, top) if self.nodes < NODE_LIMIT else []
            if not moves:
                w_next = self.w_next if self.stock else self.w_next_empty
                v = -left + self.w_cover * _coverage(counts) + w_next * self.model.p_stuck(top)
                if self.w_draw and self.stock:
                    v += self.w_draw * sum(self.unseen[r] for r in answers(top)) / self.unseen_total
            else:
                v = float("-inf")
                for r in moves:
                    counts[r] -= 1
                    v = max(v, self.value(counts, r))
                    counts[r] += 1
        self.memo[key] = v
        return v

    def _out_value(self, last: int) -> float:
        if self.stock == 0:
            return self.out_value
        p = self.model.p_stuck(last)
        return p * self.out_value + (1 - p) * self.pulled_back
