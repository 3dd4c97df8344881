"""``cardtable arena``: strength and speed of agents, measured over many matches.

::

    cardtable arena lost-cities --agents hard,heuristic --games 200 --jobs 2
    cardtable arena rank --players 4 --agents hard,heuristic,heuristic,heuristic --games 400
    cardtable arena lost-ranks --agents "ismcts:iterations=300,heuristic" --games 100

Seats rotate between matches exactly as in ``cardtable simulate``
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
import json
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Optional

import typer

from cardtable.agents import Observation, agent_names, make_agent
from cardtable.agents.search import decision_times
from cardtable.lab.series import MatchOutcome, SeriesSummary, seating_for
from cardtable.lab.stats import wilson_interval
from cardtable.protocol import Game
from cardtable.registry import load_game

# ---------------------------------------------------------------------------
# Agent entries


def parse_entry(text: str) -> tuple[str, dict[str, Any]]:
    """``"hard:iterations=500:rollout=random"`` → ``("hard", {"iterations": 500, "rollout": "random"})``.

    >>> parse_entry("ismcts:iterations=200:seconds=0.5:prior=false")
    ('ismcts', {'iterations': 200, 'seconds': 0.5, 'prior': False})
    >>> parse_entry("heuristic")
    ('heuristic', {})
    """
    name, *parts = [p.strip() for p in text.strip().split(":")]
    options: dict[str, Any] = {}
    for part in parts:
        key, eq, raw = part.partition("=")
        if not eq or not key:
            raise ValueError(f"agent option {part!r} of {text!r} is not key=value")
        options[key.strip()] = _value(raw.strip())
    return name, options


def _value(raw: str) -> Any:
    low = raw.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low in ("none", "null"):
        return None
    for kind in (int, float):
        try:
            return kind(raw)
        except ValueError:
            pass
    return raw


def build_agent(entry: str, game: Game, *, seed: int) -> Any:
    name, options = parse_entry(entry)
    return make_agent(name, game, seed=seed, **options)


# ---------------------------------------------------------------------------
# Matches


@dataclass
class ArenaMatch:
    """One match of the arena: the series outcome plus every decision time per seat."""

    outcome: MatchOutcome
    times: list[list[float]]


_GAMES: dict[tuple[str, str], Game] = {}


def _game(name: str, config: dict[str, Any]) -> Game:
    key = (name, json.dumps(config, sort_keys=True))
    game = _GAMES.get(key)
    if game is None:
        options = dict(config)
        game = _GAMES[key] = load_game(name, **options)
    return game


def play_arena_match(game: Game, entries: Sequence[str], *, seed: int, match_index: int) -> ArenaMatch:
    """Like :func:`cardtable.lab.series.play_match` (same seating and agent seeds), with
    agent options and every decision's time recorded."""
    seating = seating_for(match_index, game.num_players, len(entries))
    agents = [build_agent(entries[e], game, seed=seed * 1000 + s) for s, e in enumerate(seating)]
    state = game.new_state(seed=seed)
    times: list[list[float]] = [[] for _ in range(game.num_players)]
    clock = time.perf_counter
    try:
        while not state.is_terminal():
            seat = state.current_player()
            legal = state.legal_actions()
            if len(legal) == 1:
                action = legal[0]
            else:
                start = clock()
                action = agents[seat].act(Observation(game, seat, state.view(seat), tuple(legal), state))
                times[seat].append(clock() - start)
            state.apply_action(action)
    finally:
        for agent in agents:
            close = getattr(agent, "close", None)
            if callable(close):
                close()
    result = state.result()
    outcome = MatchOutcome(seed, seating, list(state.returns()), list(result.get("scores", [])), len(state.history),
                           [sum(t) for t in times], [len(t) for t in times])
    return ArenaMatch(outcome, times)


def _worker(name: str, config: dict[str, Any], entries: list[str], seed: int, index: int) -> ArenaMatch:
    return play_arena_match(_game(name, config), entries, seed=seed, match_index=index)


