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
* **Play-out policy** (:func:`_policy`, on the sampled state, no JSON): a fast version
  of the heuristic bot, so that the opponents in a play-out behave like the real ones.
  A follower scores each legal card by the soldiers of the trick (LR-15) going to the
  army that ends up winning it — every later seat putting on the best card its hand in
  the sampled world allows (LR-7) — minus what the card is worth kept (4 players: the Spy
  and an own active Jack are kept for a partner's trick, an enemy active Jack is shed;
  2 players: the Spy and an enemy active Jack are liabilities, an own Jack is junk).  A
  leader plays a random plain card; in Command of Two it first sheds an enemy active
  Jack where the answering source (LR-13, LR-14) cannot take it, and otherwise draws two
  from the phantom deck 40 % of the time.  A small share of moves is random.  Played as
  a bot on one sampled world per move it wins 0.88 of 4-player matches and 0.63 of
  Command of Two matches against random on seeds 0–199 (the policy it replaced: 0.70
  and 0.45).

Which cards each seat may still hold (voids shown by not following suit, LR-7,
LR-20; phantom cards) is the game's own ``resample``.
"""

from __future__ import annotations

import math
import random
from functools import lru_cache
from typing import Final

from cardtable.agents.knowledge import Knowledge
from cardtable.games.lost_ranks import LostRanks, LostRanksState
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


_SUIT_MASK: Final = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
_JACK_MASK: Final = sum(1 << (13 * s + _JACK) for s in range(4))
_PLAIN_MASK: Final = ((1 << 52) - 1) & ~_JACK_MASK
"""The cards that can win a trick (not a Lost Soldier, LR-1)."""
_SPY_BIT: Final = 1 << _SPY
_COLOUR_JACKS: Final = (1 << (13 + _JACK) | 1 << (26 + _JACK), 1 << _JACK | 1 << (39 + _JACK))
"""The Jacks of the Red army (diamonds, hearts) and of the Black army (clubs, spades)."""


def _hand_best(hand: int, led: int, trump: int) -> int:
    """The best key a real hand can put on a trick led in ``led`` under LR-7 (-1: none can win)."""
    plain = hand & _PLAIN_MASK
    if led >= 0:
        suited = hand & _SUIT_MASK[led]
        if suited:
            top = suited & _PLAIN_MASK
            if not top:
                return -1  # only the suit's Jack: it must be played
            return (100 if led == trump else 0) + (top.bit_length() - 1) % 13
        trumps = plain & _SUIT_MASK[trump]
        return 100 + (trumps.bit_length() - 1) % 13 if trumps else -1
    trumps = plain & _SUIT_MASK[trump]
    if trumps:
        return 100 + (trumps.bit_length() - 1) % 13
    best = -1
    for s in range(4):
        m = plain & _SUIT_MASK[s]
        if m and (m.bit_length() - 1) % 13 > best:
            best = (m.bit_length() - 1) % 13
    return best


def _phantom_best(phantom: tuple[int, ...], led: int, trump: int) -> int:
    """The best key the top of a phantom deck can put on a trick led in ``led`` (LR-14)."""
    if not phantom:
        return -1
    top = phantom[:2]
    if led < 0:
        return max(_key(c, c // 13, trump) if c != _SPY else -1 for c in top)
    if len(top) == 2:
        suited = [c for c in top if c != _SPY and c // 13 == led]
        if len(suited) == 2:
            top = tuple(c for c in suited if c % 13 != _JACK)
        elif suited:
            top = tuple(suited)
    return max(_key(c, led, trump) for c in top)


def _stake(cards: int, captor: int, army: int, trump: int) -> int:
    """Soldier points for ``army`` minus the other army's if ``cards`` go to army ``captor``
    (-1: discarded) — the Spy to its captor, an active Jack to its own army (LR-15)."""
    if captor < 0:
        return 0
    v = 0
    if cards & _SPY_BIT:
        v += 2 if captor == army else -2
    colour = _SUIT_COLOUR[trump]
    if captor == colour:
        jacks = cards & _COLOUR_JACKS[colour]
        if jacks:
            v += (2 if colour == army else -2) * jacks.bit_count()
    return v


def _keep(card: int, army: int, trump: int, two: bool) -> float:
    """What a card is worth kept (what playing it costs) to a seat of ``army``."""
    if card == _SPY:
        return -1.6 if two else 0.7
    if card % 13 == _JACK:
        colour = _SUIT_COLOUR[card // 13]
        if colour != _SUIT_COLOUR[trump]:
            return -0.2
        if colour == army:
            return -0.1 if two else 1.0
        return -0.6 if two else -1.2
    return 0.05 * (card % 13) + (0.4 if card // 13 == trump else 0.0)


def _policy(s: LostRanksState, legal: list[int], rng: random.Random) -> int:
    """The play-out move: a fast, soldier-aware version of the heuristic on a sampled world
    (every hand is read from the world, so each seat sees who can still beat a card)."""
    p = s.current_player()
    armies = s.armies
    army = armies[p]
    trump = s.trump_suit
    trick = s.trick
    n = len(armies)
    if not trick:
        return _lead(s, legal, rng, p, army, trump, n == 2)
    two = n == 2
    led = s.led_suit
    cards = 0
    best = -1
    winner = -1
    for seat, c, _ in trick:
        cards |= 1 << c
        k = _key(c, led, trump)
        if k > best:
            best, winner = k, seat
    hands = s.hand_masks
    after = [(p + i) % n for i in range(1, n - len(trick))]
    pick = legal[0]
    top = -1e9
    for a in legal:
        if a == _DRAW:
            return a
        c = a - _PHANTOM if a >= _PHANTOM else a
        lead = led if led >= 0 else (c // 13 if c != _SPY else -1)
        b, w = (best, winner) if led >= 0 else (-1, -1)
        k = _key(c, lead, trump)
        if k > b:
            b, w = k, p
        for q in after:  # each later seat puts on the best card it has
            kq = _hand_best(hands[q], lead, trump)
            if kq > b:
                b, w = kq, q
        captor = armies[w] if w >= 0 else -1
        v = _stake(cards | 1 << c, captor, army, trump) - _keep(c, army, trump, two)
        if captor == army:
            v += 0.1
        v += rng.random() * 0.01
        if v > top:
            top, pick = v, a
    return pick


def _enemy_jack(card: int, army: int, trump: int) -> bool:
    """An active Jack of the other army (LR-5)."""
    return card != _SPY and card % 13 == _JACK and _SUIT_COLOUR[card // 13] == _SUIT_COLOUR[trump] != army


def _answer_best(s: LostRanksState, opp: int, suit: int, trump: int, hand_first: bool) -> int:
    """The best key ``opp`` can answer a lead of ``suit`` with: from the real hand when
    ``hand_first`` (else from the phantom deck), the other source when that one is empty (LR-13)."""
    hand, phantom = s.hand_mask(opp), s.phantom_cards(opp)
    if hand_first:
        return _hand_best(hand, suit, trump) if hand else _phantom_best(phantom, suit, trump)
    return _phantom_best(phantom, suit, trump) if phantom else _hand_best(hand, suit, trump)


def _lead(s: LostRanksState, legal: list[int], rng: random.Random, p: int, army: int, trump: int, two: bool) -> int:
    """A lead: Command of Two sheds an enemy active Jack where the answer cannot take it
    (LR-11, LR-13); otherwise a random plain card (the source drawn at random)."""
    cards = [a - _PHANTOM if a >= _PHANTOM else a for a in legal]
    if two:
        opp = 1 - p
        for a, c in zip(legal, cards):
            if a != _DRAW and _enemy_jack(c, army, trump) and _answer_best(s, opp, c // 13, trump, a >= _PHANTOM) < 0:
                return a
        if _DRAW in legal and not s.drawn_pair:
            for c in s.phantom_cards(p)[:2]:
                if _enemy_jack(c, army, trump) and _answer_best(s, opp, c // 13, trump, True) < 0:
                    return _DRAW
            if rng.random() < 0.4:
                return _DRAW
    plain = [a for a, c in zip(legal, cards) if a != _DRAW and not _soldier(c)]
    pick = plain or [a for a in legal if a != _DRAW] or legal
    return pick[int(rng.random() * len(pick))]


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
        assert isinstance(game, LostRanks)
        self.two = game.config.players == 2
        self.target: int | None = game.target
        self.max_rounds: int | None = game.max_rounds
        self.dist = _distribution(_ROUND_POINTS_2 if self.two else _ROUND_POINTS_4, game.config.force_strength)
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
        assert isinstance(state, LostRanksState)
        return state.round_index

    def cutoff(self, state: State, root_round: int) -> bool:
        assert isinstance(state, LostRanksState)
        return state.is_terminal() or state.round_index != root_round

    def rollout_action(self, state: State, rng: random.Random) -> int:
        legal = state.legal_actions()
        if len(legal) == 1 or rng.random() < EPSILON:
            return legal[int(rng.random() * len(legal))]
        assert isinstance(state, LostRanksState)
        return _policy(state, legal, rng)

    def evaluate(self, state: State) -> list[float]:
        assert isinstance(state, LostRanksState)
        red, black = state.army_totals
        margin = 0.1 * math.tanh((red - black) / 4.0)
        armies = state.armies
        if state.is_terminal():
            ret = state.returns()
            return [0.9 * r + (margin if armies[i] == 0 else -margin) for i, r in enumerate(ret)]
        if state.tiebreak_rounds:
            p_red = self.odds.tiebreak(red, black)
        else:
            p_red = self.odds.win(red, black, state.rounds_played)
        v_red = 0.9 * (2.0 * p_red - 1.0) + margin
        return [v_red if a == 0 else -v_red for a in armies]
