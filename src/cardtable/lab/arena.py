"""``cardtable arena``: strength and speed of agents, measured over many matches.

::

    cardtable arena lost-cities --agents hard,heuristic --games 200 --jobs 2
    cardtable arena rank --players 4 --agents hard,heuristic,heuristic,heuristic --games 400
    cardtable arena lost-ranks --agents "ismcts:iterations=300,heuristic" --games 100

A thin entry to the lab's runner, sharing all its code with ``cardtable simulate``
(:func:`cardtable.cli.play_series`, which plays the one-cell study of
:func:`cardtable.lab.runner.run_series`).  Seats rotate between matches
(:func:`cardtable.lab.series.seating_for`: with two entries in a four-seat
partnership game the entries form the two partnerships).  An agent entry is a
registry name, optionally with options: ``name:key=value:key=value`` (e.g.
``hard:iterations=2000`` — an iteration budget instead of the clock, which makes
a run reproducible and independent of the machine's load).

Prints win rates (and loss rates — for Ранг, the rate of staying in Rank) with
95 % Wilson intervals, mean scores, mean and 95th-percentile decision times,
and saves everything as JSON (default ``arena-results/<game>-<timestamp>.json``)
for later comparison.  ``--jobs J`` plays J matches at a time in worker
processes.
"""

from __future__ import annotations

import datetime as _dt
import time
from pathlib import Path
from typing import Any, Optional

import typer

from cardtable.agents import parse_agent_spec
from cardtable.gameflags import game_argument, given_options, with_game_options

parse_entry = parse_agent_spec
"""The agent-entry syntax (``name:key=value:…``), kept under the arena's old name."""


# ---------------------------------------------------------------------------
# The command


@with_game_options
def arena_command(
    game_name: str = game_argument(),
    agents: str = typer.Option(..., "--agents", "-a", metavar="AGENTS",
                               help="Comma-separated agent entries, e.g. hard,heuristic or 'ismcts:iterations=500,heuristic'."),
    games: int = typer.Option(20, "--games", "-n", min=1, metavar="N", help="Number of matches."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1, metavar="N", help="Matches played at a time (worker processes)."),
    seed: int = typer.Option(0, "--seed", metavar="N", help="The series seed: each match's deal derives from it and the match number."),
    json_out: Optional[Path] = typer.Option(None, "--json", metavar="FILE", help="Where to save the results (default: a new file in ./arena-results/)."),
    results: Optional[Path] = typer.Option(None, "--results", metavar="FILE",
                                           help="Also keep every match in this results file (SQLite, as cardtable lab run writes; it resumes a stopped run)."),
    game_options: dict[str, Any] = {},  # noqa: B006 - replaced by one flag per game option
) -> None:
    """Play agents against each other and save the results as JSON.

    Seats rotate between matches; prints win and loss rates with 95 % intervals, mean
    scores and decision times (as cardtable simulate, which shares this code).
    """
    from cardtable.cli import play_series, write_json

    started = time.time()
    game, entries, summary = play_series(game_name, game_options, agents, games=games, seed=seed, jobs=jobs,
                                         results=results)
    data = summary.as_dict(outcomes=True)
    data["command"] = {
        "game": game.name, "agents": entries, "games": games, "seed": seed, "jobs": jobs,
        "options": given_options(game.info, game_options),
    }
    data["started"] = _dt.datetime.fromtimestamp(started).isoformat(timespec="seconds")
    data["wall_seconds"] = round(time.time() - started, 1)
    stamp = _dt.datetime.fromtimestamp(started).strftime("%Y%m%d-%H%M%S")
    write_json(json_out or Path("arena-results") / f"{game.name}-{stamp}.json", data, "Results written to")


def main() -> None:  # pragma: no cover - ``python -m cardtable.lab.arena``
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None)
    app.command()(arena_command)
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
