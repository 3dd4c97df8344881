"""``benchmarks/command_of_two_learned.py``: the policy learned from Command of Two
self-play (LR-12 … LR-15), the measurements behind docs/strength.md's "Fifteenth session"."""

from __future__ import annotations

import json
import random
from types import ModuleType

import numpy as np
import pytest
from benchkit import load_benchmark

from cardtable.agents import Observation, make_agent
from cardtable.agents.knowledge import knowledge_for
from cardtable.games.lost_ranks import decisions as D
from cardtable.games.lost_ranks import kernel as K
from cardtable.registry import load_game


@pytest.fixture(scope="module")
def learned() -> ModuleType:
    return load_benchmark("command_of_two_learned")


@pytest.fixture(scope="module")
def data(learned: ModuleType) -> dict[str, np.ndarray]:
    return dict(learned.collect(learned.command_of_two(), 2, 5, continuations=2))


def midgame(seed: int, moves: int = 23):
    game = load_game("lost-ranks", players=2)
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        state.apply_action(rng.choice(state.legal_actions()))
    return game, state


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_inputs_hold_only_what_the_seat_knows(learned: ModuleType, seed: int) -> None:
    # LR-20: the opponent's hand and face-down phantom cards are private; every world
    # consistent with the seat's view gives the same inputs.
    game, state = midgame(seed)
    seat = state.current_player()
    obs = Observation.of(state, seat)
    L = learned.L
    inputs = []
    for world in [state, *(obs.sample_state(random.Random(i)) for i in range(5))]:
        x = np.zeros(L.FEATURES)
        L.features(np.asarray(K.knowledge_of(K.export(world)), np.int64), x)
        inputs.append(x)
    assert all((x == inputs[0]).all() for x in inputs)
    assert inputs[0][:53].sum() == bin(state.hand_masks[seat]).count("1")  # the hand, renamed


def test_the_collected_labels_are_what_the_heuristic_chose_from(data: dict[str, np.ndarray]) -> None:
    counts, values, hval, chosen = data["count"], data["value"], data["hval"], data["chosen"]
    assert len(counts) > 100 and (counts >= 2).all()
    assert (np.abs(values) <= 1.0).all()
    rows = np.arange(len(counts))
    # the heuristic's move has the best of its own values (ties broken by its noise)
    best = np.where(np.arange(hval.shape[1]) < counts[:, None], hval, -np.inf).max(1)
    assert np.allclose(hval[rows, chosen], best, atol=1e-5)
    # some moves matter on the true deal, and not always the heuristic's is best
    assert (values.max(1) > values[rows, chosen] + 1e-9).any()


def test_a_policy_iteration_step_keeps_the_learned_seats_decisions(learned: ModuleType) -> None:
    game = learned.command_of_two()
    net = learned.Network(hidden=8)
    same = learned.collect(game, 2, 7, policy=net, margin=np.inf)  # never leaves the heuristic's move
    assert len(same["count"]) > 50
    rows = np.arange(len(same["count"]))
    best = same["hval"][rows, learned.heuristic_moves(same)]
    assert np.allclose(same["hval"][rows, same["chosen"]], best, atol=1e-5)  # ties aside, the heuristic's
    net.w2 = (np.random.default_rng(0).standard_normal(net.w2.shape) * 5.0).astype(np.float32)
    other = learned.collect(game, 2, 7, policy=net, margin=0.0)
    rows = np.arange(len(other["count"]))
    assert (other["hval"][rows, other["chosen"]] < other["hval"][rows, learned.heuristic_moves(other)] - 1e-3).any()
    assert (np.abs(other["value"]) <= 1.0).all()


