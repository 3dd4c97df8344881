"""Research interfaces (cardtable.rl): tensors, leaks, PettingZoo, Gymnasium, OpenSpiel.

Skipped as a whole when the ``rl`` extra (numpy, pettingzoo, gymnasium, open_spiel) is
not installed.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")
pyspiel = pytest.importorskip("pyspiel")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from cardtable.protocol import Game, State  # noqa: E402
from cardtable.registry import load_game  # noqa: E402
from cardtable.rl import INFORMATION_STATE, OBSERVATION, VARIANTS, encoder_for  # noqa: E402
from cardtable.rl import openspiel as cos  # noqa: E402
from cardtable.rl.gymnasium import CardtableEnv  # noqa: E402
from cardtable.rl.pettingzoo import env as pz_env  # noqa: E402
from cardtable.rl.pettingzoo import raw_env  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def _id(variant: tuple[str, dict[str, Any]]) -> str:
    name, opts = variant
    return name + "".join(f"-{k}={v}" for k, v in opts.items())


VARIANT_IDS = [_id(v) for v in VARIANTS]


def _random_states(game: Game, seed: int, stops: int = 6, max_moves: int = 400) -> list[State]:
    """Clones of one random match at a few points (deal included)."""
    rng = random.Random(seed)
    state = game.new_state(seed=seed)
    out = [state.clone()]
    marks = sorted(rng.sample(range(1, max_moves), stops))
    for move in range(max_moves):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
        if marks and move + 1 == marks[0]:
            marks.pop(0)
            out.append(state.clone())
    out.append(state.clone())
    return out


# --- encoders -------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS, ids=VARIANT_IDS)
def test_encoder_shapes_ranges_and_masks(variant: tuple[str, dict[str, Any]]) -> None:
    name, opts = variant
    game = load_game(name, **opts)
    enc = encoder_for(game)
    assert enc.observation_layout.size == enc.observation_shape[0]
    info_names = [s.name for s in enc.information_state_layout.segments]
    assert info_names[: len(enc.observation_layout.segments)] == [s.name for s in enc.observation_layout.segments]
    for state in _random_states(game, seed=11):
        for p in range(game.num_players):
            view = state.view(p)
            obs = enc.observation(view)
            info = enc.information_state(view)
            assert obs.shape == enc.observation_shape and obs.dtype == np.float32
            assert info.shape == enc.information_state_shape and info.dtype == np.float32
            assert np.all(obs >= -1) and np.all(obs <= 1) and np.all(np.isfinite(info))
            np.testing.assert_array_equal(info[: obs.size], obs)
            mask = enc.action_mask(state, p)
            assert mask.shape == (game.num_distinct_actions,) and mask.dtype == np.int8
            expected = state.legal_actions() if state.current_player() == p else []
            assert list(np.flatnonzero(mask)) == expected
    assert "| `hand` |" in enc.describe()


def test_encoder_hand_segment_is_the_hand() -> None:
    game = load_game("lost-cities")
    enc = encoder_for(game)
    state = game.new_state(seed=4)
    view = state.view(0)
    t = enc.observation_layout.views(enc.observation(view))
    assert int(t["hand"].sum()) == len(view["hand"]) == 8
    # every card is in exactly one of: hand, unseen (nothing played yet)
    np.testing.assert_array_equal(t["hand"] + t["unseen"], np.ones_like(t["hand"]))


# --- leaks ------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS, ids=VARIANT_IDS)
def test_no_leak_resampled_states_encode_identically(variant: tuple[str, dict[str, Any]]) -> None:
    """Two states differing only in what p cannot see give p identical tensors, masks, strings."""
    name, opts = variant
    game = load_game(name, **opts)
    enc = encoder_for(game)
    rng = random.Random(5)
    differed = 0
    for state in _random_states(game, seed=23):
        for p in range(game.num_players):
            other = state.resample(p, rng)
            if str(other) != str(state):
                differed += 1
            a, b = state.view(p), other.view(p)
            assert a == b
            for kind in (OBSERVATION, INFORMATION_STATE):
                np.testing.assert_array_equal(enc.encode(a, kind), enc.encode(b, kind))
            np.testing.assert_array_equal(enc.action_mask(state, p), enc.action_mask(other, p))
            assert enc.observation_string(a) == enc.observation_string(b)
            assert enc.information_state_string(a, state.history) == enc.information_state_string(b, other.history)
    assert differed > 0, "resampling never changed the hidden cards: the test would prove nothing"


def test_hidden_cards_change_only_other_seats_tensors() -> None:
    """The opponent's tensor does see its own (resampled) hand: the encoders are not blind."""
    game = load_game("lost-cities", rounds=1)
    enc = encoder_for(game)
    state = game.new_state(seed=8)
    other = state.resample(0, random.Random(1))
    assert not np.array_equal(enc.observation(state.view(1)), enc.observation(other.view(1)))


