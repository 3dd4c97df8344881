"""The Lost Cities kernel: whole matches (LC-1 … LC-7) compiled with numba.

A match lives in one int64 vector (:data:`SIZE` slots, offsets below); a colour's
hand, expedition or known cards is a 16-bit field of the engine's card-set layout
(:mod:`cardtable.games.lost_cities`: bit ``v`` value index ``v``, bits 14..15 the
wagers), the action ids are the engine's.  Rounds are dealt by the engine's rule
(LC-2: ``deck[0], deck[2], …`` to seat 0, ``deck[1], …`` to seat 1, the draw pile from
``deck[16]``) from explicit decks or, past them, from numba's random generator seeded
with the batch's seed — the kernel does not reproduce Python's ``random`` stream, so
to replay an engine deal pass its decks in (:func:`new_match`).  Random seats draw
their moves from the kernels' generator (:mod:`cardtable.kernels.draws`) seeded per
play-out from numba's.

The heuristic seats run the decision code of
:mod:`cardtable.games.lost_cities.decisions` compiled (:func:`~cardtable.kernels.jit.compile_shared`):
the same functions the Python bot and the search run; a play-out keeps each seat's
colour facts and recomputes only the colours whose cards changed, as the Python bot's
cache does.

Speed comes from what the inner loop does not do: the small functions are compiled
into it (:func:`~cardtable.kernels.jit.njit_inline`), the event counts live in the
match vector (counting into a second array made applying a move about a fifth slower),
the round's end is called from the loop rather than from the applied move, a slot keeps
which discard piles hold cards (a draw-phase move, half of a random match's moves, is then
a table lookup: random play-outs about +30 %), and neither the random seats nor the
heuristic's decisions list (or sort) the moves.

Entries: :func:`play_many` (the lab's batches), :func:`export`, :func:`play_outs` and
:func:`heuristic_rounds` (the search: play-outs from a determinised state), :func:`new_match`,
:func:`legal_actions`, :func:`apply_action` and :func:`heuristic_action` (step by
step, for the verification against the engine).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from cardtable.games.lost_cities import decisions, rules
from cardtable.games.lost_cities.heuristic import STYLES, LostCitiesStyle
from cardtable.games.lost_cities import HAND_SIZE, STALL_LIMIT, LostCities, LostCitiesState, score_cards
from cardtable.games.lost_cities.rules import score_table
from cardtable.kernels import PlayOuts
from cardtable.kernels import draws
from cardtable.kernels.draws import below, seed_random
from cardtable.kernels.jit import compile_shared, njit_keyed

Vector = npt.NDArray[np.int64]

CUR, PHASE, BAN, STALL, PTR, ROUND, STARTER, TOTALS, COLORS, ROUNDS, ACTIONS, OPEN = 0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12
"""Scalar slots: seat to move (-1 over), phase (0 play, 1 draw), colour discarded onto
this turn (-1 none), turns without a draw-pile card, next draw-pile index, round index,
round starter, match totals (two slots), colours, rounds, actions applied, the colours
whose discard piles hold cards (bit ``c``)."""
HAND, EXP, KNOWN = 16, 28, 40
"""Per seat and colour ``slot + 6 * seat + colour``: hand, expeditions, cards taken from piles."""
PILE_N, PILES, EV, DECK = 52, 58, 130, 140
"""Discard pile sizes (per colour), the piles (``PILES + 12 * colour + i``, bottom first),
the event counts (``EV + 5 * seat + event``, :data:`EVENTS`), the round's deck (``DECK
+ i``; the draw pile is ``DECK + PTR …``)."""
SIZE: Final = 212

EVENTS: Final = ("play", "wager", "discard", "draw deck", "draw pile")
"""The events counted per seat: cards placed (wagers also counted apart), discards, draws."""
PLAY_EV, WAGER_EV, DISCARD_EV, DECK_EV, PILE_EV = range(5)
STYLE_FIELDS: Final = ("start_margin", "extra_margin", "wager_min_numbers", "future_share", "conservative",
                       "deck_value", "denial", "tempo_weight")
"""A style as a float vector, in this order."""

SCORE: Final = np.array([score_cards([0] * (i >> 9) + [v + 1 for v in range(9) if i >> v & 1])
                         for i in range(4 << 9)], dtype=np.int64)
"""LC-6 score indexed by ``wagers << 9 | number bits`` (bit i: number i + 2), from the engine."""

_shared = compile_shared(decisions, ("plan", "opp_use", "colour_facts", "seat_numbers", "play_cost", "discard_cost",
                                     "play_options", "play_choice", "pile_option", "draw_options", "pending_cards",
                                     "draw_choice"),
                         decisions.TABLES, inline=True)
"""The compiled decisions, each compiled into its callers (heuristic play-outs +12–16 %, load 6–7:
5 colours 2.31–2.34 → 2.47–2.60 M actions/s, 6 colours 2.10–2.19 → 2.45–2.52 M; about 10 s more
CPU to compile)."""
ONTO: Final = np.array([0x3FF & ~((2 << decisions.HIGH[e & 0x3FE]) - 1) if e & 0x3FE else 0x3FF for e in range(1024)],
                        dtype=np.int64)
"""The value indices that may go on an expedition whose value mask is ``e`` (LC-3: any
card on an empty or wagers-only expedition, else numbers above its top)."""
POP: Final = np.array([bin(m).count("1") for m in range(1024)], dtype=np.int64)
"""Values in a 10-bit value mask."""
VALUES: Final = np.array([[v for v in range(10) if m >> v & 1] + [0] * (10 - bin(m).count("1")) for m in range(1024)],
                         dtype=np.int64)
"""The value indices of a 10-bit value mask, lowest first (padded with zeros)."""
colour_facts = _shared["colour_facts"]
seat_numbers = _shared["seat_numbers"]
play_choice = _shared["play_choice"]
draw_choice = _shared["draw_choice"]
njit, inline = njit_keyed(rules, decisions, draws), njit_keyed(rules, decisions, draws, inline=True)
"""The kernel's functions embed the engine's tables and the compiled decisions: their
cache entries follow those modules' sources too; ``inline``: the inner loop's, compiled
into their callers."""


def style_vector(style: LostCitiesStyle) -> npt.NDArray[np.float64]:
    """A style's settings as a float vector (:data:`STYLE_FIELDS`)."""
    return np.array([float(getattr(style, name)) for name in STYLE_FIELDS])


