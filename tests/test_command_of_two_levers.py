"""``benchmarks/command_of_two_levers.py``: styled heuristics and look-ahead play-outs in
Command of Two (LR-12 … LR-15), the measurements behind docs/strength.md's
"Fourteenth session"."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest
from benchkit import load_benchmark, record_lookahead_depths

from cardtable.agents.knowledge import knowledge_for
from cardtable.games.lost_ranks import decisions
from cardtable.registry import load_game


@pytest.fixture(scope="module")
def levers() -> ModuleType:
    return load_benchmark("command_of_two_levers")


@pytest.fixture(scope="module")
def points() -> list[dict[str, Any]]:
    game = load_game("lost-ranks", players=2)
    collected, _ = load_benchmark("open_points").collect(game, 9100, 1, 0.5)
    assert len(collected) > 10
    return list(collected)


@pytest.mark.parametrize(("text", "says"), [
    ('{"NOPE": 1}', "unknown weights ['NOPE']"),
    ('{"Q_JACK": "x"}', "must be a number"),
    ("[1, 2]", "not a JSON object"),
    ("{Q_JACK: 1}", "is not JSON"),
])
def test_a_bad_style_is_refused_with_what_is_allowed(levers: ModuleType, text: str, says: str) -> None:
    with pytest.raises(SystemExit, match=None) as raised:
        levers.parse_style(text)
    assert says in str(raised.value)


def test_a_style_holds_inside_its_block_only(levers: ModuleType) -> None:
    value_two, lead_value = decisions.value_two, decisions.TWO_LEAD_VALUE
    with levers.styled({"TWO_LEAD_VALUE": 0.9, "lead_trump": 0.5}):
        assert decisions.TWO_LEAD_VALUE == 0.9 and decisions.value_two is not value_two
    assert decisions.TWO_LEAD_VALUE == lead_value and decisions.value_two is value_two
    with pytest.raises(RuntimeError), levers.styled({"Q_JACK": 0.9}):
        raise RuntimeError("an error inside the block")
    assert decisions.Q_JACK != 0.9


def test_the_default_style_changes_no_move_and_a_lead_bias_does(levers: ModuleType, points: list[dict[str, Any]]) -> None:
    same = levers.points_gain(points, {})
    assert same["changed"] == 0 and same["gain"] == 0.0
    leads = sum(1 for p in points if not p["state"].view(p["player"])["trick"])
    shy = levers.points_gain(points, {"lead_plain": -50.0, "lead_trump": -50.0})
    assert leads and 0 < shy["changed"] <= leads  # only leads move: to a Jack or to draw two


def test_duplicate_matches_of_one_style_are_even(levers: ModuleType) -> None:
    row = levers.styles({}, 77, 2, jobs=1)
    assert row["matches"] == 4 and row["share"] == 0.5


def test_the_lookahead_command_scores_an_entry(levers: ModuleType, points: list[dict[str, Any]],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """``lookahead POINTS ENTRY --depth D``: the entry's play-outs look ahead at ``D`` of
    the searching seat's decisions while it is scored, and at the default's after."""
    pytest.importorskip("numba", reason="the kernels are the optional extra 'fast' (pip install 'cardtable[fast]')")
    depths = record_lookahead_depths(monkeypatch)
    game = load_game("lost-ranks", players=2)
    row = levers.lookahead(game, points[:3], "ismcts:iterations=30", 3)
    assert row["points"] == 3 and row["entry"] == "ismcts:iterations=30 depth=3"
    assert depths and set(depths) == {3}
    assert knowledge_for(game).lookahead_depth == 2  # put back
    with pytest.raises(SystemExit, match="--depth -1"):
        levers.lookahead(game, points[:3], "ismcts:iterations=30", -1)
