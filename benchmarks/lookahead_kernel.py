"""Command of Two play-outs with a look-ahead for the searching seat (the ``lookahead``
command of ``command_of_two_levers.py``), compiled from the Lost Ranks kernel's own steps.

Not cached on disk: the functions embed the kernel's, so a cache keyed on this file alone
could go stale; the compilation costs about 20 s per run.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numba  # type: ignore[import-untyped,import-not-found,unused-ignore]
import numpy as np

from cardtable.games.lost_ranks import decisions
from cardtable.games.lost_ranks import kernel as K
from cardtable.games.lost_ranks.rules import BLACK, RED


@numba.njit
def _finish(t: Any, k: Any, legal: Any, noise: Any, work: Any, none: Any, round_scores: Any, events: Any,
            r: int) -> int:
    """The heuristic plays ``t`` to the end of round ``r``; returns the moves played."""
    moves = 0
    while t[K.CUR] >= 0 and t[K.ROUND] == r:
        count = K._legal_list(t, legal)
        for j in range(count if count > 1 else 0):
            noise[j] = np.random.random()
        a = legal[0] if count == 1 else K._heuristic(t, k, legal, count, noise, work)
        K._apply(t, a, none, round_scores, events)
        moves += 1
    return moves


@numba.njit
def lookahead_rounds(s: Any, seed: int, results: Any, me: int, depth: int, margin: float) -> int:
    """:func:`~cardtable.games.lost_ranks.kernel.heuristic_rounds` in which seat ``me``
    chooses its first ``depth`` decisions with a choice by a one-step look-ahead in the
    world: each legal move, then the heuristic to the round's end; the best army point
    difference wins unless the heuristic's move is within ``margin`` of it."""
    np.random.seed(seed)
    n = s[K.PLAYERS]
    none = np.empty((0, 53), dtype=np.int64)
    round_scores = np.zeros((0, n), dtype=np.int64)
    events = np.zeros((n, len(K.EVENTS)), dtype=np.int64)
    k = np.zeros(decisions.KNOWLEDGE, dtype=np.int64)
    legal = np.zeros(54, dtype=np.int64)
    candidates = np.zeros(54, dtype=np.int64)
    noise = np.zeros(54, dtype=np.float64)
    work = np.zeros(decisions.WORK, dtype=np.float64)
    mine = RED if me % 2 == s[K.RED_PARITY] else BLACK
    moves = 0
    for i in range(results.shape[0]):
        t = s.copy()
        r = t[K.ROUND]
        left = depth
        while t[K.CUR] >= 0 and t[K.ROUND] == r:
            count = K._legal_list(t, legal)
            for j in range(count if count > 1 else 0):
                noise[j] = np.random.random()
            a = legal[0] if count == 1 else K._heuristic(t, k, legal, count, noise, work)
            if count > 1 and t[K.CUR] == me and left > 0:
                left -= 1
                candidates[:count] = legal[:count]
                best_value, best_action, heuristic_value = -1e9, a, 0.0
                for c in range(count):
                    u = t.copy()
                    K._apply(u, candidates[c], none, round_scores, events)
                    moves += 1 + _finish(u, k, legal, noise, work, none, round_scores, events, r)
                    value = float(u[K.TOTALS + mine] - u[K.TOTALS + 1 - mine])
                    if candidates[c] == a:
                        heuristic_value = value
                    if value > best_value:
                        best_value, best_action = value, candidates[c]
                if best_value > heuristic_value + margin:
                    a = best_action
            K._apply(t, a, none, round_scores, events)
            moves += 1
        outcome = t[K.OUTCOME]
        results[i, 0], results[i, 1], results[i, 4] = t[K.TOTALS + RED], t[K.TOTALS + BLACK], outcome
        results[i, 2] = t[K.ROUND] + (1 if outcome >= 0 else 0)
        results[i, 3] = t[K.TIEBREAKS]
    return moves


def kernel_values(depth: int, margin: float) -> Callable[..., Any]:
    """A replacement for :meth:`LostRanksKnowledge.kernel_values
    <cardtable.games.lost_ranks.knowledge.LostRanksKnowledge.kernel_values>` whose
    play-outs are :func:`lookahead_rounds` for the seat ``me``."""

    def values(self: Any, world: Any, root_round: int, me: int, seed: int) -> tuple[list[float], int] | None:
        if self.kernel is None:
            return None
        if self.cutoff(world, root_round):
            return self.evaluate(world), 0
        results = np.zeros((self.leaf_playouts, len(K.ROUND_RESULT)), dtype=np.int64)
        moves = int(lookahead_rounds(K.export(world), seed & 0xFFFFFFFF, results, me, depth, margin))
        v = sum(self.red_value(*row) for row in results.tolist()) / len(results)
        return [v if a == 0 else -v for a in world.armies], moves

    return values
