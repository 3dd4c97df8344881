"""The designers' lab: studies, the runner (resume, --jobs, Ray), event counts, the report.

The report's numbers are checked against the results file read independently with
SQLite's own JSON functions, not through the lab's code.
"""

from __future__ import annotations

import json
import re
import sqlite3
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, ClassVar

import pytest

from cardtable.lab import runner
from cardtable.lab.results import COLUMNS, TIMING_COLUMNS, export_parquet, open_results
from cardtable.lab.runner import run_study
from cardtable.lab.series import play_match
from cardtable.lab.stats import newcomb_interval, wilson_interval
from cardtable.lab.study import Study, StudyError, load_study, study_from_dict
from cardtable.registry import load_game

SMALL = {"game": "lost-ranks", "seed": 7, "matches": 6, "variants": {"force_strength": [False, True]},
         "lineups": [{"agents": ["heuristic", "random"]}]}


def small_study(**changes: Any) -> Study:
    return study_from_dict({**SMALL, **changes})


def reproducible(rows: list[dict[str, Any]]) -> list[str]:
    """Rows without their timing columns, sorted (for equality across runners)."""
    return sorted(json.dumps({c: r[c] for c in COLUMNS if c not in TIMING_COLUMNS}, sort_keys=True) for r in rows)


def run_to_rows(study: Study, path: Path, **how: Any) -> list[dict[str, Any]]:
    with open_results(path, study) as store:
        run_study(study, store, **how)
        return store.rows()


# --- studies -------------------------------------------------------------------------


@pytest.mark.parametrize(("change", "says"), [
    ({"gmae": "x"}, "unknown field 'gmae'"),
    ({"game": "chess"}, "field 'game' must be one of lost-cities, lost-ranks, rank"),
    ({"matches": 0}, "field 'matches' must be at least 1"),
    ({"matches": "many"}, "field 'matches' must be a whole number"),
    ({"variants": {"players": [4, 3]}}, "players must be 2 or 4"),
    ({"variants": {"force_strength": []}}, "variants.force_strength must be a non-empty list"),
    ({"variants": {"colour": [1]}}, "bad option for lost-ranks"),
    ({"lineups": [{"agents": ["heuristic"] * 5}]}, "5 agents for 4 seats"),
    ({"lineups": [{"agents": ["grandmaster"]}]}, "unknown agent 'grandmaster'"),
    ({"lineups": [{"agents": ["random"], "seating": "shuffle"}]}, "lineups[1].seating must be one of rotate, fixed"),
])
def test_a_bad_study_names_the_field_and_what_is_allowed(change: dict[str, Any], says: str) -> None:
    with pytest.raises(StudyError) as err:
        small_study(**change)
    assert says in str(err.value)


