"""Checks shared by every game: determinism, records, the registry, the CLI."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from conformance import check_game
from typer.testing import CliRunner

from cardtable import records
from cardtable.agents import Observation, make_agent
from cardtable.cli import app
from cardtable.registry import game_names, load_game

VARIANTS = [
    ("lost-cities", {}),
    ("lost-cities", {"colors": 6}),
    ("lost-ranks", {"players": 4}),
    ("lost-ranks", {"players": 2}),
    ("rank", {"players": 3}),
    ("rank", {"players": 6}),
]
IDS = [f"{g}-{'-'.join(f'{k}{v}' for k, v in o.items()) or 'default'}" for g, o in VARIANTS]


def _play(game_name: str, options: dict[str, object], seed: int, disturb: bool) -> list[int]:
    game = load_game(game_name, **options)
    agents = [make_agent("heuristic" if s % 2 == 0 else "random", game, seed=seed + s) for s in range(game.num_players)]
    state = game.new_state(seed=seed)
    while not state.is_terminal():
        if disturb:
            random.seed(random.random() * 1e9)
            random.random()
        seat = state.current_player()
        state.apply_action(agents[seat].act(Observation.of(state)))
    return state.history


@pytest.mark.parametrize("game_name,options", VARIANTS, ids=IDS)
def test_deterministic_under_disturbed_global_random(game_name: str, options: dict[str, object]) -> None:
    random.seed(1)
    first = _play(game_name, options, 11, disturb=False)
    random.seed(2)
    second = _play(game_name, options, 11, disturb=True)
    assert first == second


CHEAP_VARIANTS = [("lost-cities", {"rounds": 1}), ("lost-ranks", {"players": 2}), ("rank", {"players": 3})]


def _state_class(game_name: str, options: dict[str, object]) -> type:
    return type(load_game(game_name, **options).new_state(seed=0))


@pytest.mark.parametrize("game_name,options", CHEAP_VARIANTS, ids=[g for g, _ in CHEAP_VARIANTS])
def test_conformance_fails_if_resample_redraws_nothing(
        game_name: str, options: dict[str, object], monkeypatch: pytest.MonkeyPatch) -> None:
    """The check of the check: a ``resample`` that is ``clone`` keeps every view and
    passes every other test, but redraws no hidden card (LC-8, LR-20, RG-9)."""
    monkeypatch.setattr(_state_class(game_name, options), "resample", lambda self, player, rng: self.clone())
    with pytest.raises(AssertionError, match="redraw"):
        check_game(load_game(game_name, **options), seeds=range(1))


@pytest.mark.parametrize("game_name,options", CHEAP_VARIANTS, ids=[g for g, _ in CHEAP_VARIANTS])
def test_conformance_fails_on_wrong_returns(
        game_name: str, options: dict[str, object], monkeypatch: pytest.MonkeyPatch) -> None:
    """The check of the check: returns before the end, and a sum the game does not
    declare (LC-7, LR-17, RG-7), are caught."""
    game = load_game(game_name, **options)
    cls = _state_class(game_name, options)
    true_returns = cls.returns
    with monkeypatch.context() as patch:
        patch.setattr(cls, "returns", lambda self: [1.0] + [0.0] * (game.num_players - 1))
        with pytest.raises(AssertionError, match="zero before the end"):
            check_game(game, seeds=range(1))
    with monkeypatch.context() as patch:
        patch.setattr(cls, "returns", lambda self: [r + 0.5 for r in true_returns(self)] if self.is_terminal()
                      else true_returns(self))
        with pytest.raises(AssertionError, match="add up to|outside"):
            check_game(game, seeds=range(1))


def test_registry_names_and_errors() -> None:
    assert game_names() == ["lost-cities", "lost-ranks", "rank"]
    with pytest.raises(ValueError, match="known games"):
        load_game("chess")
    with pytest.raises(ValueError):
        load_game("lost-cities", wings=3)


def _finished_record(tmp_path: Path) -> Path:
    game = load_game("lost-cities", rounds=1)
    state = game.new_state(seed=5)
    rng = random.Random(5)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    path = tmp_path / "game.json"
    records.save(path, records.record_of(state, players=["a", "b"]))
    return path


def test_record_round_trip_and_refusals(tmp_path: Path) -> None:
    path = _finished_record(tmp_path)
    rec = records.load(path)
    state = records.replay(rec)
    assert state.is_terminal() and state.result() == rec["result"]

    bad = dict(rec, moves=list(rec["moves"]))
    bad["moves"][3] = "fly to the moon"
    with pytest.raises(records.RecordError, match=r"move 4 \('fly to the moon'\)"):
        records.replay(bad)
    bad = dict(rec, result={"returns": [5, 5]})
    with pytest.raises(records.RecordError, match="does not match"):
        records.replay(bad)
    with pytest.raises(records.RecordError, match="field 'seed'"):
        records.replay({k: v for k, v in rec.items() if k != "seed"})
    with pytest.raises(records.RecordError, match="not valid JSON"):
        records.loads("{oops")
    with pytest.raises(records.RecordError, match="unknown game"):
        records.replay(dict(rec, game="chess"))


runner = CliRunner()


def test_cli_simulate_prints_summary_and_json(tmp_path: Path) -> None:
    out = tmp_path / "s.json"
    res = runner.invoke(app, ["simulate", "lost-cities", "--games", "4", "--agents", "heuristic,random", "--rounds", "1", "--json", str(out)])
    assert res.exit_code == 0, res.output
    assert "win %" in res.output and "seat advantage" in res.output
    data = json.loads(out.read_text())
    assert data["matches"] == 4 and len(data["entries"]) == 2


def test_simulate_and_arena_store_lab_results(tmp_path: Path) -> None:
    """One runner, one results format: both entries write the lab's results file, and
    the same series resumes from it instead of playing again."""
    from cardtable.lab.results import open_results

    stored = tmp_path / "series.sqlite"
    args = ["lost-cities", "-n", "3", "--agents", "heuristic,random", "--rounds", "1", "--results", str(stored)]
    res = runner.invoke(app, ["simulate", *args])
    assert res.exit_code == 0, res.output
    with open_results(stored) as store:
        rows = store.rows()
        assert store.study.lineups[0].agents == ("heuristic", "random")
    assert [r["match_index"] for r in rows] == [0, 1, 2] and all(r["decision_seconds"] for r in rows)
    res = runner.invoke(app, ["arena", *args, "--json", str(tmp_path / "a.json")])
    assert res.exit_code == 0, res.output
    data = json.loads((tmp_path / "a.json").read_text())
    # resumed: the stored matches, timings and all, not a replay
    assert [o["decision_seconds"] for o in data["outcomes"]] == [r["decision_seconds"] for r in rows]
    res = runner.invoke(app, ["simulate", *args[:-2], "--seed", "9", "--results", str(stored)])
    assert res.exit_code == 2 and "holds results of another study" in res.output


def test_cli_bad_options_are_explained() -> None:
    res = runner.invoke(app, ["simulate", "lost-cities", "--players", "4"])
    assert res.exit_code == 2 and "--players does not apply to lost-cities" in res.output
    res = runner.invoke(app, ["simulate", "chess"])
    assert res.exit_code == 2 and "unknown game" in res.output
    res = runner.invoke(app, ["simulate", "rank", "--agents", "genius"])
    assert res.exit_code == 2 and "unknown agent" in res.output


def test_cli_agent_specs_with_options_and_their_errors() -> None:
    res = runner.invoke(app, ["simulate", "rank", "--players", "3", "--games", "2",
                              "--agents", "ismcts:iterations=5:mode=pimc,random"])
    assert res.exit_code == 0, res.output
    assert "ismcts:iterations=5:mode=pimc" in res.output
    res = runner.invoke(app, ["simulate", "rank", "--agents", "ismcts:iterations"])
    assert res.exit_code == 2 and "is not key=value" in res.output
    res = runner.invoke(app, ["simulate", "rank", "--agents", "heuristic:depth=3"])
    assert res.exit_code == 2 and "takes no options ['depth']" in res.output
    res = runner.invoke(app, ["simulate", "lost-cities", "--agents", "a,b,c"])
    assert res.exit_code == 2 and "3 agents for 2 seats" in res.output


def test_make_agent_spec_options_and_overrides() -> None:
    game = load_game("rank", players=3)
    agent = make_agent("ismcts:iterations=7:prior=false", game, seed=1)
    assert agent.params.iterations == 7 and agent.params.prior is False  # type: ignore[attr-defined]
    assert make_agent("ismcts:iterations=7", game, iterations=9).params.iterations == 9  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="unknown agent 'genius' for rank; choose from: easy"):
        make_agent("genius", game)


def test_series_counts_a_partnership_once() -> None:
    from cardtable.lab.series import MatchOutcome, SeriesSummary

    outcomes = [MatchOutcome(i, [i % 2, 1 - i % 2, i % 2, 1 - i % 2], [1.0, -1.0, 1.0, -1.0], [], 10,
                             [[0.1], [0.2], [0.3], [0.4]]) for i in range(4)]
    teams = SeriesSummary("x", {}, ["a", "b"], [[0, 2], [1, 3]], outcomes).per_entry()
    assert [(e.results, e.wins) for e in teams] == [(4, 2), (4, 2)]
    seats = SeriesSummary("x", {}, ["a", "b"], [[0], [1], [2], [3]], outcomes).per_entry()
    assert [(e.results, e.wins) for e in seats] == [(8, 4), (8, 4)]
    assert sorted(teams[0].decision_seconds) == [0.1, 0.1, 0.2, 0.2, 0.3, 0.3, 0.4, 0.4]


def test_lost_ranks_partnerships_count_once_in_a_series() -> None:
    from cardtable.lab.runner import run_series

    game = load_game("lost-ranks", players=4)
    assert game.teams() == [[0, 2], [1, 3]]  # LR-3: partners sit across
    assert load_game("lost-ranks", players=2).teams() == [[0], [1]]
    summary = run_series(game, ["heuristic", "random"], games=3, seed=5)
    assert [e.results for e in summary.per_entry()] == [3, 3]
    assert [e.results for e in summary.per_seat()] == [3, 3, 3, 3]


def test_cli_replay_and_bad_record(tmp_path: Path) -> None:
    path = _finished_record(tmp_path)
    res = runner.invoke(app, ["replay", str(path)])
    assert res.exit_code == 0, res.output
    assert "Result" in res.output
    broken = tmp_path / "broken.json"
    rec = json.loads(path.read_text())
    rec["moves"][0] = "draw deck"
    broken.write_text(json.dumps(rec))
    res = runner.invoke(app, ["replay", str(broken)])
    assert res.exit_code == 2 and "move 1" in res.output


@pytest.mark.parametrize("game_name,args", [("lost-cities", ["--rounds", "1"]), ("lost-ranks", ["--players", "2"]), ("rank", ["--players", "3"])])
def test_cli_play_a_whole_match_by_numbers(tmp_path: Path, game_name: str, args: list[str]) -> None:
    """A human who always types '1' (plus some bad input) finishes a match; the save replays."""
    save = tmp_path / "save.json"
    cycle = "".join(f"{i}\n" for i in range(1, 18)) + "x1\nd\np1\np2\np\n"
    script = "nonsense\n999\nhelp\n" + cycle * 2000
    res = runner.invoke(app, ["play", game_name, "--seed", "3", "--save", str(save), *args], input=script)
    assert res.exit_code == 0, res.output[-2000:]
    assert "'999' is not one of the keys shown" in res.output
    assert "Match over" in res.output
    rec = records.load(save)
    assert rec["result"] is not None and records.replay(rec).is_terminal()


def test_cli_play_quit_saves_and_resumes(tmp_path: Path) -> None:
    save = tmp_path / "save.json"
    res = runner.invoke(app, ["play", "lost-cities", "--seed", "4", "--save", str(save)], input="1\n1\nquit\n")
    assert res.exit_code == 0, res.output
    rec = records.load(save)
    assert rec["result"] is None and len(rec["moves"]) >= 2
    res = runner.invoke(app, ["play", "lost-cities", "--resume", str(save)], input="quit\n")
    assert res.exit_code == 0, res.output
    assert len(records.load(save)["moves"]) >= len(rec["moves"])


# --- the games' descriptions (cardtable.description) -------------------------------


@pytest.mark.parametrize("name", game_names())
def test_description_matches_the_config(name: str) -> None:
    """Every config field is described once, with the config's default and type."""
    import dataclasses

    from cardtable.registry import game_info

    info = game_info(name)
    game = load_game(name)
    fields = dataclasses.fields(info.config)
    assert [o.name for o in info.options] == [f.name for f in fields]
    assert info.defaults() == dataclasses.asdict(game.config)
    # A record names the ordinary options; the designer's knobs only when changed.
    assert game.config_dict() == {o.name: o.default for o in info.options if o.group != "custom"}
    for option in info.options:
        assert type(option.default) is option.type
        assert option.refusal(option.default) is None
        assert option.help.en and option.help.ru and option.label.en and option.label.ru
    assert info.name == game.name and info.title.en == game.title
    assert info.min_players <= game.num_players <= info.max_players
    assert game.max_game_length() == info.max_game_length(game.config) > 0
    assert game.teams() == info.teams_of(game.num_players)


