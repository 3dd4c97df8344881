"""The Lost Cities heuristic's decisions, written once for two runners.

Everything here is a plain function over small ints (16-bit colour fields of the
card-set layout of :mod:`cardtable.games.lost_cities`), floats, tuples and lists of
tuples — the subset numba compiles.  :mod:`cardtable.games.lost_cities.heuristic` calls these
functions as ordinary Python (the bot, the search's play-outs, caching the colour
facts); :mod:`cardtable.games.lost_cities.kernel` compiles the very same functions with
``numba.njit`` for its heuristic play-outs.  The lookup tables are tuples here; the
kernel hands numba the same values as arrays.

A colour's field: bits 0..9 the value indices present (0 the wagers, 1..9 the numbers
2..10), bits 14..15 how many wagers.  ``facts`` are the per-colour tuples of
:func:`colour_facts`; ``rate``, ``turns`` and ``margin`` the per-turn numbers of
:func:`seat_numbers`; ``cons``, ``wmin``, ``tempo_weight``, ``denial`` the style's
``conservative``, ``wager_min_numbers``, ``tempo_weight`` and ``denial``
(:class:`~cardtable.games.lost_cities.heuristic.LostCitiesStyle`).
"""

from __future__ import annotations

import math
from typing import Final

FACE: Final = tuple(sum(v + 1 for v in range(1, 10) if m >> v & 1) for m in range(1024))
"""Face total of the number cards of a 10-bit value mask."""
COUNT: Final = tuple(bin(m & 0x3FE).count("1") for m in range(1024))
"""Number cards of a value mask."""
LOW: Final = tuple(next((v for v in range(1, 10) if m >> v & 1), 10) for m in range(1024))
"""Lowest number value index of a mask (10 when there is none)."""
HIGH: Final = tuple(max((v for v in range(1, 10) if m >> v & 1), default=0) for m in range(1024))
"""Highest number value index of a mask (0 when there is none)."""
ABOVE: Final = tuple(0x3FE & ~((1 << t) - 1) for t in range(16))
"""Number values an expedition in state ``t`` (see :func:`colour_facts`) can still take."""
UPTO: Final = tuple((1 << (v + 1)) - 1 for v in range(11))
"""Values 0..v."""
FIRST: Final = tuple(next((v for v in range(10) if m >> v & 1), 10) for m in range(1024))
"""Lowest value index of a mask, wagers included (10 when there is none)."""
TABLES: Final = ("FACE", "COUNT", "LOW", "HIGH", "ABOVE", "UPTO", "FIRST")
"""The module's lookup tables (the kernel compiles them as arrays)."""

Facts = tuple[int, int, int, int, int, int, int, int, int, int, int, int, int, int, int, int,
              tuple[float, float, float, float, float, float, float, float, float, float]]
""":func:`colour_facts` of one colour."""
Option = tuple[float, int]
"""A play-phase option ``(cost, kind)``."""


def plan(nums: int, hw: int, total_e: int, count_e: int, w0: int, live: int, rate: float,
         turns: int, margin: float, cons: float, wmin: int) -> tuple[float, int, int]:
    """The projection of one colour: ``(value, wagers to lay first, cards still to lay)``,
    cards ``-1`` for a colour better left alone (value 0).

    ``nums``: hand number values above the expedition's top; ``hw``: hand wagers still
    placeable; ``total_e``/``count_e``/``w0``: the expedition's face total, cards and
    wagers (``count_e == 0``: not started); ``live``: values above the top still unseen
    or on a discard pile; ``rate``: the chance one live card reaches the hand in time;
    ``turns``: turns left; ``margin``: what a new expedition must promise.

    The future is ``rate`` times the faces of the live cards above the lowest hand card
    plus half that for the ones below it (they can be laid only by skipping it); the
    LC-6 score of the plan is ``(faces - 20) * (1 + wagers)`` plus the 20-point bonus
    when eight cards are expected.  Each extra wager is tried on the conservative
    projection (``cons`` times the future), with time left to lay it."""
    n = COUNT[nums]
    total = total_e + FACE[nums]
    count = count_e + n
    low = LOW[nums]
    hi = live & ~UPTO[low]
    lo = live ^ hi
    half = rate * 0.5
    future = rate * FACE[hi] + half * FACE[lo]
    future_n = rate * COUNT[hi] + half * COUNT[lo]
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


