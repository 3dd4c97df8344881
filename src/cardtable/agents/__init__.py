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
from typing import Any

from cardtable.agents.base import Agent, Observation, RandomAgent
from cardtable.protocol import Game

# name -> game name (or "*" for every game) -> "module:Class"
_AGENTS: dict[str, dict[str, str]] = {
    "random": {"*": "cardtable.agents.base:RandomAgent"},
    "easy": {"*": "cardtable.agents.search:EasyAgent"},
    "medium": {"*": "cardtable.agents.search:MediumAgent"},
    "hard": {"*": "cardtable.agents.search:HardAgent"},
    "ismcts": {"*": "cardtable.agents.search:ISMCTSAgent"},
    "heuristic": {
        "lost-cities": "cardtable.agents.lost_cities:LostCitiesHeuristic",
        "lost-ranks": "cardtable.agents.lost_ranks:LostRanksHeuristic",
        "rank": "cardtable.agents.rank:RankHeuristic",
    },
}


STRENGTH_ORDER: tuple[str, ...] = ("random", "easy", "heuristic", "medium", "hard", "ismcts")
"""The agents from weakest to strongest (``ismcts`` is the search with its own
budget: as strong as ``hard`` by default, stronger with a larger one)."""


def agent_names(game_name: str | None = None) -> list[str]:
    """Agent names available (for one game, if given).

    >>> agent_names("rank")
    ['easy', 'hard', 'heuristic', 'ismcts', 'medium', 'random']
    """
    return sorted(n for n, per in _AGENTS.items() if game_name is None or "*" in per or game_name in per)


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
    per_game = _AGENTS.get(name)
    if per_game is None or (game.name not in per_game and "*" not in per_game):
        raise ValueError(f"unknown agent {name!r} for {game.name}; choose from: {', '.join(agent_names(game.name))}")
    return spec


def make_agent(spec: str, game: Game, *, seed: int = 0, **options: Any) -> Agent:
    """A seeded agent for ``game`` from a spec such as ``"hard"`` or
    ``"ismcts:iterations=500"``; keyword ``options`` override the spec's."""
    check_agent_spec(spec, game)
    name, given = parse_agent_spec(spec)
    per_game = _AGENTS[name]
    module, _, attr = per_game.get(game.name, per_game.get("*", "")).partition(":")
    cls: type[Agent] = getattr(importlib.import_module(module), attr)
    try:
        return cls(game, seed=seed, **{**given, **options})
    except TypeError as err:  # an option the agent does not take
        raise ValueError(f"agent {spec!r}: {err}") from None


__all__ = ["Agent", "Observation", "RandomAgent", "agent_names", "check_agent_spec", "make_agent", "parse_agent_spec"]