def test_a_study_file_is_read_and_its_cells_are_variants_times_lineups(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_text('game = "lost-cities"\nmatches = 3\n[variants]\ncolors = [5, 6]\nrounds = [1, 3]\n'
                    '[[lineups]]\nagents = ["heuristic", "random"]\n[[lineups]]\nagents = ["random"]\nseating = "fixed"\n')
    study = load_study(path)
    cells = study.cells()
    assert len(cells) == 8 and cells[0].variant == {"colors": 5, "rounds": 1}
    assert len({c.key for c in cells}) == 8
    path.write_text("game = ")
    with pytest.raises(StudyError, match="not valid TOML"):
        load_study(path)


def test_every_example_study_is_valid() -> None:
    examples = sorted((Path(__file__).parents[1] / "examples" / "studies").glob("*.toml"))
    assert {load_study(p).game for p in examples} == {"lost-cities", "lost-ranks", "rank"}


# --- typed events ------------------------------------------------------------------


@dataclass(frozen=True)
class Tick:
    kind: ClassVar[str] = "fake_tick"


@dataclass(frozen=True)
class Rare:
    kind: ClassVar[str] = "fake_rare"


class TickingState:
    """A real Lost Cities state whose events carry fake typed details: one Tick per
    action and a Rare on every 10th action."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def apply_action(self, action: int) -> Any:
        event = self._inner.apply_action(action)
        details = (Tick(),) + ((Rare(),) if len(self._inner.history) % 10 == 0 else ())
        return type("FakeEvent", (), {"details": details, "event": event})()


class TickingGame:
    def __init__(self) -> None:
        self._inner = load_game("lost-cities", rounds=1)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def new_state(self, **kw: Any) -> TickingState:
        return TickingState(self._inner.new_state(**kw))


def test_typed_event_details_are_counted_by_kind() -> None:
    outcome = play_match(TickingGame(), ["random", "random"], seed=3)  # type: ignore[arg-type]
    assert outcome.events == {"fake_tick": outcome.actions, "fake_rare": outcome.actions // 10}
    plain = play_match(load_game("lost-cities", rounds=1), ["random", "random"], seed=3)
    assert plain.actions == outcome.actions and plain.returns == outcome.returns


# --- the runner --------------------------------------------------------------------------


def test_two_processes_play_exactly_the_matches_one_process_plays(tmp_path: Path) -> None:
    study = small_study()
    one = run_to_rows(study, tmp_path / "one.sqlite")
    two = run_to_rows(study, tmp_path / "two.sqlite", jobs=2)
    assert len(one) == 12 and reproducible(one) == reproducible(two)
    assert len({r["seed"] for r in one}) == 12


class Stop(Exception):
    pass


def test_an_interrupted_study_resumes_without_playing_a_match_twice(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    study = small_study()
    whole = run_to_rows(study, tmp_path / "whole.sqlite")
    played: list[tuple[str, int]] = []
    real = runner.play_task

    def counting(task: runner.MatchTask) -> dict[str, Any]:
        played.append((task.cell_key, task.match_index))
        return real(task)

    monkeypatch.setattr(runner, "play_task", counting)

    def stop_after_five(_row: dict[str, Any]) -> None:
        if len(played) == 5:
            raise Stop

    path = tmp_path / "resumed.sqlite"
    with open_results(path, study) as store, pytest.raises(Stop):
        run_study(study, store, on_row=stop_after_five)
    with open_results(path, study) as store:
        assert len(store.rows()) == 5
        assert run_study(study, store) == 7
        rows = store.rows()
    assert len(played) == len(set(played)) == 12
    assert reproducible(rows) == reproducible(whole)


def test_a_results_file_refuses_another_study(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite"
    run_to_rows(small_study(matches=1), path)
    with pytest.raises(StudyError, match="holds results of another study"):
        open_results(path, small_study(seed=8)).__enter__()
    assert len(run_to_rows(small_study(matches=2), path)) == 4  # a study may grow


def test_results_export_to_parquet(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    path = tmp_path / "r.sqlite"
    rows = run_to_rows(small_study(matches=2), path)
    assert export_parquet(path, tmp_path / "r.parquet") == 4
    table = pq.read_table(tmp_path / "r.parquet")
    assert table.column("seed").to_pylist() == [r["seed"] for r in rows]


def test_ray_plays_exactly_the_matches_one_process_plays(tmp_path: Path) -> None:
    ray = pytest.importorskip("ray", reason="ray is not installed (pip install 'cardtable[ray]')")
    study = small_study(matches=3)
    local = run_to_rows(study, tmp_path / "local.sqlite")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             runtime_env={"env_vars": {"PYTHONPATH": str(Path(runner.__file__).parents[2])}})
    try:
        on_ray = run_to_rows(study, tmp_path / "ray.sqlite", use_ray=True)
    finally:
        ray.shutdown()
    assert reproducible(on_ray) == reproducible(local)


# --- the report ------------------------------------------------------------------------


class Cells(HTMLParser):
    """Every table cell's attributes, by the row's data-label / data-measure / data-change
    (as ``change:…``), in page order."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[tuple[str, list[dict[str, str]]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "tr":
            change = a.get("data-change")
            self.rows.append((f"change:{change}" if change else a.get("data-label") or a.get("data-measure") or "", []))
        elif tag == "td" and self.rows:
            self.rows[-1][1].append(a)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def sql(path: Path, query: str) -> Any:
    with sqlite3.connect(path) as db:
        return db.execute(query).fetchone()


def test_the_report_shows_the_numbers_of_the_results_table(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from cardtable.lab.report import build_report
    from cardtable.lab.report_html import render_html

    study = study_from_dict({"game": "lost-cities", "seed": 3, "matches": 12, "options": {"rounds": 1},
                             "variants": {"colors": [5, 6]}, "lineups": [{"agents": ["heuristic", "random"]}]})
    path = tmp_path / "r.sqlite"
    rows = run_to_rows(study, path)
    page = Cells()
    html = render_html(build_report(study, rows))
    page.feed(html)
    base = "json_extract(variant, '$.colors') = 5"
    other = "json_extract(variant, '$.colors') = 6"
    wins5, n5 = sql(path, f"SELECT sum(json_extract(returns, '$[0]') > 0), count(*) FROM matches WHERE {base}")
    wins6, n6 = sql(path, f"SELECT sum(json_extract(returns, '$[0]') > 0), count(*) FROM matches WHERE {other}")
    seat0 = [cells for label, cells in page.rows if label == "seat 0"]
    assert len(seat0) == 2
    for cells, wins, n in ((seat0[0], wins5, n5), (seat0[1], wins6, n6)):
        low, high = wilson_interval(wins, n)
        shown = cells[3]
        assert float(shown["data-value"]) == pytest.approx(wins / n)
        assert (float(shown["data-low"]), float(shown["data-high"])) == pytest.approx((low, high))
    change = next(cells for label, cells in page.rows if label == "change:seat 0 win rate")[3]
    assert float(change["data-value"]) == pytest.approx(wins6 / n6 - wins5 / n5)
    assert (float(change["data-low"]), float(change["data-high"])) == pytest.approx(newcomb_interval(wins5, n5, wins6, n6))
    wagers = next(cells for label, cells in page.rows if label == "wagers_played")
    for cells, where in ((wagers[1], base), (wagers[2], other)):
        (expected,) = sql(path, f"SELECT avg(json_extract(measures, '$.wagers_played')) FROM matches WHERE {where}")
        assert float(cells["data-value"]) == pytest.approx(expected)
    lengths = next(cells for label, cells in page.rows if label == "actions")
    assert float(lengths[1]["data-value"]) == pytest.approx(sql(path, f"SELECT avg(actions) FROM matches WHERE {base}")[0])
    text = " ".join(page.text)
    assert f"Seat 0 wins {100 * wins5 / n5:.1f} %" in text
    assert html.count("src='data:image/png;base64,") >= 4 and "Fairness between seats" in text


def test_the_report_shows_every_event_kind_that_appears(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from cardtable.lab.report import build_report
    from cardtable.lab.report_html import render_html

    study = small_study(matches=2)
    rows = run_to_rows(study, tmp_path / "r.sqlite")
    for i, row in enumerate(rows):
        row["events"] = {"no_winner_trick": i, "spy_decided": i % 2}
    page = Cells()
    html = render_html(build_report(study, rows))
    page.feed(html)
    shown = {label: cells for label, cells in page.rows}
    assert float(shown["event:no_winner_trick"][1]["data-value"]) == pytest.approx((0 + 1) / 2)
    assert float(shown["event:spy_decided"][2]["data-value"]) == pytest.approx((0 + 1) / 2)
    assert "id='fig-rules'" in html


def test_lab_run_writes_the_report_and_bad_input_gets_a_clear_error(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from typer.testing import CliRunner

    from cardtable.cli import app

    study = tmp_path / "tiny.toml"
    study.write_text('title = "Tiny"\ngame = "rank"\nmatches = 4\n[[lineups]]\nagents = ["heuristic", "random"]\n')
    cli = CliRunner()
    done = cli.invoke(app, ["lab", "run", str(study), "--out", str(tmp_path / "tiny.sqlite"), "--pdf"])
    assert done.exit_code == 0, done.output
    assert "is left in Rank" in (tmp_path / "tiny.html").read_text(encoding="utf-8")
    assert (tmp_path / "tiny.pdf").read_bytes().startswith(b"%PDF")
    again = cli.invoke(app, ["lab", "report", str(tmp_path / "tiny.sqlite"), "--out", str(tmp_path / "again.html")])
    assert again.exit_code == 0 and (tmp_path / "again.html").exists()
    study.write_text('game = "rank"\nmatches = 4\n[[lineups]]\nagents = ["heuristic", "rnd"]\n')
    bad = cli.invoke(app, ["lab", "run", str(study), "--out", str(tmp_path / "bad.sqlite")])
    assert bad.exit_code == 2 and "unknown agent 'rnd'" in bad.output and "Traceback" not in bad.output
    missing = cli.invoke(app, ["lab", "report", str(tmp_path / "nothing.sqlite")])
    assert missing.exit_code == 2 and "no results file" in missing.output


def test_the_report_tests_the_lost_ranks_armies_not_only_the_seats(tmp_path: Path) -> None:
    """LR-3: the armies are dealt to the partnerships afresh each match, so seats 0+2 are
    not an army; the report's army rates come from the matches' winners."""
    pytest.importorskip("matplotlib")
    from cardtable.lab.report import build_report
    from cardtable.lab.report_html import render_html

    study = small_study(matches=8)
    path = tmp_path / "r.sqlite"
    rows = run_to_rows(study, path)
    page = Cells()
    page.feed(render_html(build_report(study, rows)))
    red = [cells for label, cells in page.rows if label == "the red army"]
    assert len(red) == 2
    for cells, flag in zip(red, ("false", "true")):
        wins, n = sql(path, "SELECT sum(json_extract(measures, '$.red_army_won')), count(*) FROM matches "
                            f"WHERE json_extract(variant, '$.force_strength') = {flag}")
        assert float(cells[3]["data-value"]) == pytest.approx(wins / n)
    mixed = sql(path, "SELECT count(*) FROM matches WHERE (json_extract(returns, '$[0]') > 0) "
                      "!= json_extract(measures, '$.red_army_won')")[0]
    assert mixed > 0  # seats 0+2 were the red army in some matches and the black in others


# --- engines ---------------------------------------------------------------------------


@pytest.mark.parametrize(("change", "says"), [
    ({"engine": "fast"}, "field 'engine' must be one of python, kernel, not 'fast'"),
    ({"engine": "kernel", "options": {"jack_points": 3}},
     "engine 'kernel': the compiled Lost Ranks kernel plays the published rules only, not jack_points=3"),
    ({"engine": "kernel", "game": "lost-cities", "variants": {},
      "lineups": [{"agents": ["hard", "random"]}]}, "plays only random, heuristic, heuristic:style=STYLE seats, not 'hard'"),
])
def test_a_kernel_study_names_what_it_supports(change: dict[str, Any], says: str) -> None:
    with pytest.raises(StudyError, match=re.escape(says)):
        small_study(**change)


def _entry_stats(rows: list[dict[str, Any]]) -> tuple[int, int, float, float]:
    """Entry 0's wins and results, and its mean score and that mean's standard error."""
    wins = sum(r["returns"][r["seating"].index(0)] > 0 for r in rows)
    scores = [float(r["scores"][r["seating"].index(0)]) for r in rows]
    mean = sum(scores) / len(scores)
    var = sum((s - mean) ** 2 for s in scores) / (len(scores) - 1)
    return wins, len(rows), mean, (var / len(scores)) ** 0.5


def test_kernel_engine_agrees_with_python_within_intervals(tmp_path: Path) -> None:
    """The same small study on both engines: entry 0's win rates have overlapping 95 %
    intervals and its mean scores are within 4 standard errors (the kernel deals its
    own cards, so the rows differ match by match)."""
    from cardtable import kernels

    if not kernels.available():
        pytest.skip("engine 'kernel' needs numba and numpy (pip install 'cardtable[fast]')")
    spec = {"game": "lost-cities", "seed": 11, "matches": 300, "options": {"rounds": 1},
            "lineups": [{"agents": ["heuristic", "heuristic:style=bold"]}]}
    python = run_to_rows(study_from_dict(spec), tmp_path / "python.sqlite")
    kernel = run_to_rows(study_from_dict({**spec, "engine": "kernel"}), tmp_path / "kernel.sqlite")
    assert [r["seed"] for r in kernel] == [r["seed"] for r in python]  # seeds derived the same way
    assert [r["seating"] for r in kernel] == [r["seating"] for r in python]
    assert kernel[0]["events"].keys() == python[0]["events"].keys()
    assert reproducible(kernel) != reproducible(python)  # really played by another engine
    (pw, pn, pm, pse), (kw, kn, km, kse) = _entry_stats(python), _entry_stats(kernel)
    (plo, phi), (klo, khi) = wilson_interval(pw, pn), wilson_interval(kw, kn)
    assert plo <= khi and klo <= phi, ((pw, pn), (kw, kn))
    assert abs(pm - km) <= 4 * (pse ** 2 + kse ** 2) ** 0.5, (pm, km, pse, kse)
    with pytest.raises(StudyError, match="another study"), open_results(tmp_path / "python.sqlite",
                                                                        study_from_dict({**spec, "engine": "kernel"})):
        pass


def test_lab_run_engine_flag(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from cardtable import kernels
    from cardtable.cli import app

    cli = CliRunner()
    refused = cli.invoke(app, ["lab", "run", "--game", "lost-ranks", "--agents", "hard,random", "--engine",
                               "kernel", "-n", "1", "--out", str(tmp_path / "r.sqlite")])
    assert refused.exit_code == 2 and "plays only random, heuristic, heuristic:style=STYLE seats, not 'hard'" in refused.output
    if not kernels.available():
        pytest.skip("engine 'kernel' needs numba and numpy (pip install 'cardtable[fast]')")
    out = tmp_path / "k.sqlite"
    done = cli.invoke(app, ["lab", "run", "--game", "lost-cities", "--agents", "heuristic,random", "-n", "5",
                            "--engine", "kernel", "--no-report", "--out", str(out)])
    assert done.exit_code == 0, done.output
    with open_results(out) as store:
        assert store.study.engine == "kernel" and len(store.rows()) == 5


# --- per-game measures from typed events ------------------------------------------------


def _played_by_hand(name: str, seed: int, **options: Any) -> tuple[Any, list[Any]]:
    """A real match of ``name`` played with seeded random moves: its final state and events."""
    import random

    state = load_game(name, **options).new_state(seed=seed)
    rng, events = random.Random(seed), []
    while not state.is_terminal():
        events.append(state.apply_action(rng.choice(state.legal_actions())))
    return state, events


def test_rank_measures_count_pull_backs_and_anti_rank_from_the_events() -> None:
    """RG-6: a pull-back is won when the next player can play (the player who played out
    draws back in) and failed when it cannot (that player is out); RG-8: Anti-Rank."""
    from cardtable.games.rank import AntiRankDeclared, PlayerOut, PullBack
    from cardtable.lab.measures import measures_of

    state, events = _played_by_hand("rank", 2, players=3)
    details = [d for e in events for d in e.details]
    won = sum(isinstance(d, PullBack) for d in details)
    failed = sum(isinstance(d, PlayerOut) and d.by is not None for d in details)
    declared = sum(isinstance(d, AntiRankDeclared) for d in details)
    assert won and failed and declared  # this match has all three
    measures = measures_of(state, events)
    assert (measures["pull_backs_won"], measures["pull_backs_failed"], measures["anti_rank_declarations"]) == \
        (won, failed, declared)


def test_lost_ranks_measures_count_no_winner_tricks_from_the_events() -> None:
    from cardtable.games.lost_ranks import NoWinnerTrick
    from cardtable.lab.measures import measures_of

    state, events = _played_by_hand("lost-ranks", 3, players=2)
    ties = sum(isinstance(d, NoWinnerTrick) for e in events for d in e.details)
    assert ties  # LR-11 happened in this match
    assert measures_of(state, events)["no_winner_tricks"] == ties


def test_the_rules_in_play_show_the_rank_measures(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from cardtable.lab.report import build_report
    from cardtable.lab.report_html import render_html

    study = study_from_dict({"game": "rank", "seed": 4, "matches": 4, "options": {"players": 3},
                             "lineups": [{"agents": ["random", "random", "random"]}]})
    rows = run_to_rows(study, tmp_path / "rank.sqlite")
    for row in rows:  # the runner's measures agree with its generic kind counts of the same match
        assert row["measures"]["pull_backs_won"] == row["events"].get("pull_back", 0)
        assert row["measures"]["anti_rank_declarations"] == row["events"].get("anti_rank_declared", 0)
        assert row["measures"]["pull_backs_failed"] <= row["events"].get("player_out", 0)
    page = Cells()
    page.feed(render_html(build_report(study, rows)))
    shown = {label: cells for label, cells in page.rows}
    for name in ("pull_backs_won", "pull_backs_failed", "anti_rank_declarations"):
        mean = sum(r["measures"][name] for r in rows) / len(rows)
        assert float(shown[name][1]["data-value"]) == pytest.approx(mean), name
