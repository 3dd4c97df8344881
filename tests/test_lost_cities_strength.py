"""Lost Cities strength (issue #16): the frozen pool of styles the search is never tuned
against, the search's opponent mixture, and the CPU-time budget (docs/strength.md)."""

from __future__ import annotations

import pytest

from cardtable.games.lost_cities import LostCities
from cardtable.games.lost_cities.heuristic import POOL, STYLES, LostCitiesStyle
from cardtable.lab.series import play_match

FROZEN_POOL = {
    "cautious": LostCitiesStyle(start_margin=4.0, extra_margin=8.0, wager_min_numbers=3, future_share=0.6,
                                conservative=0.8, deck_value=2.5, denial=0.25, tempo_weight=6.0),
    "eager": LostCitiesStyle(start_margin=-10.0, extra_margin=2.0, wager_min_numbers=2, future_share=0.75,
                             conservative=1.3, deck_value=2.5, denial=0.25, tempo_weight=6.0),
    "hasty": LostCitiesStyle(start_margin=0.0, extra_margin=6.0, wager_min_numbers=3, future_share=0.6,
                             conservative=0.9, deck_value=3.5, denial=0.25, tempo_weight=12.0),
}
"""The pool as it was defined before any tuning of the search (commit "frozen pool"):
every setting written out, so that a change of a default cannot move them either."""


def test_the_pool_is_frozen() -> None:
    """The pool's settings never change: the search's strength against it is measured on
    players it was not tuned against (issue #16)."""
    assert POOL == tuple(FROZEN_POOL)
    assert {name: STYLES[name] for name in POOL} == FROZEN_POOL
    assert not {"steady", "bold"} & set(POOL), "the tuning opponents are not in the pool"
    assert len(set(FROZEN_POOL.values()) | {STYLES["steady"], STYLES["bold"]}) == len(POOL) + 2


@pytest.mark.parametrize("style", POOL)
def test_each_pool_style_is_a_sane_bot(style: str) -> None:
    """Each pool style plays whole 3-round matches and wins them against ``random``,
    from both seats."""
    game = LostCities()
    for match in range(2):
        outcome = play_match(game, (f"heuristic:style={style}", "random"), seed=40 + match, match_index=match)
        seat = outcome.seating.index(0)
        assert len(outcome.scores) == 2 and outcome.returns[seat] > 0, (style, match, outcome.scores)
