"""The Lost Ranks kernel: whole matches (LR-1 … LR-19a) compiled with numba, for 4
players and for Command of Two (2 players: phantom decks and draw-two, LR-12 … LR-14).

A match lives in one int64 vector (:data:`SIZE` slots, offsets below); hands, captures
and the discards are 53-bit card masks of the engine's layout (bit ``c`` = card ``c``,
52 the Spy), the action ids are the engine's (``0..52`` play a hand card, ``53`` draw
two, ``54 + c`` play the drawn card ``c``).  The legal moves are worked out from the
vector at each step by the engine's rules (LR-6 … LR-8, LR-13, LR-14: the forced first
lead, following suit with Jack protection, the Spy led only as the last card of its
source, the follower's source, the drawn pair) over the engine's tables; tricks are judged by the engine's trick keys
(LR-10, LR-11) and rounds scored as the engine scores them (LR-15, LR-16), then the
match is decided (LR-17, LR-18, LR-19a).

Rounds are dealt by the engine's rule (LR-4: card ``i < 52`` of a round's deck to seat
``(dealer + 1 + i) % 4``; 2 players: cards ``0..33`` alternately from the dealer's
left, ``34..42`` the phantom deck of the dealer's opponent, ``43..51`` the dealer's;
card 52 the Trump Card) from explicit decks or, past
them, shuffled by the kernels' generator (:mod:`cardtable.kernels.draws`, seeded from
numba's, which the batch's seed seeds; reshuffled while the Trump Card is a Lost
Soldier) — the kernel does not reproduce Python's ``random`` stream, so to replay an
engine match pass its decks in (:func:`new_match`).  Random seats draw their moves from
that generator too.

The heuristic seats run the decisions of :mod:`cardtable.games.lost_ranks.decisions`
compiled (:func:`~cardtable.kernels.jit.compile_shared`): the same functions the Python
heuristic calls, on the same knowledge, which the kernel works out from the vector —
the seat's hand and phantom deck, the cards played, the Trump Card, the voids each seat
has shown (kept per round, LR-7, LR-20), the hand sizes and the opponent's face-up
phantom cards (LR-14); no other hidden card.

Entries: :func:`play_many` (the lab's batches, random and heuristic seats), :func:`new_match`,
:func:`legal_actions`, :func:`apply_action` and :func:`heuristic_action` (step by step, for the verification
against the engine); for the search's play-outs :func:`policy_playouts`, :func:`heuristic_playouts` and
:func:`lookahead_playouts`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from cardtable.games.lost_ranks import decisions, rollout, rules
from cardtable.games.lost_ranks.inference import RoundStart
from cardtable.games.lost_ranks.rules import ACE_DIAMONDS, ACE_HEARTS, BLACK, RED, SPY_BIT, LostRanks
from cardtable.kernels import PlayOuts
from cardtable.kernels import bits, draws
from cardtable.kernels.bits import bit_count, bit_index
from cardtable.kernels.draws import random_bit, seed_random, shuffle, uniform
from cardtable.kernels.jit import compile_shared, njit_keyed

Vector = npt.NDArray[np.int64]

CUR, LED, TRICK_N, TRICK_NO, TRUMP, DEALER, ROUND, FORCED, ACTIONS, RED_PARITY = range(10)
"""Scalar slots: seat to move (-1 over), led suit (-1 none yet), cards in the trick,
tricks done this round, trump suit, dealer, round index, the card LR-6 forces (-1
none), actions applied, the seat parity of the Red army (LR-3)."""
TOTALS, CAPTURED, DISCARDS, TIEBREAKS, OUTCOME, TARGET, MAX_ROUNDS, FORCE = 10, 12, 14, 15, 16, 17, 18, 19
"""Army totals (two slots), the round's captures per army (two), discards, tiebreak
rounds (LR-17), the outcome (-1 on, 0 Red won, 1 Black won, 2 draw), the target, the
round cap (-1 none) and Force Strength (LR-16)."""
PLAYERS, LEAD_SRC, PENDING, SPY_CAPTOR = 20, 21, 22, 24
"""Players (2 or 4), the source the trick was led from (0 hand, 1 phantom), the drawn
pair (two slots, -1 none: LR-14), the army that captured the Spy this round (-1 none)."""
HAND, TRICK_SEAT, TRICK_CARD, PHANTOM_N, PHANTOM = 26, 30, 34, 38, 40
"""Per seat ``HAND + seat``; the trick's ``i``-th card ``TRICK_CARD + i``, played by
``TRICK_SEAT + i``; 2 players: phantom deck sizes, the decks (``PHANTOM + 9 * seat + i``, top first)."""
TRUMP_CARD, VOIDS, DOWN = 58, 59, 63
"""What the heuristic seats know besides: the Trump Card, per seat the suits it has shown
void in this round (4-bit sets, LR-7, LR-20) and, 2 players, how many of its phantom
deck's top cards are face down (``DOWN + seat``, LR-14)."""
SIZE: Final = 65

EVENTS: Final = ("card_played", "phantom_drawn", "card_face_up", "trick_won", "no_winner_trick", "round_ended",
                 "round_started", "match_ended", "red_won", "black_won", "seat_0_won", "tiebreak_rounds",
                 "first_dealer")
"""The events counted per seat: the engine's typed event kinds (a card played by the
seat, two phantom cards it drew, a drawn card it turned face up, a trick it won, a
trick it led that nobody won), and, on the seat that played a round's last card, the end of the round, the next round's start and the match's end;
then, on seat 0 once per match, the lab's outcome counts: which army won, whether
seat 0's did, the tiebreak rounds (LR-17, LR-18) and the seat that dealt round 1 (LR-19)."""
(PLAYED_EV, DRAW_EV, FACE_UP_EV, WON_EV, NO_WINNER_EV, ROUND_END_EV, ROUND_START_EV, MATCH_END_EV, RED_EV, BLACK_EV,
 SEAT0_EV, TIEBREAK_EV, FIRST_DEALER_EV) = range(13)

