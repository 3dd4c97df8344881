"""How the rule texts' card pictures (:mod:`cardtable.rules.pictures`) write this game's cards."""

from __future__ import annotations

from typing import Final

NOTATION: Final = "french"
"""The game is played with the French cards of :mod:`cardtable.cards` (``10H``, ``QS``, ``JK``)."""
