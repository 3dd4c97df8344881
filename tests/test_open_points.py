"""The open-decision benchmark (``benchmarks/open_points.py``) on both of its games.

It measures the search where a move matters: a decision is *open* when the legal moves,
each continued by the heuristic on the true deal to the search's cut-off, end with
different values for the mover.  These checks keep its two halves honest on a few
games: the saved values are what a fresh continuation gives, and an entry's gain is its
move's value minus the heuristic's.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any
from types import ModuleType

import pytest
from benchkit import load_benchmark, record_lookahead_depths

from cardtable.agents.base import Observation
from cardtable.agents.knowledge import knowledge_for
from cardtable.lab.series import play_match
from cardtable.protocol import Game
from cardtable.registry import load_game


def _open_points() -> ModuleType:
    return load_benchmark("open_points")


def recomputed(bench: ModuleType, game: Game, point: dict[str, Any], move: int, continuations: int,
               shuffled: bool = False) -> float:
    """A saved move's value computed afresh: the mean of the mover's values after
    ``continuations`` continuations by the point's bot, as ``collect`` makes them."""
    kn = knowledge_for(game)
    total = 0.0
    for c in range(continuations):
        world = (bench.stock_shuffled(point["state"], random.Random(point["seed"] * 7919 + 31 * c)) if shuffled
                 else point["state"].clone())
        world.apply_action(move)
        total += bench.cutoff_values(game, kn, world, point["seed"] + 7919 * c, point["bot"])[point["player"]]
    return round(total / continuations, 9)


@pytest.mark.parametrize(("name", "players"), [("rank", 4), ("lost-ranks", 2)])
def test_open_decisions_and_their_scores(name: str, players: int) -> None:
    bench = _open_points()
    game = load_game(name, players=players)
    points, looked = bench.collect(game, 9000, 2, 1.0, continuations=2)
    assert 0 < len(points) <= looked
    for point in points[:5]:
        values = point["values"]
        assert len(set(values.values())) > 1 and point["heuristic"] in values
        move = next(iter(values))
        assert values[move] == recomputed(bench, game, point, move, 2)
    row = bench.score(game, points, "random")
    assert row["points"] == len(points) == len(row["gains"])
    assert row["regret"] >= 0 and abs(row["gain"]) <= 2


def test_lost_cities_open_decisions_of_another_bot() -> None:
    """``--game lost-cities --bot heuristic:style=bold``: the self-play and every
    continuation are that bot's (the search's own play-out style); the points remember
    it, and its own entry gains nothing at them while a random player differs."""
    bench = _open_points()
    game = load_game("lost-cities")
    bold = "heuristic:style=bold"
    points, looked = bench.collect(game, 70000, 1, 0.05, bot=bold)
    assert 0 < len(points) <= looked
    assert all(p["bot"] == bold for p in points)
    for point in points[:4]:
        move = next(iter(point["values"]))
        assert point["values"][move] == recomputed(bench, game, point, move, 1)
    own = bench.score(game, points, bold)
    assert own["gain"] == 0 and own["heuristic_move"] == len(points)
    other = bench.score(game, points, "random")
    assert other["heuristic_move"] < len(points) and other["regret"] > 0


def test_lost_cities_values_from_a_reshuffled_draw_pile() -> None:
    """``--shuffle-stock`` in Lost Cities: the hands, expeditions and discards stay (every
    seat's view is the same), the draw pile keeps its cards in a fresh order (LC-4, LC-8)."""
    bench = _open_points()
    game = load_game("lost-cities")
    state = game.new_state(seed=3)
    for _ in range(9):
        state.apply_action(state.legal_actions()[0])
    world = bench.stock_shuffled(state, random.Random(2))
    assert world.view(0) == state.view(0) and world.view(1) == state.view(1)
    assert sorted(world.draw_pile()) == sorted(state.draw_pile()) and world.draw_pile() != state.draw_pile()
    assert world.legal_actions() == state.legal_actions()
    points, _ = bench.collect(game, 70000, 1, 0.03, continuations=2, shuffle_stock=True, bot="heuristic:style=bold")
    for point in points[:2]:
        move = next(iter(point["values"]))
        assert point["values"][move] == recomputed(bench, game, point, move, 2, shuffled=True)


def test_a_setting_the_game_lacks_is_refused() -> None:
    bench = _open_points()
    game = load_game("lost-cities")
    with pytest.raises(SystemExit, match="no infer_draws"):
        with bench.knowledge_settings(game, "heuristic|infer=4"):
            pass
    assert not hasattr(knowledge_for(game), "infer_draws")