@dataclass
class ArenaResult:
    summary: SeriesSummary
    matches: list[ArenaMatch]

    def entry_times(self) -> list[list[float]]:
        """Every decision time of each agent entry."""
        out: list[list[float]] = [[] for _ in self.summary.agents]
        for m in self.matches:
            for seat, entry in enumerate(m.outcome.seating):
                out[entry].extend(m.times[seat])
        return out

    def by_match(self) -> list[dict[str, Any]]:
        """Per entry, counted once per match it took part in (partners together): the
        honest sample size for the 95 % interval when an entry holds several seats."""
        rows = []
        for entry, label in enumerate(_entry_labels(self.summary)):
            played = wins = losses = 0
            for m in self.matches:
                seats = [s for s, e in enumerate(m.outcome.seating) if e == entry]
                if not seats:
                    continue
                played += 1
                best = max(m.outcome.returns[s] for s in seats)
                wins += best > 0
                losses += min(m.outcome.returns[s] for s in seats) < 0
            rows.append({
                "agent": label, "matches": played,
                "win_rate": wins / played if played else 0.0, "win_rate_95": list(wilson_interval(wins, played)),
                "loss_rate": losses / played if played else 0.0, "loss_rate_95": list(wilson_interval(losses, played)),
            })
        return rows

    def as_dict(self) -> dict[str, Any]:
        data = self.summary.as_dict()
        data["by_match"] = self.by_match()
        for row, times in zip(data["entries"], self.entry_times()):
            row["decision_ms"] = decision_times(times)
        data["outcomes"] = [
            {k: v for k, v in asdict(m.outcome).items()} for m in self.matches
        ]
        return data


def _entry_labels(summary: SeriesSummary) -> list[str]:
    return [e.label for e in summary.per_entry()]


def run_arena(
    game: Game,
    entries: Sequence[str],
    *,
    games: int,
    seed: int = 0,
    jobs: int = 1,
    on_match: Callable[[ArenaMatch], None] | None = None,
) -> ArenaResult:
    """Play ``games`` matches (seeds ``seed, seed+1, …``, seats rotated), ``jobs`` at a time."""
    for entry in entries:  # fail early on an unknown agent or option
        build_agent(entry, game, seed=0)
    results: dict[int, ArenaMatch] = {}
    if jobs <= 1:
        for i in range(games):
            results[i] = play_arena_match(game, entries, seed=seed + i, match_index=i)
            if on_match is not None:
                on_match(results[i])
    else:
        config = game.config_dict()
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = {pool.submit(_worker, game.name, config, list(entries), seed + i, i): i for i in range(games)}
            for future in as_completed(futures):
                i = futures[future]
                results[i] = future.result()
                if on_match is not None:
                    on_match(results[i])
    matches = [results[i] for i in range(games)]
    summary = SeriesSummary(game.name, game.config_dict(), list(entries), [m.outcome for m in matches])
    return ArenaResult(summary, matches)


# ---------------------------------------------------------------------------
# The command


