"""Lost Cities knowledge for the search: round cut-offs, match-aware values, a fast play-out policy.

* **Cut-off** at the end of the current round (LC-5): a play-out never deals the
  next round.
* **Value** of a state at the cut-off, for seat 0 (seat 1 is the negative): with
  ``d`` the running match difference and ``r`` rounds still to play,
  ``0.9 * erf(d / (σ √(2 r))) + 0.1 * tanh(d / 50)`` — the chance to win the match
  if each later round adds a normal difference of spread ``σ`` (≈ 36 points
  between two good players, measured from heuristic self-play), mapped to
  ``[-1, 1]``, plus a small margin term so that the search still prefers larger
  wins (or smaller defeats) when the match is already decided; at the end of the
  match ``0.9 * sign(d) + 0.1 * tanh(d / 50)``.
* **Play-out policy** (on the determinized state's card sets, no JSON): commit to a
  colour when its playable hand cards add up to enough; lay the lowest playable
  card of a committed colour when it skips at most one value (any card when the
  round is running out); lay wagers only with three or more number cards worth at
  least 25; otherwise discard the card that is worth least to itself plus the
  opponent; take a pile top that extends a committed expedition, else draw from
  the deck.  A small share of moves is random.

The policy reads the internal card-set layout documented at the top of
:mod:`cardtable.games.lost_cities` (``_hand``, ``_piles``, ``_draw``/``_ptr``,
``_rr``) of *sampled* states only.
"""

from __future__ import annotations

import math
import random
from typing import Any, Final

from cardtable.agents.base import Observation
from cardtable.agents.knowledge import Knowledge
from cardtable.protocol import State

SIGMA: Final = 36.0
"""Spread of one round's score difference between two good players (points)."""
MARGIN_SCALE: Final = 50.0
EPSILON: Final = 0.05
"""Share of random play-out moves."""
COMMIT_SUM: Final = 19
"""Face total of playable hand cards needed to start a colour in a play-out."""
WAGER_SUM: Final = 25
ENDGAME: Final = 10
"""Cards left in the draw pile from which the agents search (before: the heuristic)."""
KEEP_Z: Final = 1.5
"""Standard errors by which a move must beat the heuristic's before replacing it."""


def _face(v: int) -> int:
    return v + 1 if v else 0


def _field_table() -> list[tuple[int, int, int]]:
    """Per 14-bit colour field of a hand (presence bits | t << 10): (lowest playable
    value index or -1, number of playable number cards, their face total)."""
    table = []
    for f in range(1 << 14):
        nums = f & 0x3FE
        t = (f >> 10) & 15
        playable = nums if t < 2 else (nums >> t) << t
        low = -1
        count = total = 0
        for v in range(1, 10):
            if playable >> v & 1:
                if low < 0:
                    low = v
                count += 1
                total += v + 1
        table.append((low, count, total))
    return table


_FIELD: Final = _field_table()


def _discard_choice(key: int) -> tuple[float, int]:
    """(cost, value index) of the cheapest discard of one colour; ``key`` = hand field
    (presence bits | own state t << 10) | opponent's state << 14 | committed << 18.
    A card costs its worth to its own plans (nothing below its own top, a third of
    its face in a colour it does not play) plus its worth to the opponent (nothing
    below their top, its face in a colour they play, a quarter of it otherwise)."""
    present = key & 0x3FF
    t = (key >> 10) & 15
    to = (key >> 14) & 15
    mine_w = 1.0 if key >> 18 & 1 else 0.3
    best = (1e9, 0)
    for v in range(10):
        if not present >> v & 1:
            continue
        if v == 0:
            mine = 0.0 if t >= 2 else 8.0 * mine_w
            theirs = 0.0 if to >= 2 else (5.0 if to else 1.0)
        else:
            mine = 0.0 if (t >= 2 and v < t) else (v + 1) * mine_w
            if to >= 2 and v < to:
                theirs = 0.0
            elif to:
                theirs = float(v + 1)
            else:
                theirs = 0.25 * (v + 1)
        if mine + theirs < best[0]:
            best = (mine + theirs, v)
    return best


_DISCARD: dict[int, tuple[float, int]] = {}


def _pile_top(piles: Any, c: int) -> int:
    """Top kind of discard pile ``c``: piles are a list of 6-bit-digit stacks (top lowest),
    or (older layout) one int with an 80-bit field per colour."""
    stack = piles[c] if isinstance(piles, list) else piles >> (80 * c)
    return int((stack & 63) - 1)