def opp_use(v: int, otop: int, ow: int, interest: int) -> float:
    """How much value index ``v`` of a colour on a discard pile could help the opponent,
    whose expedition of the colour has top ``otop`` (-1 none, 0 wagers only) and ``ow``
    wagers, and who took ``interest`` cards of it from the piles: nothing below their top
    (or a wager after their first number), a lot for a colour they run, a little for one
    they show interest in."""
    if otop >= 1 and v <= otop:
        return 0.0
    if otop >= 0:
        return (v + 1.0 if v else 5.0) * (1 + ow) + 2.0
    if v == 0:
        return 1.0 + 2.0 * interest
    return 0.25 * (v + 1) + 2.0 * interest


def colour_facts(hf: int, ef: int, of: int, kf: int) -> Facts:
    """Facts of one colour from its fields: own hand ``hf``, own and opposing expedition
    ``ef``/``of``, the opponent's known cards ``kf``.  The tuple is ``(t, nums, hw, allw,
    total_e, count_e, w0, live, livemask, otop, ow, interest, gap, mult, low, cards, uses)``:

    ``t``: the expedition's state (0 nothing placed, 1 wagers only, ``v + 1`` top number
    value index ``v``); ``nums``/``hw``/``allw``: hand numbers above the top, placeable
    and all hand wagers; ``total_e``/``count_e``/``w0``: the expedition's faces, cards
    and wagers; ``live``/``livemask``: values not seen anywhere (or on a pile) above the
    top / in all; ``otop``/``ow``/``interest``: see :func:`opp_use`; ``gap``: the live
    values that laying the lowest playable hand card ``low`` skips, ``mult`` their
    multiplier (wagers laid and held, plus one); ``cards``: the hand's value mask;
    ``uses``: :func:`opp_use` of each value index."""
    w0 = ef >> 14
    enums = ef & 0x3FE
    t = HIGH[enums] + 1 if enums else (1 if w0 else 0)
    above = ABOVE[t]
    livemask = ~(hf | kf | ef | of) & 0x3FE
    ohigh = HIGH[of & 0x3FE]
    otop = ohigh if ohigh else (0 if of else -1)
    nums = hf & above
    low = LOW[nums]
    gap = livemask & ~UPTO[t - 1 if t > 1 else 0] & UPTO[low - 1] if nums else 0
    ow = of >> 14
    interest = COUNT[kf & 0x3FE] + (kf >> 14)
    uses = (opp_use(0, otop, ow, interest), opp_use(1, otop, ow, interest), opp_use(2, otop, ow, interest),
            opp_use(3, otop, ow, interest), opp_use(4, otop, ow, interest), opp_use(5, otop, ow, interest),
            opp_use(6, otop, ow, interest), opp_use(7, otop, ow, interest), opp_use(8, otop, ow, interest),
            opp_use(9, otop, ow, interest))
    return (t, nums, hf >> 14 if t <= 1 else 0, hf >> 14, FACE[enums], w0 + COUNT[enums], w0,
            livemask & above, livemask, otop, ow, interest, gap, 1 + w0 + (hf >> 14), low, hf & 0x3FF, uses)


def seat_numbers(draw_pile: int, opp_hand: int, opp_known: int, started: int,
                 future_share: float, start_margin: float, extra_margin: float) -> tuple[float, int, float]:
    """``(rate, turns, margin)`` of the seat to move: ``turns`` left (both draw from the
    deck), ``rate`` the chance one live card reaches the hand in time (the style's
    ``future_share`` of the turns per unseen card), ``margin`` what a new expedition must
    promise after ``started`` colours; ``opp_hand``/``opp_known`` the opponent's hand
    size and how many of its cards are known."""
    turns = (draw_pile + 1) >> 1
    if turns < 1:
        turns = 1
    hidden = opp_hand - opp_known
    pool = draw_pile + (hidden if hidden > 0 else 0)
    rate = future_share * min(1.0, turns / pool) if pool > 0 else 0.0
    return rate, turns, start_margin + extra_margin * max(0, started - 1)


def play_cost(gap: int, mult: int, rate: float) -> float:
    """What laying a colour's lowest playable number costs: the expected points of the
    live cards it skips (``gap``, each counted ``mult`` times), summed card by card,
    lowest first (float ties break the same way every time)."""
    cost = 0.0
    while gap:
        cost += (FIRST[gap] + 1) * rate * mult
        gap &= gap - 1
    return cost


