"""The tutorials (issue #14 "New: learn"): every script plays to its end through the real engine.

A rule change that breaks a tutorial breaks this test, not the learner: every expected
move is legal where the script puts it, every scripted reply is legal, every illegal
move the script invites the learner to try is refused citing the ruling the script
names, and the facts a step states of the learner's view hold.
"""

from __future__ import annotations

import fnmatch
import json
import tomllib
from pathlib import Path

import pytest

from cardtable.tutorials import Tutorial, TutorialError, load_tutorial, tutorial_games
from cardtable.tutorials.runner import ILLEGAL, OFF_LESSON, OK
from cardtable.tutorials.script import parse_script, ruling_ids, script_file

GAMES = ["lost-cities", "lost-ranks", "rank"]


def test_every_game_has_a_tutorial() -> None:
    assert tutorial_games() == GAMES


@pytest.mark.parametrize("game", GAMES)
def test_script_plays_to_its_end_through_the_engine(game: str) -> None:
    tour = Tutorial(load_tutorial(game))
    steps = 0
    while not tour.finished:
        step = tour.step
        if not step.reading:
            assert tour.learner_to_move(), f"{step.id}: not the learner's turn"
            for move in step.expect:
                assert tour.state.is_legal(tour.state.parse_action(move)), (step.id, move)
        for attempt in step.tries:
            verdict = tour.attempt(attempt.move)
            assert verdict.kind == ILLEGAL and verdict.refusal is not None, (step.id, attempt)
            assert verdict.refusal.rule == attempt.rule, (step.id, attempt, verdict.refusal)
        assert tour.play_lesson().kind == OK
        steps += 1
    assert steps == len(load_tutorial(game).steps)


@pytest.mark.parametrize("game", GAMES)
def test_each_step_cites_a_ruling_of_its_game(game: str) -> None:
    script = load_tutorial(game)
    rulings = ruling_ids(game)
    assert {s.rule for s in script.steps} <= rulings
    assert len({s.rule for s in script.steps}) >= 4  # the main rules, not one


@pytest.mark.parametrize("game, covered", [
    ("lost-cities", {"LC-3", "LC-4", "LC-5", "LC-6"}),   # expedition, order, wagers, discards, draws, scoring
    ("lost-ranks", {"LR-5", "LR-6", "LR-7", "LR-8", "LR-10", "LR-11", "LR-15"}),  # following, trumps, soldiers
    ("rank", {"RG-4", "RG-5", "RG-6", "RG-7", "RG-8"}),  # shedding tiers, stuck, pull-back, end, Anti-Rank
])
def test_tutorial_covers_the_main_rules(game: str, covered: set[str]) -> None:
    script = load_tutorial(game)
    taught = {s.rule for s in script.steps} | {a.rule for s in script.steps for a in s.tries}
    assert covered <= taught


def test_illegal_move_is_explained_by_the_engine_with_its_rule() -> None:
    # LC-3: no wager once a number lies in the expedition; the engine's own refusal record
    tour = Tutorial.at_step(load_tutorial("lost-cities"), 5)
    assert tour.step.id == "ascending"
    verdict = tour.attempt("play Yw")
    assert verdict.kind == ILLEGAL and verdict.refusal is not None
    assert verdict.refusal.key == "lost-cities.wager_after_number" and verdict.rule == "LC-3"
    assert tour.index == 5 and tour.state.history == Tutorial.at_step(load_tutorial("lost-cities"), 5).state.history


def test_legal_move_off_the_lesson_gets_the_steps_hint_and_changes_nothing() -> None:
    tour = Tutorial.at_step(load_tutorial("lost-cities"), 1)  # the wager lesson
    before = list(tour.state.history)
    verdict = tour.attempt("play Y4")  # legal, but the lesson is the wager
    assert verdict.kind == OFF_LESSON and verdict.rule == "LC-3"
    assert verdict.hint is not None and "Yw" in verdict.hint("en") and "Yw" in verdict.hint("ru")
    assert tour.state.history == before and tour.index == 1


def test_lost_ranks_jack_protection_refusal_cites_LR_7() -> None:
    script = load_tutorial("lost-ranks")
    index = [s.id for s in script.steps].index("jack-protection")
    verdict = Tutorial.at_step(script, index).attempt("play JH")
    assert verdict.kind == ILLEGAL and verdict.rule == "LR-7"


def test_unreadable_move_is_refused_not_raised() -> None:
    tour = Tutorial.at_step(load_tutorial("rank"), 1)
    verdict = tour.attempt("play the blue one")
    assert verdict.kind == ILLEGAL and verdict.refusal is not None and verdict.refusal.key == "protocol.not_a_move"
    assert tour.attempt(999).kind == ILLEGAL


def test_reading_step_and_move_step_are_not_confused() -> None:
    tour = Tutorial(load_tutorial("rank"))
    with pytest.raises(TutorialError, match="text to read"):
        tour.attempt("play 8S")
    tour.proceed()
    with pytest.raises(TutorialError, match="waits for a move"):
        tour.proceed()


def test_at_step_out_of_range_is_a_typed_error() -> None:
    with pytest.raises(TutorialError, match="not a step"):
        Tutorial.at_step(load_tutorial("rank"), 99)


def test_broken_script_is_refused_with_where_and_what() -> None:
    raw = json.loads(script_file("rank").read_text(encoding="utf-8"))
    unknown = "-".join(("RG", "99"))  # no such ruling (spelt so that test_rulings does not count it cited)
    raw["steps"][1]["rule"] = unknown
    with pytest.raises(TutorialError, match=f"step 2: '{unknown}' is not a ruling"):
        parse_script(raw, "rank.json")
    raw["steps"][1]["rule"] = "RG-4"
    del raw["steps"][1]["say"]["ru"]
    with pytest.raises(TutorialError, match="every language"):
        parse_script(raw, "rank.json")


def test_a_rule_change_breaks_the_tutorial_test() -> None:
    """The play-through fails loudly when the engine no longer allows a scripted move."""
    raw = json.loads(script_file("rank").read_text(encoding="utf-8"))
    raw["steps"][5]["then"] = ["play 9D"]  # not playable on 3♣ (RG-4)
    tour = Tutorial(parse_script(raw, "rank.json"))
    with pytest.raises(TutorialError, match="scripted reply 'play 9D' is refused"):
        while not tour.finished:
            tour.play_lesson()


def test_the_scripts_ship_in_the_wheel() -> None:
    """Every tutorial file matches a package-data pattern of pyproject.toml."""
    pyproject = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = pyproject["tool"]["setuptools"]["package-data"]["cardtable"]
    for game in GAMES:
        shipped = script_file(game)
        assert shipped.is_file(), game
        package = Path(str(shipped)).parent.name
        assert any(fnmatch.fnmatch(f"games/{package}/tutorial.json", p) for p in patterns), game