def test_settings_reach_the_other_play_out_policy_and_are_undone() -> None:
    """A ``|key=value`` setting holds for the knowledge's twin that plays the heuristic
    in the play-outs too (made before the block or in it), and is undone after."""
    bench = _open_points()
    game = load_game("rank", players=4)
    base = knowledge_for(game)
    before = base.with_leaf_policy("heuristic").infer_miss
    with bench.knowledge_settings(game, "heuristic|miss=0.01"):
        assert base.infer_miss == base.with_leaf_policy("heuristic").infer_miss == 0.01
    assert base.infer_miss == base.with_leaf_policy("heuristic").infer_miss == before
    twins = base.__dict__.pop("_twins")
    try:
        with bench.knowledge_settings(game, "heuristic|miss=0.01"):
            assert base.with_leaf_policy("heuristic").infer_miss == 0.01  # made in the block
        assert base.with_leaf_policy("heuristic").infer_miss == before
    finally:
        base.__dict__["_twins"] = twins


def test_the_ceiling_replays_a_rank_series(tmp_path: Path) -> None:
    """``lost_ranks_ceiling.py --game rank replay``: the stored entry replayed in its own
    seats gives the stored results, and a Ранг "win" is not staying in Rank (RG-7)."""
    ceiling = load_benchmark("lost_ranks_ceiling")
    game = load_game("rank", players=4)
    agents = ["heuristic", "random", "random", "random"]
    outcomes = []
    for i, seed in enumerate((11, 12, 13, 14)):
        seating = [(s - i) % 4 for s in range(4)]
        out = play_match(game, agents, seed=seed, seating=seating)
        outcomes.append({"seed": seed, "seating": seating, "returns": list(out.returns)})
    path = tmp_path / "rank.json"
    path.write_text(json.dumps({"command": {"agents": agents}, "outcomes": outcomes}))
    row = ceiling.replay(str(path), "heuristic", "rank")
    not_lost = sum(o["returns"][o["seating"].index(0)] == 0 for o in outcomes)
    assert row["matches"] == 4 and row["wins"] == row["stored_wins"] == not_lost
    assert row["turned_to_win"] == row["turned_to_loss"] == 0
    known = ceiling.replay(str(path), "heuristic", "rank", expected=0.75)
    assert known["stored_estimate"][0] == 0.75  # no match turned: the known rate itself
    assert known["stored_estimate"][1] < 0.75 < known["stored_estimate"][2]
    random_seat = ceiling.replay(str(path), "random", "rank", expected=0.5)
    gain = (random_seat["stored_wins"] - random_seat["wins"]) / 4
    assert random_seat["stored_estimate"][0] == round(0.5 + gain, 4)
    assert ceiling.did_well([0.0, -1.0, 0.0, 0.0], 0) and not ceiling.did_well([0.0, -1.0, 0.0, 0.0], 1)
    assert ceiling.did_well([1.0, -1.0], 0) and not ceiling.did_well([0.0, 0.0], 0)  # Lost Ranks: a draw is no win


def test_the_ceiling_pools_several_series(tmp_path: Path) -> None:
    """``lost_ranks_ceiling.py pooled``: the files' counts add up, and the pooled row's
    intervals and both estimates (paired, stratified) are those of all their matches in
    one file (not an average of the files' rows); the stratified one weighs the rates
    after the deals the heuristic did and did not lose by its known 3 : 1 (RG-7)."""
    ceiling = load_benchmark("lost_ranks_ceiling")
    game = load_game("rank", players=4)
    agents = ["random", "heuristic", "heuristic", "heuristic"]
    outcomes = []
    for i, seed in enumerate(range(21, 33)):
        seating = [(s - i) % 4 for s in range(4)]
        out = play_match(game, agents, seed=seed, seating=seating)
        outcomes.append({"seed": seed, "seating": seating, "returns": list(out.returns)})
    paths = []
    for name, part in (("all", outcomes), ("first", outcomes[:4]), ("rest", outcomes[4:])):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps({"command": {"agents": agents}, "outcomes": part}))
        paths.append(str(path))
    log = tmp_path / "rows.jsonl"
    pooled = ceiling.pooled(paths[1:], "heuristic", "rank", expected=0.75, out=str(log))
    whole = ceiling.replay(paths[0], "heuristic", "rank", expected=0.75)
    for key in ("matches", "wins", "ci95", "stored_wins", "stored_ci95", "turned_to_win", "turned_to_loss",
                "stored_estimate", "stored_stratified"):
        assert pooled[key] == whole[key], key
    yes, after_yes, after_no = whole["wins"], whole["stored_wins"] - whole["turned_to_loss"], whole["turned_to_loss"]
    assert 0 < yes < 12  # both kinds of deal, or there is no stratified estimate
    assert whole["stored_stratified"][0] == round(0.75 * after_yes / yes + 0.25 * after_no / (12 - yes), 4)
    assert 0.0 <= whole["stored_estimate"][1] <= whole["stored_estimate"][2] <= 1.0
    assert pooled["matches"] == 12 and pooled["files"] == paths[1:] and pooled["stored_entry"] == ["random"]
    rows = [json.loads(line) for line in log.read_text().splitlines()]
    assert [row["file"] for row in rows] == paths[1:] and [row["matches"] for row in rows] == [4, 8]


