"""The terminal play loop shared by every game: one human seat against agents.

Each game supplies a renderer module, its ``terminal`` part
(:func:`cardtable.registry.terminal_renderer`), with
``render(view, lang=...)`` and ``describe(event, view, lang=...)``; this
module runs the match, reads the human's moves (by the game's stable keys,
:mod:`cardtable.console.keys`, or by notation),
announces everything that happens, and saves the record on exit.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any, Final

from rich.console import Console, Group
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from cardtable import records
from cardtable.agents import Agent, Observation
from cardtable.agents.search import HintFacts
from cardtable.console.keys import KeyScheme, assign, hand_cards
from cardtable.i18n import LANGUAGES, message
from cardtable.i18n import render as render_refusal
from cardtable.protocol import Event, IllegalAction, State
from cardtable.registry import terminal_renderer

def renderer_for(game_name: str) -> ModuleType:
    """The console renderer module of a game (its ``terminal`` part)."""
    return terminal_renderer(game_name)


VERDICTS: Final = ("win", "lose", "draw")
"""The final verdict's message keys for a positive, negative and zero return; a renderer
may name its own as ``VERDICTS``."""


def default_save_dir() -> Path:
    base = os.environ.get("CARDTABLE_HOME") or os.path.join(
        os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share"), "cardtable"
    )
    return Path(base) / "saves"


class TerminalMatch:
    """A match between a human at the terminal and agents in the other seats."""

    def __init__(
        self,
        state: State,
        *,
        human: int,
        agents: dict[int, Agent],
        players: Sequence[str],
        console: Console | None = None,
        input_fn: Callable[[str], str] = input,
        lang: str = "en",
        save_path: Path | None = None,
        hint: Callable[[State], str] | None = None,
    ) -> None:
        self.state = state
        self.human = human
        self.agents = agents
        self.players = list(players)
        self.console = console or Console(highlight=False)
        self.input = input_fn
        self.lang = lang if lang in LANGUAGES else "en"
        self.renderer = renderer_for(state.game.name)
        self.keys: KeyScheme = self.renderer.KEYS
        self.save_path = save_path
        self.hint = hint

    # ------------------------------------------------------------------
    def run(self) -> State:
        """Play until the match ends or the human quits; always saves the record."""
        shown_rounds = len(self.state.view(self.human)["round_scores"])
        try:
            while not self.state.is_terminal():
                seat = self.state.current_player()
                if seat == self.human:
                    action = self._ask_human()
                    if action is None:
                        self.console.print(self._t("bye"))
                        break
                else:
                    action = self.agents[seat].act(Observation.of(self.state, seat))
                event = self.state.apply_action(action)
                view = self.state.view(self.human)
                self._announce(event, view)
                if len(view["round_scores"]) > shown_rounds:
                    shown_rounds = len(view["round_scores"])
                    self._round_summary(view)
            if self.state.is_terminal():
                self._final()
        except (KeyboardInterrupt, EOFError):
            self.console.print()
            self.console.print(self._t("bye"))
        finally:
            self._save()
        return self.state

    # ------------------------------------------------------------------
    def _show_board(self) -> None:
        self.console.print(self.renderer.render(self.state.view(self.human), lang=self.lang))

    def _choices(self) -> list[tuple[str, int, str]]:
        """(key, action, text) for every legal move, by the game's :class:`KeyScheme`."""
        legal = self.state.legal_actions()
        strings = self.state.legal_action_strings()
        keys = assign(self.keys, self.state.view(self.human), strings)
        letters = (f"m{i}" for i in range(1, len(strings) + 1))
        choices = [(k[0] if k else next(letters), a, t) for k, a, t in zip(keys, legal, strings)]
        return sorted(choices, key=lambda c: _key_order(c[0]))

    def _legal_table(self, choices: list[tuple[str, int, str]]) -> Group:
        table = Table(title=self._t("legal"), show_header=False, box=None, pad_edge=False)
        columns = 4 if len(choices) > 8 else 2
        rows = (len(choices) + columns - 1) // columns
        for r in range(rows):
            cells = []
            for c in range(columns):
                i = c * rows + r
                if i < len(choices):
                    key, _, text = choices[i]
                    cells.append(f"[bold cyan]{key:>3}[/] {escape(self.move_text(text))}")
                else:
                    cells.append("")
            table.add_row(*cells)
        n = len(hand_cards(self.state.view(self.human)))
        legend = self.keys.legend.get(self.lang) or self.keys.legend.get("en", "")
        return Group(table, Text(legend.format(n=n), style="dim"))

    def _ask_human(self) -> int | None:
        choices = self._choices()
        if len(choices) == 1 and self._is_forced(choices[0][2]):
            only = self._t("only_move", move=self.move_text(choices[0][2]))
            self.console.print(f"[dim]{self._t('your_move')}: {escape(only)}[/]")
            return choices[0][1]
        by_key = {key.lower(): action for key, action, _ in choices}
        self._show_board()
        self.console.print(self._legal_table(choices))
        while True:
            raw = self.input(self._t("prompt")).strip()
            word = raw.lower()
            if not raw:
                continue
            if word in by_key:
                return by_key[word]
            if word in ("quit", "exit", "q"):
                return None
            if word in ("help", "h"):
                self.console.print(escape(self._t("help", example=choices[0][2])))
                continue
            if word in ("moves", "legal"):
                self.console.print(self._legal_table(choices))
                continue
            if word == "board":
                self._show_board()
                self.console.print(self._legal_table(choices))
                continue
            if word == "save":
                self._save()
                continue
            if word in ("?", "hint"):
                if self.hint is None:
                    self.console.print(f"[yellow]{self._t('no_hint')}[/]")
                else:
                    self.console.print(self.hint(self.state))
                continue
            meant = self.keys.resolve(word, self.state.view(self.human))
            if meant is None and " " not in word and any(ch.isdigit() for ch in word):  # a key, not a move
                keys = ", ".join(k for k, _, _ in choices)
                self.console.print(f"[red]{escape(self._t('not_a_key', raw=repr(raw), keys=keys))}[/]")
                self.console.print(self._legal_table(choices))
                continue
            try:
                return self.state.parse_action(meant or raw)
            except IllegalAction as err:
                reason = str(err) if err.refusal is None else render_refusal(err.refusal, self.lang)
                if meant is not None:
                    reason = f"{word} = {self.move_text(meant)}: {reason}"
                self.console.print(f"[red]{escape(reason)}[/]")
                self.console.print(self._legal_table(choices))

    def move_text(self, notation: str) -> str:
        """A legal move as the player reads it: the game's words for it in the player's
        language (the notation itself in English)."""
        text: str = self.renderer.move_text(notation, self.lang)
        return text

    @staticmethod
    def _is_forced(text: str) -> bool:
        # Auto-play single moves that are no decision at all (a forced draw or pass).
        return text.split()[0].lower() in ("draw", "pass", "continue")

    def _announce(self, event: Event, view: dict[str, Any]) -> None:
        line = self.renderer.describe(event, view, lang=self.lang)
        if line:
            self.console.print(line)

    def _round_summary(self, view: dict[str, Any]) -> None:
        rounds = view["round_scores"]
        table = Table(title=message("match.round_over", self.lang, n=len(rounds)))
        labels = _score_labels(view, self.players, self.human, self.lang)
        table.add_column(self._t("round"))
        for label in labels:
            table.add_column(label, justify="right")
        for i, scores in enumerate(rounds, start=1):
            table.add_row(str(i), *[str(s) for s in scores])
        table.add_row(self._t("total"), *[f"[bold]{s}[/]" for s in view["scores"]])
        self.console.print(table)

    def _final(self) -> None:
        result = self.state.result()
        returns = result["returns"]
        mine = returns[self.human]
        won, lost, drawn = getattr(self.renderer, "VERDICTS", VERDICTS)
        verdict = self._t(won if mine > 0 else lost if mine < 0 else drawn)
        scores = result.get("scores")
        shown = ", ".join(map(str, scores)) if isinstance(scores, list) else str(scores)
        self.console.rule(self._t("final"))
        self.console.print(f"[bold]{verdict}[/]  {self._t('final_scores', scores=shown)}")

    def _save(self) -> None:
        if self.save_path is None or not self.state.history:
            return
        rec = records.record_of(self.state, players=self.players)
        path = records.save(self.save_path, rec)
        self.console.print(self._t("saved", path=path, game=self.state.game.name), soft_wrap=True, markup=False)

    def _t(self, key: str, **params: Any) -> str:
        """The terminal's message ``key`` in the player's language (:mod:`cardtable.i18n`)."""
        return message(f"terminal.{key}", self.lang, **params)


