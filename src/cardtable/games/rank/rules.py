"""Ранг (Rank): a Russian shedding game for 2–10 players (rulings RG-1 … RG-9).

The rulings live in ``src/cardtable/rules/rank.md``; every refusal cites one.  In short:
play on the top card a card one rank away (circular, ``A`` touches ``2`` and ``K``),
else one of the same rank, else an Ace or King, else a joker (anything goes on a
joker); keep playing while you can; draw one card when stuck; the player left
holding cards "stays in Rank" and loses.

**Cards.**  French cards of :mod:`cardtable.cards` (``card = suit * 13 + rank``,
notation ``AS``, ``10H``, ``JK``).  Both jokers of a pack are the *same kind*,
card id 52 (``JK``): they are identical in play, so a hand is a multiset of the
53 kinds 0..52 and id 53 is not used.  One pack (2–4 players) is the 52 cards
once and ``JK`` twice; two packs (5–10 players) are every card twice and ``JK``
four times (RG-1).

**Actions** (``num_distinct_actions == 55``, a fixed table): ``0..52`` = ``play
<card>`` (``play 7H`` … ``play JK``: identical cards are one action), ``53`` =
``draw`` (stuck, RG-5), ``54`` = ``pass`` (stuck with an empty stock, RG-5).
There is no "declare Anti-Rank" action: when RG-8 applies the seat to move simply
has every card of its hand as a legal play.  A pull-back (RG-6) is decided
automatically at the start of the next player's turn, inside the action that
ended the turn, so it is never pending at a decision point (``view()["pull_back"]``
reports the decision taken when the current turn began).

**Dealing order of an explicit deck** (``new_state(decks=[deck])``, a single deck
since the match is one game): the dealer is drawn from the seed
(:meth:`Rank.dealer_of`), the first 5 cards go to the player left of the dealer
(seat ``dealer + 1``), the next 5 to the following seat clockwise (``+1``) and so
on; the next card is turned up to start the pile; the rest is the stock, top
first.  A deck that is not exactly the multiset above is refused (``ValueError``).
Without a deck, the dealer and then the shuffle come from
``protocol.round_rng(seed, 0)``.

**Scores.**  The match is one game: ``round`` is always 1; ``scores`` are zeros
until the end, then the returns (−1 for the loser, 0 for everyone else, RG-7);
``round_scores`` is ``[]`` before the end and ``[scores]`` after.

The game always ends: the pile is never turned over, so the stock only shrinks,
every play removes a card from the hands for good once the stock is empty, and
passes go round at most once before someone plays (else RG-8 applies).  No
safeguard move limit is needed.

>>> game = Rank(players=3)
>>> s = game.new_state(seed=1)
>>> s.view(0)["round"], len(s.view(0)["hand"]), s.view(0)["stock"]
(1, 5, 38)
>>> game.action_name(53), game.parse_action_name("7♥") == game.parse_card("7H")
('draw', True)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Final, NamedTuple

from cardtable.cards import ACE, FRENCH_NAMES, JOKER, KING, RANK_NAMES, parse_french
from cardtable.cards import bit_list as _kinds
from cardtable.description import Text, describe
from cardtable.protocol import (
    JSON, PROTOCOL_REFUSALS, TERMINAL, Event, EventDetail, Game, IllegalAction, Refusal, RefusalTable, State,
    round_rng,
)

__all__ = [
    "Rank", "RankConfig", "RankState", "HandConstraints", "constrained_deal", "constraints_of_view",
    "DRAW", "PASS", "NUM_KINDS", "HAND_SIZE", "playable",
]

NUM_KINDS: Final = 53
"""Card kinds: the 52 cards and the joker (both jokers are kind 52)."""
DRAW: Final = 53
PASS: Final = 54
NUM_ACTIONS: Final = 55
HAND_SIZE: Final = 5
"""Cards dealt to each player (RG-2)."""
PULL_BACK_DRAWS: Final = 2
"""Cards a pulled-back player draws (RG-6)."""

ACTION_NAMES: Final[tuple[str, ...]] = tuple(["play " + FRENCH_NAMES[k] for k in range(NUM_KINDS)] + ["draw", "pass"])
_DRAW_WORDS: Final = ("DRAW", "ВЗЯТЬ", "БЕРУ", "TAKE")
_PASS_WORDS: Final = ("PASS", "ПАС", "ПРОПУСК")

REFUSALS: Final = RefusalTable("rank", {
    "no_such_action": (None, "{action} is not a move of Ранг: actions are 0..52 (play a card kind, 52 = JK), "
                             "53 (draw) and 54 (pass)"),
    "game_over": ("RG-7", "the game is over: seat {seat} stayed in Rank"),
    "not_held": ("RG-4", "you do not hold {card}: you can only play a card from your hand"),
    "play_drawn": ("RG-5", "you drew {card} and it can be played: it must be played"),
    "does_not_fit": ("RG-4", "{card} does not go on {top}: it is neither one rank from {rank} ({lower} or {higher}), "
                             "nor a {rank}, nor an Ace, King or joker"),
    "does_not_fit_draw": ("RG-5", "{card} does not go on {top}: it is neither one rank from {rank} "
                                  "({lower} or {higher}), nor a {rank}, nor an Ace, King or joker; "
                                  "you can play nothing, so draw a card"),
    "does_not_fit_pass": ("RG-5", "{card} does not go on {top}: it is neither one rank from {rank} "
                                  "({lower} or {higher}), nor a {rank}, nor an Ace, King or joker; "
                                  "you can play nothing, so pass"),
    "play_neighbour_first": ("RG-4", "you hold a card one rank from {rank} ({lower} or {higher}): play that first"),
    "play_same_rank_first": ("RG-4", "you hold a {rank}, the same rank as {top}: play it before an Ace, King or joker"),
    "play_ace_king_first": ("RG-4", "you hold an Ace or a King: play it before a joker"),
    "anti_rank_nobody": ("RG-8", "Anti-Rank: nobody can play on {top}, so you play any one card of your choice "
                                 "and the turn passes"),
    "anti_rank_you": ("RG-8", "Anti-Rank: you cannot play on {top}, so you play any one card of your choice "
                              "and the turn passes"),
    "draw_can_play": ("RG-4", "you can play ({cards}): playing is compulsory, you draw only when you can play nothing"),
    "stock_empty": ("RG-5", "the stock is empty: you cannot draw, so you pass"),
    "pass_can_play": ("RG-4", "you can play ({cards}): playing is compulsory, you may not pass"),
    "pass_must_draw": ("RG-5", "the stock is not empty: a player who can play nothing draws a card; "
                               "passing is only for an empty stock"),
})
"""Every reason a Ранг move is refused: key → (ruling, English template)."""

# --- precomputed tables --------------------------------------------------------------
# A hand is two ints: ``pres`` with bit k set when kind k is held (same bit layout as
# the play actions) and ``packed``, the count of kind k in the 3-bit field at 3k.
_BIT: Final[tuple[int, ...]] = tuple(1 << k for k in range(NUM_ACTIONS))
_NOTBIT: Final[tuple[int, ...]] = tuple(~(1 << k) for k in range(NUM_KINDS))
_ONE: Final[tuple[int, ...]] = tuple(1 << (3 * k) for k in range(NUM_KINDS))
_SHIFT: Final[tuple[int, ...]] = tuple(3 * k for k in range(NUM_KINDS))
ALL_KINDS: Final = (1 << NUM_KINDS) - 1
_DRAW_BIT: Final = 1 << DRAW
_PASS_BIT: Final = 1 << PASS
_RANK_MASK: Final[tuple[int, ...]] = tuple(sum(1 << (s * 13 + r) for s in range(4)) for r in range(13))
_AK: Final = _RANK_MASK[ACE] | _RANK_MASK[KING]
_JKB: Final = 1 << JOKER
# Tier masks by top-card kind (RG-4); the joker entries are unused (anything goes).
_ADJ: Final[tuple[int, ...]] = tuple(
    [_RANK_MASK[(t % 13 + 1) % 13] | _RANK_MASK[(t % 13 - 1) % 13] for t in range(52)] + [0]
)
_SAME: Final[tuple[int, ...]] = tuple([_RANK_MASK[t % 13] for t in range(52)] + [0])
_ANY: Final[tuple[int, ...]] = tuple([_ADJ[t] | _SAME[t] | _AK | _JKB for t in range(52)] + [ALL_KINDS])
"""Kinds that may be played on top card t at some tier: "can this hand play at all"."""
ANSWERS_TABLE: Final = _ANY
""":data:`_ANY` for the compiled kernel, which embeds the engine's own table (RG-4)."""

