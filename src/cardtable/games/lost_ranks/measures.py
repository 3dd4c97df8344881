"""What a Lost Ranks match did, for the lab (:func:`cardtable.lab.measures.measures_of`).

Per match: ``rounds``; ``margin`` (army score difference); ``tiebreak_rounds``; ``draw``
(1 if drawn); ``red_army_won``, ``black_army_won`` (:data:`SIDES`); ``no_winner_tricks``
(tricks nobody won, LR-11).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from cardtable.protocol import State

SIDES: Final = {"red_army_won": "the red army", "black_army_won": "the black army"}
"""Measure → side: sides that are not seats (Lost Ranks deals the armies to the
partnerships afresh each match, LR-3), whose fairness the report tests like the seats'."""


def final_measures(state: State) -> dict[str, float]:
    """The measures read from a finished match's result."""
    result = state.result()
    armies = list(result["army_scores"].values())
    winner = None if result["draw"] else result["winner"]
    return {
        "red_army_won": float(winner == "red"),
        "black_army_won": float(winner == "black"),
        "rounds": float(result["rounds"]),
        "margin": float(abs(armies[0] - armies[1])),
        "tiebreak_rounds": float(result["tiebreak_rounds"]),
        "draw": float(bool(result["draw"])),
    }


def event_measures(details: Sequence[Any]) -> dict[str, float]:
    """The measures read from a match's typed event details, in order."""
    return {"no_winner_tricks": float(sum(1 for d in details if d.kind == "no_winner_trick"))}
