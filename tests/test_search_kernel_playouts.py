"""The search's play-outs in the Lost Ranks and Ранг kernels (``pip install 'cardtable[fast]'``).

* **Export**: a state (the true one, or a world the searcher sampled) exported to the
  kernel's vector offers the engine's legal moves, and the same moves keep both in step
  to the end of the round (Lost Ranks) or the game (Ранг).
* **One policy**: the play-out policy is written once (``games/lost_ranks/rollout.py``,
  ``games/rank/rollout.py``) and compiled for the kernel; fed the same random numbers
  (numba's generator seeded with ``s`` and Python's ``random`` set to numpy's stream for
  ``s``: both MT19937), the kernel and the Python play-out play the same moves, and their
  value estimates over many play-outs agree within their intervals.
* **The tree search** plays out in the kernel (``kernel_values``) with legal moves and
  ends every budget (iterations-only, steps-only) late in a round; a designer's rules,
  which the kernel does not compile, keep it in Python.
"""

from __future__ import annotations

import math
import random

import pytest

pytest.importorskip("numba", reason="the kernels are the optional extra 'fast' (pip install 'cardtable[fast]')")

import numpy as np  # noqa: E402

from cardtable.agents.base import Observation  # noqa: E402
from cardtable.agents.knowledge import knowledge_for  # noqa: E402
from cardtable.agents.search import SearchParams, search  # noqa: E402
from cardtable.games.lost_ranks import LostRanks, LostRanksState  # noqa: E402
from cardtable.games.lost_ranks import kernel as lr_kernel  # noqa: E402
from cardtable.games.lost_ranks.heuristic import knowledge  # noqa: E402
from cardtable.games.lost_ranks.knowledge import LostRanksKnowledge  # noqa: E402
from cardtable.games.rank import Rank, RankState  # noqa: E402
from cardtable.games.rank import kernel as rank_kernel  # noqa: E402
from cardtable.games.rank.knowledge import RankKnowledge  # noqa: E402
from cardtable.kernels import draws  # noqa: E402
from cardtable.kernels.jit import njit  # noqa: E402
from cardtable.protocol import State  # noqa: E402


def numpy_stream(seed: int) -> random.Random:
    """A Python generator that draws what numba's ``np.random`` draws after ``np.random.seed(seed)``."""
    _, key, pos, _, _ = np.random.RandomState(seed).get_state()
    rng = random.Random()
    rng.setstate((3, tuple(int(x) for x in key) + (int(pos),), None))
    return rng


def test_the_numpy_stream_is_numbas() -> None:
    assert [numpy_stream(7).random() for _ in range(1)] == [np.random.RandomState(7).random_sample()]


def played_in(state: State, moves: int, seed: int) -> State:
    """``state`` after ``moves`` random moves (fewer if the game ends)."""
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


LOST_RANKS = [pytest.param(4, id="4 players"), pytest.param(2, id="Command of Two")]


@pytest.mark.parametrize("players", LOST_RANKS)
def test_lost_ranks_export_keeps_step_with_the_engine_to_the_round_end(players: int) -> None:
    """LR-6 … LR-14 legal sets and LR-15/LR-16 scoring from exported mid-round states and
    sampled worlds (the hidden cards as the world deals them)."""
    game = LostRanks(players=players)
    none = np.empty((0, 53), dtype=np.int64)
    checked = 0
    for seed in range(60):
        truth = played_in(game.new_state(seed=seed), seed % (13 * players), seed)
        if truth.is_terminal():
            continue
        world = Observation.of(truth).sample_state(random.Random(seed)) if seed % 2 else truth.clone()
        assert isinstance(world, LostRanksState)
        s = lr_kernel.export(world)
        rounds = np.zeros((0, players), dtype=np.int64)
        events = np.zeros((players, len(lr_kernel.EVENTS)), dtype=np.int64)
        rng, first = random.Random(seed + 1), world.round_index
        while not world.is_terminal() and world.round_index == first:
            assert lr_kernel.legal_actions(s) == world.legal_actions(), (seed, len(world.history))
            assert int(s[lr_kernel.CUR]) == world.current_player()
            # what the heuristic reads (Trump Card, voids shown, face-down phantom cards)
            assert lr_kernel.knowledge_of(s) == knowledge(world.view(world.current_player())), seed
            action = rng.choice(world.legal_actions())
            world.apply_action(action)
            lr_kernel.apply_action(s, action, none, rounds, events)
            checked += 1
        assert [int(s[lr_kernel.TOTALS]), int(s[lr_kernel.TOTALS + 1])] == list(world.army_totals), seed
        assert int(s[lr_kernel.TIEBREAKS]) == world.tiebreak_rounds
        assert (int(s[lr_kernel.OUTCOME]) >= 0) == world.is_terminal()
    assert checked > 500


