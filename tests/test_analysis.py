"""Move analysis (cardtable.agents.analysis): a seat's decisions scored by the search from
its own information (LC-8: the seat knows its hand, the table and the opponent's known cards)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardtable import cli, records
from cardtable.agents import Observation, make_agent
from cardtable.agents.analysis import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    MatchAnalysis,
    analyse,
    category,
    decision_plies,
)
from cardtable.protocol import State
from cardtable.registry import load_game

ITERATIONS = 40
SEED = 3


def _played(seed: int = SEED, decks: list[list[int]] | None = None, moves: int | None = None) -> State:
    """A one-round Lost Cities match: seat 0 random, seat 1 the heuristic (the first ``moves`` moves)."""
    game = load_game("lost-cities", rounds=1)
    state = game.new_state(seed=seed, decks=decks)
    agents = [make_agent("random", game, seed=1), make_agent("heuristic", game, seed=2)]
    while not state.is_terminal() and (moves is None or len(state.history) < moves):
        state.apply_action(agents[state.current_player()].act(Observation.of(state)))
    return state


@pytest.fixture(scope="module")
def match() -> State:
    return _played()


@pytest.fixture(scope="module")
def random_seat(match: State) -> MatchAnalysis:
    return analyse(records.record_of(match, players=["random", "heuristic"]), 0, iterations=ITERATIONS, seed=5)


def test_covers_exactly_the_seats_choices(match: State, random_seat: MatchAnalysis) -> None:
    state = match.game.new_state(seed=match.seed)
    expected: dict[int, tuple[str, int]] = {}
    for ply, action in enumerate(match.history):
        if state.current_player() == 0 and len(state.legal_actions()) > 1:
            expected[ply] = (state.action_to_string(action), len(state.legal_actions()))
        state.apply_action(action)
    assert {d.ply: (d.played, len(d.moves)) for d in random_seat.decisions} == expected
    assert decision_plies(match.game.new_state(seed=match.seed), list(match.history), 0) == list(expected)
    # only seat 0's choices: its forced moves and every move of seat 1 are left out
    assert 0 < len(expected) < len(match.history) / 2
    for d in random_seat.decisions:
        assert {m.move for m in d.moves} >= {d.played, d.best}


def test_is_deterministic_for_a_seed(match: State, random_seat: MatchAnalysis) -> None:
    again = analyse(match, 0, iterations=ITERATIONS, seed=5)
    assert again.as_dict() == random_seat.as_dict()
    other = analyse(match, 0, iterations=ITERATIONS, seed=6)
    assert other.as_dict() != random_seat.as_dict()  # the seed matters: the test can fail


def test_categories_follow_the_thresholds(random_seat: MatchAnalysis) -> None:
    assert 0 < INACCURACY < MISTAKE < BLUNDER
    for d in random_seat.decisions:
        assert d.loss == pytest.approx(max(0.0, d.win_best - d.win_played))
        assert d.category == category(d.loss, best=d.played == d.best)
        assert d.moves[0].move == d.best
        assert 0.0 <= d.accuracy <= 1.0
    counts = {c: sum(d.category == c for d in random_seat.decisions) for c in ("mistake", "blunder")}
    assert counts["blunder"] > 0, counts  # a random player blunders in a whole round


def test_throwing_away_a_started_expeditions_card_is_flagged() -> None:
    """LC-3/LC-6: discarding the 9 of an expedition of three cards, instead of playing it,
    throws points away: marked as a mistake or a blunder, with a better move named."""
    game = load_game("lost-cities", rounds=1)
    state = game.new_state(seed=2)
    agents = [make_agent("heuristic", game, seed=1), make_agent("heuristic", game, seed=2)]
    while True:
        action = agents[state.current_player()].act(Observation.of(state))
        text = state.action_to_string(action)
        if state.current_player() == 0 and text.startswith("play ") and text.endswith("9"):
            if len(state.view(0)["expeditions"][0][text[5]]) >= 3:  # type: ignore[call-overload, index]
                break
        state.apply_action(action)
    state.apply_action(state.parse_action("discard " + text[5:]))
    last = analyse(state, 0, iterations=ITERATIONS, seed=0).decisions[-1]
    assert last.played == "discard " + text[5:]
    assert last.category in ("mistake", "blunder") and last.loss >= MISTAKE, last
    assert last.best != last.played
    played_instead = next(m for m in last.moves if m.move == text)
    assert played_instead.win > last.win_played  # playing the card is better than throwing it away


def test_accuracy_per_round_and_match(match: State) -> None:
    heuristic = analyse(match, 1, iterations=ITERATIONS, seed=5)
    assert heuristic.accuracy is not None
    assert heuristic.accuracy == pytest.approx(100 * sum(d.accuracy for d in heuristic.decisions)
                                               / len(heuristic.decisions))
    assert [r.round for r in heuristic.rounds] == [0]
    assert heuristic.rounds[0].accuracy == pytest.approx(heuristic.accuracy)
    assert sum(heuristic.rounds[0].counts.values()) == len(heuristic.decisions)


def test_never_reads_the_hidden_cards() -> None:
    """LC-8: two deals that differ only in cards seat 0 never saw (one in seat 1's hand,
    one still in the draw pile) give the same analysis of seat 0 for the same seed."""
    moves = 40
    first = _played(moves=moves)
    game = first.game
    deck = game.deck_for(first.seed, None, 0)
    end_hand = set(first.view(1)["hand"])  # type: ignore[arg-type]
    drawn = 44 - int(first.view(0)["draw_pile"])  # type: ignore[call-overload]
    mine = next(i for i in range(1, 16, 2) if deck.count(deck[i]) == 1 and game.card_name(deck[i]) in end_hand)
    theirs = next(j for j in range(16 + drawn + 1, len(deck)) if deck.count(deck[j]) == 1)
    swapped = list(deck)
    swapped[mine], swapped[theirs] = swapped[theirs], swapped[mine]
    second = game.new_state(seed=first.seed, decks=[swapped])
    replay_a = game.new_state(seed=first.seed)
    for action in first.history:
        second.apply_action(action)
        replay_a.apply_action(action)
        assert second.view(0) == replay_a.view(0)  # the same information for seat 0 …
    assert second.view(1)["hand"] != first.view(1)["hand"]  # … from two different deals
    a = analyse(first, 0, iterations=ITERATIONS, seed=9)
    b = analyse(second, 0, iterations=ITERATIONS, seed=9)
    assert a.decisions and a.as_dict() == b.as_dict()


def test_json_round_trips(random_seat: MatchAnalysis) -> None:
    text = json.dumps(random_seat.as_dict())
    back = MatchAnalysis.from_dict(json.loads(text))
    assert back == random_seat
    assert back.as_dict() == random_seat.as_dict()


def test_bad_seat_is_refused(match: State) -> None:
    with pytest.raises(ValueError, match="seat must be 0..1"):
        analyse(match, 2, iterations=ITERATIONS)


runner = CliRunner()


def test_cli_writes_json_and_a_table(tmp_path: Path, match: State) -> None:
    short = _played(moves=30)
    path = records.save(tmp_path / "m.json", records.record_of(short, players=["rnd", "heur"]))
    out = tmp_path / "analysis.json"
    res = runner.invoke(cli.app, ["analyse", str(path), "--seat", "0", "--iterations", "30", "--seed", "4",
                                  "--all", "--json", str(out)], env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data == analyse(short, 0, iterations=30, seed=4).as_dict()
    # --all lists every decision (without it only the marked ones, which depend on the search)
    assert "accuracy" in res.output.lower() and data["decisions"][0]["played"] in res.output


@pytest.mark.parametrize(("args", "message"), [
    (["missing.json"], "cannot read"),
    (["BAD", "--seat", "5"], "seat must be 0..1"),
    (["BAD", "--iterations", "0"], "iterations"),
])
def test_cli_errors_are_clear(tmp_path: Path, args: list[str], message: str) -> None:
    path = records.save(tmp_path / "m.json", records.record_of(_played(moves=6), players=["a", "b"]))
    args = [str(path) if a == "BAD" else str(tmp_path / a) if a.endswith(".json") else a for a in args]
    res = runner.invoke(cli.app, ["analyse", *args])
    assert res.exit_code == 2, res.output
    assert message in res.output and "Traceback" not in res.output


def test_flat_search_compares_the_root_actions_it_is_given() -> None:
    from cardtable.agents.search import SearchParams, search

    state = load_game("lost-cities", rounds=1).new_state(seed=4)
    obs = Observation.of(state)
    chosen = obs.legal_actions[:3]
    stats = search(obs, SearchParams(iterations=30, mode="pimc", prior=False, root_actions=chosen), 1)
    assert set(stats.visits) == set(chosen) and all(stats.visits.values())
    everything = search(obs, SearchParams(iterations=64, mode="pimc", prior=False, root_actions=obs.legal_actions), 1)
    assert set(everything.visits) == set(obs.legal_actions)  # more than the game's short list
    with pytest.raises(ValueError, match="no legal move"):
        search(obs, SearchParams(iterations=30, mode="pimc", root_actions=(999,)), 1)
