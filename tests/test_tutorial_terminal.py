"""``cardtable tutorial GAME``: the terminal tutorial driven to its end with scripted input.

The learner first tries every move the script invites (each is refused with the
engine's reason and its ruling, in the learner's language), then a legal move off
the lesson where there is one (the step's hint), then the lesson's move.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from cardtable.cli import app
from cardtable.console.tutorial import TerminalTutorial
from cardtable.i18n import message, render
from cardtable.tutorials import Tutorial, load_tutorial

GAMES = ["lost-cities", "lost-ranks", "rank"]


def learner_answers(game: str, *, wrong: bool = True) -> list[str]:
    """What a learner types to walk ``game``'s tutorial: every suggested illegal move,
    one legal move off the lesson when there is one, then the lesson's move."""
    script = load_tutorial(game)
    probe = Tutorial(script)
    answers: list[str] = []
    while not probe.finished:
        step = probe.step
        if step.reading:
            answers.append("")
        else:
            if wrong:
                answers += [a.move for a in step.tries]
                lesson = {probe.state.parse_action(m) for m in step.expect}
                other = [a for a in probe.state.legal_actions() if a not in lesson]
                if other:
                    answers.append(probe.state.action_to_string(other[0]))
            answers.append(step.expect[0])
        probe.play_lesson()
    return answers


def feed(answers: list[str]) -> tuple[Callable[[str], str], list[str]]:
    """An ``input`` that answers in turn, and the prompts it was asked."""
    asked: list[str] = []
    it = iter(answers)

    def read(prompt: str) -> str:
        asked.append(prompt)
        return next(it)
    return read, asked


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("game", GAMES)
def test_terminal_tutorial_runs_to_its_end(game: str, lang: str) -> None:
    out = io.StringIO()
    answers = learner_answers(game)
    read, asked = feed(answers)
    tour = Tutorial(load_tutorial(game))
    finished = TerminalTutorial(tour, console=Console(file=out, width=100, highlight=False), input_fn=read,
                                lang=lang).run()
    text = out.getvalue()
    assert finished and tour.finished
    assert len(asked) == len(answers)
    assert message("tutorial.done", lang) in text
    assert load_tutorial(game).outro(lang).split()[0] in text
    first_try = next(s for s in load_tutorial(game).steps if s.tries)
    # the engine's refusal, in the learner's language, with its ruling id
    refusal = Tutorial.at_step(load_tutorial(game), list(load_tutorial(game).steps).index(first_try)).attempt(
        first_try.tries[0].move).refusal
    assert refusal is not None
    assert render(refusal, lang).split("(")[0].strip()[:30] in " ".join(text.split())
    assert f"({first_try.tries[0].rule})" in text


def test_terminal_tutorial_quit_stops_and_says_how_to_restart() -> None:
    out = io.StringIO()
    read, _ = feed(["", "quit"])
    finished = TerminalTutorial(Tutorial(load_tutorial("rank")), console=Console(file=out, width=100),
                                input_fn=read).run()
    assert not finished
    assert "cardtable tutorial rank" in out.getvalue()


def test_cli_tutorial_in_russian_ends_with_the_offer_of_a_real_game(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDTABLE_HOME", str(tmp_path))
    answers = learner_answers("rank", wrong=False) + ["y", "quit"]
    result = CliRunner().invoke(app, ["tutorial", "rank", "--lang", "ru", "--seed", "3"],
                                 input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.output
    assert message("tutorial.done", "ru") in result.output
    assert message("tutorial.play_easy_prompt", "ru").strip() in result.output
    assert message("terminal.bye", "ru") in result.output  # the real match started, then was left


def test_cli_tutorial_unknown_game_is_a_clear_error() -> None:
    result = CliRunner().invoke(app, ["tutorial", "chess"])
    assert result.exit_code == 2
    assert "no tutorial for 'chess'" in result.output and "lost-cities" in result.output
