"""Command of Two: the search's inference from play, its look-ahead play-outs and the
omniscient benchmark harness.

The round's start is rebuilt from the view's public log (LR-20: every card played, by
whom, from which source, the drawn card turned face up, LR-14) and a world's cards; the
compiled replay (``pip install 'cardtable[fast]'``) reproduces the round, and the
heuristic explains its own play on the true deal.  The compiled look-ahead play-outs
play what a look-ahead written on the engine plays.  The weighted worlds stay worlds of the
observation (LR-20: the same view), and the benchmark's omniscient observation goes only
to the agent it wraps.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from benchkit import load_benchmark

pytest.importorskip("numba", reason="the kernels are the optional extra 'fast' (pip install 'cardtable[fast]')")

import numpy as np  # noqa: E402

from cardtable.agents import Agent, Observation, make_agent  # noqa: E402
from cardtable.agents.knowledge import knowledge_for  # noqa: E402
from cardtable.games.lost_ranks import LostRanksState, kernel  # noqa: E402
from cardtable.games.lost_ranks.inference import RoundLog  # noqa: E402
from cardtable.games.lost_ranks.knowledge import LostRanksKnowledge, heuristic_move  # noqa: E402
from cardtable.lab.series import play_match  # noqa: E402
from cardtable.registry import load_game  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
GAME = load_game("lost-ranks", players=2)


def _decisions(seeds: range, share: float) -> Iterator[LostRanksState]:
    """States of heuristic self-play (Command of Two) at decisions with a choice, each
    kept with chance ``share`` (the play goes on from the true state)."""
    pick = random.Random(seeds.start)
    for seed in seeds:
        state = GAME.new_state(seed=seed)
        assert isinstance(state, LostRanksState)
        bots = [make_agent("heuristic", GAME, seed=seed * 10 + s) for s in range(2)]
        while not state.is_terminal():
            seat = state.current_player()
            legal = state.legal_actions()
            if len(legal) > 1 and pick.random() < share:
                yield state
            state.apply_action(legal[0] if len(legal) == 1 else bots[seat].act(Observation.of(state, seat)))


def _replayed(state: LostRanksState, world: LostRanksState) -> tuple[Any, RoundLog]:
    log = RoundLog.of(state.view(state.current_player()))
    assert log is not None
    start = log.start(world)
    assert start is not None
    vector = kernel.round_start_vector(world, start)
    misses = kernel.heuristic_misses(vector, np.asarray(log.actions, dtype=np.int64), 1 - state.current_player())
    return (vector, int(misses)), log


def test_the_round_log_rebuilds_the_round() -> None:
    """LR-12, LR-14: replaying the log from the rebuilt start reaches the current hands,
    phantom decks (face-down counts included) and trick — a drawn pair not yet played
    still on the deck."""
    checked = 0
    for state in _decisions(range(3), 0.2):
        (vector, misses), log = _replayed(state, state)
        assert misses >= 0
        now = kernel.export(state)
        pending = state.drawn_pair
        seat = state.current_player()
        for q in range(2):
            assert vector[kernel.HAND + q] == now[kernel.HAND + q]
            deck = tuple(int(c) for c in vector[kernel.PHANTOM + 9 * q: kernel.PHANTOM + 9 * q + vector[kernel.PHANTOM_N + q]])
            assert deck == (tuple(pending) if pending and q == seat else ()) + tuple(state.phantom_cards(q))
        assert list(vector[kernel.TRICK_CARD: kernel.TRICK_CARD + vector[kernel.TRICK_N]]) == [c for _, c, _ in state.trick]
        checked += 1
    assert checked > 50


def test_the_heuristic_explains_its_own_play_on_the_true_deal() -> None:
    """On the true deal the replayed heuristic plays what the heuristic opponent played,
    but for ties broken otherwise (few); in sampled worlds it misses often."""
    true_misses = world_misses = decisions = 0
    rng = random.Random(5)
    for state in _decisions(range(3, 6), 0.2):
        (_, misses), log = _replayed(state, state)
        true_misses += misses
        decisions += len(log.actions) // 3
        world = state.resample(state.current_player(), rng)
        (_, misses), _ = _replayed(state, world)
        world_misses += misses
    assert true_misses * 50 < decisions
    assert world_misses > 5 * true_misses + 10


def test_the_log_is_the_same_in_every_world_of_a_view() -> None:
    """LR-20: the log is public — the true state and any world of the seat's view give
    the same view, hence the same log."""
    rng = random.Random(2)
    for state in _decisions(range(6, 8), 0.1):
        seat = state.current_player()
        world = state.resample(seat, rng)
        assert world.view(seat) == state.view(seat)
        assert RoundLog.of(world.view(seat)) == RoundLog.of(state.view(seat))


def test_weighted_worlds_are_worlds_of_the_view() -> None:
    """Every world the inference keeps is consistent with the seat's view (LR-20), and
    the weighting changes which worlds are kept (a test that could fail)."""
    kn = knowledge_for(GAME)
    assert isinstance(kn, LostRanksKnowledge)
    kept = kn.infer_draws
    kn.infer_draws = 8
    moved = 0
    try:
        for i, state in enumerate(_decisions(range(8, 10), 0.1)):
            seat = state.current_player()
            obs = Observation.of(state, seat)
            log = RoundLog.of(obs.view)
            assert log is not None
            for j in range(4):
                world = kn.sample_world(obs, random.Random(i * 10 + j))
                assert isinstance(world, LostRanksState)
                assert world.view(seat) == obs.view
                assert tuple(world.legal_actions()) == obs.legal_actions
                plain = obs.sample_state(random.Random(i * 10 + j))
                moved += world.hand_masks != plain.hand_masks
    finally:
        kn.infer_draws = kept
    assert moved > 0


def _ceiling() -> Any:
    return load_benchmark("lost_ranks_ceiling")


class _Recorder(Agent):
    """The heuristic, recording the type of every observation it is handed."""

    name = "recorder"
    seen: list[type] = []

    def __init__(self, game: Any, seed: int) -> None:
        super().__init__(game, seed=seed)
        self.inner = make_agent("heuristic", game, seed=seed)

    def act(self, obs: Observation) -> int:
        type(self).seen.append(type(obs))
        return self.inner.act(obs)


def test_the_omniscient_observation_reaches_only_the_agent_it_wraps() -> None:
    """The benchmark's omniscient seat searches the true deal; the other seat gets the
    ordinary observation; no product module knows the wrapper."""
    ceiling = _ceiling()
    state = next(iter(_decisions(range(10, 11), 0.3)))
    obs = Observation.of(state)
    seen = ceiling.TrueDealObservation.seeing(obs)
    world = seen.sample_state(random.Random(0))
    assert world is not state and world.hand_masks == state.hand_masks and world.phantom_cards(1) == state.phantom_cards(1)
    assert obs.sample_state(random.Random(0)).hand_masks != state.hand_masks

    def agent_for(spec: str, game: Any, seed: int) -> Agent:
        return _Recorder(game, seed) if spec == "recorder" else ceiling.agent_for(spec, game, seed)

    _Recorder.seen.clear()
    play_match(GAME, ["omniscient:ismcts:iterations=20", "recorder"], seed=3, seating=[0, 1], agent_for=agent_for)
    assert _Recorder.seen and set(_Recorder.seen) == {Observation}
    for path in (ROOT / "src" / "cardtable").rglob("*.py"):
        assert "TrueDealObservation" not in path.read_text(encoding="utf-8"), path


def test_heuristic_leaf_playouts_are_the_heuristic() -> None:
    """``leaf_policy="heuristic"``: the leaf values are those of the compiled heuristic's
    play-outs to the end of the round (26 tricks, LR-13), not the play-out policy's."""
    kn = knowledge_for(GAME)
    assert isinstance(kn, LostRanksKnowledge)
    kept = kn.leaf_policy
    differ = 0
    try:
        for state in _decisions(range(11, 12), 0.05):
            left = 2 * (26 - state.tricks_done) - len(state.trick)
            moves, rows = kernel.heuristic_playouts(state, 7, kn.leaf_playouts)
            assert moves >= kn.leaf_playouts * left
            mean = sum(kn.red_value(*row) for row in rows) / len(rows)
            kn.leaf_policy = "heuristic"
            values = kn.kernel_values(state, state.round_index, 0, 7)
            kn.leaf_policy = "rollout"
            plain = kn.kernel_values(state, state.round_index, 0, 7)
            assert values is not None and plain is not None
            red = values[0][state.armies.index(0)]  # the Red army's seat
            assert red == pytest.approx(mean) and values[1] == moves
            differ += plain[1] != moves or plain[0] != values[0]
    finally:
        kn.leaf_policy = kept
    assert differ > 0


