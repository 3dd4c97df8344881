"""Games and their parts by name: the one table of the games.

Each game is one package, ``cardtable.games.<module>``, whose modules are the game's
parts by role (:data:`ROLES`): ``rules`` (the engine), ``heuristic``, ``knowledge``,
``terminal``, ``tensor``, ``measures``, ``pictures`` and, where the game has one,
``kernel``.  Front ends ask for a part here and hold no per-game branches.

>>> from cardtable.registry import load_game, game_names
>>> game_names()
['lost-cities', 'lost-ranks', 'rank']
>>> load_game("lost-cities", colors=6).config.colors
6
>>> load_game("lost-ranks", players=3)
Traceback (most recent call last):
...
ValueError: bad option for lost-ranks: players must be 2 or 4 (LR-3), not 3
>>> game_part("rank", "terminal").__name__
'cardtable.games.rank.terminal'
>>> game_part("rank", "sound")
Traceback (most recent call last):
...
ValueError: unknown game part 'sound'; the parts are: rules, heuristic, knowledge, terminal, tensor, measures, pictures, kernel
"""

from __future__ import annotations

import importlib
from importlib import resources
from importlib.resources.abc import Traversable
import importlib.util
from types import ModuleType
from typing import TYPE_CHECKING, Any, Final

from cardtable.description import GameInfo
from cardtable.protocol import Game

if TYPE_CHECKING:
    from cardtable.agents.base import Agent
    from cardtable.agents.knowledge import Knowledge
    from cardtable.rl.encoding import Encoder

_GAMES: Final[dict[str, tuple[str, str]]] = {
    "lost-cities": ("cardtable.games.lost_cities", "LostCities"),
    "lost-ranks": ("cardtable.games.lost_ranks", "LostRanks"),
    "rank": ("cardtable.games.rank", "Rank"),
}
"""Game name → (its package, its :class:`Game` class in the package's ``rules``)."""

DEFAULT_GAME: Final = "lost-cities"
"""The game a front end starts with when none is named."""

ROLES: Final = ("rules", "heuristic", "knowledge", "terminal", "tensor", "measures", "pictures", "kernel")
"""The parts a game package may have, one module each (a game without a part has no module)."""

_CLASS_SUFFIX: Final = {"heuristic": "Heuristic", "knowledge": "Knowledge", "tensor": "Encoder"}
"""The class a role module defines: the game class's name plus this (``RankHeuristic``)."""


def game_names() -> list[str]:
    """Registered game names, sorted."""
    return sorted(_GAMES)


def _entry(name: str) -> tuple[str, str]:
    try:
        return _GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; known games: {', '.join(game_names())}") from None


def game_class(name: str) -> type[Game]:
    """The :class:`Game` subclass registered as ``name``."""
    package, attr = _entry(name)
    cls: type[Game] = getattr(importlib.import_module(package + ".rules"), attr)
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


def game_part(name: str, role: str) -> ModuleType | None:
    """The module of game ``name``'s part ``role`` (one of :data:`ROLES`), or ``None``
    when the game has no such part.  An unknown game or role is a ``ValueError``; a part
    whose own imports are missing (numba for a kernel) raises their ``ImportError``."""
    if role not in ROLES:
        raise ValueError(f"unknown game part {role!r}; the parts are: {', '.join(ROLES)}")
    module = f"{_entry(name)[0]}.{role}"
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as err:
        if err.name == module:
            return None
        raise


def game_file(name: str, filename: str) -> Traversable:
    """A data file kept in game ``name``'s package (its tutorial, …); it may not exist."""
    return resources.files(_entry(name)[0]).joinpath(filename)


def games_with(role: str) -> list[str]:
    """The games that have part ``role``, sorted.

    >>> games_with("kernel")
    ['lost-cities', 'lost-ranks', 'rank']
    """
    if role not in ROLES:
        raise ValueError(f"unknown game part {role!r}; the parts are: {', '.join(ROLES)}")
    return [name for name in game_names() if importlib.util.find_spec(f"{_entry(name)[0]}.{role}") is not None]


def _part_class(name: str, role: str) -> type[Any] | None:
    module = game_part(name, role)
    if module is None:
        return None
    cls: type[Any] = getattr(module, _entry(name)[1] + _CLASS_SUFFIX[role])
    return cls


def heuristic_class(name: str) -> type[Agent] | None:
    """The rule-based player of game ``name`` (``None`` if it has none)."""
    return _part_class(name, "heuristic")


def knowledge_class(name: str) -> type[Knowledge] | None:
    """The search knowledge of game ``name`` (``None``: the generic :class:`Knowledge`)."""
    return _part_class(name, "knowledge")


def encoder_class(name: str) -> type[Encoder] | None:
    """The tensor encoder of game ``name`` (``None`` if it has none)."""
    return _part_class(name, "tensor")


def terminal_renderer(name: str) -> ModuleType:
    """The terminal renderer module of game ``name`` (``render``, ``describe``, ``KEYS``)."""
    module = game_part(name, "terminal")
    if module is None:
        raise ValueError(f"game {name!r} has no terminal renderer")
    return module


def kernel_for(name: str) -> ModuleType | None:
    """The compiled play-out kernel module of game ``name`` (``None`` if it has none;
    an ``ImportError`` if it has one but numba is not installed)."""
    return game_part(name, "kernel")