@pytest.mark.parametrize("name,options,message", [
    ("lost-cities", {"colors": 7}, "colors must be 5 or 6 (LC-1), not 7"),
    ("lost-cities", {"colors": True}, "colors must be 5 or 6 (LC-1), not True"),
    ("lost-cities", {"rounds": 0}, "rounds must be a whole number from 1 to 20 (LC-7), not 0"),
    ("lost-cities", {"rounds": "3"}, "rounds must be a whole number from 1 to 20 (LC-7), not '3'"),
    ("lost-cities", {"rounds": 12345678901234567890123456789},
     "rounds must be a whole number from 1 to 20 (LC-7), not 12345678901234567890123456789"),
    ("lost-cities", {"wings": 2}, "lost-cities has no option 'wings'; its options are: colors, rounds, cost, bonus_length, bonus"),
    ("lost-ranks", {"players": 3}, "players must be 2 or 4 (LR-3), not 3"),
    ("lost-ranks", {"force_strength": 1}, "force_strength must be true or false, not 1"),
    ("rank", {"players": 11}, "players must be a whole number from 2 to 10 (RG-1), not 11"),
])
def test_invalid_options_are_refused_with_what_is_allowed(name: str, options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError) as err:
        load_game(name, **options)
    assert str(err.value) == f"bad option for {name}: {message}"
    cls = type(load_game(name))
    if "wings" not in options:
        with pytest.raises(ValueError, match="must be"):
            cls(**options)  # the constructor checks from the same description


