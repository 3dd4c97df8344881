"""Golden traces: fixed-seed whole matches must match the stored files exactly."""

from __future__ import annotations

import difflib
import random

import pytest

from cardtable.registry import load_game
from golden.traces import TRACES, path_of, trace, view_change


@pytest.mark.parametrize("stem,game,options,seed", TRACES, ids=[t[0] for t in TRACES])
def test_trace_matches_golden_file(stem: str, game: str, options: dict[str, object], seed: int) -> None:
    expected = path_of(stem).read_text(encoding="utf-8")
    actual = trace(game, options, seed)
    if actual != expected:
        diff = "".join(list(difflib.unified_diff(
            expected.splitlines(True), actual.splitlines(True), "golden", "now", n=1))[:40])
        pytest.fail(f"{stem} differs from its golden trace (regenerate with "
                    f"`python tests/golden/traces.py {stem}` if the change is deliberate):\n{diff}")


@pytest.mark.parametrize("stem", [t[0] for t in TRACES])
def test_trace_is_a_whole_match(stem: str) -> None:
    """Every trace ends with the match: the returns and the result, after the final views."""
    lines = path_of(stem).read_text(encoding="utf-8").splitlines()
    assert lines[-2].startswith("returns [") and lines[-1].startswith("result {")
    assert any(line.startswith("--- end after ") for line in lines[-12:])


def _rebuild(before: dict[str, object] | None, change: dict[str, object]) -> dict[str, object]:
    view = dict(before or {})
    for key, value in change.items():
        if key.endswith("+"):
            view[key[:-1]] = list(view[key[:-1]]) + list(value)  # type: ignore[call-overload]
        elif key.endswith("-"):
            del view[key[:-1]]
        else:
            view[key] = value
    return view


def test_view_changes_determine_every_view() -> None:
    """A view line is a change that, applied to the previous view, gives the view exactly
    (so the trace records every seat's view of every step)."""
    state = load_game("lost-ranks", players=2).new_state(seed=3)
    rng = random.Random(3)
    last: dict[str, object] | None = None
    while not state.is_terminal():
        view = state.view(0)
        assert _rebuild(last, view_change(last, view)) == view
        last = view
        state.apply_action(rng.choice(state.legal_actions()))
