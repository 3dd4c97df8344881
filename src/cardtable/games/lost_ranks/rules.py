"""Lost Ranks: a trick-taking rescue mission for 4 players (2 vs 2) or 2 ("Command of Two").

The rulings are ``src/cardtable/rules/lost-ranks.md`` (LR-1 … LR-20, LR-19a); every refusal
cites one.  Cards are :mod:`cardtable.cards` French cards (``suit * 13 + rank``, the
joker 52 is the **Spy**), written ``AS``, ``10H``, ``JK``.

Options (keyword-only)::

    LostRanks(players=4, force_strength=False, longer_game=False)

Armies and seats (LR-3, LR-19)
    Seats are 0..n-1 clockwise.  4 players: partners sit across (0+2, 1+3); which
    partnership is Red, and the first dealer, are drawn from the match seed
    (:meth:`LostRanks.draw_setup`).  2 players: each seat is an army.  Army 0 is Red,
    army 1 is Black.  The deal rotates clockwise every round.

Actions (a fixed table)
    ``0..52``   ``play C``     play card ``C`` from your (real) hand;
    ``53``      ``draw two``   2 players: play from your phantom deck — takes its top two
                               cards (one if only one is left, which is then played at once);
    ``54..106`` ``phantom C``  2 players: after ``draw two``, play drawn card ``C``; the
                               other drawn card goes face up to the bottom of the deck (LR-14).
    4 players use only ``0..52``.  :meth:`LostRanks.parse_action_name` also reads a bare
    card (``AS``) as ``play AS``.

Explicit decks (dealing order)
    A deck is a permutation of the 53 cards; ``d`` is the round's dealer.
    4 players: card ``i`` (``i < 52``) goes to seat ``(d + 1 + i) % 4``; card 52 is the
    Trump Card.  2 players: cards ``0..33`` alternate into the real hands, card ``i`` to
    seat ``(d + 1 + i) % 2``; cards ``34..42`` are the phantom deck of seat ``(d + 1) % 2``
    and ``43..51`` that of the dealer, each top card first; card 52 is the Trump Card.
    (With the ``phantom_size`` knob ``p``: the real hands are cards ``0..51-2p``, then the
    two phantom decks of ``p`` cards.)
    :func:`make_deck` builds such a deck from hands.  A deck whose Trump Card is a Lost
    Soldier is refused (LR-4); a shuffled round is reshuffled with the same
    ``round_rng`` until its Trump Card is not one.

Scores
    ``scores`` (views, ``result()``) are per **seat**: each seat shows its army's running
    total; ``army_scores`` gives ``{"red": …, "black": …}``.  ``round_scores`` lists, per
    round, each seat's army's points.  ``returns()``: +1 for each member of the winning
    army, −1 for the losers, 0 for all in a draw.  ``result()`` adds ``army_scores``,
    ``winner`` (``"red"``, ``"black"`` or ``None``), ``winning_seats``, ``draw``,
    ``rounds`` (played), ``tiebreak_rounds`` and the per-round army points.

Views (LR-20)
    Besides the protocol keys: ``hand`` (own real hand), ``hand_sizes``, ``armies``,
    ``army``, ``partner``, ``dealer``, ``trump_card``, ``trump_suit``, ``trump_colour``,
    ``active_soldiers``, ``first_lead`` (the card LR-6 forces, until it is led; 2 players:
    shown only to the seat that must lead it, see :meth:`LostRanksState.first_lead_shown_to`), ``phase``
    (``lead``/``follow``/``choose``/``over``), ``trick`` (seat, card, source), ``leader``,
    ``led_suit``, ``lead_source``, ``trick_number``, ``last_trick``, ``tricks_won``,
    ``captured`` (per army), ``discards``, ``round_points`` (this round so far),
    ``voids`` (suits each seat has shown it lacks — a discard, the Spy, or a Jack played
    to the led suit; Jack protection hides nothing else), ``log`` (the round's plays and
    trick winners) and ``winner``.  2 players: ``phantoms`` (per seat, top first; the
    owner sees every card, others only the face-up ones, ``None`` for the rest),
    ``phantom_face_up``, ``phantom_sizes`` and ``drawn`` (during a draw-two: the drawer
    and its cards, hidden from the opponent unless they were face up).  The public view
    (:meth:`LostRanksState.public_view`) has no ``hand``, ``army`` or ``partner``.

Resampling
    :meth:`LostRanksState.resample` deals every card the seat has not seen with
    :func:`constrained_deal` (exact counting, uniform over consistent deals): hand sizes,
    revealed voids, the LR-6 first-lead deductions and the opponent's phantom (size,
    face-up cards kept in place, hidden cards in a random order) are respected.  Before
    the first lead of a 2-player round, the leader's opponent knows only that the
    leader leads: the deal is drawn from every LR-6 case that makes it so, weighted by
    its number of deals (:func:`count_deals`).

A short session::

    >>> game = LostRanks(players=2)
    >>> state = game.new_state(seed=7)
    >>> view = state.view(0)
    >>> view["hand_sizes"], view["phantom_sizes"], view["army"]
    ([17, 17], [9, 9], 'red')
    >>> state.current_player(), state.legal_action_strings()  # LR-6: A♥ leads
    (0, ['play AH'])
    >>> event = state.apply_action(state.parse_action("play AH"))
    >>> state.legal_action_strings()  # LR-13: the follower answers from the phantom deck
    ['draw two']
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import repeat, starmap
from math import floor
from operator import itemgetter, mul
from typing import Any, ClassVar, Final

from cardtable.cards import (
    ACE,
    DIAMONDS,
    FRENCH_NAMES,
    HEARTS,
    JACK,
    JOKER,
    SUIT_WORDS,
    french_name,
    parse_french,
    pretty_french,
)
from cardtable.cards import bit_list as _mask_to_list
from cardtable.description import Text, describe
from cardtable.protocol import (
    JSON, PROTOCOL_REFUSALS, TERMINAL, Event, EventDetail, Game, IllegalAction, Refusal, RefusalTable, State,
    round_rng,
)

# ---------------------------------------------------------------------------
# Tables

SPY: Final = JOKER
NUM_CARDS: Final = 53
RED: Final = 0
BLACK: Final = 1
ARMY_NAMES: Final = ("red", "black")
SUIT_COLOUR: Final = (BLACK, RED, RED, BLACK)
"""Army colour of each suit (clubs, diamonds, hearts, spades)."""
HAND: Final = 0
PHANTOM: Final = 1
SOURCE_NAMES: Final = ("hand", "phantom")

DRAW: Final = 53
"""The ``draw two`` action (2 players)."""
DRAW_BIT: Final = 1 << DRAW
PHANTOM_BASE: Final = 54
"""``PHANTOM_BASE + c`` plays drawn card ``c`` (2 players)."""

ACE_HEARTS: Final = HEARTS * 13 + ACE
ACE_DIAMONDS: Final = DIAMONDS * 13 + ACE
JACKS: Final = tuple(s * 13 + JACK for s in range(4))
SPY_BIT: Final = 1 << SPY
JACK_BITS: Final = tuple(1 << j for j in JACKS)
SOLDIERS: Final = sum(JACK_BITS) | SPY_BIT
"""Mask of the Lost Soldiers: the four Jacks and the Spy (LR-2)."""
SUIT_MASKS: Final = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
ALL_CARDS: Final = (1 << NUM_CARDS) - 1
COLOUR_JACKS: Final = (JACK_BITS[1] | JACK_BITS[2], JACK_BITS[0] | JACK_BITS[3])
"""Jacks of the Red army (hearts, diamonds) and of the Black army (spades, clubs)."""
VOID_MASKS: Final = tuple(
    sum(SUIT_MASKS[s] for s in range(4) if v >> s & 1) for v in range(16)
)
"""Cards excluded by a 4-bit set of void suits."""

CARD_SUIT: Final = tuple([c // 13 for c in range(52)] + [-1])
CARD_RANK: Final = tuple([c % 13 for c in range(52)] + [-1])

REFUSALS: Final = RefusalTable("lost-ranks", {
    "no_such_action": (None, "{action} is not a move of Lost Ranks (action ids are 0..{last})"),
    "match_over": (None, "the match is over: no more moves"),
    "play_drawn": ("LR-14", "you drew {drawn} from your phantom deck: play one of them with 'phantom …'"),
    "not_drawn": ("LR-14", "{card} is not one of the cards you drew ({drawn})"),
    "spy_phantom_lead": ("LR-14", "the Spy cannot lead from the phantom deck unless it is the last phantom card"),
    "drawn_jack_protected": ("LR-14", "Jack protection: play {other}, not {card}, of the two drawn {suit}"),
    "drawn_follows": ("LR-14", "a drawn card follows {suit}: you must play it"),
    "phantom_not_drawn": ("LR-14", "'phantom …' chooses one of the two cards taken by 'draw two': you have not drawn"),
    "first_lead_forced_hand": ("LR-6", "the first lead of the round must be {card} from your hand"),
    "phantom_empty": ("LR-13", "your phantom deck is empty"),
    "answer_from_hand": ("LR-13", "you must play from your hand: your opponent led from the phantom deck"),
    "answer_from_phantom": ("LR-13", "you must play from your phantom deck ('draw two'): "
                                     "your opponent led from the hand"),
    "not_held": (None, "you do not hold {card}"),
    "not_in_hand": (None, "you do not hold {card} in your hand"),
    "first_lead_forced": ("LR-6", "the first lead of the round must be {card}"),
    "spy_leads_last": ("LR-8", "the Spy may lead only as your very last card"),
    "spy_leads_last_of_source": ("LR-8", "the Spy may lead only as your very last card of the source it is played from"),
    "spy_must_follow": ("LR-7", "the Spy may not be played while you hold a card of the led suit, {suit}"),
    "must_follow": ("LR-7", "you must follow {suit}"),
    "jack_protected": ("LR-7", "Jack protection: you hold another card of {suit}, so {card} stays protected"),
})
"""Every reason a Lost Ranks move is refused: key → (ruling, English template)."""


# ---------------------------------------------------------------------------
# Hot-path tables.  Random play-outs spend their time in ``apply_action`` and
# ``legal_actions``; operations on 53-bit masks and new objects dominate their cost
# there, so these lookups replace them where they can.

_BITS: Final = tuple(1 << c for c in range(NUM_CARDS))
_ACTIONS: Final = PHANTOM_BASE + NUM_CARDS
_ACTION_BITS: Final = tuple(1 << a for a in range(_ACTIONS))
_NOT_SPY: Final = ALL_CARDS & ~SPY_BIT
_FIRST_PHANTOM: Final = 1 << PHANTOM_BASE
_SHIFTS: Final = (0, 13, 26, 39)
"""Bit offset of each suit in a card mask."""
_OUTSIDE: Final = tuple(((1 << PHANTOM_BASE) - 1) & ~SUIT_MASKS[s] for s in range(4))
"""Actions below the phantom plays that are not cards of suit ``s``."""
_FOLLOWERS: Final = tuple(
    tuple(c < 52 and c // 13 == s and c % 13 != JACK for c in range(NUM_CARDS)) for s in range(4)
)
"""``_FOLLOWERS[s][card]``: the card follows suit ``s`` without showing a void (not its Jack, LR-7)."""
_PROTECT: Final = tuple(r ^ 1 << JACK if r >> JACK & 1 and r != 1 << JACK else r for r in range(8192))
"""A hand's 13-bit ranks of the led suit -> the ranks it may play (Jack protection, LR-7)."""


