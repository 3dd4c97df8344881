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
from cardtable.games.lost_cities.knowledge import RANDOM_RANGES, RANDOMISED, LostCitiesKnowledge, OpponentMixture
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


# ---------------------------------------------------------------------------
# The opponent mixture


MIXED = OpponentMixture((("steady", 1.0), ("bold", 1.0), (RANDOMISED, 1.0)))


def test_mixture_draws_are_deterministic_and_follow_the_weights() -> None:
    """The same seed draws the same opponents; the shares follow the weights; randomised
    settings stay in their ranges."""
    draws = [MIXED.draw(random.Random(9)) for _ in range(2)]
    assert draws[0] == draws[1]
    rng = random.Random(4)
    seen = [MIXED.draw(rng) for _ in range(3000)]
    named = {STYLES["steady"]: 0, STYLES["bold"]: 0}
    for style in seen:
        if style in named:
            named[style] += 1
        else:
            for name, (low, high) in RANDOM_RANGES.items():
                assert low <= getattr(style, name) <= high, (name, style)
    assert all(abs(n / 3000 - 1 / 3) < 0.04 for n in named.values()), named
    assert len(set(seen)) > 900, "randomised opponents differ from world to world"
    one = OpponentMixture((("steady", 2.0),))
    assert {one.draw(rng) for _ in range(20)} == {STYLES["steady"]}


@pytest.mark.parametrize("parts,message", [
    ((("wild", 1.0),), "unknown mixture part 'wild'"),
    ((("bold", 0.0),), "weight of 'bold' must be positive"),
    ((), "at least one part"),
])
def test_mixture_refuses_bad_parts(parts: tuple[tuple[str, float], ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        OpponentMixture(parts)


def _mixed_knowledge(game: LostCities) -> LostCitiesKnowledge:
    kn = LostCitiesKnowledge(game)
    kn.mixture = MIXED
    return kn


def test_search_with_a_mixture_is_deterministic_and_paired() -> None:
    """A seeded search with the mixture finds the same statistics twice; each world's
    root moves meet one opponent (the one drawn with the world), and the worlds meet
    several."""
    game = LostCities()
    obs = _decision(seed=11, moves=20)
    kn = _mixed_knowledge(game)
    first, second = (search(obs, SearchParams(iterations=120), seed=7, knowledge=kn) for _ in range(2))
    assert first.visits == second.visits and first.value_sums == second.value_sums
    met: list[LostCitiesStyle] = []
    rng = random.Random(2)
    for _ in range(30):
        world = kn.sample_world(obs, rng)
        style = kn.world_opponent()
        assert kn.world_opponent() == style and kn.rollout_for(obs.player)  # unchanged until the next world
        met.append(style)
        del world
    assert len(set(met)) >= 3


def test_mixture_play_outs_are_the_same_in_the_kernel() -> None:
    """The kernel's play-outs meet the same drawn opponent as the Python ones: the
    same statistics with and without the kernel (``kernel=False``)."""
    pytest.importorskip("numba", reason="the kernels are the optional extra 'fast'")
    game = LostCities()
    kn = _mixed_knowledge(game)
    for seed, moves in ((3, 10), (8, 40)):
        obs = _decision(seed=seed, moves=moves)
        stats = [search(obs, SearchParams(iterations=60, kernel=k), seed=seed, knowledge=kn) for k in (True, False)]
        assert stats[0].visits == stats[1].visits and stats[0].steps == stats[1].steps
        assert stats[0].value_sums == pytest.approx(stats[1].value_sums, abs=1e-9)
