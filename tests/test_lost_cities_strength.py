"""Lost Cities strength (issue #16): the frozen pool of styles the search is never tuned
against, the search's opponent mixture, and the CPU-time budget (docs/strength.md)."""

from __future__ import annotations

import random

import pytest

from cardtable.agents import Observation, make_agent
from cardtable.agents import search as search_module
from cardtable.agents.search import SearchParams, search
from cardtable.games.lost_cities import LostCities, LostCitiesState
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


# ---------------------------------------------------------------------------
# The CPU-time budget (``cpu=true``)


class ThreadClock:
    """Stands in for the ``time`` module of :mod:`cardtable.agents.search`: its
    ``thread_time`` advances ``tick`` seconds at every reading (a clock the test drives),
    and reading the wall clock is an error."""

    def __init__(self, tick: float) -> None:
        self.tick = tick
        self.now = 0.0
        self.readings = 0

    def thread_time(self) -> float:
        self.now += self.tick
        self.readings += 1
        return self.now

    def perf_counter(self) -> float:
        raise AssertionError("a cpu=true budget must not read the wall clock")


def _decision(seed: int, moves: int) -> Observation:
    """A Lost Cities position after ``moves`` random moves where the seat to move has a choice."""
    state = LostCities().new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        state.apply_action(rng.choice(state.legal_actions()))
    while len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[0])
    assert isinstance(state, LostCitiesState)
    return Observation.of(state)


@pytest.mark.parametrize("mode", ["pimc", "ismcts"])
def test_cpu_budget_ends_on_the_thread_clock(mode: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``cpu=true``: ``seconds`` are read on the thread's CPU clock only, and the search stops
    at the first reading past its budget (a driven clock: no timing)."""
    obs = _decision(seed=5, moves=8)
    for tick in (0.02, 0.005):
        clock = ThreadClock(tick)
        monkeypatch.setattr(search_module, "time", clock)
        stats = search(obs, SearchParams(seconds=0.2, cpu=True, mode=mode), seed=3)
        assert clock.readings >= 2
        assert 0.2 <= stats.seconds <= 0.2 + 2 * tick + 1e-9, (mode, tick, stats.seconds)
        assert 1 <= stats.iterations <= 0.2 / tick + 1, (mode, tick, stats.iterations)


def test_cpu_option_reaches_the_levels() -> None:
    """``hard:cpu=true`` is the arena's CPU-time ``hard`` (0.7 s of the thread's CPU time)."""
    game = LostCities()
    hard = make_agent("hard:cpu=true", game, seed=0)
    assert hard.params.cpu and hard.params.seconds == 0.7  # type: ignore[attr-defined]
    assert not make_agent("hard", game, seed=0).params.cpu  # type: ignore[attr-defined]
    assert SearchParams(seconds=1.0).clock() is not SearchParams(seconds=1.0, cpu=True).clock()
