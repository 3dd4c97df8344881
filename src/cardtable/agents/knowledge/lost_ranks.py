"""Lost Ranks knowledge for the search: round cut-offs and match win-probability values.

* **Cut-off** at the end of the current round (13 tricks, or 26 in Command of
  Two): a play-out never deals the next round.
* **Value** of a state at the cut-off: the chance that each army wins the match
  from the running totals, by an exact recursion over the rounds still to come
  (LR-17: first to the target, both → higher total, round cap; LR-18: fixed
  rounds, higher total) with a per-round distribution of army points measured
  from heuristic self-play (Spy and active Jacks, LR-15; with Force Strength,
  LR-16, one army gets one point more), separately for 4 and 2 players.  Ties at the end count as half a win.
  Mapped to ``[-1, 1]`` and mixed with a small term for the point difference.
* **Play-out policy** (on the sampled state, no JSON): lead a random plain card
  (never a Lost Soldier while another card is allowed); following, when the
  partner holds the trick feed it a soldier that scores for the army (the Spy, an
  active Jack of the own colour, an enemy active Jack to deny it) or play the
  cheapest plain card; otherwise take the trick with the cheapest card that
  wins it when it holds a soldier (or, half the time, anyway), else throw the
  cheapest plain card.  Command of Two: the source of a lead is drawn at random.
  A small share of moves is random.

Which cards each seat may still hold (voids shown by not following suit, LR-7,
LR-20; phantom cards) is the game's own ``resample``.
"""

from __future__ import annotations

import math
import random
from functools import lru_cache
from typing import Any, Final

from cardtable.agents.knowledge import Knowledge
from cardtable.protocol import Game, State

# Per-round (points of one army, points of the other): heuristic self-play, 4 players,
# symmetrised (167 rounds).  Weights, not probabilities.
_ROUND_POINTS_4: Final = {
    (0, 0): 1.0, (0, 2): 24.5, (2, 0): 24.5, (0, 4): 24.0, (4, 0): 24.0, (0, 6): 12.0, (6, 0): 12.0,
    (2, 2): 36.0, (2, 4): 4.5, (4, 2): 4.5,
}
_ROUND_POINTS_2: Final = {
    (0, 0): 14.0, (0, 2): 44.0, (2, 0): 44.0, (0, 4): 16.0, (4, 0): 16.0, (2, 2): 23.0,
    (2, 4): 3.5, (4, 2): 3.5, (0, 6): 1.0, (6, 0): 1.0,
}
"""The same for Command of Two (2 players, 166 rounds)."""
MAX_ROUNDS_SEARCHED: Final = 50
EPSILON: Final = 0.1
_SPY: Final = 52
_DRAW: Final = 53
_PHANTOM: Final = 54
_JACK: Final = 9
_SUIT_COLOUR: Final = (1, 0, 0, 1)
"""Army of each suit's Jack: clubs and spades black (1), diamonds and hearts red (0)."""


def _soldier(card: int) -> bool:
    return card == _SPY or card % 13 == _JACK


def _key(card: int, led: int, trump: int) -> int:
    """Strength of ``card`` in a trick led in ``led`` (-1: it cannot win, LR-10)."""
    if card == _SPY or card % 13 == _JACK:
        return -1
    suit = card // 13
    if suit == trump:
        return 100 + card % 13
    return card % 13 if suit == led else -1


