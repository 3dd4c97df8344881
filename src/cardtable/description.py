"""One description per game: what it is called, who plays it, which options it takes.

OpenSpiel's ``GameType`` is the model.  Each game module declares one :class:`GameInfo`
next to its frozen config dataclass; the config stays the source of each option's type and
default (read with :func:`dataclasses.fields`), the description adds what a person or a
front end needs to know: titles and help texts in English and Russian, the values allowed,
how many players, how long a match can last, who plays together.  The command line, the
server's ``/api/games``, the lobby's new-match form and the RL adapters are built from it.

>>> from cardtable.registry import game_info
>>> info = game_info("lost-cities")
>>> info.option("colors").choices, info.option("colors").default
((5, 6), 5)
>>> info.check({"colors": 7})
Traceback (most recent call last):
...
ValueError: colors must be 5 or 6 (LC-1), not 7
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

JSON = Any


class Text(NamedTuple):
    """A text in English and Russian."""

    en: str
    ru: str

    def as_json(self) -> dict[str, str]:
        return {"en": self.en, "ru": self.ru}


@dataclass(frozen=True, kw_only=True)
class OptionInfo:
    """One variant option: its config field, the values allowed and what it means.

    ``type`` and ``default`` come from the config dataclass (see :func:`describe`).
    Integers are allowed by ``choices`` or by the range ``minimum`` … ``maximum``
    (``None``: open); ``offered`` is what a form lists (else the whole range, when it is closed,
    except for a designer's knob, which a form asks for as a number).
    """

    name: str
    type: type
    default: Any
    label: Text
    """A few words, for a form's label (``"Rounds"``)."""
    help: Text
    """One line saying what the option does and which ruling it follows."""
    choices: tuple[Any, ...] | None = None
    choice_labels: Mapping[Any, Text] = field(default_factory=dict)
    minimum: int | None = None
    maximum: int | None = None
    offered: tuple[int, ...] = ()
    rule: str | None = None
    """The ruling the option's values follow (``"LC-1"``), cited in refusals."""
    flags: tuple[str, ...] = ()
    """Command-line names besides ``--name-with-dashes`` (``"-p"``, ``"--longer"``)."""
    form_default: Any = None
    """The value a new-match form starts at, when not ``default`` (``None``: ``default``)."""
    group: str | None = None
    """``"custom"`` for a designer's knob (a number of the published rules, changeable): a
    form keeps these in a collapsed "Custom rules" section; ``None``: an ordinary option."""

    @property
    def flag(self) -> str:
        """The option's main command-line name: ``--force-strength``."""
        long = [f for f in self.flags if f.startswith("--")]
        return long[0] if long else "--" + self.name.replace("_", "-")

    def allowed(self) -> str:
        """What values are allowed, in words: ``5 or 6``, ``a whole number from 2 to 10``."""
        if self.type is bool:
            return "true or false"
        if self.choices is not None:
            words = [str(c) for c in sorted(self.choices)]
            return ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else words[0]
        if self.minimum is not None and self.maximum is not None:
            return f"a whole number from {self.minimum} to {self.maximum}"
        if self.minimum is not None:
            return f"a whole number of at least {self.minimum}"
        return "a whole number"

    def refusal(self, value: Any) -> str | None:
        """``None`` if ``value`` is allowed, else the reason (naming the option and what is allowed)."""
        ok = isinstance(value, bool) if self.type is bool else (
            isinstance(value, int) and not isinstance(value, bool)
            and (self.choices is None or value in self.choices)
            and (self.minimum is None or value >= self.minimum)
            and (self.maximum is None or value <= self.maximum))
        if ok:
            return None
        rule = f" ({self.rule})" if self.rule else ""
        return f"{self.name} must be {self.allowed()}{rule}, not {value!r}"

    def as_json(self) -> dict[str, JSON]:
        values = self.choices if self.choices is not None else self.offered or (
            tuple(range(self.minimum, self.maximum + 1))
            if self.minimum is not None and self.maximum is not None and self.group != "custom" else None)
        return {
            "name": self.name,
            "type": self.type.__name__,
            "default": self.default,
            "form_default": self.default if self.form_default is None else self.form_default,
            "label": self.label.as_json(),
            "help": self.help.as_json(),
            "choices": list(self.choices) if self.choices is not None else None,
            "minimum": self.minimum,
            "maximum": self.maximum,
            "values": None if values is None else [
                {"value": v, "label": self.choice_labels.get(v, Text(str(v), str(v))).as_json()} for v in values],
            "rule": self.rule,
            "flag": self.flag,
            "group": self.group,
        }


def _alone(config: Any, num_players: int) -> list[list[int]]:
    return [[seat] for seat in range(num_players)]


@dataclass(frozen=True, kw_only=True)
class GameInfo:
    """Everything said about one game before it is configured (OpenSpiel's ``GameType``),
    and the per-configuration facts as functions of its config."""

    name: str
    """Registry name, e.g. ``"lost-cities"``."""
    title: Text
    summary: Text
    """One sentence saying what the game is."""
    config: type
    """The frozen, keyword-only config dataclass: the source of option types and defaults."""
    options: tuple[OptionInfo, ...]
    min_players: int
    max_players: int
    players_option: str | None = None
    """The option that sets the number of players (``None``: it is fixed)."""
    max_game_length: Callable[[Any], int]
    """A proven upper bound on player decisions in one match of a config."""
    teams: Callable[[Any, int], list[list[int]]] = _alone
    """Seats that share a result, for a config and a player count (each alone by default)."""
    min_return: float = -1.0
    max_return: float = 1.0
    return_sum: float = 0.0
    """What every seat's returns add up to in every finished match."""

    @property
    def can_tie(self) -> bool:
        """Whether a match can end level: the returns sum to zero, so a tie gives every
        seat 0 (a game whose returns sum to less, like Ранг's one loser, always has one)."""
        return self.return_sum == 0 and self.min_return <= 0 <= self.max_return

    def option(self, name: str) -> OptionInfo:
        for option in self.options:
            if option.name == name:
                return option
        raise KeyError(name)

    def defaults(self) -> dict[str, Any]:
        """Every option at its default (what ``config()`` holds)."""
        return {option.name: option.default for option in self.options}

    def custom_rules(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The designer's knobs (``group="custom"``) of ``options`` that differ from the
        published rules (what an invitation shows as "custom rules").

        >>> from cardtable.registry import game_info
        >>> game_info("lost-cities").custom_rules({"colors": 6, "cost": 10, "bonus": 20})
        {'cost': 10}
        """
        return {o.name: options[o.name] for o in self.options
                if o.group == "custom" and o.name in options and options[o.name] != o.default}

    def num_players(self, config: Any) -> int:
        return int(getattr(config, self.players_option)) if self.players_option else self.min_players

    def player_counts(self) -> list[int]:
        """Every number of players the game can be set up for."""
        return [n for n in range(self.min_players, self.max_players + 1)
                if self.players_option is None or self.option(self.players_option).refusal(n) is None]

    def teams_of(self, num_players: int) -> list[list[int]]:
        """Who plays together with ``num_players`` players (other options at their defaults)."""
        options = {self.players_option: num_players} if self.players_option else {}
        return self.teams(self.config(**options), num_players)

    def check(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """``options`` checked against the description, with every default filled in.

        Raises ``ValueError`` naming the option and what is allowed.
        """
        unknown = [key for key in options if key not in self.defaults()]
        if unknown:
            known = ", ".join(o.name for o in self.options) or "none"
            raise ValueError(f"{self.name} has no option {unknown[0]!r}; its options are: {known}")
        for option in self.options:
            if option.name in options:
                reason = option.refusal(options[option.name])
                if reason is not None:
                    raise ValueError(reason)
        return {**self.defaults(), **options}

    def as_json(self) -> dict[str, JSON]:
        """The description as plain data (``/api/games``)."""
        config = self.config()
        return {
            "name": self.name,
            "title": self.title.as_json(),
            "summary": self.summary.as_json(),
            "min_players": self.min_players,
            "max_players": self.max_players,
            "players_option": self.players_option,
            "options": [option.as_json() for option in self.options],
            "max_game_length": self.max_game_length(config),
            "teams": {str(n): self.teams_of(n) for n in self.player_counts()},
            "returns": {"min": self.min_return, "max": self.max_return, "sum": self.return_sum},
        }


def describe(config: type, *, options: Mapping[str, Mapping[str, Any]], **game: Any) -> GameInfo:
    """The :class:`GameInfo` of a game whose options are the fields of ``config``.

    ``options`` maps every field name to the rest of its :class:`OptionInfo` (label, help,
    choices …); each option's ``type`` and ``default`` are read from the field.  A field
    left undescribed, or a description of no field, is an error at import time.
    """
    fields = {f.name: f for f in dataclasses.fields(config)}
    if set(fields) != set(options):
        raise TypeError(f"{config.__name__}: described options {sorted(options)} are not its fields {sorted(fields)}")
    infos = []
    for name, extra in options.items():
        f = fields[name]
        kind = f.type if isinstance(f.type, type) else {"int": int, "bool": bool}[str(f.type)]
        infos.append(OptionInfo(name=name, type=kind, default=f.default, **extra))
    return GameInfo(config=config, options=tuple(infos), **game)


def option_names(infos: Sequence[GameInfo]) -> list[str]:
    """Every option name of these games, each once, in order of first appearance."""
    return list(dict.fromkeys(o.name for info in infos for o in info.options))
