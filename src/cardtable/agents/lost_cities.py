"""A rule-based Lost Cities player that reads only what its seat sees (LC-8).

How it plays
    * **Commits to a few colours.**  Each colour gets a projected LC-6 score
      (:func:`_plan`): the cards of that colour it can still
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

One implementation, two readers
    The decisions (:func:`policy_action`, and :func:`ranked_moves` for the
    search's candidates) are computed on card-set ints — the layout at the top
    of :mod:`cardtable.games.lost_cities` — through the few reads of
    :class:`LostCitiesTable`: the seat to move's hand, both expeditions, the
    discard-pile tops, the draw-pile count, the opponent's hand *size* and the
    cards the opponent took from discard piles (LC-8).  A
    :class:`~cardtable.games.lost_cities.LostCitiesState` offers these reads
    itself (the search's play-outs call :func:`policy_action` on sampled worlds,
    about 10 µs a move); the bot (:class:`LostCitiesHeuristic`) parses its
    seat's JSON view into a :class:`ViewTable` and calls the same function.

    A colour's plan depends only on the four 16-bit fields of that colour (own
    hand, own and opposing expedition, the opponent's known cards) plus a few
    per-turn numbers, so the per-colour facts are computed once per field
    combination and cached (:func:`_colour_facts`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Final, Protocol

from cardtable.agents.base import Agent, Observation
from cardtable.cards import COLOR_LETTERS, EXPEDITION_NAMES
from cardtable.games.lost_cities import DRAW, card_set, card_set_size
from cardtable.protocol import JSON, Game

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




class LostCitiesTable(Protocol):
    """What the heuristic reads of a position: the seat to move's side of the table.

    :class:`~cardtable.games.lost_cities.LostCitiesState` provides these reads (its
    fast accessors), and so does :class:`ViewTable` from a seat's JSON view.  Card
    sets are in the layout of :mod:`cardtable.games.lost_cities`; the heuristic asks
    for the hand of the seat to move only."""

    @property
    def colors(self) -> int: ...
    @property
    def phase(self) -> int: ...
    @property
    def draw_pile_size(self) -> int: ...
    @property
    def drawable_piles(self) -> int: ...
    def current_player(self) -> int: ...
    def discard_top(self, colour: int) -> int: ...
    def hand_set(self, seat: int) -> int: ...
    def hand_size(self, seat: int) -> int: ...
    def expedition_set(self, seat: int) -> int: ...
    def known_set(self, seat: int) -> int: ...


class ViewTable:
    """A :class:`LostCitiesTable` read from the JSON view of the seat to move (LC-8)."""

    __slots__ = ("colors", "phase", "draw_pile_size", "drawable_piles", "_player", "_hand",
                 "_hand_sizes", "_expeditions", "_known", "_tops")

    def __init__(self, view: dict[str, JSON]) -> None:
        v: dict[str, Any] = view
        me: int = v["player"]
        if v["current_player"] != me:
            raise ValueError(f"the view is seat {me}'s, but seat {v['current_player']} is to move")
        colors = len(v["colors"])
        letters = COLOR_LETTERS[:colors]
        self._player = me
        self.colors = colors
        self.phase = DRAW if v["phase"] == "draw" else 0
        self.draw_pile_size: int = v["draw_pile"]
        self._hand = card_set(_KIND_OF[n] for n in v["hand"])
        sizes = [0, 0]
        sizes[me], sizes[1 - me] = card_set_size(self._hand), v["opponent_hand_size"]
        self._hand_sizes = sizes
        self._expeditions = [card_set(_KIND_OF[n] for names in side.values() for n in names)
                             for side in v["expeditions"]]
        known = [0, 0]
        known[1 - me] = card_set(_KIND_OF[n] for n in v["opponent_known"])
        self._known = known
        piles = [v["discards"][letter] for letter in letters]
        self._tops = [_KIND_OF[pile[-1]] if pile else -1 for pile in piles]
        self.drawable_piles = sum(1 << c for c, pile in enumerate(piles) if pile and letters[c] != v["banned"])

    def current_player(self) -> int:
        return self._player

    def discard_top(self, colour: int) -> int:
        return self._tops[colour]

    def hand_set(self, seat: int) -> int:
        if seat != self._player:
            raise ValueError(f"seat {self._player}'s view does not show seat {seat}'s hand (LC-8)")
        return self._hand

    def hand_size(self, seat: int) -> int:
        return self._hand_sizes[seat]

    def expedition_set(self, seat: int) -> int:
        return self._expeditions[seat]

    def known_set(self, seat: int) -> int:
        """What the view shows of the cards ``seat`` took from piles: the opponent's (LC-8);
        the viewer's own count as part of its hand."""
        return self._known[seat]


