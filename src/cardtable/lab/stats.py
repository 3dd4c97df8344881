"""Small statistics for match series."""

from __future__ import annotations

import math
from collections.abc import Sequence


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
