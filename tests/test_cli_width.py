"""Every command reads well in an 80-column terminal (issue #14.7): help and output."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rich.cells import cell_len
from typer.testing import CliRunner

from cardtable import cli, records
from cardtable.registry import load_game

runner = CliRunner()
ENV = {"COLUMNS": "80", "TERMINAL_WIDTH": "80"}
INTERVAL = re.compile(r"\d+\.\d \[\d+\.\d, \d+\.\d\]")


@pytest.fixture(autouse=True)
def _eighty_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli.console, "width", 80)
    monkeypatch.setattr(cli.err_console, "width", 80)


def _check_width(output: str, *, unbroken: str | None = None) -> None:
    for line in output.splitlines():
        if unbroken is not None and unbroken in line:
            continue  # a path is printed whole, for the terminal to wrap, so it can be copied
        assert cell_len(line) <= 80, line


@pytest.mark.parametrize("command", [[], ["games"], ["play"], ["simulate"], ["arena"], ["replay"], ["serve"],
                                     ["analyse"], ["tutorial"]])
def test_help_fits_80_columns_without_artefacts(command: list[str]) -> None:
    res = runner.invoke(cli.app, [*command, "--help"], env=ENV)
    assert res.exit_code == 0, res.output
    _check_width(res.output)
    assert "<bool>" not in res.output
    assert "`" not in res.output  # no literal RST backticks
    for line in res.output.splitlines():
        if not line.startswith("Usage:"):
            assert not line.rstrip().endswith(("…", "...")), line  # nothing cut
    if not command:
        # one line per command: a docstring's line break does not break the listing
        listing = [line for line in res.output.split("Commands:")[1].splitlines() if line.strip()]
        assert all(re.match(r"  [a-z]+ {2,}[A-Z]", line) for line in listing), listing


def test_simulate_output_fits_80_columns(tmp_path: Path) -> None:
    out = tmp_path / "a-rather-long-directory-name-for-the-summary" / "summary-of-the-series.json"
    res = runner.invoke(cli.app, ["simulate", "lost-cities", "--rounds", "1", "-n", "2", "--agents",
                                  "heuristic,random", "--json", str(out)], env=ENV)
    assert res.exit_code == 0, res.output
    _check_width(res.output, unbroken=str(out))
    assert str(out) in res.output  # the path unbroken
    assert "{'" not in res.output and "ms/deci…" not in res.output
    assert len(INTERVAL.findall(res.output)) == 2 * 4  # win and loss, 2 agents + 2 seats, each on one line


def test_arena_output_fits_80_columns(tmp_path: Path) -> None:
    out = tmp_path / "arena.json"
    res = runner.invoke(cli.app, ["arena", "rank", "-p", "3", "-n", "2", "--agents", "heuristic,random",
                                  "--json", str(out)], env=ENV)
    assert res.exit_code == 0, res.output
    _check_width(res.output, unbroken=str(out))
    assert f"Results written to {out}" in res.output
    assert "{'" not in res.output and "…" not in res.output
    assert "decision times (ms)" in res.output and INTERVAL.search(res.output)


def test_replay_output_has_no_raw_dicts(tmp_path: Path) -> None:
    import random

    state = load_game("lost-ranks").new_state(seed=1)
    rng = random.Random(1)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    path = records.save(tmp_path / "lr.json", records.record_of(state, players=["a", "b", "c", "d"]))
    res = runner.invoke(cli.app, ["replay", str(path)], env=ENV)
    assert res.exit_code == 0, res.output
    _check_width(res.output)
    assert "{'" not in res.output and "Result" in res.output


def test_analyse_output_fits_80_columns(tmp_path: Path) -> None:
    import random

    state = load_game("lost-cities", rounds=1).new_state(seed=2)
    rng = random.Random(1)
    while len(state.history) < 40:
        state.apply_action(rng.choice(state.legal_actions()))
    path = records.save(tmp_path / "lc.json", records.record_of(state, players=["a", "b"]))
    out = tmp_path / "a-rather-long-directory-name-for-the-analysis" / "analysis-of-the-match.json"
    res = runner.invoke(cli.app, ["analyse", str(path), "--iterations", "20", "--all", "--json", str(out)], env=ENV)
    assert res.exit_code == 0, res.output
    _check_width(res.output, unbroken=str(out))
    assert f"Analysis written to {out}" in res.output
    assert "{'" not in res.output and "accuracy" in res.output