def discard_cost(f: Facts, value: float, v: int, rate: float, turns: int, margin: float, cons: float,
                 wmin: int) -> float:
    """What discarding value index ``v`` of the colour of facts ``f`` costs: what the card
    adds to the colour's plan (whose value is ``value``; at least 0) plus its use to the
    opponent (at least that use, then)."""
    (_, nums, hw, _, total_e, count_e, w0, live, _, _, _, _, _, _, _, _, use_of) = f
    marginal = 0.0
    if v:
        bit = 1 << v
        if nums & bit:
            rest = plan(nums ^ bit, hw, total_e, count_e, w0, live, rate, turns, margin, cons, wmin)[0]
            if value > rest:
                marginal = value - rest
    elif hw:
        rest = plan(nums, hw - 1, total_e, count_e, w0, live, rate, turns, margin, cons, wmin)[0]
        if value > rest:
            marginal = value - rest
    return marginal + use_of[v]


def play_options(facts: list[Facts], rate: float, turns: int, margin: float, cons: float, wmin: int,
                 tempo_weight: float, every: bool) -> tuple[list[Option], list[Option], float]:
    """The play-phase costs: ``(plays, discards, tempo)``, plays and discards as ``(cost,
    kind)``; the heuristic plays the cheapest play if it costs at most the cheapest
    discard plus ``tempo`` (``tempo_weight`` times the cards its plans still have to lay
    per turn left) — :func:`play_choice`.

    A play is the lowest playable number of each colour in the plan (or its wager, at no
    cost, when the plan lays wagers first); it costs the expected points of the live
    cards it skips (:func:`play_cost`).  A discard costs what the card adds to its
    colour's plan (at least 0) plus its use to the opponent (:func:`discard_cost`); the
    cards are costed in order of the latter, and once that alone exceeds the cheapest
    discard found the rest cannot win — unless ``every``, only the discards up to there
    are listed."""
    plays = [(0.0, 0)]
    plays.pop()
    uses = [(0.0, 0)]
    uses.pop()
    values = [0.0] * len(facts)
    pending = 0
    for c in range(len(facts)):
        (_, nums, hw, _, total_e, count_e, w0, live, _, _, _, _, gap, mult, low, held, use_of) = facts[c]
        value, wagers, cards = plan(nums, hw, total_e, count_e, w0, live, rate, turns, margin, cons, wmin)
        values[c] = value
        if cards >= 0:
            pending += cards
            if wagers:
                plays.append((0.0, 10 * c))
            elif nums:
                plays.append((play_cost(gap, mult, rate), 10 * c + low))
        while held:
            v = FIRST[held]
            uses.append((use_of[v], 10 * c + v))
            held &= held - 1
    uses.sort()
    discards = [(0.0, 0)]
    discards.pop()
    best = (math.inf, 0)
    for use, k in uses:
        if not every and (use, k) > best:
            break
        row = (discard_cost(facts[k // 10], values[k // 10], k % 10, rate, turns, margin, cons, wmin), k)
        discards.append(row)
        if row < best:
            best = row
    return plays, discards, tempo_weight * pending / turns


def play_choice(facts: list[Facts], rate: float, turns: int, margin: float, cons: float, wmin: int,
                tempo_weight: float) -> int:
    """The heuristic's play-phase action: its cheapest play if that costs at most its
    cheapest discard plus the tempo term, else that discard (:func:`play_options`; on
    equal costs the lower kind).

    Found without listing the options (the compiled runner pays for every list and sort):
    the card of least use to the opponent is costed first, then only the cards whose use
    alone does not exceed the cheapest discard so far — a discard costs at least its use,
    so this finds the cheapest discard that sorting them all finds.  Cards are visited
    in kind order, so a strict comparison keeps the lower kind of equal costs."""
    play_cost_min, play_kind = math.inf, 0
    least, first = math.inf, 0
    values = [0.0] * len(facts)
    pending = 0
    for c in range(len(facts)):
        (_, nums, hw, _, total_e, count_e, w0, live, _, _, _, _, gap, mult, low, held, use_of) = facts[c]
        value, wagers, cards = plan(nums, hw, total_e, count_e, w0, live, rate, turns, margin, cons, wmin)
        values[c] = value
        if cards >= 0:
            pending += cards
            if wagers:
                if 0.0 < play_cost_min:
                    play_cost_min, play_kind = 0.0, 10 * c
            elif nums:
                cost = play_cost(gap, mult, rate) if gap else 0.0
                if cost < play_cost_min:
                    play_cost_min, play_kind = cost, 10 * c + low
        while held:
            v = FIRST[held]
            if use_of[v] < least:
                least, first = use_of[v], 10 * c + v
            held &= held - 1
    best = discard_cost(facts[first // 10], values[first // 10], first % 10, rate, turns, margin, cons, wmin)
    best_kind = first
    for c in range(len(facts)):
        held, use_of = facts[c][15], facts[c][16]
        while held:
            v = FIRST[held]
            held &= held - 1
            if use_of[v] <= best and 10 * c + v != first:
                cost = discard_cost(facts[c], values[c], v, rate, turns, margin, cons, wmin)
                if cost < best or (cost == best and 10 * c + v < best_kind):
                    best, best_kind = cost, 10 * c + v
    if play_cost_min <= best + tempo_weight * pending / turns:
        return 20 * (play_kind // 10) + play_kind % 10
    return 20 * (best_kind // 10) + 10 + best_kind % 10


def pile_option(f: Facts, top: int, c: int, rate: float, turns: int, margin: float, cons: float, wmin: int,
                denial: float) -> tuple[float, float, int]:
    """The draw option ``(gain + denial, gain, c)`` of the pile of colour ``c`` whose top
    card is ``top`` (a kind; ``f``: the colour's facts): ``gain`` what the card adds to
    the colour's plan, ``denial`` the weight of the card's use to the opponent."""
    v = top % 10
    t, nums, hw = f[0], f[1], f[2]
    gain = 0.0
    if v:
        if ABOVE[t] >> v & 1:
            base = plan(nums, hw, f[4], f[5], f[6], f[7], rate, turns, margin, cons, wmin)[0]
            more = plan(nums | (1 << v), hw, f[4], f[5], f[6], f[7], rate, turns, margin, cons, wmin)[0]
            if more > base:
                gain = more - base
    elif t <= 1:
        base = plan(nums, hw, f[4], f[5], f[6], f[7], rate, turns, margin, cons, wmin)[0]
        more = plan(nums, hw + 1, f[4], f[5], f[6], f[7], rate, turns, margin, cons, wmin)[0]
        if more > base:
            gain = more - base
    return gain + denial * opp_use(v, f[9], f[10], f[11]), gain, c


def draw_options(facts: list[Facts], tops: list[int], rate: float, turns: int, margin: float, cons: float,
                 wmin: int, denial: float) -> list[tuple[float, float, int]]:
    """The draw-phase options ``(gain + denial, gain, colour)`` of each pile the seat may
    take from (``tops[c]``: its top kind, -1 when it may not): ``gain`` what the card adds
    to the colour's plan, ``denial`` the weight of the card's use to the opponent
    (:func:`pile_option`)."""
    options = [(0.0, 0.0, 0)]
    options.pop()
    for c in range(len(facts)):
        if tops[c] >= 0:
            options.append(pile_option(facts[c], tops[c], c, rate, turns, margin, cons, wmin, denial))
    return options


def pending_cards(facts: list[Facts], rate: float, turns: int, margin: float, cons: float, wmin: int) -> int:
    """Cards the seat's plans still have to lay."""
    pending = 0
    for f in facts:
        cards = plan(f[1], f[2], f[4], f[5], f[6], f[7], rate, turns, margin, cons, wmin)[2]
        if cards > 0:
            pending += cards
    return pending


STALL_REACH: Final = 2 * 7 + 2
"""The heuristic stalls only with ``draw_pile <= 2 * pending + 2`` and ``pending`` is at
most the 7 cards held in the draw phase."""


def draw_choice(facts: list[Facts], tops: list[int], draw_pile: int, rate: float, turns: int, margin: float,
                cons: float, wmin: int, denial: float, deck_value: float) -> int:
    """The heuristic's draw-phase choice as a colour, -1 for the draw pile: a pile top
    whose gain plus denial beats ``deck_value`` (with some gain), or any pile while the
    plans hold more placements than turns remain near the end (stalling, LC-5).  At
    least one pile must be open to the seat; the best of :func:`draw_options` is found
    without listing them."""
    best = (-math.inf, 0.0, 0)
    for c in range(len(facts)):
        if tops[c] >= 0:
            option = pile_option(facts[c], tops[c], c, rate, turns, margin, cons, wmin, denial)
            if option > best:
                best = option
    if best[0] > deck_value and best[1] > 0:
        return best[2]
    if draw_pile <= STALL_REACH:  # stall while more placements wait than turns remain
        pending = pending_cards(facts, rate, turns, margin, cons, wmin)
        if draw_pile <= 2 * pending + 2 and pending > turns - 1:
            return best[2]
    return -1
