"""The Ранг heuristic's decisions, written once for two runners.

Plain functions over rank counts (14 ints: ranks 0 = two … 11 = king, 12 = ace, 13 the
joker; suits never matter, RG-1), rank bitmasks, floats and one dict — the subset numba
compiles.  :mod:`cardtable.games.rank.heuristic` calls them as ordinary Python from a
player's view; :mod:`cardtable.games.rank.kernel` compiles the very same functions
with ``numba.njit`` for its heuristic play-outs.  The lookup table is a tuple here; the
kernel hands numba the same values as an array.

The inputs: ``counts`` the hand by rank; ``ranks`` the ranks that may be played now,
ascending; ``noise`` one tie-breaking number in [0, 1) per rank of ``ranks`` (the
runner's random generator); ``stuck[t]`` the chance the next player can play nothing
on a top card of rank ``t`` (:func:`stuck_table`); ``stock`` the cards left in it.

>>> counts = [0] * 14
>>> counts[3] = counts[4] = counts[5] = 1          # a 5, a 6 and a 7
>>> stuck = stuck_table([4] * 13 + [2], 50, 5)
>>> [3, 5][turn_choice(counts, [3, 5], [0.5, 0.5], stuck, 10)]   # on a 6: play the 5 or the 7 first?
3
"""

from __future__ import annotations

import math
from typing import Final

JK: Final = 13
"""Rank index of the joker."""
KING, ACE = 11, 12
OUT_VALUE: Final = 20.0
"""Value of emptying the hand for good (compared with −1 per card kept)."""
PULLED_BACK: Final = -2.0
"""Value of emptying the hand and being pulled back (RG-6)."""
NODE_LIMIT: Final = 4000
"""Positions the search values per decision before it stops looking deeper."""
W_COVER: Final = 0.25
"""Weight, at the end of a turn, of the share of top ranks the hand left could answer."""
W_NEXT: Final = 0.3
"""Weight of the next player being stuck on the last card, while the stock lasts."""
W_NEXT_EMPTY: Final = 6.0
"""The same with an empty stock (a stuck next player passes: RG-5)."""
ANTI_NEXT: Final = 2.0
"""Weight, in Anti-Rank, of leaving the next player unable to play on the card thrown."""

ANSWERS: Final = tuple((1 << 14) - 1 if t == JK else
                       1 << (t + 1) % 13 | 1 << (t - 1) % 13 | 1 << t | 1 << KING | 1 << ACE | 1 << JK
                       for t in range(14))
"""``ANSWERS[t]``: the ranks that can be played on a top card of rank ``t`` at some RG-4 tier."""
TABLES: Final = ("ANSWERS",)
"""The module's lookup tables (the kernel compiles them as arrays)."""


def coverage(counts: list[int]) -> float:
    """Share of the 13 top ranks this hand could answer (escapes answer all)."""
    if counts[KING] or counts[ACE] or counts[JK]:
        return 1.0
    covered = 0
    for r in range(13):
        if counts[r]:
            covered |= 1 << (r - 1) % 13 | 1 << r | 1 << (r + 1) % 13
    n = 0
    for r in range(13):
        n += covered >> r & 1
    return n / 13


def p_stuck(pool: list[int], total: int, size: int, top: int) -> float:
    """The chance that a hand of ``size`` cards drawn from ``pool`` (cards by rank,
    ``total`` of them) holds nothing playable on a card of rank ``top``."""
    if top == JK or size <= 0:
        return 0.0
    hits = 0
    for r in range(14):
        if ANSWERS[top] >> r & 1:
            hits += pool[r]
    free = total - hits
    p = 1.0
    for i in range(size):
        if free - i <= 0:
            return 0.0
        p *= (free - i) / (total - i)
    return p


def stuck_table(pool: list[int], total: int, size: int) -> list[float]:
    """:func:`p_stuck` for every top rank 0..13."""
    return [p_stuck(pool, total, size, t) for t in range(14)]