def _numpy_stream(seed: int) -> random.Random:
    """Python's generator set to the stream numba's (numpy's) has when seeded with ``seed``."""
    key, pos = np.random.RandomState(seed).get_state()[1:3]
    rng = random.Random()
    rng.setstate((3, tuple(int(x) for x in key) + (int(pos),), None))
    return rng


def test_the_kernel_and_python_heuristic_play_outs_are_the_same() -> None:
    """Command of Two plays the heuristic in its play-outs (``leaf_policy``
    ``"lookahead"``: the heuristic with a look-ahead compiled, the heuristic alone in
    Python): fed the same random numbers (numba's generator seeded with ``s``, Python's set
    to numpy's stream for ``s``), the compiled and the Python heuristic play-outs end the
    round alike (totals, LR-15; the match's outcome, LR-18)."""
    kn = knowledge_for(GAME)
    assert isinstance(kn, LostRanksKnowledge) and kn.leaf_policy == "lookahead"
    checked = 0
    for seed, state in enumerate(_decisions(range(12, 14), 0.05)):
        _, rows = kernel.heuristic_playouts(state, seed, 1)
        rng = _numpy_stream(seed)
        world = state.clone()
        while not kn.cutoff(world, state.round_index):
            world.apply_action(kn.rollout_action(world, rng))
        assert rows[0][:2] == world.army_totals, seed
        checked += 1
    assert checked > 5