def _trick_key(card: int, trump: int, led: int) -> int:
    """Strength of a card in a trick (LR-10): trumps above the led suit; -1 cannot win."""
    if (1 << card) & SOLDIERS:
        return -1
    if CARD_SUIT[card] == trump:
        return 100 + CARD_RANK[card]
    if CARD_SUIT[card] == led:
        return CARD_RANK[card]
    return -1


_TRICK_KEYS: Final = tuple(
    tuple(tuple(_trick_key(c, trump, led) for c in range(NUM_CARDS)) for led in (0, 1, 2, 3, -1)) for trump in range(4)
)
"""``_TRICK_KEYS[trump][led][card]``; ``led`` -1 (not set yet) is the last row."""
TRICK_KEY_TABLE: Final = _TRICK_KEYS
""":data:`_TRICK_KEYS` for the compiled kernel, which embeds the engine's own table (LR-10)."""

_ENTRIES: Final = tuple(
    tuple((p, c, HAND) for c in range(NUM_CARDS)) + ((p, -1, -1),) + tuple((p, c, PHANTOM) for c in range(NUM_CARDS))
    for p in range(4)
)
"""Trick entries ``(seat, card, source)`` by ``[seat][action]`` (``draw two`` has none)."""
_WIN_ENTRIES: Final = tuple((-1, w) for w in range(-1, 4))
"""Log entries of trick winners, ``_WIN_ENTRIES[winner + 1]`` (-1: discarded)."""
_PUB: Final = ((True, True), (False, True), (False, False))
"""Face-up flags of two drawn cards when ``min(down, 2)`` phantom cards were face down."""

_new_tuple = tuple.__new__
_FACE_UP: Final = tuple(f"{name} goes face up" for name in FRENCH_NAMES)
_WIN_NOTES: Final = ("no winner: the trick is discarded (LR-11)",) + tuple(f"seat {w} wins the trick" for w in range(4))
"""Event notes of finished tricks, ``_WIN_NOTES[winner + 1]``."""
_FACE_UP_WIN: Final = tuple(tuple(f"{up}; {note}" for note in _WIN_NOTES[:3]) for up in _FACE_UP)
"""Notes of a drawn card finishing a trick (2 players): ``[other card][winner + 1]``."""

# ---------------------------------------------------------------------------
# Event details (what each applied action did, as data; every one is public, LR-20)


@dataclass(frozen=True, slots=True)
class CardPlayed(EventDetail):
    """``seat`` played ``card`` to the trick from its hand (``source="hand"``) or its
    phantom deck (``"phantom"``: a drawn card, or the last phantom card, LR-14)."""

    kind: ClassVar[str] = "card_played"
    seat: int
    card: str
    source: str


@dataclass(frozen=True, slots=True)
class PhantomDrawn(EventDetail):
    """``seat`` took the top ``count`` cards of its phantom deck to choose one (LR-14);
    which cards only the drawer sees unless they were face up (its view's ``drawn``)."""

    kind: ClassVar[str] = "phantom_drawn"
    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class CardFaceUp(EventDetail):
    """The drawn card ``seat`` did not play, ``card``, goes face up to the bottom of its
    phantom deck (LR-14)."""

    kind: ClassVar[str] = "card_face_up"
    seat: int
    card: str


@dataclass(frozen=True, slots=True)
class TrickWon(EventDetail):
    """``seat`` wins the trick for its army (LR-10).  Its cards are the trick's
    ``card_played`` details (the last 2 or 4 of the round), and the view's ``last_trick``."""

    kind: ClassVar[str] = "trick_won"
    seat: int


@dataclass(frozen=True, slots=True)
class NoWinnerTrick(EventDetail):
    """Nobody wins the trick: it is discarded (LR-11)."""

    kind: ClassVar[str] = "no_winner_trick"


@dataclass(frozen=True, slots=True)
class RoundEnded(EventDetail):
    """Round ``round`` (1-based) is over: ``points`` and match ``totals`` as
    ``(red, black)`` (LR-15, LR-16)."""

    kind: ClassVar[str] = "round_ended"
    round: int
    points: tuple[int, int]
    totals: tuple[int, int]


@dataclass(frozen=True, slots=True)
class RoundStarted(EventDetail):
    """Round ``round`` (1-based) is dealt by ``dealer`` (the deal rotates clockwise)."""

    kind: ClassVar[str] = "round_started"
    round: int
    dealer: int


@dataclass(frozen=True, slots=True)
class MatchEnded(EventDetail):
    """The match is over (LR-17 … LR-19a): ``winner`` ``"red"``, ``"black"`` or ``None``
    for a draw; ``totals`` as ``(red, black)``."""

    kind: ClassVar[str] = "match_ended"
    winner: str | None
    totals: tuple[int, int]


_EventTables = tuple[
    tuple[tuple[Event, ...], ...], tuple[tuple[tuple[Event, ...], ...], ...],
    tuple[tuple[EventDetail, ...], ...], tuple[tuple[CardFaceUp, ...], ...], tuple[EventDetail, ...],
]
_EVENT_TABLES: dict[int, _EventTables] = {}
"""Per number of players (events and details are immutable, so shared): the plain events
``[seat][action]``; the events of hand plays finishing a trick ``[seat][card][winner + 1]``;
the first detail of each action ``[seat][action]`` (the card played; ``draw two``: the
draw); the face-up details ``[seat][card]``; the trick results ``[winner + 1]``."""


def _event_tables(n: int, names: Sequence[str]) -> _EventTables:
    got = _EVENT_TABLES.get(n)
    if got is None:
        played = tuple(tuple(_action_detail(p, a) for a in range(len(names))) for p in range(n))
        plain = tuple(tuple(Event(p, a, names[a], "", (played[p][a],)) for a in range(len(names))) for p in range(n))
        results: tuple[EventDetail, ...] = (NoWinnerTrick(), *(TrickWon(w) for w in range(n)))
        done = tuple(
            tuple(tuple(Event(p, c, names[c], _WIN_NOTES[w + 1], (played[p][c], results[w + 1])) for w in range(-1, n))
                  for c in range(NUM_CARDS))
            for p in range(n)
        )
        face_up = tuple(tuple(CardFaceUp(p, FRENCH_NAMES[c]) for c in range(NUM_CARDS)) for p in range(n))
        got = _EVENT_TABLES[n] = (plain, done, played, face_up, results)
    return got


def _action_detail(p: int, a: int) -> EventDetail:
    if a < NUM_CARDS:
        return CardPlayed(p, FRENCH_NAMES[a], "hand")
    if a == DRAW:
        return PhantomDrawn(p, 2)
    return CardPlayed(p, FRENCH_NAMES[a - PHANTOM_BASE], "phantom")


# Legal-action lists.  A state keeps its legal actions as a mask (``_lm``, which
# validates an action with one AND) and, when apply_action has one at hand, as a sorted
# tuple (``_la``); legal_actions copies the tuple or builds the list from the mask.


def _subsets(first: int, width: int) -> tuple[tuple[int, ...], ...]:
    """``[bits]``: the ids ``first + i`` of the set bits ``i`` of ``bits < 2 ** width``, sorted."""
    table: list[tuple[int, ...]] = [()]
    for i in range(width):
        one = (first + i,)
        table += [ids + one for ids in table]
    return tuple(table)


_B0, _B1, _B2, _B3, _B4, _B5, _B6 = (_subsets(8 * k, 8) for k in range(7))
"""The action ids of each byte of a mask below ``2 ** 56`` (``int.to_bytes``, low byte first)."""
_SUIT_CARDS: list[tuple[tuple[int, ...], ...]] = []
"""``_SUIT_CARDS[s][ranks]``: the cards of suit ``s`` whose ranks are the set bits of the
13-bit ``ranks`` (32,768 small tuples, built when the first state is)."""
_DRAW_ONLY: Final = (DRAW,)
_PLAY_DRAWN: Final = tuple((PHANTOM_BASE + c,) for c in range(NUM_CARDS))
_ONE: Final = tuple((c,) for c in range(NUM_CARDS))


def _build_suit_cards() -> None:
    if not _SUIT_CARDS:
        _SUIT_CARDS[:] = [_subsets(13 * s, 13) for s in range(4)]


def _action_list(m: int, led: int) -> list[int]:
    """The sorted action ids of the legal mask ``m`` (``led``: the led suit, -1 if none)."""
    if m >= _FIRST_PHANTOM:
        return [PHANTOM_BASE + c for c in _mask_to_list(m >> PHANTOM_BASE)]
    if led >= 0 and not m & _OUTSIDE[led]:
        return list(_SUIT_CARDS[led][m >> _SHIFTS[led]])
    b0, b1, b2, b3, b4, b5, b6 = m.to_bytes(7, "little")
    return [*_B0[b0], *_B1[b1], *_B2[b2], *_B3[b3], *_B4[b4], *_B5[b5], *_B6[b6]]


# Undo records: a tuple whose first item is one of these tags.  The common plays
# record only what cannot be derived from the state after them.
_U_PLAY: Final = 0
"""A card played to a trick it does not finish: ``(tag,)``."""
_U_VOID: Final = 1
"""The same, showing a void: ``(tag, the seat's previous voids)``."""
_U_TRICK: Final = 2
"""A hand card finishing a trick: ``(tag, previous last trick, previous voids or -1)``."""
_U_DRAW: Final = 3
"""``draw two`` of two or more phantom cards: ``(tag,)``."""
_U_PHANTOM: Final = 4
"""A drawn card leading: ``(tag, drawn cards, their face-up flags)``."""
_U_PHANTOM_TRICK: Final = 5
"""A drawn card finishing a trick: ``(tag, drawn cards, face-up flags, previous last trick)``."""
_U_LIGHT: Final = 6
"""Any other play inside a round (``_light_snapshot``)."""
_U_FULL: Final = 7
"""A play that ends the round: the whole state (``_snapshot``)."""
_R_PLAY: Final = (_U_PLAY,)
_R_DRAW: Final = (_U_DRAW,)

_POSITIONS: Final = tuple(range(NUM_CARDS - 1, 0, -1))
_SPANS: Final = tuple(float(i + 1) for i in _POSITIONS)
"""``i + 1`` as floats: ``floor(r * (i + 1.0))`` is ``int(r * (i + 1))`` for ``0 <= r < 1``."""


def _shuffled_deck(rng: random.Random) -> list[int]:
    """A shuffled deck whose last card (the Trump Card) is not a Lost Soldier (LR-4).

    Fisher-Yates driven by ``rng.random()``; reshuffled with the same ``rng`` until the
    Trump Card is playable.
    """
    deck = list(range(NUM_CARDS))
    rand = rng.random
    while True:
        # Position i swaps with int(rand() * (i + 1)), i = 52 … 1 (the draws made first, in C).
        for i, j in zip(_POSITIONS, map(floor, map(mul, starmap(rand, repeat((), 52)), _SPANS))):
            deck[i], deck[j] = deck[j], deck[i]
        if not (1 << deck[52]) & SOLDIERS:
            return deck


def _names(mask: int) -> list[str]:
    return [FRENCH_NAMES[c] for c in _mask_to_list(mask)]


def pretty(card: int) -> str:
    """``10♥``-style display name (the Spy is ``Spy``)."""
    return "Spy" if card == SPY else pretty_french(card)


