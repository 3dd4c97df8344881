"""Card pictures in the rule texts: fenced ``cards`` blocks.

A picture is a fenced code block whose info string is ``cards``; each line is one row
of cards (the syntax is documented in ``README.md`` next to this module)::

    ```cards
    Seat 0: 5D
    Seat 1: 9D* -> wins the trick
    ```

* ``LABEL:`` (optional) names the row — a seat, a pile, a step of play;
* the cards are written in the game's notation, separated by spaces (``Y7``, ``Yw``
  in Lost Cities; ``10H``, ``QS``, ``JK`` in the other games); a ``*`` after a card
  marks it (the winning card, the card just played); ``??`` is a face-down card;
* ``-> NOTE`` (optional) ends the row with a note — a score, who wins.

The server draws the cards like the table does, the terminal writes their names
(:func:`picture_text`).

>>> picture = parse_picture("Seat 1: 9D* JK -> wins\\n?? 10H", "lost-ranks")
>>> [(row.label, [c.name for c in row.cards], row.note) for row in picture.rows]
[('Seat 1', ['9D', 'JK'], 'wins'), ('', ['??', '10H'], '')]
>>> print(picture_text(picture, "lost-ranks"))
Seat 1:  [9♦] JK  → wins
         ?? 10♥
>>> parse_picture("Y7 Y11", "lost-cities")
Traceback (most recent call last):
...
cardtable.rules.pictures.PictureError: cards picture, line 1: 'Y11' is not a card: write a colour letter (Y B W G R P) then 2-10 or w for a wager, e.g. Y7, Rw
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from cardtable.cards import JOKER, expedition_name, french_name, parse_expedition, parse_french, pretty_french
from cardtable.registry import game_part

FENCE_INFO: Final = "cards"
"""The info string of a picture's fenced block."""

HIDDEN: Final = "??"
"""A face-down card in a picture."""

NOTATIONS: Final = ("expedition", "french")
"""The card notations a game's ``pictures`` part may name as its ``NOTATION``."""

_FENCE = re.compile(rf"^```{FENCE_INFO}[ \t]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)


class PictureError(ValueError):
    """A picture that does not follow the syntax; the message names the line."""


@dataclass(frozen=True)
class PictureCard:
    """One card of a row: its canonical name (or ``??``) and whether it is marked."""

    name: str
    marked: bool = False

    @property
    def hidden(self) -> bool:
        return self.name == HIDDEN


@dataclass(frozen=True)
class PictureRow:
    """A row of a picture: its label (may be empty), its cards and its note (may be empty)."""

    label: str
    cards: tuple[PictureCard, ...]
    note: str = ""


@dataclass(frozen=True)
class Picture:
    """A card picture: rows of cards, top to bottom."""

    rows: tuple[PictureRow, ...]


def notation_of(game: str) -> str:
    """The card notation of ``game`` (:data:`NOTATIONS`), from its ``pictures`` part.

    >>> notation_of("lost-cities"), notation_of("rank")
    ('expedition', 'french')
    """
    notation: str | None = getattr(game_part(game, "pictures"), "NOTATION", None)
    if notation not in NOTATIONS:
        raise ValueError(f"game {game!r} names no card notation for pictures ({', '.join(NOTATIONS)})")
    return notation


def canonical_card(text: str, game: str) -> str:
    """The canonical name of a card of ``game`` (``y7`` → ``Y7``); ``ValueError`` if it is none."""
    if notation_of(game) == "expedition":
        return expedition_name(parse_expedition(text))
    return french_name(parse_french(text))


def _parse_row(line: str, game: str) -> PictureRow:
    body, _, note = line.partition("->")
    label, colon, cards_text = body.rpartition(":")
    if not colon:
        label, cards_text = "", body
    cards: list[PictureCard] = []
    for word in cards_text.split():
        marked = word.endswith("*")
        word = word.rstrip("*")
        cards.append(PictureCard(HIDDEN if word == HIDDEN else canonical_card(word, game), marked))
    if not cards:
        raise ValueError("a row needs at least one card")
    return PictureRow(label.strip(), tuple(cards), note.strip())


def parse_picture(text: str, game: str) -> Picture:
    """The picture written in ``text`` (the body of a ``cards`` block) for ``game``."""
    rows: list[PictureRow] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            rows.append(_parse_row(line, game))
        except ValueError as err:
            raise PictureError(f"{FENCE_INFO} picture, line {number}: {err}") from None
    if not rows:
        raise PictureError(f"{FENCE_INFO} picture: no rows")
    return Picture(tuple(rows))


def pictures_in(markdown: str) -> list[str]:
    """The bodies of the ``cards`` blocks of a Markdown text, in order."""
    return [match.group(1) for match in _FENCE.finditer(markdown)]


def card_text(card: PictureCard, game: str) -> str:
    """A card as the terminal writes it: ``9♦``, ``Yw``, ``JK``, ``??``; marked: ``[9♦]``."""
    if card.hidden or notation_of(game) == "expedition":
        name = card.name
    else:
        french = parse_french(card.name)
        name = "JK" if french == JOKER else pretty_french(french)
    return f"[{name}]" if card.marked else name


def picture_text(picture: Picture, game: str) -> str:
    """The picture as lines of card names, the labels aligned (for the terminal)."""
    width = max((len(row.label) + 1 for row in picture.rows if row.label), default=0)
    lines = []
    for row in picture.rows:
        label = f"{row.label}:" if row.label else ""
        cards = " ".join(card_text(card, game) for card in row.cards)
        note = f"  → {row.note}" if row.note else ""
        lines.append(f"{label:<{width}}  {cards}{note}".rstrip() if width else f"{cards}{note}")
    return "\n".join(lines)


def terminal_markdown(markdown: str, game: str) -> str:
    """``markdown`` with each ``cards`` block replaced by a plain block of card names."""
    return _FENCE.sub(lambda m: f"```text\n{picture_text(parse_picture(m.group(1), game), game)}\n```", markdown)


__all__ = [
    "FENCE_INFO", "NOTATIONS", "HIDDEN", "Picture", "PictureCard", "PictureError", "PictureRow",
    "canonical_card", "card_text", "notation_of", "parse_picture", "picture_text", "pictures_in", "terminal_markdown",
]