def _heuristic_to_round_end(world: LostRanksState, rng: random.Random) -> None:
    r = world.round_index
    while not world.is_terminal() and world.round_index == r:
        world.apply_action(heuristic_move(world, rng))


def _python_lookahead(state: LostRanksState, rng: random.Random, me: int) -> tuple[int, int]:
    """One look-ahead play-out written from its description: the heuristic plays; at
    ``me``'s first decision with a choice, each legal move in turn is continued by the
    heuristic to the round's end and the best army point difference for ``me`` is played
    (the heuristic's move on a tie); the army totals at the round's end."""
    world, r = state.clone(), state.round_index
    mine = world.armies[me]
    looked = False
    while not world.is_terminal() and world.round_index == r:
        legal = world.legal_actions()
        a = heuristic_move(world, rng)
        if len(legal) > 1 and world.current_player() == me and not looked:
            looked = True
            best, best_value, heuristic_value = a, -math.inf, 0
            for c in legal:
                u = world.clone()
                u.apply_action(c)
                _heuristic_to_round_end(u, rng)
                value = u.army_totals[mine] - u.army_totals[1 - mine]
                heuristic_value = value if c == a else heuristic_value
                if value > best_value:
                    best, best_value = c, value
            a = best if best_value > heuristic_value else a
        world.apply_action(a)
    return world.army_totals


def test_lookahead_play_outs_are_the_python_lookahead_and_depth_0_the_heuristic() -> None:
    """The look-ahead play-outs (``leaf_policy`` ``"lookahead"``, Command of Two's default)
    play move for move what a Python look-ahead on the engine plays with the same random
    numbers, for either seat looking ahead; at depth 0 they are the heuristic's play-outs,
    random numbers and all; deeper they play more moves and end the same round."""
    checked = 0
    for seed, state in enumerate(_decisions(range(15, 17), 0.04)):
        for me in (0, 1):
            _, rows = kernel.lookahead_playouts(state, seed, 1, me)
            assert rows[0][:2] == _python_lookahead(state, _numpy_stream(seed), me), (seed, me)
        s = kernel.export(state)
        plain, ahead, deep = (np.zeros((4, len(kernel.ROUND_RESULT)), dtype=np.int64) for _ in range(3))
        moves = kernel.heuristic_rounds(s, seed, plain)
        assert kernel.lookahead_rounds(s, seed, ahead, state.current_player(), 0) == moves
        assert (ahead == plain).all()
        assert kernel.lookahead_rounds(s, seed, deep, state.current_player(), 3) > moves
        assert (deep[:, 2] == plain[:, 2]).all()
        checked += 1
    assert checked > 5


def test_lookahead_leaf_values_look_ahead_for_the_searching_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    """``kernel_values(world, round, me, seed)`` with the look-ahead are the mean values of
    :func:`~cardtable.games.lost_ranks.kernel.lookahead_playouts` with ``me`` looking
    ahead; ``lookahead_depth`` 0 gives the heuristic's play-outs."""
    kn = knowledge_for(GAME)
    assert isinstance(kn, LostRanksKnowledge) and kn.lookahead_depth == 2  # docs/strength.md, 29th session
    state = next(_decisions(range(18, 19), 0.2))

    def red_mean(rows: list[tuple[int, ...]]) -> float:
        return sum(kn.red_value(*row) for row in rows) / len(rows)

    for me in (0, 1):
        moves, rows = kernel.lookahead_playouts(state, 9, kn.leaf_playouts, me, kn.lookahead_depth)
        values = kn.kernel_values(state, state.round_index, me, 9)
        assert values is not None and values[1] == moves
        assert values[0][state.armies.index(0)] == pytest.approx(red_mean(rows))  # the Red army's seat
    monkeypatch.setattr(kn, "lookahead_depth", 0)
    moves, rows = kernel.heuristic_playouts(state, 9, kn.leaf_playouts)
    values = kn.kernel_values(state, state.round_index, 1, 9)
    assert values is not None and values[1] == moves
    assert values[0][state.armies.index(0)] == pytest.approx(red_mean(rows))
