"""Agents by name: ``make_agent("heuristic", game, seed=1)``."""

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


def agent_names(game_name: str | None = None) -> list[str]:
    """Agent names available (for one game, if given)."""
    return sorted(n for n, per in _AGENTS.items() if game_name is None or "*" in per or game_name in per)


def make_agent(name: str, game: Game, *, seed: int = 0, **options: Any) -> Agent:
    """A seeded agent of kind ``name`` for ``game``."""
    per_game = _AGENTS.get(name)
    target = None if per_game is None else per_game.get(game.name, per_game.get("*"))
    if target is None:
        raise ValueError(f"unknown agent {name!r} for {game.name}; choose from: {', '.join(agent_names(game.name))}")
    module, _, attr = target.partition(":")
    cls: type[Agent] = getattr(importlib.import_module(module), attr)
    return cls(game, seed=seed, **options)


__all__ = ["Agent", "Observation", "RandomAgent", "agent_names", "make_agent"]
