"""Agents by name: ``make_agent("heuristic", game, seed=1)``.

An agent *spec* is a registry name, optionally followed by options, each
``:key=value`` — the syntax of ``--ai``/``--agents`` everywhere an AI is chosen:

>>> parse_agent_spec("ismcts:iterations=200:seconds=0.5:prior=false")
('ismcts', {'iterations': 200, 'seconds': 0.5, 'prior': False})
>>> parse_agent_spec("heuristic")
('heuristic', {})
"""

from __future__ import annotations

import importlib
from typing import Any, Final

from cardtable.agents.base import Agent, Observation, RandomAgent
from cardtable.protocol import Game
from cardtable.registry import games_with, heuristic_class

# name -> "module:Class" of an agent every game has
_AGENTS: dict[str, str] = {
    "random": "cardtable.agents.base:RandomAgent",
    "easy": "cardtable.agents.search:EasyAgent",
    "medium": "cardtable.agents.search:MediumAgent",
    "hard": "cardtable.agents.search:HardAgent",
    "ismcts": "cardtable.agents.search:ISMCTSAgent",
}
HEURISTIC: Final = "heuristic"
"""The agent a game brings itself: its ``heuristic`` part (:func:`cardtable.registry.heuristic_class`)."""


STRENGTH_ORDER: tuple[str, ...] = ("random", "easy", "heuristic", "medium", "hard", "ismcts")
"""The agents from weakest to strongest (``ismcts`` is the search with its own
budget: as strong as ``hard`` by default, stronger with a larger one)."""


def agent_names(game_name: str | None = None) -> list[str]:
    """Agent names available (for one game, if given).

    >>> agent_names("rank")
    ['easy', 'hard', 'heuristic', 'ismcts', 'medium', 'random']
    """
    names = list(_AGENTS)
    if game_name is None or game_name in games_with(HEURISTIC):
        names.append(HEURISTIC)
    return sorted(names)


def agents_by_strength(game_name: str | None = None) -> list[str]:
    """:func:`agent_names` from the weakest to the strongest (:data:`STRENGTH_ORDER`;
    any agent it does not rank comes last).

    >>> agents_by_strength("lost-cities")
    ['random', 'easy', 'heuristic', 'medium', 'hard', 'ismcts']
    """
    rank = {name: i for i, name in enumerate(STRENGTH_ORDER)}
    return sorted(agent_names(game_name), key=lambda n: (rank.get(n, len(rank)), n))


def parse_agent_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``"name:key=value:…"`` into the name and its options (values typed:
    booleans, ``none``, ints, floats, else strings)."""
    name, *parts = [p.strip() for p in spec.strip().split(":")]
    if not name:
        raise ValueError(f"agent spec {spec!r} has no agent name")
    options: dict[str, Any] = {}
    for part in parts:
        key, eq, raw = part.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"agent option {part!r} of {spec!r} is not key=value")
        options[key.strip()] = _typed(raw.strip())
    return name, options


def _typed(raw: str) -> Any:
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


def check_agent_spec(spec: str, game: Game) -> str:
    """``spec`` if it names an agent of ``game`` with well-formed options, else a
    ``ValueError`` saying what is allowed.  (Option *names* are checked by
    building the agent.)"""
    name, _ = parse_agent_spec(spec)
    if name not in agent_names(game.name):
        raise ValueError(f"unknown agent {name!r} for {game.name}; choose from: {', '.join(agent_names(game.name))}")
    return spec


def make_agent(spec: str, game: Game, *, seed: int = 0, **options: Any) -> Agent:
    """A seeded agent for ``game`` from a spec such as ``"hard"`` or
    ``"ismcts:iterations=500"``; keyword ``options`` override the spec's."""
    check_agent_spec(spec, game)
    name, given = parse_agent_spec(spec)
    cls = _agent_class(name, game.name)
    try:
        return cls(game, seed=seed, **{**given, **options})
    except TypeError as err:  # an option the agent does not take
        raise ValueError(f"agent {spec!r}: {err}") from None


def _agent_class(name: str, game_name: str) -> type[Agent]:
    """The class of agent ``name`` (checked by :func:`check_agent_spec`) for ``game_name``."""
    if name == HEURISTIC:
        heuristic = heuristic_class(game_name)
        if heuristic is None:
            raise ValueError(f"game {game_name!r} has no heuristic agent")
        return heuristic
    module, _, attr = _AGENTS[name].partition(":")
    cls: type[Agent] = getattr(importlib.import_module(module), attr)
    return cls


__all__ = ["Agent", "Observation", "RandomAgent", "agent_names", "check_agent_spec", "make_agent", "parse_agent_spec"]
