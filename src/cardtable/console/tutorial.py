"""``cardtable tutorial GAME [--lang ru]``: a game's interactive tutorial in the terminal.

The steps, the engine and the judging of moves are :mod:`cardtable.tutorials`; this
module only shows them: the table (the game's own console renderer), the step's text
with the ruling it teaches, the verdict on each move — the engine's refusal in the
learner's language, or the step's hint — and what the other seats reply.  At the end
it offers a first real match against the ``easy`` AI (:class:`TerminalMatch`).
"""

from __future__ import annotations

import datetime as _dt
import random
from collections.abc import Callable
from typing import Any, Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.panel import Panel

from cardtable.agents import make_agent
from cardtable.console.play import TerminalMatch, default_save_dir, renderer_for
from cardtable.i18n import LANGUAGES, message
from cardtable.i18n import render as render_refusal
from cardtable.tutorials import Tutorial, TutorialError, load_tutorial, tutorial_games
from cardtable.tutorials.runner import ILLEGAL, OK, Verdict

FIRST_GAME_AGENT = "easy"
"""The AI of the first real match the tutorial ends with."""

_QUIT = frozenset({"quit", "exit", "q"})


class TerminalTutorial:
    """One learner at the terminal walking a game's tutorial (see the module doc)."""

    def __init__(self, tour: Tutorial, *, console: Console | None = None,
                 input_fn: Callable[[str], str] = input, lang: str = "en") -> None:
        self.tour = tour
        self.console = console or Console(highlight=False)
        self.input = input_fn
        self.lang = lang if lang in LANGUAGES else "en"
        self.renderer = renderer_for(tour.script.game.name)
        self._shown_at: int | None = None
        """How many moves the table shown last had (it is shown again only when it changed)."""

    def run(self) -> bool:
        """Walk every step; ``True`` if the learner reached the end (``False``: quit)."""
        script = self.tour.script
        self.console.rule(script.title(self.lang))
        self.console.print(escape(script.intro(self.lang)))
        try:
            while not self.tour.finished:
                if not self._run_step():
                    self.console.print(self._t("bye", game=script.game.name))
                    return False
        except (KeyboardInterrupt, EOFError):
            self.console.print()
            self.console.print(self._t("bye", game=script.game.name))
            return False
        self.console.rule(self._t("done"))
        self.console.print(escape(script.outro(self.lang)))
        return True

    def _run_step(self) -> bool:
        """Show the current step and read until it is done; ``False`` if the learner quits."""
        step = self.tour.step
        if self._shown_at != len(self.tour.state.history):
            self._shown_at = len(self.tour.state.history)
            self.console.print(self.renderer.render(self.tour.view(), lang=self.lang))
        heading = f"{self._t('step', n=self.tour.index + 1, of=len(self.tour.script.steps))} · {self._t('rule', rule=step.rule)}"
        self.console.print(Panel(escape(step.say(self.lang)), title=escape(heading), title_align="left"))
        if step.tries:
            self.console.print(f"[dim]{escape(self._t('try', moves=', '.join(a.move for a in step.tries)))}[/]")
        if step.reading:
            answer = self.input(self._t("continue_prompt")).strip().lower()
            if answer in _QUIT:
                return False
            self._show(self.tour.proceed())
            return True
        while True:
            raw = self.input(self._t("prompt")).strip()
            word = raw.lower()
            if not raw:
                continue
            if word in _QUIT:
                return False
            if word in ("help", "h", "?"):
                self.console.print(escape(self._t("help", example=step.expect[0])))
                continue
            if word == "board":
                self.console.print(self.renderer.render(self.tour.view(), lang=self.lang))
                continue
            meant = self.renderer.KEYS.resolve(word, self.tour.view())
            verdict = self.tour.attempt(meant or raw)
            self._show(verdict)
            if verdict.kind == OK:
                return True

    def _show(self, verdict: Verdict) -> None:
        """The verdict on a move: the refusal or the hint, or what the move and the replies did."""
        if verdict.kind == ILLEGAL and verdict.refusal is not None:
            reason = render_refusal(verdict.refusal, self.lang)
            self.console.print(f"[red]{escape(self._t('refused', reason=reason))}[/]")
            return
        if verdict.kind != OK:
            hint = verdict.hint(self.lang) if verdict.hint else ""
            self.console.print(f"[yellow]{escape(self._t('off_lesson', hint=hint, rule=verdict.rule))}[/]")
            return
        if verdict.events:
            self.console.print(f"[green]{escape(self._t('well_done'))}[/]")
        view = self.tour.view()
        for event in verdict.events:
            line = self.renderer.describe(event, view, lang=self.lang)
            if line:
                self.console.print(line)

    def offer_first_game(self, seed: int | None = None) -> None:
        """Ask whether to play a real match against the easy AI now (the tutorial's options), and play it if so
        (dealt from ``seed``; a fresh one when ``None``)."""
        answer = self.input(self._t("play_easy_prompt")).strip().lower()
        if answer not in ("", "y", "yes", "д", "да"):
            return
        game = self.tour.script.game  # the options just learned with
        name = game.name
        if seed is None:
            seed = random.SystemRandom().randrange(1 << 31)
        state = game.new_state(seed=seed)
        seat = self.tour.script.seat
        agents = {s: make_agent(FIRST_GAME_AGENT, game, seed=seed * 31 + s) for s in range(game.num_players) if s != seat}
        names = ["you" if s == seat else FIRST_GAME_AGENT for s in range(game.num_players)]
        stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        TerminalMatch(state, human=seat, agents=agents, players=names, console=self.console, input_fn=self.input,
                      lang=self.lang, save_path=default_save_dir() / f"{name}-{stamp}-seed{seed}.json").run()

    def _t(self, key: str, **params: Any) -> str:
        return message(f"tutorial.{key}", self.lang, **params)


def tutorial_command(
    game: str = typer.Argument(..., help=f"The game: {', '.join(tutorial_games())}."),
    lang: str = typer.Option("en", "--lang", metavar="LANG", help="Language: en or ru."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Deal the real game after the tutorial from this seed."),
) -> None:
    """Learn a game step by step, then play the easy AI.

    A scripted deal walks you through each rule: type the move each step asks for
    (a wrong one is explained with its rule), then play a first real game.
    """
    from cardtable.cli import console, fail

    if lang not in LANGUAGES:
        raise fail(f"--lang must be one of {', '.join(LANGUAGES)}, not {lang!r}")
    if game not in tutorial_games():
        raise fail(f"no tutorial for {game!r}; choose from: {', '.join(tutorial_games())}")
    try:
        tour = Tutorial(load_tutorial(game))
    except TutorialError as err:
        raise fail(str(err)) from None
    terminal = TerminalTutorial(tour, console=console, lang=lang)
    if terminal.run():
        try:
            terminal.offer_first_game(seed)
        except (KeyboardInterrupt, EOFError):
            console.print()


__all__ = ["FIRST_GAME_AGENT", "TerminalTutorial", "tutorial_command"]
