"""The conformance check shared by every game (OpenSpiel's random-simulation test,
Pgx's api_test): random play-outs asserting the protocol's invariants.

Each game's test module calls :func:`check_game` for its variants.
"""

from __future__ import annotations

import json
import random

from cardtable import records
from cardtable.protocol import TERMINAL, Game, IllegalAction, State

REQUIRED_VIEW_KEYS = {"game", "player", "current_player", "round", "scores", "round_scores"}


def check_game(game: Game, *, seeds: range = range(3), resample_every: int = 7, max_actions: int = 20000) -> None:
    """Play ``len(seeds)`` random matches of ``game`` checking every invariant."""
    for seed in seeds:
        _check_playout(game, seed, resample_every, max_actions)


def _check_playout(game: Game, seed: int, resample_every: int, max_actions: int) -> None:
    rng = random.Random(seed)
    state = game.new_state(seed=seed)
    states: list[State] = []
    step = 0
    while not state.is_terminal():
        assert step < max_actions, "match did not end"
        player = state.current_player()
        assert 0 <= player < game.num_players
        legal = state.legal_actions()
        assert legal, "a non-terminal state must have legal actions"
        assert legal == sorted(set(legal)), "legal actions must be sorted and unique"
        assert all(0 <= a < game.num_distinct_actions for a in legal)
        for a in legal:
            assert state.why_illegal(a) is None
        illegal = [a for a in range(game.num_distinct_actions) if a not in set(legal)]
        for a in rng.sample(illegal, min(3, len(illegal))):
            reason = state.why_illegal(a)
            assert isinstance(reason, str) and reason
            before = str(state)
            try:
                state.apply_action(a)
            except IllegalAction:
                pass
            else:  # pragma: no cover - failure path
                raise AssertionError(f"illegal action {a} was accepted")
            assert str(state) == before, "a refused action must not change the state"
        strings = state.legal_action_strings()
        for a, text in zip(legal, strings):
            assert state.parse_action(text) == a, f"{text!r} does not parse back to {a}"
        for p in range(game.num_players):
            view = state.view(p)
            assert REQUIRED_VIEW_KEYS <= view.keys()
            assert view["player"] == p and view["current_player"] == player
            json.dumps(view)
        if step % resample_every == 0:
            _check_resample(state, rng)
            _check_clone(state)
        states.append(state.clone())
        action = rng.choice(legal)
        state.apply_action(action)
        step += 1

    assert state.current_player() == TERMINAL and state.legal_actions() == []
    returns = state.returns()
    assert len(returns) == game.num_players
    json.dumps(state.result())
    for p in range(game.num_players):
        json.dumps(state.view(p))

    # Undo walks back through every recorded state.
    undone = state.clone()
    for expected in reversed(states[-50:]):
        undone.undo_action()
        assert str(undone) == str(expected)
        assert undone.legal_actions() == expected.legal_actions()

    # The record replays to the same result.
    rec = records.record_of(state, players=[f"p{i}" for i in range(game.num_players)])
    text = records.dumps(rec)
    replayed = records.replay(records.loads(text))
    assert replayed.result() == state.result()
    assert replayed.history == state.history


def _check_clone(state: State) -> None:
    copy = state.clone()
    assert str(copy) == str(state)
    assert copy.history == state.history
    action = copy.legal_actions()[0]
    copy.apply_action(action)
    copy.undo_action()
    assert str(copy) == str(state)
    copy.apply_action(action)
    assert len(state.history) + 1 == len(copy.history), "clone must be independent"


def _check_resample(state: State, rng: random.Random) -> None:
    """Resampling keeps each player's view and legal actions; hidden cards differ
    sometimes; and two states with the same view resample identically."""
    for p in range(state.game.num_players):
        view = state.view(p)
        seed = rng.getrandbits(32)
        first = state.resample(p, random.Random(seed))
        assert first.view(p) == view, "resampling changed what the player sees"
        if state.current_player() == p:
            assert first.legal_actions() == state.legal_actions()
        # Leak test: a state that differs only in what p cannot see gives p the same
        # view, and resampling it with the same seed gives the same state.
        again = first.resample(p, random.Random(seed))
        twice = state.resample(p, random.Random(seed))
        assert str(again) == str(twice), "resampling depends on hidden information"
        # The resampled state plays on.
        probe = first.clone()
        probe.apply_action(probe.legal_actions()[0])
