"""The Ранг kernel against the engine (``pip install 'cardtable[fast]'``).

On 1000 deals each for 2, 4 and 8 players (one and two packs, RG-1) the kernel and the
engine offer the same legal moves at every step, and the same random moves lead to
the same game: the same hands, top card, stock and seats in the game along the way,
the same order of going out and loser (RG-6, RG-7), and the same typed events (draws,
passes, pull-backs won and failed, Anti-Rank declared and over: RG-5, RG-6, RG-8).
The compiled heuristic chooses what the Python heuristic chooses at every decision of
many games (given the same tie-breaking numbers).
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

pytest.importorskip("numba", reason="the kernels are the optional extra 'fast' (pip install 'cardtable[fast]')")

import numpy as np  # noqa: E402

from cardtable.agents.base import Observation  # noqa: E402
from cardtable.games.rank import Rank, RankState, pack_counts  # noqa: E402
from cardtable.games.rank.heuristic import RankHeuristic  # noqa: E402
from cardtable.games.rank import kernel  # noqa: E402
from cardtable.games.rank.measures import event_measures, final_measures  # noqa: E402
from cardtable.kernels import PlayOuts, play_many  # noqa: E402
from cardtable.lab.measures import count_event_kinds  # noqa: E402
from cardtable.lab.results import open_results  # noqa: E402
from cardtable.lab.runner import run_study  # noqa: E402
from cardtable.lab.stats import wilson_interval  # noqa: E402
from cardtable.lab.study import study_from_dict  # noqa: E402


def _same_game(state: RankState, s: np.ndarray) -> bool:
    """The public and private facts of ``state`` as the kernel holds them."""
    view = state.public_view()
    n = state.game.num_players
    hands = [sorted(state._hand_list(seat)) for seat in range(n)]
    held = [sorted(k for k in range(53) for _ in range(int(s[kernel.COUNT + 53 * seat + k]))) for seat in range(n)]
    alive = sum(1 << seat for seat in view["in_game"])
    return (hands == held and view["hand_sizes"] == [int(x) for x in s[kernel.SIZES: kernel.SIZES + n]]
            and view["stock"] == int(s[kernel.STOCK_N] - s[kernel.POS]) and len(view["pile"]) == int(s[kernel.PILE_N])
            and state._pile[-1] == int(s[kernel.TOP]) and alive == int(s[kernel.ALIVE])
            and view["anti_rank"]["active"] == bool(s[kernel.ANTI]))


def _replay(players: int, seed: int) -> Counter[str]:
    """One engine game with random moves and the kernel alongside it from the same deck;
    returns the engine's typed-event counts."""
    game = Rank(players=players)
    deck = [k for k, copies in enumerate(pack_counts(game.packs)) for _ in range(copies)]
    random.Random(seed).shuffle(deck)
    state = game.new_state(seed=seed, decks=[deck])
    s = kernel.new_match(players, np.array(deck, dtype=np.int64), game.dealer_of(seed))
    events = np.zeros((players, len(kernel.EVENTS)), dtype=np.int64)
    rng = random.Random(seed)
    played = []
    while not state.is_terminal():
        legal = state.legal_actions()
        assert kernel.legal_actions(s) == legal, (players, seed, len(state.history))
        assert int(s[kernel.CUR]) == state.current_player()
        if len(state.history) % 7 == 0:
            assert _same_game(state, s), (players, seed, len(state.history))
        action = rng.choice(legal)
        played.append(state.apply_action(action))
        kernel.apply_action(s, action, events)
    result = state.result()
    assert kernel.legal_actions(s) == [] and int(s[kernel.CUR]) == -1
    assert [int(x) for x in s[kernel.ORDER: kernel.ORDER + players]] == result["order"]
    assert int(s[kernel.ACTIONS]) == result["moves"]
    counted = count_event_kinds(played)
    counts = {name: int(events[:, e].sum()) for e, name in enumerate(kernel.EVENTS)}
    assert kernel.row_events(1, counts) == dict(counted), (players, seed)
    details = [d for event in played for d in event.details]
    counts["first_dealer"] = game.dealer_of(seed)  # set by play_many, which draws the dealer
    assert kernel.row_measures(result["scores"], 1, counts) == {**final_measures(state), **event_measures(details)}
    assert kernel.row_returns(result["scores"], counts) == state.returns()
    return counted


@pytest.mark.parametrize("players", [2, 4, 8])
def test_rank_kernel_moves_and_results_are_the_engines(players: int) -> None:
    """RG-4/RG-5 legal moves, RG-6 pull-backs, RG-7 the loser, RG-8 Anti-Rank: 1000
    deals per player count, every rule's event seen many times."""
    seen: Counter[str] = Counter()
    for seed in range(1000):
        seen += _replay(players, seed)
    assert seen["match_ended"] == 1000
    assert min(seen[k] for k in ("pull_back", "player_out", "anti_rank_declared", "anti_rank_over", "passed")) > 100


