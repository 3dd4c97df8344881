"""Command of Two: a learned policy compiled next to the Lost Ranks kernel (the
``command_of_two_learned.py`` benchmark).

The policy reads only the deciding seat's knowledge (the heuristic's, slots of
:mod:`cardtable.games.lost_ranks.decisions`: its hand, the unseen and live cards, the
trick, both phantom decks as far as the seat sees them, the voids shown, the hand
sizes), with the suits renamed relative to trump (trump first, then the other suit of
its colour, then the other colour's two in suit order), and scores each legal move
``Q = MLP(x)[move] + wh * heuristic value``.  It plays the heuristic's move unless
another's ``Q`` leads by ``margin``.

Also here: the data collection (heuristic self-play; at every decision with a choice,
every legal move continued by the heuristic on the true deal to the round's end), the
duplicate duel of the policy against the heuristic and the play-outs with the policy in
one seat (the search's own).  Not cached on disk (the functions embed the kernel's);
compiling costs about 20 s per run.
"""

from __future__ import annotations

from typing import Any

import numba  # type: ignore[import-untyped,import-not-found,unused-ignore]
import numpy as np

from cardtable.games.lost_ranks import decisions as D
from cardtable.games.lost_ranks import kernel as K
from cardtable.games.lost_ranks.rules import SUIT_COLOUR

FEATURES = 53 * 7 + 20
"""Inputs: seven card sets of 53 (hand, unseen, live, the card led, the seat's known
phantom cards, its phantom deck's top card, the opponent's face-up phantom cards), the
voids shown (4 + 4), the led suit (4) and eight numbers."""
ACTIONS = 107
"""Outputs: play card ``c`` (0..52), draw two (53), play drawn card ``c`` (54 + c), the
cards renamed relative to trump."""
RESULT = 5
"""A continuation's round result: the kernel's ``ROUND_RESULT`` (Red total, Black total,
rounds, tiebreak rounds, outcome)."""


def _suit_order(trump: int) -> list[int]:
    """``order[suit]``: trump 0, the other suit of its colour 1, the other colour's 2 and 3."""
    same = [s for s in range(4) if s != trump and SUIT_COLOUR[s] == SUIT_COLOUR[trump]]
    others = [s for s in range(4) if SUIT_COLOUR[s] != SUIT_COLOUR[trump]]
    order = [0] * 4
    order[trump], order[same[0]], order[others[0]], order[others[1]] = 0, 1, 2, 3
    return order


