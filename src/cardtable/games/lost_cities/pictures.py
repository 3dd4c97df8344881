"""How the rule texts' card pictures (:mod:`cardtable.rules.pictures`) write this game's cards."""

from __future__ import annotations

from typing import Final

NOTATION: Final = "expedition"
"""The game is played with the expedition cards of :mod:`cardtable.cards` (``Y7``, ``Yw``)."""