def hint_line(facts: HintFacts, game_name: str, lang: str) -> str:
    """The search AI's hint (:func:`cardtable.agents.search.hint_facts`) in ``lang``, each
    move in the game's words (:func:`renderer_for` ``.move_text``)."""
    if facts.move is None:
        return message("hint.not_your_turn", lang)
    words = renderer_for(game_name).move_text
    if facts.only:
        return message("hint.only", lang, move=words(facts.move, lang))
    label_key = {"win": "hint.value.win", "chance not to lose": "hint.value.not_lose"}.get(facts.label)
    label = message(label_key, lang) if label_key else facts.label
    line = message("hint.best", lang, move=words(facts.move, lang), label=label, value=facts.value)
    if facts.others:
        others = ", ".join(f"{words(move, lang)} {value} %" for move, value in facts.others)
        line += message("hint.others", lang, moves=others)
    if facts.spread is not None:
        line += message("hint.spread", lang, spread=facts.spread)
    return line


def _score_labels(view: dict[str, Any], players: Sequence[str], human: int, lang: str = "en") -> list[str]:
    n = len(view["scores"])
    if n == len(players):
        return [message("terminal.you", lang) if i == human else message("terminal.seat", lang, name=players[i], seat=i)
                for i in range(n)]
    names = view.get("score_labels")
    if isinstance(names, list) and len(names) == n:
        return [str(x) for x in names]
    return [message("terminal.side", lang, n=i) for i in range(n)]


def _key_order(key: str) -> tuple[int, str, int]:
    """Bare numbers first, then prefixed numbers (``x1`` …), then named keys."""
    digits = key.lstrip("abcdefghijklmnopqrstuvwxyz")
    prefix = key[: len(key) - len(digits)]
    return (0 if not prefix else 1 if digits else 2, prefix, int(digits or 0))
