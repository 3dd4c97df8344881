"""A *study*: which game, which variants, which agents, how many matches, which seed.

A study is a small TOML file (read with the standard library's :mod:`tomllib`)::

    title = "Does Force Strength make Lost Ranks fairer between the armies?"
    game = "lost-ranks"
    seed = 2026
    matches = 300                  # per cell
    human_seconds_per_move = 4     # for "minutes at a human pace" (default 4)
    engine = "python"              # or "kernel": compiled play-outs (cardtable.lab.engines)

    [options]                      # the same in every cell
    players = 4

    [variants]                     # the grid: every combination is one variant;
    force_strength = [false, true] # the first value of each option is the base

    [[lineups]]                    # agents, and how they are seated
    agents = ["heuristic", "heuristic"]
    seating = "rotate"             # "rotate" (default: seats rotate between matches) or "fixed"

A **cell** is one variant with one lineup; every cell plays ``matches`` matches.  The
seed of match ``i`` of a cell is :func:`match_seed` of the study seed, the cell's
key and ``i`` only — so a run on one process, on many, or on a Ray cluster plays the
same matches, and adding a variant leaves the other cells' matches unchanged.

Every field is checked before a match is played; a :class:`StudyError` names the
field, what was wrong and what is allowed.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardtable.agents import check_agent_spec, make_agent
from cardtable.lab.engines import ENGINES, check_kernel
from cardtable.protocol import JSON, Game
from cardtable.registry import game_names, load_game

FIELDS = ("title", "game", "seed", "matches", "human_seconds_per_move", "engine", "options", "variants", "lineups")
SEATINGS = ("rotate", "fixed")


class StudyError(ValueError):
    """A study that cannot be run: the message names the field and what is allowed."""


@dataclass(frozen=True)
class Lineup:
    """Agent specs (entry ``e`` plays the seats given to it) and the seating rule."""

    agents: tuple[str, ...]
    seating: str = "rotate"

    @property
    def label(self) -> str:
        text = " vs ".join(self.agents)
        return text if self.seating == "rotate" else f"{text} (fixed seats)"


@dataclass(frozen=True)
class Cell:
    """One variant played by one lineup."""

    index: int
    variant: dict[str, JSON]
    """The varied options only (``{}`` when the study varies nothing)."""
    lineup: Lineup

    @property
    def key(self) -> str:
        """A stable name of the cell (canonical JSON): its matches' seeds derive from it."""
        return json.dumps({"variant": self.variant, "agents": list(self.lineup.agents),
                           "seating": self.lineup.seating}, sort_keys=True, separators=(",", ":"))

    @property
    def variant_label(self) -> str:
        return ", ".join(f"{k}={_toml_value(v)}" for k, v in self.variant.items()) or "base"

    @property
    def label(self) -> str:
        return f"{self.variant_label} · {self.lineup.label}"


@dataclass(frozen=True)
class Study:
    game: str
    matches: int
    seed: int = 0
    title: str = ""
    options: dict[str, JSON] = field(default_factory=dict)
    variants: dict[str, list[JSON]] = field(default_factory=dict)
    lineups: tuple[Lineup, ...] = (Lineup(("heuristic", "heuristic")),)
    human_seconds_per_move: float = 4.0
    engine: str = "python"
    """Who plays the matches (:mod:`cardtable.lab.engines`)."""

    def cells(self) -> list[Cell]:
        """Every variant × lineup, variants in grid order (the first is the base)."""
        names = list(self.variants)
        combos = [dict(zip(names, values)) for values in itertools.product(*(self.variants[n] for n in names))]
        pairs = itertools.product(combos, self.lineups)
        return [Cell(i, variant, lineup) for i, (variant, lineup) in enumerate(pairs)]

    def game_for(self, cell: Cell) -> Game:
        return load_game(self.game, **self.options, **cell.variant)

    def as_dict(self) -> dict[str, JSON]:
        """The study as plain data (stored with the results; :func:`study_from_dict` reads it)."""
        return {"title": self.title, "game": self.game, "seed": self.seed, "matches": self.matches,
                "human_seconds_per_move": self.human_seconds_per_move, "engine": self.engine,
                "options": self.options,
                "variants": self.variants,
                "lineups": [{"agents": list(x.agents), "seating": x.seating} for x in self.lineups]}

    @property
    def display_title(self) -> str:
        return self.title or f"{self.game}: {', '.join(self.variants) or 'base game'}"


def match_seed(study_seed: int, cell_key: str, index: int) -> int:
    """The deal seed of match ``index`` of a cell: a hash of the study seed, the cell
    key and the index (31 bits), independent of the order matches are played in.

    >>> match_seed(1, "k", 0) == match_seed(1, "k", 0) != match_seed(1, "k", 1)
    True
    """
    digest = hashlib.sha256(f"cardtable-lab:{study_seed}:{cell_key}:{index}".encode()).digest()
    return int.from_bytes(digest[:4], "big") >> 1