# --- per-value tables of one colour's 16-bit field (bit v: value index v, 1..9 numbers) ---
_FACE: Final = [sum(v + 1 for v in range(1, 10) if m >> v & 1) for m in range(1024)]
"""Face total of the number cards of a 10-bit value mask."""
_COUNT: Final = [bin(m & 0x3FE).count("1") for m in range(1024)]
"""Number cards of a value mask."""
_LOW: Final = [next((v for v in range(1, 10) if m >> v & 1), 10) for m in range(1024)]
"""Lowest number value index of a mask (10 when there is none)."""
_HIGH: Final = [max((v for v in range(1, 10) if m >> v & 1), default=0) for m in range(1024)]
"""Highest number value index of a mask (0 when there is none)."""
_ABOVE: Final = [0x3FE & ~((1 << t) - 1) for t in range(16)]
"""Number values an expedition in state ``t`` (see :func:`_colour_facts`) can still take."""
_UPTO: Final = [(1 << (v + 1)) - 1 for v in range(11)]
"""Values 0..v."""
_FIELD_LOW15: Final = sum(0x7FFF << (16 * c) for c in range(6))
_FIELD_BIT15: Final = sum(0x8000 << (16 * c) for c in range(6))


def _started(expedition: int) -> int:
    """How many colours of an expedition card set hold a card: per 16-bit field, bit 15
    ends up set iff the field is not zero (the low 15 bits plus 0x7FFF carry into it)."""
    return ((((expedition & _FIELD_LOW15) + _FIELD_LOW15) | expedition) & _FIELD_BIT15).bit_count()


def _plan(nums: int, hw: int, total_e: int, count_e: int, w0: int, live: int, rate: float,
          turns: int, margin: float, cons: float, wmin: int) -> tuple[float, int, int]:
    """The projection of one colour: ``(value, wagers to lay first, cards still to lay)``,
    cards ``-1`` for a colour better left alone (value 0).

    ``nums``: hand number values above the expedition's top; ``hw``: hand wagers still
    placeable; ``total_e``/``count_e``/``w0``: the expedition's face total, cards and
    wagers (``count_e == 0``: not started); ``live``: values above the top still unseen
    or on a discard pile; ``rate``: the chance one live card reaches the hand in time;
    ``turns``: turns left; ``margin``: what a new expedition must promise; ``cons`` and
    ``wmin``: the style's ``conservative`` and ``wager_min_numbers``.

    The future is ``rate`` times the faces of the live cards above the lowest hand card
    plus half that for the ones below it (they can be laid only by skipping it); the
    LC-6 score of the plan is ``(faces - 20) * (1 + wagers)`` plus the 20-point bonus
    when eight cards are expected.  Each extra wager is tried on the conservative
    projection (``cons`` times the future), with time left to lay it."""
    n = _COUNT[nums]
    total = total_e + _FACE[nums]
    count = count_e + n
    low = _LOW[nums]
    hi = live & ~_UPTO[low]
    lo = live ^ hi
    half = rate * 0.5
    future = rate * _FACE[hi] + half * _FACE[lo]
    future_n = rate * _COUNT[hi] + half * _COUNT[lo]
    best = (total + future - 20) * (1 + w0) + (20 if count + future_n >= 8 else 0)
    best_w = 0
    if hw and n + (total_e > 0) >= wmin:
        cautious = total + cons * future - 20
        for w in range(1, hw + 1):
            if n + w > turns - 1 or cautious <= 0:
                break
            value = cautious * (1 + w0 + w) + (20 if count + w + future_n >= 8 else 0)
            if value > best:
                best, best_w = value, w
    if count_e:
        return best, best_w, n + best_w
    if (not n and not best_w) or best < margin or n + best_w > turns:
        return 0.0, 0, -1
    return best, best_w, n + best_w


def _opp_use(v: int, otop: int, ow: int, interest: int) -> float:
    """How much value index ``v`` of a colour on a discard pile could help the opponent,
    whose expedition of the colour has top ``otop`` (-1 none, 0 wagers only) and ``ow``
    wagers, and who took ``interest`` cards of it from the piles: nothing below their top
    (or a wager after their first number), a lot for a colour they run, a little for one
    they show interest in."""
    if otop >= 1 and v <= otop:
        return 0.0
    if otop >= 0:
        return (v + 1 if v else 5.0) * (1 + ow) + 2.0
    if v == 0:
        return 1.0 + 2.0 * interest
    return 0.25 * (v + 1) + 2.0 * interest


