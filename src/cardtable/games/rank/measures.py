"""What a Ранг match did, for the lab (:func:`cardtable.lab.measures.measures_of`).

Per match: ``pull_backs_won`` (the next player could play: the one who played out draws
back in, RG-6), ``pull_backs_failed`` (it could not: that player is out),
``anti_rank_declarations`` (RG-8).  Who is left in Rank is the headline outcome
(:data:`HEADLINE`): in Ранг nobody wins — one player is *left in Rank* (a loss) and the
rest escape.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

HEADLINE: Final = ("loss", "is left in Rank")
"""Which outcome the headline rate counts, and how to say it."""


def event_measures(details: Sequence[Any]) -> dict[str, float]:
    """The measures read from a match's typed event details, in order."""
    return {
        "pull_backs_won": float(sum(1 for d in details if d.kind == "pull_back")),
        "pull_backs_failed": float(sum(1 for d in details if d.kind == "player_out" and d.by is not None)),
        "anti_rank_declarations": float(sum(1 for d in details if d.kind == "anti_rank_declared")),
    }
