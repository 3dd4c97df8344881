"""``cardtable ratings``: the AI levels' ratings, from a fresh arena between them.

::

    cardtable ratings lost-cities                      # every pair of levels, 3 matches a pair
    cardtable ratings rank -p 4 --games 6 --jobs 2
    cardtable ratings lost-cities --iterations 0 --db cardtable.db   # the levels' own clocks

Every pair of levels plays a short series (:func:`cardtable.lab.runner.run_series`,
seats rotated); the matches are then rated in order with the server's model
(:func:`cardtable.server.ratings.rate`, the same teams and ranks as a rated match),
and each level's rating is printed on the display scale with its ±2σ interval: the
landmarks of the leaderboard ("hard ≈ 1850").  ``--iterations N`` (default
:data:`DEFAULT_ITERATIONS`) gives the search levels an iteration budget instead of
their clock (``hard`` N, ``medium`` N/7, as their time budgets are apart), which makes
a run reproducible, independent of the machine's load, and a matter of minutes
(about 15 s a Lost Cities match with ``hard`` at 100); ``--iterations 0`` plays the
levels as the server does, on their clocks (``hard`` 0.7 s a decision: about 20 minutes
for the default Lost Cities run).  ``--db URL`` stores the ratings of the levels that database
has not rated yet.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any, Optional

import typer
from sqlalchemy import Connection, create_engine

from cardtable.gameflags import game_argument, with_game_options
from cardtable.lab.runner import run_series
from cardtable.lab.series import MatchOutcome
from cardtable.protocol import Game
from cardtable.server import ratings
from cardtable.server.store import metadata, ratings_table, rating_history_table

DEFAULT_LEVELS = "random,easy,heuristic,medium,hard"
DEFAULT_ITERATIONS = 100
SEARCH_SHARE = {"hard": 1.0, "medium": 1 / 7, "ismcts": 1.0}
"""Each search level's share of ``--iterations`` (their time budgets are 0.7 s and 0.1 s)."""


def level_entry(level: str, iterations: int | None) -> str:
    """The arena entry playing ``level`` (with an iteration budget for a search level).

    >>> level_entry("hard", 140), level_entry("medium", 140), level_entry("easy", 140), level_entry("hard", None)
    ('hard:iterations=140', 'medium:iterations=20', 'easy', 'hard')
    """
    share = SEARCH_SHARE.get(level)
    if iterations is None or share is None:
        return level
    return f"{level}:iterations={max(1, round(iterations * share))}"


def rate_outcomes(conn: Connection, game: Game, players: Sequence[str], outcomes: Sequence[MatchOutcome]) -> None:
    """Rate arena ``outcomes`` (seating indexes into ``players``) in order, on ``conn``."""
    teams = game.teams()
    for outcome in outcomes:
        seat_players = [players[e] for e in outcome.seating]
        ranks = ratings.team_ranks(teams, outcome.returns, None)
        ratings.rate(conn, game.name, game.num_players, seat_players, teams, ranks, None)


def arena_ratings(game: Game, levels: Sequence[str], *, games: int, iterations: int | None, seed: int = 0,
                  jobs: int = 1, on_match: Callable[[MatchOutcome], None] | None = None) -> list[ratings.Rating]:
    """Play ``games`` matches between every pair of ``levels`` and rate them all; the
    ratings, best first."""
    engine = create_engine("sqlite://")
    metadata.create_all(engine, tables=[ratings_table, rating_history_table])
    try:
        with engine.begin() as conn:
            for n, (a, b) in enumerate(itertools.combinations(levels, 2)):
                entries = [level_entry(a, iterations), level_entry(b, iterations)]
                summary = run_series(game, entries, games=games, seed=seed + 1000 * n, jobs=jobs, on_match=on_match)
                rate_outcomes(conn, game, [ratings.ai_player(a), ratings.ai_player(b)], summary.outcomes)
            found = [ratings.read_rating(conn, game.name, game.num_players, ratings.ai_player(level))
                     for level in levels]
    finally:
        engine.dispose()
    return sorted((r for r in found if r is not None), key=lambda r: -r.mu)


def store_landmarks(db_url: str, game: Game, found: Sequence[ratings.Rating]) -> list[str]:
    """Store the ratings of levels ``db_url`` has not rated yet; their players."""
    from cardtable.server.migrations import upgrade
    from cardtable.server.store import make_engine

    engine = make_engine(db_url)
    try:
        upgrade(engine)
        stored: list[str] = []
        with engine.begin() as conn:
            for rating in found:
                if ratings.read_rating(conn, game.name, game.num_players, rating.player) is None:
                    ratings.write_rating(conn, game.name, game.num_players, rating, match_id=None, existed=False)
                    stored.append(rating.player)
        return stored
    finally:
        engine.dispose()


@with_game_options
def ratings_command(
    game_name: str = game_argument(),
    levels: str = typer.Option(DEFAULT_LEVELS, "--levels", "-l", help="Comma-separated AI levels to rate."),
    games: int = typer.Option(3, "--games", "-n", min=1, help="Matches per pair of levels."),
    iterations: int = typer.Option(DEFAULT_ITERATIONS, "--iterations", min=0,
                                   help="Search budget of 'hard' in iterations ('medium' a seventh); 0: their clocks."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1, help="Matches played at a time (worker processes)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the first match."),
    db: Optional[str] = typer.Option(None, "--db", help="Also store the ratings there (levels not rated yet)."),
    game_options: dict[str, Any] = {},  # noqa: B006 - replaced by one flag per game option
) -> None:
    """Rate the AI levels in a fresh arena between them.

    Prints each level's rating with its ±2σ interval: the leaderboard's landmarks."""
    from rich.table import Table

    from cardtable.cli import build_game, check_entries, console, err_console, fail
    from cardtable.console.progress import progress_bar

    game = build_game(game_name, game_options)
    names = [level.strip() for level in levels.split(",") if level.strip()]
    if len(set(names)) < 2 or len(set(names)) != len(names):
        raise fail("--levels needs at least two different levels, each once")
    for name in names:
        check_entries(name, game)
    pairs = len(names) * (len(names) - 1) // 2
    with progress_bar(err_console) as progress:
        task = progress.add_task(f"{game.title}: {len(names)} levels", total=pairs * games)
        found = arena_ratings(game, names, games=games, iterations=iterations or None, seed=seed, jobs=jobs,
                              on_match=lambda _: progress.advance(task))
    budget = f"hard at {iterations} iterations" if iterations else "on their clocks"
    table = Table(title=f"{game.title}, {game.num_players} players: AI levels ({games} matches a pair, {budget})")
    for column in ("level", "rating", "interval (±2σ)", "matches"):
        table.add_column(column, justify="left" if column == "level" else "right")
    for rating in found:
        table.add_row(f"AI: {rating.player.split(':', 1)[1]}", str(ratings.display(rating.mu)),
                      f"±{ratings.interval(rating.sigma)}", str(rating.games))
    console.print(table)
    if db is not None:
        stored = store_landmarks(db, game, found)
        console.print(f"Stored {len(stored)} new AI ratings in the database" + (f": {', '.join(stored)}" if stored
                                                                                 else " (all were rated already)"))
