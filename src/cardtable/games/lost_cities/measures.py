"""What a Lost Cities match did, for the lab (:func:`cardtable.lab.measures.measures_of`).

Per match: ``rounds``; ``first_player`` (who started round 1); ``margin`` (score
difference); ``eight_card_bonuses`` (expeditions of 8+ cards, LC-6); ``wagers_played``
(the LC-5 stalling safeguard shows once its typed event lands).
"""

from __future__ import annotations

from cardtable.protocol import State


def final_measures(state: State) -> dict[str, float]:
    """The measures read from a finished match's final state."""
    view = state.public_view()
    scores = state.result()["scores"]
    summaries = view.get("round_summaries", [])
    piles = [pile for summary in summaries for side in summary["expeditions"] for pile in side.values()]
    return {
        "rounds": float(len(summaries)),
        "first_player": float(summaries[0]["starter"]) if summaries else 0.0,
        "margin": float(abs(scores[0] - scores[1])),
        "eight_card_bonuses": float(sum(1 for pile in piles if len(pile) >= 8)),
        "wagers_played": float(sum(1 for pile in piles for card in pile if card.endswith("w"))),
    }