_Facts = tuple[Any, ...]
_INFO: dict[int, _Facts] = {}
"""Per-colour facts (:func:`_colour_facts`) by the colour's four 16-bit fields."""


def _colour_facts(key: int) -> _Facts:
    """Facts of one colour from its fields ``hand | exp << 16 | opp_exp << 32 | opp_known << 48``:
    ``(t, nums, hw, allw, total_e, count_e, w0, live, livemask, otop, ow, interest, uses,
    gap, mult, low)``.

    ``t``: the expedition's state (0 nothing placed, 1 wagers only, ``v + 1`` top number
    value index ``v``); ``nums``/``hw``/``allw``: hand numbers above the top, placeable
    and all hand wagers; ``total_e``/``count_e``/``w0``: the expedition's faces, cards
    and wagers; ``live``/``livemask``: values not seen anywhere (or on a pile) above the
    top / in all; ``otop``/``ow``/``interest``: see :func:`_opp_use`; ``uses``:
    ``(use to the opponent, value)`` of each hand card of the colour; ``gap``: faces of
    the live cards that laying the lowest playable hand card ``low`` skips, ``mult``
    their multiplier (wagers laid and held, plus one)."""
    hf = key & 0xFFFF
    ef = (key >> 16) & 0xFFFF
    of = (key >> 32) & 0xFFFF
    kf = key >> 48
    w0 = ef >> 14
    enums = ef & 0x3FE
    t = _HIGH[enums] + 1 if enums else (1 if w0 else 0)
    above = _ABOVE[t]
    livemask = ~(hf | kf | ef | of) & 0x3FE
    ohigh = _HIGH[of & 0x3FE]
    otop = ohigh if ohigh else (0 if of else -1)
    ow = of >> 14
    interest = _COUNT[kf & 0x3FE] + (kf >> 14)
    nums = hf & above
    uses = tuple((_opp_use(v, otop, ow, interest), v) for v in range(10) if hf >> v & 1)
    low = _LOW[nums]
    gap = livemask & ~_UPTO[t - 1 if t > 1 else 0] & _UPTO[low - 1] if nums else 0
    faces = tuple(v + 1 for v in range(1, 10) if gap >> v & 1)
    return (t, nums, hf >> 14 if t <= 1 else 0, hf >> 14, _FACE[enums], w0 + _COUNT[enums], w0,
            livemask & above, livemask, otop, ow, interest, uses, faces, 1 + w0 + (hf >> 14), low)


class _Seat:
    """The seat to move in the heuristic's terms: card sets, the per-turn numbers
    (``rate``, ``turns``, ``margin``) and its colours' facts (on demand)."""

    __slots__ = ("table", "C", "hand", "exp", "oexp", "known", "facts", "rate", "turns", "margin", "draw_pile",
                 "style", "cons", "wmin")

    def __init__(self, table: LostCitiesTable, style: LostCitiesStyle) -> None:
        p = table.current_player()
        self.style = style
        self.cons = style.conservative
        self.wmin = style.wager_min_numbers
        self.table = table
        self.C = table.colors
        self.hand = table.hand_set(p)
        exp = self.exp = table.expedition_set(p)
        self.oexp = table.expedition_set(1 - p)
        kn = self.known = table.known_set(1 - p)
        self.facts: list[_Facts | None] = [None] * self.C
        draw_pile = self.draw_pile = table.draw_pile_size
        turns = (draw_pile + 1) >> 1  # both draw from the deck
        self.turns = turns if turns > 1 else 1
        opp_hidden = table.hand_size(1 - p) - (card_set_size(kn) if kn else 0)
        pool = draw_pile + (opp_hidden if opp_hidden > 0 else 0)
        self.rate = style.future_share * min(1.0, self.turns / pool) if pool > 0 else 0.0
        self.margin = style.start_margin + style.extra_margin * max(0, _started(exp) - 1)

    def colour(self, c: int) -> _Facts:
        got = self.facts[c]
        if got is None:
            sh = 16 * c
            key = ((self.hand >> sh) & 0xFFFF | ((self.exp >> sh) & 0xFFFF) << 16
                   | ((self.oexp >> sh) & 0xFFFF) << 32 | ((self.known >> sh) & 0xFFFF) << 48)
            got = _INFO.get(key)
            if got is None:
                if len(_INFO) > 500_000:
                    _INFO.clear()
                got = _INFO[key] = _colour_facts(key)
            self.facts[c] = got
        return got


