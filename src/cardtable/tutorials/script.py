"""Tutorial scripts: a fixed deal and the steps that walk a new player through it.

A tutorial is data, one file per game (``tutorial.json`` in the game's package), found by
:func:`script_file` — the one place that knows where the files live — and read by
:func:`load_tutorial`.  A script is

* the game (its registry name and options), the seed and one explicit deck (card
  names in dealing order, the game's own explicit-deck format), so the match is
  exactly ``(config, deck, actions)`` like every match;
* the learner's seat;
* a title, an introduction and a closing text, each in every language of
  :data:`cardtable.i18n.LANGUAGES`;
* the steps, in order.  A :class:`Step` says what to show (``say``), the ruling it
  teaches (``rule``: an id of the game's rules in ``cardtable/rules/<game>.md``), the
  move or moves the learner may make (``expect``, in the game's notation; none for a
  step that is only read), the ``hint`` shown for a legal move that is not the
  lesson's, the other seats' scripted replies (``then``), illegal moves worth
  trying (``try``: the engine refuses each, citing the ruling given) and facts of
  the learner's view after the step (``shows``, checked like
  :func:`cardtable.protocol.view_contains`).

Loading checks the file's shape (every text in every language, the rulings exist,
the moves are readable); :mod:`cardtable.tutorials.runner` plays it through the real
engine.

>>> script = load_tutorial("rank")
>>> script.game.name, script.seat, bool(script.steps)
('rank', 0, True)
>>> load_tutorial("chess")
Traceback (most recent call last):
...
cardtable.tutorials.script.TutorialError: no tutorial for 'chess'; tutorials: lost-cities, lost-ranks, rank
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from typing import Any

from cardtable.i18n import LANGUAGES
from cardtable.protocol import JSON, Game, IllegalAction
from cardtable.registry import game_file, game_names, load_game
from cardtable.rules import rules_text

_RULING = re.compile(r"^### ([A-Z]{2}-\d+[a-z]?) ", re.MULTILINE)


class TutorialError(ValueError):
    """A tutorial that does not exist or whose file is not a valid script (says what and where)."""


@dataclass(frozen=True)
class Text:
    """One text in every language: ``Text({"en": …, "ru": …})``."""

    by_lang: dict[str, str]

    def __call__(self, lang: str) -> str:
        """The text in ``lang`` (English for a language the script does not have)."""
        return self.by_lang.get(lang) or self.by_lang["en"]

    def to_json(self) -> dict[str, str]:
        return dict(self.by_lang)


@dataclass(frozen=True)
class Attempt:
    """An illegal move worth trying at a step, and the ruling the engine cites refusing it."""

    move: str
    rule: str


@dataclass(frozen=True)
class Step:
    """One step of a tutorial (see the module doc)."""

    id: str
    rule: str
    say: Text
    expect: tuple[str, ...]
    hint: Text | None
    then: tuple[str, ...]
    tries: tuple[Attempt, ...]
    shows: dict[str, JSON]

    @property
    def reading(self) -> bool:
        """Whether the step only shows a text (the learner just goes on)."""
        return not self.expect

    def to_json(self, lang: str) -> dict[str, JSON]:
        """What a front end shows of the step, in ``lang``."""
        return {"id": self.id, "rule": self.rule, "say": self.say(lang), "reading": self.reading,
                "expect": list(self.expect), "hint": self.hint(lang) if self.hint else None,
                "try": [{"move": a.move, "rule": a.rule} for a in self.tries]}


@dataclass(frozen=True)
class TutorialScript:
    """A whole tutorial of one game (see the module doc)."""

    game: Game
    seed: int
    deck: tuple[int, ...]
    seat: int
    title: Text
    intro: Text
    outro: Text
    steps: tuple[Step, ...]

    def summary(self, lang: str) -> dict[str, JSON]:
        """The tutorial's texts and steps in ``lang`` (what the browser page needs)."""
        return {"game": self.game.name, "options": self.game.config_dict(), "players": self.game.num_players,
                "seat": self.seat,
                "title": self.title(lang), "intro": self.intro(lang), "outro": self.outro(lang),
                "steps": [s.to_json(lang) for s in self.steps]}


