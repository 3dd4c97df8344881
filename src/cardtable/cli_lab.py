"""``cardtable lab``: run a study, write its report, export its results.

::

    cardtable lab run examples/studies/lost-ranks-force-strength.toml --jobs 2
    cardtable lab run --game lost-cities --vary 'colors=[5, 6]' --agents heuristic,heuristic --matches 200
    cardtable lab run --game lost-cities --agents heuristic,random --matches 5000 --engine kernel
    cardtable lab report results/lost-ranks-force-strength.sqlite --pdf
    cardtable lab export results/lost-ranks-force-strength.sqlite --parquet matches.parquet

``run`` stores each match as it finishes (Ctrl-C keeps them; running again resumes)
and writes the report when the study is complete.  A study is a TOML file
(:mod:`cardtable.lab.study`) or the same given as options.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import typer
from rich.progress import BarColumn, MofNCompleteColumn, ProgressColumn, Task, TextColumn, TimeRemainingColumn
from rich.markup import escape
from rich.text import Text

from cardtable.console.progress import progress_bar
from cardtable.registry import game_names

lab_app = typer.Typer(help="The designers' lab: studies of many matches, and their reports.", no_args_is_help=True)


class RateColumn(ProgressColumn):
    """Matches per second."""

    def render(self, task: Task) -> Text:
        return Text("" if task.speed is None else f"{task.speed:.1f}/s", style="cyan")


def _study_from_options(study_file: Optional[Path], game: Optional[str], option: list[str], vary: list[str],
                        agents: list[str], matches: Optional[int], seed: Optional[int], title: Optional[str],
                        engine: Optional[str] = None) -> Any:
    from cardtable.lab.study import StudyError, load_study, parse_value, study_from_dict

    if study_file is not None:
        if game or option or vary or agents:
            raise StudyError("give a study file or --game/--option/--vary/--agents, not both")
        study = load_study(study_file)
        if matches is None and seed is None and title is None and engine is None:
            return study
        data: dict[str, Any] = study.as_dict()
    else:
        if game is None:
            raise StudyError("give a study file (STUDY.toml) or --game")
        data = {"game": game, "options": {}, "variants": {}, "matches": 100,
                "lineups": [{"agents": [a.strip() for a in line.split(",") if a.strip()]} for line in agents]
                or [{"agents": ["heuristic", "heuristic"]}]}
        for flag, pairs, key in (("--option", option, "options"), ("--vary", vary, "variants")):
            for pair in pairs:
                name, eq, text = pair.partition("=")
                if not eq or not name.strip():
                    raise StudyError(f"{flag} {pair!r} is not KEY=VALUE (e.g. {flag} players=2)")
                data[key][name.strip()] = parse_value(text.strip(), f"{flag} {name.strip()}")
    given: dict[str, Any] = {"matches": matches, "seed": seed, "title": title, "engine": engine}
    data.update({k: v for k, v in given.items() if v is not None})
    return study_from_dict(data)


@lab_app.command("run")
def run_command(
    study_file: Optional[Path] = typer.Argument(None, help="A study (TOML); or give --game and the options below."),
    game: Optional[str] = typer.Option(None, "--game", help=f"Game: {', '.join(game_names())}."),
    option: list[str] = typer.Option([], "--option", help="A fixed game option KEY=VALUE (repeatable)."),
    vary: list[str] = typer.Option([], "--vary", help="A varied option KEY=[V1, V2, …] (repeatable; first value = base)."),
    agents: list[str] = typer.Option([], "--agents", "-a", help="A lineup, comma-separated agent specs (repeatable)."),
    matches: Optional[int] = typer.Option(None, "--matches", "-n", min=1, help="Matches per cell."),
    seed: Optional[int] = typer.Option(None, "--seed", help="The study seed."),
    title: Optional[str] = typer.Option(None, "--title", help="The question the study asks."),
    engine: Optional[str] = typer.Option(None, "--engine", metavar="python|kernel",
                                         help="Who plays the matches: python (the default) or kernel (compiled, many times faster; random and heuristic seats of every game; needs the extra fast: numba)."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Results file (SQLite; default results/<study>.sqlite)."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1, help="Matches played at a time (local processes)."),
    ray: bool = typer.Option(False, "--ray", help="Play on Ray (a local instance, or --ray-address)."),
    ray_address: Optional[str] = typer.Option(None, "--ray-address", help="Ray cluster address (implies --ray)."),
    report: bool = typer.Option(True, "--report/--no-report", help="Write the HTML report when the study is complete."),
    pdf: bool = typer.Option(False, "--pdf", help="Also write the report as PDF."),
) -> None:
    """Play a study's missing matches (resuming a stopped run), then write its report."""
    from cardtable.cli import console, err_console, fail
    from cardtable.lab.results import open_results
    from cardtable.lab.runner import run_study
    from cardtable.lab.study import StudyError

    try:
        study = _study_from_options(study_file, game, option, vary, agents, matches, seed, title, engine)
        path = out or Path("results") / f"{study_file.stem if study_file else study.game}.sqlite"
        path.parent.mkdir(parents=True, exist_ok=True)
        with open_results(path, study) as store:
            done = store.done()
            cells = study.cells()
            with progress_bar(err_console, TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                              RateColumn(), TimeRemainingColumn()) as progress:
                total = progress.add_task("[bold]all cells", total=study.matches * len(cells),
                                          completed=sum(1 for k, _ in done if k in {c.key for c in cells}))
                per_cell = {c.key: progress.add_task(f"  {c.label}", total=study.matches,
                                                     completed=sum(1 for k, _ in done if k == c.key), quiet=True)
                            for c in cells}

                def advance(row: dict[str, Any]) -> None:
                    progress.advance(total)
                    progress.advance(per_cell[row["cell_key"]])

                played = run_study(study, store, jobs=jobs, use_ray=ray, ray_address=ray_address, on_row=advance)
            console.print(f"{played} matches played, {len(done)} were already in {path}")
            rows = store.rows()
    except StudyError as err:
        raise fail(escape(str(err))) from None
    except KeyboardInterrupt:
        err_console.print(f"[yellow]stopped: every finished match is kept in {path}; run the same command to resume[/]")
        raise typer.Exit(130) from None
    except RuntimeError as err:
        raise fail(escape(str(err))) from None
    if report:
        _write_report(study, rows, path.with_suffix(".html"), pdf)


