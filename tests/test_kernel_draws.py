"""The kernels' random draws (``cardtable.kernels.draws``): uniform, and only what may be drawn.

The generator is deterministic given its state, so these counts are the same on every
run; the bounds are wide enough (about five standard deviations) that a correct
generator passes them for any state, and narrow enough that a biased choice (a modulo
bias of a few per cent, a bit never chosen) fails.
"""

from __future__ import annotations

import pytest

pytest.importorskip("numba", reason="the kernels are the optional extra 'fast' (pip install 'cardtable[fast]')")

import numpy as np  # noqa: E402

from cardtable.kernels import draws  # noqa: E402
from cardtable.kernels.jit import njit  # noqa: E402


@njit
def _counts(state: int, argument: int, draws_n: int, of_bits: bool) -> np.ndarray:
    """How often each value came out of ``draws_n`` draws of ``below(x, argument)``
    (``of_bits``: of ``random_bit(x, argument)``) from the generator state ``state``."""
    x = np.uint64(state)
    counts = np.zeros(128, dtype=np.int64)
    for _ in range(draws_n):
        if of_bits:
            x, k = draws.random_bit(x, argument)
        else:
            x, k = draws.below(x, argument)
        counts[k] += 1
    return counts


@njit
def _first_positions(state: int, n: int, shuffles: int) -> np.ndarray:
    """How often each value ends first after a shuffle, and whether every shuffle was a permutation."""
    x = np.uint64(state)
    counts = np.zeros(n + 1, dtype=np.int64)
    values = np.arange(n)
    for _ in range(shuffles):
        x = draws.shuffle(x, values, 0, n)
        counts[values[0]] += 1
        if not np.array_equal(np.sort(values), np.arange(n)):
            counts[n] += 1
    return counts


@pytest.mark.parametrize("n", [1, 2, 3, 7, 13, 53, 100])
def test_below_draws_every_value_equally_often(n: int) -> None:
    per_value = 2000
    all_counts = _counts(12345 + n, n, per_value * n, False)
    counts = all_counts[:n]
    assert counts.sum() == all_counts.sum() == per_value * n
    assert counts.min() > per_value - 5 * per_value ** 0.5 and counts.max() < per_value + 5 * per_value ** 0.5


@njit
def _low_half(state: int, n: int, draws_n: int) -> int:
    """How many of ``draws_n`` draws below ``n`` fall below ``n // 2`` (-1 if one was out of range)."""
    x = np.uint64(state)
    low = 0
    for _ in range(draws_n):
        x, k = draws.below(x, n)
        if not 0 <= k < n:
            return -1
        low += k < n // 2
    return low


def test_below_has_no_modulo_bias_for_a_large_range() -> None:
    """With n near 2**31 a plain ``r % n`` of 32 random bits would draw the low half
    half again as often as the high half."""
    low = _low_half(99, 3 << 29, 20000)
    assert abs(low - 10000) < 5 * 20000 ** 0.5 / 2


def test_random_bit_draws_only_and_every_set_bit() -> None:
    mask = (1 << 52) | (1 << 40) | (1 << 13) | (1 << 5) | 1
    counts = _counts(7, mask, 50000, True)
    chosen = {int(i) for i in np.flatnonzero(counts)}
    assert chosen == {52, 40, 13, 5, 0}
    assert counts.min(initial=10**9, where=counts > 0) > 10000 - 5 * 10000 ** 0.5


def test_shuffle_is_a_permutation_and_moves_every_value_first() -> None:
    counts = _first_positions(2024, 12, 24000)
    assert counts[12] == 0  # no shuffle lost or repeated a value
    assert counts[:12].min() > 2000 - 5 * 2000 ** 0.5 and counts[:12].max() < 2000 + 5 * 2000 ** 0.5
