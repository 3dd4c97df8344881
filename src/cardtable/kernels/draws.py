"""Random draws the kernels share, compiled into their callers (:func:`~cardtable.kernels.jit.njit_inline`).

A kernel's random seats and deals draw from a SplitMix64 generator (Steele, Lea and
Flood 2014) whose 64-bit state the caller keeps in a local variable and seeds from
numba's generator: one ``np.random`` call per move or per card shuffled would cost more
than the move.  A kernel that calls them names this module among its
:func:`~cardtable.kernels.jit.njit_keyed` modules, so that an edit here compiles the
kernel afresh (and :mod:`cardtable.kernels.bits`, which this module uses).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from cardtable.kernels.bits import bit_count, bit_index
from cardtable.kernels.jit import njit_inline


@njit_inline
def seed_random() -> np.uint64:
    """A generator state drawn from numba's generator (so the batch's seed decides it)."""
    return np.uint64(np.random.randint(0, 1 << 62))


@njit_inline
def next_random(x: np.uint64) -> tuple[np.uint64, int]:
    """The generator's next state and 32 random bits."""
    x = x + np.uint64(0x9E3779B97F4A7C15)
    z = x
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x, int((z ^ (z >> np.uint64(31))) >> np.uint64(32))


@njit_inline
def uniform(x: np.uint64) -> tuple[np.uint64, float]:
    """A uniform float in ``[0, 1)`` (32 random bits: for breaking ties) and the next state."""
    x, r = next_random(x)
    return x, r * 2.0 ** -32


@njit_inline
def below(x: np.uint64, n: int) -> tuple[np.uint64, int]:
    """A uniform integer in ``[0, n)`` (0 < n < 2**31) and the next state, by Lemire's
    multiply-and-reject (exactly uniform: the few products that would favour some
    values are drawn again)."""
    x, r = next_random(x)
    m = r * n
    if m & 0xFFFFFFFF < n:
        floor = ((1 << 32) - n) % n
        while m & 0xFFFFFFFF < floor:
            x, r = next_random(x)
            m = r * n
    return x, m >> 32


@njit_inline
def shuffle(x: np.uint64, values: npt.NDArray[np.int64], start: int, n: int) -> np.uint64:
    """Shuffle ``values[start:start + n]`` in place (Fisher–Yates); returns the next state."""
    for i in range(n - 1, 0, -1):
        x, j = below(x, i + 1)
        values[start + i], values[start + j] = values[start + j], values[start + i]
    return x


@njit_inline
def random_bit(x: np.uint64, mask: int) -> tuple[np.uint64, int]:
    """The index of a uniformly random set bit of ``mask`` (not 0; a kernel's legal
    actions as a bit mask) and the next state."""
    x, skip = below(x, bit_count(mask))
    for _ in range(skip):
        mask &= mask - 1
    return x, bit_index(mask & -mask)