def _write_report(study: Any, rows: list[dict[str, Any]], html_path: Path, pdf: bool) -> None:
    from cardtable.cli import console, fail

    try:
        from cardtable.lab.report import build_report
        from cardtable.lab.report_html import render_html, write_pdf
    except ImportError as err:
        raise fail(f"the report needs the lab extra (pip install 'cardtable[lab]'): {err}") from None
    if not rows:
        raise fail("no matches stored yet: nothing to report")
    model = build_report(study, rows)
    html_path.parent.mkdir(parents=True, exist_ok=True)
    html_path.write_text(render_html(model), encoding="utf-8")
    console.print(f"Report written to {html_path}")
    if pdf:
        write_pdf(model, html_path.with_suffix(".pdf"))
        console.print(f"PDF written to {html_path.with_suffix('.pdf')}")
    for finding in model.findings:
        console.print(f"• {escape(str(finding))}", soft_wrap=True)


@lab_app.command("report")
def report_command(
    results: Path = typer.Argument(..., help="A results file written by `cardtable lab run`."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="The HTML file (default: beside the results)."),
    pdf: bool = typer.Option(False, "--pdf", help="Also write a PDF."),
) -> None:
    """Write the report of a study (HTML with embedded figures; --pdf adds a PDF)."""
    from cardtable.cli import fail
    from cardtable.lab.results import open_results
    from cardtable.lab.study import StudyError

    try:
        with open_results(results) as store:
            study, rows = store.study, store.rows()
    except StudyError as err:
        raise fail(escape(str(err))) from None
    _write_report(study, rows, out or results.with_suffix(".html"), pdf)


@lab_app.command("export")
def export_command(
    results: Path = typer.Argument(..., help="A results file written by `cardtable lab run`."),
    parquet: Path = typer.Option(..., "--parquet", help="The Parquet file to write."),
) -> None:
    """Write the results table as a Parquet file."""
    from cardtable.cli import console, fail
    from cardtable.lab.results import export_parquet
    from cardtable.lab.study import StudyError

    try:
        count = export_parquet(results, parquet)
    except StudyError as err:
        raise fail(escape(str(err))) from None
    except ImportError:
        raise fail("--parquet needs pyarrow: pip install 'cardtable[lab]'") from None
    console.print(f"{count} rows written to {parquet}")
