"""The Ранг search's play-out policy, written once for two runners.

Plain functions over the legal-move bitmask of the seat to move (bit ``a`` = action
``a``: ``0..52`` play a card kind, 53 draw, 54 pass) — the subset numba compiles.  The
search's Python play-outs (:meth:`cardtable.games.rank.knowledge.RankKnowledge.rollout_action`)
call them on a sampled state's :attr:`~cardtable.games.rank.rules.RankState.legal_mask`;
the kernel (:func:`cardtable.games.rank.kernel.policy_games`) compiles the very same
functions (:func:`~cardtable.kernels.jit.compile_shared`, with :func:`top_bit`,
:func:`ones` and :data:`uniform` replaced by the kernels' bit tricks and numba's
generator).  Fed the same random numbers, both runners play the same moves.

The policy: keep the escapes — Aces, Kings and jokers, playable on anything at a lower
RG-4 tier — while a plain card can be played (outside Anti-Rank, RG-8, and but for a
share :data:`EPSILON` of moves); otherwise a random legal move.  This is the main idea
of the heuristic bot (escapes bridge the next run) at the cost of one mask test.

>>> import random
>>> rollout_move(1 << 53, False, random.Random(0))   # only "draw": no random number used
53
>>> king_or_three = 1 << 11 | 1 << 1
>>> sorted({rollout_move(king_or_three, False, random.Random(s)) for s in range(200)})
[1, 11]
"""

from __future__ import annotations

import random
from typing import Final

ESCAPES: Final = sum(1 << (s * 13 + r) for s in range(4) for r in (11, 12)) | (1 << 52)
"""Kinds of Aces, Kings and the joker (cards ``suit * 13 + rank``, rank 11 = K, 12 = A)."""
PLAIN: Final = ((1 << 53) - 1) & ~ESCAPES
EPSILON: Final = 0.1
"""Share of moves in which a seat that could keep its escapes plays any legal card."""
FUNCTIONS: Final = ("nth_bit", "rollout_move")
"""The functions the kernel compiles (with :data:`BIT_TRICKS` replaced)."""
BIT_TRICKS: Final = ("top_bit", "ones", "uniform")
"""Done with Python's int methods and ``random`` here, by the kernels' bit tricks and numba's generator there."""
uniform: Final = random.Random.random
"""``uniform(rng)``: the next number in [0, 1) of the runner's generator."""


def top_bit(m: int) -> int:
    """The index of the highest set bit of ``m > 0``."""
    return m.bit_length() - 1


def ones(m: int) -> int:
    """Set bits of ``m``."""
    return m.bit_count()


def nth_bit(m: int, k: int) -> int:
    """The index of the ``k``-th lowest set bit of ``m`` (from 0)."""
    for _ in range(k):
        m &= m - 1
    return top_bit(m & -m)


def rollout_move(mask: int, anti: bool, rng: random.Random) -> int:
    """The play-out move of a seat whose legal actions are ``mask`` (``anti``: Anti-Rank is on)."""
    if not mask & (mask - 1):
        return top_bit(mask)
    plain = mask & PLAIN
    if plain and not anti and uniform(rng) >= EPSILON:
        mask = plain
    return nth_bit(mask, int(uniform(rng) * ones(mask)))
