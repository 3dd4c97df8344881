"""``cardtable kernels`` compiles every kernel entry ahead of play (``make play``'s set-up),
and says what to install when numba is missing; ``serve`` says which play-outs the AI uses."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from cardtable import cli, kernels
from cardtable.console.kernels import INSTALL_HINT, playout_engine
from cardtable.kernels import warm
from cardtable.registry import games_with

runner = CliRunner()


def test_warm_steps_cover_every_game_with_a_kernel_and_each_use() -> None:
    steps = warm.warm_steps()
    assert {(s.game, s.what) for s in steps} == {(g, w) for g in games_with("kernel")
                                                 for w in ("random", "heuristic", "search")}


@pytest.mark.skipif(not kernels.available(), reason="needs the extra fast (numba)")
def test_the_command_compiles_every_entry_and_says_so() -> None:
    result = runner.invoke(cli.app, ["kernels", "--quiet"])
    assert result.exit_code == 0, result.output
    n = len(warm.warm_steps())
    assert f"{n} kernel entries of {len(games_with('kernel'))} games ready" in result.output
    assert "AI play-outs: compiled kernels" in playout_engine()


def test_without_numba_it_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kernels, "available", lambda: False)
    result = runner.invoke(cli.app, ["kernels"])
    assert result.exit_code == 0 and INSTALL_HINT in result.output and "not installed" in result.output
    assert INSTALL_HINT in playout_engine() and "pure Python" in playout_engine()


def test_a_failing_compile_names_the_part_without_a_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken() -> None:
        raise RuntimeError("LLVM ERROR: out of memory")

    monkeypatch.setattr(kernels, "available", lambda: True)
    monkeypatch.setattr(warm, "warm_steps", lambda: [warm.WarmStep("rank", "search", broken)])
    result = runner.invoke(cli.app, ["kernels"])
    assert result.exit_code == 2
    assert "compiling the rank kernel (search) failed: LLVM ERROR: out of memory" in result.output
    assert "Traceback" not in result.output