def arena_command(
    game_name: str = typer.Argument(..., help="Game: lost-cities, lost-ranks or rank.", show_default=False),
    agents: str = typer.Option(..., "--agents", "-a",
                               help="Comma-separated agent entries, e.g. hard,heuristic or 'ismcts:iterations=500,heuristic'."),
    games: int = typer.Option(20, "--games", "-n", min=1, help="Number of matches."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1, help="Matches played at a time (worker processes)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the first match (match i uses seed+i)."),
    json_out: Optional[Path] = typer.Option(None, "--json", help="Where to save the results (default arena-results/<game>-<time>.json)."),
    colors: Optional[int] = typer.Option(None, "--colors", help="Lost Cities: 5 expeditions (default) or 6."),
    rounds: Optional[int] = typer.Option(None, "--rounds", help="Lost Cities: rounds in a match (default 3)."),
    players: Optional[int] = typer.Option(None, "--players", "-p", help="Lost Ranks: 4 or 2.  Ранг: 2 to 10."),
    force_strength: bool = typer.Option(False, "--force-strength", help="Lost Ranks: score Force Strength (LR-16)."),
    longer: bool = typer.Option(False, "--longer", help="Lost Ranks: the longer game."),
) -> None:
    """Play agents against each other with seats rotated; print win (and loss) rates with
    95 % intervals, mean scores and decision times; save the results as JSON."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
    from rich.table import Table

    from cardtable.cli import build_game, console, err_console, fail, summary_tables

    game = build_game(game_name, colors=colors, rounds=rounds, players=players,
                      force_strength=force_strength, longer=longer)
    entries = [a.strip() for a in agents.split(",") if a.strip()]
    known = agent_names(game.name)
    if not entries:
        raise fail(f"no agents given; choose from: {', '.join(known)}")
    for entry in entries:
        try:
            name, _ = parse_entry(entry)
        except ValueError as err:
            raise fail(str(err)) from None
        if name not in known:
            raise fail(f"unknown agent {name!r}; choose from: {', '.join(known)}")
    if len(entries) > game.num_players:
        raise fail(f"{len(entries)} agents for {game.num_players} seats: give at most {game.num_players}")
    try:
        for entry in entries:
            build_agent(entry, game, seed=0)
    except (TypeError, ValueError) as err:
        raise fail(str(err)) from None
    started = time.time()
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), TimeRemainingColumn(), console=err_console) as progress:
        task = progress.add_task(f"{game.title}: {' vs '.join(entries)}", total=games)
        result = run_arena(game, entries, games=games, seed=seed, jobs=jobs,
                           on_match=lambda _: progress.advance(task))
    console.print(summary_tables(result.summary))
    data = result.as_dict()
    table = Table(title="decision times (decisions with a choice)")
    table.add_column("agent")
    for col in ("decisions", "mean ms", "p50 ms", "p95 ms", "max ms"):
        table.add_column(col, justify="right")
    for row in data["entries"]:
        t = row["decision_ms"]
        table.add_row(row["agent"], str(t["count"]), f"{t['mean']:.1f}", f"{t['p50']:.1f}", f"{t['p95']:.1f}",
                      f"{t['max']:.1f}")
    console.print(table)
    if any(sum(1 for e in m.outcome.seating if e == 0) > 1 for m in result.matches[:1]):
        table = Table(title="by match (partners counted once: the interval to quote)")
        table.add_column("agent")
        table.add_column("matches", justify="right")
        table.add_column("win %  [95 % CI]", justify="right")
        table.add_column("loss %  [95 % CI]", justify="right")
        for row in data["by_match"]:
            lo, hi = row["win_rate_95"]
            llo, lhi = row["loss_rate_95"]
            table.add_row(row["agent"], str(row["matches"]), f"{100 * row['win_rate']:.1f}  [{100 * lo:.1f}, {100 * hi:.1f}]",
                          f"{100 * row['loss_rate']:.1f}  [{100 * llo:.1f}, {100 * lhi:.1f}]")
        console.print(table)
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    path = json_out or Path("arena-results") / f"{game.name}-{stamp}.json"
    data["command"] = {
        "game": game.name, "agents": entries, "games": games, "seed": seed, "jobs": jobs,
        "options": {k: v for k, v in (("colors", colors), ("rounds", rounds), ("players", players),
                                      ("force_strength", force_strength), ("longer", longer)) if v not in (None, False)},
    }
    data["started"] = _dt.datetime.fromtimestamp(started).isoformat(timespec="seconds")
    data["wall_seconds"] = round(time.time() - started, 1)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    console.print(f"Results written to {path}")


def main() -> None:  # pragma: no cover - ``python -m cardtable.lab.arena``
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    app.command()(arena_command)
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