def make_deck(
    hands: Sequence[Iterable[int]],
    trump: int,
    *,
    dealer: int,
    phantoms: Sequence[Sequence[int]] | None = None,
) -> list[int]:
    """The explicit deck (dealing order) that gives ``hands[seat]`` to each seat.

    4 players: ``hands`` are four 13-card hands.  2 players: two 17-card real hands and
    ``phantoms[seat]`` the 9-card phantom decks, top card first (other sizes with the
    ``phantom_size`` knob).  ``dealer`` is the round's dealer (for the first round,
    :meth:`LostRanks.draw_setup`).
    """
    n = len(hands)
    lists = [sorted(h) for h in hands]
    deck: list[int] = []
    per = len(lists[0])
    for i in range(per * n):
        deck.append(lists[(dealer + 1 + i) % n][i // n])
    if n == 2:
        if phantoms is None:
            raise ValueError("2 players need phantoms")
        deck += list(phantoms[(dealer + 1) % 2]) + list(phantoms[dealer])
    deck.append(trump)
    return deck


TARGET: Final = 10
"""LR-17: the 4-player target (the longer game: 15)."""
ROUND_CAP: Final = 7
"""LR-17: 4 players, after this round the higher total wins (the longer game: no cap)."""
TWO_PLAYER_ROUNDS: Final = 4
"""LR-18: rounds of a 2-player match (the longer game: 7)."""
JACK_POINTS: Final = 2
SPY_POINTS: Final = 2
"""LR-15: points of a rescued active Jack and of the Spy."""
FORCE_BONUS: Final = 1
"""LR-16: the Force Strength point."""
PHANTOM_SIZE: Final = 9
"""LR-4: cards in each phantom deck with 2 players (the real hand holds the other 17 of 26)."""


@dataclass(frozen=True, kw_only=True)
class LostRanksConfig:
    """Options of Lost Ranks."""

    players: int = 4
    """4 (two armies of two partners) or 2 (Command of Two, LR-12)."""
    force_strength: bool = False
    """LR-16: +1 to the army that captured more non-Lost cards in a round."""
    longer_game: bool = False
    """LR-17/18: target 15 with no round cap (4 players), 7 fixed rounds (2 players)."""
    target: int = TARGET
    """A designer's knob: the points that end a 4-player match (LR-17: 10)."""
    round_cap: int = ROUND_CAP
    """A designer's knob: 4 players, the rounds after which the higher total wins (LR-17: 7; 0: none)."""
    two_player_rounds: int = TWO_PLAYER_ROUNDS
    """A designer's knob: the rounds 2 players play (LR-18: 4)."""
    jack_points: int = JACK_POINTS
    """A designer's knob: an active Jack rescued by its own army (LR-15: 2)."""
    spy_points: int = SPY_POINTS
    """A designer's knob: the Spy, to whoever captures it (LR-15: 2)."""
    phantom_size: int = PHANTOM_SIZE
    """A designer's knob: 2 players, the cards of each phantom deck; the real hand gets the
    rest of each player's 26 (LR-4: 9 and 17)."""
    force_bonus: int = FORCE_BONUS
    """A designer's knob: the Force Strength point (LR-16: 1)."""


def _config_refusal(config: LostRanksConfig) -> str | None:
    """Why the knobs of ``config`` do not go together (each one is in range), or ``None``."""
    four = config.players == 4
    knobs = (("target", TARGET, four, "applies to 4 players only (LR-17)"),
             ("round_cap", ROUND_CAP, four, "applies to 4 players only (LR-17)"),
             ("two_player_rounds", TWO_PLAYER_ROUNDS, not four, "applies to 2 players only (LR-18)"),
             ("phantom_size", PHANTOM_SIZE, not four, "applies to 2 players only (LR-4, LR-12)"),
             ("force_bonus", FORCE_BONUS, config.force_strength, "counts only with force_strength on (LR-16)"))
    for name, default, applies, why in knobs:
        if getattr(config, name) != default and not applies:
            return f"{name} {why}: leave it at {default}, not {getattr(config, name)}"
    lengths = [name for name, default, _, _ in knobs[:3] if getattr(config, name) != default]
    if config.longer_game and lengths:
        return (f"longer_game sets the target to 15 with no round cap (LR-17) and 2 players to 7 rounds (LR-18): "
                f"turn it off to set {', '.join(lengths)} yourself")
    return None


def _max_rounds(config: LostRanksConfig) -> int | None:
    """4 players: the round cap (7, none in a longer game, LR-17); 2 players: the fixed rounds (LR-18)."""
    if config.players == 4:
        return None if config.longer_game or not config.round_cap else config.round_cap
    return 7 if config.longer_game else config.two_player_rounds


def _max_game_length(config: LostRanksConfig) -> int:
    rounds = (_max_rounds(config) or 50) + 11  # LR-17/18/19a: tiebreaks stop after 10
    per_round = 52 if config.players == 4 else 26 * 2 * 2  # draw-two + choose
    return rounds * per_round


def _armies(config: LostRanksConfig, num_players: int) -> list[list[int]]:
    """The two armies with 4 players (LR-3: partners sit across); alone with 2."""
    return [[0, 2], [1, 3]] if num_players == 4 else [[0], [1]]


INFO: Final = describe(
    LostRanksConfig,
    name="lost-ranks",
    title=Text("Lost Ranks", "Пропавшие солдаты (Lost Ranks)"),
    summary=Text("Trick-taking rescue mission: 2 vs 2, or a duel with phantom decks.",
                 "Взятки ради спасения солдат: 2 на 2 или дуэль с фантомными колодами."),
    min_players=2,
    max_players=4,
    players_option="players",
    max_game_length=_max_game_length,
    teams=_armies,
    options={
        "players": dict(
            choices=(4, 2), rule="LR-3", flags=("-p",),
            label=Text("Players", "Игроки"),
            choice_labels={4: Text("4 players (2 vs 2)", "4 игрока (2 на 2)"),
                           2: Text("2 players (Command of Two)", "2 игрока (командование двоих)")},
            help=Text("4: two armies of partners sitting across (LR-3); 2: each player also has a phantom deck (LR-12).",
                      "4: две армии, партнёры сидят друг напротив друга (LR-3); 2: у каждого ещё и фантомная колода (LR-12)."),
        ),
        "force_strength": dict(
            label=Text("Force Strength", "Сила войска"),
            help=Text("Each round, +1 point to the army that captured more cards that are not Lost Soldiers (LR-16).",
                      "В каждом раунде +1 очко армии, взявшей больше карт, не являющихся пропавшими солдатами (LR-16)."),
        ),
        "longer_game": dict(
            flags=("--longer",),
            label=Text("Longer game", "Длинная партия"),
            help=Text("4 players: play to 15 points with no round limit (LR-17); 2 players: 7 rounds instead of 4 (LR-18).",
                      "4 игрока: до 15 очков без ограничения раундов (LR-17); 2 игрока: 7 раундов вместо 4 (LR-18)."),
        ),
        "target": dict(
            minimum=1, maximum=100, rule="LR-17", group="custom",
            label=Text("Target", "Цель"),
            help=Text("4 players: the points that win the match; the published rules say 10 (LR-17).",
                      "4 игрока: очки, приносящие победу в партии; по правилам 10 (LR-17)."),
        ),
        "round_cap": dict(
            minimum=0, maximum=50, rule="LR-17", group="custom",
            label=Text("Round cap", "Предел раундов"),
            help=Text("4 players: after this round the higher total wins, 0 for no cap (the 50-round safeguard "
                      "of LR-19a stays); the published rules say 7 (LR-17).",
                      "4 игрока: после этого раунда побеждает больший счёт, 0 — без предела (страховка в 50 раундов "
                      "по LR-19a остаётся); по правилам 7 (LR-17)."),
        ),
        "two_player_rounds": dict(
            minimum=1, maximum=20, rule="LR-18", group="custom",
            label=Text("Rounds (2 players)", "Раунды (2 игрока)"),
            help=Text("2 players: the rounds played before the higher total wins; the published rules say 4 (LR-18).",
                      "2 игрока: сколько раундов играется до сравнения счёта; по правилам 4 (LR-18)."),
        ),
        "jack_points": dict(
            minimum=0, maximum=20, rule="LR-15", group="custom",
            label=Text("Points for an active Jack", "Очки за активного валета"),
            help=Text("Points for each active Jack its own army captures; the published rules say 2 (LR-15).",
                      "Очки за каждого активного валета, взятого своей армией; по правилам 2 (LR-15)."),
        ),
        "spy_points": dict(
            minimum=0, maximum=20, rule="LR-15", group="custom",
            label=Text("Points for the Spy", "Очки за шпиона"),
            help=Text("Points for the Spy, to whichever army captures it; the published rules say 2 (LR-15).",
                      "Очки за шпиона — армии, которая его взяла; по правилам 2 (LR-15)."),
        ),
        "phantom_size": dict(
            minimum=1, maximum=25, rule="LR-4", group="custom",
            label=Text("Phantom deck", "Фантомная колода"),
            help=Text("2 players: the cards of each phantom deck; the real hand gets the rest of the 26 "
                      "(a round stays 26 tricks, LR-13); the published rules say 9 (LR-4).",
                      "2 игрока: карт в каждой фантомной колоде; на руку идут остальные из 26 "
                      "(в раунде по-прежнему 26 взяток, LR-13); по правилам 9 (LR-4)."),
        ),
        "force_bonus": dict(
            minimum=0, maximum=20, rule="LR-16", group="custom",
            label=Text("Force Strength bonus", "Бонус силы войска"),
            help=Text("With Force Strength on: the points for capturing more cards that are not Lost Soldiers; "
                      "the published rules say 1 (LR-16).",
                      "С силой войска: очки за большее число взятых карт, не являющихся пропавшими солдатами; "
                      "по правилам 1 (LR-16)."),
        ),
    },
)
"""The description of Lost Ranks: its options, players, armies and match length."""


class LostRanks(Game):
    """The Lost Ranks rule set."""

    info = INFO
    name = INFO.name
    title = INFO.title.en
    refusals = REFUSALS

    def __init__(self, *, players: int = 4, force_strength: bool = False, longer_game: bool = False,
                 target: int = TARGET, round_cap: int = ROUND_CAP, two_player_rounds: int = TWO_PLAYER_ROUNDS,
                 jack_points: int = JACK_POINTS, spy_points: int = SPY_POINTS, force_bonus: int = FORCE_BONUS,
                 phantom_size: int = PHANTOM_SIZE) -> None:
        self.config = LostRanksConfig(
            players=players, force_strength=force_strength, longer_game=longer_game, target=target,
            round_cap=round_cap, two_player_rounds=two_player_rounds, jack_points=jack_points,
            spy_points=spy_points, force_bonus=force_bonus, phantom_size=phantom_size)
        INFO.check(dataclasses.asdict(self.config))
        why = _config_refusal(self.config)
        if why is not None:
            raise ValueError(why)
        self.num_players = players
        self.num_distinct_actions = NUM_CARDS if players == 4 else PHANTOM_BASE + NUM_CARDS
        self.num_card_kinds = NUM_CARDS
        self.target: int | None = (15 if longer_game else target) if players == 4 else None
        """Points that end a 4-player match (LR-17); ``None`` for 2 players."""
        self.jack_points, self.spy_points = jack_points, spy_points
        """Points of a rescued active Jack and of the Spy (LR-15)."""
        self.force_bonus = force_bonus if force_strength else 0
        """The Force Strength point (LR-16); 0 with the option off."""
        self.phantom_size = 0 if players == 4 else phantom_size
        """Cards in each phantom deck (LR-4; 0 with 4 players)."""
        self.hand_size = 13 if players == 4 else 26 - phantom_size
        """Cards dealt to each real hand (LR-4)."""
        self.max_rounds: int | None = _max_rounds(self.config)
        """4 players: the round cap (7, none in a longer game); 2 players: the fixed rounds."""
        self.tricks_per_round = 13 if players == 4 else 26
        self._action_names: tuple[str, ...] = tuple(
            ["play " + FRENCH_NAMES[c] for c in range(NUM_CARDS)]
            + ([] if players == 4 else ["draw two"] + ["phantom " + FRENCH_NAMES[c] for c in range(NUM_CARDS)])
        )

    def new_state(self, *, seed: int = 0, decks: Sequence[Sequence[int]] | None = None) -> LostRanksState:
        checked = None if decks is None else [self._check_deck(i, d) for i, d in enumerate(decks)]
        return LostRanksState(self, seed, checked)

    def _check_deck(self, index: int, deck: Sequence[int]) -> list[int]:
        cards = list(deck)
        if len(cards) != NUM_CARDS or sorted(cards) != list(range(NUM_CARDS)):
            raise ValueError(
                f"deck {index} must be a permutation of the 53 cards (52 + the Spy, LR-1); "
                f"got {len(cards)} cards"
            )
        if (1 << cards[-1]) & SOLDIERS:
            raise ValueError(
                f"deck {index}: its Trump Card (the last card) is {french_name(cards[-1])}, a Lost Soldier; "
                "the Trump Card may not be a Jack or the Spy (LR-4)"
            )
        return cards

    @staticmethod
    def draw_setup(seed: int) -> tuple[int, int]:
        """``(first dealer, red)`` drawn from the match seed (LR-3, LR-19): ``red`` is the seat
        parity of the Red army (4 players: 0 → seats 0 and 2; 2 players: the Red seat)."""
        rng = random.Random(f"cardtable:{seed}:lost-ranks-setup")
        red = rng.randrange(2)
        dealer = rng.randrange(4)
        return dealer, red

    def action_name(self, action: int) -> str:
        return self._action_names[action]

    def card_name(self, card: int) -> str:
        return french_name(card)

    def parse_card(self, text: str) -> int:
        return parse_french(text)

    def parse_action_name(self, text: str) -> int:
        try:
            return super().parse_action_name(text)
        except IllegalAction:
            words = text.split()
            try:
                if len(words) == 1:
                    return parse_french(words[0])
                if len(words) == 2 and words[0].lower() in ("play", "phantom"):
                    card = parse_french(words[1])
                    if words[0].lower() == "play":
                        return card
                    if self.num_players == 2:
                        return PHANTOM_BASE + card
            except ValueError:
                pass
            raise


def _multinomial(n: int, parts: Sequence[int]) -> int:
    out = 1
    for k in parts:
        out *= math.comb(n, k)
        n -= k
    return out


def _splits(mask: int, n: int, caps: tuple[int, ...], g: int = 0) -> Iterator[tuple[int, ...]]:
    """Count vectors putting ``n`` cards into the groups of ``mask`` within ``caps``."""
    if g == len(caps):
        if n == 0:
            yield ()
        return
    if not mask >> g & 1:
        for rest in _splits(mask, n, caps, g + 1):
            yield (0,) + rest
        return
    for k in range(min(n, caps[g]), -1, -1):
        for rest in _splits(mask, n - k, caps, g + 1):
            yield (k,) + rest


def _deal_ways(types: Sequence[tuple[int, Sequence[int]]]) -> Callable[[int, tuple[int, ...]], int]:
    """``ways(i, caps)``: the number of deals of ``types[i:]`` (as in :func:`constrained_deal`)
    that fill the groups' remaining room ``caps`` exactly (memoised)."""
    memo: dict[tuple[int, tuple[int, ...]], int] = {}

    def ways(i: int, caps: tuple[int, ...]) -> int:
        if i == len(types):
            return 1 if not any(caps) else 0
        key = (i, caps)
        got = memo.get(key)
        if got is None:
            mask, cards = types[i]
            got = 0
            for ks in _splits(mask, len(cards), caps):
                got += _multinomial(len(cards), ks) * ways(i + 1, tuple(c - k for c, k in zip(caps, ks)))
            memo[key] = got
        return got

    return ways


def _deal_types(cards: int, allowed: Sequence[int]) -> list[tuple[int, list[int]]]:
    """The ``types`` of :func:`constrained_deal` for the cards of mask ``cards``, group
    ``g`` taking the cards of mask ``allowed[g]``."""
    by_mask: dict[int, list[int]] = {}
    for c in _mask_to_list(cards):
        gm = 0
        for g, al in enumerate(allowed):
            if al >> c & 1:
                gm |= 1 << g
        by_mask.setdefault(gm, []).append(c)
    return sorted(by_mask.items())


def count_deals(types: Sequence[tuple[int, Sequence[int]]], sizes: Sequence[int]) -> int:
    """The number of deals :func:`constrained_deal` chooses among (0 if none)."""
    return _deal_ways(types)(0, tuple(sizes))


def constrained_deal(
    types: Sequence[tuple[int, Sequence[int]]], sizes: Sequence[int], rng: random.Random
) -> list[list[int]]:
    """Deal cards into groups uniformly among all deals that respect the constraints.

    ``types`` are ``(allowed-groups bitmask, cards)``; group ``g`` receives exactly
    ``sizes[g]`` cards.  Exact counting (a DP over the types and the groups' remaining
    room), then one draw of ``rng.randrange`` and one shuffle per type: the result is a
    pure function of the arguments and ``rng``.
    """
    ways = _deal_ways(types)
    caps = tuple(sizes)
    total = ways(0, caps)
    if total == 0:
        raise RuntimeError("no deal satisfies the constraints (inconsistent information)")
    r = rng.randrange(total)
    out: list[list[int]] = [[] for _ in sizes]
    for i, (mask, cards) in enumerate(types):
        chosen: tuple[int, ...] = ()
        for ks in _splits(mask, len(cards), caps):
            rest = tuple(c - k for c, k in zip(caps, ks))
            w = _multinomial(len(cards), ks) * ways(i + 1, rest)
            if r < w:
                r //= _multinomial(len(cards), ks)
                chosen, caps = ks, rest
                break
            r -= w
        pool = sorted(cards)
        rng.shuffle(pool)
        at = 0
        for g, k in enumerate(chosen):
            out[g].extend(pool[at : at + k])
            at += k
    return out


class LostRanksState(State):
    """A whole Lost Ranks match (all its rounds).

    Cards held are bitmasks (``_hands``), the trick is a list of ``(seat, card, source)``
    entries.  ``apply_action`` (the hot path of play-outs and search roll-outs, measured
    by ``benchmarks/playouts.py``) has a fast path for each common play: it pushes an
    undo record holding only what cannot be derived from the state after the play
    (``_U_*``) and leaves the next legal actions as a sorted tuple (``_la``) or a mask
    (``_lm``).  A play that ends a round pushes a full snapshot.
    """

    __slots__ = (
        "game", "seed", "decks", "history", "_stack", "_n", "_two", "_armies", "_force",
        # constants of the rule set
        "_last_trick", "_closer", "_anames", "_ev", "_tev", "_played", "_face_up", "_results",
        # match
        "_round", "_dealer", "_totals", "_round_scores", "_tiebreaks", "_outcome", "_spy_captor",
        # round
        "_trump", "_trump_suit", "_active", "_hands", "_phantoms", "_down", "_trick", "_leader",
        "_to_move", "_led", "_lead_src", "_pending", "_pending_pub", "_captured", "_won",
        "_discards", "_voids", "_forced", "_not_in", "_trick_no", "_last", "_log",
        # legal actions of the seat to move
        "_lm", "_la",
    )

    game: LostRanks

    def __init__(self, game: LostRanks, seed: int, decks: list[list[int]] | None) -> None:
        self.game = game
        self.seed = seed
        self.decks = decks
        self.history = []
        self._stack: list[tuple[Any, ...]] = []
        n = game.num_players
        self._n = n
        self._two = n == 2
        self._force = game.config.force_strength
        self._last_trick = game.tricks_per_round - 1
        """``_trick_no`` of a round's last trick."""
        self._closer = n - 1
        """Cards in a trick before its closing card."""
        self._anames = game._action_names
        self._ev, self._tev, self._played, self._face_up, self._results = _event_tables(n, game._action_names)
        if not _SUIT_CARDS:
            _build_suit_cards()
        dealer, red = LostRanks.draw_setup(seed)
        self._armies: tuple[int, ...] = tuple(RED if s % 2 == red else BLACK for s in range(n))
        self._round = 0
        self._dealer = dealer % n
        self._totals: tuple[int, int] = (0, 0)
        self._round_scores: tuple[tuple[int, int], ...] = ()
        self._tiebreaks = 0
        self._outcome = -1
        self._spy_captor = -1
        self._log: list[tuple[int, ...]] = []
        self._deal()

    # ------------------------------------------------------------------ deal
    def _deal(self) -> None:
        n = self._n
        i = self._round
        dealer = self._dealer
        if self.decks is not None and i < len(self.decks):
            deck = self.decks[i]
        else:
            deck = _shuffled_deck(round_rng(self.seed, i))
        hands = [0] * n
        if n == 4:
            for k in range(4):
                hands[(dealer + 1 + k) % 4] = sum(itemgetter(*deck[k:52:4])(_BITS))
            self._phantoms: list[tuple[int, ...]] = [(), (), (), ()]
            self._down = [0, 0, 0, 0]
        else:
            size, dealt = self.game.phantom_size, 2 * self.game.hand_size
            for k in range(2):
                hands[(dealer + 1 + k) % 2] = sum(_BITS[c] for c in deck[k:dealt:2])
            ph: list[tuple[int, ...]] = [(), ()]
            ph[(dealer + 1) % 2] = tuple(deck[dealt:dealt + size])
            ph[dealer] = tuple(deck[dealt + size:52])
            self._phantoms = ph
            self._down = [size, size]
        self._hands = hands
        trump = deck[52]
        self._trump = trump
        self._trump_suit = trump // 13
        self._active = COLOUR_JACKS[SUIT_COLOUR[trump // 13]] | SPY_BIT
        self._trick: list[tuple[int, int, int]] = []
        self._led = -1
        self._lead_src = -1
        self._pending: tuple[int, ...] = ()
        self._pending_pub: tuple[bool, ...] = ()
        self._captured: tuple[int, int] = (0, 0)
        self._won: tuple[int, int] = (0, 0)
        self._discards = 0
        self._voids = [0] * n
        self._trick_no = 0
        self._last: tuple[Any, ...] = ()
        self._lm: int | None = None
        """The legal actions as a mask, ``None`` until known."""
        self._la: tuple[int, ...] | None = None
        """The legal actions as a tuple when ``apply_action`` had it at hand, else ``None``."""
        # LR-6: first lead.
        self._forced = -1
        self._not_in = 0
        leader = (dealer + 1) % n
        dealt = n * self.game.hand_size
        for ace in (ACE_HEARTS, ACE_DIAMONDS):
            at = deck.index(ace)
            if at < dealt:
                # Held in a real hand: card ``at`` of the deal went to seat (dealer + 1 + at) % n.
                self._forced = ace
                leader = (dealer + 1 + at) % n
                break
            self._not_in |= 1 << ace
        self._leader = leader
        self._to_move = leader

    # ------------------------------------------------------------------ snapshots
    def _snapshot(self) -> tuple[Any, ...]:
        """The whole state (before a play that ends the round)."""
        return (
            _U_FULL, tuple(self._hands), tuple(self._phantoms), tuple(self._down), tuple(self._trick), self._leader,
            self._to_move, self._led, self._lead_src, self._pending, self._pending_pub,
            self._captured, self._won, self._discards, tuple(self._voids), self._forced,
            self._not_in, self._trick_no, self._last, tuple(self._log), self._trump, self._trump_suit,
            self._active, self._round, self._dealer, self._totals, self._round_scores, self._tiebreaks,
            self._outcome, self._spy_captor,
        )

    def _light_snapshot(self) -> tuple[Any, ...]:
        """What a play inside a round may change (the seat to move is ``p``)."""
        p = self._to_move
        return (
            _U_LIGHT, p, self._hands[p], self._phantoms[p], self._down[p], self._voids[p], self._pending,
            self._pending_pub, tuple(self._trick), self._led, self._lead_src, self._leader, self._forced,
            len(self._log), self._captured, self._won, self._discards, self._trick_no, self._last,
        )

    def _restore(self, t: tuple[Any, ...]) -> None:
        if t[0] == _U_LIGHT:
            (
                _, p, self._hands[p], self._phantoms[p], self._down[p], self._voids[p], self._pending,
                self._pending_pub, trick, self._led, self._lead_src, self._leader, self._forced,
                log, self._captured, self._won, self._discards, self._trick_no, self._last,
            ) = t
            self._trick = list(trick)
            self._to_move = p
            del self._log[log:]
            return
        (
            _, hands, phantoms, down, trick, self._leader, self._to_move, self._led, self._lead_src,
            self._pending, self._pending_pub, self._captured, self._won, self._discards, voids, self._forced,
            self._not_in, self._trick_no, self._last, log, self._trump, self._trump_suit, self._active,
            self._round, self._dealer, self._totals, self._round_scores, self._tiebreaks, self._outcome,
            self._spy_captor,
        ) = t
        self._hands = list(hands)
        self._phantoms = list(phantoms)
        self._down = list(down)
        self._voids = list(voids)
        self._log = list(log)
        self._trick = list(trick)

    def _copy(self, stack: bool) -> LostRanksState:
        """A copy sharing only immutable values (every slot is assigned: see the check below)."""
        new = object.__new__(LostRanksState)
        new.game = self.game
        new.seed = self.seed
        new.decks = self.decks
        new.history = self.history.copy()
        new._stack = self._stack.copy() if stack else []
        new._n = self._n
        new._two = self._two
        new._armies = self._armies
        new._force = self._force
        new._last_trick = self._last_trick
        new._closer = self._closer
        new._anames = self._anames
        new._ev = self._ev
        new._tev = self._tev
        new._played = self._played
        new._face_up = self._face_up
        new._results = self._results
        new._round = self._round
        new._dealer = self._dealer
        new._totals = self._totals
        new._round_scores = self._round_scores
        new._tiebreaks = self._tiebreaks
        new._outcome = self._outcome
        new._spy_captor = self._spy_captor
        new._trump = self._trump
        new._trump_suit = self._trump_suit
        new._active = self._active
        new._hands = self._hands.copy()
        new._phantoms = self._phantoms.copy()
        new._down = self._down.copy()
        new._trick = self._trick.copy()
        new._leader = self._leader
        new._to_move = self._to_move
        new._led = self._led
        new._lead_src = self._lead_src
        new._pending = self._pending
        new._pending_pub = self._pending_pub
        new._captured = self._captured
        new._won = self._won
        new._discards = self._discards
        new._voids = self._voids.copy()
        new._forced = self._forced
        new._not_in = self._not_in
        new._trick_no = self._trick_no
        new._last = self._last
        new._log = self._log.copy()
        new._lm = self._lm
        new._la = self._la
        return new

    def clone(self) -> LostRanksState:
        return self._copy(True)

    def __setstate__(self, state: tuple[dict[str, Any] | None, dict[str, Any] | None]) -> None:
        """Unpickling (a ``jobs=`` search worker, a saved position): the move tables that
        ``new_state`` builds on first use are built here too, for a process that dealt none."""
        _build_suit_cards()
        for part in state:
            for name, value in (part or {}).items():
                setattr(self, name, value)

    # ------------------------------------------------------------------ turn
    def current_player(self) -> int:
        return TERMINAL if self._outcome >= 0 else self._to_move

    def is_terminal(self) -> bool:
        return self._outcome >= 0

    def _required_source(self) -> int:
        """2 players, following: the source the follower must use (LR-13)."""
        p = self._to_move
        want = 1 - self._lead_src
        if want == HAND:
            return HAND if self._hands[p] else PHANTOM
        return PHANTOM if self._phantoms[p] else HAND

    def _legal_mask(self) -> int:
        """The legal actions as a bitmask (``apply_action`` keeps it up to date in ``_lm``)."""
        if self._outcome >= 0:
            return 0
        p = self._to_move
        led = self._led
        pend = self._pending
        if pend:
            # LR-14: the two drawn cards, as a two-card hand.
            m = 1 << pend[0] | 1 << pend[1]
            if not self._trick:
                m &= _NOT_SPY
            elif led >= 0:
                s = m & SUIT_MASKS[led]
                if s:
                    jb = JACK_BITS[led]
                    m = s ^ jb if s & jb and s != jb else s
            return m << PHANTOM_BASE
        h = self._hands[p]
        if not self._trick:
            if self._forced >= 0:
                return 1 << self._forced
            m = h & _NOT_SPY or h
            if self._two and self._phantoms[p]:
                m |= DRAW_BIT
            return m
        if self._two:
            # LR-13: the follower uses the other source, or the one that is not empty.
            if self._lead_src == HAND:
                if self._phantoms[p]:
                    return DRAW_BIT
            elif not h:
                return DRAW_BIT
        if led < 0:
            return h
        s = h & SUIT_MASKS[led]
        if s:
            jb = JACK_BITS[led]
            return s ^ jb if s & jb and s != jb else s
        return h

    def _settle(self) -> tuple[int, tuple[int, ...]]:
        """Compute the legal actions from scratch, as ``(_lm, _la)``: both are then set."""
        m = self._lm = self._legal_mask()
        la = self._la = tuple(_action_list(m, self._led))
        return m, la

    def legal_actions(self) -> list[int]:
        la = self._la
        if la is not None:
            return [*la]
        m = self._lm
        if m is None:
            return [*self._settle()[1]]
        # A mask left by apply_action without a tuple: real-hand cards, the Spy and draw two only.
        b0, b1, b2, b3, b4, b5, b6 = m.to_bytes(7, "little")
        return [*_B0[b0], *_B1[b1], *_B2[b2], *_B3[b3], *_B4[b4], *_B5[b5], *_B6[b6]]

    def why_illegal(self, action: int) -> Refusal | None:
        g = self.game
        if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < g.num_distinct_actions:
            return REFUSALS("no_such_action", action=repr(action), last=g.num_distinct_actions - 1)
        if self._outcome >= 0:
            return REFUSALS("match_over")
        m = self._lm
        if m is None:
            m = self._settle()[0]
        if m >> action & 1:
            return None
        return self._reason(action)

    def _reason(self, action: int) -> Refusal:
        led = self._led
        leading = not self._trick
        suit = SUIT_WORDS[led] if led >= 0 else ""
        if self._pending:
            return self._pending_reason(action, leading, suit)
        if action >= PHANTOM_BASE:
            return REFUSALS("phantom_not_drawn")
        if action == DRAW:
            if leading:
                if self._forced >= 0:
                    return REFUSALS("first_lead_forced_hand", card=FRENCH_NAMES[self._forced])
                return REFUSALS("phantom_empty")
            return REFUSALS("answer_from_hand")
        c = action
        name = FRENCH_NAMES[c]
        if self._two and not leading and self._required_source() == PHANTOM:
            return REFUSALS("answer_from_phantom")
        if not self._hands[self._to_move] >> c & 1:
            return REFUSALS("not_in_hand" if self._two else "not_held", card=name)
        if leading:
            if self._forced >= 0:
                return REFUSALS("first_lead_forced", card=FRENCH_NAMES[self._forced])
            return REFUSALS("spy_leads_last_of_source" if self._two else "spy_leads_last")
        if c == SPY:
            return REFUSALS("spy_must_follow", suit=suit)
        if CARD_SUIT[c] != led:
            return REFUSALS("must_follow", suit=suit)
        return REFUSALS("jack_protected", suit=suit, card=name)

    def _pending_reason(self, action: int, leading: bool, suit: str) -> Refusal:
        """Why ``action`` is refused while the two cards of 'draw two' wait (LR-14)."""
        drawn = [FRENCH_NAMES[c] for c in self._pending]
        if action < PHANTOM_BASE:
            return REFUSALS("play_drawn", drawn=drawn)
        c = action - PHANTOM_BASE
        if c not in self._pending:
            return REFUSALS("not_drawn", card=FRENCH_NAMES[c], drawn=drawn)
        if leading:
            return REFUSALS("spy_phantom_lead")
        if CARD_SUIT[c] == self._led:
            other = [x for x in self._pending if x != c][0]
            return REFUSALS("drawn_jack_protected", other=FRENCH_NAMES[other], card=FRENCH_NAMES[c], suit=suit)
        return REFUSALS("drawn_follows", suit=suit)

    # ------------------------------------------------------------------ apply
    def apply_action(self, action: int) -> Event:
        la = self._la
        if la is not None:
            if type(action) is not int or action not in la:
                raise self._refusal(action)
        else:
            m = self._lm
            if m is None:
                m = self._settle()[0]
            if type(action) is not int or action < 0 or action >= _ACTIONS or not m & _ACTION_BITS[action]:
                raise self._refusal(action)
        # Fast paths, one per kind of play, each recording a small undo tuple and the
        # legal actions of the next state: as a tuple (_la) where one is at hand, else
        # as a mask (_lm).  A hand card that does not finish the trick, the most common
        # play, is handled inline; the general path (_apply_any) takes a round's last
        # play and the draw of a last phantom card.
        p = self._to_move
        trick = self._trick
        if action >= NUM_CARDS:
            if action >= PHANTOM_BASE:
                return self._play_drawn(p, action, trick)
            return self._draw_two(p, trick)
        size = len(trick)
        if size >= self._closer:
            if self._trick_no == self._last_trick:
                return self._apply_any(action)
            return self._complete_trick(p, action, trick, -1)
        hands = self._hands
        hands[p] ^= _BITS[action]
        entry = _ENTRIES[p][action]
        if not size:
            led = self._led = CARD_SUIT[action]
            self._lead_src = HAND
            self._leader = p
            self._forced = -1
            self._stack.append(_R_PLAY)
        else:
            led = self._led
            if led < 0:
                led = self._led = CARD_SUIT[action]
                self._stack.append(_R_PLAY)
            elif _FOLLOWERS[led][action]:
                self._stack.append(_R_PLAY)
            else:
                voids = self._voids
                self._stack.append((_U_VOID, voids[p]))
                voids[p] |= 1 << led
        self.history.append(action)
        self._log.append(entry)
        trick.append(entry)
        if self._two:
            q = 1 - p
            if self._phantoms[q]:
                # LR-13: the follower answers a hand lead from the phantom deck.
                self._to_move = q
                self._lm = DRAW_BIT
                self._la = _DRAW_ONLY
                return self._ev[p][action]
        else:
            q = p + 1 if p < 3 else 0
        self._to_move = q
        h = hands[q]
        if led >= 0:
            ranks = h >> _SHIFTS[led] & 8191
            if ranks:
                self._lm = None
                self._la = _SUIT_CARDS[led][_PROTECT[ranks]]
                return self._ev[p][action]
        self._lm = h
        self._la = None
        return self._ev[p][action]

    def _play_drawn(self, p: int, action: int, trick: list[tuple[int, int, int]]) -> Event:
        """Fast path: one of the two drawn cards (LR-14); the other goes face up to the
        bottom of the deck.  It leads, or finishes a trick other than the round's last."""
        if trick and self._trick_no == self._last_trick:
            return self._apply_any(action)
        c = action - PHANTOM_BASE
        pend = self._pending
        other = pend[1] if c == pend[0] else pend[0]
        self._phantoms[p] += _ONE[other]
        if trick:
            self._stack.append((_U_PHANTOM_TRICK, pend, self._pending_pub, self._last))
            self._pending = ()
            self._pending_pub = ()
            return self._complete_trick(p, action, trick, other)
        self._stack.append((_U_PHANTOM, pend, self._pending_pub))
        self._pending = ()
        self._pending_pub = ()
        self.history.append(action)
        self._log.append((p, c, PHANTOM, other))
        entry = _ENTRIES[p][action]
        led = self._led = CARD_SUIT[c]
        self._lead_src = PHANTOM
        self._leader = p
        self._forced = -1
        trick.append(entry)
        q = self._to_move = 1 - p
        # LR-13: the follower answers from the hand (the phantom deck if it is empty).
        h = self._hands[q]
        if not h:
            self._lm = DRAW_BIT
            self._la = _DRAW_ONLY
        else:
            ranks = h >> _SHIFTS[led] & 8191 if led >= 0 else 0
            if ranks:
                self._lm = None
                self._la = _SUIT_CARDS[led][_PROTECT[ranks]]
            else:
                self._lm = h
                self._la = None
        return _new_tuple(Event, (p, action, self._anames[action], _FACE_UP[other],
                                   (self._played[p][action], self._face_up[p][other])))

    def _draw_two(self, p: int, trick: list[tuple[int, int, int]]) -> Event:
        """Fast path: draw two phantom cards (LR-14); the legal actions become the drawn
        pair seen as a two-card hand.  A last phantom card takes the general path."""
        phantoms = self._phantoms
        ph = phantoms[p]
        if len(ph) < 2:
            return self._apply_any(DRAW)
        down = self._down[p]
        self._stack.append(_R_DRAW)
        self.history.append(DRAW)
        phantoms[p] = ph[2:]
        self._down[p] = down - 2 if down > 2 else 0
        a = ph[0]
        b = ph[1]
        self._pending = (a, b)
        self._pending_pub = _PUB[down if down < 2 else 2]
        if not trick:
            ok_a = a != SPY
            ok_b = b != SPY
        else:
            led = self._led
            ok_a = ok_b = True
            if led >= 0:
                ok_a = CARD_SUIT[a] == led
                ok_b = CARD_SUIT[b] == led
                if ok_a and ok_b:
                    jack = JACKS[led]
                    ok_a = a != jack
                    ok_b = b != jack
                elif not ok_a and not ok_b:
                    ok_a = ok_b = True
        self._lm = None
        if not ok_b:
            self._la = _PLAY_DRAWN[a]
        elif not ok_a:
            self._la = _PLAY_DRAWN[b]
        else:
            self._la = (PHANTOM_BASE + a, PHANTOM_BASE + b) if a < b else (PHANTOM_BASE + b, PHANTOM_BASE + a)
        return self._ev[p][DRAW]

    def _complete_trick(self, p: int, action: int, trick: list[tuple[int, int, int]], other: int) -> Event:
        """Fast path, the end of a trick that is not the round's last (LR-10, LR-11): the
        winner takes it and leads.  ``other`` is the drawn card the player turned face up
        (its own bookkeeping is done), or -1 for a hand card (taken from the hand here)."""
        led = self._led
        logged: tuple[int, ...]
        if other < 0:
            self._hands[p] ^= _BITS[action]
            if led < 0:
                led = CARD_SUIT[action]
                self._stack.append((_U_TRICK, self._last, -1))
            elif _FOLLOWERS[led][action]:
                self._stack.append((_U_TRICK, self._last, -1))
            else:
                voids = self._voids
                self._stack.append((_U_TRICK, self._last, voids[p]))
                voids[p] |= 1 << led
            entry = logged = _ENTRIES[p][action]
        else:
            c = action - PHANTOM_BASE
            if led < 0:
                led = CARD_SUIT[c]
            entry = _ENTRIES[p][action]
            logged = (p, c, PHANTOM, other)
        self.history.append(action)
        trick.append(entry)
        # The highest key wins; a key of -1 cannot win (unrolled for 2 and 4 cards).
        keys = _TRICK_KEYS[self._trump_suit][led]
        if self._two:
            (p0, c0, _), (p1, c1, _) = trick
            k0 = keys[c0]
            winner = p1 if keys[c1] > k0 else p0 if k0 >= 0 else -1
            taken = _BITS[c0] | _BITS[c1]
        else:
            (p0, c0, _), (p1, c1, _), (p2, c2, _), (p3, c3, _) = trick
            best = keys[c0]
            winner = p0 if best >= 0 else -1
            key = keys[c1]
            if key > best:
                best = key
                winner = p1
            key = keys[c2]
            if key > best:
                best = key
                winner = p2
            if keys[c3] > best:
                winner = p3
            taken = _BITS[c0] | _BITS[c1] | _BITS[c2] | _BITS[c3]
        log = self._log
        log.append(logged)
        log.append(_WIN_ENTRIES[winner + 1])
        self._trick = []
        self._led = -1
        self._lead_src = -1
        self._trick_no += 1
        self._last = (trick, winner)
        if winner >= 0:
            cap = self._captured
            won = self._won
            if self._armies[winner]:
                self._captured = (cap[0], cap[1] | taken)
                self._won = (won[0], won[1] + 1)
            else:
                self._captured = (cap[0] | taken, cap[1])
                self._won = (won[0] + 1, won[1])
            q = winner
        else:
            self._discards |= taken
            q = trick[0][0] + 1
            if q == self._n:
                q = 0
        self._leader = self._to_move = q
        # The next lead (LR-8; LR-6 concerns only the first trick).
        h = self._hands[q]
        m = h ^ SPY_BIT if h > SPY_BIT else h  # the Spy leads only as the last card (LR-8)
        if self._two and self._phantoms[q]:
            m |= DRAW_BIT
        self._lm = m
        self._la = None
        if other < 0:
            return self._tev[p][action][winner + 1]
        return _new_tuple(Event, (p, action, self._anames[action], _FACE_UP_WIN[other][winner + 1],
                                  (self._played[p][action], self._face_up[p][other], self._results[winner + 1])))

    def _refusal(self, action: int) -> IllegalAction:
        """The error for an illegal ``action``, with its reason and ruling."""
        return IllegalAction(self.why_illegal(action) or PROTOCOL_REFUSALS("not_legal", action=repr(action)))

    def _apply_any(self, action: int) -> Event:
        """Any legal play: the general path (a draw of the last phantom card, a round's last play)."""
        p = self._to_move
        trick = self._trick
        if self._trick_no == self._last_trick and len(trick) == self._n - 1:
            self._stack.append(self._snapshot())
        else:
            self._stack.append(self._light_snapshot())
        self.history.append(action)
        self._lm = None
        self._la = None
        if action < NUM_CARDS:
            self._hands[p] ^= 1 << action
            c = action
            src = HAND
            other = -1
        elif action == DRAW:
            # The last phantom card is played at once (LR-14).
            c = self._phantoms[p][0]
            self._phantoms[p] = ()
            self._down[p] = 0
            src = PHANTOM
            other = -1
        else:
            c = action - PHANTOM_BASE
            a, b = self._pending
            other = b if c == a else a
            self._phantoms[p] += (other,)
            self._pending = ()
            self._pending_pub = ()
            src = PHANTOM
        entry = (p, c, src)
        self._log.append(entry if other < 0 else (p, c, src, other))
        if not trick:
            self._leader = p
            self._lead_src = src
            self._led = CARD_SUIT[c]
            self._forced = -1
        elif self._led < 0:
            self._led = CARD_SUIT[c]
        elif src == HAND:
            led = self._led
            if CARD_SUIT[c] != led or c == JACKS[led]:
                self._voids[p] |= 1 << led
        trick.append(entry)
        played = self._played[p]
        details: tuple[EventDetail, ...] = (played[c] if src == HAND else played[PHANTOM_BASE + c],)
        if other >= 0:
            details += (self._face_up[p][other],)
        if len(trick) < self._n:
            self._to_move = p + 1 if p + 1 < self._n else 0
            note = ""
        else:
            note, resolved = self._resolve(trick)
            details += resolved
        if other >= 0:
            note = _FACE_UP[other] + ("; " + note if note else "")
        elif action == DRAW:
            note = f"plays {FRENCH_NAMES[c]}, the last phantom card" + ("; " + note if note else "")
        return _new_tuple(Event, (p, action, self._anames[action], note, details))

    def _resolve(self, trick: list[tuple[int, int, int]]) -> tuple[str, tuple[EventDetail, ...]]:
        """Score the complete ``trick`` (and the round if it was the last): the note and details."""
        keys = _TRICK_KEYS[self._trump_suit][self._led]
        best = -1
        winner = -1
        cards = 0
        for seat, c, _ in trick:
            cards |= 1 << c
            key = keys[c]
            if key > best:
                best = key
                winner = seat
        self._trick = []
        self._led = -1
        self._lead_src = -1
        self._trick_no += 1
        self._last = (trick, winner)
        self._log.append(_WIN_ENTRIES[winner + 1])
        if winner >= 0:
            army = self._armies[winner]
            cap = self._captured
            won = self._won
            if army:
                self._captured = (cap[0], cap[1] | cards)
                self._won = (won[0], won[1] + 1)
            else:
                self._captured = (cap[0] | cards, cap[1])
                self._won = (won[0] + 1, won[1])
            self._leader = self._to_move = winner
        else:
            self._discards |= cards
            self._leader = self._to_move = (trick[0][0] + 1) % self._n
        note = _WIN_NOTES[winner + 1]
        details: tuple[EventDetail, ...] = (self._results[winner + 1],)
        if self._trick_no == self.game.tricks_per_round:
            ended, more = self._end_round()
            note += "; " + ended
            details += more
        return note, details

    # ------------------------------------------------------------------ scoring
    def round_points(self) -> tuple[int, int]:
        """Points of the current round's captures so far, per army (LR-15, LR-16)."""
        colour = SUIT_COLOUR[self._trump_suit]
        cap = self._captured
        g = self.game
        pts = [0, 0]
        pts[colour] += g.jack_points * (cap[colour] & COLOUR_JACKS[colour]).bit_count()
        for army in (RED, BLACK):
            if cap[army] & SPY_BIT:
                pts[army] += g.spy_points
        if self._force:
            r = (cap[RED] & ~SOLDIERS).bit_count()
            b = (cap[BLACK] & ~SOLDIERS).bit_count()
            if r != b:
                pts[RED if r > b else BLACK] += g.force_bonus
        return pts[0], pts[1]

    def _end_round(self) -> tuple[str, tuple[EventDetail, ...]]:
        pts = self.round_points()
        self._spy_captor = RED if self._captured[RED] & SPY_BIT else BLACK if self._captured[BLACK] & SPY_BIT else -1
        self._totals = (self._totals[0] + pts[0], self._totals[1] + pts[1])
        self._round_scores = self._round_scores + (pts,)
        note = f"round {self._round + 1} ends: red +{pts[0]}, black +{pts[1]}"
        ended = RoundEnded(self._round + 1, pts, self._totals)
        self._decide()
        if self._outcome >= 0:
            self._to_move = -1
            if self._outcome == 2:
                return note + "; the match is a draw", (ended, MatchEnded(None, self._totals))
            winner = ARMY_NAMES[self._outcome]
            return note + f"; {winner} wins the match", (ended, MatchEnded(winner, self._totals))
        self._round += 1
        self._dealer = (self._dealer + 1) % self._n
        self._log = []
        self._deal()
        return note, (ended, RoundStarted(self._round + 1, self._dealer))

    def _decide(self) -> None:
        """End of game (LR-17, LR-18, LR-19a): sets ``_outcome`` or ``_tiebreaks``."""
        red, black = self._totals
        higher = RED if red > black else BLACK
        rounds = len(self._round_scores)
        g = self.game
        if self._tiebreaks:
            if red != black:
                self._outcome = higher
            elif self._two and self._spy_captor >= 0:
                self._outcome = self._spy_captor
            elif self._tiebreaks >= 10 or (g.max_rounds is None and rounds >= 50):
                self._outcome = 2
            else:
                self._tiebreaks += 1
            return
        if self._two:
            due = rounds >= (g.max_rounds or 0)
        else:
            target = g.target or 0
            due = red >= target or black >= target or (g.max_rounds is not None and rounds >= g.max_rounds)
            if not due and g.max_rounds is None and rounds >= 50:
                self._outcome = higher if red != black else 2
                return
        if due:
            if red != black:
                self._outcome = higher
            else:
                self._tiebreaks = 1

    # ------------------------------------------------------------------ undo
    def undo_action(self) -> None:
        if not self._stack:
            raise IndexError("nothing to undo")
        rec = self._stack.pop()
        self.history.pop()
        self._lm = None
        self._la = None
        tag = rec[0]
        if tag <= _U_VOID:
            trick = self._trick
            p, c, _ = trick.pop()
            self._hands[p] |= 1 << c
            if tag == _U_VOID:
                self._voids[p] = rec[1]
            del self._log[-1]
            self._unplay(trick, p)
        elif tag == _U_TRICK or tag == _U_PHANTOM_TRICK:
            trick, winner = self._last
            p, c, _ = trick[-1]
            cards = 0
            for _, x, _ in trick:
                cards |= 1 << x
            if winner >= 0:
                cap = self._captured
                won = self._won
                if self._armies[winner]:
                    self._captured = (cap[0], cap[1] ^ cards)
                    self._won = (won[0], won[1] - 1)
                else:
                    self._captured = (cap[0] ^ cards, cap[1])
                    self._won = (won[0] - 1, won[1])
            else:
                self._discards ^= cards
            self._trick_no -= 1
            del self._log[-2:]
            if tag == _U_TRICK:
                _, self._last, voids = rec
                if voids >= 0:
                    self._voids[p] = voids
                self._hands[p] |= 1 << c
            else:
                _, self._pending, self._pending_pub, self._last = rec
                self._phantoms[p] = self._phantoms[p][:-1]
            rest = trick[:-1]
            first = rest[0]
            self._trick = rest
            self._to_move = p
            self._leader = first[0]
            self._lead_src = first[2]
            if first[1] != SPY:
                self._led = CARD_SUIT[first[1]]
            else:
                self._led = CARD_SUIT[rest[1][1]] if len(rest) > 1 else -1
        elif tag == _U_DRAW:
            p = self._to_move
            pend = self._pending
            pub = self._pending_pub
            self._phantoms[p] = pend + self._phantoms[p]
            self._down[p] = 0 if pub[0] else 1 if pub[1] else self._down[p] + 2
            self._pending = ()
            self._pending_pub = ()
        elif tag == _U_PHANTOM:
            trick = self._trick
            p = trick.pop()[0]
            self._phantoms[p] = self._phantoms[p][:-1]
            _, self._pending, self._pending_pub = rec
            del self._log[-1]
            self._unplay(trick, p)
        else:
            self._restore(rec)

    def _unplay(self, rest: list[tuple[int, int, int]], p: int) -> None:
        """Undo the trick-side effects of ``p``'s card on top of ``rest``."""
        self._trick = rest
        self._to_move = p
        if not rest:
            self._led = -1
            self._lead_src = -1
            self._leader = p
            if self._trick_no == 0:
                # LR-6: the forced first lead, as dealt.
                not_in = self._not_in
                self._forced = (
                    ACE_HEARTS if not not_in >> ACE_HEARTS & 1 else ACE_DIAMONDS if not not_in >> ACE_DIAMONDS & 1 else -1
                )
        elif len(rest) == 1 and rest[0][1] == SPY:
            self._led = -1

    # ------------------------------------------------------------------ outcome
    def returns(self) -> list[float]:
        o = self._outcome
        if o < 0 or o == 2:
            return [0.0] * self._n
        return [1.0 if a == o else -1.0 for a in self._armies]

    def winner(self) -> str | None:
        """``"red"``/``"black"`` once the match is won; ``None`` before or in a draw."""
        return ARMY_NAMES[self._outcome] if 0 <= self._outcome < 2 else None

    def result(self) -> dict[str, JSON]:
        o = self._outcome
        return {
            "returns": self.returns(),
            "scores": [self._totals[a] for a in self._armies],
            "army_scores": {"red": self._totals[0], "black": self._totals[1]},
            "armies": [ARMY_NAMES[a] for a in self._armies],
            "winner": self.winner(),
            "winning_seats": [s for s in range(self._n) if self._armies[s] == o],
            "draw": o == 2,
            "rounds": len(self._round_scores),
            "tiebreak_rounds": self._tiebreaks,
            "round_scores": [{"red": r, "black": b} for r, b in self._round_scores],
        }

    # ------------------------------------------------------------------ information
    @property
    def armies(self) -> tuple[int, ...]:
        """Army (0 red, 1 black) of each seat."""
        return self._armies

    @property
    def dealer(self) -> int:
        return self._dealer

    def hand(self, seat: int) -> list[int]:
        """The real hand of ``seat`` (true state; not for players)."""
        return _mask_to_list(self._hands[seat])

    def phantom(self, seat: int) -> list[int]:
        """The phantom deck of ``seat``, top first (true state; 2 players)."""
        return list(self._phantoms[seat])

    def view(self, player: int) -> dict[str, JSON]:
        v = self._view(player)
        v["army"] = ARMY_NAMES[self._armies[player]]
        v["partner"] = (player + 2) % 4 if self._n == 4 else None
        v["hand"] = _names(self._hands[player])
        return v

    def public_view(self) -> dict[str, JSON]:
        """LR-20 public view: a seat's view without ``hand``, ``army`` and ``partner``;
        phantom and drawn cards only where face up; ``first_lead`` as :meth:`first_lead_shown_to`."""
        return self._view(None)

    def first_lead_shown_to(self, player: int | None) -> bool:
        """Whether ``player`` (``None``: everybody) may be told which card LR-6 forces.

        4 players: always — every card but the Trump Card is in a real hand, so the
        Trump Card alone says whether A♥ or A♦ leads (LR-4, LR-6).  2 players: only
        the seat that must lead it (it holds the card).  Its opponent must not learn
        whether A♥ is in that hand, face down in a phantom deck or neither (LR-12,
        LR-20); everybody sees the card once it is led.
        """
        return self._n == 4 or (player is not None and player == self._to_move)

    def _view(self, player: int | None) -> dict[str, JSON]:
        n = self._n
        armies = self._armies
        totals = self._totals
        over = self._outcome >= 0
        if over:
            phase = "over"
        elif self._pending:
            phase = "choose"
        elif not self._trick:
            phase = "lead"
        else:
            phase = "follow"
        v: dict[str, JSON] = {
            "game": self.game.name,
            "player": player,
            "current_player": self.current_player(),
            "round": self._round + 1,
            "scores": [totals[a] for a in armies],
            "army_scores": {"red": totals[0], "black": totals[1]},
            "round_scores": [[rs[a] for a in armies] for rs in self._round_scores],
            "players": n,
            "armies": [ARMY_NAMES[a] for a in armies],
            "dealer": self._dealer,
            "tiebreak_round": self._tiebreaks,
            "target": self.game.target,
            "max_rounds": self.game.max_rounds,
            "force_strength": self._force,
            "phase": phase,
            "winner": self.winner(),
            "trump_card": FRENCH_NAMES[self._trump],
            "trump_suit": SUIT_WORDS[self._trump_suit],
            "trump_colour": ARMY_NAMES[SUIT_COLOUR[self._trump_suit]],
            "active_soldiers": _names(self._active),
            "first_lead": FRENCH_NAMES[self._forced]
            if self._forced >= 0 and self.first_lead_shown_to(player)
            else None,
            "hand_sizes": [h.bit_count() for h in self._hands],
            "trick": [{"seat": s, "card": FRENCH_NAMES[c], "source": SOURCE_NAMES[src]} for s, c, src in self._trick],
            "leader": self._leader,
            "led_suit": SUIT_WORDS[self._led] if self._led >= 0 else None,
            "lead_source": SOURCE_NAMES[self._lead_src] if self._trick and self._two else None,
            "trick_number": self._trick_no + (0 if over else 1),
            "tricks_per_round": self.game.tricks_per_round,
            "last_trick": None
            if not self._last
            else {
                "trick": [{"seat": s, "card": FRENCH_NAMES[c], "source": SOURCE_NAMES[src]} for s, c, src in self._last[0]],
                "winner": self._last[1] if self._last[1] >= 0 else None,
            },
            "tricks_won": {"red": self._won[0], "black": self._won[1]},
            "captured": {"red": _names(self._captured[0]), "black": _names(self._captured[1])},
            "discards": _names(self._discards),
            "round_points": dict(zip(ARMY_NAMES, self.round_points())),
            "voids": [[SUIT_WORDS[s] for s in range(4) if self._voids[q] >> s & 1] for q in range(n)],
            "log": [self._log_entry(e) for e in self._log],
        }
        if self._two:
            v.update(self._phantom_view(player))
        return v

    def _phantom_view(self, player: int | None) -> dict[str, JSON]:
        """Command of Two's part of the view: the phantom decks and the drawn pair (LR-13,
        LR-14); ``player`` sees its own face-down cards, nobody sees another's (LR-20)."""
        phantoms: list[JSON] = []
        face_up: list[JSON] = []
        for q in range(self._n):
            ph = self._phantoms[q]
            down = self._down[q]
            phantoms.append([FRENCH_NAMES[c] if q == player or i >= down else None for i, c in enumerate(ph)])
            face_up.append([i >= down for i in range(len(ph))])
        drawn: JSON = None
        if self._pending:
            q = self._to_move
            drawn = {
                "player": q,
                "cards": [
                    FRENCH_NAMES[c] if q == player or pub else None
                    for c, pub in zip(self._pending, self._pending_pub)
                ],
                "face_up": list(self._pending_pub),
            }
        return {"phantoms": phantoms, "phantom_face_up": face_up,
                "phantom_sizes": [len(ph) for ph in self._phantoms], "drawn": drawn}

    @staticmethod
    def _log_entry(e: tuple[int, ...]) -> dict[str, JSON]:
        if e[0] < 0:
            return {"winner": e[1] if e[1] >= 0 else None}
        entry: dict[str, JSON] = {"seat": e[0], "card": FRENCH_NAMES[e[1]], "source": SOURCE_NAMES[e[2]]}
        if len(e) > 3:
            entry["face_up"] = FRENCH_NAMES[e[3]]
        return entry

    # ------------------------------------------------------------------ resample
    def resample(self, player: int, rng: random.Random) -> LostRanksState:
        new = self._copy(False)
        new.seed = rng.getrandbits(63)
        new.decks = None
        if self._outcome >= 0:
            return new
        n = self._n
        known = self._hands[player] | (1 << self._trump) | self._captured[0] | self._captured[1] | self._discards
        for _, c, _ in self._trick:
            known |= 1 << c
        pend_owner = self._to_move if self._pending else -1
        if self._two:
            for c in self._phantoms[player]:
                known |= 1 << c
            for q in range(n):
                for c in self._phantoms[q][self._down[q] :]:
                    known |= 1 << c
            for c, pub in zip(self._pending, self._pending_pub):
                if pend_owner == player or pub:
                    known |= 1 << c
        unseen = ALL_CARDS & ~known
        # Groups: each other seat's hand, then (2 players) its hidden phantom cards.
        sizes: list[int] = []
        allowed: list[int] = []
        kinds: list[tuple[int, int]] = []
        forced = 1 << self._forced if self._forced >= 0 else 0
        for q in range(n):
            if q == player:
                continue
            hand_allowed = ALL_CARDS & ~VOID_MASKS[self._voids[q]] & ~self._not_in
            if self._to_move != q:
                hand_allowed &= ~forced
            sizes.append(self._hands[q].bit_count())
            allowed.append(hand_allowed)
            kinds.append((q, HAND))
            if self._two:
                hidden_pend = sum(1 for pub in self._pending_pub if not pub) if pend_owner == q else 0
                sizes.append(self._down[q] + hidden_pend)
                allowed.append(ALL_CARDS & ~forced)
                kinds.append((q, PHANTOM))
        if self._two and self._trick_no == 0 and not self._trick and not self._pending and player != self._to_move:
            # Before the first lead the opponent's information is only that the seat to
            # move leads: any LR-6 case that makes it the leader may be the true one.
            cases = [
                (_deal_types(unseen, [hand_allowed, phantom_allowed]), forced_card, not_in)
                for hand_allowed, phantom_allowed, forced_card, not_in in self._opening_cases(player, known)
            ]
            weights = [count_deals(types, sizes) for types, _, _ in cases]
            r = rng.randrange(sum(weights))
            at = 0
            while r >= weights[at]:
                r -= weights[at]
                at += 1
            types, new._forced, new._not_in = cases[at]
        else:
            types = _deal_types(unseen, allowed)
        dealt = constrained_deal(types, sizes, rng)
        for (q, kind), cards in zip(kinds, dealt):
            if kind == HAND:
                m = 0
                for c in cards:
                    m |= 1 << c
                new._hands[q] = m
            else:
                pool = list(cards)
                rng.shuffle(pool)
                if pend_owner == q:
                    pend = list(self._pending)
                    for i, pub in enumerate(self._pending_pub):
                        if not pub:
                            pend[i] = pool.pop()
                    new._pending = tuple(pend)
                down = self._down[q]
                new._phantoms[q] = tuple(pool) + self._phantoms[q][down:]
        new._lm = None
        new._la = None
        return new

    def _opening_cases(self, player: int, known: int) -> list[tuple[int, int, int, int]]:
        """The LR-6 cases (2 players, before the first lead) in which the seat to move,
        not ``player``, leads: ``(cards allowed in its hand, in its phantom deck, the
        forced card, the aces in no real hand)``, given the cards ``known`` to ``player``.

        A♥ in the leader's hand; or A♥ in no hand and A♦ in the leader's hand; or
        (the leader being the non-dealer) neither ace in a hand.
        """
        leader = self._to_move
        own = self._hands[player]
        in_leader_hand, in_no_hand = 0, 1
        wanted = [((in_leader_hand, -1), ACE_HEARTS, 0),
                  ((in_no_hand, in_leader_hand), ACE_DIAMONDS, 1 << ACE_HEARTS)]
        if leader == (self._dealer + 1) % 2:
            wanted.append(((in_no_hand, in_no_hand), -1, (1 << ACE_HEARTS) | (1 << ACE_DIAMONDS)))
        cases = []
        for places, forced_card, not_in in wanted:
            hand_allowed = ALL_CARDS & ~VOID_MASKS[self._voids[leader]]
            phantom_allowed = ALL_CARDS
            possible = True
            for ace, place in zip((ACE_HEARTS, ACE_DIAMONDS), places):
                bit = 1 << ace
                if place == in_leader_hand:
                    possible &= not known & bit
                    phantom_allowed &= ~bit
                elif place == in_no_hand:
                    possible &= not own & bit
                    hand_allowed &= ~bit
            if possible:
                cases.append((hand_allowed, phantom_allowed, forced_card, not_in))
        return cases

    # ------------------------------------------------------------------ text
    def __str__(self) -> str:
        g = self.game
        lines = [
            f"Lost Ranks players={self._n} force_strength={self._force} longer_game={g.config.longer_game} seed={self.seed}",
            f"armies {' '.join(ARMY_NAMES[a] for a in self._armies)}  totals red={self._totals[0]} black={self._totals[1]}"
            f"  rounds {list(self._round_scores)}  tiebreaks {self._tiebreaks}  outcome {self._outcome}"
            f"  spy_captor {self._spy_captor}",
            f"round {self._round + 1} dealer {self._dealer} trump {FRENCH_NAMES[self._trump]}"
            f" active {' '.join(_names(self._active))} first_lead "
            f"{FRENCH_NAMES[self._forced] if self._forced >= 0 else '-'} not_in {' '.join(_names(self._not_in)) or '-'}",
        ]
        for q in range(self._n):
            line = f"seat {q}: hand {' '.join(_names(self._hands[q])) or '-'} voids {self._voids[q]}"
            if self._two:
                ph = self._phantoms[q]
                down = self._down[q]
                cells = [FRENCH_NAMES[c] + ("^" if i >= down else "") for i, c in enumerate(ph)]
                line += f" | phantom {' '.join(cells) or '-'}"
            lines.append(line)
        trick = " ".join(f"{s}:{FRENCH_NAMES[c]}{'/p' if src else ''}" for s, c, src in self._trick) or "-"
        lines.append(
            f"trick {self._trick_no + 1} leader {self._leader} to_move {self._to_move} led {self._led}"
            f" lead_src {self._lead_src} cards {trick}"
            + (f" drawn {' '.join(FRENCH_NAMES[c] for c in self._pending)} pub {self._pending_pub}" if self._pending else "")
        )
        last = (
            " ".join(f"{s}:{FRENCH_NAMES[c]}" for s, c, _ in self._last[0]) + f" -> {self._last[1]}" if self._last else "-"
        )
        lines.append(
            f"captured red {' '.join(_names(self._captured[0])) or '-'} | black {' '.join(_names(self._captured[1])) or '-'}"
            f" | won {self._won} | discards {' '.join(_names(self._discards)) or '-'} | last {last} | log {len(self._log)}"
        )
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<LostRanksState players={self._n} seed={self.seed} round={self._round + 1} moves={len(self.history)}>"

    # ------------------------------------------------------------------ fast read-only accessors
    # For the search's play-outs on sampled worlds: small ints, bitmasks and tuples, no copies.
    @property
    def round_index(self) -> int:
        """The round being played, from 0 (the last one once the match is over)."""
        return self._round

    @property
    def army_totals(self) -> tuple[int, int]:
        """Match points of the finished rounds: ``(red, black)`` (LR-17, LR-18)."""
        return self._totals

    @property
    def rounds_played(self) -> int:
        """Rounds finished, tie-break rounds included."""
        return len(self._round_scores)

    @property
    def tiebreak_rounds(self) -> int:
        """Tie-break rounds played or under way."""
        return self._tiebreaks

    @property
    def trump_suit(self) -> int:
        """The trump suit of the round (0..3: the suit of a card is ``card // 13``)."""
        return self._trump_suit

    @property
    def led_suit(self) -> int:
        """The suit the trick must follow (LR-7), -1 while no card has set one."""
        return self._led

    @property
    def trick(self) -> tuple[tuple[int, int, int], ...]:
        """The cards of the trick so far, in order: ``(seat, card, source)``, source 1 for a
        card from the phantom deck (true state)."""
        return tuple(self._trick)

    @property
    def drawn_pair(self) -> tuple[int, ...]:
        """The two cards of a ``draw two`` waiting for the choice of one (LR-14), else ``()``."""
        return self._pending

    @property
    def hand_masks(self) -> tuple[int, ...]:
        """The real hand of every seat as a bitmask, bit ``card`` per card (true state)."""
        return tuple(self._hands)

    def hand_mask(self, seat: int) -> int:
        """The real hand of ``seat`` as a bitmask (true state)."""
        return self._hands[seat]

    def phantom_cards(self, seat: int) -> tuple[int, ...]:
        """The phantom deck of ``seat``, top first (true state; empty with 4 players)."""
        return self._phantoms[seat]

    @property
    def tricks_done(self) -> int:
        """Tricks finished this round."""
        return self._trick_no

    @property
    def forced_lead(self) -> int:
        """The card LR-6 forces as the round's first lead, -1 once led (or none)."""
        return self._forced

    @property
    def lead_source(self) -> int:
        """The source the trick was led from (0 hand, 1 phantom deck: LR-13), -1 before a lead."""
        return self._lead_src

    @property
    def captured_masks(self) -> tuple[int, int]:
        """The cards each army captured this round: ``(red, black)`` bitmasks (LR-15)."""
        return self._captured

    @property
    def discard_mask(self) -> int:
        """The cards of this round's tricks that nobody won (LR-11), as a bitmask."""
        return self._discards

    @property
    def trump_card(self) -> int:
        """The card turned up for trump this round (LR-5; public)."""
        return self._trump

    @property
    def void_masks(self) -> tuple[int, ...]:
        """The suits each seat has shown it lacks this round (LR-7, LR-20), bit ``suit`` per suit (public)."""
        return tuple(self._voids)

    @property
    def face_down_counts(self) -> tuple[int, ...]:
        """How many of each phantom deck's top cards are still face down (LR-14; zeros with 4 players)."""
        return tuple(self._down)


if set(LostRanksState.__slots__) - set(LostRanksState._copy.__code__.co_names):  # pragma: no cover
    raise RuntimeError("LostRanksState._copy must copy every slot")


__all__ = [
    "ACE_DIAMONDS",
    "ACE_HEARTS",
    "ARMY_NAMES",
    "DRAW",
    "JACKS",
    "LostRanks",
    "LostRanksConfig",
    "LostRanksState",
    "PHANTOM_BASE",
    "SPY",
    "constrained_deal",
    "count_deals",
    "make_deck",
]
