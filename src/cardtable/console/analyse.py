"""``cardtable analyse RECORD.json [--seat N]``: the move analysis of a saved match.

Runs :func:`cardtable.agents.analysis.analyse` with a progress bar (decisions done
out of the seat's decisions), then prints the accuracy per round and for the match,
the estimated win chance over the match as a one-line chart, and a table of the
marked moves (every decision with ``--all``), each fitting 80 columns.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer
from rich import box
from rich.table import Table
from rich.text import Text

from cardtable import records
from cardtable.console.progress import progress_bar
from cardtable.agents.analysis import BLUNDER, DEFAULT_ITERATIONS, INACCURACY, MISTAKE, MatchAnalysis, analyse

_BARS = "▁▂▃▄▅▆▇█"
_STYLES = {"inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}


def sparkline(values: list[float], width: int = 60) -> str:
    """Values in ``[0, 1]`` as a line of at most ``width`` bars (means of equal slices).

    >>> sparkline([0.0, 0.5, 1.0])
    '▁▅█'
    """
    if not values:
        return ""
    slices = min(width, len(values))
    out = []
    for i in range(slices):
        part = values[i * len(values) // slices:(i + 1) * len(values) // slices]
        mean = sum(part) / len(part)
        out.append(_BARS[min(len(_BARS) - 1, int(mean * len(_BARS)))])
    return "".join(out)


def _table(*columns: str, folding: tuple[str, ...] = (), caption: str | None = None) -> Table:
    """A table for 80 columns: no vertical rules, numbers right-aligned and unbroken,
    the ``folding`` (move) columns folded if need be."""
    table = Table(caption=caption, box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False)
    for column in columns:
        if column in folding:
            table.add_column(column, overflow="fold")
        else:
            table.add_column(column, justify="right", no_wrap=True)
    return table


def analysis_tables(result: MatchAnalysis, players: list[str], *, every: bool = False) -> list[Table | Text]:
    """The summary, the chart and the table of decisions of an analysis."""
    name = players[result.seat] if result.seat < len(players) else f"seat {result.seat}"
    accuracy = "—" if result.accuracy is None else f"{result.accuracy:.1f} %"
    parts: list[Table | Text] = [Text(
        f"Seat {result.seat} ({name}): accuracy {accuracy} over {len(result.decisions)} decisions "
        f"({result.iterations} iterations, seed {result.seed})", style="bold")]
    rounds = _table("round", "decisions", "accuracy", "inaccuracies", "mistakes", "blunders")
    for r in result.rounds:
        rounds.add_row(str(r.round + 1), str(r.decisions), f"{r.accuracy:.1f} %", str(r.counts["inaccuracy"]),
                       str(r.counts["mistake"]), str(r.counts["blunder"]))
    parts.append(rounds)
    chances = [w for _, w in result.win_chances]
    if chances:
        parts.append(Text(f"Estimated {result.value_label} chance after each decision "
                          f"({100 * chances[0]:.0f} % at the first, {100 * chances[-1]:.0f} % at the last):"))
        parts.append(Text(sparkline(chances, width=78)))
    rows = [d for d in result.decisions if every or d.category in _STYLES]
    table = _table("move", "played", "best", "win %", "loss", "mark", folding=("played", "best"),
                   caption=f"marks: inaccuracy ≥ {100 * INACCURACY:g}, mistake ≥ {100 * MISTAKE:g}, "
                                   f"blunder ≥ {100 * BLUNDER:g} points of win chance")
    for d in rows:
        table.add_row(str(d.ply + 1), d.played, "" if d.best == d.played else d.best,
                      f"{100 * d.win_played:.0f}", f"{100 * d.loss:.1f}", Text(d.category, style=_STYLES.get(d.category, "")))
    parts.append(table if rows else Text("No inaccuracies, mistakes or blunders."))
    return parts


def analyse_command(
    path: Path = typer.Argument(..., metavar="RECORD", help="A saved game record (JSON)."),
    seat: int = typer.Option(0, "--seat", metavar="N", help="The seat whose decisions are analysed."),
    iterations: int = typer.Option(DEFAULT_ITERATIONS, "--iterations", min=1, metavar="N",
                                   help="Search budget per decision (at least one play-out per legal move)."),
    seed: int = typer.Option(0, "--seed", metavar="S", help="Seed of the searches (same seed, same analysis)."),
    every: bool = typer.Option(False, "--all", help="List every decision, not only the marked ones."),
    json_out: Optional[Path] = typer.Option(None, "--json", metavar="FILE", help="Also write the analysis as JSON."),
) -> None:
    """Analyse the decisions of one seat in a saved match.

    Each decision with more than one legal move is searched from that seat's view only
    (never the true deal); moves whose estimated win chance is well below the best
    move's are marked as inaccuracy, mistake or blunder, with the better move.
    """
    from cardtable.cli import console, err_console, fail, print_path

    try:
        record = records.load(path)
        final = records.replay(record)
    except records.RecordError as err:
        raise fail(f"{path}: {err}") from None
    game = final.game
    if not 0 <= seat < game.num_players:
        raise fail(f"--seat: seat must be 0..{game.num_players - 1} for {game.name}, not {seat}")
    with progress_bar(err_console, unit="decisions") as progress:
        task = progress.add_task(f"Analysing seat {seat}", total=None)
        result = analyse(final, seat, iterations=iterations, seed=seed,
                         progress=lambda done, total: progress.update(task, completed=done, total=total))
    players = [str(p) for p in record.get("players") or []]
    for part in analysis_tables(result, players, every=every):
        console.print(part)
    if json_out is not None:
        json_out.parent.mkdir(parents=True, exist_ok=True)
        json_out.write_text(json.dumps(result.as_dict(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print_path("Analysis written to", json_out)
