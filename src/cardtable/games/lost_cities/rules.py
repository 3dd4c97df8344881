"""Lost Cities (Reiner Knizia, Kosmos 1999) for two players: the rules core.

The rulings are LC-1 … LC-8 of ``src/cardtable/rules/lost-cities.md``; every refusal
cites one.  A :class:`LostCitiesState` is a whole match of ``rounds`` rounds.

Cards
    Expedition *kinds* of :mod:`cardtable.cards`: ``kind = colour * 10 + value``,
    value 0 a wager (``Yw``), 1..9 the numbers 2..10 (``Y2`` … ``Y10``).  The
    three wagers of a colour are interchangeable (LC-1), so hands, expeditions
    and decks are multisets of kinds: a deck is 12 kinds per colour (three
    wagers and 2..10), 60 cards, or 72 with purple (``colors=6``).

Actions (a fixed table; ``C = colors``, colour ``c`` owns the block ``20c .. 20c+19``)::

    20c + v          play <kind c*10+v>      place it on your expedition (LC-3)
    20c + 10 + v     discard <kind c*10+v>   put it on its colour's discard pile (LC-3)
    20C              draw deck               take the top card of the draw pile (LC-4)
    20C + 1 + c      draw <colour letter>    take the top card of that discard pile (LC-4)

    e.g. (5 colours) 0 = "play Yw", 6 = "play Y7", 10 = "discard Yw",
    100 = "draw deck", 101 = "draw Y", 105 = "draw R".

A turn is two actions by the same player: a play-phase action (play or discard)
then a draw-phase action.  The round ends the moment the draw pile's last card
is taken (LC-5) or after 100 turns in a row without a draw-pile card; the next
round is dealt inside that ``apply_action``.

Explicit decks
    ``decks[i]`` fixes round ``i``: a list of all 60 (72) kinds in dealing
    order.  ``deck[0], deck[2], …, deck[14]`` go to seat 0, ``deck[1], deck[3],
    …, deck[15]`` to seat 1, and ``deck[16:]`` is the draw pile with
    ``deck[16]`` on top (the next card drawn).  Rounds without an explicit deck
    are shuffled with ``protocol.round_rng(seed, i)``.  The starting player of
    round 1 is ``round_rng(seed, 0).randrange(2)`` (drawn before that round's
    shuffle, so it is the same with or without explicit decks); later rounds
    follow LC-7.

Example::

    >>> game = LostCities(rounds=1)
    >>> state = game.new_state(seed=3)
    >>> state.view(state.current_player())["phase"]
    'play'
    >>> game.action_name(6), game.action_name(100), game.action_name(101)
    ('play Y7', 'draw deck', 'draw Y')
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from cardtable.cards import COLOR_LETTERS, COLOR_WORDS, EXPEDITION_NAMES, parse_expedition
from cardtable.description import GameInfo, Text, describe
from cardtable.protocol import (
    JSON, PROTOCOL_REFUSALS, TERMINAL, Event, EventDetail, Game, IllegalAction, Refusal, RefusalTable, State,
    round_rng,
)

HAND_SIZE: Final = 8
"""Cards dealt to each player (LC-2)."""
STALL_LIMIT: Final = 100
"""Turns in a row without a draw-pile card after which the round ends (LC-5)."""
PLAY, DRAW = 0, 1
"""The two phases of a turn (LC-3, LC-4)."""
REFUSALS: Final = RefusalTable("lost-cities", {
    "no_such_action": (None, "{action} is not a move of Lost Cities (action ids are 0..{last})"),
    "match_over": (None, "the match is over: no more moves"),
    "draw_now": ("LC-4", "you have already played a card this turn: now draw a card, not {move}"),
    "not_in_hand": ("LC-3", "you have no {card} in your hand"),
    "wager_after_number": ("LC-3", "a wager may be placed only before any number card: "
                                   "your {colour} expedition already holds {top}"),
    "not_higher": ("LC-3", "{card} is not higher than {top} already on your {colour} expedition"),
    "play_first": ("LC-3", "first play or discard a card, then draw; {move} must wait"),
    "pile_just_discarded": ("LC-4", "you cannot take from the {colour} discard pile: "
                                    "you discarded onto it this turn"),
    "pile_empty": ("LC-4", "the {colour} discard pile is empty"),
})
"""Every reason a Lost Cities move is refused: key → (ruling, English template)."""

# ---------------------------------------------------------------------------
# Card sets.
#
# A hand, an expedition or a set of known cards is one int with a 16-bit field
# per colour c at bit 16c (the accessors at the end of LostCitiesState and
# card_set() hand them out in this layout, without the HAND-only bits 10..13):
#
#   bits 16c + v       (v = 0..9)  kind c*10+v is present (for wagers: at least one)
#   bits 16c+10..13               in a HAND only: the state t of the holder's own
#                                 expedition of colour c: 0 = nothing placed,
#                                 1 = only wagers, v+1 = highest number placed has
#                                 value index v (card-set operations never touch it)
#   bits 16c+14..15               how many wagers of colour c (0..3)
#
# So ``hand >> 16c & 0x3FFF`` indexes a precomputed table of the legal play-phase
# actions of colour c, and a card can be added or removed with one add/or or
# subtract/xor.  A discard pile is an int holding a stack of 6-bit digits
# ``kind + 1`` (top digit lowest).

_STRIDE: Final = 16

_POS = [_STRIDE * (k // 10) + k % 10 for k in range(60)]
_BIT = [1 << p for p in _POS]
_WUNIT = [(1 << (_STRIDE * (k // 10) + 14)) if k % 10 == 0 else 0 for k in range(60)]
_WMASK = [(3 << (_STRIDE * (k // 10) + 14)) if k % 10 == 0 else 0 for k in range(60)]
_TSHIFT = [_STRIDE * (k // 10) + 10 for k in range(60)]
_TCLEAR = [~(15 << _TSHIFT[k]) for k in range(60)]
_TSET = [(k % 10 + 1 if k % 10 else 1) << _TSHIFT[k] for k in range(60)]
_TOPS_BITS = sum(15 << (_STRIDE * c + 10) for c in range(6))
_CARD_BITS: Final = ((1 << (_STRIDE * 6)) - 1) & ~_TOPS_BITS
_NUMBER_BITS: Final = sum(0x3FE << (_STRIDE * c) for c in range(6))
_WAGER_LOW: Final = sum(1 << (_STRIDE * c + 14) for c in range(6))
_WAGER_HIGH: Final = sum(1 << (_STRIDE * c + 15) for c in range(6))
_KCOLOR = [k // 10 for k in range(60)]
_CBIT = [1 << (k // 10) for k in range(60)]
_ACTION_KIND = [10 * (a // 20) + a % 10 for a in range(120)]
"""Card kind of each play/discard action id (ids below 20 * colors)."""


def _set_add(s: int, k: int) -> int:
    return (s + _WUNIT[k]) | _BIT[k]


def _set_count(s: int, k: int) -> int:
    if k % 10:
        return (s >> _POS[k]) & 1
    return (s >> (_STRIDE * (k // 10) + 14)) & 3


def _set_kinds(s: int, colors: int) -> list[int]:
    """The multiset as a sorted list of kinds (wagers repeated)."""
    out: list[int] = []
    for c in range(colors):
        field = (s >> (_STRIDE * c)) & 0xFFFF
        if not field:
            continue
        out.extend([10 * c] * (field >> 14))
        numbers = field & 0x3FE
        while numbers:
            low = numbers & -numbers
            out.append(10 * c + low.bit_length() - 1)
            numbers ^= low
    return out


def _set_size(s: int, colors: int) -> int:
    size = 0
    for c in range(colors):
        field = (s >> (_STRIDE * c)) & 0xFFFF
        size += (field & 0x3FE).bit_count() + (field >> 14)
    return size


def card_set(kinds: Iterable[int]) -> int:
    """The card set (layout above) of a multiset of kinds: ``card_set([0, 0, 6])`` holds
    two yellow wagers and the yellow 7.

    >>> hex(card_set([0, 0, 6]))
    '0x8041'
    """
    s = 0
    for k in kinds:
        s = _set_add(s, k)
    return s


def card_set_size(cards: int) -> int:
    """How many cards a card set holds (wagers counted one by one).

    >>> card_set_size(card_set([0, 0, 6, 17]))
    4
    """
    return ((cards & _NUMBER_BITS).bit_count() + (cards & _WAGER_LOW).bit_count()
            + 2 * (cards & _WAGER_HIGH).bit_count())


def _pile_kinds(stack: int) -> list[int]:
    """A discard pile (a stack of 6-bit digits ``kind + 1``, top lowest), bottom to top."""
    out: list[int] = []
    while stack:
        out.append((stack & 63) - 1)
        stack >>= 6
    out.reverse()
    return out


def _tops_value(hand: int, c: int) -> int:
    """The state t of colour ``c`` kept in a hand (see the layout above)."""
    return (hand >> (_STRIDE * c + 10)) & 15


def _playable(kind: int, t: int) -> bool:
    """LC-3: may ``kind`` go on an expedition whose state is ``t`` (see layout)?"""
    v = kind % 10
    return v >= t or (v == 0 and t == 1)


_PLAYABLE_AT = [sum(1 << t for t in range(16) if _playable(k, t)) for k in range(60)]
"""Per kind: bit t set if the kind may be placed on an expedition in state t (LC-3)."""


def _build_colour_table(c: int) -> list[tuple[int, ...]]:
    """Legal play-phase actions of colour ``c`` indexed by ``hand bits | t << 10``."""
    values = [tuple(v for v in range(10) if x >> v & 1) for x in range(1024)]
    discards = [tuple(20 * c + 10 + v for v in vs) for vs in values]
    table: list[tuple[int, ...]] = []
    for t in range(16):
        if t > 10:
            table.extend([()] * 1024)
            continue
        allowed = sum(1 << v for v in range(10) if _playable(v, t))
        plays = [tuple(20 * c + v for v in values[x & allowed]) for x in range(1024)]
        table.extend([plays[x] + discards[x] for x in range(1024)])
    return table


_COLOUR_TABLES: dict[int, list[tuple[int, ...]]] = {}


def _colour_table(c: int) -> list[tuple[int, ...]]:
    table = _COLOUR_TABLES.get(c)
    if table is None:
        table = _COLOUR_TABLES[c] = _build_colour_table(c)
    return table


COST: Final = 20
"""What starting an expedition costs (LC-6)."""
BONUS_LENGTH: Final = 8
"""Cards (wagers included) an expedition needs for the bonus (LC-6)."""
BONUS: Final = 20
"""The bonus for a long expedition, never multiplied (LC-6)."""


@functools.cache
def score_table(cost: int = COST, bonus_length: int = BONUS_LENGTH, bonus: int = BONUS) -> tuple[int, ...]:
    """LC-6 score indexed by ``wagers << 9 | number-card bits`` (bit i = number i+2), for a
    scoring whose numbers (the published 20, 8 and 20 by default) a designer may change.

    >>> table = score_table(cost=10)
    >>> table[1 << 2], score_table()[1 << 2]  # the 4 alone: 4 - 10, or 4 - 20
    (-6, -16)
    """
    table = []
    for index in range(4 << 9):
        wagers, numbers = index >> 9, index & 511
        count = wagers + numbers.bit_count()
        if count == 0:
            table.append(0)
            continue
        total = sum(i + 2 for i in range(9) if numbers >> i & 1)
        table.append((total - cost) * (1 + wagers) + (bonus if count >= bonus_length else 0))
    return tuple(table)


_SCORE = score_table()


def expedition_score(expedition: int, c: int, table: Sequence[int] = _SCORE) -> int:
    """LC-6 score of colour ``c`` of an expedition card set (internal layout), by ``table``
    (:func:`score_table`; the published scoring by default)."""
    field = expedition >> (_STRIDE * c)
    return table[((field >> 14) & 3) << 9 | ((field >> 1) & 511)]


def score_cards(kinds: Sequence[int], table: Sequence[int] = _SCORE) -> int:
    """LC-6 score of one expedition given as card kinds of one colour.

    >>> score_cards([])
    0
    >>> score_cards([0, 0, 3, 5, 9])  # two wagers, 4 + 6 + 10 = 20
    0
    >>> score_cards([0, 0, 0])  # wagers only
    -80
    >>> score_cards([0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    156
    """
    wagers = sum(1 for k in kinds if k % 10 == 0)
    numbers = 0
    for k in kinds:
        if k % 10:
            numbers |= 1 << (k % 10 - 1)
    return table[wagers << 9 | numbers]


# ---------------------------------------------------------------------------


# ---------------------------------------------------------------------------
# Event details (what each applied action did, as data; every one is public, LC-8)


@dataclass(frozen=True, slots=True)
class CardPlayed(EventDetail):
    """``seat`` placed ``card`` on its expedition (``to="expedition"``) or on its
    colour's discard pile (``to="discard"``) (LC-3)."""

    kind: ClassVar[str] = "card_played"
    seat: int
    card: str
    to: str


@dataclass(frozen=True, slots=True)
class CardDrawn(EventDetail):
    """``seat`` took a card (LC-4): from the draw pile (``source="deck"``, ``card``
    ``None``: only the drawer sees it, in its own view) or the top ``card`` of the
    discard pile of colour letter ``source``."""

    kind: ClassVar[str] = "card_drawn"
    seat: int
    source: str
    card: str | None


@dataclass(frozen=True, slots=True)
class RoundEnded(EventDetail):
    """Round ``round`` (1-based) is over (LC-5) because ``reason`` (``"deck_empty"`` or
    ``"stall"``, the 100-turn safeguard); ``scores`` per seat (LC-6), ``totals`` the
    match totals after it."""

    kind: ClassVar[str] = "round_ended"
    round: int
    reason: str
    scores: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RoundStarted(EventDetail):
    """Round ``round`` (1-based) is dealt and ``starter`` leads it (LC-7)."""

    kind: ClassVar[str] = "round_started"
    round: int
    starter: int


@dataclass(frozen=True, slots=True)
class MatchEnded(EventDetail):
    """The match is over (LC-7): ``winner`` a seat, or ``None`` for a draw; ``totals``
    per seat."""

    kind: ClassVar[str] = "match_ended"
    winner: int | None
    totals: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class LostCitiesConfig:
    """Options of Lost Cities."""

    colors: int = 5
    """5 expedition colours, or 6 with purple (LC-1)."""
    rounds: int = 3
    """Rounds in a match (LC-7); 1 plays a single round."""
    cost: int = COST
    """A designer's knob: what starting an expedition costs (LC-6: 20)."""
    bonus_length: int = BONUS_LENGTH
    """A designer's knob: cards an expedition needs for the bonus (LC-6: 8)."""
    bonus: int = BONUS
    """A designer's knob: the long-expedition bonus (LC-6: 20)."""


def _max_game_length(config: LostCitiesConfig) -> int:
    # LC-5: at most 99 turns without a draw-pile card before each draw-pile card.
    return config.rounds * 2 * 100 * (12 * config.colors - 16)


INFO: Final = describe(
    LostCitiesConfig,
    name="lost-cities",
    title=Text("Lost Cities", "Затерянные города"),
    summary=Text("Two explorers, five expeditions: place rising cards, discard, draw.",
                 "Два исследователя, пять экспедиций: выкладывайте карты по возрастанию, сбрасывайте, берите."),
    min_players=2,
    max_players=2,
    max_game_length=_max_game_length,
    options={
        "colors": dict(
            choices=(5, 6), rule="LC-1",
            label=Text("Expeditions", "Экспедиции"),
            choice_labels={5: Text("5 colours", "5 цветов"), 6: Text("6 colours (with purple)", "6 цветов (с фиолетовым)")},
            help=Text("Five expedition colours, or six with the purple variant (LC-1).",
                      "Пять цветов экспедиций или шесть — с фиолетовым вариантом (LC-1)."),
        ),
        "rounds": dict(
            minimum=1, maximum=20, offered=(1, 2, 3, 4, 5), rule="LC-7",
            label=Text("Rounds", "Раунды"),
            help=Text("Rounds in a match; scores add up over the rounds, 1 plays a single round (LC-7).",
                      "Раундов в партии; очки суммируются, 1 — один раунд (LC-7)."),
        ),
        "cost": dict(
            minimum=0, maximum=60, rule="LC-6", group="custom",
            label=Text("Expedition cost", "Стоимость экспедиции"),
            help=Text("What a started expedition costs before the wagers multiply: (sum − cost) × (1 + wagers); "
                      "the published rules say 20 (LC-6).",
                      "Сколько стоит начатая экспедиция до умножения на ставки: (сумма − стоимость) × (1 + ставки); "
                      "по правилам 20 (LC-6)."),
        ),
        "bonus_length": dict(
            minimum=1, maximum=12, rule="LC-6", group="custom",
            label=Text("Bonus length", "Длина для бонуса"),
            help=Text("Cards (wagers included) an expedition needs for the bonus; the published rules say 8 (LC-6).",
                      "Сколько карт (со ставками) нужно экспедиции для бонуса; по правилам 8 (LC-6)."),
        ),
        "bonus": dict(
            minimum=0, maximum=100, rule="LC-6", group="custom",
            label=Text("Bonus", "Бонус"),
            help=Text("Points for a long expedition, added after the multiplication; the published rules say 20 (LC-6).",
                      "Очки за длинную экспедицию, добавляются после умножения; по правилам 20 (LC-6)."),
        ),
    },
)
"""The description of Lost Cities: its options, players and match length."""


class LostCities(Game):
    """Lost Cities for two players (rulings LC-1 … LC-8)."""

    info: ClassVar[GameInfo] = INFO
    name: ClassVar[str] = INFO.name
    title: ClassVar[str] = INFO.title.en
    refusals = REFUSALS

    def __init__(self, *, colors: int = 5, rounds: int = 3, cost: int = COST, bonus_length: int = BONUS_LENGTH,
                 bonus: int = BONUS) -> None:
        INFO.check({"colors": colors, "rounds": rounds, "cost": cost, "bonus_length": bonus_length, "bonus": bonus})
        self.config = LostCitiesConfig(colors=colors, rounds=rounds, cost=cost, bonus_length=bonus_length, bonus=bonus)
        self.score_table: tuple[int, ...] = score_table(cost, bonus_length, bonus)
        """LC-6 by this config's numbers (:func:`score_table`)."""
        self.colors = colors
        self.num_kinds = 10 * colors
        self.num_players = 2
        self.draw_deck_action = 20 * colors
        self.num_distinct_actions = 20 * colors + 1 + colors
        self.num_card_kinds = self.num_kinds
        self.deck_size = 12 * colors
        self.full_deck: tuple[int, ...] = tuple(
            k for c in range(colors) for k in [10 * c] * 3 + [10 * c + v for v in range(1, 10)]
        )
        names = []
        for a in range(self.num_distinct_actions):
            names.append(self._make_action_name(a))
        self._names: tuple[str, ...] = tuple(names)
        self._tables: list[list[tuple[int, ...]]] = [_colour_table(c) for c in range(colors)]
        self._tables += [[()]] * (6 - colors)  # an empty colour: its field of a hand is always 0
        dd = self.draw_deck_action
        self._draw_tables: list[tuple[int, ...]] = [
            (dd, *[dd + 1 + c for c in range(colors) if m >> c & 1]) for m in range(1 << colors)
        ]
        self._events: list[list[Event]] = [
            [Event(p, a, names[a], "", self._action_details(p, a)) for a in range(self.num_distinct_actions)]
            for p in range(2)
        ]
        self._take_events: list[list[Event]] = [
            [Event(p, dd + 1 + k // 10, names[dd + 1 + k // 10], f"takes {EXPEDITION_NAMES[k]}",
                   (CardDrawn(p, COLOR_LETTERS[k // 10], EXPEDITION_NAMES[k]),)) for k in range(self.num_kinds)]
            for p in range(2)
        ]

    def _action_details(self, p: int, a: int) -> tuple[EventDetail, ...]:
        """The details of seat ``p``'s action ``a`` when nothing else happens (a draw from
        a discard pile names its card: see ``_take_events``)."""
        dd = 20 * self.colors
        if a < dd:
            c, r = divmod(a, 20)
            return (CardPlayed(p, EXPEDITION_NAMES[10 * c + r % 10], "expedition" if r < 10 else "discard"),)
        if a == dd:
            return (CardDrawn(p, "deck", None),)
        return ()

    # --- names -------------------------------------------------------------
    def _make_action_name(self, a: int) -> str:
        dd = 20 * self.colors
        if a < dd:
            c, r = divmod(a, 20)
            verb = "play" if r < 10 else "discard"
            return f"{verb} {EXPEDITION_NAMES[10 * c + r % 10]}"
        if a == dd:
            return "draw deck"
        return f"draw {COLOR_LETTERS[a - dd - 1]}"

    def action_name(self, action: int) -> str:
        if not 0 <= action < self.num_distinct_actions:
            raise ValueError(f"{action!r} is not an action id of {self.title} (0..{self.num_distinct_actions - 1})")
        return self._names[action]

    def card_name(self, card: int) -> str:
        return EXPEDITION_NAMES[card]

    def parse_card(self, text: str) -> int:
        return parse_expedition(text, self.colors)

    def play_action(self, kind: int) -> int:
        """The action id placing ``kind``."""
        return 20 * (kind // 10) + kind % 10

    def discard_action(self, kind: int) -> int:
        """The action id discarding ``kind``."""
        return 20 * (kind // 10) + 10 + kind % 10

    def draw_pile_action(self, color: int) -> int:
        """The action id taking the top of colour ``color``'s discard pile."""
        return self.draw_deck_action + 1 + color

    # --- states ------------------------------------------------------------
    def new_state(self, *, seed: int = 0, decks: Sequence[Sequence[int]] | None = None) -> LostCitiesState:
        checked: list[list[int]] | None = None
        if decks is not None:
            if len(decks) > self.config.rounds:
                raise ValueError(f"{len(decks)} decks given for a match of {self.config.rounds} round(s)")
            checked = [self._check_deck(i, d) for i, d in enumerate(decks)]
        return LostCitiesState(self, seed, checked)

    def _check_deck(self, index: int, deck: Sequence[int]) -> list[int]:
        cards = list(deck)
        where = f"deck of round {index + 1}"
        if len(cards) != self.deck_size:
            raise ValueError(f"the {where} has {len(cards)} cards; it must hold all {self.deck_size} cards (LC-1)")
        counts = [0] * self.num_kinds
        for k in cards:
            if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < self.num_kinds:
                raise ValueError(f"the {where} holds {k!r}, which is not a card kind 0..{self.num_kinds - 1}")
            counts[k] += 1
        wrong = [
            f"{EXPEDITION_NAMES[k]} ×{counts[k]} (needs {3 if k % 10 == 0 else 1})"
            for k in range(self.num_kinds)
            if counts[k] != (3 if k % 10 == 0 else 1)
        ]
        if wrong:
            raise ValueError(f"the {where} is not the {self.deck_size} Lost Cities cards (LC-1): " + ", ".join(wrong))
        return cards

    def deck_for(self, seed: int, decks: Sequence[Sequence[int]] | None, index: int) -> list[int]:
        """Round ``index``'s deck: the explicit one, else shuffled from the seed."""
        if decks is not None and index < len(decks):
            return list(decks[index])
        rng = round_rng(seed, index)
        if index == 0:
            rng.randrange(2)  # the round-1 starter is drawn first
        deck = list(self.full_deck)
        rng.shuffle(deck)
        return deck


def first_starter(seed: int) -> int:
    """LC-7: the starting player of round 1, drawn from the match seed."""
    return round_rng(seed, 0).randrange(2)


_Snapshot = tuple[Any, ...]

# Undo records (python-chess style push/pop): each action pushes the few fields it
# changes, tagged by the kind of action; a draw that ends the round pushes everything.
_UNDO_PLAY, _UNDO_DISCARD, _UNDO_DECK, _UNDO_PILE, _UNDO_FULL = range(5)


class LostCitiesState(State):
    """A Lost Cities match in progress (all its rounds).

    Internal fields (see the layout comment at the top of the module):
    ``_hand[p]`` is seat p's hand as a card set whose bits 16c+10..13 also hold
    the state ``t`` of p's expedition of colour c; ``_exp[p]`` the expeditions;
    ``_known[p]`` the cards p took from discard piles and still holds (LC-8);
    ``_piles[c]``/``_nonempty`` the discard piles; ``_draw[_ptr:]`` the draw pile,
    top first; ``_stall`` the turns in a row without a draw-pile card (LC-5);
    ``_ban`` the bit of the pile discarded onto this turn (LC-4); ``_rr`` the
    round record ``(index, starter, totals, round scores, summaries, history
    index where the round began)``.
    """

    __slots__ = (
        "game", "seed", "decks", "history", "_g", "_C", "_dd", "_tables", "_drawtab", "_events",
        "_cur", "_phase", "_ban", "_hand", "_exp", "_known", "_piles", "_nonempty", "_ptr", "_stall",
        "_draw", "_rr", "_stack", "_logc",
    )

    game: LostCities

    def __init__(self, game: LostCities, seed: int, decks: list[list[int]] | None, *, _empty: bool = False) -> None:
        self.game = game
        self.seed = seed
        self.decks = decks
        self.history: list[int] = []
        self._g = game
        self._C = game.colors
        self._dd = game.draw_deck_action
        self._tables = game._tables
        self._drawtab = game._draw_tables
        self._events = game._events
        self._stack: list[_Snapshot] = []
        self._logc: tuple[int, list[tuple[int, str, str]], list[list[int]]] | None = None
        if _empty:
            return
        self._rr: tuple[int, int, tuple[int, int], tuple[tuple[int, int], ...], tuple[Any, ...], int] = (
            0, first_starter(seed), (0, 0), (), (), 0
        )
        self._deal(game.deck_for(seed, decks, 0))

    def _deal(self, deck: list[int]) -> None:
        """LC-2: 8 cards each, alternately from seat 0; the rest is the draw pile."""
        h0 = h1 = 0
        for i in range(0, 2 * HAND_SIZE, 2):
            h0 = _set_add(h0, deck[i])
            h1 = _set_add(h1, deck[i + 1])
        self._hand = [h0, h1]
        self._exp = [0, 0]
        self._known = [0, 0]
        self._piles = [0] * self._C
        self._nonempty = 0
        self._draw: tuple[int, ...] = tuple(deck[2 * HAND_SIZE:])
        self._ptr = 0
        self._stall = 0
        self._cur = self._rr[1]
        self._phase = PLAY
        self._ban = 0

    # --- whose turn -----------------------------------------------------------
    def current_player(self) -> int:
        return self._cur

    def is_terminal(self) -> bool:
        return self._cur < 0

    # --- actions --------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        p = self._cur
        if p < 0:
            return []
        if self._phase:
            return list(self._drawtab[self._nonempty & ~self._ban])
        u = self._hand[p]
        t0, t1, t2, t3, t4, t5 = self._tables
        return [*t0[u & 0x3FFF], *t1[(u >> 16) & 0x3FFF], *t2[(u >> 32) & 0x3FFF],
                *t3[(u >> 48) & 0x3FFF], *t4[(u >> 64) & 0x3FFF], *t5[(u >> 80) & 0x3FFF]]

    def why_illegal(self, action: int) -> Refusal | None:
        g = self._g
        if not isinstance(action, int) or not 0 <= action < g.num_distinct_actions:
            return REFUSALS("no_such_action", action=repr(action), last=g.num_distinct_actions - 1)
        if self._cur < 0:
            return REFUSALS("match_over")
        p = self._cur
        dd = self._dd
        name = g._names[action]
        if action < dd:
            if self._phase == DRAW:
                return REFUSALS("draw_now", move=repr(name))
            c, r = divmod(action, 20)
            kind = 10 * c + r % 10
            if not self._hand[p] & _BIT[kind]:
                return REFUSALS("not_in_hand", card=EXPEDITION_NAMES[kind])
            if r >= 10:
                return None
            t = _tops_value(self._hand[p], c)
            if _playable(kind, t):
                return None
            top = EXPEDITION_NAMES[10 * c + t - 1]
            if kind % 10 == 0:
                return REFUSALS("wager_after_number", colour=COLOR_WORDS[c], top=top)
            return REFUSALS("not_higher", card=EXPEDITION_NAMES[kind], top=top, colour=COLOR_WORDS[c])
        if self._phase == PLAY:
            return REFUSALS("play_first", move=repr(name))
        if action == dd:
            return None
        c = action - dd - 1
        if self._ban >> c & 1:
            return REFUSALS("pile_just_discarded", colour=COLOR_WORDS[c])
        if not self._nonempty >> c & 1:
            return REFUSALS("pile_empty", colour=COLOR_WORDS[c])
        return None

    def _refuse(self, action: Any) -> IllegalAction:
        return IllegalAction(self.why_illegal(action) or PROTOCOL_REFUSALS("not_legal", action=repr(action)))

    def _full_snapshot(self) -> _Snapshot:
        return (_UNDO_FULL, self._cur, self._phase, self._ban, tuple(self._hand), tuple(self._exp),
                tuple(self._known), tuple(self._piles), self._nonempty, self._ptr, self._stall, self._draw, self._rr)

    def apply_action(self, action: int) -> Event:
        p = self._cur
        if self._phase == PLAY:
            if p < 0 or not isinstance(action, int) or not 0 <= action < self._dd:
                raise self._refuse(action)
            kind = _ACTION_KIND[action]
            hands = self._hand
            h = hands[p]
            bit = _BIT[kind]
            if not h & bit:
                raise self._refuse(action)
            knowns = self._known
            if action % 20 < 10:  # place it (LC-3)
                if not _PLAYABLE_AT[kind] >> ((h >> _TSHIFT[kind]) & 15) & 1:
                    raise self._refuse(action)
                exps = self._exp
                self._stack.append((_UNDO_PLAY, p, h, exps[p], knowns[p]))
                if action % 10:
                    hands[p] = ((h ^ bit) & _TCLEAR[kind]) | _TSET[kind]
                    exps[p] |= bit
                else:  # a wager: several may be held and placed
                    h -= _WUNIT[kind]
                    if not h & _WMASK[kind]:
                        h ^= bit
                    hands[p] = (h & _TCLEAR[kind]) | _TSET[kind]
                    exps[p] = (exps[p] + _WUNIT[kind]) | bit
            else:  # discard it (LC-3)
                piles = self._piles
                c = _KCOLOR[kind]
                stack = piles[c]
                self._stack.append((_UNDO_DISCARD, p, h, knowns[p], c, stack, self._nonempty))
                if action % 10:
                    hands[p] = h ^ bit
                else:
                    h -= _WUNIT[kind]
                    if not h & _WMASK[kind]:
                        h ^= bit
                    hands[p] = h
                piles[c] = (stack << 6) | (kind + 1)
                cbit = _CBIT[kind]
                self._nonempty |= cbit
                self._ban = cbit
            known = knowns[p]
            if known & bit:  # LC-8: a played wager is taken as the known one
                known -= _WUNIT[kind]
                if not known & _WMASK[kind]:
                    known ^= bit
                knowns[p] = known
            self._phase = DRAW
            self.history.append(action)
            return self._events[p][action]
        return self._apply_draw(p, action)

    def _apply_draw(self, p: int, action: int) -> Event:
        """The draw phase (LC-4): the top card of the draw pile or of a discard pile."""
        dd = self._dd
        hands = self._hand
        if action == dd:
            ptr = self._ptr
            draw = self._draw
            last = ptr + 1 == len(draw)
            if last:
                self._stack.append(self._full_snapshot())
            else:
                self._stack.append((_UNDO_DECK, p, hands[p], self._stall, self._ban))
            kind = draw[ptr]
            self._ptr = ptr + 1
            if kind % 10:
                hands[p] |= _BIT[kind]
            else:
                hands[p] = (hands[p] + _WUNIT[kind]) | _BIT[kind]
            self._stall = 0
            self._cur = 1 - p
            self._phase = PLAY
            self._ban = 0
            self.history.append(action)
            if last:  # LC-5: the last card of the draw pile is taken
                return self._end_round(p, action)
            return self._events[p][action]
        if not isinstance(action, int):
            raise self._refuse(action)
        c = action - dd - 1
        if not (0 <= c < self._C and (self._nonempty & ~self._ban) >> c & 1):
            raise self._refuse(action)
        stall = self._stall + 1
        knowns = self._known
        piles = self._piles
        stack = piles[c]
        if stall >= STALL_LIMIT:
            self._stack.append(self._full_snapshot())
        else:
            self._stack.append((_UNDO_PILE, p, hands[p], knowns[p], c, stack, self._nonempty, self._ban))
        kind = (stack & 63) - 1
        piles[c] = stack >> 6
        if stack < 64:
            self._nonempty ^= 1 << c
        hands[p] = (hands[p] + _WUNIT[kind]) | _BIT[kind]
        knowns[p] = (knowns[p] + _WUNIT[kind]) | _BIT[kind]
        self._stall = stall
        self._cur = 1 - p
        self._phase = PLAY
        self._ban = 0
        self.history.append(action)
        if stall >= STALL_LIMIT:  # LC-5 safeguard
            return self._end_round(p, action, taken=kind)
        return self._g._take_events[p][kind]

    def _end_round(self, p: int, action: int, taken: int | None = None) -> Event:
        """LC-5/LC-6/LC-7: score the round, then deal the next one or finish."""
        index, starter, totals, round_scores, summaries, _start = self._rr
        C = self._C
        table = self._g.score_table
        per_colour = tuple(tuple(expedition_score(self._exp[s], c, table) for c in range(C)) for s in range(2))
        scores = (sum(per_colour[0]), sum(per_colour[1]))
        totals = (totals[0] + scores[0], totals[1] + scores[1])
        final = tuple(tuple((letter, tuple(names)) for letter, names in self._expedition_view(e).items())
                      for e in self._exp)
        summary = (starter, final, per_colour, scores)
        why = "the draw pile is empty (LC-5)" if taken is None else f"{STALL_LIMIT} turns without a draw-pile card (LC-5)"
        note = f"round {index + 1} ends, {why}: {scores[0]} to {scores[1]}"
        if taken is not None:
            note = f"takes {EXPEDITION_NAMES[taken]}; " + note
        drawn = (CardDrawn(p, "deck", None) if taken is None
                 else CardDrawn(p, COLOR_LETTERS[taken // 10], EXPEDITION_NAMES[taken]))
        details: tuple[EventDetail, ...] = (
            drawn, RoundEnded(index + 1, "deck_empty" if taken is None else "stall", scores, totals))
        round_scores = (*round_scores, scores)
        summaries = (*summaries, summary)
        name = self._g._names[action]
        if index + 1 >= self._g.config.rounds:
            self._rr = (index, starter, totals, round_scores, summaries, _start)
            self._cur = TERMINAL
            self._phase = PLAY
            self._ban = 0
            if totals[0] == totals[1]:
                note += f"; the match is a draw at {totals[0]} (LC-7)"
            else:
                w = 0 if totals[0] > totals[1] else 1
                note += f"; seat {w} wins the match {totals[w]} to {totals[1 - w]} (LC-7)"
            winner = None if totals[0] == totals[1] else 0 if totals[0] > totals[1] else 1
            return Event(p, action, name, note, (*details, MatchEnded(winner, totals)))
        if totals[0] != totals[1]:
            nxt = 0 if totals[0] > totals[1] else 1
        else:
            nxt = 1 - starter
        self._rr = (index + 1, nxt, totals, round_scores, summaries, len(self.history))
        self._deal(self._g.deck_for(self.seed, self.decks, index + 1))
        note += f"; seat {nxt} starts round {index + 2} (LC-7)"
        return Event(p, action, name, note, (*details, RoundStarted(index + 2, nxt)))

    def undo_action(self) -> None:
        if not self._stack:
            raise IllegalAction("there is no move to take back")
        record = self._stack.pop()
        tag = record[0]
        if tag == _UNDO_PLAY:
            _, p, self._hand[p], self._exp[p], self._known[p] = record
            self._phase = PLAY
            self._ban = 0
        elif tag == _UNDO_DISCARD:
            _, p, self._hand[p], self._known[p], c, self._piles[c], self._nonempty = record
            self._phase = PLAY
            self._ban = 0
        elif tag == _UNDO_DECK:
            _, p, self._hand[p], self._stall, self._ban = record
            self._ptr -= 1
            self._cur = p
            self._phase = DRAW
        elif tag == _UNDO_PILE:
            _, p, self._hand[p], self._known[p], c, self._piles[c], self._nonempty, self._ban = record
            self._stall -= 1
            self._cur = p
            self._phase = DRAW
        else:
            (_, self._cur, self._phase, self._ban, hand, exp, known, piles, self._nonempty, self._ptr,
             self._stall, self._draw, self._rr) = record
            self._hand, self._exp, self._known, self._piles = list(hand), list(exp), list(known), list(piles)
        self.history.pop()
        self._logc = None

    def _copy_fields(self, s: LostCitiesState) -> None:
        s._cur, s._phase, s._ban = self._cur, self._phase, self._ban
        s._hand, s._exp, s._known = self._hand.copy(), self._exp.copy(), self._known.copy()
        s._piles, s._nonempty = self._piles.copy(), self._nonempty
        s._ptr, s._stall, s._draw, s._rr = self._ptr, self._stall, self._draw, self._rr

    def clone(self) -> LostCitiesState:
        s = LostCitiesState(self._g, self.seed, self.decks, _empty=True)
        s.history = self.history.copy()
        s._stack = self._stack.copy()
        self._copy_fields(s)
        return s

    # --- outcome -------------------------------------------------------------
    def scores(self) -> list[int]:
        """Match totals of the finished rounds, per seat."""
        return list(self._rr[2])

    def returns(self) -> list[float]:
        if self._cur >= 0:
            return [0.0, 0.0]
        a, b = self._rr[2]
        if a == b:
            return [0.0, 0.0]
        return [1.0, -1.0] if a > b else [-1.0, 1.0]

    def result(self) -> dict[str, JSON]:
        totals = self._rr[2]
        winner = None
        if self._cur < 0 and totals[0] != totals[1]:
            winner = 0 if totals[0] > totals[1] else 1
        return {
            "returns": self.returns(),
            "scores": list(totals),
            "round_scores": [list(s) for s in self._rr[3]],
            "winner": winner,
        }

    # --- information -----------------------------------------------------------
    def _names_of(self, s: int) -> list[str]:
        return [EXPEDITION_NAMES[k] for k in _set_kinds(s, self._C)]

    def _expedition_view(self, s: int) -> dict[str, list[str]]:
        view: dict[str, list[str]] = {COLOR_LETTERS[c]: [] for c in range(self._C)}
        for k in _set_kinds(s, self._C):
            view[COLOR_LETTERS[k // 10]].append(EXPEDITION_NAMES[k])
        return view

    def round_log(self) -> list[dict[str, JSON]]:
        """LC-8: the public actions of the current round (cards taken from piles named).

        Built incrementally: a cache of ``(player, action, card)`` entries and the
        replayed discard piles is extended as the history grows (``undo_action``
        drops it).
        """
        g = self._g
        start, starter = self._rr[5], self._rr[1]
        cache = self._logc
        if cache is None or cache[0] != start or start + len(cache[1]) > len(self.history):
            cache = self._logc = (start, [], [[] for _ in range(self._C)])
        entries, piles = cache[1], cache[2]
        dd = g.draw_deck_action
        names = g._names
        for i in range(len(entries), len(self.history) - start):
            a = self.history[start + i]
            card = ""
            if a < dd:
                c, r = divmod(a, 20)
                kind = 10 * c + r % 10
                card = EXPEDITION_NAMES[kind]
                if r >= 10:
                    piles[c].append(kind)
            elif a > dd:
                card = EXPEDITION_NAMES[piles[a - dd - 1].pop()]
            entries.append((starter ^ ((i >> 1) & 1), names[a], card))
        return [{"player": p, "action": n, "card": c} if c else {"player": p, "action": n} for p, n, c in entries]

    def view(self, player: int) -> dict[str, JSON]:
        """LC-8 view of ``player``.

        ``scores`` are the match totals of finished rounds; ``expedition_scores``
        what each seat's expeditions would score if the round ended now (LC-6).
        ``opponent_known`` lists the cards the opponent took from discard piles
        and still holds (a lower bound on their hand); ``hand_sizes`` and ``known``
        give both seats' (public, as in :meth:`public_view`).
        """
        if player not in (0, 1):
            raise ValueError(f"player must be 0 or 1, not {player!r}")
        return self._view(player)

    def public_view(self) -> dict[str, JSON]:
        """LC-8 public view: a seat's view without its ``hand`` and the
        ``opponent_…`` keys (``hand_sizes`` and ``known`` give both seats')."""
        return self._view(None)

    def _view(self, player: int | None) -> dict[str, JSON]:
        C = self._C
        index, starter, totals, round_scores, summaries, _start = self._rr
        phase = "over" if self._cur < 0 else ("play" if self._phase == PLAY else "draw")
        banned = None
        if self._ban:
            banned = COLOR_LETTERS[self._ban.bit_length() - 1]
        view: dict[str, JSON] = {
            "game": self._g.name,
            "player": player,
            "current_player": self._cur,
            "colors": list(COLOR_LETTERS[:C]),
            "rounds": self._g.config.rounds,
            "round": index + 1,
            "starter": starter,
            "phase": phase,
            "banned": banned,
            "hand_sizes": [_set_size(self._hand[s], C) for s in range(2)],
            "known": [self._names_of(self._known[s]) for s in range(2)],
            "expeditions": [self._expedition_view(self._exp[s]) for s in range(2)],
            "expedition_scores": [[expedition_score(self._exp[s], c, self._g.score_table) for c in range(C)]
                                  for s in range(2)],
            "discards": {COLOR_LETTERS[c]: [EXPEDITION_NAMES[k] for k in _pile_kinds(self._piles[c])] for c in range(C)},
            "draw_pile": len(self._draw) - self._ptr,
            "turns_without_deck_draw": self._stall,
            "log": self.round_log(),
            "scores": list(totals),
            "round_scores": [list(s) for s in round_scores],
            "round_summaries": [
                {
                    "round": i + 1,
                    "starter": s_starter,
                    "scores": list(s_scores),
                    "expeditions": [{letter: list(names) for letter, names in e} for e in s_exp],
                    "expedition_scores": [list(x) for x in s_per],
                }
                for i, (s_starter, s_exp, s_per, s_scores) in enumerate(summaries)
            ],
        }
        if player is not None:
            opp = 1 - player
            view["hand"] = self._names_of(self._hand[player])
            view["opponent_hand_size"] = _set_size(self._hand[opp], C)
            view["opponent_known"] = self._names_of(self._known[opp])
        return view

    def resample(self, player: int, rng: random.Random) -> LostCitiesState:
        """Redraw the opponent's unknown cards and the draw pile (LC-8).

        The unseen pool is every card minus ``player``'s hand, both expeditions,
        the discard piles and the opponent's known cards, in sorted order; it is
        shuffled with ``rng``, the opponent gets its known cards plus the first
        cards of the pool, the rest becomes the draw pile; future rounds are
        re-seeded with ``rng.getrandbits(63)``.
        """
        if player not in (0, 1):
            raise ValueError(f"player must be 0 or 1, not {player!r}")
        C = self._C
        opp = 1 - player
        counts = [3 if k % 10 == 0 else 1 for k in range(10 * C)]
        for cards in (self._hand[player], self._exp[0], self._exp[1], self._known[opp]):
            for k in _set_kinds(cards, C):
                counts[k] -= 1
        for c in range(C):
            for k in _pile_kinds(self._piles[c]):
                counts[k] -= 1
        pool = [k for k in range(10 * C) for _ in range(counts[k])]
        rng.shuffle(pool)
        new_seed = rng.getrandbits(63)
        hidden = _set_size(self._hand[opp], C) - _set_size(self._known[opp], C)
        if hidden < 0 or len(pool) != hidden + len(self._draw) - self._ptr:  # pragma: no cover - invariant
            raise AssertionError("inconsistent card counts in resample")
        opp_hand = self._known[opp] | (self._hand[opp] & _TOPS_BITS)
        for k in pool[:hidden]:
            opp_hand = _set_add(opp_hand, k)
        s = LostCitiesState(self._g, new_seed, None, _empty=True)
        s.history = self.history.copy()
        self._copy_fields(s)
        s._hand[opp] = opp_hand
        s._draw = tuple(pool[hidden:])
        s._ptr = 0
        return s

    def __str__(self) -> str:
        C = self._C
        index, starter, totals, round_scores, _summaries, start = self._rr
        phase = "over" if self._cur < 0 else ("play" if self._phase == PLAY else "draw")
        banned = COLOR_LETTERS[self._ban.bit_length() - 1] if self._ban else "-"
        lines = [
            f"lost-cities colors={C} rounds={self._g.config.rounds} seed={self.seed} "
            f"decks={'explicit' if self.decks is not None else 'seeded'} moves={len(self.history)}",
            f"round {index + 1} starter {starter} to-move {self._cur} phase {phase} banned {banned} "
            f"stall {self._stall} round-start {start}",
            f"totals {totals[0]} {totals[1]} rounds {[list(s) for s in round_scores]}",
        ]
        for s in range(2):
            exp = " ".join(f"{COLOR_LETTERS[c]}:{','.join(v) or '-'}" for c, v in
                           enumerate(self._expedition_view(self._exp[s]).values()))
            lines.append(f"seat {s} hand [{' '.join(self._names_of(self._hand[s]))}] "
                         f"known [{' '.join(self._names_of(self._known[s]))}] exp {exp}")
        piles = " ".join(f"{COLOR_LETTERS[c]}:{','.join(EXPEDITION_NAMES[k] for k in _pile_kinds(self._piles[c])) or '-'}"
                         for c in range(C))
        lines.append(f"discards {piles}")
        lines.append(f"draw pile ({len(self._draw) - self._ptr}, top first) "
                     + " ".join(EXPEDITION_NAMES[k] for k in self._draw[self._ptr:]))
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<LostCitiesState seed={self.seed} moves={len(self.history)} round={self._rr[0] + 1}>"

    # --- fast read-only accessors (the heuristic and the search's play-outs) -------------
    # Small ints in the card-set layout at the top of the module; nothing is copied.
    @property
    def colors(self) -> int:
        """Colours in play (5, or 6 with purple)."""
        return self._C

    @property
    def phase(self) -> int:
        """:data:`PLAY` or :data:`DRAW`: the half of the turn the seat to move is in."""
        return self._phase

    @property
    def round_index(self) -> int:
        """The round being played, from 0 (the last one once the match is over)."""
        return self._rr[0]

    @property
    def match_totals(self) -> tuple[int, int]:
        """Match points of the finished rounds, per seat (LC-7)."""
        return self._rr[2]

    @property
    def rounds_played(self) -> int:
        """Rounds finished."""
        return len(self._rr[3])

    @property
    def draw_pile_size(self) -> int:
        """Cards left in the draw pile (LC-5)."""
        return len(self._draw) - self._ptr

    @property
    def drawable_piles(self) -> int:
        """Colours whose discard pile the seat to move may take from, as a bitmask (bit
        ``c``): not empty and not discarded onto this turn (LC-4)."""
        return self._nonempty & ~self._ban

    def discard_top(self, colour: int) -> int:
        """The kind on top of ``colour``'s discard pile, -1 when it is empty."""
        return (self._piles[colour] & 63) - 1

    def hand_set(self, seat: int) -> int:
        """The card set of ``seat``'s hand (true state: the opponent's is hidden, LC-8)."""
        return self._hand[seat] & _CARD_BITS

    def hand_size(self, seat: int) -> int:
        """How many cards ``seat`` holds (public, LC-8)."""
        h = self._hand[seat]
        return (h & _NUMBER_BITS).bit_count() + (h & _WAGER_LOW).bit_count() + 2 * (h & _WAGER_HIGH).bit_count()

    def expedition_set(self, seat: int) -> int:
        """The card set of ``seat``'s expeditions (public)."""
        return self._exp[seat]

    def known_set(self, seat: int) -> int:
        """The card set of the cards ``seat`` took from discard piles and still holds (LC-8)."""
        return self._known[seat]

    def discard_pile(self, colour: int) -> tuple[int, ...]:
        """The kinds on ``colour``'s discard pile, bottom to top (public, LC-8)."""
        return tuple(_pile_kinds(self._piles[colour]))

    def draw_pile(self) -> tuple[int, ...]:
        """The draw pile's kinds, top first (true state: hidden from both seats, LC-8)."""
        return self._draw[self._ptr:]

    @property
    def turns_without_deck_draw(self) -> int:
        """Turns in a row without a draw-pile card (the LC-5 safeguard counts to 100)."""
        return self._stall

    @property
    def round_starter(self) -> int:
        """The seat that started the current round (LC-7)."""
        return self._rr[1]