# --- PettingZoo -------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS, ids=VARIANT_IDS)
def test_pettingzoo_api_and_seed(variant: tuple[str, dict[str, Any]]) -> None:
    name, opts = variant
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dict observations: PettingZoo's advisory warnings
        api_test(pz_env(name, **opts), num_cycles=300)
        seed_test(lambda: pz_env(name, **opts), num_cycles=100)
        api_test(pz_env(name, observation_type=INFORMATION_STATE, **opts), num_cycles=50)


def test_pettingzoo_multistep_turns_and_final_rewards() -> None:
    e = raw_env("lost-cities", rounds=1)
    e.reset(seed=3)
    first = e.agent_selection
    obs = e.observe(first)
    e.step(int(np.flatnonzero(obs["action_mask"])[0]))  # play or discard ...
    assert e.agent_selection == first  # ... then the same agent draws (LC-4)
    rng = np.random.default_rng(0)
    total = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        total[agent] += reward
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert e.state is not None and e.state.is_terminal()
    assert [total[a] for a in e.possible_agents] == e.state.returns()


def test_pettingzoo_rank_chain_selects_same_agent_again() -> None:
    e = raw_env("rank", players=4)
    e.reset(seed=0)
    repeats = 0
    rng = np.random.default_rng(1)
    while e.agents and not any(e.terminations.values()):
        agent = e.agent_selection
        mask = e.observe(agent)["action_mask"]
        e.step(int(rng.choice(np.flatnonzero(mask))))
        repeats += e.agent_selection == agent
    assert repeats > 0


# --- Gymnasium --------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS, ids=VARIANT_IDS)
def test_gymnasium_check_env(variant: tuple[str, dict[str, Any]]) -> None:
    name, opts = variant
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "no spec" advisory: we are not going through gymnasium.make
        check_env(CardtableEnv(name, opponents="random", **opts), skip_render_check=True)
        check_env(CardtableEnv(name, opponents="heuristic", seat=None, observation_type=INFORMATION_STATE,
                               render_mode="ansi", **opts))


def test_gymnasium_full_episode_against_named_agents() -> None:
    e = CardtableEnv("lost-ranks", players=4, seat=2, opponents=["random", "heuristic", "random"])
    obs, info = e.reset(seed=9)
    rng = np.random.default_rng(0)
    done, reward, steps = False, 0.0, 0
    while not done:
        assert info["action_mask"].any() and e.action_masks().dtype == bool
        obs, r, done, trunc, info = e.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        reward = float(r)
        steps += 1
    assert e.state is not None and reward == e.state.returns()[2] and steps > 13
    # an illegal action loses by default
    obs, info = e.reset(seed=1)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, r, done, _, info = e.step(bad)
    assert (r, done, info["illegal_action"]) == (-1.0, True, True)


# --- OpenSpiel --------------------------------------------------------------------

SPIEL_VARIANTS = [
    ("lost-cities", {"rounds": 1}),
    ("lost-ranks", {"players": 4, "force_strength": True}),
    ("lost-ranks", {"players": 2}),
    ("rank", {"players": 2}),
    ("rank", {"players": 6}),
]
"""Short variants (the PettingZoo, Gymnasium and leak tests cover every variant)."""


def test_openspiel_games_are_registered() -> None:
    names = set(pyspiel.registered_names())
    assert set(cos.SHORT_NAMES.values()) <= names
    game = pyspiel.load_game("python_cardtable_lost_ranks(players=2)")
    assert game.num_players() == 2 and game.num_distinct_actions() == 107
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.information_state_tensor_shape() == [encoder_for("lost-ranks", players=2).information_state_shape[0]]
    with pytest.raises(ValueError):
        cos.load("lost-cities", colors=7)


@pytest.mark.parametrize("name", sorted(cos.SHORT_NAMES))
def test_openspiel_game_type_is_the_description(name: str) -> None:
    from cardtable.registry import game_info

    info = game_info(name)
    kind = pyspiel.load_game(cos.SHORT_NAMES[name]).get_type()
    assert (kind.min_num_players, kind.max_num_players) == (info.min_players, info.max_players)
    assert kind.parameter_specification == info.defaults()
    for n in info.player_counts():
        options = {info.players_option: n} if info.players_option else {}
        game = cos.load(name, **options)
        ct = load_game(name, **options)
        assert game.num_players() == n
        assert game.max_game_length() == info.max_game_length(ct.config) == ct.max_game_length()
        assert (game.min_utility(), game.max_utility()) == (info.min_return, info.max_return)


