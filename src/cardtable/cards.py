"""Cards as small ints, with precomputed name tables and a canonical notation.

Two decks are used by cardtable's games.

**French cards** (Lost Ranks, Ранг): ``card = suit * 13 + rank`` with ranks
``2 3 4 5 6 7 8 9 10 J Q K A`` (index 0..12) and suits ``C D H S`` (index 0..3);
the joker is card 52.  The canonical notation is rank then suit::

    >>> parse_french("10H"), french_name(34)
    (34, '10H')
    >>> french_name(parse_french("jk")), french_name(parse_french("Q♦"))
    ('JK', 'QD')
    >>> pretty_french(parse_french("AS"))
    'A♠'

**Expedition cards** (Lost Cities) are *kinds*: ``kind = colour * 10 + value``
where ``value`` 0 is a wager and 1..9 are the numbers 2..10.  Colours are
``Y B W G R`` and ``P`` (purple, six-colour variant).  The notation is the
colour letter then the number, or ``w`` for a wager::

    >>> parse_expedition("Y7"), expedition_name(6), expedition_name(40)
    (6, 'Y7', 'Rw')
    >>> [expedition_name(k) for k in (0, 9, 59)]
    ['Yw', 'Y10', 'P10']
"""

from __future__ import annotations

from typing import Final, Iterator, TypeAlias

Card: TypeAlias = int
"""A card (French) or card kind (expedition) as a small int."""

# ---------------------------------------------------------------------------
# French cards

RANK_NAMES: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUIT_NAMES: Final = ("C", "D", "H", "S")
SUIT_SYMBOLS: Final = ("♣", "♦", "♥", "♠")
SUIT_WORDS: Final = ("clubs", "diamonds", "hearts", "spades")
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(13)
JOKER: Final = 52
FRENCH_CARDS: Final = 53
"""Number of distinct French card ids, joker included."""

FRENCH_NAMES: Final[tuple[str, ...]] = tuple(
    [RANK_NAMES[c % 13] + SUIT_NAMES[c // 13] for c in range(52)] + ["JK"]
)
FRENCH_PRETTY: Final[tuple[str, ...]] = tuple(
    [RANK_NAMES[c % 13] + SUIT_SYMBOLS[c // 13] for c in range(52)] + ["🃏"]
)

_SUIT_ALIASES = {**{s: i for i, s in enumerate(SUIT_NAMES)}, **{s: i for i, s in enumerate(SUIT_SYMBOLS)}}
_SUIT_ALIASES.update({"♤": SPADES, "♡": HEARTS, "♢": DIAMONDS, "♧": CLUBS})
_RANK_ALIASES = {**{r: i for i, r in enumerate(RANK_NAMES)}, "T": TEN, "1": ACE}


def french_card(rank: int, suit: int) -> Card:
    """The card of ``rank`` (0 = two … 12 = ace) and ``suit`` (0 = clubs … 3 = spades)."""
    return suit * 13 + rank


def rank_of(card: Card) -> int:
    """Rank index 0..12 of a non-joker card."""
    return card % 13


def suit_of(card: Card) -> int:
    """Suit index 0..3 of a non-joker card."""
    return card // 13


def french_name(card: Card) -> str:
    """Canonical name: ``"10H"``, ``"QD"``, ``"JK"``."""
    return FRENCH_NAMES[card]


def pretty_french(card: Card) -> str:
    """Display name with a suit symbol: ``"10♥"``."""
    return FRENCH_PRETTY[card]


def parse_french(text: str) -> Card:
    """Parse a French card name (case-insensitive; ``T`` for ten and suit symbols allowed).

    Raises ``ValueError`` naming what was wrong.
    """
    t = text.strip().upper()
    if t in ("JK", "JOKER", "🃏", "*"):
        return JOKER
    if len(t) < 2 or t[-1] not in _SUIT_ALIASES or t[:-1] not in _RANK_ALIASES:
        raise ValueError(
            f"{text!r} is not a card: write rank then suit, e.g. AS, 10H, QD, 7C, or JK for the joker"
        )
    return french_card(_RANK_ALIASES[t[:-1]], _SUIT_ALIASES[t[-1]])


# ---------------------------------------------------------------------------
# Expedition cards (Lost Cities)

COLOR_LETTERS: Final = "YBWGRP"
COLOR_WORDS: Final = ("yellow", "blue", "white", "green", "red", "purple")
WAGER: Final = 0
EXPEDITION_KINDS: Final = 60
"""Number of expedition card kinds over six colours (10 per colour)."""

EXPEDITION_NAMES: Final[tuple[str, ...]] = tuple(
    COLOR_LETTERS[k // 10] + ("w" if k % 10 == WAGER else str(k % 10 + 1)) for k in range(EXPEDITION_KINDS)
)
_EXPEDITION_LOOKUP = {name.upper(): k for k, name in enumerate(EXPEDITION_NAMES)}


def expedition_card(color: int, number: int | None) -> Card:
    """Kind of a number card (``number`` 2..10) or a wager (``number`` None)."""
    return color * 10 + (WAGER if number is None else number - 1)


def color_of(kind: Card) -> int:
    """Colour index 0..5 of an expedition kind."""
    return kind // 10


def number_of(kind: Card) -> int:
    """Face value 2..10 of a number card; 0 for a wager."""
    v = kind % 10
    return 0 if v == WAGER else v + 1


def expedition_name(kind: Card) -> str:
    """Canonical name: ``"Y7"``, ``"Rw"``, ``"P10"``."""
    return EXPEDITION_NAMES[kind]


def parse_expedition(text: str, colors: int = 6) -> Card:
    """Parse an expedition card name such as ``Y7``, ``rw`` or ``B10`` (case-insensitive).

    ``colors`` limits the accepted colour letters (5 → no purple).
    """
    t = text.strip().upper()
    kind = _EXPEDITION_LOOKUP.get(t)
    if kind is None or kind // 10 >= colors:
        letters = " ".join(COLOR_LETTERS[:colors])
        raise ValueError(
            f"{text!r} is not a card: write a colour letter ({letters}) then 2-10 or w for a wager, e.g. Y7, Rw"
        )
    return kind


def bit_list(mask: int) -> list[int]:
    """The indices of the set bits of ``mask``, lowest first, as a list (hot paths).

    >>> bit_list(0b101001)
    [0, 3, 5]
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def bits(mask: int) -> Iterator[int]:
    """Yield the indices of the set bits of ``mask``, lowest first.

    >>> list(bits(0b101001))
    [0, 3, 5]
    """
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
