"""The ``cardtable`` command line: play, simulate, replay, list games."""

from __future__ import annotations

import datetime as _dt
import json
import random
from pathlib import Path
from typing import Any, Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from cardtable import records
from cardtable.agents import agent_names, check_agent_spec, make_agent
from cardtable.protocol import Game
from cardtable.gameflags import game_argument, given_options, option_values, with_game_options
from cardtable.registry import game_info, game_names, load_game

app = typer.Typer(
    help="cardtable — Lost Cities, Lost Ranks and Ранг: play against AI, run studies, replay saved games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)

GameArg = game_argument()


def fail(message: str) -> typer.Exit:
    err_console.print(f"[bold red]error:[/] {message}", soft_wrap=True)
    return typer.Exit(2)


def build_game(name: str, given: dict[str, Any]) -> Game:
    """The game ``name`` with the option flags that were given (see :mod:`cardtable.gameflags`)."""
    if name not in game_names():
        raise fail(f"unknown game {name!r}; choose from: {', '.join(game_names())}")
    try:
        return load_game(name, **given_options(game_info(name), given))
    except ValueError as err:
        raise fail(str(err)) from None


def check_entries(text: str, game: Game) -> list[str]:
    """Comma-separated agent specs (``hard,heuristic``, ``ismcts:iterations=300,random``),
    each checked by building it once; a clear error otherwise."""
    entries = [a.strip() for a in text.split(",") if a.strip()]
    if not entries:
        raise fail(f"no agents given; choose from: {', '.join(agent_names(game.name))}")
    if len(entries) > game.num_players:
        raise fail(f"{len(entries)} agents for {game.num_players} seats: give at most {game.num_players}")
    for entry in entries:
        try:
            check_agent_spec(entry, game)
            make_agent(entry, game, seed=0)
        except ValueError as err:
            raise fail(str(err)) from None
    return entries


@app.command("games")
def games_command() -> None:
    """List the games, their options and their agents."""
    table = Table(title="Games", show_lines=True)
    table.add_column("name")
    table.add_column("title")
    table.add_column("players")
    table.add_column("options")
    table.add_column("agents")
    for name in game_names():
        info = game_info(name)
        players = str(info.min_players) if info.min_players == info.max_players else f"{info.min_players}–{info.max_players}"
        options = "\n".join(
f"{o.flag}{option_values(o)}: {o.help.en}"
            for o in info.options)
        table.add_row(name, info.title.en, players, options or "—", ", ".join(agent_names(name)))
    console.print(table)


@app.command()
@with_game_options
def play(
    game_name: str = GameArg,
    ai: str = typer.Option("heuristic", "--ai", help="The AI for every other seat: easy, medium, hard, heuristic, random (see `cardtable games`), options as name:key=value."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Deal seed (default: random)."),
    seat: int = typer.Option(0, "--seat", help="Your seat (0 = first)."),
    game_options: dict[str, Any] = {},  # noqa: B006 - replaced by one flag per game option
    lang: str = typer.Option("en", "--lang", help="Interface language: en, or ru (Ранг)."),
    save: Optional[Path] = typer.Option(None, "--save", help="Where to save the game (default: ~/.local/share/cardtable/saves/)."),
    resume: Optional[Path] = typer.Option(None, "--resume", help="Continue a saved game record."),
) -> None:
    """Play a match in the terminal against the AI.  Type a move's number or its notation;
    'help' lists commands; the game is saved when you leave."""
    from cardtable.console.play import TerminalMatch, default_save_dir

    if lang not in ("en", "ru"):
        raise fail(f"--lang must be en or ru, not {lang!r}")
    if resume is not None:
        try:
            record = records.load(resume)
            state = records.replay(record)
        except records.RecordError as err:
            raise fail(f"{resume}: {err}") from None
        game = state.game
        if game.name != game_name:
            raise fail(f"{resume} is a {game.name} record, not {game_name}")
        names = [str(p) for p in record.get("players", [])]
        if "you" not in names:
            raise fail(f"{resume} has no seat named 'you' to resume")
        seat = names.index("you")
        ai_names = {s: names[s] for s in range(game.num_players) if s != seat}
        save_path = resume
    else:
        game = build_game(game_name, game_options)
        if not 0 <= seat < game.num_players:
            raise fail(f"--seat must be 0..{game.num_players - 1}")
        if len(check_entries(ai, game)) != 1:
            raise fail("--ai takes one agent (it plays every other seat), e.g. --ai hard")
        seed = seed if seed is not None else random.SystemRandom().randrange(1 << 31)
        state = game.new_state(seed=seed)
        ai_names = {s: ai for s in range(game.num_players) if s != seat}
        names = ["you" if s == seat else ai for s in range(game.num_players)]
        stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        save_path = save or default_save_dir() / f"{game.name}-{stamp}-seed{seed}.json"
    agents = {s: make_agent(n, game, seed=state.seed * 31 + s) for s, n in ai_names.items()}
    console.rule(f"{game.title} — seed {state.seed} — you are seat {seat}")
    TerminalMatch(state, human=seat, agents=agents, players=names, console=console,
                  lang=lang, save_path=save_path, hint=_hint_engine(seat)).run()


def _hint_engine(seat: int) -> Any:
    """The search AI's hint for ``seat`` (computed from that seat's view only)."""
    try:
        from cardtable.agents.search import hint_text
    except ImportError:  # pragma: no cover - search agent not installed
        return None

    def hint(state: Any) -> str:
        return str(hint_text(state, seat))

    return hint


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (default: this machine only)."),
    port: int = typer.Option(8000, "--port", help="Port (0 picks a free one)."),
    db: Optional[str] = typer.Option(None, "--db", help="Database URL: sqlite:///FILE (default ~/.local/share/cardtable/cardtable.db) or postgresql://user:pass@host/db."),
    ai_delay: float = typer.Option(0.4, "--ai-delay", help="Seconds an AI waits before moving, so people can follow."),
    allowed_origin: list[str] = typer.Option([], "--allowed-origin", help="Another browser origin (https://example.org) allowed to play; repeatable."),
    allowed_host: list[str] = typer.Option([], "--allowed-host", help="Another host name the server answers to (besides localhost and --host); '*' for any; repeatable."),
    max_matches_per_minute: float = typer.Option(30.0, "--max-matches-per-minute", min=1, help="New matches per minute per client address."),
    http_rate: float = typer.Option(20.0, "--http-rate", min=1, help="HTTP requests per second per client address (bursts of 200)."),
    hints_per_minute: float = typer.Option(60.0, "--hints-per-minute", min=1, help="Hints per minute per client address."),
    max_sockets_per_address: int = typer.Option(32, "--max-sockets-per-address", min=1, help="Open websockets per client address."),
    ai_workers: Optional[int] = typer.Option(None, "--ai-workers", min=0, help="Processes searching AI moves and hints (default: cores - 1; 0: a thread)."),
    room_idle_seconds: float = typer.Option(300.0, "--room-idle-seconds", min=0, help="Seconds before an unattended match leaves memory (it reloads from the database)."),
    proxy_headers: bool = typer.Option(False, "--proxy-headers", help="Behind a reverse proxy: take client addresses (for the per-address limits) from X-Forwarded-For."),
    forwarded_allow_ips: str = typer.Option("127.0.0.1", "--forwarded-allow-ips", help="The proxies whose X-Forwarded-* headers are trusted (comma-separated; '*': any)."),
) -> None:
    """Start the game server and open the printed address in a browser to play."""
    try:
        from cardtable.server import run
    except ImportError:
        raise fail("the server needs the web extra: pip install 'cardtable[web]'") from None
    if db is not None and not db.startswith(("sqlite:", "postgresql:", "postgresql+psycopg:", "postgres:")):
        raise fail(f"--db {db!r} is not a database URL this server speaks: "
                   "use sqlite:///path/to/file.db or postgresql://user:password@host/dbname")
    limits: dict[str, Any] = {
        "allowed_origins": tuple(allowed_origin), "allowed_hosts": tuple(allowed_host),
        "max_matches_per_minute": max_matches_per_minute, "http_rate_per_second": http_rate,
        "hints_per_minute": hints_per_minute, "max_sockets_per_address": max_sockets_per_address,
        "room_idle_seconds": room_idle_seconds,
    }
    if ai_workers is not None:
        limits["ai_workers"] = ai_workers
    try:
        run(host, port, db, ai_delay=ai_delay, proxy_headers=proxy_headers, forwarded_allow_ips=forwarded_allow_ips,
            **limits)
    except OSError as err:
        raise fail(f"cannot listen on {host}:{port}: {err.strerror or err}") from None
    except RuntimeError as err:  # the database is in use by another server, or startup failed
        raise fail(str(err)) from None
    except KeyboardInterrupt:
        pass


@app.command()
@with_game_options
def simulate(
    game_name: str = GameArg,
    games: int = typer.Option(100, "--games", "-n", min=1, help="Number of matches."),
    agents: str = typer.Option("heuristic,random", "--agents", "-a",
                               help="Comma-separated agents (name or name:key=value:…); seats rotate between matches."),
    seed: int = typer.Option(0, "--seed", help="Seed of the first match (match i uses seed+i)."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1, help="Matches played at a time (worker processes)."),
    game_options: dict[str, Any] = {},  # noqa: B006 - replaced by one flag per game option
    json_out: Optional[Path] = typer.Option(None, "--json", help="Also write the summary (and every match) as JSON."),
) -> None:
    """Play many matches between agents and print win rates (95 % intervals), mean scores
    and seat advantage.  (``cardtable arena`` does the same with decision times.)"""
    from cardtable.lab.series import run_series

    game = build_game(game_name, game_options)
    entries = check_entries(agents, game)
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), TimeRemainingColumn(), console=err_console) as progress:
        task = progress.add_task(f"{game.title}: {' vs '.join(entries)}", total=games)
        summary = run_series(game, entries, games=games, seed=seed, jobs=jobs,
                             on_match=lambda _: progress.advance(task))
    console.print(summary_tables(summary))
    if json_out is not None:
        json_out.parent.mkdir(parents=True, exist_ok=True)
        json_out.write_text(json.dumps(summary.as_dict(outcomes=True), indent=1) + "\n", encoding="utf-8")
        console.print(f"Summary written to {json_out}")


