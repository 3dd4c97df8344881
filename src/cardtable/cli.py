"""The ``cardtable`` command line: play, simulate, replay, list games."""

from __future__ import annotations

import datetime as _dt
import json
import random
from pathlib import Path
from typing import Any, Optional

import typer
from rich import box
from rich.console import Console, Group
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from cardtable import records
from cardtable.agents import agent_names, check_agent_spec, make_agent
from cardtable.console.progress import progress_bar
from cardtable.protocol import Game
from cardtable.gameflags import game_argument, given_options, option_values, with_game_options
from cardtable.i18n import message
from cardtable.registry import game_info, game_names, load_game

app = typer.Typer(
    help="cardtable — Lost Cities, Lost Ranks and Ранг: play against AI, run studies, replay saved games.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,  # click's plain help: rewrapped to the terminal, nothing cut (#14.7)
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
    for name in game_names():
        info = game_info(name)
        players = str(info.min_players) if info.min_players == info.max_players else f"{info.min_players}–{info.max_players}"
        console.print(Text.assemble((name, "bold cyan"), f"  {info.title.en}, {players} players"))
        lines = Table.grid(padding=(0, 0))
        lines.add_column(width=2)
        lines.add_column()
        lines.add_row("", f"agents: {', '.join(agent_names(name))}")
        for o in info.options:
            lines.add_row("", f"{o.flag}{option_values(o)}: {o.help.en}")
        if not info.options:
            lines.add_row("", "no options")
        console.print(lines, markup=False)


@app.command()
@with_game_options
def play(
    game_name: str = GameArg,
    ai: str = typer.Option("heuristic", "--ai", metavar="AGENT", help="The AI for every other seat: easy, medium, hard, heuristic, random (cardtable games lists them all); options as name:key=value."),
    seed: Optional[int] = typer.Option(None, "--seed", metavar="N", help="Deal seed (default: random)."),
    seat: int = typer.Option(0, "--seat", metavar="N", help="Your seat (0 = first)."),
    game_options: dict[str, Any] = {},  # noqa: B006 - replaced by one flag per game option
    lang: str = typer.Option("en", "--lang", metavar="LANG", help="Interface language: en or ru."),
    save: Optional[Path] = typer.Option(None, "--save", metavar="FILE", help="Where to save the game (default: a new file in ~/.local/share/cardtable/saves/)."),
    resume: Optional[Path] = typer.Option(None, "--resume", metavar="FILE", help="Continue a saved game record."),
) -> None:
    """Play a match in the terminal against the AI.

    Type a key shown on screen (a bare number always plays that card of your hand) or the
    move itself; 'help' lists the commands.  The game is saved when you leave.
    """
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
    console.rule(message("terminal.title", lang, game=message(f"game.{game.name}", lang), seed=state.seed, seat=seat))
    TerminalMatch(state, human=seat, agents=agents, players=names, console=console,
                  lang=lang, save_path=save_path, hint=_hint_engine(seat, lang)).run()


def _hint_engine(seat: int, lang: str = "en") -> Any:
    """The search AI's hint for ``seat`` (computed from that seat's view only) in ``lang``."""
    try:
        from cardtable.agents.search import hint_facts
        from cardtable.console.play import hint_line
    except ImportError:  # pragma: no cover - search agent not installed
        return None

    def hint(state: Any) -> str:
        return hint_line(hint_facts(state, seat, seed=len(state.history)), state.game.name, lang)

    return hint


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", "--host", metavar="ADDRESS", help="Address to listen on (default: this machine only)."),
    port: int = typer.Option(8000, "--port", metavar="N", help="Port (0 picks a free one)."),
    db: Optional[str] = typer.Option(None, "--db", metavar="URL", help="Database URL: sqlite:///FILE or postgresql://user:pass@host/db (default: ~/.local/share/cardtable/cardtable.db)."),
    ai_delay: float = typer.Option(0.4, "--ai-delay", metavar="SECONDS", help="Seconds an AI waits before moving, so people can follow."),
    allowed_origin: list[str] = typer.Option([], "--allowed-origin", metavar="ORIGIN", help="Another browser origin (https://example.org) allowed to play; repeatable."),
    allowed_host: list[str] = typer.Option([], "--allowed-host", metavar="HOST", help="Another host name the server answers to (besides localhost and --host); '*' for any; repeatable."),
    max_matches_per_minute: float = typer.Option(30.0, "--max-matches-per-minute", min=1, metavar="N", help="New matches per minute per client address."),
    http_rate: float = typer.Option(20.0, "--http-rate", min=1, metavar="N", help="HTTP requests per second per client address (bursts of 200)."),
    hints_per_minute: float = typer.Option(60.0, "--hints-per-minute", min=1, metavar="N", help="Hints per minute per client address."),
    max_sockets_per_address: int = typer.Option(32, "--max-sockets-per-address", min=1, metavar="N", help="Open websockets per client address."),
    ai_workers: Optional[int] = typer.Option(None, "--ai-workers", min=0, metavar="N", help="Processes searching AI moves and hints (default: cores - 1; 0: a thread)."),
    room_idle_seconds: float = typer.Option(300.0, "--room-idle-seconds", min=0, metavar="SECONDS", help="Seconds before an unattended match leaves memory (it reloads from the database)."),
    proxy_headers: bool = typer.Option(False, "--proxy-headers", help="Behind a reverse proxy: trust X-Forwarded-For for client addresses (the per-address limits)."),
    forwarded_allow_ips: str = typer.Option("127.0.0.1", "--forwarded-allow-ips", metavar="IPS", help="The proxies whose X-Forwarded-* headers are trusted (comma-separated; '*': any)."),
    cluster: bool = typer.Option(False, "--cluster", help="One of several server processes sharing the PostgreSQL --db (docs/scaling.md)."),
    processes: int = typer.Option(1, "--processes", min=1, metavar="N", help="Start N cluster processes on ports PORT, PORT+1, … (PostgreSQL only; docs/scaling.md)."),
) -> None:
    """Start the game server for the web UI.

    Open the address it prints in a browser to play.
    """
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
    from cardtable.console.kernels import playout_engine
    from cardtable.server.cluster import ClusterUnsupported

    console.print(playout_engine(), markup=False)
    try:
        if processes > 1:
            from cardtable.server import run_processes

            run_processes(processes, host, port, db, ai_delay=ai_delay, proxy_headers=proxy_headers,
                          forwarded_allow_ips=forwarded_allow_ips, **limits)
        else:
            run(host, port, db, ai_delay=ai_delay, proxy_headers=proxy_headers,
                forwarded_allow_ips=forwarded_allow_ips, cluster=cluster, **limits)
    except ClusterUnsupported as err:
        raise fail(str(err)) from None
    except OSError as err:
        raise fail(f"cannot listen on {host}:{port}: {err.strerror or err}") from None
    except RuntimeError as err:  # the database is in use by another server, or startup failed
        raise fail(str(err)) from None
    except KeyboardInterrupt:
        pass


