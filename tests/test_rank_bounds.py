"""The Ранг bounds benchmark (``benchmarks/rank_bounds.py``): what planning the seat's own
later moves is worth once the cards are seen.  Its three ways of playing on are ordered by
construction — the one-step search keeps the heuristic's move unless that move loses and
another does not, and the best sequence tries every sequence of the seat's choices against
the same exact bots — so on every decision the best sequence loses no more often than the
one-step search, and that no more often than the heuristic."""

from __future__ import annotations

import pytest
from benchkit import load_benchmark


@pytest.mark.parametrize("phase", ["empty", "all"])
def test_planning_outcomes_are_ordered(phase: str) -> None:
    bench = load_benchmark("rank_bounds")
    rows = list(bench.planning_outcomes(60000, 30, phase))
    assert rows, "no decision with a choice in 30 games"
    for _seed, heuristic, step, best in rows:
        assert best <= step <= heuristic
    assert sum(r[1] for r in rows) > sum(r[2] for r in rows), "the one-step search on the true state saves nothing"


def test_planning_in_the_empty_phase_looks_only_after_the_stock(capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_benchmark("rank_bounds")
    every = list(bench.planning_outcomes(60000, 10, "all"))
    late = list(bench.planning_outcomes(60000, 10, "empty"))
    assert 0 < len(late) < len(every)
    bench.planning(60000, 10, "empty")
    out = capsys.readouterr().out
    assert f"{len(late)} decisions (empty)" in out
    assert f"{len({r[0] for r in late})} games, at the seat's first such decision (empty)" in out