# Public log codes: (move, code, seat, a, b)
L_START, L_PLAY, L_DRAW, L_PASS, L_PULLBACK, L_OUT, L_ANTI, L_ANTI_OVER, L_LOSE = range(9)
_LOG_WORDS: Final = ("start", "play", "draw", "pass", "pull-back", "out", "anti-rank", "anti-rank over", "loses")


_Snapshot = tuple[int, int, int, int, int, int, bool, int, int, tuple[int, int], int, int]
"""Undo record: the seat to move and its hand (packed, pres, size) — the only hand an action
changes, pull-back draws included — then stock position, pile length, Anti-Rank flag and
declarer, alive mask, turn start (pile length, move), legal mask, log length."""
_DRAW_PLAYABLE: Final = "draws a card that can be played: it must be played (RG-5)"
_DRAW_STUCK: Final = "draws a card that cannot be played: the turn passes (RG-5)"
_new_event = tuple.__new__
"""Builds an :class:`Event` without the NamedTuple's Python-level ``__new__`` (hot path)."""


def _rg4(pres: int, top: int) -> int:
    """The kinds of ``pres`` playable on ``top`` under RG-4's strict tiers (0 if stuck)."""
    if top == JOKER:
        return pres
    m = pres & _ADJ[top]
    if m:
        return m
    m = pres & _SAME[top]
    if m:
        return m
    m = pres & _AK
    if m:
        return m
    return pres & _JKB


def playable(hand: Sequence[int], top: int) -> list[int]:
    """The kinds of ``hand`` (card ids) that RG-4 allows on ``top``, sorted.

    >>> [FRENCH_NAMES[c] for c in playable([parse_french(x) for x in ("6H", "AS", "JK")], parse_french("7C"))]
    ['6H']
    >>> [FRENCH_NAMES[c] for c in playable([parse_french(x) for x in ("2D", "AS", "JK")], parse_french("7C"))]
    ['AS']
    """
    pres = 0
    for c in hand:
        pres |= 1 << c
    return _kinds(_rg4(pres, top))


# --- what a seat's information says about the other hands (RG-9) ----------------------
def _tier_above(top: int, card: int) -> int:
    """The kinds of the RG-4 tiers above ``card``'s tier on ``top``: a seat that plays
    ``card`` on ``top`` outside Anti-Rank holds none of them (nothing on a joker)."""
    if top == JOKER:
        return 0
    bit = _BIT[card]
    if bit & _ADJ[top]:
        return 0
    if bit & _SAME[top]:
        return _ADJ[top]
    if bit & _AK:
        return _ADJ[top] | _SAME[top]
    return _ADJ[top] | _SAME[top] | _AK


_ABOVE: Final[tuple[int, ...]] = tuple(_tier_above(t, c) for t in range(NUM_KINDS) for c in range(NUM_KINDS))
"""``_ABOVE[top * 53 + card]`` is :func:`_tier_above` (precomputed)."""


class HandConstraints(NamedTuple):
    """What one player's information (RG-9) proves about the other seats' hands.

    ``slots[s]`` holds one mask of card kinds per card of seat ``s`` (nothing for
    the player and for seats out): the hand must be layable on its slots, one card
    a slot, each card of a kind its slot allows.  ``some`` is ``None`` or
    ``(seats, kinds)``: at least one of those seats holds a card of those kinds.
    See :meth:`RankState.hand_constraints`.
    """

    slots: tuple[tuple[int, ...], ...]
    some: tuple[tuple[int, ...], int] | None

    def admits(self, hands: Sequence[Sequence[int]]) -> bool:
        """Whether ``hands`` (cards of every seat, by seat) meet every constraint."""
        for masks, hand in zip(self.slots, hands):
            if masks and not _layable(hand, masks):
                return False
        if self.some is not None:
            seats, kinds = self.some
            return any(_BIT[c] & kinds for s in seats for c in hands[s])
        return True