def test_rank_values_from_a_reshuffled_stock() -> None:
    """``collect --shuffle-stock`` (Ранг): each continuation keeps the hands as dealt and
    reshuffles only the stock still to draw (RG-2, RG-9); the saved values are recomputed
    from such worlds, and Lost Ranks, which has no stock, refuses the option."""
    bench = _open_points()
    game = load_game("rank", players=4)
    state = game.new_state(seed=5)
    for _ in range(6):
        state.apply_action(state.legal_actions()[0])
    world = bench.stock_shuffled(state, random.Random(1))
    assert [world.hand_cards(s) for s in range(4)] == [state.hand_cards(s) for s in range(4)]
    assert sorted(world.stock_cards) == sorted(state.stock_cards) and world.stock_cards != state.stock_cards
    assert world.view(0) == state.view(0) and world.legal_actions() == state.legal_actions()
    points, looked = bench.collect(game, 9000, 2, 1.0, continuations=2, shuffle_stock=True)
    assert 0 < len(points) <= looked
    for point in points[:3]:
        move = next(iter(point["values"]))
        assert point["values"][move] == recomputed(bench, game, point, move, 2, shuffled=True)
    with pytest.raises(SystemExit, match="no stock"):
        bench.collect(load_game("lost-ranks", players=2), 9000, 1, 1.0, shuffle_stock=True)


def _seeing_hands(state: Any, worlds: int) -> tuple[Any, list[Any]]:
    """The ceiling script's ``hands:`` agent for the seat to move at ``state``, and the
    first ``worlds`` worlds it would search."""
    agent = load_benchmark("lost_ranks_ceiling").agent_for("hands:ismcts:iterations=8", state.game, 1)
    seen = agent.seeing(Observation.of(state))
    return agent, [seen.sample_state(random.Random(i)) for i in range(worlds)]


def test_a_rank_seat_that_sees_the_hands_but_not_the_stock() -> None:
    """``hands:SPEC`` (the ceiling script, Ранг): every world holds the true hands and the
    stock still to draw in a fresh order; Lost Ranks with 4 players, which has neither a
    stock nor phantom decks, refuses it."""
    game = load_game("rank", players=4)
    state = game.new_state(seed=8)
    for _ in range(4):
        state.apply_action(state.legal_actions()[0])
    agent, worlds = _seeing_hands(state, 4)
    orders = set()
    for world in worlds:
        assert [world.hand_cards(s) for s in range(4)] == [state.hand_cards(s) for s in range(4)]
        assert sorted(world.stock_cards) == sorted(state.stock_cards)
        orders.add(tuple(world.stock_cards))
    assert len(orders) > 1
    assert agent.act(Observation.of(state)) in state.legal_actions()
    with pytest.raises(SystemExit, match="for Ранг"):
        load_benchmark("lost_ranks_ceiling").agent_for("hands:heuristic", load_game("lost-ranks", players=4), 1)