@pytest.mark.parametrize("players", [2, 4, 6])
def test_rank_export_keeps_step_with_the_engine_to_the_end(players: int) -> None:
    """RG-3 … RG-8 legal sets and the order out (RG-6, RG-7) from exported states and sampled worlds."""
    game = Rank(players=players)
    checked = 0
    for seed in range(40):
        truth = played_in(game.new_state(seed=seed), seed % 30, seed)
        if truth.is_terminal():
            continue
        world = Observation.of(truth).sample_state(random.Random(seed)) if seed % 2 else truth.clone()
        assert isinstance(world, RankState)
        s = rank_kernel.export(world)
        events = np.zeros((players, len(rank_kernel.EVENTS)), dtype=np.int64)
        rng = random.Random(seed + 1)
        while not world.is_terminal():
            assert rank_kernel.legal_actions(s) == world.legal_actions(), (seed, len(world.history))
            action = rng.choice(world.legal_actions())
            world.apply_action(action)
            rank_kernel.apply_action(s, action, events)
            checked += 1
        assert int(s[rank_kernel.CUR]) == -1
        order = world.result()["order"]
        assert [int(x) for x in s[rank_kernel.ORDER: rank_kernel.ORDER + players]] == order, seed
    assert checked > 500


def python_playout(kn: LostRanksKnowledge | RankKnowledge, state: State, rng: random.Random) -> tuple[list[int], State]:
    """The Python play-out of ``state`` to the knowledge's cut-off: the moves and the state there."""
    world, first, moves = state.clone(), kn.round_of(state), []
    while not kn.cutoff(world, first):
        action = kn.rollout_action(world, rng)
        moves.append(action)
        world.apply_action(action)
    return moves, world