def _play_options(seat: _Seat, every: bool = False
                  ) -> tuple[list[tuple[float, int]], list[tuple[float, int]], float]:
    """The play-phase costs: ``(plays, discards, tempo)``, plays and discards as ``(cost,
    kind)``; the heuristic plays the cheapest play if it costs at most the cheapest
    discard plus ``tempo`` (the style's ``tempo_weight`` times the cards its plans still
    have to lay per turn left).

    A play is the lowest playable number of each colour in the plan (or its wager, at no
    cost, when the plan lays wagers first); it costs the expected points of the live
    cards it skips.  A discard costs what the card adds to its colour's plan (at least 0)
    plus its use to the opponent; the cards are costed in order of the latter, and once
    that alone exceeds the cheapest discard found the rest cannot win — unless
    ``every``, only the discards up to there are listed."""
    rate = seat.rate
    turns = seat.turns
    margin = seat.margin
    cons, wmin = seat.cons, seat.wmin
    hand, exp, oexp, known = seat.hand, seat.exp, seat.oexp, seat.known
    info = _INFO
    plays: list[tuple[float, int]] = []
    uses: list[tuple[float, int]] = []
    per_colour: list[tuple[Any, ...]] = []
    pending = 0
    for c in range(seat.C):
        sh = 16 * c
        key = ((hand >> sh) & 0xFFFF | ((exp >> sh) & 0xFFFF) << 16
               | ((oexp >> sh) & 0xFFFF) << 32 | ((known >> sh) & 0xFFFF) << 48)
        f = info.get(key)  # (inlined seat.colour: the hot path)
        if f is None:
            f = seat.colour(c)
        (_, nums, hw, _, total_e, count_e, w0, live, _, _, _, _,
         card_uses, gap, mult, low) = f
        value, wagers, cards = _plan(nums, hw, total_e, count_e, w0, live, rate, turns, margin, cons, wmin)
        per_colour.append((value, nums, hw, total_e, count_e, w0, live))
        if cards >= 0:
            pending += cards
            if wagers:
                plays.append((0.0, 10 * c))
            elif nums:
                cost = 0.0
                for face in gap:  # summed card by card (float ties break the same way every time)
                    cost += face * rate * mult
                plays.append((cost, 10 * c + low))
        base = 10 * c
        for use, v in card_uses:
            uses.append((use, base + v))
    uses.sort()
    discards: list[tuple[float, int]] = []
    best = (math.inf, 0)
    for use, k in uses:
        if not every and (use, k) > best:
            break
        c, v = divmod(k, 10)
        value, nums, hw, total_e, count_e, w0, live = per_colour[c]
        marginal = 0.0
        if v:
            low = 1 << v
            if nums & low:
                rest = _plan(nums ^ low, hw, total_e, count_e, w0, live, rate, turns, margin, cons, wmin)[0]
                if value > rest:
                    marginal = value - rest
        elif hw:
            rest = _plan(nums, hw - 1, total_e, count_e, w0, live, rate, turns, margin, cons, wmin)[0]
            if value > rest:
                marginal = value - rest
        row = (marginal + use, k)
        discards.append(row)
        if row < best:
            best = row
    return plays, discards, seat.style.tempo_weight * pending / turns


def _draw_options(seat: _Seat) -> list[tuple[float, float, int]]:
    """The draw-phase options ``(gain + denial, gain, colour)`` of each pile the seat may
    take from: ``gain`` what its top card adds to the colour's plan, ``denial`` the
    style's weight of the card's use to the opponent."""
    table = seat.table
    avail = table.drawable_piles
    options: list[tuple[float, float, int]] = []
    rate, turns, margin, cons, wmin = seat.rate, seat.turns, seat.margin, seat.cons, seat.wmin
    denial = seat.style.denial
    while avail:
        bit = avail & -avail
        avail ^= bit
        c = bit.bit_length() - 1
        v = table.discard_top(c) % 10
        f = seat.colour(c)
        t, nums, hw = f[0], f[1], f[2]
        gain = 0.0
        if v:
            if _ABOVE[t] >> v & 1:
                base = _plan(nums, hw, f[4], f[5], f[6], f[7], rate, turns, margin, cons, wmin)[0]
                more = _plan(nums | (1 << v), hw, f[4], f[5], f[6], f[7], rate, turns, margin, cons, wmin)[0]
                if more > base:
                    gain = more - base
        elif t <= 1:
            base = _plan(nums, hw, f[4], f[5], f[6], f[7], rate, turns, margin, cons, wmin)[0]
            more = _plan(nums, hw + 1, f[4], f[5], f[6], f[7], rate, turns, margin, cons, wmin)[0]
            if more > base:
                gain = more - base
        options.append((gain + denial * _opp_use(v, f[9], f[10], f[11]), gain, c))
    return options