def test_a_command_of_two_seat_that_sees_the_hands_but_not_the_phantom_order() -> None:
    """``hands:SPEC`` in Command of Two (the ceiling script): every world holds every card
    where it is — both hands, the seat's own phantom deck in order, the face-up phantom
    cards — and only the other seat's face-down phantom cards in a fresh order (LR-12)."""
    game = load_game("lost-ranks", players=2)
    state = game.new_state(seed=8)
    for _ in range(9):
        state.apply_action(state.legal_actions()[-1])
    seat = state.current_player()
    other = 1 - seat
    down = state.face_down_counts[other]
    before = state.phantom(other)
    assert down >= 2
    agent, worlds = _seeing_hands(state, 6)
    orders = set()
    for world in worlds:
        assert [world.hand(s) for s in range(2)] == [state.hand(s) for s in range(2)]
        assert world.phantom(seat) == state.phantom(seat)
        assert world.phantom(other)[down:] == state.phantom(other)[down:]
        assert sorted(world.phantom(other)[:down]) == sorted(state.phantom(other)[:down])
        assert world.view(seat) == state.view(seat) and world.legal_actions() == state.legal_actions()
        orders.add(tuple(world.phantom(other)))
    assert len(orders) > 1
    assert state.phantom(other) == before  # the true state untouched
    assert agent.act(Observation.of(state)) in state.legal_actions()


def test_the_ceiling_replays_with_lookahead_playouts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """``lost_ranks_ceiling.py --lookahead D replay``: every search of the replay looks
    ahead at ``D`` of the searching seat's decisions in each play-out; a negative depth,
    or the option with Ранг, is refused with the reason."""
    ceiling = load_benchmark("lost_ranks_ceiling")
    from cardtable.games.lost_ranks.knowledge import LostRanksKnowledge

    monkeypatch.setattr(LostRanksKnowledge, "lookahead_depth", LostRanksKnowledge.lookahead_depth)  # undone after
    depths = record_lookahead_depths(monkeypatch)
    game = load_game("lost-ranks", players=2)
    agents = ["heuristic", "heuristic"]
    out = play_match(game, agents, seed=5, seating=[0, 1])
    path = tmp_path / "cot.json"
    path.write_text(json.dumps({"command": {"agents": agents},
                                "outcomes": [{"seed": 5, "seating": [0, 1], "returns": list(out.returns)}]}))
    monkeypatch.setattr("sys.argv", ["lost_ranks_ceiling.py", "--lookahead", "3", "replay", str(path),
                                     "ismcts:iterations=4"])
    ceiling.main()
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    assert rows[-1]["matches"] == 1 and rows[-1]["entry"] == "ismcts:iterations=4"
    assert depths and set(depths) == {3}  # not the default's 2
    for argv in (["--lookahead", "-1", "replay", str(path), "heuristic"],
                 ["--game", "rank", "--lookahead", "1", "replay", str(path), "heuristic"]):
        monkeypatch.setattr("sys.argv", ["lost_ranks_ceiling.py", *argv])
        with pytest.raises(SystemExit):
            ceiling.main()
        assert "--lookahead" in capsys.readouterr().err


@pytest.mark.parametrize(("game_name", "players"), [("lost-ranks", 2), ("rank", 4)])
def test_fresh_deals_split_by_the_heuristic_result_and_replay_as_stored(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        game_name: str, players: int) -> None:
    """``lost_ranks_ceiling.py deals OUT --seed S --matches N``: the heuristic against copies
    of itself, its seat rotated, written as two arena files — the deals it lost and those it
    did well in — that together hold every match once; replaying a file with the heuristic
    gives back every stored result."""
    ceiling = load_benchmark("lost_ranks_ceiling")
    prefix = tmp_path / "fresh"
    monkeypatch.setattr("sys.argv", ["lost_ranks_ceiling.py", "--game", game_name, "deals", str(prefix),
                                     "--seed", "70", "--matches", "6"])
    ceiling.main()
    summary = json.loads(capsys.readouterr().out.splitlines()[-1])
    files = {kind: json.loads(Path(summary[kind]["file"]).read_text()) for kind in ("lost", "won")}
    rows = files["lost"]["outcomes"] + files["won"]["outcomes"]
    assert sorted(row["seed"] for row in rows) == list(range(70, 76))
    assert {row["seating"].index(0) for row in rows} == set(range(players))
    for kind, data in files.items():
        assert summary[kind]["deals"] == len(data["outcomes"])
        for row in data["outcomes"]:
            assert ceiling.did_well(row["returns"], row["seating"].index(0)) == (kind == "won")
    kind = "lost" if files["lost"]["outcomes"] else "won"
    replayed = ceiling.replay(summary[kind]["file"], "heuristic", game_name)
    assert replayed["wins"] == replayed["stored_wins"] == (0 if kind == "lost" else replayed["matches"])
    monkeypatch.setattr("sys.argv", ["lost_ranks_ceiling.py", "deals", str(prefix), "--seed", "1",
                                     "--matches", "0"])
    with pytest.raises(SystemExit):
        ceiling.main()
    assert "--matches must be 1 or more" in capsys.readouterr().err
