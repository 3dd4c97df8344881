"""``cardtable kernels`` compiles every kernel entry ahead of play (``make play``'s set-up),
and says what to install when numba is missing; ``serve`` says which play-outs the AI uses."""

from __future__ import annotations

import pickle

import pytest
from typer.testing import CliRunner

from cardtable import cli, kernels
from cardtable.agents import search as search_module
from cardtable.agents.base import Observation
from cardtable.agents.knowledge import Knowledge, knowledge_for
from cardtable.agents.search import SearchParams
from cardtable.console.kernels import INSTALL_HINT, playout_engine
from cardtable.kernels import warm
from cardtable.registry import games_with, load_game

runner = CliRunner()


def test_warm_steps_cover_every_game_with_a_kernel_and_each_use() -> None:
    steps = warm.warm_steps()
    searches = {(g, f"search, {p} play-outs") for g in games_with("kernel")
                for p in knowledge_for(load_game(g)).leaf_policies}
    assert {(s.game, s.what) for s in steps} == {(g, w) for g in games_with("kernel")
                                                 for w in ("random", "heuristic")} | searches
    assert ("lost-ranks", "search, heuristic play-outs") in searches  # four players' default
    assert ("lost-ranks", "search, lookahead play-outs") in searches  # Command of Two's


def test_each_search_step_plays_out_with_its_policy(monkeypatch: pytest.MonkeyPatch) -> None:
    """The four-player Lost Ranks search plays the heuristic, Command of Two's the
    heuristic with a look-ahead, ``leaf=rollout`` the fast policy: each is another
    compiled entry, and each is warmed, not only the defaults."""
    played: list[tuple[str, str]] = []

    def record(obs: Observation, params: SearchParams, seed: int, knowledge: Knowledge) -> None:
        played.append((knowledge.game.name, knowledge.leaf_policy))

    monkeypatch.setattr(search_module, "search", record)
    for step in warm.warm_steps():
        if step.what.startswith("search"):
            step.run()
            assert played[-1] == (step.game, step.what.split(", ")[1].split()[0])
    assert {("lost-ranks", p) for p in ("heuristic", "rollout", "lookahead")} <= set(played)


@pytest.mark.skipif(not kernels.available(), reason="needs the extra fast (numba)")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_command_compiles_every_entry_and_says_so(jobs: str) -> None:
    """In this process (``--jobs 1``) or in worker processes, one part each."""
    result = runner.invoke(cli.app, ["kernels", "--quiet", "--jobs", jobs])
    assert result.exit_code == 0, result.output
    n = len(warm.warm_steps())
    assert f"{n} kernel entries of {len(games_with('kernel'))} games ready" in result.output
    assert "AI play-outs: compiled kernels" in playout_engine()


def test_the_parts_hold_every_step_once_and_the_searches_come_first() -> None:
    steps = warm.warm_steps()
    parts = warm.warm_parts(steps)
    assert sorted(parts) == sorted({step.part for step in steps})
    assert [kind for _, kind in parts] == sorted((kind for _, kind in parts), key=lambda k: k != "search")
    assert ("lost-ranks", "search") in parts and ("rank", "batch") in parts


def test_a_part_runs_its_own_steps_and_names_the_one_that_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    ran: list[str] = []

    def broken() -> None:
        raise RuntimeError("LLVM ERROR: out of memory")

    monkeypatch.setattr(warm, "warm_steps", lambda: [
        warm.WarmStep("rank", "random", lambda: ran.append("rank random")),
        warm.WarmStep("rank", "search, heuristic play-outs", broken),
        warm.WarmStep("lost-cities", "random", lambda: ran.append("lost-cities random"))])
    assert warm.warm_part("rank", "batch") == 1 and warm.warm_part("lost-cities", "batch") == 1
    assert ran == ["rank random", "lost-cities random"]
    with pytest.raises(warm.WarmFailure) as failure:
        warm.warm_part("rank", "search")
    assert (failure.value.game, failure.value.what) == ("rank", "search, heuristic play-outs")
    copy = pickle.loads(pickle.dumps(failure.value))  # it crosses from a worker process
    assert (copy.game, copy.what, copy.message) == ("rank", "search, heuristic play-outs", "LLVM ERROR: out of memory")


def test_a_wrong_jobs_count_is_refused() -> None:
    result = runner.invoke(cli.app, ["kernels", "--jobs", "-1"])
    assert result.exit_code == 2 and "--jobs" in result.output


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