@pytest.mark.parametrize("command", ["play", "simulate", "arena"])
def test_cli_help_lists_every_option_with_its_help(command: str) -> None:
    from cardtable.registry import game_info

    res = runner.invoke(app, [command, "--help"], env={"COLUMNS": "400", "TERMINAL_WIDTH": "400"})
    assert res.exit_code == 0, res.output
    text = " ".join(res.output.split())
    for name in game_names():
        for option in game_info(name).options:
            assert option.flag in text and option.help.en in text, (command, option.name)
    for line in res.output.splitlines():
        if "--force-strength" in line or "--longer" in line:
            assert "<bool>" not in line, line


def test_cli_games_lists_options_and_players() -> None:
    res = runner.invoke(app, ["games"], env={"COLUMNS": "400"})
    assert res.exit_code == 0, res.output
    assert "--force-strength" in res.output and "LR-16" in res.output and "2–10" in res.output
    assert "--rounds (a whole number from 1 to 20, default 3)" in res.output


def test_cli_flags_keep_their_names() -> None:
    res = runner.invoke(app, ["simulate", "lost-ranks", "-p", "2", "--longer", "--force-strength", "--games", "1",
                              "--agents", "random,random"])
    assert res.exit_code == 0, res.output
    assert "players=2, force_strength=True, longer_game=True" in " ".join(res.output.split())
    res = runner.invoke(app, ["simulate", "lost-ranks", "--players", "3"])
    assert res.exit_code == 2 and "players must be 2 or 4 (LR-3), not 3" in res.output


@pytest.mark.parametrize("name", game_names())
def test_the_description_names_every_card_and_action(name: str) -> None:
    """Card and action names are facts of the game (#13 item 2): every id has a name,
    the names are distinct and parse back to their ids."""
    game = load_game(name)
    cards, actions = game.card_names(), game.action_names()
    assert len(cards) == game.num_card_kinds and len(set(cards)) == len(cards)
    assert [game.parse_card(c) for c in cards] == list(range(game.num_card_kinds))
    assert len(actions) == game.num_distinct_actions and len(set(actions)) == len(actions)
    assert [game.parse_action_name(a) for a in actions] == list(range(game.num_distinct_actions))
