"""Short keys for the terminal's moves that keep one meaning for the whole match.

A bare number always names a card of the player's hand, in the order the hand is
shown, and always means the game's main way of using it (play it): ``3`` is "play
hand card 3" on every turn, or a clear refusal when card 3 cannot be played now.
Every other kind of move has its own letter, fixed per game: a letter before a
number (``x3``: discard hand card 3; ``p1``: play the first of the two drawn
phantom cards) or a key of its own (``d``: draw; ``dy``: take the top of the yellow
discard pile).  Each game's renderer declares its :class:`KeyScheme` as ``KEYS``;
:func:`assign` applies it to one turn's legal moves, and the play loop shows the
resulting mapping every turn.

>>> scheme = KeyScheme(numbered={"play": ("", "hand"), "discard": ("x", "hand")},
...                    named={"draw deck": "d"})
>>> view = {"hand": ["Y7", "B2"]}
>>> assign(scheme, view, ["discard B2", "play Y7", "draw deck"])
[['x2'], ['1'], ['d']]
>>> assign(scheme, view, ["discard Y7", "play B2"])
[['x1'], ['2']]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

CardSource = Callable[[Mapping[str, Any]], Sequence[str]]
"""The numbered cards of one kind of move, read from the seat's view."""


def hand_cards(view: Mapping[str, Any]) -> Sequence[str]:
    """The seat's hand, in the order the renderer shows it."""
    hand = view.get("hand")
    return [str(card) for card in hand] if isinstance(hand, list) else []


@dataclass(frozen=True)
class KeyScheme:
    """How a game's moves are keyed at the terminal.

    ``numbered`` maps a move's verb (its first word) to ``(prefix, source)``: the move
    ``"<verb> <card>"`` gets the key ``prefix + i`` where ``card`` is the ``i``-th card
    (1-based) of ``source`` — ``"hand"`` for the hand, or the name of a :data:`CardSource`
    in ``sources``.  Exactly one verb has the empty prefix: the bare numbers.
    ``named`` maps a whole move text to its key.  ``legend`` is the one-line explanation
    of the keys shown every turn, per language.
    """

    numbered: Mapping[str, tuple[str, str]]
    named: Mapping[str, str] = field(default_factory=dict)
    sources: Mapping[str, CardSource] = field(default_factory=dict)
    legend: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        bare = [verb for verb, (prefix, _) in self.numbered.items() if not prefix]
        if len(bare) != 1:
            raise ValueError(f"exactly one verb keys by a bare number, not {bare}")

    @property
    def bare_verb(self) -> str:
        """The verb a bare number stands for (``play``)."""
        return next(verb for verb, (prefix, _) in self.numbered.items() if not prefix)

    def cards(self, source: str, view: Mapping[str, Any]) -> Sequence[str]:
        """The numbered cards of ``source`` in ``view``."""
        return hand_cards(view) if source == "hand" else self.sources[source](view)

    def resolve(self, key: str, view: Mapping[str, Any]) -> str | None:
        """The move text ``key`` stands for by the scheme alone (legal or not), or ``None``.

        >>> KeyScheme(numbered={"play": ("", "hand")}).resolve("2", {"hand": ["Y7", "B2"]})
        'play B2'
        """
        key = key.lower()
        for text, named in self.named.items():
            if key == named:
                return text
        for verb, (prefix, source) in self.numbered.items():
            digits = key[len(prefix):]
            if key.startswith(prefix) and digits.isdigit():
                cards = self.cards(source, view)
                index = int(digits)
                return f"{verb} {cards[index - 1]}" if 1 <= index <= len(cards) else None
        return None


def assign(scheme: KeyScheme, view: Mapping[str, Any], moves: Sequence[str]) -> list[list[str]]:
    """The keys of each move in ``moves`` (every position of its card; usually one key).

    A move the scheme does not key gets none here: the caller still accepts its full
    notation.
    """
    out: list[list[str]] = []
    for text in moves:
        if text in scheme.named:
            out.append([scheme.named[text]])
            continue
        verb, _, card = text.partition(" ")
        keyed = scheme.numbered.get(verb)
        if keyed is None or not card:
            out.append([])
            continue
        prefix, source = keyed
        cards = [c.upper() for c in scheme.cards(source, view)]
        out.append([f"{prefix}{i}" for i, c in enumerate(cards, start=1) if c == card.upper()])
    return out
