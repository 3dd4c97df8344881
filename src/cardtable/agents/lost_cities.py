"""A rule-based Lost Cities player that reads only its seat's view (LC-8).

How it plays
    * **Commits to a few colours.**  Each colour gets a projected LC-6 score
      (:meth:`LostCitiesHeuristic.plan`): the cards of that colour it can still
      place from its hand plus a discounted share of the live cards above them
      (unseen or on a discard pile).  It starts an expedition only when the
      projection beats a margin that grows with every expedition it already
      runs, and only if the cards fit in the turns left.
    * **Wagers early, and only with enough high cards**: a wager is part of the
      plan only if the *conservative* projection (hand cards plus a smaller
      share of the future) keeps ``sum - 20`` clearly positive, with at least
      three number cards of the colour in hand and time to lay them.
    * **Plays in ascending order without skipping much**: only the lowest
      playable card of a colour is a candidate, and playing it costs the
      expected value of the live cards it skips.  It plays when that cost is
      below the cost of its cheapest discard (plus a tempo penalty when it is
      running out of turns), so free plays go first and big jumps wait.
    * **Discards what the opponent cannot use**: a discard costs what the card
      is worth to its own plans plus what it is worth to the opponent — zero
      for cards below the opponent's expedition top (or wagers after their
      first number) in colours they have started, little for colours they
      show no interest in, a lot for cards that extend their expeditions.
    * **Draws useful discards**: a pile top whose marginal value to its plans
      (plus a little for denying it to the opponent) beats an average deck
      card; otherwise it draws from the deck.
    * **Stalls near the end when it is ahead on cards to place**: when it still
      holds more profitable placements than the turns left, it takes a
      discard-pile card instead of a draw-pile card, so the round lasts longer
      (LC-5).  It never stalls when the extra turns would not help it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardtable.agents.base import Agent, Observation
from cardtable.cards import COLOR_LETTERS, EXPEDITION_NAMES
from cardtable.protocol import Game

_KIND_OF = {name: k for k, name in enumerate(EXPEDITION_NAMES)}

START_MARGIN = 0.0
"""Projected score a first expedition must promise before the bot starts it."""
EXTRA_EXPEDITION_MARGIN = 6.0
"""Added to the margin for every expedition already under way beyond the second."""
WAGER_MIN_NUMBERS = 3
"""Number cards of the colour in hand (or placed) needed before wagering."""
FUTURE_SHARE = 0.6
"""Share of live cards above the lowest card in hand that the bot counts on."""
CONSERVATIVE = 0.9
"""Extra discount on the future when deciding on wagers."""
DECK_VALUE = 2.5
"""What an average draw-pile card is worth to the plans (for draw decisions)."""
DENIAL = 0.25
"""Weight of denying a pile top to the opponent when deciding to take it."""
TEMPO_WEIGHT = 6.0
"""Cost of a discard per (cards waiting to be laid / turns left)."""


@dataclass(frozen=True)
class LostCitiesStyle:
    """The heuristic's settings (defaults: the module constants above)."""

    start_margin: float = START_MARGIN
    extra_margin: float = EXTRA_EXPEDITION_MARGIN
    wager_min_numbers: int = WAGER_MIN_NUMBERS
    future_share: float = FUTURE_SHARE
    conservative: float = CONSERVATIVE
    deck_value: float = DECK_VALUE
    denial: float = DENIAL
    tempo_weight: float = TEMPO_WEIGHT


STYLES: dict[str, LostCitiesStyle] = {
    "steady": LostCitiesStyle(),
    "bold": LostCitiesStyle(start_margin=-3.0, wager_min_numbers=2, conservative=1.15),
}
"""Named styles of :class:`LostCitiesHeuristic` (``heuristic:style=bold``).

``steady`` is the baseline bot (the ``heuristic`` of the targets in docs/strength.md).
``bold`` wagers with two number cards instead of three, counts the whole expected
future when it weighs a wager and starts a colour a little more readily; tuned by
playing it against ``steady`` (2000 matches per setting) it wins about 62 % of
5-colour matches.  The search agents play ``bold`` themselves in their play-outs
(:mod:`cardtable.agents.knowledge.lost_cities`)."""


def _number(kind: int) -> int:
    """Face value 2..10 of a number card, 0 for a wager."""
    v = kind % 10
    return 0 if v == 0 else v + 1


@dataclass
class _Side:
    """One player's expeditions, per colour."""

    top: list[int]
    """Highest value index placed (0 = only wagers, -1 = nothing)."""
    wagers: list[int]
    total: list[int]
    count: list[int]


