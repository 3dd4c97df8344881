"""The Lost Ranks kernel: whole 4-player matches (LR-1 … LR-17, LR-19, LR-19a) compiled
with numba.  Command of Two (2 players: phantom decks and draw-two, LR-12 … LR-14,
LR-18) is not compiled yet: :func:`play_many` refuses it.

A match lives in one int64 vector (:data:`SIZE` slots, offsets below); hands, captures
and the discards are 53-bit card masks of the engine's layout (bit ``c`` = card ``c``,
52 the Spy), the action ids are the engine's (``0..52`` play a card).  The legal
moves are worked out from the vector at each step by the engine's rules (LR-6 … LR-8:
the forced first lead, following suit with Jack protection, the Spy led only as the
last card) over the engine's tables; tricks are judged by the engine's trick keys
(LR-10, LR-11) and rounds scored as the engine scores them (LR-15, LR-16), then the
match is decided (LR-17, LR-19a).

Rounds are dealt by the engine's rule (card ``i`` of a round's deck to seat
``(dealer + 1 + i) % 4``, card 52 the Trump Card, LR-4) from explicit decks or, past
them, from numba's random generator seeded with the batch's seed (reshuffled while
the Trump Card is a Lost Soldier) — the kernel does not reproduce Python's ``random``
stream, so to replay an engine match pass its decks in (:func:`new_match`).

Entries: :func:`play_many` (the lab's batches, random legal moves), :func:`new_match`,
:func:`legal_actions` and :func:`apply_action` (step by step, for the verification
against the engine).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from cardtable.games.lost_ranks import rules
from cardtable.games.lost_ranks.rules import ACE_DIAMONDS, ACE_HEARTS, BLACK, RED, SPY_BIT, LostRanks
from cardtable.kernels import PlayOuts
from cardtable.kernels.jit import njit_keyed

Vector = npt.NDArray[np.int64]

CUR, LED, TRICK_N, TRICK_NO, TRUMP, DEALER, ROUND, FORCED, ACTIONS, RED_PARITY = range(10)
"""Scalar slots: seat to move (-1 over), led suit (-1 none yet), cards in the trick,
tricks done this round, trump suit, dealer, round index, the card LR-6 forces (-1
none), actions applied, the seat parity of the Red army (LR-3)."""
TOTALS, CAPTURED, DISCARDS, TIEBREAKS, OUTCOME, TARGET, MAX_ROUNDS, FORCE = 10, 12, 14, 15, 16, 17, 18, 19
"""Army totals (two slots), the round's captures per army (two), discards, tiebreak
rounds (LR-17), the outcome (-1 on, 0 Red won, 1 Black won, 2 draw), the target, the
round cap (-1 none) and Force Strength (LR-16)."""
HAND, TRICK_SEAT, TRICK_CARD = 20, 24, 28
"""Per seat ``HAND + seat``; the trick's ``i``-th card ``TRICK_CARD + i``, played by ``TRICK_SEAT + i``."""
SIZE: Final = 32

EVENTS: Final = ("card_played", "trick_won", "no_winner_trick", "round_ended", "round_started", "match_ended",
                 "red_won", "black_won", "tiebreak_rounds")
"""The events counted per seat: the engine's typed event kinds (a card played by the
seat, a trick it won, a trick it led that nobody won), and, on the seat that played a
round's last card, the end of the round, the next round's start and the match's end;
then, on seat 0 once per match, the lab's outcome counts: who won and the tiebreak
rounds (LR-17)."""
PLAYED_EV, WON_EV, NO_WINNER_EV, ROUND_END_EV, ROUND_START_EV, MATCH_END_EV, RED_EV, BLACK_EV, TIEBREAK_EV = range(9)

njit = njit_keyed(rules)
"""The kernel's functions embed the engine's tables: their cache entries follow its source."""
SUIT_MASKS: Final = np.asarray(rules.SUIT_MASKS, dtype=np.int64)
JACK_BITS: Final = np.asarray(rules.JACK_BITS, dtype=np.int64)
COLOUR_JACKS: Final = np.asarray(rules.COLOUR_JACKS, dtype=np.int64)
SUIT_COLOUR: Final = np.asarray(rules.SUIT_COLOUR, dtype=np.int64)
TRICK_KEYS: Final = np.asarray(rules._TRICK_KEYS, dtype=np.int64)
"""``TRICK_KEYS[trump, led, card]`` (LR-10; ``led`` -1, not set yet, is the last row)."""
SOLDIERS: Final = rules.SOLDIERS
NOT_SPY: Final = rules.ALL_CARDS & ~SPY_BIT
TRICKS: Final = 13