# --- cards -------------------------------------------------------------------------------


@inline
def _field_add(field: int, v: int) -> int:
    return field | (1 << v) if v else (field + (1 << 14)) | 1


@inline
def _field_remove(field: int, v: int) -> int:
    if v:
        return field ^ (1 << v)
    field -= 1 << 14
    return field if field >> 14 else field & ~1


@inline
def _field_size(field: int) -> int:
    n: int = (field >> 14) + POP[field & 0x3FE]
    return n


# --- rounds ------------------------------------------------------------------------------


@njit
def _deal(s: Vector, decks: Vector, index: int) -> None:
    """LC-2: round ``index``'s deck (``decks[index]`` if given, else a shuffled full
    deck, shuffled in place), 8 cards each, alternately from seat 0; the rest is the
    draw pile."""
    C = s[COLORS]
    if index < decks.shape[0]:
        for i in range(12 * C):
            s[DECK + i] = decks[index, i]
    else:
        for c in range(C):
            for i in range(12):
                s[DECK + 12 * c + i] = 10 * c + (i - 2 if i > 2 else 0)
        np.random.shuffle(s[DECK:DECK + 12 * C])
    for i in range(HAND, EV):
        s[i] = 0
    for i in range(2 * HAND_SIZE):
        k = s[DECK + i]
        slot = HAND + 6 * (i & 1) + k // 10
        s[slot] = _field_add(s[slot], k % 10)
    s[PTR] = 2 * HAND_SIZE
    s[STALL] = s[OPEN] = 0
    s[CUR] = s[STARTER]
    s[PHASE] = 0
    s[BAN] = -1


