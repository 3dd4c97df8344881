"""Golden traces: fixed-seed play-outs must match the stored files exactly."""

from __future__ import annotations

import difflib

import pytest

from golden.traces import TRACES, path_of, trace


@pytest.mark.parametrize("stem,game,options,seed,limit", TRACES, ids=[t[0] for t in TRACES])
def test_trace_matches_golden_file(stem: str, game: str, options: dict[str, object], seed: int, limit: int) -> None:
    expected = path_of(stem).read_text(encoding="utf-8")
    actual = trace(game, options, seed, limit)
    if actual != expected:
        diff = "".join(list(difflib.unified_diff(
            expected.splitlines(True), actual.splitlines(True), "golden", "now", n=1))[:40])
        pytest.fail(f"{stem} differs from its golden trace (regenerate with "
                    f"`python tests/golden/traces.py {stem}` if the change is deliberate):\n{diff}")