def _pending(seat: _Seat) -> int:
    """Cards the seat's plans still have to lay."""
    pending = 0
    rate, turns, margin, cons, wmin = seat.rate, seat.turns, seat.margin, seat.cons, seat.wmin
    for c in range(seat.C):
        f = seat.colour(c)
        cards = _plan(f[1], f[2], f[4], f[5], f[6], f[7], rate, turns, margin, cons, wmin)[2]
        if cards > 0:
            pending += cards
    return pending


STALL_REACH: Final = 2 * 7 + 2
"""The heuristic stalls only with ``draw_pile <= 2 * pending + 2`` and ``pending`` is at
most the 7 cards held in the draw phase."""


def policy_action(table: LostCitiesTable, style: LostCitiesStyle = STYLES["steady"]) -> int:
    """The heuristic's move (playing ``style``) for the seat to move of an ongoing round:
    ``table`` is a :class:`~cardtable.games.lost_cities.LostCitiesState` (the search's
    sampled worlds) or a :class:`ViewTable`."""
    if table.phase:
        dd = 20 * table.colors
        if not table.drawable_piles:
            return dd
        seat = _Seat(table, style)
        best = max(_draw_options(seat))
        if best[0] > style.deck_value and best[1] > 0:
            return dd + 1 + best[2]
        if seat.draw_pile <= STALL_REACH:  # stall while more placements wait than turns remain
            pending = _pending(seat)
            if seat.draw_pile <= 2 * pending + 2 and pending > seat.turns - 1:
                return dd + 1 + best[2]
        return dd
    plays, discards, tempo = _play_options(_Seat(table, style))
    best_discard = min(discards)
    if plays:
        best_play = min(plays)
        if best_play[0] <= best_discard[0] + tempo:
            k = best_play[1]
            return 20 * (k // 10) + k % 10
    k = best_discard[1]
    return 20 * (k // 10) + 10 + k % 10


def ranked_moves(table: LostCitiesTable, style: LostCitiesStyle = STYLES["steady"]) -> list[tuple[float, int]]:
    """Every move the heuristic weighs, as ``(cost, action)``, its choice first, then the
    rest cheapest first.  Play phase: discards at their cost, plays at their cost minus
    the tempo term; draw phase: each pile by minus its gain, the deck at minus the
    style's ``deck_value`` (stalling aside, the heuristic takes a pile only when it
    beats that)."""
    seat = _Seat(table, style)
    choice = policy_action(table, style)
    out: list[tuple[float, int]] = []
    if table.phase:
        dd = 20 * seat.C
        out = [(-o[0], dd + 1 + o[2]) for o in _draw_options(seat)]
        out.append((-style.deck_value, dd))
    else:
        plays, discards, tempo = _play_options(seat, every=True)
        out = [(cost - tempo, 20 * (k // 10) + k % 10) for cost, k in plays]
        out += [(cost, 20 * (k // 10) + 10 + k % 10) for cost, k in discards]
    out.sort()
    first = [row for row in out if row[1] == choice]
    rest = [row for row in out if row[1] != choice]
    return first + rest


class LostCitiesHeuristic(Agent):
    """Commit to good colours, wager with strength, play in order, discard safely,
    take useful discards, stall when extra turns pay: :func:`policy_action` on the
    seat's view."""

    name = "heuristic"

    def __init__(self, game: Game, *, seed: int = 0, style: str = "steady") -> None:
        """``style``: a name from :data:`STYLES` (default ``steady``, the baseline)."""
        super().__init__(game, seed=seed)
        chosen = STYLES.get(style)
        if chosen is None:
            raise ValueError(f"unknown style {style!r}; choose from: {', '.join(STYLES)}")
        self.style = chosen

    def act(self, obs: Observation) -> int:
        legal = obs.legal_actions
        if len(legal) == 1:
            return legal[0]
        return policy_action(ViewTable(obs.view), self.style)
