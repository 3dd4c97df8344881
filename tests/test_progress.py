"""Progress of long runs when stderr is not a terminal: plain lines, one each twentieth of
the work and at the end (:mod:`cardtable.console.progress`)."""

from __future__ import annotations

import io
import re
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from cardtable.cli import app
from cardtable.console.progress import LineProgress, progress_bar


def log_console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=200, force_terminal=False), out


def lines_of(out: io.StringIO) -> list[str]:
    """The lines written, each clock reading as ``T`` (the lines follow the work, not the time)."""
    return [re.sub(r"\b\d+:\d\d:\d\d\b", "T", line) for line in out.getvalue().splitlines()]


def test_a_terminal_gets_the_bar_and_a_file_gets_lines() -> None:
    terminal = Console(file=io.StringIO(), force_terminal=True)
    assert not isinstance(progress_bar(terminal), LineProgress)
    assert isinstance(progress_bar(log_console()[0]), LineProgress)


def test_one_line_each_twentieth_and_one_at_the_end() -> None:
    console, out = log_console()
    with progress_bar(console) as progress:
        task = progress.add_task("Ранг: hard vs heuristic", total=45)
        for _ in range(45):
            progress.advance(task)
    lines = lines_of(out)
    assert len(lines) == 20
    assert lines[0] == "Ранг: hard vs heuristic: 3/45 matches in T, T left"
    assert lines[-1] == "Ранг: hard vs heuristic: 45/45 matches in T"
    done = [int(re.findall(r"(\d+)/45 matches", line)[0]) for line in lines]
    assert done == sorted(done) and all(b - a in (2, 3) for a, b in zip(done, done[1:]))


def test_short_runs_write_every_step_and_quiet_tasks_nothing() -> None:
    console, out = log_console()
    with progress_bar(console, unit="decisions") as progress:
        shown = progress.add_task("[bold]Analysing seat 0", total=None)
        hidden = progress.add_task("  one cell", total=3, quiet=True)
        for done in range(1, 4):
            progress.update(shown, completed=done, total=3)
            progress.advance(hidden)
        progress.update(shown, completed=3)  # no progress: no line
    assert lines_of(out) == ["Analysing seat 0: 1/3 decisions in T, T left",
                             "Analysing seat 0: 2/3 decisions in T, T left",
                             "Analysing seat 0: 3/3 decisions in T"]


def test_a_resumed_task_estimates_from_this_run_only() -> None:
    console, out = log_console()
    with progress_bar(console) as progress:
        task = progress.add_task("all cells", total=40, completed=37)
        assert out.getvalue() == ""
        progress.advance(task)
    assert lines_of(out) == ["all cells: 38/40 matches in T, T left"]


def test_arena_into_a_log_shows_its_progress(tmp_path: Path) -> None:
    res = CliRunner().invoke(app, ["arena", "lost-cities", "--rounds", "1", "-n", "3", "--agents",
                                   "heuristic,random", "--results", str(tmp_path / "a.sqlite")])
    assert res.exit_code == 0, res.output
    assert [line.split(" in ")[0] for line in res.stderr.splitlines() if " matches in " in line] == [
        "Lost Cities: heuristic vs random: 1/3 matches", "Lost Cities: heuristic vs random: 2/3 matches",
        "Lost Cities: heuristic vs random: 3/3 matches"]
