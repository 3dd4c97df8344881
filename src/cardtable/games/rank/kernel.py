"""The Ранг kernel: whole games (RG-1 … RG-8) compiled with numba.

A game lives in one int64 vector (:data:`SIZE` slots, offsets below).  A hand is the
engine's pair: ``PRES + seat`` the kinds held as a bitmask (bit ``k`` = card kind
``k``, 52 the joker) and ``COUNT + 53 * seat + k`` the copies of kind ``k``; the seat
to move's legal actions are one bitmask too (``MASK``: bit ``a`` = action ``a``, the
engine's ids: 0..52 play a kind, 53 draw, 54 pass), kept up to date by every move as
the engine keeps its own.  RG-4's tiers are the engine's own function
(:func:`cardtable.games.rank.rules._rg4`) compiled, over the engine's tier tables.

Games are dealt by the engine's rule (RG-2, RG-3: five cards to each seat from the
dealer's left, the next card turned up, the rest the stock, top first) from an
explicit deck and dealer or, in :func:`play_many`, from numba's random generator
seeded with the batch's seed — the kernel does not reproduce Python's ``random``
stream, so to replay an engine game pass its deck in (:func:`new_match`).  Random seats
draw their moves from the kernels' generator (:mod:`cardtable.kernels.draws`) seeded
from numba's.

The heuristic seats run the decision code of :mod:`cardtable.games.rank.decisions`
compiled (:func:`~cardtable.kernels.jit.compile_shared`): the same functions the Python
bot runs, fed from the vector (the ranks a seat's play has shown it lacks are kept up
to date move by move, as the bot reads them from the public log).

Entries: :func:`play_many` (the lab's batches), :func:`new_match`,
:func:`legal_actions`, :func:`apply_action` and :func:`heuristic_action` (step by
step, for the verification against the engine).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from cardtable.games.rank import decisions, rules
from cardtable.cards import JOKER
from cardtable.games.rank.rules import DRAW, HAND_SIZE, NUM_KINDS, PASS, Rank, pack_counts
from cardtable.kernels import PlayOuts
from cardtable.kernels import bits, draws
from cardtable.kernels.bits import bit_count, bit_index
from cardtable.kernels.draws import random_bit, seed_random, uniform
from cardtable.kernels.jit import compile_shared, njit_keyed

Vector = npt.NDArray[np.int64]

MAX_PLAYERS: Final = 10
PLAYERS, CUR, MASK, TOP, ANTI, POS, STOCK_N, ALIVE, OUT_N, ACTIONS, PILE_N = range(11)
"""Scalar slots: players, seat to move (-1 over), its legal actions (bitmask), the top
card, Anti-Rank on (RG-8), next stock index, stock length, seats still in (bitmask),
seats out, actions applied, cards on the pile."""
PRES, SIZES, ORDER, EXCLUDED, SEEN = 16, 26, 36, 46, 56
"""Per seat ``slot + seat``: kinds held (bitmask), hand size, the ranks its play has
shown it lacks (the heuristic's rank bitmask, 0 for nothing known: set when it is
stuck, cleared by a pull-back); ``ORDER + i``: the ``i``-th seat out (RG-6), then the
loser (RG-7); ``SEEN + r``: cards of heuristic rank ``r`` on the pile."""
COUNT, STOCK = 70, 70 + NUM_KINDS * MAX_PLAYERS
"""``COUNT + 53 * seat + k``: copies of kind ``k``; ``STOCK + i``: the stock, top first."""
SIZE: Final = STOCK + 2 * sum(pack_counts(1))

EVENTS: Final = ("card_played", "card_drawn", "passed", "pull_back", "out_stock_empty", "out_not_pulled_back",
                 "anti_rank_declared", "anti_rank_over", "match_ended", "first_dealer")
"""The events counted per seat: the engine's typed event kinds, with ``player_out``
split by why (an empty stock, or a next player who could not play: RG-6); then, on
seat 0, the lab's ``first_dealer`` measure (the dealer's seat number, RG-2)."""
PLAYED_EV, DRAWN_EV, PASSED_EV, PULL_EV, OUT_EMPTY_EV, OUT_FAILED_EV, ANTI_EV, ANTI_OVER_EV, END_EV, DEALER_EV = range(10)

_shared = compile_shared(rules, ("_rg4",), ("_ADJ", "_SAME"))
_rg4 = _shared["_rg4"]
_decisions = compile_shared(decisions, ("coverage", "p_stuck", "stuck_table", "_moves", "search_value", "_better",
                                        "turn_choice", "anti_choice"), decisions.TABLES,
                         inline=("coverage", "p_stuck", "_moves", "_better", "turn_choice", "anti_choice"))
"""The compiled decisions; all but the recursive ``search_value`` compiled into their callers
(heuristic play-outs +8–20 %: 2 players 2.32–2.60 → 2.74–2.91 M actions/s, 4 players
2.91–3.26 → 3.47–3.74 M, load 4–6; a few seconds more to compile)."""
stuck_table, turn_choice, anti_choice = _decisions["stuck_table"], _decisions["turn_choice"], _decisions["anti_choice"]
ANSWERS: Final = _decisions["ANSWERS"]
njit, inline = njit_keyed(bits, draws, rules, decisions), njit_keyed(bits, draws, rules, decisions, inline=True)
"""The kernel's functions embed the engine's tables and the compiled decisions: their
cache entries follow those modules' sources too; ``inline``: the inner loop's, compiled
into their callers."""
ANY: Final = np.asarray(rules.ANSWERS_TABLE, dtype=np.int64)
"""Kinds that answer a top card at some RG-4 tier (the engine's table)."""
DRAW_BIT: Final = 1 << DRAW
PASS_BIT: Final = 1 << PASS


# --- seats ---------------------------------------------------------------------------------


@inline
def _rank(k: int) -> int:
    """The heuristic's rank index of card kind ``k`` (:mod:`cardtable.games.rank.decisions`)."""
    return decisions.JK if k == JOKER else k % 13


@inline
def _shown_stuck(s: Vector, seat: int) -> None:
    """``seat`` could play nothing on the top card: it lacks every rank that answers it."""
    s[EXCLUDED + seat] = ANSWERS[_rank(s[TOP])]


@inline
def _next(s: Vector, seat: int) -> int:
    """The next seat clockwise still in the game (RG-3)."""
    n, alive = s[PLAYERS], s[ALIVE]
    q = (seat + 1) % n
    while not alive >> q & 1:
        q = (q + 1) % n
    return int(q)


@inline
def _take(s: Vector, seat: int, k: int) -> None:
    """``seat`` gets a card of kind ``k``."""
    s[COUNT + NUM_KINDS * seat + k] += 1
    s[PRES + seat] |= 1 << k
    s[SIZES + seat] += 1


@inline
def _stuck(s: Vector, seat: int, top: int, events: Vector) -> int:
    """The legal moves of a seat that can play nothing (RG-5, RG-8)."""
    if s[POS] < s[STOCK_N]:
        return DRAW_BIT
    answer, alive = ANY[top], s[ALIVE]
    for other in range(s[PLAYERS]):
        if other != seat and alive >> other & 1 and s[PRES + other] & answer:
            return PASS_BIT
    s[ANTI] = 1
    events[seat, ANTI_EV] += 1
    for other in range(s[PLAYERS]):
        _shown_stuck(s, other)
    pres: int = s[PRES + seat]
    return pres


@inline
def _enter(s: Vector, seat: int, events: Vector) -> None:
    """The turn passes to ``seat`` (RG-3); settle Anti-Rank (RG-8) and its legal moves."""
    s[CUR] = seat
    top, pres = s[TOP], s[PRES + seat]
    if s[ANTI]:
        if pres & ANY[top]:
            s[ANTI] = 0
            events[seat, ANTI_OVER_EV] += 1
            s[MASK] = _rg4(pres, top)
        else:
            s[MASK] = pres  # RG-8: any one card, then the turn passes
        return
    m = _rg4(pres, top)
    s[MASK] = m if m else _stuck(s, seat, top, events)


@inline
def _out(s: Vector, seat: int) -> None:
    s[ALIVE] &= ~(1 << seat)
    s[ORDER + s[OUT_N]] = seat
    s[OUT_N] += 1


@njit
def _hand_emptied(s: Vector, p: int, events: Vector) -> None:
    """``p`` played their last card (RG-6), then the turn passes (RG-7 ends the game)."""
    q = _next(s, p)
    if s[POS] >= s[STOCK_N]:
        _out(s, p)
        events[p, OUT_EMPTY_EV] += 1
    elif s[PRES + q] & ANY[s[TOP]]:
        got = 0
        while got < 2 and s[POS] < s[STOCK_N]:
            _take(s, p, s[STOCK + s[POS]])
            s[POS] += 1
            got += 1
        s[EXCLUDED + p] = 0
        events[p, PULL_EV] += 1
    else:
        _out(s, p)
        events[p, OUT_FAILED_EV] += 1
    alive = s[ALIVE]
    if alive & (alive - 1):
        _enter(s, q, events)
        return
    loser = bit_index(alive)
    s[ORDER + s[OUT_N]] = loser
    s[CUR], s[MASK], s[ANTI] = -1, 0, 0
    events[loser, END_EV] += 1


# --- games ---------------------------------------------------------------------------------


@njit
def new_match(players: int, deck: Vector, dealer: int) -> Vector:
    """A game vector dealt from ``deck`` (RG-2) by ``dealer``; the seat on the dealer's
    left is to move (RG-3)."""
    s = np.zeros(SIZE, dtype=np.int64)
    s[PLAYERS] = players
    s[ALIVE] = (1 << players) - 1
    for i in range(players):
        seat = (dealer + 1 + i) % players
        for j in range(HAND_SIZE):
            _take(s, seat, deck[HAND_SIZE * i + j])
    s[TOP] = deck[HAND_SIZE * players]
    s[PILE_N] = 1
    s[SEEN + _rank(s[TOP])] = 1
    rest = deck.shape[0] - HAND_SIZE * players - 1
    for i in range(rest):
        s[STOCK + i] = deck[HAND_SIZE * players + 1 + i]
    s[STOCK_N] = rest
    none = np.zeros((players, len(EVENTS)), dtype=np.int64)
    _enter(s, (dealer + 1) % players, none)
    return s


@njit
def _shuffled_deck(players: int) -> Vector:
    """A shuffled deck of RG-1's packs for ``players``."""
    packs = 1 if players <= 4 else 2
    deck = np.empty(54 * packs, dtype=np.int64)
    for i in range(52 * packs):
        deck[i] = i % 52
    for i in range(52 * packs, 54 * packs):
        deck[i] = JOKER
    np.random.shuffle(deck)
    return deck


# --- moves ---------------------------------------------------------------------------------


@inline
def _play(s: Vector, cur: int, k: int, events: Vector) -> None:
    """``cur`` plays kind ``k`` (RG-4; any card in Anti-Rank, RG-8)."""
    slot = COUNT + NUM_KINDS * cur + k
    s[slot] -= 1
    if not s[slot]:
        s[PRES + cur] &= ~(1 << k)
    s[SIZES + cur] -= 1
    if s[ANTI]:
        _shown_stuck(s, cur)
    s[TOP] = k
    s[PILE_N] += 1
    s[SEEN + _rank(k)] += 1
    events[cur, PLAYED_EV] += 1
    if not s[SIZES + cur]:
        _hand_emptied(s, cur, events)
    elif s[ANTI]:
        _enter(s, _next(s, cur), events)
    else:
        m = _rg4(s[PRES + cur], k)
        s[MASK] = m if m else _stuck(s, cur, k, events)


@inline
def _draw(s: Vector, cur: int, events: Vector) -> None:
    """Draw the top card of the stock (RG-5): it must be played if it can be, else the
    turn passes on."""
    c = s[STOCK + s[POS]]
    s[POS] += 1
    _take(s, cur, c)
    events[cur, DRAWN_EV] += 1
    top = s[TOP]
    if s[PRES + cur] & ANY[top]:
        s[MASK] = 1 << c if top != JOKER else s[PRES + cur]
    else:
        _shown_stuck(s, cur)
        _enter(s, _next(s, cur), events)


@inline
def _apply(s: Vector, a: int, events: Vector) -> None:
    """Apply the legal action ``a`` (unchecked)."""
    cur = s[CUR]
    s[ACTIONS] += 1
    if a < NUM_KINDS:
        _play(s, cur, a, events)
    elif a == DRAW:
        _draw(s, cur, events)
    else:
        events[cur, PASSED_EV] += 1
        _shown_stuck(s, cur)
        _enter(s, _next(s, cur), events)


# --- the heuristic -------------------------------------------------------------------------


@njit
def _heuristic(s: Vector, noise: npt.NDArray[np.float64]) -> int:
    """The heuristic's action for the seat to move (the decisions of
    :mod:`cardtable.games.rank.decisions`, compiled), breaking ties with ``noise[i]``
    for the ``i``-th playable rank."""
    mask = s[MASK]
    if bit_count(mask) <= 1:
        return bit_index(mask)
    me, packs = s[CUR], 1 if s[PLAYERS] <= 4 else 2
    counts = np.zeros(14, dtype=np.int64)
    first = np.full(14, -1, dtype=np.int64)
    for k in range(NUM_KINDS):
        counts[_rank(k)] += s[COUNT + NUM_KINDS * me + k]
        if mask >> k & 1 and first[_rank(k)] < 0:
            first[_rank(k)] = k
    nxt = _next(s, me)
    size, excluded = s[SIZES + nxt], s[EXCLUDED + nxt]
    unseen = np.zeros(14, dtype=np.int64)
    pool = np.zeros(14, dtype=np.int64)
    for r in range(14):
        unseen[r] = max(0, (2 if r == decisions.JK else 4) * packs - s[SEEN + r] - counts[r])
        pool[r] = 0 if excluded >> r & 1 else unseen[r]
    if pool.sum() < size:
        pool = unseen
    stuck = stuck_table(pool, pool.sum(), size)
    ranks = np.array([r for r in range(14) if first[r] >= 0], dtype=np.int64)
    if s[ANTI]:
        i = anti_choice(counts, ranks, noise, stuck)
    else:
        i = turn_choice(counts, ranks, noise, stuck, s[STOCK_N] - s[POS])
    action: int = first[ranks[i]]
    return action


# --- play-outs -----------------------------------------------------------------------------


@inline
def _fill_uniform(x: np.uint64, noise: npt.NDArray[np.float64]) -> np.uint64:
    """Fill ``noise`` (the heuristic's tie-breaks) with uniform floats; returns the generator's next state."""
    for i in range(noise.shape[0]):
        x, noise[i] = uniform(x)
    return x


@njit
def _play_out(s: Vector, policies: Vector, events: Vector) -> None:
    """Play ``s`` to the end of the game: seat ``i`` plays ``policies[i]`` (0 random
    legal moves, 1 the heuristic)."""
    x, noise = seed_random(), np.empty(14)
    while s[CUR] >= 0:
        if policies[s[CUR]]:
            x = _fill_uniform(x, noise)
            a = _heuristic(s, noise)
        else:
            x, a = random_bit(x, s[MASK])
        _apply(s, a, events)


@njit
def _play_many(players: int, n: int, seed: int, policies: Vector, scores: Vector, actions: Vector,
               events: Vector) -> None:
    np.random.seed(seed)
    for i in range(n):
        dealer = np.random.randint(players)
        s = new_match(players, _shuffled_deck(players), dealer)
        events[i, 0, DEALER_EV] = dealer
        _play_out(s, policies, events[i])
        scores[i, s[ORDER + players - 1]] = -1
        actions[i] = s[ACTIONS]


def check(game: Rank, policies: Sequence[str]) -> None:
    """A :class:`ValueError` unless the kernel can play ``game`` with seats of ``policies``."""
    if game.num_players > MAX_PLAYERS:
        raise ValueError(f"the Ранг kernel plays up to {MAX_PLAYERS} players, not {game.num_players}")


def play_many(game: Rank, policies: Sequence[str], n: int, seed: int, *,
              styles: Sequence[str] | None = None) -> PlayOuts:
    """``n`` games of ``game`` from fresh deals of ``seed`` (see
    :func:`cardtable.kernels.play_many`); the heuristic has no styles (``styles``, if
    given, must be the lab's default ``steady``)."""
    check(game, policies)
    players = game.num_players
    if len(policies) != players:
        raise ValueError(f"this Ранг has {players} seats: give one policy per seat, not {len(policies)}")
    if styles is not None and any(name != "steady" for name in styles):
        raise ValueError(f"the Ранг heuristic has no styles, not {', '.join(sorted(set(styles) - {'steady'}))}")
    flags = np.array([p == "heuristic" for p in policies], dtype=np.int64)
    scores, actions = np.zeros((n, players), np.int64), np.zeros(n, np.int64)
    events = np.zeros((n, players, len(EVENTS)), np.int64)
    _play_many(players, n, seed, flags, scores, actions, events)
    return PlayOuts(scores, scores.reshape(n, 1, players).copy(), actions, events, EVENTS)


def legal_actions(s: Vector) -> list[int]:
    """The legal actions of a game vector, in the engine's order."""
    mask = int(s[MASK])
    return [a for a in range(PASS + 1) if mask >> a & 1]


def apply_action(s: Vector, action: int, events: Vector) -> None:
    """Apply a legal ``action`` to the vector ``s`` in place (``events`` is added to)."""
    _apply(s, action, events)


def heuristic_action(s: Vector, noise: Sequence[float]) -> int:
    """The compiled heuristic's action for the seat to move of ``s``; ``noise``: the
    tie-breaking numbers, one per playable rank (as :class:`~cardtable.games.rank.heuristic.RankHeuristic`
    draws them; at least 14 numbers, the rest unused)."""
    return int(_heuristic(s, np.asarray(noise, dtype=np.float64)))


def row_returns(scores: list[int], counts: dict[str, int]) -> list[float]:
    """The returns of a game's scores (RG-7: −1 for the loser, 0 for everyone else)."""
    return [float(x) for x in scores]


def row_measures(scores: list[int], rounds: int, counts: dict[str, int]) -> dict[str, float]:
    """The measures of :mod:`cardtable.games.rank.measures` from the kernel's counts."""
    return {"first_dealer": float(counts["first_dealer"]), "pull_backs_won": float(counts["pull_back"]), "pull_backs_failed": float(counts["out_not_pulled_back"]),
            "anti_rank_declarations": float(counts["anti_rank_declared"])}


def row_events(rounds: int, counts: dict[str, int]) -> dict[str, int]:
    """The engine's typed-event counts from the kernel's (kinds that did not happen are
    left out, as :func:`cardtable.lab.measures.count_event_kinds` does)."""
    kinds = {kind: counts[kind] for kind in EVENTS if not kind.startswith("out_") and kind != "first_dealer"}
    kinds["player_out"] = counts["out_stock_empty"] + counts["out_not_pulled_back"]
    return {kind: n for kind, n in kinds.items() if n}


# --- the search's play-outs (appended: the search's entries) -------------------------------

from cardtable.games.rank import rollout  # noqa: E402
from cardtable.games.rank.rules import RankState  # noqa: E402

search_njit = njit_keyed(bits, draws, rules, rollout, decisions)


@search_njit
def _uniform(rng: int) -> float:
    """A uniform number in [0, 1) from numba's generator (the play-out policy's
    :data:`~cardtable.games.rank.rollout.uniform`; ``rng`` unused)."""
    u: float = np.random.random()
    return u


_rollout = compile_shared(rollout, rollout.FUNCTIONS, (),
                          {"top_bit": bit_index, "ones": bit_count, "uniform": _uniform}, inline=True)
rollout_move = _rollout["rollout_move"]
""":func:`cardtable.games.rank.rollout.rollout_move` compiled: the search's play-out policy."""


@search_njit
def _policy_game(s: Vector, played: Vector, heuristic: bool) -> int:
    """Play ``s`` to the end of the game with the search's play-out policy (with
    ``heuristic``: the compiled heuristic, :func:`_heuristic`, in every seat); the actions
    go to ``played`` (as many as fit).  Returns how many were applied."""
    events = np.zeros((s[PLAYERS], len(EVENTS)), dtype=np.int64)
    moves = 0
    x, noise = seed_random() if heuristic else np.uint64(0), np.empty(14)  # the rollout's stream untouched
    while s[CUR] >= 0:
        if heuristic:
            x = _fill_uniform(x, noise)
            a = _heuristic(s, noise)
        else:
            a = rollout_move(s[MASK], s[ANTI] != 0, 0)
        if moves < played.shape[0]:
            played[moves] = a
        _apply(s, a, events)
        moves += 1
    return moves


@search_njit
def policy_game(s: Vector, seed: int, played: Vector, heuristic: bool = False) -> int:
    """:func:`_policy_game` of ``s`` in place, numba's generator seeded with ``seed``."""
    np.random.seed(seed)
    moves: int = _policy_game(s, played, heuristic)
    return moves


@search_njit
def policy_games(s: Vector, seed: int, orders: Vector, heuristic: bool = False) -> int:
    """``orders.shape[0]`` play-outs of copies of ``s`` by :func:`_policy_game`, numba's
    generator seeded once with ``seed``; row ``i`` of ``orders`` gets play-out ``i``'s
    seats in the order they went out, the loser last (RG-6, RG-7).  Returns the actions
    applied in all."""
    np.random.seed(seed)
    none = np.empty(0, dtype=np.int64)
    n, moves = s[PLAYERS], 0
    for i in range(orders.shape[0]):
        t = s.copy()
        moves += _policy_game(t, none, heuristic)
        for j in range(n):
            orders[i, j] = t[ORDER + j]
    return moves


def export(state: RankState) -> Vector:
    """The game vector of an engine state (for a searcher: a sampled world, whose hidden
    cards are as that world deals them), read through its public accessors.  The ranks
    each seat was shown to lack (``EXCLUDED``, which only the heuristic reads) are left
    unknown."""
    n = state.game.num_players
    stock, pile, out = state.stock_cards, state.pile_cards, state.out_order
    over = state.is_terminal()
    slots = [PLAYERS, CUR, MASK, TOP, ANTI, STOCK_N, ALIVE, OUT_N, ACTIONS, PILE_N]
    values = [n, -1 if over else state.current_player(), state.legal_mask, pile[-1], int(state.anti_rank),
              len(stock), state.seats_in, len(out), len(state.history), len(pile)]
    order = [*out, state.seats_in.bit_length() - 1] if over else out
    slots += range(ORDER, ORDER + len(order))
    values += order
    slots += range(STOCK, STOCK + len(stock))
    values += stock
    for seat in range(n):
        hand = state.hand_cards(seat)
        slots.append(SIZES + seat)
        values.append(len(hand))
        pres = 0
        for kind in set(hand):
            slots.append(COUNT + NUM_KINDS * seat + kind)
            values.append(hand.count(kind))
            pres |= 1 << kind
        slots.append(PRES + seat)
        values.append(pres)
    seen = [0] * 14
    for card in pile:
        seen[decisions.JK if card == JOKER else card % 13] += 1
    slots += range(SEEN, SEEN + 14)
    values += seen
    v = np.zeros(SIZE, dtype=np.int64)
    v[slots] = values
    return v


def policy_playouts(state: RankState, seed: int, n: int, *, heuristic: bool = False) -> tuple[int, list[list[int]]]:
    """``n`` policy play-outs of ``state`` to the end of the game in the kernel
    (:func:`policy_games`; with ``heuristic`` the compiled heuristic plays every seat):
    the actions applied in all and each play-out's order out."""
    orders = np.zeros((n, state.game.num_players), dtype=np.int64)
    moves = int(policy_games(export(state), seed, orders, heuristic))
    return moves, orders.tolist()


def heuristic_playouts(state: RankState, seed: int, n: int) -> tuple[int, list[list[int]]]:
    """:func:`policy_playouts` with the compiled heuristic in every seat."""
    return policy_playouts(state, seed, n, heuristic=True)