def _moves(counts: list[int], top: int) -> tuple[int, int]:
    """Ranks of ``counts`` playable on ``top`` under RG-4's strict tiers, in search order:
    how many, and the ranks packed four bits each (the first lowest)."""
    n = packed = 0
    if top == JK:
        for r in range(14):
            if counts[r]:
                packed |= r << 4 * n
                n += 1
        return n, packed
    up, down = (top + 1) % 13, (top - 1) % 13
    if counts[up]:
        packed, n = up, 1
    if counts[down]:
        packed |= down << 4 * n
        n += 1
    if n:
        return n, packed
    if counts[top]:
        return 1, top
    if counts[KING]:
        packed, n = KING, 1
    if counts[ACE]:
        packed |= ACE << 4 * n
        n += 1
    if not n and counts[JK]:
        return 1, JK
    return n, packed


def playable_ranks(counts: list[int], top: int) -> list[int]:
    """The ranks of ``counts`` that may be played on a top card of rank ``top`` (RG-4's
    strict tiers), ascending."""
    n, packed = _moves(counts, top)
    return sorted(packed >> 4 * i & 15 for i in range(n))


def search_value(counts: list[int], code: int, top: int, memo: dict[int, float], nodes: list[int],
                 stuck: list[float], stock: int) -> float:
    """The best value of the rest of a turn with hand ``counts`` (``code``: the counts
    packed four bits a rank, the memo's key with ``top``) on a top card of rank ``top``:
    playing on while a play is allowed, then −1 per card kept plus the weights above;
    emptying the hand scores :data:`OUT_VALUE`, or :data:`PULLED_BACK` as likely as
    the next player can answer while the stock lasts (RG-6)."""
    key = code << 4 | top
    if key in memo:
        return memo[key]
    nodes[0] += 1
    left = 0
    for r in range(14):
        left += counts[r]
    if left == 0:
        v = OUT_VALUE if stock == 0 else stuck[top] * OUT_VALUE + (1 - stuck[top]) * PULLED_BACK
    else:
        n, packed = _moves(counts, top) if nodes[0] < NODE_LIMIT else (0, 0)
        if not n:
            w_next = W_NEXT if stock else W_NEXT_EMPTY
            v = -left + W_COVER * coverage(counts) + w_next * stuck[top]
        else:
            v = -math.inf
            for i in range(n):
                r = packed >> 4 * i & 15
                counts[r] -= 1
                v = max(v, search_value(counts, code - (1 << 4 * r), r, memo, nodes, stuck, stock))
                counts[r] += 1
    memo[key] = v
    return v


def _better(value: float, flag: float, noise: float, best_value: float, best_flag: float, best_noise: float) -> bool:
    """``(value, flag, noise) > (best_value, best_flag, best_noise)``, as tuples compare."""
    if value != best_value:
        return value > best_value
    if flag != best_flag:
        return flag > best_flag
    return noise > best_noise


def turn_choice(counts: list[int], ranks: list[int], noise: list[float], stuck: list[float], stock: int) -> int:
    """The index in ``ranks`` of the rank to play: the one opening the best rest of the
    turn (:func:`search_value`, rounded to 6 places); ties favour plain cards over
    escapes (K, A, joker), then the larger ``noise``."""
    memo = {-1: 0.0}  # an entry that is never looked up: it gives numba the dict's types
    nodes = [0]
    code = 0
    for r in range(14):
        code += counts[r] << 4 * r
    choice = 0
    best_value = best_flag = best_noise = 0.0
    for i in range(len(ranks)):
        r = ranks[i]
        counts[r] -= 1
        value = round(search_value(counts, code - (1 << 4 * r), r, memo, nodes, stuck, stock), 6)
        counts[r] += 1
        flag = 0.0 if r >= KING else 1.0
        if i == 0 or _better(value, flag, noise[i], best_value, best_flag, best_noise):
            choice, best_value, best_flag, best_noise = i, value, flag, noise[i]
    return choice


def anti_choice(counts: list[int], ranks: list[int], noise: list[float], stuck: list[float]) -> int:
    """The index in ``ranks`` of the rank to throw in Anti-Rank (RG-8): the one whose
    loss keeps the hand's :func:`coverage` highest, weighed with the next player being
    stuck on it (:data:`ANTI_NEXT`); ties go to the larger ``noise``."""
    choice = 0
    best_value = best_noise = 0.0
    for i in range(len(ranks)):
        r = ranks[i]
        counts[r] -= 1
        value = round(coverage(counts) + ANTI_NEXT * stuck[r], 6)
        counts[r] += 1
        if i == 0 or _better(value, 0.0, noise[i], best_value, 0.0, best_noise):
            choice, best_value, best_noise = i, value, noise[i]
    return choice