def summary_tables(summary: Any, *, times: bool = False) -> Table:
    """The by-agent and by-seat tables of a series (and decision-time percentiles if
    ``times``).  A result is one match of one team: partners count once."""
    data = summary.as_dict()
    outer = Table.grid(padding=(1, 0))
    partners = any(len(team) > 1 for team in data["teams"])
    title = (f"{data['matches']} matches of {data['game']} {data['config']}  (draws: {data['draws']}, "
             f"mean length {data['mean_actions']:.0f} actions)")
    for heading, rows in (("by agent", data["entries"]), ("by seat (seat advantage)", data["seats"])):
        by_agent = heading == "by agent"
        t = Table(title=f"{title} — {heading}" if by_agent else heading,
                  caption="partners count as one result" if by_agent and partners else None)
        t.add_column("")
        t.add_column("results" if by_agent else "matches", justify="right")
        t.add_column("win %  [95 % CI]", justify="right")
        t.add_column("loss %  [95 % CI]", justify="right")
        t.add_column("mean return", justify="right")
        if by_agent:
            t.add_column("mean score", justify="right")
            t.add_column("ms/decision", justify="right")
        for r in rows:
            lo, hi = r["win_rate_95"]
            llo, lhi = r["loss_rate_95"]
            cells = [
                r["agent"],
                str(r["results"]),
                f"{100 * r['win_rate']:.1f}  [{100 * lo:.1f}, {100 * hi:.1f}]",
                f"{100 * r['loss_rate']:.1f}  [{100 * llo:.1f}, {100 * lhi:.1f}]",
                f"{r['mean_return']:+.3f}",
            ]
            if by_agent:
                cells.append("—" if r["mean_score"] is None else f"{r['mean_score']:.1f}")
                cells.append(f"{r['decision_ms']['mean']:.2f}")
            t.add_row(*cells)
        outer.add_row(t)
    if times:
        t = Table(title="decision times (decisions with a choice)")
        t.add_column("")
        for col in ("decisions", "mean ms", "p50 ms", "p95 ms", "max ms"):
            t.add_column(col, justify="right")
        for r in data["entries"]:
            ms = r["decision_ms"]
            t.add_row(r["agent"], str(ms["count"]), *(f"{ms[k]:.1f}" for k in ("mean", "p50", "p95", "max")))
        outer.add_row(t)
    return outer


