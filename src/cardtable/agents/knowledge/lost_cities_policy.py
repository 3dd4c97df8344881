"""The Lost Cities heuristic's policy, re-implemented on card-set ints for play-outs.

:class:`~cardtable.agents.lost_cities.LostCitiesHeuristic` reads a JSON view and
costs about 0.2–0.3 ms a decision (plus 0.05 ms for the view).  The search plays
out whole rounds with it, tens of thousands of moves per decision, so this module
computes the same decisions directly from a state's card sets (the layout at the
top of :mod:`cardtable.games.lost_cities`) with lookup tables and a cache of
per-colour facts — about 0.02 ms a move.  It reads only what the seat to move
may see: its own hand, both expeditions, the discard piles, the draw-pile count,
the opponent's hand *size* and the cards the opponent took from discard piles
(LC-8).  In the search it acts on *sampled* worlds only.

The decisions are the heuristic's with the same settings (a
:class:`~cardtable.agents.lost_cities.LostCitiesStyle`, default ``steady``), tie-breaks included:
``tests/test_search.py`` compares them on every decision of several matches,
and 13,413 decisions of 40 matches (5 and 6 colours, some with random moves
mixed in) were all identical.  The arithmetic is regrouped in one place — a
colour's projected future is ``rate * (faces above the lowest hand card) +
rate / 2 * (faces below)`` rather than a sum card by card — so a floating-point
tie could in principle break the other way.

:func:`policy_action` is the move; :func:`ranked_moves` the heuristic's cost of
every move it weighs (the search's candidates, its choice first).
"""

from __future__ import annotations

import math
from typing import Any, Final

from cardtable.agents.lost_cities import STYLES, LostCitiesStyle
from cardtable.protocol import State

STEADY: Final = STYLES["steady"]

_FACE: Final = [sum(v + 1 for v in range(1, 10) if m >> v & 1) for m in range(1024)]
"""Face total of the number cards of a 10-bit value mask (bit v = value index v)."""
_COUNT: Final = [bin(m & 0x3FE).count("1") for m in range(1024)]
_LOW: Final = [next((v for v in range(1, 10) if m >> v & 1), 10) for m in range(1024)]
"""Lowest number value index of a mask (10 when there is none)."""
_HIGH: Final = [max((v for v in range(1, 10) if m >> v & 1), default=0) for m in range(1024)]
_ABOVE: Final = [0x3FE & ~((1 << t) - 1) for t in range(16)]
"""Number values a colour in state t (top + 1) can still take: v >= max(t, 1)."""
_UPTO: Final = [(1 << (v + 1)) - 1 for v in range(11)]
"""Values 0..v."""


def _plan(nums: int, hw: int, total_e: int, count_e: int, w0: int, live: int, rate: float,
          turns: int, margin: float, cons: float, wmin: int) -> tuple[float, int, int]:
    """The heuristic's :meth:`~LostCitiesHeuristic.plan` of one colour: ``(value, wagers,
    cards)``, ``cards < 0`` for a colour left alone (value 0); ``cons``/``wmin``: the
    style's ``conservative`` and ``wager_min_numbers``.

    ``nums``: hand number values above the top; ``hw``: hand wagers still placeable;
    ``total_e``/``count_e``/``w0``: the expedition's face total, cards and wagers
    (``count_e == 0``: not started); ``live``: live values above the top."""
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
    """:meth:`~LostCitiesHeuristic._opp_use` of value ``v`` in a colour whose opponent
    expedition top is ``otop`` (-1 none, 0 wagers only) with ``ow`` wagers."""
    if otop >= 1 and v <= otop:
        return 0.0
    if otop >= 0:
        return (v + 1 if v else 5.0) * (1 + ow) + 2.0
    if v == 0:
        return 1.0 + 2.0 * interest
    return 0.25 * (v + 1) + 2.0 * interest


_WLO: Final = sum(1 << (16 * c + 14) for c in range(6))
_WHI: Final = sum(1 << (16 * c + 15) for c in range(6))
_NUMBITS: Final = sum(0x3FE << (16 * c) for c in range(6))
_FIELD_ONES: Final = sum(1 << (16 * c) for c in range(6))

_INFO: dict[int, tuple[Any, ...]] = {}
"""Per-colour facts keyed by the four 16-bit fields (hand, expedition, opponent's
expedition, opponent's known cards) of that colour."""


def _size(cards: int) -> int:
    """Cards in a card set (wagers counted)."""
    return (cards & _NUMBITS).bit_count() + (cards & _WLO).bit_count() + 2 * (cards & _WHI).bit_count()