@njit
def _end_round(s: Vector, decks: Vector, round_scores: Vector) -> None:
    """LC-5/6/7: score the round, then deal the next one (the leader starts, on a tie
    the other seat) or end the match."""
    C, r = s[COLORS], s[ROUND]
    for seat in range(2):
        points = 0
        for c in range(C):
            e = s[EXP + 6 * seat + c]
            points += SCORE[(e >> 14) << 9 | (e >> 1) & 511]
        s[TOTALS + seat] += points
        if r < round_scores.shape[0]:
            round_scores[r, seat] = points
    if r + 1 >= s[ROUNDS]:
        s[CUR] = -1
        return
    a, b = s[TOTALS], s[TOTALS + 1]
    s[STARTER] = 0 if a > b else 1 if b > a else 1 - s[STARTER]
    s[ROUND] = r + 1
    _deal(s, decks, r + 1)


@njit
def new_match(colors: int, rounds: int, decks: Vector, starter: int) -> Vector:
    """A match vector dealt from ``decks[0]`` (or a shuffled deck) with ``starter`` to move."""
    s = np.zeros(SIZE, dtype=np.int64)
    s[COLORS], s[ROUNDS], s[STARTER] = colors, rounds, starter
    _deal(s, decks, 0)
    return s


# --- moves -------------------------------------------------------------------------------


