"""The compiled kernels against the engines they mirror (``pip install 'cardtable[fast]'``).

Lost Cities: on 2000 deals (5 and 6 colours, one- and three-round matches) the kernel
and the engine offer the same legal moves at every step and reach the same results for
the same moves (LC-3 … LC-7, including rounds ended by the LC-5 safeguard), the
state export reads back what the kernel holds, and the compiled heuristic chooses
what the Python heuristic chooses at every decision of many play-outs, and plays the
same rounds from exported states (the search's play-outs).
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numba", reason="the kernels are the optional extra 'fast' (pip install 'cardtable[fast]')")

import numpy as np  # noqa: E402

from cardtable.games.lost_cities.heuristic import STYLES, policy_action  # noqa: E402
from cardtable.games.lost_cities import LostCities, LostCitiesState, first_starter  # noqa: E402
from cardtable.kernels import PlayOuts, play_many  # noqa: E402
from cardtable.games.lost_cities import kernel  # noqa: E402

KERNEL_ONLY = [kernel.ACTIONS] + list(range(kernel.EV, kernel.SIZE))
"""Slots the export cannot know: the kernel's action and event counts and the cards already drawn."""


def _same_vector(state: LostCitiesState, s: np.ndarray) -> bool:
    exported = kernel.export(state)
    keep = np.ones(kernel.SIZE, dtype=bool)
    keep[KERNEL_ONLY] = False
    ptr = int(s[kernel.PTR])
    return bool(np.array_equal(exported[keep], s[keep])
                and np.array_equal(exported[kernel.DECK + ptr:], s[kernel.DECK + ptr:]))


def _replay(colors: int, rounds: int, seed: int, pile_bias: float) -> tuple[int, int]:
    """Play one engine match with random moves (taking a discard pile with probability
    ``pile_bias`` when one may be taken) and the kernel alongside it from the same decks;
    returns (moves, most turns in a row without a draw-pile card)."""
    game = LostCities(colors=colors, rounds=rounds)
    state = game.new_state(seed=seed)
    decks = np.array([game.deck_for(seed, None, i) for i in range(rounds)], dtype=np.int64)
    s = kernel.new_match(colors, rounds, decks, first_starter(seed))
    round_scores = np.zeros((rounds, 2), dtype=np.int64)
    events = np.zeros((2, len(kernel.EVENTS)), dtype=np.int64)
    rng = random.Random(seed)
    moves = longest = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        assert kernel.legal_actions(s) == legal, (seed, moves)
        if moves % 11 == 0:
            assert _same_vector(state, s), (seed, moves)
        piles = [a for a in legal if a > game.draw_deck_action]
        action = rng.choice(piles) if piles and rng.random() < pile_bias else rng.choice(legal)
        state.apply_action(action)
        kernel.apply_action(s, action, decks, round_scores, events)
        moves += 1
        longest = max(longest, state.turns_without_deck_draw)
        assert int(s[kernel.CUR]) == (-1 if state.is_terminal() else state.current_player())
        assert int(s[kernel.ROUND]) == state.round_index
    result = state.result()
    assert kernel.legal_actions(s) == []
    assert [int(s[kernel.TOTALS]), int(s[kernel.TOTALS + 1])] == result["scores"]
    assert round_scores.tolist() == result["round_scores"]
    assert int(events.sum()) - int(events[:, kernel.WAGER_EV].sum()) == moves == int(s[kernel.ACTIONS])
    return moves, longest


@pytest.mark.parametrize("colors", [5, 6])
def test_lost_cities_kernel_moves_and_results_are_the_engines(colors: int) -> None:
    """LC-3/LC-4 legal moves, LC-5 round ends, LC-6 scores, LC-7 starters and totals:
    1000 deals per variant (900 one-round matches, 100 of three rounds), a quarter of
    them played by a seat that takes discard piles whenever it can, so that the LC-5
    safeguard (100 turns without a draw-pile card) ends rounds too."""
    stalled = moves = 0
    for seed in range(1000):
        rounds = 3 if seed % 10 == 0 else 1
        n, longest = _replay(colors, rounds, seed, 0.97 if seed % 4 == 1 else 0.2)
        moves += n
        stalled += longest >= 100
    assert moves > 100_000 and stalled > 10