SEED_HELP = "The series seed: each match's deal derives from it and the match number."
RESULTS_HELP = "Also keep every match in this results file (SQLite, as cardtable lab run writes; it resumes a stopped run)."


@app.command()
@with_game_options
def simulate(
    game_name: str = GameArg,
    games: int = typer.Option(100, "--games", "-n", min=1, metavar="N", help="Number of matches."),
    agents: str = typer.Option("heuristic,random", "--agents", "-a", metavar="AGENTS",
                               help="Comma-separated agents (name or name:key=value:…); seats rotate between matches."),
    seed: int = typer.Option(0, "--seed", metavar="N", help=SEED_HELP),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1, metavar="N", help="Matches played at a time (worker processes)."),
    game_options: dict[str, Any] = {},  # noqa: B006 - replaced by one flag per game option
    json_out: Optional[Path] = typer.Option(None, "--json", metavar="FILE", help="Also write the summary (and every match) as JSON."),
    results: Optional[Path] = typer.Option(None, "--results", metavar="FILE", help=RESULTS_HELP),
) -> None:
    """Play many matches between agents and print their win rates.

    Prints win and loss rates with 95 % intervals, mean returns and scores, the seat
    advantage and decision times.  The same as cardtable arena, which always saves the
    JSON; both play a one-cell study with the lab's runner (cardtable lab run).
    """
    _, _, summary = play_series(game_name, game_options, agents, games=games, seed=seed, jobs=jobs, results=results)
    if json_out is not None:
        write_json(json_out, summary.as_dict(outcomes=True), "Summary written to")


