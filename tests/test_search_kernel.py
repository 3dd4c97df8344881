"""The flat search's play-outs in the compiled Lost Cities kernel (``pip install 'cardtable[fast]'``).

The kernel plays the same moves as the Python play-out policy (the heuristic compiled
from the same decisions, ``tests/test_kernels.py``) and a round's play-out deals no new
cards, so a search with a fixed budget of play-outs finds exactly the same statistics
with and without the kernel — only faster.
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numba", reason="the kernels are the optional extra 'fast' (pip install 'cardtable[fast]')")

from cardtable.agents.base import Observation  # noqa: E402
from cardtable.agents.search import SearchParams, search  # noqa: E402
from cardtable.games.lost_cities import LostCities  # noqa: E402
from cardtable.games.lost_cities.heuristic import policy_action  # noqa: E402


@pytest.mark.parametrize("rounds", [1, 3])
def test_search_with_kernel_play_outs_finds_the_same_statistics(rounds: int) -> None:
    game = LostCities(rounds=rounds)
    compared = 0
    for seed in range(6):
        state = game.new_state(seed=seed)
        for move in range(70):
            if move % 10 == 3 and len(state.legal_actions()) > 1:
                obs = Observation.of(state)
                stats = [search(obs, SearchParams(iterations=60, kernel=kernel), seed=move) for kernel in (True, False)]
                assert stats[0].visits == stats[1].visits and stats[0].steps == stats[1].steps, (seed, move)
                assert stats[0].value_sums == pytest.approx(stats[1].value_sums, abs=1e-9), (seed, move)
                assert stats[0].choose() == stats[1].choose()
                compared += 1
            state.apply_action(policy_action(state))
            if state.is_terminal():
                break
    assert compared > 30


def test_a_designers_scoring_keeps_the_search_off_the_kernel() -> None:
    """The kernel compiles the published LC-6 scoring: with a changed expedition cost the
    search's play-outs stay in Python (their statistics follow the changed rules)."""
    from cardtable.registry import knowledge_class

    published, cheap = LostCities(), LostCities(cost=10)
    state = cheap.new_state(seed=3)
    assert knowledge_class("lost-cities")(published).kernel_playout(published.new_state(seed=3), 0, 0) is not None
    assert knowledge_class("lost-cities")(cheap).kernel_playout(state, 0, 0) is None
    obs = Observation.of(state)
    stats = [search(obs, SearchParams(iterations=40, kernel=kernel), seed=1) for kernel in (True, False)]
    assert stats[0].value_sums == pytest.approx(stats[1].value_sums, abs=1e-9)


@pytest.mark.parametrize("rounds", [1, 3])
def test_one_kernel_call_per_world_gives_the_one_by_one_play_outs(rounds: int) -> None:
    """``kernel_playouts`` (every root move of a world in one kernel call) gives, move for
    move, the value and the play-out length of ``kernel_playout`` on a clone with the move
    applied — also for a move that itself ends the round (the last draw-pile card, LC-5)
    and for both searching seats."""
    from cardtable.registry import knowledge_class

    game = LostCities(rounds=rounds)
    kn = knowledge_class("lost-cities")(game)
    compared = ended = 0
    for seed in range(8):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            if len(legal) > 1 and (rng.random() < 0.1 or state.draw_pile_size == 1):
                obs = Observation.of(state)
                world = kn.sample_world(obs, rng)
                root_round = kn.round_of(world)
                batched = kn.kernel_playouts(world, legal, root_round, obs.player)
                assert batched is not None
                for action, got in zip(legal, batched, strict=True):
                    one = world.clone()
                    one.apply_action(action)
                    ended += kn.cutoff(one, root_round)
                    assert got == kn.kernel_playout(one, root_round, obs.player), (seed, len(state.history), action)
                    compared += 1
            state.apply_action(policy_action(state) if len(legal) > 1 else legal[0])
            if state.round_index and rounds == 1:
                break
    assert compared > 500 and ended > 0