class LostCitiesKnowledge(Knowledge):
    """Lost Cities: round cut-offs, match win-probability values, a fast play-out policy."""

    sigma = SIGMA
    epsilon = EPSILON
    exploration = 1.4
    """Play-out values of one round are close to ±1 (noisy): explore more, so that no
    move — the heuristic's least of all — is starved after a few unlucky play-outs."""

    def round_of(self, state: State) -> int:
        rr: Any = getattr(state, "_rr")
        return int(rr[0])

    def cutoff(self, state: State, root_round: int) -> bool:
        s: Any = state
        return bool(s._cur < 0 or s._rr[0] != root_round)

    def evaluate(self, state: State) -> list[float]:
        s: Any = state
        rr = s._rr
        totals = rr[2]
        d = totals[0] - totals[1]
        left = self.game.config.rounds - len(rr[3])
        margin = math.tanh(d / MARGIN_SCALE)
        if s._cur < 0 or left <= 0:
            win = 1.0 if d > 0 else -1.0 if d < 0 else 0.0
        else:
            win = math.erf(d / (self.sigma * math.sqrt(2.0 * left)))
        v = 0.9 * win + 0.1 * margin
        return [v, -v]

    def worth_searching(self, obs: Observation) -> bool:
        """Far from the end of a round the fast play-out policy is a much weaker player
        than the heuristic bot and its play-outs misjudge plans that pay off many turns
        later (measured: searching every move loses most rounds to the heuristic).
        Near the end — few cards left to draw — play-outs are short and accurate, and
        the timing of the last placements and of stalling (LC-5) is where search
        gains: the agents search only there."""
        return int(obs.view["draw_pile"]) <= ENDGAME

    def keep_confidence(self, obs: Observation) -> float:
        return KEEP_Z

    # --- play-out policy ---------------------------------------------------------
    def rollout_action(self, state: State, rng: random.Random) -> int:
        s: Any = state
        if rng.random() < self.epsilon:
            legal = state.legal_actions()
            return legal[int(rng.random() * len(legal))]
        p = s._cur
        C = s._C
        h = s._hand[p]
        left = len(s._draw) - s._ptr
        turns = (left + 1) >> 1
        field = _FIELD
        fields = [(h >> (16 * c)) & 0xFFFF for c in range(C)]
        committed = 0
        started = 0
        pending = 0
        for c in range(C):
            f = fields[c]
            if f & 0x3C00:
                started += 1
                committed |= 1 << c
                pending += field[f & 0x3FFF][1]
        for c in range(C):
            f = fields[c]
            if f & 0x3C00 or not f & 0x3FE:
                continue
            low, count, total = field[f & 0x3FFF]
            if count and count <= turns and total >= COMMIT_SUM + (4 * (started - 2) if started > 2 else 0):
                committed |= 1 << c
                pending += count
                started += 1
        if s._phase:
            return self._draw(s, C, h, committed)
        best_gap = 99
        best_play = -1
        for c in range(C):
            if not committed >> c & 1:
                continue
            f = fields[c]
            low, count, total = field[f & 0x3FFF]
            t = (f >> 10) & 15
            if f >> 14 and t <= 1 and count >= 3 and total >= WAGER_SUM and count + 1 < turns:
                return 20 * c  # a wager first
            if low >= 0:
                gap = low - (t if t >= 2 else 1)
                if gap < best_gap:
                    best_gap, best_play = gap, 20 * c + low
        if best_play >= 0 and (best_gap <= 1 or pending >= turns - 1):
            return best_play
        # discard the card worth least to both sides
        oh = s._hand[1 - p]
        cache = _DISCARD
        best_cost = 1e9
        best = -1
        for c in range(C):
            f = fields[c]
            if not f & 0x3FF:
                continue
            key = (f & 0x3FFF) | (((oh >> (16 * c + 10)) & 15) << 14) | ((committed >> c & 1) << 18)
            got = cache.get(key)
            if got is None:
                got = cache[key] = _discard_choice(key)
            if got[0] < best_cost:
                best_cost, best = got[0], 20 * c + 10 + got[1]
        return best

    @staticmethod
    def _draw(s: Any, C: int, h: int, committed: int) -> int:
        dd = 20 * C
        avail = s._nonempty & ~s._ban
        best = dd
        best_face = 0
        if avail:
            piles = s._piles
            for c in range(C):
                if not (avail >> c & 1 and committed >> c & 1):
                    continue
                kind = _pile_top(piles, c)
                v = kind % 10
                t = (h >> (16 * c + 10)) & 15
                if v == 0:
                    continue
                floor = t if t >= 2 else 1
                if v >= floor and v - floor <= 2 and v + 1 > best_face:
                    best, best_face = dd + 1 + c, v + 1
        return best