@pytest.mark.parametrize("players", LOST_RANKS)
def test_lost_ranks_kernel_plays_the_python_policy_move_for_move(players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    game = LostRanks(players=players)
    kn = knowledge_for(game)
    assert isinstance(kn, LostRanksKnowledge)
    monkeypatch.setattr(kn, "leaf_policy", "rollout")  # the fast policy (Command of Two plays the heuristic)
    for seed in range(40):
        state = played_in(game.new_state(seed=seed), seed % (13 * players), seed)
        if state.is_terminal():
            continue
        if seed % 2:
            state = Observation.of(state).sample_state(random.Random(seed))
        played = np.full(200, -1, dtype=np.int64)
        count = lr_kernel.policy_round(lr_kernel.export(state), seed, played)
        moves, _ = python_playout(kn, state, numpy_stream(seed))
        assert [int(a) for a in played[:count]] == moves, seed


@pytest.mark.parametrize("players", [2, 4, 6])
def test_rank_kernel_plays_the_python_policy_move_for_move(players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    game = Rank(players=players)
    kn = knowledge_for(game)
    assert isinstance(kn, RankKnowledge)
    monkeypatch.setattr(kn, "leaf_policy", "rollout")  # the fast policy (with the kernel the default is the heuristic)
    for seed in range(40):
        state = played_in(game.new_state(seed=seed), seed % 25, seed)
        if state.is_terminal():
            continue
        played = np.full(4000, -1, dtype=np.int64)
        count = rank_kernel.policy_game(rank_kernel.export(state), seed, played)
        moves, _ = python_playout(kn, state, numpy_stream(seed))
        assert [int(a) for a in played[:count]] == moves, seed


@njit
def _rank_tie_breaks(seed: int, moves: int) -> np.ndarray:
    """The tie-breaking numbers of a Ранг heuristic play-out seeded with ``seed``, a row
    of 14 a move: the kernels' generator (``cardtable.kernels.draws``) seeded from
    numba's after ``np.random.seed(seed)``."""
    np.random.seed(seed)
    x = draws.seed_random()
    rows = np.empty((moves, 14))
    for m in range(moves):
        for i in range(14):
            x, rows[m, i] = draws.uniform(x)
    return rows


@pytest.mark.parametrize("players", [2, 4, 6])
def test_rank_heuristic_playouts_are_the_compiled_heuristic_move_for_move(players: int) -> None:
    """``leaf=heuristic``: every move of the kernel's heuristic play-out is the compiled
    heuristic's choice (:func:`~cardtable.games.rank.kernel.heuristic_action`) on the
    position reached, with the tie-breaking numbers the play-out draws from the same seed; the
    engine accepts every move (RG-4 … RG-8) and ends the game with the kernel's order out
    (RG-6, RG-7)."""
    game = Rank(players=players)
    for seed in range(30):
        state = played_in(game.new_state(seed=seed), seed % 25, seed)
        if state.is_terminal():
            continue
        if seed % 2:
            state = Observation.of(state).sample_state(random.Random(seed))
        vector = rank_kernel.export(state)
        played = np.full(4000, -1, dtype=np.int64)
        count = rank_kernel.policy_game(vector.copy(), seed, played, True)
        events = np.zeros((players, len(rank_kernel.EVENTS)), dtype=np.int64)
        for a, noise in zip(played[:count], _rank_tie_breaks(seed, int(count))):
            assert rank_kernel.heuristic_action(vector, noise) == a, seed
            assert a in state.legal_actions(), seed
            rank_kernel.apply_action(vector, int(a), events)
            state.apply_action(int(a))
        assert state.is_terminal(), seed
        orders = rank_kernel.heuristic_playouts(state.clone(), seed, 1)[1]
        assert orders == [[int(x) for x in state.result()["order"]]]  # a finished game: its own order


def agree(python: list[float], kernel: list[float]) -> bool:
    """The two samples' means differ by less than four standard errors of the difference."""
    def var(xs: list[float]) -> float:
        m = sum(xs) / len(xs)
        return sum((x - m) ** 2 for x in xs) / (len(xs) - 1)

    se = math.sqrt(var(python) / len(python) + var(kernel) / len(kernel))
    return abs(sum(python) / len(python) - sum(kernel) / len(kernel)) < 4 * max(se, 1e-9)


@pytest.mark.parametrize("players", LOST_RANKS)
def test_lost_ranks_value_estimates_agree(players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Independent random numbers: over 300 play-outs each, the kernel's mean value for
    seat 0 and the Python play-outs' agree within their intervals."""
    game = LostRanks(players=players)
    kn = knowledge_for(game)
    assert isinstance(kn, LostRanksKnowledge)
    monkeypatch.setattr(kn, "leaf_policy", "rollout")
    for seed in (3, 4):
        state = played_in(game.new_state(seed=seed), 5, seed)
        _, rows = lr_kernel.policy_playouts(state, seed, 300)
        sign = 1.0 if state.armies[0] == 0 else -1.0
        kernel = [sign * kn.red_value(*row) for row in rows]
        rng = random.Random(seed)
        python = [kn.evaluate(python_playout(kn, state, rng)[1])[0] for _ in range(300)]
        assert agree(python, kernel), seed
        assert len(set(kernel)) > 1  # the play-outs differ: the comparison means something


def test_rank_value_estimates_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    game = Rank(players=4)
    kn = knowledge_for(game)
    assert isinstance(kn, RankKnowledge)
    monkeypatch.setattr(kn, "leaf_policy", "rollout")  # the fast policy, which policy_playouts runs
    for seed in (3, 4):
        state = played_in(game.new_state(seed=seed), 4, seed)
        _, orders = rank_kernel.policy_playouts(state, seed, 300)
        kernel = [kn.place_values[order.index(0)] for order in orders]
        rng = random.Random(seed)
        python = [kn.evaluate(python_playout(kn, state, rng)[1])[0] for _ in range(300)]
        assert agree(python, kernel), seed
        assert len(set(kernel)) > 1


def late_in_a_round(game: LostRanks, seed: int) -> State:
    """A position with few tricks left in the first round and a choice to make."""
    state = played_in(game.new_state(seed=seed), 0, seed)
    assert isinstance(state, LostRanksState)
    rng = random.Random(seed)
    tricks = game.tricks_per_round
    while state.tricks_done < tricks - 3 or len(state.legal_actions()) < 2:
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("players", LOST_RANKS)
@pytest.mark.parametrize("budget", [{"iterations": 300}, {"steps": 3000}], ids=["iterations", "steps"])
def test_the_tree_search_plays_out_in_the_kernel_and_ends_every_budget(players: int, budget: dict[str, int]) -> None:
    game = LostRanks(players=players)
    for seed in range(3):
        for state in (played_in(game.new_state(seed=seed), 2 + seed, seed), late_in_a_round(game, seed)):
            obs = Observation.of(state)
            if len(obs.legal_actions) < 2:
                continue
            on, off = (search(obs, SearchParams(**budget, kernel=kernel, mode="ismcts"), seed=seed)
                       for kernel in (True, False))
            assert on.choose() in obs.legal_actions
            assert on.iterations >= 1 and on.playout_moves <= on.steps
            if "steps" in budget:
                per_iteration = on.steps / on.iterations  # Command of Two's look-ahead: ~2000 moves early
                assert on.steps >= budget["steps"] and on.steps < budget["steps"] + 3 * per_iteration
            else:
                assert on.iterations == 300
                # several compiled play-outs a leaf (the knowledge's leaf_playouts): more
                # play-out moves than Python's one
                more = 0.75 * knowledge_for(game).leaf_playouts
                assert on.playout_moves > more * off.playout_moves or off.playout_moves == 0


def test_a_designers_rules_keep_the_tree_search_in_python() -> None:
    """The kernel compiles the published LR-15 points: with Jacks worth 3 the search's
    play-outs stay in Python (the same statistics with the kernel on and off)."""
    custom = LostRanks(jack_points=3)
    kn = knowledge_for(custom)
    state = played_in(custom.new_state(seed=1), 6, 1)
    assert kn.kernel_values(state, 0, 0, 1) is None  # type: ignore[attr-defined]
    assert knowledge_for(LostRanks()).kernel_values(state, 0, 0, 1) is not None  # type: ignore[attr-defined]
    obs = Observation.of(state)
    on, off = (search(obs, SearchParams(iterations=80, kernel=kernel), seed=2) for kernel in (True, False))
    assert on.visits == off.visits and on.value_sums == off.value_sums


@pytest.mark.parametrize("budget", [{"iterations": 60}, {"steps": 20000}], ids=["iterations", "steps"])
def test_the_rank_flat_search_plays_out_in_the_kernel(budget: dict[str, int]) -> None:
    game = Rank(players=4)
    for seed in range(4):
        state = played_in(game.new_state(seed=seed), 3 + 5 * seed, seed)
        obs = Observation.of(state)
        if state.is_terminal() or len(obs.legal_actions) < 2:
            continue
        on, off = (search(obs, SearchParams(**budget, kernel=kernel), seed=seed) for kernel in (True, False))
        assert on.choose() in obs.legal_actions
        assert on.playout_moves <= on.steps
        if "iterations" in budget:  # 12 compiled play-outs per world and move
            assert on.playout_moves > 4 * off.playout_moves
