"""The Lost Ranks search's play-out policy, written once for two runners.

Plain functions over ints, card bitmasks (bit ``c`` = card ``c``, 52 the Spy) and
indexable sequences — the subset numba compiles.  The search's Python play-outs
(:meth:`cardtable.games.lost_ranks.knowledge.LostRanksKnowledge.rollout_action`) call
them as ordinary Python on a sampled state's accessors; the kernel
(:func:`cardtable.games.lost_ranks.kernel.policy_round`) compiles the very same
functions (:func:`~cardtable.kernels.jit.compile_shared`, with :func:`top_bit` and
:func:`ones` replaced by the kernels' bit tricks) and feeds them from its match vector.
The random numbers come from :data:`uniform` (``rng.random()`` in Python, numba's
generator in the kernel): fed the same numbers, both runners play the same moves.

The policy (a fast, soldier-aware version of the heuristic on a sampled world, where
every hand is read, so each seat sees who can still beat a card): a share
:data:`EPSILON` of moves is random.  A follower scores each legal card by the soldiers
of the trick (LR-15) going to the army that ends up winning it — every later seat
putting on the best card its hand allows (LR-7) — minus what the card is worth kept
(4 players: the Spy and an own active Jack are kept for a partner's trick, an enemy
active Jack is shed; 2 players: the Spy and an enemy active Jack are liabilities, an
own Jack is junk).  A leader plays a random plain card; in Command of Two it first
sheds an enemy active Jack where the answering source (LR-13, LR-14) cannot take it,
and otherwise draws two from the phantom deck 40 % of the time.

The inputs: ``armies[seat]`` (0 red, 1 black); ``trick_seats``/``trick_cards`` the
trick's first ``trick_n`` cards; ``hands[seat]`` the real hands; ``phantoms[seat][i]``
the phantom decks top first, ``phantom_n[seat]`` cards each (2 players); ``legal`` the first ``nlegal`` legal actions in the
engine's order (``0..52`` a hand card, ``53`` draw two, ``54 + c`` a drawn card).

>>> key(12, 0, 3), key(9, 0, 3), key(52, 0, 3), key(3 * 13 + 2, 0, 3)
(12, -1, -1, 102)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

EPSILON: Final = 0.1
"""Share of play-out moves chosen at random."""
DRAW_SHARE: Final = 0.4
"""Command of Two: how often a leader with nothing better draws two from its phantom deck."""
SPY: Final = 52
DRAW: Final = 53
PHANTOM: Final = 54
JACK: Final = 9
SUIT_COLOUR: Final = (1, 0, 0, 1)
"""Army of each suit's Jack: clubs and spades black (1), diamonds and hearts red (0)."""
SUIT_MASK: Final = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
PLAIN_MASK: Final = ((1 << 52) - 1) & ~sum(1 << (13 * s + JACK) for s in range(4))
"""The cards that can win a trick (not a Lost Soldier, LR-1)."""
SPY_BIT: Final = 1 << SPY
COLOUR_JACKS: Final = (1 << (13 + JACK) | 1 << (26 + JACK), 1 << JACK | 1 << (39 + JACK))
"""The Jacks of the Red army (diamonds, hearts) and of the Black army (clubs, spades)."""
TABLES: Final = ("SUIT_COLOUR", "SUIT_MASK", "COLOUR_JACKS")
"""The module's lookup tables (the kernel compiles them as arrays)."""
FUNCTIONS: Final = ("key", "hand_best", "phantom_best", "stake", "keep", "answer_best", "later_best", "follow_move",
                    "_enemy_jack", "lead_move", "random_move", "rollout_move")
"""The functions the kernel compiles (with :data:`BIT_TRICKS` replaced)."""
BIT_TRICKS: Final = ("top_bit", "ones")
"""The functions done with Python's int methods here, by the kernels' bit tricks there."""
uniform: Final = random.Random.random
"""``uniform(rng)``: the next number in [0, 1) of the runner's generator (the kernel: numba's)."""


def top_bit(m: int) -> int:
    """The index of the highest set bit of ``m > 0`` (the kernel: :func:`cardtable.kernels.bits.bit_index`)."""
    return m.bit_length() - 1


def ones(m: int) -> int:
    """Set bits of ``m`` (the kernel: :func:`cardtable.kernels.bits.bit_count`)."""
    return m.bit_count()


def key(card: int, led: int, trump: int) -> int:
    """Strength of ``card`` in a trick led in ``led`` (-1: it cannot win, LR-10)."""
    if card == SPY or card % 13 == JACK:
        return -1
    suit = card // 13
    if suit == trump:
        return 100 + card % 13
    return card % 13 if suit == led else -1