@njit
def _bit_count(x: int) -> int:
    """Set bits of ``x`` (0 <= x < 2**63)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    x = x + (x >> 8)
    x = x + (x >> 16)
    x = x + (x >> 32)
    n: int = x & 0x7F
    return n


@njit
def _bit_index(low: int) -> int:
    """The index of the one set bit of ``low``."""
    a = 0
    for step in (32, 16, 8, 4, 2, 1):
        if low >> step:
            a += step
            low >>= step
    return a


# --- rounds ----------------------------------------------------------------------------------


@njit
def _deal(s: Vector, deck: Vector) -> None:
    """LR-4: 13 cards each from the dealer's left, card 52 the Trump Card; LR-6: the
    holder of A♥ (else A♦) leads it."""
    dealer = s[DEALER]
    for seat in range(4):
        s[HAND + seat] = 0
    for i in range(52):
        s[HAND + (dealer + 1 + i) % 4] |= 1 << deck[i]
    s[TRUMP] = deck[52] // 13
    s[CAPTURED], s[CAPTURED + 1], s[DISCARDS] = 0, 0, 0
    s[LED], s[TRICK_N], s[TRICK_NO] = -1, 0, 0
    s[FORCED], s[CUR] = -1, (dealer + 1) % 4
    for ace in (ACE_HEARTS, ACE_DIAMONDS):
        for i in range(52):
            if deck[i] == ace:
                s[FORCED], s[CUR] = ace, (dealer + 1 + i) % 4
                return


@njit
def _deck_of(decks: Vector, index: int) -> Vector:
    """Round ``index``'s deck: ``decks[index]`` if given, else a shuffled deck whose
    Trump Card is not a Lost Soldier (LR-4)."""
    if index < decks.shape[0]:
        given: Vector = decks[index]
        return given
    deck = np.arange(53, dtype=np.int64)
    np.random.shuffle(deck)
    while SOLDIERS >> deck[52] & 1:
        np.random.shuffle(deck)
    return deck


@njit
def new_match(decks: Vector, dealer: int, red: int, target: int, max_rounds: int, force: bool) -> Vector:
    """A 4-player match vector dealt from ``decks[0]`` (or a shuffled deck) by ``dealer``;
    ``red``: the Red army's seat parity; ``target``, ``max_rounds`` (-1 none) and
    ``force`` (Force Strength) as the game's options set them (LR-16, LR-17)."""
    s = np.zeros(SIZE, dtype=np.int64)
    s[DEALER], s[RED_PARITY], s[OUTCOME] = dealer, red, -1
    s[TARGET], s[MAX_ROUNDS], s[FORCE] = target, max_rounds, force
    _deal(s, _deck_of(decks, 0))
    return s


@njit
def _round_points(s: Vector, army: int) -> int:
    """The round's points of ``army`` (LR-15, LR-16)."""
    cap = s[CAPTURED + army]
    points = 0
    if SUIT_COLOUR[s[TRUMP]] == army:
        points += 2 * _bit_count(cap & COLOUR_JACKS[army])
    if cap & SPY_BIT:
        points += 2
    if s[FORCE]:
        mine = _bit_count(cap & ~SOLDIERS)
        theirs = _bit_count(s[CAPTURED + 1 - army] & ~SOLDIERS)
        if mine > theirs:
            points += 1
    return points


@njit
def _decide(s: Vector, rounds: int) -> None:
    """The end of the match after ``rounds`` rounds (LR-17, LR-19a): sets the outcome
    or counts a tiebreak round."""
    red, black = s[TOTALS + RED], s[TOTALS + BLACK]
    higher = RED if red > black else BLACK
    if s[TIEBREAKS]:
        if red != black:
            s[OUTCOME] = higher
        elif s[TIEBREAKS] >= 10 or (s[MAX_ROUNDS] < 0 and rounds >= 50):
            s[OUTCOME] = 2
        else:
            s[TIEBREAKS] += 1
        return
    target = s[TARGET]
    due = red >= target or black >= target or (s[MAX_ROUNDS] >= 0 and rounds >= s[MAX_ROUNDS])
    if not due and s[MAX_ROUNDS] < 0 and rounds >= 50:
        s[OUTCOME] = higher if red != black else 2
        return
    if due:
        if red != black:
            s[OUTCOME] = higher
        else:
            s[TIEBREAKS] = 1