@dataclass
class _Table:
    """The view parsed into kinds and per-colour numbers."""

    colors: int
    hand: list[int]
    me: _Side
    opp: _Side
    piles: list[list[int]]
    draw_pile: int
    banned: int | None
    opp_known: list[int]
    opp_hidden: int
    live: list[int]
    """Per kind: copies that are unseen or lie on a discard pile (could still come to us)."""

    @property
    def turns(self) -> int:
        """Turns this player still gets if both draw from the deck."""
        return max(1, (self.draw_pile + 1) // 2)


@dataclass(frozen=True)
class Plan:
    """A projected expedition of one colour."""

    value: float
    """Projected LC-6 score (0 for a colour better left alone)."""
    wagers: int
    """Wagers from the hand worth laying first."""
    cards: int
    """Hand cards the plan still has to lay down."""
    active: bool
    """Whether the colour is (or should be) played at all."""


def _side(expeditions: dict[str, list[str]], colors: int) -> _Side:
    side = _Side([-1] * colors, [0] * colors, [0] * colors, [0] * colors)
    for c in range(colors):
        for name in expeditions[COLOR_LETTERS[c]]:
            k = _KIND_OF[name]
            v = k % 10
            side.top[c] = max(side.top[c], v)
            side.count[c] += 1
            if v == 0:
                side.wagers[c] += 1
            else:
                side.total[c] += v + 1
    return side


def parse_view(view: dict[str, Any]) -> _Table:
    """The parts of a Lost Cities view the heuristic uses."""
    colors = len(view["colors"])
    me = view["player"]
    hand = sorted(_KIND_OF[n] for n in view["hand"])
    piles = [[_KIND_OF[n] for n in view["discards"][COLOR_LETTERS[c]]] for c in range(colors)]
    known = [_KIND_OF[n] for n in view["opponent_known"]]
    live = [3 if k % 10 == 0 else 1 for k in range(10 * colors)]
    for k in hand + known:
        live[k] -= 1
    for s in range(2):
        for names in view["expeditions"][s].values():
            for n in names:
                live[_KIND_OF[n]] -= 1
    return _Table(
        colors=colors,
        hand=hand,
        me=_side(view["expeditions"][me], colors),
        opp=_side(view["expeditions"][1 - me], colors),
        piles=piles,
        draw_pile=view["draw_pile"],
        banned=None if view["banned"] is None else COLOR_LETTERS.index(view["banned"]),
        opp_known=known,
        opp_hidden=max(0, view["opponent_hand_size"] - len(known)),
        live=live,
    )


class LostCitiesHeuristic(Agent):
    """Commit to good colours, wager with strength, play in order, discard safely,
    take useful discards, stall when extra turns pay."""

    name = "heuristic"

    stalls = True
    stall_slack = 1

    def __init__(self, game: Game, *, seed: int = 0, style: str = "steady") -> None:
        """``style``: a name from :data:`STYLES` (default ``steady``, the baseline)."""
        super().__init__(game, seed=seed)
        chosen = STYLES.get(style)
        if chosen is None:
            raise ValueError(f"unknown style {style!r}; choose from: {', '.join(STYLES)}")
        self.style = chosen
        self.start_margin = chosen.start_margin
        self.extra_margin = chosen.extra_margin
        self.wager_min_numbers = chosen.wager_min_numbers
        self.future_share = chosen.future_share
        self.conservative = chosen.conservative
        self.deck_value = chosen.deck_value
        self.denial = chosen.denial
        self.tempo_weight = chosen.tempo_weight

    # --- evaluation ------------------------------------------------------------
    def _rate(self, t: _Table) -> float:
        """Chance that one live card reaches this hand while it can still be laid."""
        pool = t.draw_pile + t.opp_hidden
        if pool <= 0:
            return 0.0
        return self.future_share * min(1.0, t.turns / pool)

    @staticmethod
    def _playable(t: _Table, kind: int) -> bool:
        c, v = divmod(kind, 10)
        top = t.me.top[c]
        return v > top or (v == 0 and top == 0)

    def _margin(self, t: _Table) -> float:
        running = sum(1 for n in t.me.count if n)
        return self.start_margin + self.extra_margin * max(0, running - 1)

    def plan(self, t: _Table, c: int, hand: list[int] | None = None) -> Plan:
        """The best projection of colour ``c`` with ``hand`` (default: the hand held)."""
        cards = t.hand if hand is None else hand
        top = t.me.top[c]
        numbers = [k for k in cards if k // 10 == c and k % 10 and k % 10 > top]
        hand_wagers = sum(1 for k in cards if k == 10 * c) if top <= 0 else 0
        total = t.me.total[c] + sum(_number(k) for k in numbers)
        count = t.me.count[c] + len(numbers)
        lowest = min((k % 10 for k in numbers), default=10)
        rate = self._rate(t)
        future = future_n = 0.0
        for v in range(max(top, 0) + 1, 10):
            n = t.live[10 * c + v]
            if n > 0:
                share = rate if v > lowest else rate * 0.5
                future += share * (v + 1)
                future_n += share
        started = t.me.count[c] > 0
        wagers0 = t.me.wagers[c]
        best_value = (total + future - 20) * (1 + wagers0) + (20 if count + future_n >= 8 else 0)
        best_w = 0
        enough = len(numbers) + (t.me.total[c] > 0) >= self.wager_min_numbers
        for w in range(1, hand_wagers + 1):
            if not enough or len(numbers) + w > t.turns - 1:
                break
            cautious = total + self.conservative * future - 20
            if cautious <= 0:
                break
            value = cautious * (1 + wagers0 + w) + (20 if count + w + future_n >= 8 else 0)
            if value > best_value:
                best_value, best_w = value, w
        if started:
            return Plan(best_value, best_w, len(numbers) + best_w, True)
        if not numbers and not best_w:
            return Plan(0.0, 0, 0, False)
        margin = self._margin(t)
        if best_value < margin or len(numbers) + best_w > t.turns:
            return Plan(0.0, 0, 0, False)
        return Plan(best_value, best_w, len(numbers) + best_w, True)

    def _marginal(self, t: _Table, kind: int) -> float:
        """What ``kind`` (held) adds to its colour's plan."""
        rest = list(t.hand)
        rest.remove(kind)
        c = kind // 10
        return max(0.0, self.plan(t, c).value - self.plan(t, c, rest).value)

    def _gain(self, t: _Table, kind: int) -> float:
        """What ``kind`` (not held) would add to its colour's plan."""
        c = kind // 10
        return max(0.0, self.plan(t, c, t.hand + [kind]).value - self.plan(t, c).value)

    def _gap_cost(self, t: _Table, kind: int) -> float:
        """Expected points lost by laying ``kind`` now over the live cards it skips."""
        c, v = divmod(kind, 10)
        top = max(t.me.top[c], 0)
        held = set(t.hand)
        rate = self._rate(t)
        multiplier = 1 + t.me.wagers[c] + sum(1 for k in t.hand if k == 10 * c)
        cost = 0.0
        for w in range(top + 1, v):
            k = 10 * c + w
            if k not in held and t.live[k] > 0:
                cost += (w + 1) * rate * multiplier
        return cost

    def _opp_use(self, t: _Table, kind: int) -> float:
        """How much ``kind`` on a discard pile could help the opponent."""
        c, v = divmod(kind, 10)
        top = t.opp.top[c]
        if top >= 1 and v <= top:
            return 0.0  # below their expedition top (or a wager after numbers): dead for them
        interest = sum(1 for k in t.opp_known if k // 10 == c)
        if top >= 0:  # an expedition they run
            return (v + 1 if v else 5.0) * (1 + t.opp.wagers[c]) + 2.0
        if v == 0:
            return 1.0 + 2.0 * interest
        return 0.25 * (v + 1) + 2.0 * interest

    def _pending(self, t: _Table) -> int:
        return sum(p.cards for p in (self.plan(t, c) for c in range(t.colors)) if p.active)

    # --- decisions -------------------------------------------------------------
    def act(self, obs: Observation) -> int:
        legal = obs.legal_actions
        if len(legal) == 1:
            return legal[0]
        t = parse_view(obs.view)
        names = {obs.game.action_name(a): a for a in legal}
        if obs.view["phase"] == "play":
            choice = self._play_phase(t)
        else:
            choice = self._draw_phase(t, names)
        return names.get(choice, legal[0])

    def _play_phase(self, t: _Table) -> str:
        plays: list[tuple[float, int]] = []
        for c in range(t.colors):
            plan = self.plan(t, c)
            if not plan.active:
                continue
            if plan.wagers:
                plays.append((0.0, 10 * c))
                continue
            numbers = sorted(k for k in t.hand if k // 10 == c and k % 10 and self._playable(t, k))
            if numbers:
                plays.append((self._gap_cost(t, numbers[0]), numbers[0]))
        discards = [(self._marginal(t, k) + self._opp_use(t, k), k) for k in sorted(set(t.hand))]
        pending = self._pending(t)
        tempo = self.tempo_weight * pending / t.turns
        best_discard = min(discards)
        if plays:
            best_play = min(plays)
            if best_play[0] <= best_discard[0] + tempo:
                return "play " + EXPEDITION_NAMES[best_play[1]]
        return "discard " + EXPEDITION_NAMES[best_discard[1]]

    def _draw_phase(self, t: _Table, names: dict[str, int]) -> str:
        options: list[tuple[float, float, int]] = []  # (gain incl. denial, usefulness to us, colour)
        for c in range(t.colors):
            if not t.piles[c] or f"draw {COLOR_LETTERS[c]}" not in names:
                continue
            top = t.piles[c][-1]
            gain = self._gain(t, top)
            options.append((gain + self.denial * self._opp_use(t, top), gain, c))
        if options:
            best = max(options)
            if best[0] > self.deck_value and best[1] > 0:
                return f"draw {COLOR_LETTERS[best[2]]}"
            # stall while more placements are waiting than turns remain
            pending = self._pending(t)
            if self.stalls and t.draw_pile <= 2 * pending + 2 and pending > t.turns - self.stall_slack:
                return f"draw {COLOR_LETTERS[best[2]]}"
        return "draw deck"