def _layable(hand: Sequence[int], masks: Sequence[int]) -> bool:
    """Whether ``hand`` can be laid on ``masks``, one card a slot (a bipartite matching)."""
    if len(hand) != len(masks):
        return False
    owner = [-1] * len(masks)

    def place(i: int, seen: list[bool]) -> bool:
        for j, m in enumerate(masks):
            if not seen[j] and m >> hand[i] & 1:
                seen[j] = True
                if owner[j] < 0 or place(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    return all(place(i, [False] * len(masks)) for i in range(len(hand)))


def _derive(log: Sequence[tuple[int, ...]], n: int, player: int, player_pres: int, cur: int, anti: bool,
            stock_left: int, alive: int, hand_size: int = HAND_SIZE) -> HandConstraints:
    """The constraints ``player`` can prove from the public log (RG-9) and the present.

    Every card of a seat sits in a *slot* that entered its hand with the deal, a
    pull-back (RG-6: the hand was empty, so older slots are gone) or a draw it could
    not play (RG-5: the card stays).  A slot collects, as forbidden kinds, every fact
    shown while it was held: stuck on a top card T (an unplayable draw, a draw
    before a playable one, a pass, a forced Anti-Rank throw, the Anti-Rank
    declaration for every seat, failing to answer a pull-back — RG-4, RG-5, RG-6,
    RG-8) forbids every kind that answers T; playing a card of a lower RG-4 tier
    forbids the higher tiers.  A play removes the oldest slot that could have held
    the card: of the slot sets consistent with the plays, this one is the most
    permissive, so the true hand always fits (the slots are nested, older ones
    forbidding more).  A playable draw is played at once and takes no slot.

    The present adds: in Anti-Rank the seat to move cannot play (RG-8); a pending
    playable draw is a card that answers the top; a seat whose turn began with a
    pull-back it answered, or with the end of Anti-Rank, and has not played yet can
    play (RG-6, RG-8); with an empty stock and no Anti-Rank somebody can play —
    if not the player, one of the others (RG-8).  A pull-back's or an ended
    Anti-Rank's "could play" is otherwise proved by the seat's next play.
    """
    # Per seat, groups [forbidden kinds, slots] of equal slots, oldest (most forbidden) first.
    forbid: list[list[list[int]]] = [[] for _ in range(n)]
    top = JOKER
    drawn = -1  # seat whose playable draw is still to be played
    able = -1  # seat that could play when its turn began and has not played yet
    for entry in log:
        code = entry[1]
        seat = entry[2]
        if code == L_PLAY:
            card = entry[3]
            if seat != player and seat != drawn:
                _play_from(forbid[seat], _ANY[top] if entry[4] else _ABOVE[top * NUM_KINDS + card], card)
            if seat == drawn:
                drawn = -1
            if seat == able:
                able = -1
            top = card
        elif code == L_DRAW:
            if seat != player:
                groups = forbid[seat]
                f = _ANY[top]
                _forbid(groups, f)
                if entry[4]:
                    drawn = seat
                elif groups and groups[-1][0] == f:
                    groups[-1][1] += 1
                else:
                    groups.append([f, 1])
        elif code == L_PASS:
            _forbid(forbid[seat], _ANY[top])
        elif code == L_PULLBACK:
            if seat != player:
                forbid[seat] = [[0, entry[4]]]
            able = entry[3]
        elif code == L_OUT:
            if entry[4] >= 0:
                _forbid(forbid[entry[4]], _ANY[top])
        elif code == L_ANTI:
            f = _ANY[top]
            for groups in forbid:
                _forbid(groups, f)
        elif code == L_ANTI_OVER:
            able = seat
        elif code == L_START:
            for s in range(n):
                if s != player:
                    forbid[s] = [[0, hand_size]]
            top = entry[3]
    forbid[player] = []
    answer = _ANY[top]
    extra: tuple[int, ...] = ()
    some: tuple[tuple[int, ...], int] | None = None
    if cur >= 0:
        if cur != player:
            if anti:
                _forbid(forbid[cur], answer)
            elif drawn == cur:
                extra = (answer,)
        if able == cur != player:
            some = ((cur,), answer)
        elif (stock_left == 0 and not anti and top != JOKER and not (drawn == cur != player)
              and not ((alive >> player) & 1 and player_pres & answer)):
            some = (tuple(s for s in range(n) if s != player and (alive >> s) & 1), answer)
    slots = tuple(
        tuple(ALL_KINDS & ~f for f, k in forbid[s] for _ in range(k)) + (extra if s == cur else ()) for s in range(n)
    )
    return HandConstraints(slots, some)


def constraints_of_view(view: dict[str, JSON]) -> HandConstraints:
    """:meth:`RankState.hand_constraints` computed from a JSON view alone (for agents).

    >>> s = Rank(players=3).new_state(seed=1)
    >>> constraints_of_view(s.view(0)) == s.hand_constraints(0)
    True
    """
    codes = {word: code for code, word in enumerate(_LOG_WORDS)}
    log: list[tuple[int, ...]] = []
    for e in view["log"]:
        code = codes[e["event"]]
        a = b = 0
        if code in (L_START, L_PLAY):
            a = parse_french(e["card"])
            b = int(bool(e.get("anti_rank")))
        elif code == L_DRAW:
            b = int(bool(e["played"]))
        elif code == L_PULLBACK:
            a, b = int(e["by"]), int(e["cards"])
        elif code == L_OUT:
            a = int(e["place"])
            b = -1 if e["by"] is None else int(e["by"])
        log.append((int(e["move"]), code, int(e["seat"]), a, b))
    pres = 0
    for name in view["hand"]:
        pres |= _BIT[parse_french(name)]
    alive = 0
    for s in view["in_game"]:
        alive |= 1 << int(s)
    cur = int(view["current_player"])
    return _derive(log, int(view["players"]), int(view["player"]), pres, cur if view["loser"] is None else TERMINAL,
                   bool(view["anti_rank"]["active"]), int(view["stock"]), alive, int(view.get("hand_size", HAND_SIZE)))


def _play_from(groups: list[list[int]], f: int, card: int) -> None:
    """A seat plays ``card``, which shows it holds none of the kinds ``f`` (a lower RG-4
    tier; every kind that answers the top for a forced Anti-Rank throw, RG-8): every slot
    learns ``f``, then the oldest slot that could have held the card is gone (see
    :func:`_derive`)."""
    if f:
        _forbid(groups, f)
    bit = _BIT[card]
    for i, g in enumerate(groups):
        if not g[0] & bit:
            break
    else:  # unreachable while the log is a real game's; dropping the oldest stays sound
        i = 0
    g = groups[i]
    g[1] -= 1
    if not g[1]:
        del groups[i]


def _forbid(groups: list[list[int]], f: int) -> None:
    """Every slot of a seat learns it holds none of the kinds ``f`` (equal groups merge)."""
    if not groups:
        return
    last: list[int] | None = None
    i = 0
    while i < len(groups):
        g = groups[i]
        g[0] |= f
        if last is not None and last[0] == g[0]:
            last[1] += g[1]
            del groups[i]
        else:
            last = g
            i += 1


def _take(counts: list[int], levels: list[int], k: int) -> None:
    c = counts[k]
    counts[k] = c - 1
    levels[c - 1] &= ~_BIT[k]


def _put(counts: list[int], levels: list[int], k: int) -> None:
    c = counts[k]
    counts[k] = c + 1
    levels[c] |= _BIT[k]


def _weight(m: int, levels: list[int]) -> int:
    """Cards of the kinds in ``m`` left in the pool (``levels[j]``: kinds with more than j)."""
    c = (m & levels[0]).bit_count()
    if m & levels[1]:
        c += (m & levels[1]).bit_count() + (m & levels[2]).bit_count() + (m & levels[3]).bit_count()
    return c


def _pick(m: int, counts: list[int], r: int) -> int:
    """The kind of the ``r``-th card (0-based) of the kinds in ``m``, kinds in order."""
    while True:
        low = m & -m
        k = low.bit_length() - 1
        r -= counts[k]
        if r < 0:
            return k
        m ^= low


def _levels(counts: Sequence[int]) -> list[int]:
    """``levels[j]``: the kinds with more than ``j`` copies in ``counts`` (at most 4)."""
    levels = [0, 0, 0, 0]
    for k, c in enumerate(counts):
        for j in range(c):
            levels[j] |= _BIT[k]
    return levels


def _match(masks: Sequence[int], counts: list[int], rng: random.Random) -> list[int] | None:
    """One kind per slot, each allowed by the slot's mask, from the pool ``counts``
    (which loses them), or ``None`` if no such assignment exists.

    Slots are served in order of how few pool cards they allow; each draws a card
    uniformly from the allowed ones still free.  A slot that finds none takes one
    through an augmenting path (Kuhn's algorithm: holders of an allowed kind move to
    other kinds they allow), so a complete assignment is found whenever one exists.
    """
    levels = _levels(counts)
    present = levels[0]
    order = sorted(range(len(masks)), key=lambda u: _weight(masks[u] & present, levels))
    got = [-1] * len(masks)
    holders: dict[int, list[int]] = {}
    visited = 0

    def move(w: int, k: int) -> None:
        old = got[w]
        holders[old].remove(w)
        _put(counts, levels, old)
        _take(counts, levels, k)
        holders.setdefault(k, []).append(w)
        got[w] = k

    def free_up(k: int) -> bool:
        """Free one copy of kind ``k`` by moving one of its holders elsewhere."""
        for w in holders.get(k, ()):
            if relocate(w):
                return True
        return False

    def relocate(w: int) -> bool:
        nonlocal visited
        m = masks[w] & present & ~visited & ~_BIT[got[w]]
        free = m & levels[0]
        if free:
            move(w, (free & -free).bit_length() - 1)
            return True
        while m:
            low = m & -m
            m ^= low
            visited |= low
            k = low.bit_length() - 1
            if free_up(k):
                move(w, k)
                return True
        return False

    for u in order:
        m = masks[u] & levels[0]
        if m:
            k = _pick(m, counts, int(rng.random() * _weight(m, levels)))
        else:
            visited = 0
            m = masks[u] & present
            k = -1
            while m:
                low = m & -m
                m ^= low
                visited |= low
                if free_up(low.bit_length() - 1):
                    k = low.bit_length() - 1
                    break
            if k < 0:
                return None
        _take(counts, levels, k)
        got[u] = k
        holders.setdefault(k, []).append(u)
    return got


def constrained_deal(cons: HandConstraints, counts: Sequence[int],
                     rng: random.Random) -> tuple[list[list[int]], list[int]]:
    """Hands meeting ``cons`` and a shuffled stock, from the pool ``counts`` (copies of each kind).

    Every constrained slot gets a card by :func:`_match` (most constrained slots
    first, each card drawn uniformly from those its slot allows and still free; an
    augmenting path where a slot finds none).  ``some`` is met by splitting off one
    slot of one of its seats that must take a card of its kinds, trying the seats'
    slot classes in random order until a deal exists.  The deal is found whenever
    one exists; it is not exactly uniform over all consistent deals.  Unconstrained
    slots and the stock share the shuffled remainder.  A pure function of the
    arguments and ``rng``; ``RuntimeError`` if nothing meets ``cons``.
    """
    n = len(cons.slots)
    owners: list[int] = []
    masks: list[int] = []
    for s, slots in enumerate(cons.slots):
        for m in slots:
            owners.append(s)
            masks.append(m)
    trials: list[int] = [-1]
    if cons.some is not None:
        seats, kinds = cons.some
        firsts: dict[tuple[int, int], int] = {}
        for i, (s, m) in enumerate(zip(owners, masks)):
            if s in seats and m & kinds:
                firsts.setdefault((s, m), i)
        trials = list(firsts.values())
        rng.shuffle(trials)
    for trial in trials:
        pool = list(counts)
        units = [i for i, m in enumerate(masks) if m != ALL_KINDS or i == trial]
        unit_masks = [masks[i] & cons.some[1] if i == trial and cons.some else masks[i] for i in units]
        got = _match(unit_masks, pool, rng)
        if got is not None:
            break
    else:
        raise RuntimeError("no deal meets the constraints: the information is inconsistent")
    rest = [k for k in range(len(pool)) for _ in range(pool[k])]
    rng.shuffle(rest)
    cards = [-1] * len(masks)
    for i, k in zip(units, got):
        cards[i] = k
    hands: list[list[int]] = [[] for _ in range(n)]
    at = 0
    for i, s in enumerate(owners):
        if cards[i] < 0:
            cards[i] = rest[at]
            at += 1
        hands[s].append(cards[i])
    return hands, rest[at:]


_LEGAL_CACHE: dict[int, tuple[int, ...]] = {}
"""Legal-action lists by mask (bounded; masks recur a lot in play)."""


def _rank_word(r: int) -> str:
    return RANK_NAMES[r]


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 < 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def pack_counts(packs: int) -> list[int]:
    """Copies of each kind 0..52 in ``packs`` packs of 54 (RG-1)."""
    return [packs] * 52 + [2 * packs]


# ---------------------------------------------------------------------------
# Event details (what each applied action did, as data; every one is public, RG-9)


@dataclass(frozen=True, slots=True)
class CardPlayed(EventDetail):
    """``seat`` played ``card`` onto the pile (RG-4; any card under Anti-Rank, RG-8)."""

    kind: ClassVar[str] = "card_played"
    seat: int
    card: str


@dataclass(frozen=True, slots=True)
class CardDrawn(EventDetail):
    """``seat`` drew a card from the stock (RG-5); whether it can be ``playable`` (then it
    must be played).  The card is seen only by the drawer, in its view's ``log``."""

    kind: ClassVar[str] = "card_drawn"
    seat: int
    playable: bool


@dataclass(frozen=True, slots=True)
class Passed(EventDetail):
    """``seat`` passed: it cannot play and the stock is empty (RG-5)."""

    kind: ClassVar[str] = "passed"
    seat: int


@dataclass(frozen=True, slots=True)
class PullBack(EventDetail):
    """``seat`` played its last card but ``by`` (the next seat) can play, so ``seat``
    draws ``count`` cards from the stock and is back in the game (RG-6)."""

    kind: ClassVar[str] = "pull_back"
    seat: int
    by: int
    count: int


@dataclass(frozen=True, slots=True)
class PlayerOut(EventDetail):
    """``seat`` is out of the game, ``place``-th (RG-6): ``by`` (the next seat) could not
    play, or ``by`` is ``None`` when the stock was empty."""

    kind: ClassVar[str] = "player_out"
    seat: int
    place: int
    by: int | None


@dataclass(frozen=True, slots=True)
class AntiRankDeclared(EventDetail):
    """Nobody can play: ``seat`` declares Anti-Rank and plays any card (RG-8)."""

    kind: ClassVar[str] = "anti_rank_declared"
    seat: int


@dataclass(frozen=True, slots=True)
class AntiRankOver(EventDetail):
    """``seat`` can play again: Anti-Rank is over (RG-8)."""

    kind: ClassVar[str] = "anti_rank_over"
    seat: int


@dataclass(frozen=True, slots=True)
class MatchEnded(EventDetail):
    """``loser`` stays in Rank, the last with cards, and loses (RG-7)."""

    kind: ClassVar[str] = "match_ended"
    loser: int


@dataclass(frozen=True, kw_only=True)
class RankConfig:
    """Options of Ранг."""

    players: int = 4
    """Number of players, 2..10 (one pack up to 4, two packs from 5: RG-1)."""
    hand_size: int = HAND_SIZE
    """A designer's knob: cards dealt to each player (RG-2: 5)."""
    pull_back_draws: int = PULL_BACK_DRAWS
    """A designer's knob: cards a pulled-back player draws (RG-6: 2)."""

    @property
    def packs(self) -> int:
        """Packs of 54 in play: one for 2–4 players, two for 5–10 (RG-1)."""
        return 1 if self.players <= 4 else 2


def _max_game_length(config: RankConfig) -> int:
    # Every card is played once at most (the pile is never turned over); every draw takes a
    # stock card; passes happen only with an empty stock, fewer than n between two plays.
    n = config.players
    return (n + 2) * sum(pack_counts(config.packs)) + n


INFO: Final = describe(
    RankConfig,
    name="rank",
    title=Text("Ранг (Rank)", "Ранг"),
    summary=Text("Russian shedding game: play a card one rank away; don't be the last one holding cards.",
                 "Русская игра на сброс: кладите карту на ранг выше или ниже; не останьтесь последним с картами."),
    min_players=2,
    max_players=10,
    players_option="players",
    max_game_length=_max_game_length,
    min_return=-1.0,
    max_return=0.0,
    return_sum=-1.0,
    options={
        "players": dict(
            minimum=2, maximum=10, rule="RG-1", flags=("-p",), form_default=2,
            label=Text("Players", "Игроки"),
            help=Text("2 to 10 players: one pack of 54 up to 4 players, two packs from 5 (RG-1).",
                      "От 2 до 10 игроков: одна колода из 54 карт до 4 игроков, две — от 5 (RG-1)."),
        ),
        "hand_size": dict(
            minimum=1, maximum=20, rule="RG-2", group="custom",
            label=Text("Starting hand", "Карт на руке"),
            help=Text("Cards dealt to each player (the deal and the turned-up card must fit in the packs); "
                      "the published rules say 5 (RG-2).",
                      "Сколько карт сдаётся каждому (сдача и открытая карта должны уместиться в колоды); "
                      "по правилам 5 (RG-2)."),
        ),
        "pull_back_draws": dict(
            minimum=1, maximum=10, rule="RG-6", group="custom",
            label=Text("Pull-back draw", "Добор при возврате"),
            help=Text("Cards a player who is pulled back draws from the stock; the published rules say 2 (RG-6).",
                      "Сколько карт берёт из колоды возвращённый в игру игрок; по правилам 2 (RG-6)."),
        ),
    },
)
"""The description of Ранг: its players, options and match length; the one loser gets −1."""


class Rank(Game):
    """Ранг for 2–10 players (one match = one game)."""

    info = INFO
    name = INFO.name
    title = INFO.title.en
    refusals = REFUSALS

    def __init__(self, *, players: int = 4, hand_size: int = HAND_SIZE, pull_back_draws: int = PULL_BACK_DRAWS) -> None:
        INFO.check({"players": players, "hand_size": hand_size, "pull_back_draws": pull_back_draws})
        self.config = RankConfig(players=players, hand_size=hand_size, pull_back_draws=pull_back_draws)
        self.num_players = players
        self.num_distinct_actions = NUM_ACTIONS
        self.num_card_kinds = NUM_KINDS
        self.packs = self.config.packs
        self.pack = pack_counts(self.packs)
        self.deck_size = sum(self.pack)
        if hand_size * players + 1 > self.deck_size:
            raise ValueError(
                f"hand_size {hand_size} with {players} players deals {hand_size * players} cards and turns one up: "
                f"more than the {self.deck_size} cards of {'one pack' if self.packs == 1 else 'two packs'} (RG-1, RG-2); "
                f"at most {(self.deck_size - 1) // players}")
        self.hand_size = hand_size
        """Cards dealt to each player (RG-2)."""
        self.pull_back_draws = pull_back_draws
        """Cards a pulled-back player draws (RG-6)."""

        self._next_tables: dict[int, tuple[int, ...]] = {}
        self._play_events: tuple[tuple[Event, ...], ...] = tuple(
            tuple(Event(p, k, ACTION_NAMES[k], "", (CardPlayed(p, FRENCH_NAMES[k]),)) for k in range(NUM_KINDS))
            for p in range(players)
        )
        """The event of seat ``p`` playing kind ``k`` with no consequence, ``[p][k]`` (hot path)."""
        self._drawn: tuple[tuple[CardDrawn, CardDrawn], ...] = tuple((CardDrawn(p, False), CardDrawn(p, True)) for p in range(players))
        self._draw_events: tuple[tuple[Event, Event], ...] = tuple(
            (Event(p, DRAW, "draw", _DRAW_STUCK, (self._drawn[p][0],)), Event(p, DRAW, "draw", _DRAW_PLAYABLE, (self._drawn[p][1],)))
            for p in range(players)
        )
        """Seat ``p``'s draw with no consequence: ``[p][playable]``."""

    def next_table(self, alive: int) -> tuple[int, ...]:
        """For each seat, the next seat clockwise still in the game (bit set in ``alive``)."""
        table = self._next_tables.get(alive)
        if table is None:
            n = self.num_players
            out = []
            for seat in range(n):
                s = (seat + 1) % n
                while alive and not (alive >> s) & 1:
                    s = (s + 1) % n
                out.append(s)
            table = self._next_tables[alive] = tuple(out)
        return table

    # --- naming ----------------------------------------------------------------------
    def action_name(self, action: int) -> str:
        return ACTION_NAMES[action]

    def card_name(self, card: int) -> str:
        return FRENCH_NAMES[card]

    def parse_card(self, text: str) -> int:
        return parse_french(text)

    def parse_action_name(self, text: str) -> int:
        """``play 7H``, or just ``7H`` / ``7♥`` / ``JK``; ``draw``; ``pass`` (Russian words too)."""
        words = text.split()
        key = " ".join(words).upper()
        if key in _DRAW_WORDS:
            return DRAW
        if key in _PASS_WORDS:
            return PASS
        if words and words[0].upper() in ("PLAY", "ХОД", "ИГРАТЬ"):
            words = words[1:]
        if len(words) == 1:
            try:
                return parse_french(words[0])
            except ValueError:
                pass
        raise IllegalAction(f"{text.strip()!r} is not a move of Ранг: write 'play 7H' (or just 7H), 'play JK', 'draw' or 'pass'")

    # --- dealing ---------------------------------------------------------------------
    def dealer_of(self, seed: int) -> int:
        """The dealer drawn from ``seed`` (RG-2); seat ``dealer + 1`` moves first (RG-3)."""
        return round_rng(seed, 0).randrange(self.num_players)

    def check_deck(self, deck: Sequence[int]) -> list[int]:
        """``deck`` as a list if it is exactly the RG-1 multiset, else ``ValueError``."""
        cards = list(deck)
        what = "one pack of 54 (each card once, JK twice)" if self.packs == 1 else "two packs of 54 (each card twice, JK four times)"
        bad = [c for c in cards if not isinstance(c, int) or isinstance(c, bool) or not 0 <= c < NUM_KINDS]
        if bad:
            raise ValueError(f"a Ранг deck holds card ids 0..52 (52 = JK, both jokers), not {bad[:5]}")
        have = Counter(cards)
        missing = [FRENCH_NAMES[k] for k in range(NUM_KINDS) for _ in range(self.pack[k] - have[k])]
        extra = [FRENCH_NAMES[k] for k in range(NUM_KINDS) for _ in range(have[k] - self.pack[k])]
        if missing or extra:
            detail = "; ".join(x for x in (
                f"missing {' '.join(missing[:10])}" if missing else "",
                f"too many {' '.join(extra[:10])}" if extra else "") if x)
            raise ValueError(
                f"a Ранг deck for {self.num_players} players is {what} = {self.deck_size} cards (RG-1); "
                f"this one has {len(cards)}: {detail}"
            )
        return cards

    def new_state(self, *, seed: int = 0, decks: Sequence[Sequence[int]] | None = None) -> RankState:
        if decks is not None and len(decks) > 1:
            raise ValueError("Ранг is a single game (one round): give at most one deck")
        rng = round_rng(seed, 0)
        dealer = rng.randrange(self.num_players)
        if decks:
            deck = self.check_deck(decks[0])
        else:
            deck = [k for k in range(NUM_KINDS) for _ in range(self.pack[k])]
            rng.shuffle(deck)
        return RankState(self, seed, None if decks is None else [list(d) for d in decks], dealer, deck)


class RankState(State):
    """A game of Ранг in progress (the whole match)."""

    __slots__ = (
        "game", "seed", "decks", "history", "_n", "_dealer", "_stock", "_pos", "_pile", "_packed", "_pres",
        "_sizes", "_alive", "_nxt", "_finished", "_cur", "_anti", "_anti_by", "_turn", "_mask",
        "_log", "_undo", "_loser", "_known",
    )
    game: Rank

    def __init__(self, game: Rank, seed: int, decks: list[list[int]] | None, dealer: int, deck: list[int]) -> None:
        n = game.num_players
        self.game = game
        self.seed = seed
        self.decks = decks
        self.history: list[int] = []
        self._n = n
        self._dealer = dealer
        self._packed = [0] * n
        self._pres = [0] * n
        size = game.hand_size
        self._sizes = [size] * n
        for i in range(n):
            seat = (dealer + 1 + i) % n
            packed = pres = 0
            for c in deck[size * i: size * (i + 1)]:
                packed += _ONE[c]
                pres |= _BIT[c]
            self._packed[seat] = packed
            self._pres[seat] = pres
        up = deck[size * n]
        self._pile = [up]
        self._stock = deck[size * n + 1:]
        self._pos = 0
        self._alive = (1 << n) - 1
        self._nxt = game.next_table(self._alive)
        self._finished: list[int] = []
        self._anti = False
        self._anti_by = -1
        self._loser = -1
        self._log: list[tuple[int, ...]] = [(0, L_START, dealer, up, 0)]
        self._undo: list[_Snapshot] = []
        self._known: tuple[int, int, tuple[int, ...], HandConstraints] | None = None
        self._cur = 0
        self._turn = (1, 0)
        self._mask = 0
        self._enter((dealer + 1) % n)

    # --- turn machinery ----------------------------------------------------------------
    def _enter(self, seat: int) -> None:
        """The turn passes to ``seat`` (RG-3); settle Anti-Rank (RG-8) and the legal moves."""
        self._cur = seat
        self._turn = (len(self._pile), len(self.history))
        top = self._pile[-1]
        pres = self._pres[seat]
        if self._anti:
            if pres & _ANY[top]:
                self._anti = False
                self._log.append((len(self.history), L_ANTI_OVER, seat, 0, 0))
                self._mask = _rg4(pres, top)
            else:
                self._mask = pres  # RG-8: any one card, then the turn passes
            return
        self._mask = _rg4(pres, top) or self._stuck(seat, top)

    def _stuck(self, seat: int, top: int, declare: bool = True) -> int:
        """The legal moves of a seat that can play nothing (RG-5, RG-8)."""
        if self._pos < len(self._stock):
            return _DRAW_BIT
        playable = _ANY[top]
        alive = self._alive
        pres = self._pres
        for s in range(self._n):
            if s != seat and (alive >> s) & 1 and pres[s] & playable:
                return _PASS_BIT
        if not declare:
            return _PASS_BIT
        self._anti = True
        self._anti_by = seat
        self._log.append((len(self.history), L_ANTI, seat, 0, 0))
        return pres[seat]

    def _hand_emptied(self, p: int) -> None:
        """``p`` played their last card (RG-6), then the turn passes (RG-7 ends the game)."""
        move = len(self.history)
        q = self._nxt[p]
        stock = self._stock
        if self._pos >= len(stock):
            self._out(p, -1)
        elif self._pres[q] & _ANY[self._pile[-1]]:
            got = 0
            draws = self.game.pull_back_draws
            while got < draws and self._pos < len(stock):
                c = stock[self._pos]
                self._pos += 1
                self._packed[p] += _ONE[c]
                self._pres[p] |= _BIT[c]
                got += 1
            self._sizes[p] = got
            self._log.append((move, L_PULLBACK, p, q, got))
        else:
            self._out(p, q)
        if self._alive & (self._alive - 1):
            self._enter(q)
        else:
            self._end()

    def _out(self, p: int, by: int) -> None:
        self._alive &= ~(1 << p)
        self._nxt = self.game.next_table(self._alive)
        self._finished.append(p)
        self._log.append((len(self.history), L_OUT, p, len(self._finished), by))

    def _end(self) -> None:
        loser = self._alive.bit_length() - 1
        self._loser = loser
        self._cur = TERMINAL
        self._mask = 0
        self._anti = False
        self._log.append((len(self.history), L_LOSE, loser, 0, 0))

    # --- protocol ----------------------------------------------------------------------
    def current_player(self) -> int:
        return self._cur

    def is_terminal(self) -> bool:
        return self._cur < 0

    def legal_actions(self) -> list[int]:
        mask = self._mask
        cached = _LEGAL_CACHE.get(mask)
        if cached is not None:
            return list(cached)
        out = _kinds(mask)
        if len(_LEGAL_CACHE) < 100_000:
            _LEGAL_CACHE[mask] = tuple(out)
        return out

    def apply_action(self, action: int) -> Event:
        mask = self._mask
        try:
            ok = (mask >> action) & 1
        except (TypeError, ValueError):
            ok = 0
        if not ok:
            raise IllegalAction(self.why_illegal(action) or PROTOCOL_REFUSALS("not_legal", action=repr(action)))
        cur = self._cur
        pile = self._pile
        log = self._log
        packed = self._packed
        pres = self._pres
        sizes = self._sizes
        anti = self._anti
        self._undo.append((
            cur, packed[cur], pres[cur], sizes[cur], self._pos, len(pile), anti, self._anti_by,
            self._alive, self._turn, mask, len(log),
        ))
        history = self.history
        history.append(action)
        move = len(history)
        if action < NUM_KINDS:
            h = packed[cur] - _ONE[action]
            packed[cur] = h
            p = pres[cur]
            if not (h >> _SHIFT[action]) & 7:
                p &= _NOTBIT[action]
                pres[cur] = p
            size = sizes[cur] - 1
            sizes[cur] = size
            pile.append(action)
            log.append((move, L_PLAY, cur, action, anti))
            before = len(log)
            if size == 0:
                self._hand_emptied(cur)
            elif anti:
                self._enter(self._nxt[cur])
            else:
                # RG-4 inline: the same player continues against the new top card.
                if action == JOKER:
                    m = p
                else:
                    m = p & _ADJ[action] or p & _SAME[action] or p & _AK or p & _JKB
                self._mask = m or self._stuck(cur, action)
            if len(log) == before:
                return self.game._play_events[cur][action]
            note, details = self._consequences(before)
            return _new_event(Event, (cur, action, ACTION_NAMES[action], note,
                                      (self.game._play_events[cur][action].details[0], *details)))
        if action == DRAW:
            return self._draw(cur, move)
        log.append((move, L_PASS, cur, 0, 0))
        before = len(log)
        self._enter(self._nxt[cur])
        note, details = self._consequences(before)
        return _new_event(Event, (cur, action, "pass", note, (Passed(cur), *details)))

    def _draw(self, cur: int, move: int) -> Event:
        """Draw the top card of the stock (RG-5): it is played at once if it can be, else
        the turn passes on."""
        # The stock is not empty, so Anti-Rank is not on (RG-8 needs an empty stock).
        pile = self._pile
        log = self._log
        pres = self._pres
        pos = self._pos
        c = self._stock[pos]
        self._pos = pos + 1
        self._packed[cur] += _ONE[c]
        p = pres[cur] | _BIT[c]
        pres[cur] = p
        self._sizes[cur] += 1
        top = pile[-1]
        if p & _ANY[top]:
            log.append((move, L_DRAW, cur, c, 1))
            self._mask = _BIT[c] if top != JOKER else p
            return self.game._draw_events[cur][1]
        log.append((move, L_DRAW, cur, c, 0))
        q = self._nxt[cur]
        self._cur = q
        self._turn = (len(pile), move)
        p = pres[q]
        if top == JOKER:
            m = p
        else:
            m = p & _ADJ[top] or p & _SAME[top] or p & _AK or p & _JKB
        if m:
            self._mask = m
            return self.game._draw_events[cur][0]
        before = len(log)
        self._mask = self._stuck(q, top)
        note, details = self._consequences(before, "; ")
        return _new_event(Event, (cur, DRAW, "draw", _DRAW_STUCK + note, (self.game._drawn[cur][0], *details)))

    def _consequences(self, start: int, sep: str = "") -> tuple[str, tuple[EventDetail, ...]]:
        """The note and details of the log entries from ``start`` on (what a move caused)."""
        parts = []
        details: list[EventDetail] = []
        for entry in self._log[start:]:
            code, seat, a, b = entry[1], entry[2], entry[3], entry[4]
            if code == L_PULLBACK:
                parts.append(f"seat {a} can play, so seat {seat} draws {b} and is back in the game (RG-6)")
                details.append(PullBack(seat, a, b))
            elif code == L_OUT:
                why = "the stock is empty" if b < 0 else f"seat {b} cannot play"
                parts.append(f"{why}: seat {seat} is out, {_ordinal(a)} (RG-6)")
                details.append(PlayerOut(seat, a, None if b < 0 else b))
            elif code == L_ANTI:
                parts.append(f"nobody can play: seat {seat} declares Anti-Rank and plays any card (RG-8)")
                details.append(AntiRankDeclared(seat))
            elif code == L_ANTI_OVER:
                parts.append(f"seat {seat} can play: Anti-Rank is over (RG-8)")
                details.append(AntiRankOver(seat))
            elif code == L_LOSE:
                parts.append(f"seat {seat} stays in Rank and loses (RG-7)")
                details.append(MatchEnded(seat))
        return (sep if parts else "") + "; ".join(parts), tuple(details)

    def undo_action(self) -> None:
        if not self._undo:
            raise IllegalAction("nothing to undo")
        (cur, packed, pres, size, self._pos, npile, self._anti, self._anti_by, alive,
         self._turn, self._mask, nlog) = self._undo.pop()
        if alive != self._alive:
            self._alive = alive
            self._nxt = self.game.next_table(alive)
        nfin = self._n - alive.bit_count()
        self._cur = cur
        self._packed[cur] = packed
        self._pres[cur] = pres
        self._sizes[cur] = size
        del self._pile[npile:]
        del self._finished[nfin:]
        del self._log[nlog:]
        self._loser = -1
        self.history.pop()

    def clone(self) -> RankState:
        new = RankState.__new__(RankState)
        new.game = self.game
        new.seed = self.seed
        new.decks = self.decks
        new.history = list(self.history)
        new._n = self._n
        new._dealer = self._dealer
        new._stock = self._stock  # never mutated
        new._pos = self._pos
        new._pile = list(self._pile)
        new._packed = list(self._packed)
        new._pres = list(self._pres)
        new._sizes = list(self._sizes)
        new._alive = self._alive
        new._nxt = self._nxt
        new._finished = list(self._finished)
        new._cur = self._cur
        new._anti = self._anti
        new._anti_by = self._anti_by
        new._turn = self._turn
        new._mask = self._mask
        new._log = list(self._log)
        new._undo = list(self._undo)
        new._loser = self._loser
        new._known = self._known  # keyed by the log, which the clone shares
        return new

    # --- reasons -----------------------------------------------------------------------
    def why_illegal(self, action: int) -> Refusal | None:
        if not isinstance(action, int) or isinstance(action, bool) or not 0 <= action < NUM_ACTIONS:
            return REFUSALS("no_such_action", action=repr(action))
        if self._cur < 0:
            return REFUSALS("game_over", seat=self._loser)
        mask = self._mask
        if (mask >> action) & 1:
            return None
        plays = mask & ALL_KINDS
        if action < NUM_KINDS:
            return self._play_reason(action, plays)
        top = FRENCH_NAMES[self._pile[-1]]
        if self._anti:
            seat = self._cur
            declared_here = self._anti_by == seat and self._anti_move() >= self._turn[1]
            return REFUSALS("anti_rank_nobody" if declared_here else "anti_rank_you", top=top)
        can = [FRENCH_NAMES[k] for k in _kinds(plays)]
        if action == DRAW:
            return REFUSALS("draw_can_play", cards=can) if plays else REFUSALS("stock_empty")
        return REFUSALS("pass_can_play", cards=can) if plays else REFUSALS("pass_must_draw")

    def _play_reason(self, action: int, plays: int) -> Refusal:
        """Why the card kind ``action`` may not be played now (RG-4, RG-5)."""
        seat = self._cur
        top = self._pile[-1]
        name = FRENCH_NAMES[action]
        if not self._pres[seat] & _BIT[action]:
            return REFUSALS("not_held", card=name)
        # Held but not allowed: the turn is not in Anti-Rank (where any held card is legal).
        last = self._log[-1]
        if last[1] == L_DRAW and last[2] == seat and last[4] and len(self.history) == last[0]:
            return REFUSALS("play_drawn", card=FRENCH_NAMES[last[3]])
        r = top % 13
        ranks = {"top": FRENCH_NAMES[top], "rank": _rank_word(r),
                 "lower": RANK_NAMES[(r - 1) % 13], "higher": RANK_NAMES[(r + 1) % 13]}
        if not _ANY[top] & _BIT[action]:
            key = "does_not_fit" if plays else ("does_not_fit_draw" if self._mask & _DRAW_BIT else "does_not_fit_pass")
            return REFUSALS(key, card=name, **ranks)
        if plays & _ADJ[top]:
            return REFUSALS("play_neighbour_first", **ranks)
        if plays & _SAME[top]:
            return REFUSALS("play_same_rank_first", rank=ranks["rank"], top=ranks["top"])
        return REFUSALS("play_ace_king_first")

    def _anti_move(self) -> int:
        for entry in reversed(self._log):
            if entry[1] == L_ANTI:
                return entry[0]
        return -1

    # --- outcome -----------------------------------------------------------------------
    def returns(self) -> list[float]:
        out = [0.0] * self._n
        if self._cur < 0:
            out[self._loser] = -1.0
        return out

    def _scores(self) -> list[int]:
        return [int(x) for x in self.returns()]

    def result(self) -> dict[str, JSON]:
        """``returns``, ``scores`` (the same as ints), ``loser`` (RG-7), ``order`` (seats in the
        order they went out, the loser last), ``winner`` (the first seat out) and ``moves``."""
        done = self._cur < 0
        return {
            "returns": self.returns(),
            "scores": self._scores(),
            "loser": self._loser if done else None,
            "order": self._finished + [self._loser] if done else list(self._finished),
            "winner": self._finished[0] if done else None,
            "moves": len(self.history),
        }

    # --- information -------------------------------------------------------------------
    def view(self, player: int) -> dict[str, JSON]:
        """What ``player`` may know (RG-9).

        Keys beyond the protocol's: ``players``, ``packs`` (1 or 2 packs of 54), ``dealer``,
        ``moves`` (actions so far), ``hand`` (own cards, sorted, repeats kept), ``top``,
        ``pile`` (every card on the pile, bottom first: the turned-up card then every
        play), ``stock`` (cards left), ``hand_sizes``, ``in_game`` (seats still playing),
        ``finished`` (seats out, in order), ``turn`` (``seat``, ``plays`` = the chain of
        cards played so far this turn, ``drew`` = draws this turn), ``pull_back`` (the
        RG-6 decision taken when the current turn began, or null), ``anti_rank``
        (``active``, ``declared_by``), ``loser`` and ``log`` (the public log; a draw
        shows its card only in the drawer's own view); ``hand_size`` (cards dealt
        to each, RG-2) only when a custom deal changes it.
        """
        view = self._view(player)
        view["hand"] = self._hand_names(player)
        return view

    def public_view(self) -> dict[str, JSON]:
        """RG-9 public view: a seat's view without ``hand`` and without the cards
        of any draw (in ``log`` and ``pull_back``)."""
        return self._view(None)

    def _view(self, player: int | None) -> dict[str, JSON]:
        viewer = -1 if player is None else player
        done = self._cur < 0
        scores = self._scores()
        log = [_log_entry(e, viewer) for e in self._log]
        pull = None
        for e in reversed(self._log):
            if e[0] < self._turn[1]:
                break
            if not done and e[0] == self._turn[1] and (e[1] == L_PULLBACK or (e[1] == L_OUT and e[4] >= 0)):
                pull = _log_entry(e, viewer)
                break
        pile = self._pile
        view: dict[str, JSON] = {
            "game": self.game.name,
            "player": player,
            "current_player": self._cur,
            "round": 1,
            "scores": scores,
            "round_scores": [scores] if done else [],
            "players": self._n,
            "packs": self.game.packs,
            "dealer": self._dealer,
            "moves": len(self.history),
            "top": FRENCH_NAMES[pile[-1]],
            "pile": [FRENCH_NAMES[c] for c in pile],
            "stock": len(self._stock) - self._pos,
            "hand_sizes": list(self._sizes),
            "in_game": [s for s in range(self._n) if (self._alive >> s) & 1],
            "finished": list(self._finished),
            "turn": None if done else {
                "seat": self._cur,
                "plays": [FRENCH_NAMES[c] for c in pile[self._turn[0]:]],
                "drew": sum(1 for e in self._log if e[1] == L_DRAW and e[0] > self._turn[1]),
            },
            "pull_back": pull,
            "anti_rank": {"active": self._anti, "declared_by": self._anti_by if self._anti else None},
            "loser": self._loser if done else None,
            "log": log,
        }
        if self.game.hand_size != HAND_SIZE:
            view["hand_size"] = self.game.hand_size  # a custom deal (RG-2): for constraints_of_view
        return view

    def _hand_names(self, seat: int) -> list[str]:
        return [FRENCH_NAMES[c] for c in _sorted_cards(self._hand_list(seat))]

    def _hand_list(self, seat: int) -> list[int]:
        packed = self._packed[seat]
        out = []
        for k in _kinds(self._pres[seat]):
            out.extend([k] * ((packed >> _SHIFT[k]) & 7))
        return out

    def hand_constraints(self, player: int) -> HandConstraints:
        """What ``player``'s information proves about the other hands (see :func:`_derive`).

        A function of ``player``'s view only (the log without others' drawn cards,
        the player's hand, the seat to move, the stock size); cached per position.
        """
        log = self._log
        known = self._known
        if known is not None and known[0] == player and known[1] == len(log) and known[2] is log[-1]:
            return known[3]
        cons = _derive(log, self._n, player, self._pres[player], self._cur, self._anti,
                       len(self._stock) - self._pos, self._alive, self.game.hand_size)
        self._known = (player, len(log), log[-1], cons)
        return cons

    def resample(self, player: int, rng: random.Random) -> RankState:
        """Others' hands and the stock redrawn from the cards ``player`` has not seen,
        consistently with everything ``player`` has seen (:meth:`hand_constraints`).

        The unseen cards (the deck minus ``player``'s hand and the pile) are dealt by
        :func:`constrained_deal`; the rest, shuffled, is the stock.  The draws of other
        seats lose their card in the log.  If the seat to move is not ``player``, its
        moves are recomputed from its new hand (the constraints make them agree with
        the view: a pending playable draw, RG-8's "nobody can play" only where
        Anti-Rank was declared).  A pure function of ``player``'s view and ``rng``.
        """
        cons = self.hand_constraints(player)
        new = self.clone()
        new.seed = rng.getrandbits(63)
        new.decks = None
        new._undo = []
        new._known = None
        counts = list(self.game.pack)
        for c in self._pile:
            counts[c] -= 1
        packed = self._packed[player]
        for k in _kinds(self._pres[player]):
            counts[k] -= (packed >> _SHIFT[k]) & 7
        hands, stock = constrained_deal(cons, counts, rng)
        for s in range(self._n):
            if s == player:
                continue
            packed = pres = 0
            for c in hands[s]:
                packed += _ONE[c]
                pres |= _BIT[c]
            new._packed[s] = packed
            new._pres[s] = pres
        new._stock = stock
        new._pos = 0
        new._log = [e if e[1] != L_DRAW or e[2] == player else (e[0], L_DRAW, e[2], -1, e[4]) for e in self._log]
        cur = self._cur
        if cur >= 0 and cur != player:
            top = self._pile[-1]
            pres_cur = new._pres[cur]
            if self._anti:
                new._mask = pres_cur
            else:
                new._mask = _rg4(pres_cur, top) or new._stuck(cur, top, declare=False)
        return new

    def __str__(self) -> str:
        n = self._n
        lines = [
            f"Ранг players={n} packs={self.game.packs} seed={self.seed} dealer={self._dealer} "
            f"{'explicit deck' if self.decks else 'seeded'}",
            f"moves={len(self.history)} history={' '.join(str(a) for a in self.history)}",
        ]
        if self._cur < 0:
            lines.append(f"terminal: seat {self._loser} stays in Rank; out in order {self._finished}")
        else:
            lines.append(f"to move: seat {self._cur} (turn began at pile {self._turn[0]}, move {self._turn[1]}) "
                         f"anti-rank={'seat %d' % self._anti_by if self._anti else 'no'}")
        lines.append("pile: " + " ".join(FRENCH_NAMES[c] for c in self._pile))
        stock = self._stock[self._pos:]
        lines.append(f"stock ({len(stock)}, top first): " + " ".join(FRENCH_NAMES[c] for c in stock))
        for s in range(n):
            status = "in" if (self._alive >> s) & 1 else f"out {self._finished.index(s) + 1}"
            lines.append(f"seat {s} [{status}] ({self._sizes[s]}): " + " ".join(FRENCH_NAMES[c] for c in self._hand_list(s)))
        lines.append("log: " + " ".join(f"{e[0]}:{_LOG_WORDS[e[1]]}/{e[2]}/{e[3]}/{int(e[4])}" for e in self._log))
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<RankState players={self._n} seed={self.seed} moves={len(self.history)}>"

    # --- fast read-only accessors (search play-outs) -------------------------------------
    @property
    def legal_mask(self) -> int:
        """The legal actions of the seat to move as a bitmask: bit ``a`` set for action
        ``a`` (``legal_actions()`` without building a list; 0 once the game is over)."""
        return self._mask

    @property
    def anti_rank(self) -> bool:
        """Whether Anti-Rank is on (RG-8): every card may be played, one a turn."""
        return self._anti

    def hand_cards(self, seat: int) -> list[int]:
        """The card kinds ``seat`` holds, one entry per card, ascending (true state)."""
        return self._hand_list(seat)

    @property
    def stock_cards(self) -> list[int]:
        """The stock still to draw, top first (true state)."""
        return self._stock[self._pos:]

    @property
    def pile_cards(self) -> tuple[int, ...]:
        """The pile, bottom first: the top card is the last (RG-3)."""
        return tuple(self._pile)

    @property
    def seats_in(self) -> int:
        """The seats still in the game, as a bitmask (RG-6)."""
        return self._alive

    @property
    def out_order(self) -> tuple[int, ...]:
        """The seats that went out, in order (RG-6; the loser is not among them)."""
        return tuple(self._finished)


_PUBLIC_JSON: dict[tuple[int, ...], dict[str, JSON]] = {}
"""Public JSON of log entries, cached (entries recur across views); copied on output."""


def _log_entry(e: tuple[int, ...], viewer: int) -> dict[str, JSON]:
    """A log entry as the JSON ``viewer`` sees: a draw shows its card to the drawer only."""
    public = _PUBLIC_JSON.get(e)
    if public is None:
        move, code, seat, a, b = e
        public = {"move": move, "event": _LOG_WORDS[code], "seat": seat}
        if code in (L_START, L_PLAY):
            public["card"] = FRENCH_NAMES[a]
            if code == L_PLAY:
                public["anti_rank"] = bool(b)
        elif code == L_DRAW:
            public["played"] = bool(b)
        elif code == L_PULLBACK:
            public["by"] = a
            public["cards"] = b
        elif code == L_OUT:
            public["place"] = a
            public["by"] = b if b >= 0 else None
        if len(_PUBLIC_JSON) > 200_000:
            _PUBLIC_JSON.clear()
        _PUBLIC_JSON[e] = public
    out = dict(public)
    if e[1] == L_DRAW and e[2] == viewer and e[3] >= 0:
        out["card"] = FRENCH_NAMES[e[3]]
    return out


def _sorted_cards(cards: list[int]) -> list[int]:
    """Cards by rank (2 … A) then suit, jokers last."""
    return sorted(cards, key=lambda c: (c % 13 if c != JOKER else 13, c // 13 if c != JOKER else 0))