def load_study(path: Path) -> Study:
    """Read and check a study file."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise StudyError(f"cannot read study {path}: {err.strerror or err}") from None
    except tomllib.TOMLDecodeError as err:
        raise StudyError(f"{path} is not valid TOML: {err}") from None
    try:
        return study_from_dict(data)
    except StudyError as err:
        raise StudyError(f"{path}: {err}") from None


def study_from_dict(data: dict[str, Any]) -> Study:
    """A checked :class:`Study` from plain data (a parsed TOML file or :meth:`Study.as_dict`)."""
    unknown = sorted(set(data) - set(FIELDS))
    if unknown:
        raise StudyError(f"unknown field {unknown[0]!r}; a study has: {', '.join(FIELDS)}")
    game = data.get("game")
    if game not in game_names():
        raise StudyError(f"field 'game' must be one of {', '.join(game_names())}, not {game!r}")
    study = Study(
        game=str(game),
        matches=_positive_int(data.get("matches"), "matches"),
        seed=_int(data.get("seed", 0), "seed"),
        title=_text(data.get("title", ""), "title"),
        options=_table(data.get("options", {}), "options"),
        variants=_grid(data.get("variants", {})),
        lineups=_lineups(data.get("lineups", [{"agents": ["heuristic", "heuristic"]}])),
        human_seconds_per_move=_positive_number(data.get("human_seconds_per_move", 4.0), "human_seconds_per_move"),
        engine=_engine(data.get("engine", "python")),
    )
    _check_runs(study)
    return study


def parse_value(text: str, what: str) -> JSON:
    """A command-line value read as TOML (``true``, ``4``, ``[false, true]``, ``"x"``);
    a bare word is taken as a string."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        if text and text.replace("-", "").replace("_", "").isalnum():
            return text
        raise StudyError(f"{what}: {text!r} is not a value (write e.g. true, 4, [false, true])") from None


def _check_runs(study: Study) -> None:
    overlap = sorted(set(study.options) & set(study.variants))
    if overlap:
        raise StudyError(f"option {overlap[0]!r} is both in [options] and [variants]; give it in one")
    for cell in study.cells():
        try:
            game = study.game_for(cell)
        except ValueError as err:
            raise StudyError(f"[options]/[variants] {cell.variant_label}: {err}") from None
        agents = cell.lineup.agents
        if len(agents) > game.num_players:
            raise StudyError(f"lineup {list(agents)}: {len(agents)} agents for {game.num_players} seats; "
                             f"give 1 to {game.num_players}")
        for spec in agents:
            try:
                check_agent_spec(spec, game)
                make_agent(spec, game, seed=0)
            except (ValueError, TypeError) as err:
                raise StudyError(f"lineups: agent {spec!r}: {err}") from None
        if study.engine == "kernel":
            try:
                check_kernel(game, agents)
            except ValueError as err:
                raise StudyError(f"field 'engine': {err}") from None


def _engine(raw: Any) -> str:
    if raw not in ENGINES:
        raise StudyError(f"field 'engine' must be one of {', '.join(ENGINES)}, not {raw!r}")
    return str(raw)


def _lineups(raw: Any) -> tuple[Lineup, ...]:
    if not isinstance(raw, list) or not raw:
        raise StudyError("field 'lineups' must be a non-empty array of tables, e.g. [[lineups]] agents = [\"heuristic\", \"random\"]")
    out = []
    for n, item in enumerate(raw, start=1):
        where = f"lineups[{n}]"
        if not isinstance(item, dict) or set(item) - {"agents", "seating"}:
            raise StudyError(f"{where} must be a table with 'agents' (and optionally 'seating')")
        agents = item.get("agents")
        if not isinstance(agents, list) or not agents or not all(isinstance(a, str) and a.strip() for a in agents):
            raise StudyError(f"{where}.agents must be a non-empty list of agent specs, e.g. [\"hard\", \"heuristic\"]")
        seating = item.get("seating", "rotate")
        if seating not in SEATINGS:
            raise StudyError(f"{where}.seating must be one of {', '.join(SEATINGS)}, not {seating!r}")
        out.append(Lineup(tuple(a.strip() for a in agents), seating))
    return tuple(out)


def _grid(raw: Any) -> dict[str, list[JSON]]:
    grid = _table(raw, "variants")
    for key, values in grid.items():
        if not isinstance(values, list) or not values:
            raise StudyError(f"variants.{key} must be a non-empty list of values, e.g. {key} = [false, true]")
        if len(set(map(json.dumps, values))) != len(values):
            raise StudyError(f"variants.{key} lists a value twice: {values}")
    return grid


def _table(raw: Any, name: str) -> dict[str, JSON]:
    if not isinstance(raw, dict):
        raise StudyError(f"field {name!r} must be a table of option = value")
    return dict(raw)


def _int(raw: Any, name: str) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise StudyError(f"field {name!r} must be a whole number, not {raw!r}")
    return raw


def _positive_int(raw: Any, name: str) -> int:
    if raw is None:
        raise StudyError(f"field {name!r} is missing: how many matches each cell plays (a whole number ≥ 1)")
    value = _int(raw, name)
    if value < 1:
        raise StudyError(f"field {name!r} must be at least 1, not {value}")
    return value


def _positive_number(raw: Any, name: str) -> float:
    if isinstance(raw, bool) or not isinstance(raw, (int, float)) or raw <= 0:
        raise StudyError(f"field {name!r} must be a positive number, not {raw!r}")
    return float(raw)


def _text(raw: Any, name: str) -> str:
    if not isinstance(raw, str):
        raise StudyError(f"field {name!r} must be text, not {raw!r}")
    return raw


def _toml_value(value: JSON) -> str:
    return json.dumps(value) if not isinstance(value, str) else value