def script_file(game: str) -> Traversable:
    """Where the tutorial of ``game`` is kept: ``tutorial.json`` in the game's package."""
    return game_file(game, "tutorial.json")


def tutorial_games() -> list[str]:
    """The games that have a tutorial, sorted."""
    return sorted(name for name in game_names() if script_file(name).is_file())


@functools.lru_cache(maxsize=None)
def load_tutorial(game: str) -> TutorialScript:
    """The tutorial of ``game``; :class:`TutorialError` if there is none or it is malformed."""
    if game not in tutorial_games():
        raise TutorialError(f"no tutorial for {game!r}; tutorials: {', '.join(tutorial_games())}")
    where = f"the tutorial of {game}"
    try:
        data = json.loads(script_file(game).read_text(encoding="utf-8"))
        return parse_script(data, where)
    except (KeyError, TypeError, ValueError) as err:
        if isinstance(err, TutorialError):
            raise
        raise TutorialError(f"{where}: {type(err).__name__}: {err}") from None


def ruling_ids(game: str) -> frozenset[str]:
    """The ruling ids of ``game``'s rules (``LC-1`` …), from its English rules page."""
    return frozenset(_RULING.findall(rules_text(game, "en")))


def parse_script(data: dict[str, Any], where: str = "tutorial") -> TutorialScript:
    """A :class:`TutorialScript` from the parsed JSON of a tutorial file (``where`` names it in errors)."""
    game = load_game(str(data["game"]), **dict(data.get("options", {})))
    rulings = ruling_ids(game.name)
    try:
        deck = tuple(game.parse_card(str(name)) for name in data["deck"])
    except ValueError as err:
        raise TutorialError(f"{where}: deck: {err}") from None
    steps = tuple(_step(game, rulings, raw, f"{where}: step {i + 1}") for i, raw in enumerate(data["steps"]))
    if not steps:
        raise TutorialError(f"{where}: a tutorial needs at least one step")
    seat = int(data["seat"])
    if not 0 <= seat < game.num_players:
        raise TutorialError(f"{where}: seat {seat} is not a seat of {game.title} (0..{game.num_players - 1})")
    return TutorialScript(game, int(data.get("seed", 0)), deck, seat, _text(data["title"], f"{where}: title"),
                          _text(data["intro"], f"{where}: intro"), _text(data["outro"], f"{where}: outro"), steps)


def _step(game: Game, rulings: frozenset[str], raw: dict[str, Any], where: str) -> Step:
    rule = str(raw["rule"])
    if rule not in rulings:
        raise TutorialError(f"{where}: {rule!r} is not a ruling of {game.title}")
    moves = [str(m) for m in raw.get("expect", [])] + [str(m) for m in raw.get("then", [])]
    tries = tuple(Attempt(str(t["move"]), str(t["rule"])) for t in raw.get("try", []))
    for move in moves + [a.move for a in tries]:
        try:
            game.parse_action_name(move)
        except IllegalAction:
            raise TutorialError(f"{where}: {move!r} is not a move of {game.title}") from None
    for attempt in tries:
        if attempt.rule not in rulings:
            raise TutorialError(f"{where}: {attempt.rule!r} is not a ruling of {game.title}")
    expect = tuple(str(m) for m in raw.get("expect", []))
    hint = _text(raw["hint"], f"{where}: hint") if "hint" in raw else None
    if expect and hint is None:
        raise TutorialError(f"{where}: a step with a move to make needs a hint for other moves")
    return Step(str(raw["id"]), rule, _text(raw["say"], f"{where}: say"), expect, hint,
                tuple(str(m) for m in raw.get("then", [])), tries, dict(raw.get("shows", {})))


def _text(raw: Any, where: str) -> Text:
    if not isinstance(raw, dict) or any(not isinstance(raw.get(lang), str) or not raw[lang] for lang in LANGUAGES):
        raise TutorialError(f"{where}: a text needs every language ({', '.join(LANGUAGES)}), got {raw!r}")
    return Text({lang: raw[lang] for lang in LANGUAGES})


__all__ = ["Attempt", "Step", "Text", "TutorialError", "TutorialScript", "load_tutorial", "parse_script",
           "ruling_ids", "script_file", "tutorial_games"]