@pytest.mark.parametrize("variant", SPIEL_VARIANTS, ids=[_id(v) for v in SPIEL_VARIANTS])
def test_openspiel_random_sim_test(variant: tuple[str, dict[str, Any]]) -> None:
    name, opts = variant
    game = cos.load(name, **opts)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def _spiel_random_state(game: Any, moves: int, seed: int) -> Any:
    rs = np.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal() and len(state.history()) < cos.SEED_BYTES + moves:
        state.apply_action(int(rs.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("name,opts", [("lost-cities", {"rounds": 1}), ("lost-ranks", {"players": 2}),
                                       ("rank", {"players": 6})])
def test_openspiel_serialization_and_resampling(name: str, opts: dict[str, Any]) -> None:
    game = cos.load(name, **opts)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for moves in (0, 1, 17, 60):
        state = _spiel_random_state(game, moves, seed=moves)
        g2, s2 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
        assert s2.history() == state.history() and str(s2) == str(state)
        # history alone replays the match, chance included
        replay = game.new_initial_state()
        for a in state.history():
            replay.apply_action(a)
        assert str(replay) == str(state)
        if state.is_terminal():
            continue
        p = state.current_player()
        for q in range(game.num_players()):
            other = state.resample_from_infostate(q, sampler)
            assert other.history() == state.history() and other.current_player() == p
            assert other.information_state_string(q) == state.information_state_string(q)
            assert other.observation_string(q) == state.observation_string(q)
            assert other.information_state_tensor(q) == state.information_state_tensor(q)
            assert other.observation_tensor(q) == state.observation_tensor(q)
            if q == p:
                assert other.legal_actions() == state.legal_actions()
            g3, o2 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, other))
            assert str(o2) == str(other)


def test_openspiel_chance_nodes_deal_the_seed() -> None:
    game = cos.load("rank", players=3)
    state = game.new_initial_state()
    for i in range(cos.SEED_BYTES):
        assert state.is_chance_node()
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 256 and abs(sum(p for _, p in outcomes) - 1) < 1e-9
        state.apply_action(i + 1)
    inner = state.cardtable_state
    assert inner is not None
    assert inner.seed == int.from_bytes(bytes(range(1, cos.SEED_BYTES + 1)), "little")
    assert state.information_state_tensor(0) != [0.0] * game.information_state_tensor_size()
    assert json.loads(state.observation_string(1))["player"] == 1


ISMCTS_GAMES = [
    ("lost-cities", {"rounds": 1}),
    ("lost-ranks", {"players": 2}),
    ("lost-ranks", {"players": 4}),
    ("rank", {"players": 3}),
]


@pytest.mark.parametrize("name,opts", ISMCTS_GAMES, ids=[_id(v) for v in ISMCTS_GAMES])
def test_openspiel_ismcts_plays_a_full_game(name: str, opts: dict[str, Any]) -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = cos.load(name, **opts)
    rs = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game=game, evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs),
                           uct_c=2.0, max_simulations=4, random_state=rs)
    rng = random.Random(0)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, rng.random))
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rs.randint(256)))
        elif state.current_player() == 0:  # IS-MCTS (searching through resample_from_infostate)
            state.apply_action(bot.step(state))
            decisions += 1
        else:  # the other seats play at random, to keep the test short
            state.apply_action(int(rs.choice(state.legal_actions())))
    returns = state.returns()
    assert decisions > 5 and len(returns) == game.num_players()
    assert sum(returns) == game.utility_sum()


# --- example ----------------------------------------------------------------------


def test_training_example_smoke_run() -> None:
    script = ROOT / "examples" / "train_policy_gradient.py"
    out = subprocess.run([sys.executable, str(script), "--seconds", "2", "--eval", "4", "--batch", "2"],
                         capture_output=True, text=True, timeout=600, check=True).stdout
    assert "win rate vs random" in out


# --- documentation ----------------------------------------------------------------

DOCUMENTED = [("lost-cities", {}), ("rank", {"players": 4}), ("lost-ranks", {"players": 2}),
              ("lost-ranks", {"players": 4})]


def test_docs_tables_match_the_code() -> None:
    doc = (ROOT / "docs" / "rl.md").read_text(encoding="utf-8")
    for name, opts in DOCUMENTED:
        assert encoder_for(name, **opts).describe() in doc, f"docs/rl.md: layout of {name} {opts} is stale"
    for name, opts in VARIANTS:
        enc = encoder_for(name, **opts)
        o = ", ".join(f"{k}={v}" for k, v in opts.items()) or "(defaults)"
        row = f"| {name} | {o} | {enc.num_actions} | {enc.observation_shape[0]} | {enc.information_state_shape[0]} |"
        assert row in doc, f"docs/rl.md: shapes row missing or stale: {row}"