def test_the_gradients_are_those_of_the_loss(learned: ModuleType, data: dict[str, np.ndarray]) -> None:
    X, A, H, V = learned.design({key: value[:40] for key, value in data.items()})
    net = learned.Network(hidden=8, seed=3)
    net.w2 = (np.random.default_rng(1).standard_normal(net.w2.shape) * 0.3).astype(np.float32)
    net.wh[0] = 0.05
    X, H, V = X.astype(np.float64), H.astype(np.float64), V.astype(np.float64)
    for p in net.PARAMETERS:
        setattr(net, p, getattr(net, p).astype(np.float64))
    _, grads = net.gradients(X, A, H, V)
    rng = np.random.default_rng(0)
    for p in net.PARAMETERS:
        weights = getattr(net, p)
        for _ in range(3):
            i = tuple(rng.integers(0, n) for n in weights.shape)
            if p == "w1":  # an input that is set somewhere
                i = (int(np.flatnonzero(X.any(0))[rng.integers(0, int(X.any(0).sum()))]), i[1])
            keep = weights[i]
            weights[i] = keep + 1e-6
            up, _ = net.gradients(X, A, H, V)
            weights[i] = keep - 1e-6
            down, _ = net.gradients(X, A, H, V)
            weights[i] = keep
            assert grads[p][i] == pytest.approx((up - down) / 2e-6, rel=1e-3, abs=1e-9), (p, i)


def test_training_fits_and_the_weights_round_trip(learned: ModuleType, data: dict[str, np.ndarray],
                                                  tmp_path) -> None:
    X, A, H, V = learned.design(data)
    net = learned.Network(hidden=16)
    losses: list[float] = []
    net.fit(X, A, H, V, epochs=4, lr=3e-3, after_epoch=lambda epoch, loss: losses.append(loss))
    assert losses[-1] < losses[0]
    net.save(tmp_path / "w.npz")
    again = learned.Network.load(tmp_path / "w.npz")
    assert np.array_equal(again.q(X, A, H)[0], net.q(X, A, H)[0])


def test_the_compiled_policy_is_the_networks(learned: ModuleType, data: dict[str, np.ndarray]) -> None:
    # the kernel's choice (learned_choice) and numpy's (Network.choose) agree
    X, A, H, _ = learned.design(data)
    net = learned.Network(hidden=16, seed=5)
    net.w2 = (np.random.default_rng(2).standard_normal(net.w2.shape) * 0.5).astype(np.float32)
    numpy_choice = net.choose(X, A, H, data["chosen"], 0.0)
    assert (numpy_choice != data["chosen"]).any()
    L, weights = learned.L, net.compiled()
    x, h, hv, legal = np.zeros(L.FEATURES), np.zeros(16), np.zeros(54), np.zeros(54, np.int64)
    for i in range(0, len(X), 5):
        count = int(data["count"][i])
        legal[:count] = data["legal"][i, :count]
        L.features(data["k"][i], x)
        assert np.allclose(x, X[i])
        chosen = L.choice_from_knowledge(data["k"][i], legal, count, int(data["chosen"][i]), *weights, 0.0, x, h, hv)
        assert numpy_choice[i] == chosen


def test_learned_play_outs_with_an_infinite_margin_are_the_heuristics(learned: ModuleType) -> None:
    game, state = midgame(4)
    s = K.export(state)
    net = learned.Network(hidden=8)
    ours, theirs = np.zeros((6, learned.L.RESULT), np.int64), np.zeros((6, learned.L.RESULT), np.int64)
    moves = learned.L.learned_rounds(s, 11, ours, state.current_player(), net.compiled() + (np.inf,))
    assert moves == K.heuristic_rounds(s, 11, theirs)
    assert np.array_equal(ours, theirs)


