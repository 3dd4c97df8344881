"""Small statistics for match series."""

from __future__ import annotations

import math


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