def play_series(game_name: str, game_options: dict[str, Any], agents: str, *, games: int, seed: int, jobs: int,
                results: Path | None) -> tuple[Game, list[str], Any]:
    """What ``simulate`` and ``arena`` share: check the game and agents, play their one-cell
    study (:func:`cardtable.lab.runner.run_series`) under a progress bar and print the
    summary tables; the game, the entries and the summary."""
    from cardtable.lab.runner import run_series
    from cardtable.lab.study import StudyError

    game = build_game(game_name, game_options)
    entries = check_entries(agents, game)
    if results is not None:
        results.parent.mkdir(parents=True, exist_ok=True)
    try:
        with progress_bar(err_console) as progress:
            task = progress.add_task(escape(f"{game.title}: {' vs '.join(entries)}"), total=games)
            summary = run_series(game, entries, games=games, seed=seed, jobs=jobs, results=results,
                                 on_match=lambda _: progress.advance(task))
    except StudyError as err:  # e.g. --results names a file of another study
        raise fail(escape(str(err))) from None
    console.print(summary_tables(summary, times=True))
    if results is not None:
        print_path("Matches stored in", results)
    return game, entries, summary


def write_json(path: Path, data: Any, message: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print_path(message, path)


def _interval(rate: float, bounds: list[float]) -> str:
    """``54.1 [52.3, 55.9]``: a rate and its 95 % interval, in percent, on one line."""
    lo, hi = bounds
    return f"{100 * rate:.1f} [{100 * lo:.1f}, {100 * hi:.1f}]"


def _compact_table(*columns: str, title: str | None = None, caption: str | None = None) -> Table:
    """A table that fits 80 columns: no vertical rules, one space of padding, the first
    column (the agent) folds, numbers never wrap."""
    table = Table(title=title, caption=caption, box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False)
    table.add_column(columns[0], overflow="fold")
    for column in columns[1:]:
        table.add_column(column, justify="right", no_wrap=True)
    return table


def summary_tables(summary: Any, *, times: bool = False) -> Group:
    """The by-agent and by-seat tables of a series (and decision-time percentiles if
    ``times``), each fitting an 80-column terminal.  A result is one match of one team:
    partners count once."""
    data = summary.as_dict()
    partners = any(len(team) > 1 for team in data["teams"])
    config = ", ".join(f"{k}={v}" for k, v in data["config"].items())
    heading = Text(f"{data['matches']} matches of {data['game']} ({config}); draws: {data['draws']}, "
                   f"mean length {data['mean_actions']:.0f} actions", style="bold")
    agents = _compact_table("by agent", "results", "win % [95 % CI]", "loss % [95 % CI]", "return", "score",
                            caption="partners count as one result" if partners else None)
    for r in data["entries"]:
        agents.add_row(r["agent"], str(r["results"]), _interval(r["win_rate"], r["win_rate_95"]),
                       _interval(r["loss_rate"], r["loss_rate_95"]), f"{r['mean_return']:+.3f}",
                       "—" if r["mean_score"] is None else f"{r['mean_score']:.1f}")
    seats = _compact_table("seat advantage", "matches", "win % [95 % CI]", "loss % [95 % CI]", "return")
    for r in data["seats"]:
        seats.add_row(r["agent"], str(r["results"]), _interval(r["win_rate"], r["win_rate_95"]),
                      _interval(r["loss_rate"], r["loss_rate_95"]), f"{r['mean_return']:+.3f}")
    parts: list[Any] = [heading, agents, seats]
    if times:
        clock = _compact_table("decision times (ms)", "decisions", "mean", "p50", "p95", "max")
        for r in data["entries"]:
            ms = r["decision_ms"]
            clock.add_row(r["agent"], str(ms["count"]), *(f"{ms[k]:.1f}" for k in ("mean", "p50", "p95", "max")))
        parts.append(clock)
    return Group(*parts)


def print_path(message: str, path: Path) -> None:
    """``message`` and ``path`` on one line, the path never broken (a terminal wraps it
    whole, so it can still be copied)."""
    console.print(f"{message} {path}", soft_wrap=True, markup=False)


def _scores_text(scores: Any) -> str:
    """Scores as a person reads them: ``-24, -76`` by seat, ``red 6, black 0`` by army."""
    if isinstance(scores, dict):
        return ", ".join(f"{k} {v}" for k, v in scores.items())
    return ", ".join(str(x) for x in scores)


def _result_table(result: dict[str, Any], players: list[str]) -> Table:
    """The final scores and returns of a replayed match, one row per seat."""
    table = _compact_table("seat", "score", "return")
    for seat, (score, ret) in enumerate(zip(result["scores"], result["returns"])):
        table.add_row(f"{seat} {players[seat]}", str(score), f"{ret:+g}")
    return table


@app.command()
def replay(
    path: Path = typer.Argument(..., metavar="FILE", help="A saved game record (JSON)."),
    seat: int = typer.Option(0, "--seat", metavar="N", help="Whose view to show the table from."),
    board: bool = typer.Option(False, "--board", help="Show the table after every move."),
    step: bool = typer.Option(False, "--step", help="Wait for Enter after every move."),
    lang: str = typer.Option("en", "--lang", metavar="LANG", help="Language of the moves and dates: en or ru."),
) -> None:
    """Show a saved game move by move.

    The record is checked first: every move must be legal and the stored result must be
    the one the moves reach.
    """
    from cardtable.console.play import renderer_for
    from cardtable.i18n.dates import saved_text

    if lang not in ("en", "ru"):
        raise fail(f"--lang must be en or ru, not {lang!r}")
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
    config = ", ".join(f"{k}={v}" for k, v in game.config_dict().items())
    console.print(message("terminal.replay_head", lang, game=message(f"game.{game.name}", lang), config=config,
                          seed=record["seed"], players=", ".join(map(str, players))), style="bold", markup=False)
    if record.get("saved"):
        console.print(message("terminal.saved_on", lang, date=saved_text(str(record["saved"]), lang)), markup=False)
    state = records.new_state_of(record)
    rounds_seen = 0
    for number, action in enumerate(final.history, start=1):
        event = state.apply_action(action)
        view = state.view(seat)
        line = renderer.describe(event, view, lang=lang)
        console.print(f"[dim]{number:>4}[/] {line}")
        if len(view["round_scores"]) > rounds_seen:
            rounds_seen = len(view["round_scores"])
            console.print(message("terminal.replay_round", lang, n=rounds_seen, scores=_scores_text(view["round_scores"][-1]),
                                  totals=_scores_text(view["scores"])), style="bold", markup=False)
        if board:
            console.print(renderer.render(view, lang=lang))
        if step:
            input("[Enter] ")
    if final.is_terminal():
        console.rule(message("terminal.result", lang))
        console.print(_result_table(final.result(), [str(p) for p in players]))
    else:
        console.print(message("terminal.replay_unfinished", lang, n=len(final.history)), style="yellow", markup=False)


def _register_arena() -> None:
    from cardtable.lab.arena import arena_command

    app.command("arena")(arena_command)


_register_arena()


def _register_lab() -> None:
    from cardtable.cli_lab import lab_app

    app.add_typer(lab_app, name="lab")


_register_lab()


def _register_rules() -> None:
    from cardtable.console.rules import rules_command

    app.command("rules")(rules_command)


_register_rules()


def _register_ratings() -> None:
    try:
        from cardtable.server.landmarks import ratings_command
    except ImportError:  # the web extra (sqlalchemy, openskill) is not installed
        return
    app.command("ratings")(ratings_command)


_register_ratings()


def _register_analyse() -> None:
    from cardtable.console.analyse import analyse_command

    app.command("analyse")(analyse_command)


_register_analyse()


def _register_kernels() -> None:
    from cardtable.console.kernels import kernels_command

    app.command("kernels")(kernels_command)


_register_kernels()


def _register_tutorial() -> None:
    from cardtable.console.tutorial import tutorial_command

    app.command("tutorial")(tutorial_command)


_register_tutorial()


def main() -> None:
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
