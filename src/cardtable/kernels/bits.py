"""Bit tricks the kernels share, compiled into their callers (:func:`~cardtable.kernels.jit.njit_inline`).

A kernel that calls them names this module among its :func:`~cardtable.kernels.jit.njit_keyed`
modules, so that an edit here compiles the kernel afresh.
"""

from __future__ import annotations

from cardtable.kernels.jit import njit_inline


@njit_inline
def bit_count(x: int) -> int:
    """Set bits of ``x`` (0 <= x < 2**63)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    x = x + (x >> 8)
    x = x + (x >> 16)
    x = x + (x >> 32)
    n: int = x & 0x7F
    return n


@njit_inline
def bit_index(low: int) -> int:
    """The index of the one set bit of ``low``."""
    a = 0
    for step in (32, 16, 8, 4, 2, 1):
        if low >> step:
            a += step
            low >>= step
    return a