def _cheap(card: int, trump: int) -> int:
    """Order of cards to throw away: plain low cards first, trumps late, soldiers last."""
    if _soldier(card):
        return 1000
    return card % 13 + (50 if card // 13 == trump else 0)


def _distribution(points: dict[tuple[int, int], float], force: bool) -> tuple[tuple[int, int, float], ...]:
    total = sum(points.values())
    out: dict[tuple[int, int], float] = {}
    for (x, y), w in points.items():
        if force:
            for dx, dy in ((1, 0), (0, 1)):
                key = (x + dx, y + dy)
                out[key] = out.get(key, 0.0) + 0.5 * w / total
        else:
            out[(x, y)] = out.get((x, y), 0.0) + w / total
    return tuple((x, y, p) for (x, y), p in sorted(out.items()))


class MatchOdds:
    """``win(a, b, rounds)``: the chance that the army on ``a`` points beats the one on
    ``b`` after ``rounds`` finished rounds (LR-17/LR-18; ties count half)."""

    def __init__(self, game: Game) -> None:
        cfg: Any = game.config
        self.two = cfg.players == 2
        g: Any = game
        self.target: int | None = g.target
        self.max_rounds: int | None = g.max_rounds
        self.dist = _distribution(_ROUND_POINTS_2 if self.two else _ROUND_POINTS_4, bool(cfg.force_strength))
        self.win = lru_cache(maxsize=None)(self._win)

    def _due(self, a: int, b: int, rounds: int) -> bool:
        if self.two:
            return rounds >= (self.max_rounds or 0)
        target = self.target or 0
        return a >= target or b >= target or (self.max_rounds is not None and rounds >= self.max_rounds)

    def tiebreak(self, a: int, b: int) -> float:
        """One more round decides (ties again: half)."""
        p = 0.0
        for x, y, w in self.dist:
            p += w * (1.0 if a + x > b + y else 0.5 if a + x == b + y else 0.0)
        return p

    def _win(self, a: int, b: int, rounds: int) -> float:
        if rounds >= MAX_ROUNDS_SEARCHED:
            return 1.0 if a > b else 0.0 if a < b else 0.5
        p = 0.0
        for x, y, w in self.dist:
            a2, b2, r2 = a + x, b + y, rounds + 1
            if self._due(a2, b2, r2):
                v = 1.0 if a2 > b2 else 0.0 if a2 < b2 else 0.5
            else:
                v = self.win(a2, b2, r2)
            p += w * v
        return p


class LostRanksKnowledge(Knowledge):
    """Lost Ranks: round cut-offs and match win-probability values."""

    world_pool = 64
    """The exact constrained deal of ``resample`` (voids) costs about a millisecond with
    four players: reuse 64 sampled worlds per search."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.odds = MatchOdds(game)

    def round_of(self, state: State) -> int:
        s: Any = state
        return int(s._round)

    def cutoff(self, state: State, root_round: int) -> bool:
        s: Any = state
        return bool(s._outcome >= 0 or s._round != root_round)

    def rollout_action(self, state: State, rng: random.Random) -> int:
        legal = state.legal_actions()
        if len(legal) == 1 or rng.random() < EPSILON:
            return legal[int(rng.random() * len(legal))]
        s: Any = state
        if _DRAW in legal:
            if rng.random() < 0.5:
                return _DRAW
            legal = [a for a in legal if a != _DRAW]
        cards = [a - _PHANTOM if a >= _PHANTOM else a for a in legal]
        trump = s._trump_suit
        trick = s._trick
        if not trick:
            plain = [a for a, c in zip(legal, cards) if not _soldier(c)]
            pick = plain or legal
            return pick[int(rng.random() * len(pick))]
        p = s._to_move
        armies = s._armies
        army = armies[p]
        active = s._active
        led = s._led
        best = -1
        winner = -1
        stake = False
        for seat, c, _ in trick:
            k = _key(c, led, trump)
            if k > best:
                best, winner = k, seat
            if active >> c & 1:
                stake = True
        options = sorted(zip(legal, cards), key=lambda ac: _cheap(ac[1], trump))
        if winner >= 0 and armies[winner] == army:
            feeds = [a for a, c in options if active >> c & 1]
            last = len(trick) == s._n - 1
            if feeds and (last or rng.random() < 0.5):
                return feeds[0]
            return options[0][0]
        wins = [(_key(c, led if led >= 0 else c // 13, trump), a) for a, c in options
                if _key(c, led if led >= 0 else c // 13, trump) > best]
        if wins and (stake or rng.random() < 0.5):
            return min(wins)[1]
        for a, c in options:
            if not (active >> c & 1):
                return a
        return options[0][0]

    def evaluate(self, state: State) -> list[float]:
        s: Any = state
        red, black = s._totals
        margin = 0.1 * math.tanh((red - black) / 4.0)
        if s._outcome >= 0:
            ret = state.returns()
            armies = s._armies
            return [0.9 * r + (margin if armies[i] == 0 else -margin) for i, r in enumerate(ret)]
        if s._tiebreaks:
            p_red = self.odds.tiebreak(red, black)
        else:
            p_red = self.odds.win(red, black, len(s._round_scores))
        v_red = 0.9 * (2.0 * p_red - 1.0) + margin
        return [v_red if a == 0 else -v_red for a in s._armies]
