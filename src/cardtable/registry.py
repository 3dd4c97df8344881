"""Games and agents by name.

>>> from cardtable.registry import load_game, game_names
>>> game_names()
['lost-cities', 'lost-ranks', 'rank']
>>> load_game("lost-cities", colors=6).config.colors
6
>>> load_game("lost-ranks", players=3)
Traceback (most recent call last):
...
ValueError: bad option for lost-ranks: players must be 2 or 4 (LR-3), not 3
"""

from __future__ import annotations

import importlib
from typing import Any

from cardtable.description import GameInfo
from cardtable.protocol import Game

_GAMES: dict[str, str] = {
    "lost-cities": "cardtable.games.lost_cities:LostCities",
    "lost-ranks": "cardtable.games.lost_ranks:LostRanks",
    "rank": "cardtable.games.rank:Rank",
}


def game_names() -> list[str]:
    """Registered game names, sorted."""
    return sorted(_GAMES)


def game_class(name: str) -> type[Game]:
    """The :class:`Game` subclass registered as ``name``."""
    try:
        target = _GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; known games: {', '.join(game_names())}") from None
    module, _, attr = target.partition(":")
    cls: type[Game] = getattr(importlib.import_module(module), attr)
    return cls


def game_info(name: str) -> GameInfo:
    """The description of game ``name`` (its options, players, titles …)."""
    return game_class(name).info


def load_game(name: str, **options: Any) -> Game:
    """A configured game: ``load_game("lost-ranks", players=2)``.

    Options are checked against the game's description: an unknown option or a value it
    does not allow raises ``ValueError`` naming the option and what is allowed.
    """
    cls = game_class(name)
    try:
        cls.info.check(options)
    except ValueError as err:
        raise ValueError(f"bad option for {name}: {err}") from None
    return cls(**options)