SUIT_ORDER = np.array([_suit_order(t) for t in range(4)], dtype=np.int64)
CARD_NAME = np.array([[SUIT_ORDER[t][c // 13] * 13 + c % 13 if c < 52 else 52 for c in range(53)]
                      for t in range(4)], dtype=np.int64)
"""``CARD_NAME[trump, card]``: the card renamed relative to trump (the Spy stays 52)."""
COLOUR = np.array(SUIT_COLOUR, dtype=np.int64)
_value_two, _value_draw = K._decisions["value_two"], K._decisions["value_draw"]
_decision_facts, _opponent_facts = K._decisions["decision_facts"], K._decisions["opponent_facts"]


@numba.njit
def _card_set(mask: int, names: Any, x: Any, base: int) -> None:
    for c in range(53):
        if mask >> c & 1:
            x[base + names[c]] = 1.0


@numba.njit
def features(k: Any, x: Any) -> None:
    """Write the inputs of the seat deciding in knowledge ``k`` to ``x`` (:data:`FEATURES`)."""
    x[:] = 0.0
    trump, me = k[D.TRUMP], k[D.ME]
    opp, names, order = 1 - me, CARD_NAME[trump], SUIT_ORDER[trump]
    _card_set(k[D.HAND], names, x, 0)
    _card_set(k[D.UNSEEN], names, x, 53)
    _card_set(k[D.LIVE], names, x, 106)
    if k[D.TRICK_N]:
        x[159 + names[k[D.TRICK_CARD]]] = 1.0
    for i in range(k[D.MY_PHANTOM_N]):
        c = k[D.MY_PHANTOM + i]
        if c >= 0:
            x[212 + names[c]] = 1.0
            if i == 0:
                x[265 + names[c]] = 1.0
    for i in range(k[D.OPP_PHANTOM_N]):
        c = k[D.OPP_PHANTOM + i]
        if c >= 0:
            x[318 + names[c]] = 1.0
    b = 371
    for s in range(4):
        if k[D.VOIDS + opp] >> s & 1:
            x[b + order[s]] = 1.0
        if k[D.VOIDS + me] >> s & 1:
            x[b + 4 + order[s]] = 1.0
    if k[D.TRICK_N] and k[D.LED] >= 0:
        x[b + 8 + order[k[D.LED]]] = 1.0
    b += 12
    x[b], x[b + 1] = k[D.MY_PHANTOM_N] / 9.0, k[D.OPP_PHANTOM_N] / 9.0
    x[b + 2], x[b + 3] = k[D.SIZES + me] / 17.0, k[D.SIZES + opp] / 17.0
    x[b + 4] = 1.0 if COLOUR[trump] == k[D.ARMY + me] else 0.0
    x[b + 5] = float(k[D.FORCE])
    x[b + 6] = 0.0 if k[D.TRICK_N] else 1.0
    x[b + 7] = 1.0


@numba.njit
def action_name(a: int, trump: int) -> int:
    """The output of action ``a`` (:data:`ACTIONS`)."""
    if a == D.DRAW:
        return 53
    if a >= D.PHANTOM_BASE:
        return 54 + CARD_NAME[trump, a - D.PHANTOM_BASE]
    return int(CARD_NAME[trump, a])


@numba.njit
def heuristic_values(k: Any, legal: Any, count: int, out: Any) -> None:
    """The heuristic's value of each legal move (what :func:`decisions.choose` maximises)."""
    facts, opp = _decision_facts(k), _opponent_facts(k)
    for i in range(count):
        a = legal[i]
        if a == D.DRAW:
            out[i] = _value_draw(k, facts, opp, K.AVOID)
        elif a >= D.PHANTOM_BASE:
            out[i] = _value_two(k, facts, opp, a - D.PHANTOM_BASE, True, K.AVOID)
        else:
            out[i] = _value_two(k, facts, opp, a, False, K.AVOID)


@numba.njit
def choice_from_knowledge(k: Any, legal: Any, count: int, prior: int, w1: Any, b1: Any, w2t: Any, b2: Any,
                          wh: float, margin: float, x: Any, h: Any, hv: Any) -> int:
    """The index in ``legal`` of the learned policy's move for the seat of knowledge
    ``k``: ``prior`` (the heuristic's) unless another's ``Q`` leads by more than
    ``margin``.  ``w2t`` is the output layer transposed; ``x``, ``h``, ``hv``: work space."""
    heuristic_values(k, legal, count, hv)
    features(k, x)
    hidden = b1.shape[0]
    h[:] = b1
    for i in range(x.shape[0]):
        if x[i] != 0.0:
            xi = x[i]
            for j in range(hidden):
                h[j] += xi * w1[i, j]
    for j in range(hidden):
        h[j] = max(h[j], 0.0)
    trump = k[D.TRUMP]
    best, best_q, prior_q = prior, -1e30, 0.0
    for c in range(count):
        out = action_name(legal[c], trump)
        q = b2[out] + wh * hv[c]
        for j in range(hidden):
            q += h[j] * w2t[out, j]
        if c == prior:
            prior_q = q
        if q > best_q:
            best, best_q = c, q
    return prior if best_q - prior_q <= margin else best


@numba.njit
def learned_choice(s: Any, k: Any, legal: Any, count: int, noise: Any, work: Any, w1: Any, b1: Any, w2t: Any,
                   b2: Any, wh: float, margin: float, x: Any, h: Any, hv: Any) -> int:
    """:func:`choice_from_knowledge` for the seat to move in match vector ``s``, the
    heuristic's move (ties broken by ``noise``) as the prior; ``k``, ``work``: work space."""
    K._knowledge(s, k)
    prior = K.choose(k, legal[:count], noise[:count], K.AVOID, work)
    return choice_from_knowledge(k, legal, count, prior, w1, b1, w2t, b2, wh, margin, x, h, hv)


@numba.njit
def _workspace(policy: Any) -> tuple[Any, ...]:
    """Work space of a match vector's steps: no given decks, no round scores, the event
    counts, the knowledge, the legal moves, the tie-breaking noise, the heuristic's work
    space and the learned policy's (inputs, hidden layer, heuristic values)."""
    return (np.empty((0, 53), dtype=np.int64), np.zeros((0, 2), dtype=np.int64),
            np.zeros((2, len(K.EVENTS)), dtype=np.int64), np.zeros(D.KNOWLEDGE, dtype=np.int64),
            np.zeros(54, dtype=np.int64), np.zeros(54), np.zeros(D.WORK), np.zeros(policy[0].shape[0]),
            np.zeros(policy[1].shape[0]), np.zeros(54))


@numba.njit
def _step(t: Any, learned: int, k: Any, legal: Any, noise: Any, work: Any, policy: Any, x: Any, h: Any,
          hv: Any) -> int:
    """The move of the seat to move in ``t``: the learned policy's for seat ``learned``
    (``policy``: its weights and margin), else the heuristic's."""
    count = K._legal_list(t, legal)
    for j in range(count if count > 1 else 0):
        noise[j] = np.random.random()
    if count == 1:
        return int(legal[0])
    if t[K.CUR] == learned:
        w1, b1, w2t, b2, wh, margin = policy
        return int(legal[learned_choice(t, k, legal, count, noise, work, w1, b1, w2t, b2, wh, margin, x, h, hv)])
    return int(K._heuristic(t, k, legal, count, noise, work))


@numba.njit
def _continue_round(t: Any, seed: int, learned: int, k: Any, legal: Any, noise: Any, work: Any, policy: Any,
                    x: Any, h: Any, hv: Any, none: Any, scores: Any, events: Any) -> None:
    np.random.seed(seed)
    r = t[K.ROUND]
    while t[K.CUR] >= 0 and t[K.ROUND] == r:
        K._apply(t, _step(t, learned, k, legal, noise, work, policy, x, h, hv), none, scores, events)


@numba.njit
def _round_result(t: Any, out: Any) -> None:
    outcome = t[K.OUTCOME]
    out[0], out[1], out[4] = t[K.TOTALS + K.RED], t[K.TOTALS + K.BLACK], outcome
    out[2] = t[K.ROUND] + (1 if outcome >= 0 else 0)
    out[3] = t[K.TIEBREAKS]


@numba.njit
def collect(matches: int, seed: int, continuations: int, target: int, max_rounds: int, force: bool, ks: Any,
            legals: Any, counts: Any, hvals: Any, chosen: Any, results: Any, improve: bool, policy: Any) -> int:
    """Self-play of ``matches`` Command of Two matches from ``seed``; at each decision with
    a choice (while rows last) the seat's knowledge, the legal moves, the heuristic's
    values and its move, and each move's ``continuations`` round results (the move, then
    play on the true deal to the round's end, the same random numbers for every move).
    Every seat the heuristic; with ``improve``, in match ``i`` seat ``i % 2`` plays the
    learned ``policy`` (weights and margin) — in the match and in the continuations —
    and only its decisions are kept (the data of a policy-iteration step against the
    heuristic).  Returns the rows filled."""
    np.random.seed(seed)
    none, scores, events, k, legal, noise, work, x, h, hv = _workspace(policy)
    after = np.zeros(54, dtype=np.int64)
    rows, limit, width = 0, ks.shape[0], legals.shape[1]
    for i in range(matches):
        learned = i % 2 if improve else -1
        s = K.new_match(2, none, np.random.randint(2), np.random.randint(2), target, max_rounds, force)
        while s[K.CUR] >= 0:
            count = K._legal_list(s, legal)
            a = _step(s, learned, k, legal, noise, work, policy, x, h, hv)
            keep = count > 1 and (learned < 0 or s[K.CUR] == learned)
            if keep and rows < limit and count <= width:
                K._knowledge(s, k)
                ks[rows, :] = k
                counts[rows] = count
                legals[rows, :count] = legal[:count]
                heuristic_values(k, legal, count, hvals[rows])
                base = np.random.randint(1 << 30)
                for j in range(count):
                    if legal[j] == a:
                        chosen[rows] = j
                    for c in range(continuations):
                        t = s.copy()
                        K._apply(t, legal[j], none, scores, events)
                        _continue_round(t, base + c, learned, k, after, noise, work, policy, x, h, hv, none, scores,
                                        events)
                        _round_result(t, results[rows, j, c])
                rows += 1
            K._apply(s, a, none, scores, events)
    return rows


@numba.njit
def duel(deals: int, seed: int, learned_seat: int, target: int, max_rounds: int, force: bool, policy: Any,
         out: Any) -> None:
    """Deals ``seed .. seed + deals - 1`` (each match's round decks drawn from its seed),
    seat ``learned_seat`` playing the learned ``policy`` (weights and margin), the other
    the heuristic; ``out[i]``: 1 the learned seat's army won match ``i``, -1 lost, 0 drawn."""
    none, scores, events, k, legal, noise, work, x, h, hv = _workspace(policy)
    decks = np.zeros((40, 53), dtype=np.int64)
    for i in range(deals):
        np.random.seed(seed + i)
        dealer, red = np.random.randint(2), np.random.randint(2)
        for r in range(decks.shape[0]):
            decks[r] = K._deck_of(none, 0)
        np.random.seed(seed + i + 7777777 * (learned_seat + 1))
        s = K.new_match(2, decks, dealer, red, target, max_rounds, force)
        while s[K.CUR] >= 0:
            K._apply(s, _step(s, learned_seat, k, legal, noise, work, policy, x, h, hv), decks, scores, events)
        mine = 0 if learned_seat % 2 == s[K.RED_PARITY] else 1
        out[i] = 0 if s[K.OUTCOME] == 2 else 1 if s[K.OUTCOME] == mine else -1


@numba.njit
def learned_rounds(s: Any, seed: int, results: Any, me: int, policy: Any) -> int:
    """:func:`~cardtable.games.lost_ranks.kernel.heuristic_rounds` with seat ``me``
    playing the learned ``policy`` (weights and margin: the search's own seat in its
    play-outs)."""
    np.random.seed(seed)
    none, scores, events, k, legal, noise, work, x, h, hv = _workspace(policy)
    moves = 0
    for i in range(results.shape[0]):
        t = s.copy()
        r = t[K.ROUND]
        while t[K.CUR] >= 0 and t[K.ROUND] == r:
            K._apply(t, _step(t, me, k, legal, noise, work, policy, x, h, hv), none, scores, events)
            moves += 1
        _round_result(t, results[i])
    return moves