@app.command()
def replay(
    path: Path = typer.Argument(..., help="A saved game record (JSON)."),
    seat: int = typer.Option(0, "--seat", help="Whose view to show the table from."),
    board: bool = typer.Option(False, "--board", help="Show the table after every move."),
    step: bool = typer.Option(False, "--step", help="Wait for Enter after every move."),
) -> None:
    """Show a saved game move by move, and check it replays to its stored result."""
    from cardtable.console.play import renderer_for

    try:
        record = records.load(path)
        final = records.replay(record)  # validates every move and the stored result
    except records.RecordError as err:
        raise fail(f"{path}: {err}") from None
    game = final.game
    if not 0 <= seat < game.num_players:
        raise fail(f"--seat must be 0..{game.num_players - 1}")
    renderer = renderer_for(game.name)
    players = record.get("players") or [f"seat {i}" for i in range(game.num_players)]
    console.rule(f"{game.title} {game.config_dict()} — seed {record['seed']} — players: {', '.join(map(str, players))}")
    state = records.new_state_of(record)
    rounds_seen = 0
    for number, action in enumerate(final.history, start=1):
        event = state.apply_action(action)
        view = state.view(seat)
        line = renderer.describe(event, view, lang="en")
        console.print(f"[dim]{number:>4}[/] {line}")
        if len(view["round_scores"]) > rounds_seen:
            rounds_seen = len(view["round_scores"])
            console.print(f"[bold]Round {rounds_seen} scores: {view['round_scores'][-1]} — totals {view['scores']}[/]")
        if board:
            console.print(renderer.render(view, lang="en"))
        if step:
            input("[Enter] ")
    if final.is_terminal():
        console.rule("Result")
        console.print(final.result())
    else:
        console.print(f"[yellow]The record stops after move {len(final.history)}; the match is not finished.[/]")


def _register_arena() -> None:
    from cardtable.lab.arena import arena_command

    app.command("arena")(arena_command)


_register_arena()


def _register_ratings() -> None:
    try:
        from cardtable.server.landmarks import ratings_command
    except ImportError:  # the web extra (sqlalchemy, openskill) is not installed
        return
    app.command("ratings")(ratings_command)


_register_ratings()


def main() -> None:
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
