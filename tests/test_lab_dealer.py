"""The lab's dealer-advantage measure (LR-19, RG-2) and studies over designers' knobs."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from cardtable.games.lost_ranks import LostRanks
from cardtable.lab.measures import measures_of
from cardtable.lab.report import build_report
from cardtable.lab.results import open_results
from cardtable.lab.runner import run_study
from cardtable.lab.stats import wilson_interval
from cardtable.lab.study import StudyError, load_study, study_from_dict
from cardtable.registry import load_game


def _finished(name: str, seed: int, **options: Any) -> Any:
    rng = random.Random(seed)
    state = load_game(name, **options).new_state(seed=seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("players", [4, 2])
def test_lost_ranks_first_dealer_is_the_seat_drawn_for_round_one(players: int) -> None:
    """LR-19: the first dealer is drawn from the seed; the deal then passes on each round."""
    for seed in range(5):
        state = _finished("lost-ranks", seed, players=players)
        assert measures_of(state)["first_dealer"] == LostRanks.draw_setup(seed)[0] % players
        assert state.result()["rounds"] > 1  # the measure undoes the rotation of later rounds


def test_rank_first_dealer_is_the_dealer() -> None:
    """RG-2: one game, one dealer, drawn from the seed."""
    for seed in range(4):
        state = _finished("rank", seed, players=3)
        assert measures_of(state)["first_dealer"] == state.public_view()["dealer"]
        assert measures_of(state)["first_dealer"] == load_game("rank", players=3).new_state(seed=seed).view(0)["dealer"]


def test_the_report_rates_the_first_dealers_side_with_an_interval(tmp_path: Path) -> None:
    study = study_from_dict({"game": "lost-ranks", "seed": 3, "matches": 12,
                             "options": {"players": 2}, "lineups": [{"agents": ["heuristic", "random"]}]})
    with open_results(tmp_path / "d.sqlite", study) as store:
        run_study(study, store)
        rows = store.rows()
    wins = sum(r["returns"][int(r["measures"]["first_dealer"])] > 0 for r in rows)
    cell = build_report(study, rows).cells[0]
    assert cell.dealer is not None and cell.dealer.label == "first dealer"
    assert (cell.dealer.successes, cell.dealer.trials) == (wins, len(rows))
    assert (cell.dealer.rate.low, cell.dealer.rate.high) == wilson_interval(wins, len(rows))
    assert cell.first_player is None and cell.seat_measures == [cell.dealer]
    assert "first_dealer" not in cell.measures  # a seat, not a quantity to average
    texts = [f.text for f in build_report(study, rows).findings]
    assert any(t.startswith("the first dealer wins ") and ("— significant" in t or "not significant" in t)
               for t in texts), texts


def test_the_knob_sample_study_is_valid_and_names_its_knob() -> None:
    study = load_study(Path(__file__).parent.parent / "examples" / "studies" / "lost-ranks-target.toml")
    assert study.variants == {"target": [10, 6, 14]} and study.options["round_cap"] == 0


def test_a_study_refuses_a_knob_out_of_range_with_its_name() -> None:
    with pytest.raises(StudyError, match=re.escape("target must be a whole number from 1 to 100 (LR-17), not 500")):
        study_from_dict({"game": "lost-ranks", "seed": 1, "matches": 1, "variants": {"target": [10, 500]},
                         "lineups": [{"agents": ["random"]}]})
    with pytest.raises(StudyError, match=re.escape("target applies to 4 players only (LR-17)")):
        study_from_dict({"game": "lost-ranks", "seed": 1, "matches": 1, "options": {"players": 2},
                         "variants": {"target": [10, 6]}, "lineups": [{"agents": ["random"]}]})


def test_a_kernel_study_refuses_a_custom_scoring() -> None:
    """The compiled kernel plays the published rules (the LC-6 scoring): a study varying it is refused."""
    pytest.importorskip("numba")
    with pytest.raises(StudyError, match=re.escape("engine 'kernel': the compiled Lost Cities kernel plays "
                                                   "the published rules only, not cost=")) as refused:
        study_from_dict({"game": "lost-cities", "seed": 1, "matches": 1, "engine": "kernel",
                         "variants": {"cost": [20, 10]}, "lineups": [{"agents": ["random"]}]})
    assert "cost=10" in str(refused.value) and "use engine 'python'" in str(refused.value)