_decisions = compile_shared(decisions, (
    "suit_ranks", "avoid", "key", "decision_facts", "later", "best", "active_jacks", "stakes", "rank_keep", "keep_four",
    "soldiers_out", "key_index", "unseen_keys", "floor_key", "led_rows", "cdf_rows", "seat_row", "outcome_rows", "outcome",
    "value_four", "choose_four", "jacks_out", "keep_two", "categories", "hidden_phantom", "opponent_facts",
    "entry_chances", "single_answer", "pair_answer", "phantom_answer", "hand_answer", "value_two",
    "value_draw", "choose", "bit_count"), decisions.TABLES,
    inline=("bit_count", "decision_facts", "led_rows", "cdf_rows", "seat_row", "outcome_rows", "choose_four", "value_four", "choose",
            "opponent_facts", "hidden_phantom", "value_two"))
"""The compiled decisions; the ones that pass the seat's knowledge and the work arrays on
are compiled into their callers (heuristic play-outs, 4 players ~1.9 → ~2.3 M actions/s,
2 players ~2.3 → ~2.5 M; all of them inlined: about as fast, seven times the compile time).
:func:`~cardtable.games.lost_ranks.decisions.bit_count`'s loop compiles to one ``popcnt``
instruction (LLVM knows the idiom; the kernels' shift-and-add trick it does not): a few
per cent of a decision."""
choose = _decisions["choose"]
AVOID: Final = np.asarray(decisions.avoid_table(), dtype=np.float64)
"""The heuristic's hypergeometric table (:func:`~cardtable.games.lost_ranks.decisions.avoid_table`)."""
njit, inline = (njit_keyed(bits, draws, rules, decisions, rollout),
                njit_keyed(bits, draws, rules, decisions, rollout, inline=True))
"""The kernel's functions embed the engine's tables and the compiled decisions: their
cache entries follow their sources; ``inline``: the inner loop's, compiled into their callers."""
SUIT_MASKS: Final = np.asarray(rules.SUIT_MASKS, dtype=np.int64)
JACK_BITS: Final = np.asarray(rules.JACK_BITS, dtype=np.int64)
COLOUR_JACKS: Final = np.asarray(rules.COLOUR_JACKS, dtype=np.int64)
SUIT_COLOUR: Final = np.asarray(rules.SUIT_COLOUR, dtype=np.int64)
TRICK_KEYS: Final = np.asarray(rules.TRICK_KEY_TABLE, dtype=np.int64)
"""``TRICK_KEYS[trump, led, card]`` (LR-10; ``led`` -1, not set yet, is the last row)."""
SOLDIERS: Final = rules.SOLDIERS
NOT_SPY: Final = rules.ALL_CARDS & ~SPY_BIT
DRAW_FLAG: Final = 1 << rules.DRAW
"""In a legal mask: ``draw two`` is legal."""
DRAWN_FLAG: Final = 1 << rules.PHANTOM_BASE
"""In a legal mask: the card bits are the drawn pair's (actions ``54 + c``)."""


# --- rounds ----------------------------------------------------------------------------------


@njit
def _deal(s: Vector, deck: Vector) -> None:
    """LR-4: 13 cards each from the dealer's left, card 52 the Trump Card; LR-6: the
    holder of A♥ (else A♦) leads it."""
    dealer, n = s[DEALER], s[PLAYERS]
    dealt = 52 if n == 4 else 34
    for seat in range(n):
        s[HAND + seat] = 0
    for i in range(dealt):
        s[HAND + (dealer + 1 + i) % n] |= 1 << deck[i]
    if n == 2:
        for i in range(9):
            s[PHANTOM + 9 * ((dealer + 1) % 2) + i] = deck[34 + i]
            s[PHANTOM + 9 * dealer + i] = deck[43 + i]
        s[PHANTOM_N], s[PHANTOM_N + 1] = 9, 9
    s[TRUMP_CARD] = deck[52]
    s[TRUMP] = deck[52] // 13
    for seat in range(4):
        s[VOIDS + seat] = 0
    s[DOWN], s[DOWN + 1] = (9, 9) if n == 2 else (0, 0)
    s[CAPTURED], s[CAPTURED + 1], s[DISCARDS] = 0, 0, 0
    s[LED], s[TRICK_N], s[TRICK_NO], s[LEAD_SRC] = -1, 0, 0, -1
    s[PENDING], s[PENDING + 1] = -1, -1
    s[FORCED], s[CUR] = -1, (dealer + 1) % n
    for ace in (ACE_HEARTS, ACE_DIAMONDS):
        for i in range(dealt):
            if deck[i] == ace:
                s[FORCED], s[CUR] = ace, (dealer + 1 + i) % n
                return


@njit
def _deck_of(decks: Vector, index: int) -> Vector:
    """Round ``index``'s deck: ``decks[index]`` if given, else a shuffled deck whose
    Trump Card is not a Lost Soldier (LR-4)."""
    if index < decks.shape[0]:
        given: Vector = decks[index]
        return given
    deck = np.arange(53, dtype=np.int64)
    x = shuffle(seed_random(), deck, 0, 53)
    while SOLDIERS >> deck[52] & 1:
        x = shuffle(x, deck, 0, 53)
    return deck