def hand_best(hand: int, led: int, trump: int) -> int:
    """The best key a real hand can put on a trick led in ``led`` under LR-7 (-1: none can win)."""
    plain = hand & PLAIN_MASK
    if led >= 0:
        suited = hand & SUIT_MASK[led]
        if suited:
            top = suited & PLAIN_MASK
            if not top:
                return -1  # only the suit's Jack: it must be played
            return (100 if led == trump else 0) + top_bit(top) % 13
        trumps = plain & SUIT_MASK[trump]
        return 100 + top_bit(trumps) % 13 if trumps else -1
    trumps = plain & SUIT_MASK[trump]
    if trumps:
        return 100 + top_bit(trumps) % 13
    best = -1
    for s in range(4):
        m = plain & SUIT_MASK[s]
        if m and top_bit(m) % 13 > best:
            best = top_bit(m) % 13
    return best


def phantom_best(phantoms: Sequence[Sequence[int]], phantom_n: Sequence[int], seat: int, led: int, trump: int) -> int:
    """The best key the top of ``seat``'s phantom deck can put on a trick led in ``led`` (LR-14)."""
    size = phantom_n[seat]
    if not size:
        return -1
    a = phantoms[seat][0]
    b = phantoms[seat][1] if size >= 2 else -1
    if led < 0:
        best = key(a, a // 13, trump) if a != SPY else -1
        if b >= 0 and b != SPY:
            best = max(best, key(b, b // 13, trump))
        return best
    if b >= 0:
        a_suited = a != SPY and a // 13 == led
        b_suited = b != SPY and b // 13 == led
        if a_suited and b_suited:  # both of the suit: the Jack is protected (LR-7)
            if a % 13 == JACK:
                a = b
            elif b % 13 == JACK:
                b = a
        elif a_suited:
            b = a
        elif b_suited:
            a = b
        return max(key(a, led, trump), key(b, led, trump))
    return key(a, led, trump)


def stake(cards: int, captor: int, army: int, trump: int) -> int:
    """Soldier points for ``army`` minus the other army's if ``cards`` go to army ``captor``
    (-1: discarded) — the Spy to its captor, an active Jack to its own army (LR-15)."""
    if captor < 0:
        return 0
    v = 0
    if cards & SPY_BIT:
        v += 2 if captor == army else -2
    colour = SUIT_COLOUR[trump]
    if captor == colour:
        jacks = cards & COLOUR_JACKS[colour]
        if jacks:
            v += (2 if colour == army else -2) * ones(jacks)
    return v


def keep(card: int, army: int, trump: int, two: bool) -> float:
    """What a card is worth kept (what playing it costs) to a seat of ``army``."""
    if card == SPY:
        return -1.6 if two else 0.7
    if card % 13 == JACK:
        colour = SUIT_COLOUR[card // 13]
        if colour != SUIT_COLOUR[trump]:
            return -0.2
        if colour == army:
            return -0.1 if two else 1.0
        return -0.6 if two else -1.2
    return 0.05 * (card % 13) + (0.4 if card // 13 == trump else 0.0)


def answer_best(hands: Sequence[int], phantoms: Sequence[Sequence[int]], phantom_n: Sequence[int], opp: int,
                suit: int, trump: int, hand_first: bool) -> int:
    """The best key ``opp`` can answer a lead of ``suit`` with: from the real hand when
    ``hand_first`` (else from the phantom deck), the other source when that one is empty (LR-13)."""
    hand = hands[opp]
    if hand_first:
        return hand_best(hand, suit, trump) if hand else phantom_best(phantoms, phantom_n, opp, suit, trump)
    return phantom_best(phantoms, phantom_n, opp, suit, trump) if phantom_n[opp] else hand_best(hand, suit, trump)


def later_best(hands: Sequence[int], p: int, later: int, lead: int, trump: int) -> tuple[int, int]:
    """The best key the ``later`` seats after ``p`` can put on a trick led in ``lead``,
    each with the best card its hand allows, and the first seat that has it: ``(-1, -1)``
    when none can win."""
    n = len(hands)
    best, seat = -1, -1
    for j in range(1, later + 1):
        q = (p + j) % n
        kq = hand_best(hands[q], lead, trump)
        if kq > best:
            best, seat = kq, q
    return best, seat


def follow_move(p: int, armies: Sequence[int], trump: int, led: int, trick_n: int, trick_seats: Sequence[int],
                trick_cards: Sequence[int], hands: Sequence[int], legal: Sequence[int], nlegal: int,
                rng: random.Random) -> int:
    """A follower's move: the best stake of the trick minus the card's keep, ties broken
    by one random number per legal card, in order."""
    n = len(armies)
    army = armies[p]
    two = n == 2
    cards = 0
    best = -1
    winner = -1
    for i in range(trick_n):
        c = trick_cards[i]
        cards |= 1 << c
        k = key(c, led, trump)
        if k > best:
            best, winner = k, trick_seats[i]
    later_k, later_seat = later_best(hands, p, n - trick_n - 1, led, trump) if led >= 0 else (-1, -1)
    pick = legal[0]
    top = -1e9
    for i in range(nlegal):
        a = legal[i]
        if a == DRAW:
            return a
        c = a - PHANTOM if a >= PHANTOM else a
        lead = led if led >= 0 else (c // 13 if c != SPY else -1)
        b, w = (best, winner) if led >= 0 else (-1, -1)
        k = key(c, lead, trump)
        if k > b:
            b, w = k, p
        if led < 0:  # the suit is the card's: the later seats' answers depend on it
            later_k, later_seat = later_best(hands, p, n - trick_n - 1, lead, trump)
        if later_k > b:
            b, w = later_k, later_seat
        captor = armies[w] if w >= 0 else -1
        v = stake(cards | 1 << c, captor, army, trump) - keep(c, army, trump, two)
        if captor == army:
            v += 0.1
        v += uniform(rng) * 0.01
        if v > top:
            top, pick = v, a
    return pick


def _enemy_jack(card: int, army: int, trump: int) -> bool:
    """An active Jack of the other army (LR-5)."""
    return card != SPY and card % 13 == JACK and SUIT_COLOUR[card // 13] == SUIT_COLOUR[trump] != army


def lead_move(p: int, armies: Sequence[int], trump: int, hands: Sequence[int], phantoms: Sequence[Sequence[int]],
              phantom_n: Sequence[int], legal: Sequence[int], nlegal: int, rng: random.Random) -> int:
    """A lead: Command of Two sheds an enemy active Jack where the answer cannot take it
    (LR-11, LR-13); otherwise a random plain card (the source drawn at random)."""
    army = armies[p]
    can_draw = False
    if len(armies) == 2:
        opp = 1 - p
        for i in range(nlegal):
            a = legal[i]
            c = a - PHANTOM if a >= PHANTOM else a
            if a == DRAW:
                can_draw = True
            elif _enemy_jack(c, army, trump) and answer_best(hands, phantoms, phantom_n, opp, c // 13, trump,
                                                             a >= PHANTOM) < 0:
                return a
        if can_draw:  # (never with a drawn pair waiting: its cards are the legal moves)
            for i in range(min(2, phantom_n[p])):
                c = phantoms[p][i]
                if _enemy_jack(c, army, trump) and answer_best(hands, phantoms, phantom_n, opp, c // 13, trump,
                                                               True) < 0:
                    return DRAW
            if uniform(rng) < DRAW_SHARE:
                return DRAW
    plain = 0
    cards = 0
    for i in range(nlegal):
        a = legal[i]
        if a != DRAW:
            cards += 1
            c = a - PHANTOM if a >= PHANTOM else a
            if c != SPY and c % 13 != JACK:
                plain += 1
    pool = plain if plain else cards if cards else nlegal
    k = int(uniform(rng) * pool)
    for i in range(nlegal):
        a = legal[i]
        c = a - PHANTOM if a >= PHANTOM else a
        if plain:
            take = a != DRAW and c != SPY and c % 13 != JACK
        else:
            take = a != DRAW or not cards
        if take:
            if k == 0:
                return a
            k -= 1
    return legal[nlegal - 1]


def random_move(legal: Sequence[int], nlegal: int, rng: random.Random) -> int:
    """A random legal move with chance :data:`EPSILON` (and the only one when there is
    one), else -1: the policy decides."""
    if nlegal == 1 or uniform(rng) < EPSILON:
        return legal[int(uniform(rng) * nlegal)]
    return -1


def rollout_move(p: int, armies: Sequence[int], trump: int, led: int, trick_n: int, trick_seats: Sequence[int],
                 trick_cards: Sequence[int], hands: Sequence[int], phantoms: Sequence[Sequence[int]],
                 phantom_n: Sequence[int], legal: Sequence[int], nlegal: int, rng: random.Random) -> int:
    """The play-out move of seat ``p``: :func:`random_move`, else :func:`lead_move` or
    :func:`follow_move`."""
    a = random_move(legal, nlegal, rng)
    if a >= 0:
        return a
    if not trick_n:
        return lead_move(p, armies, trump, hands, phantoms, phantom_n, legal, nlegal, rng)
    return follow_move(p, armies, trump, led, trick_n, trick_seats, trick_cards, hands, legal, nlegal, rng)