@pytest.mark.parametrize("players", [2, 4, 8])
def test_rank_compiled_heuristic_is_the_python_heuristic(players: int) -> None:
    """At every decision of 300 games per player count (heuristic moves with random
    ones mixed in, so that Anti-Rank and pull-backs come up): the compiled decisions
    equal :class:`RankHeuristic`'s, tie-breaking numbers included."""
    game = Rank(players=players)
    compared = anti = 0
    for seed in range(300):
        deck = [k for k, copies in enumerate(pack_counts(game.packs)) for _ in range(copies)]
        random.Random(seed).shuffle(deck)
        state = game.new_state(seed=seed, decks=[deck])
        s = kernel.new_match(players, np.array(deck, dtype=np.int64), game.dealer_of(seed))
        events = np.zeros((players, len(kernel.EVENTS)), dtype=np.int64)
        agent, rng = RankHeuristic(game, seed=seed), random.Random(seed)
        while not state.is_terminal():
            noise = random.Random()
            noise.setstate(agent.rng.getstate())
            expected = agent.act(Observation.of(state))
            if len(state.legal_actions()) > 1:
                assert kernel.heuristic_action(s, [noise.random() for _ in range(14)]) == expected, (seed, len(state.history))
                compared += 1
                anti += state.anti_rank
            action = expected if rng.random() > 0.2 else rng.choice(state.legal_actions())
            state.apply_action(action)
            kernel.apply_action(s, action, events)
    assert compared > 3000 and anti > 300


def test_rank_play_many_is_consistent_and_reproducible() -> None:
    game = Rank(players=4)
    out = play_many(game, "random", 300, seed=3)
    assert isinstance(out, PlayOuts) and out.scores.shape == (300, 4) and out.events.shape == (300, 4, len(kernel.EVENTS))
    assert (out.scores.sum(axis=1) == -1).all() and np.array_equal(out.round_scores[:, 0, :], out.scores)
    moves = out.events[:, :, [kernel.PLAYED_EV, kernel.DRAWN_EV, kernel.PASSED_EV]].sum(axis=(1, 2))
    assert np.array_equal(moves, out.actions)
    assert (out.events[:, :, kernel.END_EV].sum(axis=1) == 1).all()
    losers = out.scores.argmin(axis=1)
    assert np.bincount(losers, minlength=4).min() > 30  # every seat loses sometimes
    again = play_many(game, "random", 300, seed=3)
    assert np.array_equal(again.scores, out.scores) and np.array_equal(again.events, out.events)
    assert not np.array_equal(play_many(game, "random", 300, seed=4).actions, out.actions)
    mixed = play_many(game, ("heuristic", "random", "random", "random"), 400, seed=5)
    assert (mixed.scores[:, 0] == -1).mean() < (mixed.scores[:, 1:] == -1).mean()  # it loses less than random


def test_rank_kernel_refuses_what_it_cannot_play() -> None:
    with pytest.raises(ValueError, match="this Ранг has 3 seats: give one policy per seat, not 2"):
        play_many(Rank(players=3), ("random", "random"), 1, 0)


def test_a_rank_kernel_study_agrees_with_the_python_engine(tmp_path: Path) -> None:
    """The same small study on both lab engines (``engine = "kernel"``): the heuristic
    seat's loss rates have overlapping 95 % intervals, the rows have the same columns,
    events and measures (RG-6 pull-backs, RG-8 Anti-Rank), and the rows really differ."""
    spec = {"game": "rank", "seed": 11, "matches": 300, "options": {"players": 4},
            "lineups": [{"agents": ["heuristic", "random", "random", "random"]}]}
    rows = {}
    for engine in ("python", "kernel"):
        study = study_from_dict({**spec, "engine": engine})
        with open_results(tmp_path / f"{engine}.sqlite", study) as store:
            run_study(study, store)
            rows[engine] = store.rows()
    python, kernel_rows = rows["python"], rows["kernel"]
    assert [r["seating"] for r in kernel_rows] == [r["seating"] for r in python]
    assert {k for r in kernel_rows for k in r["events"]} == {k for r in python for k in r["events"]}
    assert {k for r in kernel_rows for k in r["measures"]} == {k for r in python for k in r["measures"]}
    assert sum(r["measures"]["pull_backs_won"] for r in kernel_rows) > 100
    assert [r["scores"] for r in kernel_rows] != [r["scores"] for r in python]
    losses = {engine: sum(r["returns"][r["seating"].index(0)] < 0 for r in rs) for engine, rs in rows.items()}
    (plo, phi), (klo, khi) = wilson_interval(losses["python"], 300), wilson_interval(losses["kernel"], 300)
    assert plo <= khi and klo <= phi, losses