def test_the_search_plays_its_seat_by_the_learned_policy_only_inside_the_block(learned: ModuleType,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    game, state = midgame(6, moves=11)
    seat = state.current_player()
    # The default search's play-outs are the heuristic's once no seat looks ahead in them
    # (Command of Two's look-ahead, depth 2 by default): what the learned policy plays
    # at an infinite margin.
    monkeypatch.setattr(knowledge_for(game), "lookahead_depth", 0)

    def search_move() -> tuple[int, dict[int, float]]:
        agent = make_agent("ismcts:iterations=60", game, seed=9)
        move = agent.act(Observation.of(state, seat))
        return move, dict(agent.last.value_sums)  # type: ignore[attr-defined]

    before = search_move()
    net = learned.Network(hidden=8)
    with learned.learned_search(game, net, np.inf, prior=True):  # never leaves the heuristic: the same search
        assert search_move() == before
    with learned.learned_search(game, net, np.inf, opponent=True):  # the opponent's seat: the same, too
        assert search_move() == before
    net.w2 = (np.random.default_rng(0).standard_normal(net.w2.shape) * 5.0).astype(np.float32)
    with learned.learned_search(game, net, 0.0):
        changed = search_move()
    with learned.learned_search(game, net, 0.0, opponent=True):
        modelled = search_move()
    assert modelled != changed  # the other seat of the play-outs plays the learned policy
    heuristic = knowledge_for(game).prior(Observation.of(state, seat), 3)
    other = next(a for a in state.legal_actions() if a != heuristic)
    net.b2[learned.L.action_name(other, state.trump_suit)] = 100.0  # the learned policy wants ``other``
    with learned.learned_search(game, net, 0.0, playouts=False, prior=True):
        assert knowledge_for(game).prior(Observation.of(state, seat), 3) == other
    assert knowledge_for(game).prior(Observation.of(state, seat), 3) == heuristic
    assert search_move() == before  # undone after the block
    assert changed != before


def test_a_mixture_models_the_learned_opponent_in_its_share_of_the_worlds(learned: ModuleType) -> None:
    rng = random.Random(5)
    seeds = [rng.getrandbits(64) for _ in range(4000)]  # as the flat search draws a world's play-out seed
    assert 0.27 < np.mean([learned.mixed_in(x, 0.3) for x in seeds]) < 0.33
    assert not any(learned.mixed_in(x, 0.0) for x in seeds) and all(learned.mixed_in(x, 1.0) for x in seeds)
    game, state = midgame(6, moves=11)
    seat = state.current_player()

    def values() -> dict[int, float]:
        agent = make_agent("ismcts:iterations=60", game, seed=9)
        agent.act(Observation.of(state, seat))
        return dict(agent.last.value_sums)  # type: ignore[attr-defined]

    net = learned.Network(hidden=8)
    net.w2 = (np.random.default_rng(0).standard_normal(net.w2.shape) * 5.0).astype(np.float32)
    default = values()
    runs = {}
    for share in (0.0, 0.5, 1.0):
        with learned.learned_search(game, net, 0.0, opponent=True, mixture=share):
            runs[share] = values()
    with learned.learned_search(game, net, 0.0, opponent=True):
        modelled = values()
    assert runs[0.0] == default and runs[1.0] == modelled != default
    assert runs[0.5] not in (default, modelled)
    with pytest.raises(ValueError, match="from 0 to 1"):
        with learned.learned_search(game, net, 0.0, opponent=True, mixture=1.5):
            pass


def test_a_default_player_searches_with_the_games_own_knowledge_inside_the_block(learned: ModuleType) -> None:
    game, state = midgame(6, moves=11)
    obs = Observation.of(state, state.current_player())
    entry = "ismcts:iterations=60"
    outside = learned.DefaultPlayer(game, entry, seed=9)
    move = outside.act(obs)
    default = dict(outside.inner.last.value_sums)
    net = learned.Network(hidden=8)
    net.w2 = (np.random.default_rng(0).standard_normal(net.w2.shape) * 5.0).astype(np.float32)
    with learned.learned_search(game, net, 0.0, opponent=True):
        patched = make_agent(entry, game, seed=9)
        patched.act(obs)
        assert dict(patched.last.value_sums) != default  # type: ignore[attr-defined]
        inside = learned.DefaultPlayer(game, entry, seed=9)
        assert inside.act(obs) == move and dict(inside.inner.last.value_sums) == default
        patched.act(obs)
        assert dict(patched.last.value_sums) != default  # type: ignore[attr-defined]  # the patch is back


def test_the_learned_bot_keeps_the_heuristics_move_unless_another_clearly_leads(learned: ModuleType) -> None:
    game, state = midgame(8, moves=9)
    seat = state.current_player()
    obs = Observation.of(state, seat)
    heuristic = make_agent("heuristic", game, seed=4).act(obs)
    net = learned.Network(hidden=8)
    assert learned.LearnedPlayer(game, net, np.inf, seed=4).act(obs) == heuristic
    other = next(a for a in state.legal_actions() if a != heuristic)
    net.b2[learned.L.action_name(other, state.trump_suit)] = 100.0
    assert learned.LearnedPlayer(game, net, 0.02, seed=4).act(obs) == other
    assert learned.LearnedPlayer(game, net, 1000.0, seed=4).act(obs) == heuristic


def test_matches_against_the_learned_bot_are_written_per_deal_and_seat(learned: ModuleType, tmp_path) -> None:
    weights, out = str(tmp_path / "w.npz"), tmp_path / "m.jsonl"
    learned.Network(hidden=8).save(weights)
    heuristic = ["matches", "none", "heuristic", "--deals", "1", "--seed", "40"]
    argv = heuristic + ["--opponent", weights, "--margin", "1000", "--out", str(out)]
    learned.main(argv)
    learned.main(heuristic + ["--out", str(tmp_path / "h.jsonl")])  # the same matches against the heuristic

    def results(path) -> list[tuple[int, int, float]]:
        return [(r["seed"], r["seat"], r["return"]) for r in map(json.loads, path.read_text().splitlines())]

    rows = results(out)
    assert [row[:2] for row in rows] == [(40, 0), (40, 1)]
    # a learned bot that never leaves the heuristic's move plays the heuristic's match
    assert rows == results(tmp_path / "h.jsonl")
    learned.main(argv)  # a second run skips the matches already written
    assert results(out) == rows


def test_the_duel_reports_a_share_with_its_error(learned: ModuleType) -> None:
    net = learned.Network(hidden=8)
    row = learned.duel(learned.command_of_two(), net, 6, 100, 0.0)
    assert 0.0 <= row["share"] <= 1.0 and row["se"] >= 0.0 and row["deals"] == 6


@pytest.mark.parametrize(("argv", "says"), [
    (["duel", "w.npz", "--deals", "0"], "at least 1"),
    (["collect", "d.npz", "--matches", "-3", "--seed", "1"], "at least 1"),
    (["train", "w.npz"], "required"),
    (["matches", "none", "heuristic", "--deals", "1", "--seed", "1", "--out", "m.jsonl", "--opponent", "w.npz",
      "--against", "heuristic"], "one opponent at a time"),
])
def test_bad_options_are_refused_with_what_is_allowed(learned: ModuleType, argv: list[str], says: str,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        learned.main(argv)
    assert says in capsys.readouterr().err


def test_the_commands_collect_train_and_duel(learned: ModuleType, tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    data, weights, again = str(tmp_path / "d.npz"), str(tmp_path / "w.npz"), str(tmp_path / "w2.npz")
    learned.main(["collect", data, "--matches", "1", "--seed", "3"])
    learned.main(["train", weights, data, "--test", data, "--epochs", "1", "--hidden", "8"])
    learned.main(["train", again, data, "--test", data, "--epochs", "1", "--init", weights, "--lr", "0.0"])
    assert all(np.array_equal(np.load(weights)[p], np.load(again)[p]) for p in learned.Network.PARAMETERS)
    learned.main(["duel", weights, "--deals", "2", "--margin", "0.0", "0.5"])
    out = capsys.readouterr().out
    assert "decisions from 1 matches" in out and '"epoch": 0' in out
    assert out.count('"deals": 2') == 2