def _colour_facts(key: int) -> tuple[Any, ...]:
    """``(t, nums, hw, allw, total_e, count_e, w0, live, livemask, otop, ow, interest,
    uses, gap, mult, low)`` of one colour from its fields ``hand | exp << 16 | opp_exp
    << 32 | opp_known << 48``: ``uses`` pairs ``(use to the opponent, value)`` for each
    hand card of the colour, ``gap`` the faces of the live cards that playing the lowest
    playable hand card ``low`` would skip, ``mult`` their multiplier."""
    hf = key & 0xFFFF
    ef = (key >> 16) & 0xFFFF
    of = (key >> 32) & 0xFFFF
    kf = key >> 48
    t = (hf >> 10) & 15
    w0 = ef >> 14
    enums = ef & 0x3FE
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
    """What the seat to move sees, in the heuristic's terms (colours on demand)."""

    __slots__ = ("s", "C", "hand", "exp", "oexp", "known", "facts", "rate", "turns", "margin", "draw_pile",
                 "style", "cons", "wmin")

    def __init__(self, s: Any, style: LostCitiesStyle) -> None:
        p = s._cur
        self.style = style
        self.cons = style.conservative
        self.wmin = style.wager_min_numbers
        self.s = s
        self.C = s._C
        h = self.hand = s._hand[p]
        self.exp = s._exp[p]
        self.oexp = s._exp[1 - p]
        kn = self.known = s._known[1 - p]
        self.facts: list[tuple[Any, ...] | None] = [None] * self.C
        draw_pile = self.draw_pile = len(s._draw) - s._ptr
        turns = (draw_pile + 1) >> 1
        self.turns = turns if turns > 1 else 1
        opp_hidden = _size(s._hand[1 - p]) - (_size(kn) if kn else 0)
        pool = draw_pile + (opp_hidden if opp_hidden > 0 else 0)
        self.rate = style.future_share * min(1.0, self.turns / pool) if pool > 0 else 0.0
        x = h >> 10
        running = ((x | x >> 1 | x >> 2 | x >> 3) & _FIELD_ONES).bit_count()
        self.margin = style.start_margin + style.extra_margin * max(0, running - 1)

    def colour(self, c: int) -> tuple[Any, ...]:
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
    """The heuristic's play-phase costs: ``(plays, discards, tempo)`` with plays and
    discards as ``(cost, kind)``; it plays the cheapest play if its cost is at most
    the cheapest discard's plus ``tempo``.

    A discard costs what the card adds to its colour's plan (at least 0) plus its use
    to the opponent; the cards are costed in order of the latter, and once that alone
    exceeds the cheapest discard found the rest cannot win — unless ``every``, only
    the discards up to there are listed (the cheapest among them)."""
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
        f = info.get(key)
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
                for face in gap:  # summed card by card, as the heuristic does (ties break alike)
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
    """The heuristic's draw-phase options ``(gain + denial, gain, colour)``."""
    s = seat.s
    avail = s._nonempty & ~s._ban
    options: list[tuple[float, float, int]] = []
    piles = s._piles
    rate, turns, margin, cons, wmin = seat.rate, seat.turns, seat.margin, seat.cons, seat.wmin
    denial = seat.style.denial
    while avail:
        bit = avail & -avail
        avail ^= bit
        c = bit.bit_length() - 1
        v = ((piles[c] & 63) - 1) % 10
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


def policy_action(state: State, style: LostCitiesStyle = STEADY) -> int:
    """The heuristic's move (playing ``style``) for the seat to move of a Lost Cities
    state (ongoing)."""
    s: Any = state
    if s._phase:
        dd: int = 20 * s._C
        if not s._nonempty & ~s._ban:
            return dd
        seat = _Seat(s, style)
        best = max(_draw_options(seat))
        if best[0] > style.deck_value and best[1] > 0:
            return dd + 1 + best[2]
        if seat.draw_pile <= STALL_REACH:
            pending = _pending(seat)
            if seat.draw_pile <= 2 * pending + 2 and pending > seat.turns - 1:
                return dd + 1 + best[2]
        return dd
    plays, discards, tempo = _play_options(_Seat(s, style))
    best_discard = min(discards)
    if plays:
        best_play = min(plays)
        if best_play[0] <= best_discard[0] + tempo:
            k = best_play[1]
            return 20 * (k // 10) + k % 10
    k = best_discard[1]
    return 20 * (k // 10) + 10 + k % 10


def ranked_moves(state: State, style: LostCitiesStyle = STEADY) -> list[tuple[float, int]]:
    """Every move the heuristic weighs, as ``(cost, action)``, cheapest (its choice)
    first.  Play phase: discards at their cost, plays at their cost minus the tempo
    term; draw phase: each pile by minus its gain, the deck at minus the style's ``deck_value``
    (stalling aside, the heuristic takes a pile only when it beats that)."""
    s: Any = state
    seat = _Seat(s, style)
    choice = policy_action(state, style)
    out: list[tuple[float, int]] = []
    if s._phase:
        dd = 20 * seat.C
        options = _draw_options(seat)
        out = [(-o[0], dd + 1 + o[2]) for o in options]
        out.append((-style.deck_value, dd))
    else:
        plays, discards, tempo = _play_options(seat, every=True)
        out = [(cost - tempo, 20 * (k // 10) + k % 10) for cost, k in plays]
        out += [(cost, 20 * (k // 10) + 10 + k % 10) for cost, k in discards]
    out.sort()
    first = [row for row in out if row[1] == choice]
    rest = [row for row in out if row[1] != choice]
    return first + rest


__all__ = ["policy_action", "ranked_moves"]
