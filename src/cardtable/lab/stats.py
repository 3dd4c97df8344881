"""Small statistics for match series."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any


def wilson_interval(successes: float, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion (draws may count as half successes).

    >>> lo, hi = wilson_interval(95, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.888, 0.978)
    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def time_summary(seconds: Sequence[float]) -> dict[str, float]:
    """Count, mean, p50, p95 and max of durations given in seconds, in milliseconds.

    >>> time_summary([0.001, 0.002, 0.003, 0.010])
    {'count': 4, 'mean': 4.0, 'p50': 2.0, 'p95': 10.0, 'max': 10.0}
    """
    if not seconds:
        return {"count": 0, "mean": 0.0, "p50": 0.0, "p95": 0.0, "max": 0.0}
    ordered = sorted(seconds)

    def quantile(f: float) -> float:
        return 1000 * ordered[min(len(ordered) - 1, math.ceil(f * len(ordered)) - 1)]

    return {"count": len(ordered), "mean": round(1000 * sum(ordered) / len(ordered), 6), "p50": quantile(0.5),
            "p95": quantile(0.95), "max": 1000 * ordered[-1]}


def newcomb_interval(x1: float, n1: int, x2: float, n2: int, z: float = 1.959964) -> tuple[float, float]:
    """95 % interval of the difference of two proportions ``x2/n2 - x1/n1`` by Newcomb's
    hybrid score method (his method 10), built from the two Wilson intervals.

    >>> lo, hi = newcomb_interval(56, 70, 48, 80)   # Newcomb (1998), example (a), p2 - p1
    >>> round(lo, 4), round(hi, 4)
    (-0.3339, -0.0524)
    """
    p1, p2 = (x1 / n1 if n1 else 0.0), (x2 / n2 if n2 else 0.0)
    l1, u1 = wilson_interval(x1, n1, z)
    l2, u2 = wilson_interval(x2, n2, z)
    d = p2 - p1
    return (d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2), d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2))


def paired_difference_interval(both: int, first_only: int, second_only: int, neither: int,
                               z: float = 1.959964) -> tuple[float, float, float]:
    """``(estimate, low, high)`` of ``p1 - p2`` for two players judged on the same
    matches: ``both`` matches each did well in, ``first_only`` only the first,
    ``second_only`` only the second, ``neither``.  Newcombe's square-and-add interval for
    paired proportions (1998, his method 10): the two Wilson intervals, combined with
    the (continuity-corrected) correlation of the pairs, so a player that turns many
    matches one way and few the other gets a much narrower interval than unpaired data.

    >>> est, lo, hi = paired_difference_interval(59, 6, 16, 80)   # Fagerland et al. (2017), ch. 8: Cavo et al.
    >>> round(est, 4), round(lo, 4), round(hi, 4)
    (-0.0621, -0.1186, -0.0046)
    >>> paired_difference_interval(5, 0, 0, 5)[0]
    0.0
    """
    n = both + first_only + second_only + neither
    if n <= 0:
        return 0.0, -1.0, 1.0
    x1, x2 = both + first_only, both + second_only
    p1, p2 = x1 / n, x2 / n
    l1, u1 = wilson_interval(x1, n, z)
    l2, u2 = wilson_interval(x2, n, z)
    phi = 0.0
    product = x1 * (n - x1) * x2 * (n - x2)
    if product > 0:
        cross = both * neither - first_only * second_only
        phi = (cross - n / 2 if cross > n / 2 else min(cross, 0)) / math.sqrt(product)
    d = p1 - p2
    low = d - math.sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2))
    high = d + math.sqrt(max(0.0, (p2 - l2) ** 2 - 2 * phi * (p2 - l2) * (u1 - p1) + (u1 - p1) ** 2))
    return d, max(-1.0, low), min(1.0, high)


def stratified_rate(share: float, wins_after_yes: int, yes: int, wins_after_no: int, no: int,
                    z: float = 1.959964) -> tuple[float, float, float]:
    """``(estimate, low, high)`` of a player's rate over all deals, from deals split by a
    reference player's result on the same deal: of ``yes`` deals the reference did well in,
    the player did well in ``wins_after_yes``; of ``no`` deals it did not, ``wins_after_no``
    — and the reference's rate over all deals, ``share``, is known (a player against copies
    of itself, by symmetry).  Post-stratification: ``share · wins_after_yes / yes + (1 −
    share) · wins_after_no / no``, its interval by the square-and-add of the two Wilson
    intervals (Zou and Donner's MOVER for a sum of independent rates).

    Unlike ``expected + paired difference`` (:func:`paired_difference_interval`), which
    moves the player's rate one for one with the reference's luck, this weighs what the
    player does after each kind of deal: when the player keeps nearly every deal the
    reference wins and turns a share of the rest, a sample of deals the reference did
    badly on leaves more to turn, and only this estimate corrects for it in proportion.

    A player who won all 235 deals the reference won and 101 of the 287 it lost, the
    reference known to win half:

    >>> est, lo, hi = stratified_rate(0.5, 235, 235, 101, 287)
    >>> round(est, 4), round(lo, 4), round(hi, 4)
    (0.676, 0.6483, 0.7044)

    With one stratum weighing everything it is that stratum's rate and Wilson interval:

    >>> stratified_rate(1.0, 95, 100, 3, 7) == (0.95, *wilson_interval(95, 100))
    True
    """
    if yes <= 0 or no <= 0:
        raise ValueError(f"both kinds of deal are needed, not {yes} and {no}")
    p_yes, p_no = wins_after_yes / yes, wins_after_no / no
    l_yes, u_yes = wilson_interval(wins_after_yes, yes, z)
    l_no, u_no = wilson_interval(wins_after_no, no, z)
    rest = 1.0 - share
    estimate = share * p_yes + rest * p_no
    low = estimate - math.hypot(share * (p_yes - l_yes), rest * (p_no - l_no))
    high = estimate + math.hypot(share * (u_yes - p_yes), rest * (u_no - p_no))
    return estimate, max(0.0, low), min(1.0, high)


def bootstrap_interval(values: Sequence[float], base: Sequence[float] | None = None, *,
                       resamples: int = 2000, seed: int = 0) -> tuple[float, float]:
    """95 % percentile-bootstrap interval of the mean of ``values`` — or, given
    ``base``, of ``mean(values) - mean(base)`` (each sample resampled on its own).
    Seeded: the same data give the same interval.

    >>> lo, hi = bootstrap_interval([1.0, 2.0, 3.0, 4.0] * 25)
    >>> lo < 2.5 < hi and hi - lo < 0.6
    True
    """
    import numpy as np

    rng = np.random.default_rng(seed)

    def means(data: Sequence[float]) -> Any:
        array = np.asarray(data, dtype=float)
        if array.size == 0:
            return np.zeros(resamples)
        return array[rng.integers(0, array.size, size=(resamples, array.size))].mean(axis=1)

    estimate = means(values) - (means(base) if base is not None else 0.0)
    low, high = np.percentile(estimate, [2.5, 97.5])
    return float(low), float(high)