@inline
def _apply(s: Vector, a: int) -> bool:
    """Apply the legal action ``a`` (unchecked), counting its event; returns whether it
    ends the round (then :func:`_end_round` is due)."""
    C, p = s[COLORS], s[CUR]
    s[ACTIONS] += 1
    if a < 20 * C:
        c, v = a // 20, a % 10
        slot = HAND + 6 * p + c
        s[slot] = _field_remove(s[slot], v)
        known = KNOWN + 6 * p + c
        if s[known] >> v & 1:  # LC-8: a card taken from a pile is no longer known once it leaves the hand
            s[known] = _field_remove(s[known], v)
        if a % 20 < 10:
            s[EXP + 6 * p + c] = _field_add(s[EXP + 6 * p + c], v)
            s[EV + 5 * p + PLAY_EV] += 1
            s[EV + 5 * p + WAGER_EV] += v == 0
        else:
            s[PILES + 12 * c + s[PILE_N + c]] = 10 * c + v
            s[PILE_N + c] += 1
            s[OPEN] |= 1 << c
            s[BAN] = c
            s[EV + 5 * p + DISCARD_EV] += 1
        s[PHASE] = 1
        return False
    s[PHASE], s[BAN], s[CUR] = 0, -1, 1 - p
    if a == 20 * C:
        k = s[DECK + s[PTR]]
        s[PTR] += 1
        s[HAND + 6 * p + k // 10] = _field_add(s[HAND + 6 * p + k // 10], k % 10)
        s[STALL] = 0
        s[EV + 5 * p + DECK_EV] += 1
        last: bool = s[PTR] == 12 * C
        return last
    c = a - 20 * C - 1
    s[PILE_N + c] -= 1
    if s[PILE_N + c] == 0:
        s[OPEN] ^= 1 << c
    k = s[PILES + 12 * c + s[PILE_N + c]]
    s[PILES + 12 * c + s[PILE_N + c]] = 0
    s[HAND + 6 * p + c] = _field_add(s[HAND + 6 * p + c], k % 10)
    s[KNOWN + 6 * p + c] = _field_add(s[KNOWN + 6 * p + c], k % 10)
    s[STALL] += 1
    s[EV + 5 * p + PILE_EV] += 1
    stalled: bool = s[STALL] >= STALL_LIMIT
    return stalled


@njit
def _step(s: Vector, a: int, decks: Vector, round_scores: Vector) -> None:
    """:func:`_apply`, then the round's end when it is due."""
    if _apply(s, a):
        _end_round(s, decks, round_scores)


@inline
def _drawable(s: Vector) -> int:
    """The colours whose discard piles may be drawn from (bit ``c``; LC-4: not the one
    discarded onto this turn)."""
    ban = s[BAN]
    m: int = s[OPEN] & ~(1 << ban) if ban >= 0 else s[OPEN]
    return m


@inline
def _legal_count(s: Vector) -> int:
    """How many legal actions there are (LC-3, LC-4)."""
    C, p = s[COLORS], s[CUR]
    if s[PHASE]:
        draws_n: int = 1 + POP[_drawable(s)]
        return draws_n
    n = 0
    for c in range(C):
        h = s[HAND + 6 * p + c] & 0x3FF
        n += POP[h] + POP[h & ONTO[s[EXP + 6 * p + c] & 0x3FF]]
    return n


@inline
def _legal_at(s: Vector, k: int) -> int:
    """The legal action ``k`` (from 0) in the engine's order: the draw pile, then the
    open discard piles by colour (draw phase); per colour its plays, then its discards,
    lowest value first (play phase).  Random seats pick it without listing the others."""
    C, p = int(s[COLORS]), int(s[CUR])
    if s[PHASE]:
        if k == 0:
            return 20 * C
        pile: int = VALUES[_drawable(s), k - 1]
        return 20 * C + 1 + pile
    for c in range(C):
        h = s[HAND + 6 * p + c] & 0x3FF
        m = h & ONTO[s[EXP + 6 * p + c] & 0x3FF]
        if k < POP[m]:
            value: int = VALUES[m, k]
            return 20 * c + value
        k -= POP[m]
        if k < POP[h]:
            value = VALUES[h, k]
            return 20 * c + 10 + value
        k -= POP[h]
    return -1


# --- the heuristic -------------------------------------------------------------------------


@njit
def _no_facts(colors: int) -> tuple[list[decisions.Facts], list[decisions.Facts], Vector, list[int]]:
    """An empty facts cache for :func:`_heuristic`: each seat's colour facts and the
    fields they were computed from (seat ``p``, colour ``c`` at ``6 * p + c``; -1: none
    yet), and a list for the pile tops."""
    return ([colour_facts(0, 0, 0, 0)] * colors, [colour_facts(0, 0, 0, 0)] * colors, np.full(12, -1, dtype=np.int64),
            [-1] * colors)


@inline
def _facts(s: Vector, p: int, facts: list[decisions.Facts], keys: Vector) -> None:
    """The colour facts of seat ``p`` (:func:`~cardtable.games.lost_cities.decisions.colour_facts`),
    computed afresh only for the colours whose four fields changed since the cached ones
    (as the Python bot caches them)."""
    C, o = s[COLORS], 1 - p
    for c in range(C):
        h, e, oe, k = s[HAND + 6 * p + c], s[EXP + 6 * p + c], s[EXP + 6 * o + c], s[KNOWN + 6 * o + c]
        key = h | e << 16 | oe << 32 | k << 48
        if keys[6 * p + c] != key:
            keys[6 * p + c] = key
            facts[c] = colour_facts(h, e, oe, k)


@njit
def _heuristic(s: Vector, style: npt.NDArray[np.float64], facts: list[decisions.Facts], keys: Vector,
               tops: list[int]) -> int:
    """The heuristic's action for the seat to move (the decisions of
    :mod:`cardtable.games.lost_cities.decisions`, compiled); ``facts``/``keys``: the
    seat's colour facts of its earlier decisions (:func:`_no_facts`); ``tops``: room for
    the top of each discard pile."""
    C, p = int(s[COLORS]), int(s[CUR])
    o = 1 - p
    open_piles = False
    for c in range(C):
        tops[c] = -1
        if s[PILE_N + c] and c != s[BAN]:
            tops[c] = s[PILES + 12 * c + s[PILE_N + c] - 1]
            open_piles = True
    if s[PHASE] and not open_piles:
        return 20 * C
    _facts(s, p, facts, keys)
    opp_hand = known = started = 0
    for c in range(C):
        opp_hand += _field_size(s[HAND + 6 * o + c])
        known += _field_size(s[KNOWN + 6 * o + c])
        started += s[EXP + 6 * p + c] != 0
    draw_pile = 12 * C - s[PTR]
    rate, turns, margin = seat_numbers(draw_pile, opp_hand, known, started, style[3], style[0], style[1])
    wmin = int(style[2])
    if s[PHASE]:
        c = draw_choice(facts, tops, draw_pile, rate, turns, margin, style[4], wmin, style[6], style[5])
        return 20 * C if c < 0 else 20 * C + 1 + c
    action: int = play_choice(facts, rate, turns, margin, style[4], wmin, style[7])
    return action


# --- play-outs -----------------------------------------------------------------------------


@njit
def _play(s: Vector, decks: Vector, policies: Vector, styles: npt.NDArray[np.float64], round_end: bool,
          round_scores: Vector, events: Vector) -> None:
    """Play from ``s`` to the end of the match (or of the current round): seat ``i``
    plays ``policies[i]`` (0 random, 1 heuristic with ``styles[i]``); the events of the
    moves played are added to ``events``.  The random moves draw from a generator seeded
    from numba's (:mod:`cardtable.kernels.draws`; not seeded, so numba's stream untouched, when no seat
    plays random moves)."""
    facts0, facts1, keys, tops = _no_facts(s[COLORS])
    x = np.uint64(0) if policies[0] and policies[1] else seed_random()
    for i in range(2 * len(EVENTS)):
        events[i // 5, i % 5] -= s[EV + i]
    first = s[ROUND]
    while s[CUR] >= 0 and not (round_end and s[ROUND] != first):
        p = s[CUR]
        if policies[p]:
            a = _heuristic(s, styles[p], facts1 if p else facts0, keys, tops)
        else:
            x, k = below(x, _legal_count(s))
            a = _legal_at(s, k)
        if _apply(s, a):
            _end_round(s, decks, round_scores)
    for i in range(2 * len(EVENTS)):
        events[i // 5, i % 5] += s[EV + i]


@njit
def _play_many(colors: int, rounds: int, n: int, seed: int, policies: Vector, styles: npt.NDArray[np.float64],
               scores: Vector, round_scores: Vector, actions: Vector, events: Vector) -> None:
    np.random.seed(seed)
    none = np.empty((0, 12 * colors), dtype=np.int64)
    for i in range(n):
        s = new_match(colors, rounds, none, np.random.randint(2))
        _play(s, none, policies, styles, False, round_scores[i], events[i])
        scores[i, 0], scores[i, 1], actions[i] = s[TOTALS], s[TOTALS + 1], s[ACTIONS]


@njit
def _play_outs(start: Vector, n: int, seed: int, policies: Vector, styles: npt.NDArray[np.float64], round_end: bool,
               scores: Vector, round_scores: Vector, actions: Vector, events: Vector) -> None:
    np.random.seed(seed)
    none = np.empty((0, 12 * start[COLORS]), dtype=np.int64)
    for i in range(n):
        s = start.copy()
        _play(s, none, policies, styles, round_end, round_scores[i], events[i])
        scores[i, 0], scores[i, 1], actions[i] = s[TOTALS], s[TOTALS + 1], s[ACTIONS] - start[ACTIONS]


def _seat_setup(policies: Sequence[str], styles: Sequence[str]) -> tuple[Vector, npt.NDArray[np.float64]]:
    for name in styles:
        if name not in STYLES:
            raise ValueError(f"unknown style {name!r}; choose from: {', '.join(STYLES)}")
    if len(policies) != 2 or len(styles) != 2:
        raise ValueError("Lost Cities has two seats: give one policy and one style per seat")
    return (np.array([p == "heuristic" for p in policies], dtype=np.int64),
            np.stack([style_vector(STYLES[name]) for name in styles]))


def _results(n: int, rounds: int) -> tuple[Vector, Vector, Vector, Vector]:
    return (np.zeros((n, 2), np.int64), np.zeros((n, rounds, 2), np.int64), np.zeros(n, np.int64),
            np.zeros((n, 2, len(EVENTS)), np.int64))


def scoring_refusal(game: LostCities) -> str | None:
    """Why this kernel cannot score ``game`` (it compiles the published LC-6 numbers only:
    a designer's changed cost or bonus is refused), or ``None``."""
    if game.score_table == _PUBLISHED_SCORES:
        return None
    custom = ", ".join(f"{k}={v}" for k, v in game.info.custom_rules(game.config_dict()).items())
    return (f"the compiled Lost Cities kernel scores by the published LC-6 numbers (cost 20, bonus 20 "
            f"from 8 cards), not {custom}")


_PUBLISHED_SCORES: Final = score_table()


def check(game: LostCities, policies: Sequence[str]) -> None:
    """A :class:`ValueError` unless the kernel can play ``game`` with seats of ``policies``
    (it plays every Lost Cities variant of the published scoring, and both policies)."""
    why = scoring_refusal(game)
    if why is not None:
        raise ValueError(why)


def play_many(game: LostCities, policies: Sequence[str], n: int, seed: int, *,
              styles: Sequence[str] = ("steady", "steady")) -> PlayOuts:
    """``n`` matches of ``game`` from fresh deals of ``seed`` (see :func:`cardtable.kernels.play_many`)."""
    flags, style_rows = _seat_setup(policies, styles)
    rounds = game.config.rounds
    scores, round_scores, actions, events = _results(n, rounds)
    _play_many(game.colors, rounds, n, seed, flags, style_rows, scores, round_scores, actions, events)
    return PlayOuts(scores, round_scores, actions, events, EVENTS)


def play_outs(start: Vector, policies: Sequence[str], n: int, seed: int, *,
              styles: Sequence[str] = ("steady", "steady"), round_end: bool = True) -> PlayOuts:
    """``n`` play-outs from the match vector ``start`` (:func:`export`), to the end of its
    round (``round_end``, the search's cut-off) or of the match; later rounds are dealt
    from ``seed``.  ``scores`` are the match totals at the end; ``actions`` and
    ``events`` count the play-out's moves only."""
    flags, style_rows = _seat_setup(policies, styles)
    scores, round_scores, actions, events = _results(n, int(start[ROUNDS]))
    _play_outs(start, n, seed, flags, style_rows, round_end, scores, round_scores, actions, events)
    return PlayOuts(scores, round_scores, actions, events, EVENTS)


@njit
def _heuristic_round(start: Vector, styles: npt.NDArray[np.float64]) -> tuple[int, int, int]:
    s = start.copy()
    none = np.empty((0, 12 * s[COLORS]), dtype=np.int64)
    round_scores = np.zeros((s[ROUNDS], 2), dtype=np.int64)
    events = np.zeros((2, len(EVENTS)), dtype=np.int64)
    both = np.ones(2, dtype=np.int64)
    _play(s, none, both, styles, True, round_scores, events)
    return s[TOTALS], s[TOTALS + 1], s[ACTIONS] - start[ACTIONS]


def heuristic_round(start: Vector, styles: npt.NDArray[np.float64]) -> tuple[int, int, int]:
    """One play-out of the round of ``start`` with both seats on the heuristic (style
    rows ``styles``, :func:`style_vector`): the match totals at its end and the
    actions played — the search's play-out (:mod:`cardtable.games.lost_cities.knowledge`)."""
    a, b, moves = _heuristic_round(start, styles)
    return int(a), int(b), int(moves)


@njit
def _heuristic_rounds(start: Vector, actions: Vector, styles: npt.NDArray[np.float64], totals: Vector,
                      moves: Vector) -> None:
    none = np.empty((0, 12 * start[COLORS]), dtype=np.int64)
    round_scores = np.zeros((start[ROUNDS], 2), dtype=np.int64)
    events = np.zeros((2, len(EVENTS)), dtype=np.int64)
    both = np.ones(2, dtype=np.int64)
    first = start[ROUND]
    for i in range(actions.shape[0]):
        s = start.copy()
        _step(s, actions[i], none, round_scores)
        if s[CUR] >= 0 and s[ROUND] == first:
            _play(s, none, both, styles, True, round_scores, events)
        totals[i, 0], totals[i, 1], moves[i] = s[TOTALS], s[TOTALS + 1], s[ACTIONS] - start[ACTIONS] - 1


def heuristic_rounds(start: Vector, actions: Sequence[int],
                     styles: npt.NDArray[np.float64]) -> tuple[Vector, Vector]:
    """:func:`heuristic_round` after each of the legal ``actions`` in turn, in one call:
    the flat search's play-outs of one world, every root move from the same ``start``.
    Returns the match totals at the end of the round (one row per action) and the
    moves played after the action (none when the action itself ends the round)."""
    chosen = np.asarray(actions, dtype=np.int64)
    totals, moves = np.zeros((len(chosen), 2), np.int64), np.zeros(len(chosen), np.int64)
    _heuristic_rounds(start, chosen, styles, totals, moves)
    return totals, moves


def export(state: LostCitiesState) -> Vector:
    """The match vector of an engine state (for a searcher: a determinised world), read
    through its public accessors.  Round scores of finished rounds are not carried."""
    C = state.colors
    s = np.zeros(SIZE, dtype=np.int64)
    ban = -1
    closed = ~state.drawable_piles if state.phase else 0
    for c in range(C):
        pile = state.discard_pile(c)
        if pile:
            s[PILE_N + c] = len(pile)
            s[OPEN] |= 1 << c
            s[PILES + 12 * c: PILES + 12 * c + len(pile)] = pile
            if closed >> c & 1:
                ban = c
    draw = state.draw_pile()
    ptr = 12 * C - len(draw)
    s[DECK + ptr: DECK + 12 * C] = draw
    a, b = state.match_totals
    s[CUR: ROUNDS + 1] = (state.current_player(), state.phase, ban, state.turns_without_deck_draw, ptr,
                          state.round_index, state.round_starter, a, b, C, state.game.config.rounds)
    sets = (state.hand_set(0), state.hand_set(1), state.expedition_set(0), state.expedition_set(1),
            state.known_set(0), state.known_set(1))  # six 16-bit colour fields each, as HAND, EXP, KNOWN
    s[HAND: KNOWN + 12] = np.frombuffer(b"".join(x.to_bytes(12, "little") for x in sets), dtype="<u2")
    return s


@njit
def _legal_list(s: Vector) -> Vector:
    """The legal actions as an array, in the engine's order."""
    out = np.empty(_legal_count(s), dtype=np.int64)
    for k in range(out.shape[0]):
        out[k] = _legal_at(s, k)
    return out


def legal_actions(s: Vector) -> list[int]:
    """The legal actions of a match vector, in the engine's order."""
    if s[CUR] < 0:
        return []
    return [int(a) for a in _legal_list(s)]


def apply_action(s: Vector, action: int, decks: Vector, round_scores: Vector, events: Vector) -> None:
    """Apply a legal ``action`` to the vector ``s`` in place (``decks``: the explicit decks
    of the match, rows by round; ``round_scores``/``events`` are added to)."""
    before = s[EV: EV + 2 * len(EVENTS)].copy()
    _step(s, action, decks, round_scores)
    events += (s[EV: EV + 2 * len(EVENTS)] - before).reshape(2, len(EVENTS))


@njit
def _fresh_heuristic(s: Vector, style: npt.NDArray[np.float64]) -> int:
    """:func:`_heuristic` with an empty facts cache."""
    facts0, facts1, keys, tops = _no_facts(s[COLORS])
    return _heuristic(s, style, facts1 if s[CUR] else facts0, keys, tops)


def heuristic_action(s: Vector, style: LostCitiesStyle) -> int:
    """The compiled heuristic's action (playing ``style``) for the seat to move of ``s``."""
    return int(_fresh_heuristic(s, style_vector(style)))


def row_returns(scores: list[int], counts: dict[str, int]) -> list[float]:
    """The returns of a match's totals: +1 for the higher, -1 for the lower, 0 each on a tie.

    >>> row_returns([40, 12], {}), row_returns([7, 7], {})
    ([1.0, -1.0], [0.0, 0.0])
    """
    diff = scores[0] - scores[1]
    return [float((diff > 0) - (diff < 0)), float((diff < 0) - (diff > 0))]


def row_measures(scores: list[int], rounds: int, counts: dict[str, int]) -> dict[str, float]:
    """The measures of :func:`cardtable.lab.measures.measures_of` the kernel can tell (for
    :func:`cardtable.lab.engines.kernel_row`)."""
    return {"rounds": float(rounds), "margin": float(abs(scores[0] - scores[1])),
            "wagers_played": float(counts["wager"])}


def row_events(rounds: int, counts: dict[str, int]) -> dict[str, int]:
    """The engine's typed-event counts from the kernel's per-action counts (round 1 is
    dealt with the match, so it has no ``round_started``; kinds that did not happen are
    left out, as :func:`cardtable.lab.measures.count_event_kinds` does)."""
    kinds = {"card_played": counts["play"] + counts["wager"] + counts["discard"],
             "card_drawn": counts["draw deck"] + counts["draw pile"],
             "round_ended": rounds, "round_started": rounds - 1, "match_ended": 1}
    return {kind: n for kind, n in kinds.items() if n}