@njit
def _end_round(s: Vector, p: int, decks: Vector, round_scores: Vector, events: Vector) -> None:
    """Score the round, then decide the match or deal the next round (LR-19: the deal
    passes clockwise)."""
    r = s[ROUND]
    for army in (RED, BLACK):
        points = _round_points(s, army)
        s[TOTALS + army] += points
        if r < round_scores.shape[0]:
            for seat in range(4):
                if (seat % 2 == s[RED_PARITY]) == (army == RED):
                    round_scores[r, seat] = points
    events[p, ROUND_END_EV] += 1
    _decide(s, r + 1)
    if s[OUTCOME] >= 0:
        s[CUR] = -1
        events[p, MATCH_END_EV] += 1
        if s[OUTCOME] < 2:
            events[0, RED_EV if s[OUTCOME] == RED else BLACK_EV] += 1
        events[0, TIEBREAK_EV] += s[TIEBREAKS]
        return
    s[ROUND] = r + 1
    s[DEALER] = (s[DEALER] + 1) % 4
    events[p, ROUND_START_EV] += 1
    _deal(s, _deck_of(decks, r + 1))


# --- moves -----------------------------------------------------------------------------------


@njit
def _legal(s: Vector) -> int:
    """The legal actions as a card mask (LR-6, LR-7, LR-8, LR-9)."""
    h: int = s[HAND + s[CUR]]
    if not s[TRICK_N]:
        if s[FORCED] >= 0:
            forced: int = 1 << s[FORCED]
            return forced
        m = h & NOT_SPY
        return m if m else h
    led = s[LED]
    if led < 0:
        return h
    m = h & int(SUIT_MASKS[led])
    if m:
        jb = int(JACK_BITS[led])
        return m ^ jb if m & jb and m != jb else m
    return h


@njit
def _complete_trick(s: Vector, decks: Vector, round_scores: Vector, events: Vector) -> None:
    """Judge the full trick (LR-10, LR-11): the winner's army captures it and the winner
    leads, or nobody wins, the cards are discarded and the next seat after the leader leads."""
    best, winner, cards = -1, -1, 0
    led = s[LED]
    for i in range(4):
        c = s[TRICK_CARD + i]
        cards |= 1 << c
        key = TRICK_KEYS[s[TRUMP], led if led >= 0 else 4, c]
        if key > best:
            best, winner = key, s[TRICK_SEAT + i]
    p = s[TRICK_SEAT + 3]
    if winner >= 0:
        army = RED if winner % 2 == s[RED_PARITY] else BLACK
        s[CAPTURED + army] |= cards
        s[CUR] = winner
        events[winner, WON_EV] += 1
    else:
        s[DISCARDS] |= cards
        s[CUR] = (s[TRICK_SEAT] + 1) % 4
        events[s[TRICK_SEAT], NO_WINNER_EV] += 1
    s[TRICK_N], s[LED] = 0, -1
    s[TRICK_NO] += 1
    if s[TRICK_NO] == TRICKS:
        _end_round(s, p, decks, round_scores, events)


@njit
def _apply(s: Vector, a: int, decks: Vector, round_scores: Vector, events: Vector) -> None:
    """Play the legal card ``a`` (unchecked), finishing the trick and the round it ends."""
    p, n = s[CUR], s[TRICK_N]
    s[ACTIONS] += 1
    s[HAND + p] ^= 1 << a
    events[p, PLAYED_EV] += 1
    if n == 0:
        s[FORCED] = -1
    if s[LED] < 0 and a != 52:
        s[LED] = a // 13
    s[TRICK_SEAT + n], s[TRICK_CARD + n] = p, a
    s[TRICK_N] = n + 1
    if n == 3:
        _complete_trick(s, decks, round_scores, events)
    else:
        s[CUR] = (p + 1) % 4


@njit
def _random_action(mask: int) -> int:
    """A uniformly random set bit of ``mask`` (a legal action)."""
    m = mask
    for _ in range(np.random.randint(_bit_count(mask))):
        m &= m - 1
    return _bit_index(m & -m)


# --- play-outs -------------------------------------------------------------------------------