@pytest.mark.parametrize("colors", [5, 6])
def test_lost_cities_compiled_heuristic_is_the_python_heuristic(colors: int) -> None:
    """At every decision of 30 matches per variant (heuristic moves with random ones
    mixed in), both styles: the compiled decisions equal :func:`policy_action`'s."""
    game = LostCities(colors=colors)
    compared = 0
    for seed in range(30):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            s = kernel.export(state)
            choices = []
            for name in ("steady", "bold"):
                expected = policy_action(state, STYLES[name])
                assert kernel.heuristic_action(s, STYLES[name]) == expected, (seed, len(state.history), name)
                choices.append(expected)
            compared += 1
            state.apply_action(choices[seed % 2] if rng.random() > 0.15 else rng.choice(state.legal_actions()))
    assert compared > 5000


@pytest.mark.parametrize("colors", [5, 6])
def test_heuristic_round_plays_the_python_heuristics_round(colors: int) -> None:
    """The search's kernel play-out (:func:`kernel.heuristic_round`, whose seats keep
    their colour facts from one decision to the next) ends the round where the Python
    heuristic playing the same styles does: the same match totals after the same number
    of moves, from 60 points of different rounds."""
    game = LostCities(colors=colors, rounds=3)
    styles = ("bold", "steady")
    rows = np.stack([kernel.style_vector(STYLES[name]) for name in styles])
    for seed in range(60):
        state = game.new_state(seed=seed)
        for _ in range(seed % 7 * 17):
            state.apply_action(policy_action(state))
        a, b, moves = kernel.heuristic_round(kernel.export(state), rows)
        first, played = state.round_index, 0
        while not state.is_terminal() and state.round_index == first:
            state.apply_action(policy_action(state, STYLES[styles[state.current_player()]]))
            played += 1
        assert (a, b, moves) == (*state.match_totals, played), seed


def test_play_many_reports_consistent_reproducible_results() -> None:
    game = LostCities(colors=5, rounds=3)
    out = play_many(game, ("heuristic", "random"), 200, seed=5)
    assert isinstance(out, PlayOuts) and out.scores.shape == (200, 2) and out.round_scores.shape == (200, 3, 2)
    assert np.array_equal(out.round_scores.sum(axis=1), out.scores)
    wagers = out.events[:, :, kernel.WAGER_EV].sum(axis=1)
    assert np.array_equal(out.events.sum(axis=(1, 2)) - wagers, out.actions)
    assert (out.winners == 0).mean() > 0.9  # the heuristic beats random moves
    again = play_many(game, ("heuristic", "random"), 200, seed=5)
    assert np.array_equal(again.scores, out.scores) and np.array_equal(again.events, out.events)
    assert not np.array_equal(play_many(game, "random", 200, seed=6).scores, play_many(game, "random", 200, seed=7).scores)


def test_play_outs_from_an_exported_state_end_its_round() -> None:
    game = LostCities(colors=6, rounds=3)
    state = game.new_state(seed=3)
    for _ in range(40):
        state.apply_action(policy_action(state))
    start = kernel.export(state)
    out = kernel.play_outs(start, ("heuristic", "heuristic"), 50, seed=1, styles=("bold", "steady"))
    assert (out.actions > 0).all()
    assert np.array_equal(out.scores, out.round_scores[:, 0, :])  # round 1 scored, nothing more
    whole = kernel.play_outs(start, ("random", "random"), 50, seed=1, round_end=False)
    assert np.array_equal(whole.scores, whole.round_scores.sum(axis=1))
    assert np.array_equal(start, kernel.export(state))  # the start is not changed


def test_kernel_entry_refuses_what_it_cannot_play() -> None:
    game = LostCities()
    with pytest.raises(ValueError, match="unknown kernel policy 'greedy'; choose from: random, heuristic"):
        play_many(game, "greedy", 1, 0)
    with pytest.raises(ValueError, match="unknown style 'wild'"):
        play_many(game, "heuristic", 1, 0, styles=("wild", "steady"))