@njit
def new_match(players: int, decks: Vector, dealer: int, red: int, target: int, max_rounds: int,
              force: bool) -> Vector:
    """A match vector dealt from ``decks[0]`` (or a shuffled deck) by ``dealer``; ``red``:
    the Red army's seat parity; ``target`` (4 players), ``max_rounds`` (-1 none) and
    ``force`` (Force Strength) as the game's options set them (LR-16, LR-17, LR-18)."""
    s = np.zeros(SIZE, dtype=np.int64)
    s[PLAYERS], s[DEALER], s[RED_PARITY], s[OUTCOME] = players, dealer, red, -1
    s[TARGET], s[MAX_ROUNDS], s[FORCE] = target, max_rounds, force
    _deal(s, _deck_of(decks, 0))
    return s


@njit
def _round_points(s: Vector, army: int) -> int:
    """The round's points of ``army`` (LR-15, LR-16)."""
    cap = s[CAPTURED + army]
    points = 0
    if SUIT_COLOUR[s[TRUMP]] == army:
        points += 2 * bit_count(cap & COLOUR_JACKS[army])
    if cap & SPY_BIT:
        points += 2
    if s[FORCE]:
        mine = bit_count(cap & ~SOLDIERS)
        theirs = bit_count(s[CAPTURED + 1 - army] & ~SOLDIERS)
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
        elif s[PLAYERS] == 2 and s[SPY_CAPTOR] >= 0:
            s[OUTCOME] = s[SPY_CAPTOR]
        elif s[TIEBREAKS] >= 10 or (s[MAX_ROUNDS] < 0 and rounds >= 50):
            s[OUTCOME] = 2
        else:
            s[TIEBREAKS] += 1
        return
    if s[PLAYERS] == 2:
        due = rounds >= s[MAX_ROUNDS]
    else:
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
    s[SPY_CAPTOR] = RED if s[CAPTURED + RED] & SPY_BIT else BLACK if s[CAPTURED + BLACK] & SPY_BIT else -1
    for army in (RED, BLACK):
        points = _round_points(s, army)
        s[TOTALS + army] += points
        if r < round_scores.shape[0]:
            for seat in range(s[PLAYERS]):
                if (seat % 2 == s[RED_PARITY]) == (army == RED):
                    round_scores[r, seat] = points
    events[p, ROUND_END_EV] += 1
    _decide(s, r + 1)
    if s[OUTCOME] >= 0:
        s[CUR] = -1
        events[p, MATCH_END_EV] += 1
        if s[OUTCOME] < 2:
            events[0, RED_EV if s[OUTCOME] == RED else BLACK_EV] += 1
            events[0, SEAT0_EV] += (s[OUTCOME] == RED) == (s[RED_PARITY] == 0)
        events[0, TIEBREAK_EV] += s[TIEBREAKS]
        events[0, FIRST_DEALER_EV] += (s[DEALER] - r) % s[PLAYERS]  # LR-19: one seat on a round
        return
    s[ROUND] = r + 1
    s[DEALER] = (s[DEALER] + 1) % s[PLAYERS]
    events[p, ROUND_START_EV] += 1
    _deal(s, _deck_of(decks, r + 1))


# --- moves -----------------------------------------------------------------------------------


@inline
def _follow(m: int, led: int) -> int:
    """The cards of ``m`` that may follow suit ``led`` (LR-7: the suit if held, its Jack
    only as the last card of it; anything when void or after a led Spy, LR-9)."""
    if led < 0:
        return m
    suit = m & SUIT_MASKS[led]
    if suit:
        jb = JACK_BITS[led]
        follow: int = suit ^ jb if suit & jb and suit != jb else suit
        return follow
    return m


@inline
def _legal(s: Vector) -> int:
    """The legal actions as a mask: card bits, with :data:`DRAW_FLAG` for ``draw two``,
    or the drawn pair's playable cards with :data:`DRAWN_FLAG` (LR-6 … LR-9, LR-13, LR-14)."""
    p, led = s[CUR], s[LED]
    if s[PENDING] >= 0:
        m = 1 << s[PENDING] | 1 << s[PENDING + 1]
        return DRAWN_FLAG | (m & NOT_SPY if not s[TRICK_N] else _follow(m, led))
    h: int = s[HAND + p]
    two = s[PLAYERS] == 2
    if not s[TRICK_N]:
        if s[FORCED] >= 0:
            forced: int = 1 << s[FORCED]
            return forced
        m = h & NOT_SPY
        m = m if m else h
        return m | DRAW_FLAG if two and s[PHANTOM_N + p] else m
    if two and ((s[LEAD_SRC] == 0 and s[PHANTOM_N + p]) or (s[LEAD_SRC] == 1 and not h)):
        return DRAW_FLAG
    return _follow(h, led)


@inline
def _complete_trick(s: Vector, decks: Vector, round_scores: Vector, events: Vector) -> None:
    """Judge the full trick (LR-10, LR-11): the winner's army captures it and the winner
    leads, or nobody wins, the cards are discarded and the next seat after the leader leads."""
    best, winner, cards = -1, -1, 0
    led, n = s[LED], s[PLAYERS]
    for i in range(n):
        c = s[TRICK_CARD + i]
        cards |= 1 << c
        key = TRICK_KEYS[s[TRUMP], led if led >= 0 else 4, c]
        if key > best:
            best, winner = key, s[TRICK_SEAT + i]
    p = s[TRICK_SEAT + n - 1]
    if winner >= 0:
        army = RED if winner % 2 == s[RED_PARITY] else BLACK
        s[CAPTURED + army] |= cards
        s[CUR] = winner
        events[winner, WON_EV] += 1
    else:
        s[DISCARDS] |= cards
        s[CUR] = (s[TRICK_SEAT] + 1) % n
        events[s[TRICK_SEAT], NO_WINNER_EV] += 1
    s[TRICK_N], s[LED], s[LEAD_SRC] = 0, -1, -1
    s[TRICK_NO] += 1
    if s[TRICK_NO] == (13 if n == 4 else 26):
        _end_round(s, p, decks, round_scores, events)