@njit
def _play_many(n: int, seed: int, target: int, max_rounds: int, force: bool, scores: Vector, round_scores: Vector,
               actions: Vector, events: Vector) -> None:
    np.random.seed(seed)
    none = np.empty((0, 53), dtype=np.int64)
    for i in range(n):
        s = new_match(none, np.random.randint(4), np.random.randint(2), target, max_rounds, force)
        while s[CUR] >= 0:
            _apply(s, _random_action(_legal(s)), none, round_scores[i], events[i])
        for seat in range(4):
            scores[i, seat] = s[TOTALS + (RED if seat % 2 == s[RED_PARITY] else BLACK)]
        actions[i] = s[ACTIONS]


def _options(game: LostRanks) -> tuple[int, int, bool]:
    if game.num_players != 4:
        raise ValueError("the Lost Ranks kernel plays 4 players only (Command of Two is not compiled yet)")
    return int(game.target or 0), -1 if game.max_rounds is None else game.max_rounds, game.config.force_strength


def max_rounds_of(game: LostRanks) -> int:
    """The most rounds a match of ``game`` can last (LR-17, LR-19a)."""
    return (game.max_rounds or 50) + 11


def check(game: LostRanks, policies: Sequence[str]) -> None:
    """A :class:`ValueError` unless the kernel can play ``game`` with seats of ``policies``."""
    _options(game)
    if any(p != "random" for p in policies):
        raise ValueError("the Lost Ranks kernel plays random moves only (its heuristic is not compiled yet)")


def play_many(game: LostRanks, policies: Sequence[str], n: int, seed: int, *,
              styles: Sequence[str] | None = None) -> PlayOuts:
    """``n`` matches of ``game`` from fresh deals of ``seed``, random legal moves in every
    seat (see :func:`cardtable.kernels.play_many`)."""
    check(game, policies)
    target, max_rounds, force = _options(game)
    if len(policies) != 4:
        raise ValueError(f"Lost Ranks has 4 seats here: give one policy per seat, not {len(policies)}")
    scores, actions = np.zeros((n, 4), np.int64), np.zeros(n, np.int64)
    round_scores = np.zeros((n, max_rounds_of(game), 4), np.int64)
    events = np.zeros((n, 4, len(EVENTS)), np.int64)
    _play_many(n, seed, target, max_rounds, force, scores, round_scores, actions, events)
    return PlayOuts(scores, round_scores, actions, events, EVENTS)


def match_for(game: LostRanks, decks: Vector, dealer: int, red: int) -> Vector:
    """:func:`new_match` with ``game``'s options."""
    target, max_rounds, force = _options(game)
    return new_match(decks, dealer, red, target, max_rounds, force)


def legal_actions(s: Vector) -> list[int]:
    """The legal actions of a match vector, in the engine's order."""
    if s[CUR] < 0:
        return []
    mask = int(_legal(s))
    return [a for a in range(53) if mask >> a & 1]


def apply_action(s: Vector, action: int, decks: Vector, round_scores: Vector, events: Vector) -> None:
    """Apply a legal ``action`` to the vector ``s`` in place (``decks``: the explicit decks
    of the match, rows by round; ``round_scores``/``events`` are added to)."""
    _apply(s, action, decks, round_scores, events)


def row_returns(scores: list[int]) -> list[float]:
    """The returns of a 4-player match's per-seat army totals: +1 for the higher army's
    seats, -1 for the other's, 0 for all on equal totals (a draw, LR-19a)."""
    diff = scores[0] - scores[1]
    sign = float((diff > 0) - (diff < 0))
    return [sign, -sign, sign, -sign]


def match_rounds(counts: dict[str, int]) -> int:
    """The rounds a match lasted, from the kernel's counts."""
    return counts["round_ended"]


def row_measures(scores: list[int], rounds: int, counts: dict[str, int]) -> dict[str, float]:
    """The measures of :mod:`cardtable.games.lost_ranks.measures` from the kernel's counts."""
    return {"red_army_won": float(counts["red_won"]), "black_army_won": float(counts["black_won"]),
            "rounds": float(rounds), "margin": float(abs(scores[0] - scores[1])),
            "tiebreak_rounds": float(counts["tiebreak_rounds"]),
            "draw": float(not counts["red_won"] and not counts["black_won"]),
            "no_winner_tricks": float(counts["no_winner_trick"])}


def row_events(rounds: int, counts: dict[str, int]) -> dict[str, int]:
    """The engine's typed-event counts from the kernel's (kinds that did not happen are
    left out, as :func:`cardtable.lab.measures.count_event_kinds` does)."""
    return {kind: counts[kind] for kind in EVENTS[:6] if counts[kind]}