@inline
def _draw_two(s: Vector, p: int) -> int:
    """``draw two`` (LR-14): the top two phantom cards become the drawn pair; a last
    phantom card is played at once — returned (else -1)."""
    n, base = s[PHANTOM_N + p], PHANTOM + 9 * p
    s[DOWN + p] = s[DOWN + p] - 2 if s[DOWN + p] > 2 else 0
    if n == 1:
        s[PHANTOM_N + p] = 0
        last: int = s[base]
        return last
    s[PENDING], s[PENDING + 1] = s[base], s[base + 1]
    for i in range(n - 2):
        s[base + i] = s[base + i + 2]
    s[PHANTOM_N + p] = n - 2
    return -1


@inline
def _play_card(s: Vector, p: int, c: int, source: int, decks: Vector, round_scores: Vector, events: Vector) -> None:
    """``p`` plays card ``c`` from ``source`` (0 hand, 1 phantom) to the trick."""
    n, k = s[PLAYERS], s[TRICK_N]
    events[p, PLAYED_EV] += 1
    if k == 0:
        s[FORCED], s[LEAD_SRC] = -1, source
    led = s[LED]
    if k and source == 0 and led >= 0 and (c // 13 != led or 1 << c & JACK_BITS[led]):
        s[VOIDS + p] |= 1 << led  # a discard, the Spy or the Jack shows a void (LR-7, LR-20)
    if led < 0 and c != 52:
        s[LED] = c // 13
    s[TRICK_SEAT + k], s[TRICK_CARD + k] = p, c
    s[TRICK_N] = k + 1
    if k == n - 1:
        _complete_trick(s, decks, round_scores, events)
    else:
        s[CUR] = (p + 1) % n


@inline
def _apply(s: Vector, a: int, decks: Vector, round_scores: Vector, events: Vector) -> None:
    """Apply the legal action ``a`` (unchecked), finishing the trick and the round it ends."""
    p = s[CUR]
    s[ACTIONS] += 1
    if a < 52 + 1:
        s[HAND + p] ^= 1 << a
        _play_card(s, p, a, 0, decks, round_scores, events)
    elif a == rules.DRAW:
        last = _draw_two(s, p)
        if last >= 0:
            _play_card(s, p, last, 1, decks, round_scores, events)
        else:
            events[p, DRAW_EV] += 1
    else:
        c = a - rules.PHANTOM_BASE
        other = s[PENDING + 1] if c == s[PENDING] else s[PENDING]
        s[PHANTOM + 9 * p + s[PHANTOM_N + p]] = other  # face up to the bottom (LR-14)
        s[PHANTOM_N + p] += 1
        s[PENDING], s[PENDING + 1] = -1, -1
        events[p, FACE_UP_EV] += 1
        _play_card(s, p, c, 1, decks, round_scores, events)


@inline
def _random_action(x: np.uint64, mask: int) -> tuple[np.uint64, int]:
    """A uniformly random legal action of the legal ``mask`` and the generator's next
    state (:mod:`cardtable.kernels.draws`)."""
    x, a = random_bit(x, mask & ~DRAWN_FLAG)
    return x, a + rules.PHANTOM_BASE if mask & DRAWN_FLAG else a


# --- the heuristic -------------------------------------------------------------------------


@inline
def _knowledge(s: Vector, k: Vector) -> None:
    """What the seat to move knows, in the slots of :mod:`cardtable.games.lost_ranks.decisions`:
    its hand and phantom deck, what has been played (the trick, the captures, the
    discards), the Trump Card, the voids shown, the hand sizes, the opponent's face-up
    phantom cards — no other hidden card."""
    me, n = s[CUR], s[PLAYERS]
    k[decisions.ME], k[decisions.PLAYERS], k[decisions.TRUMP], k[decisions.FORCE] = me, n, s[TRUMP], s[FORCE]
    k[decisions.HAND], k[decisions.LED], k[decisions.TRICK_N] = s[HAND + me], s[LED], s[TRICK_N]
    gone = 1 << s[TRUMP_CARD] | s[DISCARDS] | s[CAPTURED] | s[CAPTURED + 1]
    for i in range(s[TRICK_N]):
        k[decisions.TRICK_SEAT + i], k[decisions.TRICK_CARD + i] = s[TRICK_SEAT + i], s[TRICK_CARD + i]
        gone |= 1 << s[TRICK_CARD + i]
    for q in range(n):
        k[decisions.ARMY + q] = RED if q % 2 == s[RED_PARITY] else BLACK
        k[decisions.VOIDS + q] = s[VOIDS + q]
        k[decisions.SIZES + q] = bit_count(s[HAND + q])
    known = gone | s[HAND + me]
    if n == 2:
        opp = 1 - me
        k[decisions.MY_PHANTOM_N], k[decisions.OPP_PHANTOM_N] = s[PHANTOM_N + me], s[PHANTOM_N + opp]
        for i in range(s[PHANTOM_N + me]):
            k[decisions.MY_PHANTOM + i] = s[PHANTOM + 9 * me + i]
            known |= 1 << s[PHANTOM + 9 * me + i]
        for i in range(s[PHANTOM_N + opp]):
            face_up = i >= s[DOWN + opp]
            k[decisions.OPP_PHANTOM + i] = s[PHANTOM + 9 * opp + i] if face_up else -1
            known |= 1 << s[PHANTOM + 9 * opp + i] if face_up else 0
        if s[PENDING] >= 0:
            known |= 1 << s[PENDING] | 1 << s[PENDING + 1]  # the seat's own drawn pair
    k[decisions.LIVE] = rules.ALL_CARDS & ~gone
    k[decisions.UNSEEN] = rules.ALL_CARDS & ~known


@inline
def _legal_list(s: Vector, legal: Vector) -> int:
    """Writes the legal actions, ascending, to ``legal``; returns how many."""
    mask = _legal(s)
    base = rules.PHANTOM_BASE if mask & DRAWN_FLAG else 0
    m, count = mask & ~DRAWN_FLAG, 0
    while m:
        low = m & -m
        legal[count] = bit_index(low) + base
        count += 1
        m ^= low
    return count


@inline
def _heuristic_inline(s: Vector, k: Vector, legal: Vector, count: int, noise: npt.NDArray[np.float64],
                      work: npt.NDArray[np.float64]) -> int:
    """The heuristic's choice among the ``count`` legal actions ``legal`` (the decisions
    of :mod:`cardtable.games.lost_ranks.decisions`, compiled), breaking ties with
    ``noise[i]`` for the ``i``-th; ``k`` and ``work`` are work space.  Compiled into the
    play-outs' loop (:func:`_play_many`): a call passing six arrays costs about a tenth of a
    decision in reference counting."""
    _knowledge(s, k)
    chosen: int = legal[choose(k, legal[:count], noise[:count], AVOID, work)]
    return chosen


@njit
def _heuristic(s: Vector, k: Vector, legal: Vector, count: int, noise: npt.NDArray[np.float64],
               work: npt.NDArray[np.float64]) -> int:
    """:func:`_heuristic_inline` as a function of its own, for the step-by-step entries
    and the searches' play-outs."""
    chosen: int = _heuristic_inline(s, k, legal, count, noise, work)
    return chosen


# --- play-outs -------------------------------------------------------------------------------


@njit
def _play_many(players: int, n: int, seed: int, policies: Vector, target: int, max_rounds: int, force: bool,
               scores: Vector, round_scores: Vector, actions: Vector, events: Vector) -> None:
    np.random.seed(seed)
    none = np.empty((0, 53), dtype=np.int64)
    k = np.zeros(decisions.KNOWLEDGE, dtype=np.int64)
    legal = np.zeros(54, dtype=np.int64)
    noise = np.zeros(54, dtype=np.float64)
    work = np.zeros(decisions.WORK, dtype=np.float64)
    x = seed_random()
    for i in range(n):
        s = new_match(players, none, np.random.randint(players), np.random.randint(2), target, max_rounds, force)
        while s[CUR] >= 0:
            if policies[s[CUR]]:
                count = _legal_list(s, legal)
                for j in range(count if count > 1 else 0):
                    x, noise[j] = uniform(x)
                a = legal[0] if count == 1 else _heuristic_inline(s, k, legal, count, noise, work)
            else:
                x, a = _random_action(x, _legal(s))
            _apply(s, a, none, round_scores[i], events[i])
        for seat in range(players):
            scores[i, seat] = s[TOTALS + (RED if seat % 2 == s[RED_PARITY] else BLACK)]
        actions[i] = s[ACTIONS]


def _options(game: LostRanks) -> tuple[int, int, bool]:
    return int(game.target or 0), -1 if game.max_rounds is None else game.max_rounds, game.config.force_strength


def max_rounds_of(game: LostRanks) -> int:
    """The most rounds a match of ``game`` can last (LR-17, LR-19a)."""
    return (game.max_rounds or 50) + 11


def check(game: LostRanks, policies: Sequence[str]) -> None:
    """A :class:`ValueError` unless the kernel can play ``game`` with seats of ``policies``."""
    unknown = sorted(set(policies) - {"random", "heuristic"})
    if unknown:
        raise ValueError(f"the Lost Ranks kernel plays random and heuristic seats, not {', '.join(unknown)}")


def play_many(game: LostRanks, policies: Sequence[str], n: int, seed: int, *,
              styles: Sequence[str] | None = None) -> PlayOuts:
    """``n`` matches of ``game`` from fresh deals of ``seed``, seat ``i`` playing
    ``policies[i]`` (random legal moves or the heuristic, see
    :func:`cardtable.kernels.play_many`); the heuristic has no styles (``styles``, if
    given, must be the lab's default ``steady``)."""
    check(game, policies)
    target, max_rounds, force = _options(game)
    players = game.num_players
    if len(policies) != players:
        raise ValueError(f"this Lost Ranks has {players} seats: give one policy per seat, not {len(policies)}")
    if styles is not None and any(name != "steady" for name in styles):
        raise ValueError(f"the Lost Ranks heuristic has no styles, not {', '.join(sorted(set(styles) - {'steady'}))}")
    flags = np.array([p == "heuristic" for p in policies], dtype=np.int64)
    scores, actions = np.zeros((n, players), np.int64), np.zeros(n, np.int64)
    round_scores = np.zeros((n, max_rounds_of(game), players), np.int64)
    events = np.zeros((n, players, len(EVENTS)), np.int64)
    _play_many(players, n, seed, flags, target, max_rounds, force, scores, round_scores, actions, events)
    return PlayOuts(scores, round_scores, actions, events, EVENTS)


def match_for(game: LostRanks, decks: Vector, dealer: int, red: int) -> Vector:
    """:func:`new_match` with ``game``'s options."""
    target, max_rounds, force = _options(game)
    return new_match(game.num_players, decks, dealer % game.num_players, red, target, max_rounds, force)


def legal_actions(s: Vector) -> list[int]:
    """The legal actions of a match vector, in the engine's order."""
    if s[CUR] < 0:
        return []
    mask = int(_legal(s))
    if mask & DRAWN_FLAG:
        return [rules.PHANTOM_BASE + c for c in range(53) if mask >> c & 1]
    return [a for a in range(54) if mask >> a & 1]


def apply_action(s: Vector, action: int, decks: Vector, round_scores: Vector, events: Vector) -> None:
    """Apply a legal ``action`` to the vector ``s`` in place (``decks``: the explicit decks
    of the match, rows by round; ``round_scores``/``events`` are added to)."""
    _apply(s, action, decks, round_scores, events)


def heuristic_action(s: Vector, noise: Sequence[float]) -> int:
    """The compiled heuristic's action for the seat to move of ``s``; ``noise``: the
    tie-breaking numbers, one per legal action (as
    :class:`~cardtable.games.lost_ranks.heuristic.LostRanksHeuristic` draws them; at
    least as many as there are legal actions, the rest unused)."""
    legal = np.zeros(54, dtype=np.int64)
    count = _legal_list_of(s, legal)
    if count == 1:
        return int(legal[0])
    k = np.zeros(decisions.KNOWLEDGE, dtype=np.int64)
    work = np.zeros(decisions.WORK, dtype=np.float64)
    return int(_heuristic(s, k, legal, count, np.asarray(noise[:count], dtype=np.float64), work))


@njit
def _legal_list_of(s: Vector, legal: Vector) -> int:
    return _legal_list(s, legal)


def knowledge_of(s: Vector) -> list[int]:
    """What the seat to move of ``s`` knows, in the decisions' slots (for the tests)."""
    k = np.zeros(decisions.KNOWLEDGE, dtype=np.int64)
    _knowledge(s, k)
    return [int(x) for x in k]


def row_returns(scores: list[int], counts: dict[str, int]) -> list[float]:
    """The returns from the per-seat army totals and the kernel's counts: +1 for the
    winning army's seats, -1 for the other's (seats 0 and 1 are always enemies), 0 for
    all in a draw (LR-19a)."""
    if not counts["red_won"] and not counts["black_won"]:
        return [0.0] * len(scores)
    won = counts["seat_0_won"]
    return [1.0 if (seat % 2 == 0) == bool(won) else -1.0 for seat in range(len(scores))]


def match_rounds(counts: dict[str, int]) -> int:
    """The rounds a match lasted, from the kernel's counts."""
    return counts["round_ended"]


def row_measures(scores: list[int], rounds: int, counts: dict[str, int]) -> dict[str, float]:
    """The measures of :mod:`cardtable.games.lost_ranks.measures` from the kernel's counts."""
    return {"first_dealer": float(counts["first_dealer"]), "red_army_won": float(counts["red_won"]), "black_army_won": float(counts["black_won"]),
            "rounds": float(rounds), "margin": float(abs(scores[0] - scores[1])),
            "tiebreak_rounds": float(counts["tiebreak_rounds"]),
            "draw": float(not counts["red_won"] and not counts["black_won"]),
            "no_winner_tricks": float(counts["no_winner_trick"])}


def row_events(rounds: int, counts: dict[str, int]) -> dict[str, int]:
    """The engine's typed-event counts from the kernel's (kinds that did not happen are
    left out, as :func:`cardtable.lab.measures.count_event_kinds` does)."""
    return {kind: counts[kind] for kind in EVENTS[:8] if counts[kind]}


# --- the search's play-outs (appended: the search's entries) -------------------------------

from cardtable.games.lost_ranks.rules import LostRanksState  # noqa: E402
from cardtable.kernels.jit import compile_shared  # noqa: E402

search_njit = njit_keyed(bits, rules, rollout)


@search_njit
def _uniform(rng: int) -> float:
    """A uniform number in [0, 1) from numba's generator (the play-out policy's
    :data:`~cardtable.games.lost_ranks.rollout.uniform`; ``rng`` unused)."""
    u: float = np.random.random()
    return u


_rollout = compile_shared(rollout, rollout.FUNCTIONS, rollout.TABLES,
                          {"top_bit": bit_index, "ones": bit_count, "uniform": _uniform}, inline=True)
rollout_move = _rollout["rollout_move"]
""":func:`cardtable.games.lost_ranks.rollout.rollout_move` compiled: the search's play-out policy."""


@inline
def _actions(mask: int, out: Vector) -> int:
    """The legal actions of a legal mask into ``out``, in the engine's order; returns how many."""
    k = 0
    base = rules.PHANTOM_BASE if mask & DRAWN_FLAG else 0
    m = mask & ~DRAWN_FLAG
    while m:
        low = m & -m
        out[k] = base + bit_index(low)
        k += 1
        m ^= low
    return k


@search_njit
def _policy_round(s: Vector, played: Vector) -> int:
    """Play the round of ``s`` to its end (or the match's) with the search's play-out
    policy; the actions go to ``played`` (as many as fit).  Returns how many were applied."""
    n = s[PLAYERS]
    none = np.empty((0, 53), dtype=np.int64)
    round_scores = np.zeros((0, n), dtype=np.int64)
    events = np.zeros((n, len(EVENTS)), dtype=np.int64)
    armies = np.empty(n, dtype=np.int64)
    for seat in range(n):
        armies[seat] = RED if seat % 2 == s[RED_PARITY] else BLACK
    legal = np.empty(54, dtype=np.int64)
    # views of the vector, which the moves below update in place
    seats, cards, hands = s[TRICK_SEAT: TRICK_SEAT + 4], s[TRICK_CARD: TRICK_CARD + 4], s[HAND: HAND + n]
    phantoms, phantom_n = s[PHANTOM: PHANTOM + 18].reshape((2, 9)), s[PHANTOM_N: PHANTOM_N + 2]
    r, moves = s[ROUND], 0
    while s[CUR] >= 0 and s[ROUND] == r:
        k = _actions(_legal(s), legal)
        a = rollout_move(s[CUR], armies, s[TRUMP], s[LED], s[TRICK_N], seats, cards, hands, phantoms, phantom_n,
                         legal, k, 0)
        if moves < played.shape[0]:
            played[moves] = a
        _apply(s, a, none, round_scores, events)
        moves += 1
    return moves


@search_njit
def policy_round(s: Vector, seed: int, played: Vector) -> int:
    """:func:`_policy_round` of ``s`` in place, numba's generator seeded with ``seed``."""
    np.random.seed(seed)
    moves: int = _policy_round(s, played)
    return moves


ROUND_RESULT: Final = ("red", "black", "rounds", "tiebreaks", "outcome")
"""The columns of :func:`policy_rounds`' results: army totals, rounds played, tiebreak
rounds, outcome (-1 on, 0 Red won, 1 Black won, 2 draw)."""


@search_njit
def _round_result(t: Vector, row: Vector) -> None:
    """Write the match vector ``t``'s :data:`ROUND_RESULT` into ``row``."""
    outcome = t[OUTCOME]
    row[0], row[1], row[4] = t[TOTALS + RED], t[TOTALS + BLACK], outcome
    row[2] = t[ROUND] + (1 if outcome >= 0 else 0)
    row[3] = t[TIEBREAKS]


@search_njit
def policy_rounds(s: Vector, seed: int, results: Vector) -> int:
    """``results.shape[0]`` play-outs of copies of ``s`` by :func:`_policy_round`, numba's
    generator seeded once with ``seed``; row ``i`` of ``results`` gets play-out ``i``'s
    :data:`ROUND_RESULT`.  Returns the actions applied in all."""
    np.random.seed(seed)
    none = np.empty(0, dtype=np.int64)
    moves = 0
    for i in range(results.shape[0]):
        t = s.copy()
        moves += _policy_round(t, none)
        _round_result(t, results[i])
    return moves


def export(state: LostRanksState) -> Vector:
    """The match vector of an engine state (for a searcher: a sampled world, whose hidden
    cards are as that world deals them), read through its public accessors.  Finished
    rounds' scores are not carried (their totals are)."""
    game = state.game
    n = game.num_players
    v = [0] * SIZE
    trick = state.trick
    v[PLAYERS], v[CUR], v[LED], v[TRICK_N] = n, state.current_player(), state.led_suit, len(trick)
    v[TRICK_NO], v[TRUMP], v[DEALER], v[ROUND] = state.tricks_done, state.trump_suit, state.dealer, state.round_index
    v[FORCED], v[ACTIONS], v[RED_PARITY] = state.forced_lead, len(state.history), 0 if state.armies[0] == RED else 1
    v[TOTALS], v[TOTALS + 1] = state.army_totals
    v[CAPTURED], v[CAPTURED + 1] = state.captured_masks
    v[DISCARDS], v[TIEBREAKS] = state.discard_mask, state.tiebreak_rounds
    winner = state.winner()
    v[OUTCOME] = -1 if not state.is_terminal() else 2 if winner is None else rules.ARMY_NAMES.index(winner)
    if v[OUTCOME] >= 0:
        v[CUR] = -1
    v[TARGET], v[MAX_ROUNDS], v[FORCE] = _options(game)
    v[LEAD_SRC], v[SPY_CAPTOR] = state.lead_source, -1
    pending = state.drawn_pair
    v[PENDING], v[PENDING + 1] = pending if pending else (-1, -1)
    for seat, hand in enumerate(state.hand_masks):
        v[HAND + seat] = hand
    v[TRUMP_CARD] = state.trump_card
    for seat, voids in enumerate(state.void_masks):
        v[VOIDS + seat] = voids
    v[DOWN], v[DOWN + 1] = state.face_down_counts[:2] if n == 2 else (0, 0)
    for i, (seat, card, _) in enumerate(trick):
        v[TRICK_SEAT + i], v[TRICK_CARD + i] = seat, card
    if n == 2:
        for seat in range(2):
            deck = state.phantom_cards(seat)
            v[PHANTOM_N + seat] = len(deck)
            v[PHANTOM + 9 * seat: PHANTOM + 9 * seat + len(deck)] = deck
    return np.array(v, dtype=np.int64)


def policy_playouts(state: LostRanksState, seed: int, n: int) -> tuple[int, list[tuple[int, ...]]]:
    """``n`` policy play-outs of ``state`` to the end of its round in the kernel
    (:func:`policy_rounds`): the actions applied in all and each play-out's
    :data:`ROUND_RESULT`."""
    results = np.zeros((n, len(ROUND_RESULT)), dtype=np.int64)
    moves = int(policy_rounds(export(state), seed, results))
    return moves, [tuple(row) for row in results.tolist()]


# --- inference: how often the heuristic would have played what a seat played -------------


@njit
def heuristic_misses(s: Vector, actions: Vector, seat: int) -> int:
    """Apply ``actions`` to the vector ``s`` in place (a round from its start, the
    round's moves so far); return at how many of ``seat``'s decisions with a choice the
    compiled heuristic (ties broken by the first, then by the last legal action) would
    not have played the action played, or -1 when an action is not legal in ``s``."""
    n = s[PLAYERS]
    none = np.empty((0, 53), dtype=np.int64)
    round_scores = np.zeros((0, n), dtype=np.int64)
    events = np.zeros((n, len(EVENTS)), dtype=np.int64)
    legal = np.empty(54, dtype=np.int64)
    k = np.zeros(decisions.KNOWLEDGE, dtype=np.int64)
    work = np.zeros(decisions.WORK, dtype=np.float64)
    first = np.linspace(1.0, 0.0, 54)
    last = np.linspace(0.0, 1.0, 54)
    misses = 0
    for a in actions:
        mask = _legal(s)
        count = _actions(mask, legal)
        found = False
        for i in range(count):
            found = found or legal[i] == a
        if not found:
            return -1
        if s[CUR] == seat and count > 1:
            if (_heuristic(s, k, legal, count, first[:count], work) != a
                    and _heuristic(s, k, legal, count, last[:count], work) != a):
                misses += 1
        _apply(s, a, none, round_scores, events)
    return misses


def round_start_vector(world: LostRanksState, start: RoundStart) -> Vector:
    """The match vector of Command of Two ``world`` put back to its round's ``start``
    (:meth:`cardtable.games.lost_ranks.inference.RoundLog.start`): its hands and phantom
    decks (all face down), its leader to lead, nothing played yet."""
    s = export(world)
    for seat in range(2):
        s[HAND + seat] = start.hands[seat]
        s[PHANTOM + 9 * seat: PHANTOM + 9 * seat + 9] = start.phantoms[seat]
        s[PHANTOM_N + seat], s[DOWN + seat] = 9, 9
        s[VOIDS + seat] = 0
    s[CAPTURED], s[CAPTURED + 1], s[DISCARDS] = 0, 0, 0
    s[LED], s[TRICK_N], s[TRICK_NO], s[LEAD_SRC] = -1, 0, 0, -1
    s[PENDING], s[PENDING + 1], s[SPY_CAPTOR] = -1, -1, -1
    s[CUR], s[FORCED] = start.leader, start.forced
    return s


def round_misses(world: LostRanksState, start: RoundStart, actions: Sequence[int], seat: int) -> int:
    """:func:`heuristic_misses` of ``seat`` replaying ``actions`` from ``world``'s round
    ``start``."""
    return int(heuristic_misses(round_start_vector(world, start), np.asarray(actions, dtype=np.int64), seat))


@njit
def _heuristic_to_round_end(t: Vector, k: Vector, legal: Vector, noise: npt.NDArray[np.float64],
                            work: npt.NDArray[np.float64], none: Vector, round_scores: Vector, events: Vector,
                            r: int) -> int:
    """Every seat plays the compiled heuristic in ``t`` (in place) to the end of round
    ``r`` (ties broken at random); returns the moves played."""
    moves = 0
    while t[CUR] >= 0 and t[ROUND] == r:
        count = _legal_list(t, legal)
        for j in range(count if count > 1 else 0):
            noise[j] = np.random.random()
        a = legal[0] if count == 1 else _heuristic(t, k, legal, count, noise, work)
        _apply(t, a, none, round_scores, events)
        moves += 1
    return moves


@njit
def lookahead_rounds(s: Vector, seed: int, results: Vector, me: int, depth: int) -> int:
    """:func:`heuristic_rounds` in which seat ``me`` makes its first ``depth`` decisions
    with a choice by a one-step look-ahead in the play-out's world: each legal move, then
    the heuristic to the round's end; the move with the best army point difference
    (``me``'s army's round points minus the other's) is played, the heuristic's on a tie.
    With ``depth`` 0 (or ``me`` -1), every seat plays the heuristic."""
    np.random.seed(seed)
    n = s[PLAYERS]
    none = np.empty((0, 53), dtype=np.int64)
    round_scores = np.zeros((0, n), dtype=np.int64)
    events = np.zeros((n, len(EVENTS)), dtype=np.int64)
    k = np.zeros(decisions.KNOWLEDGE, dtype=np.int64)
    legal = np.zeros(54, dtype=np.int64)
    candidates = np.zeros(54, dtype=np.int64)
    noise = np.zeros(54, dtype=np.float64)
    work = np.zeros(decisions.WORK, dtype=np.float64)
    mine = RED if me % 2 == s[RED_PARITY] else BLACK
    moves = 0
    for i in range(results.shape[0]):
        t = s.copy()
        r = t[ROUND]
        left = depth
        while t[CUR] >= 0 and t[ROUND] == r:
            count = _legal_list(t, legal)
            for j in range(count if count > 1 else 0):
                noise[j] = np.random.random()
            a = legal[0] if count == 1 else _heuristic(t, k, legal, count, noise, work)
            if count > 1 and t[CUR] == me and left > 0:
                left -= 1
                candidates[:count] = legal[:count]
                best_value, best_action, heuristic_value = -1e9, a, 0.0
                for c in range(count):
                    u = t.copy()
                    _apply(u, candidates[c], none, round_scores, events)
                    moves += 1 + _heuristic_to_round_end(u, k, legal, noise, work, none, round_scores, events, r)
                    value = float(u[TOTALS + mine] - u[TOTALS + 1 - mine])
                    if candidates[c] == a:
                        heuristic_value = value
                    if value > best_value:
                        best_value, best_action = value, candidates[c]
                if best_value > heuristic_value:
                    a = best_action
            _apply(t, a, none, round_scores, events)
            moves += 1
        _round_result(t, results[i])
    return moves


@njit
def heuristic_rounds(s: Vector, seed: int, results: Vector) -> int:
    """:func:`policy_rounds` with every seat playing the compiled heuristic instead of the
    play-out policy (ties broken at random, as the Python bot breaks them): the
    look-ahead play-outs with no seat looking ahead."""
    moves: int = lookahead_rounds(s, seed, results, -1, 0)
    return moves


def heuristic_playouts(state: LostRanksState, seed: int, n: int) -> tuple[int, list[tuple[int, ...]]]:
    """:func:`policy_playouts` with the compiled heuristic in every seat (:func:`heuristic_rounds`)."""
    results = np.zeros((n, len(ROUND_RESULT)), dtype=np.int64)
    moves = int(heuristic_rounds(export(state), seed, results))
    return moves, [tuple(row) for row in results.tolist()]


def lookahead_playouts(state: LostRanksState, seed: int, n: int, me: int,
                       depth: int = 1) -> tuple[int, list[tuple[int, ...]]]:
    """:func:`heuristic_playouts` with seat ``me`` looking one step ahead at its first
    ``depth`` decisions of each (:func:`lookahead_rounds`)."""
    results = np.zeros((n, len(ROUND_RESULT)), dtype=np.int64)
    moves = int(lookahead_rounds(export(state), seed, results, me, depth))
    return moves, [tuple(row) for row in results.tolist()]
