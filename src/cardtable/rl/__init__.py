"""Research interfaces: tensors, PettingZoo, Gymnasium and OpenSpiel adapters.

Needs the optional extra: ``pip install cardtable[rl]`` (numpy, pettingzoo, gymnasium,
open_spiel).  The core package stays standard-library; only ``cardtable.rl`` imports
these.

* :func:`encoder_for` — observation / information-state tensors and action masks built
  from one seat's view (:mod:`cardtable.rl.encoding`);
* :mod:`cardtable.rl.pettingzoo` — ``env("lost-ranks", players=4)``, an AEC environment;
* :mod:`cardtable.rl.gymnasium` — ``CardtableEnv("lost-cities", opponents="heuristic")``,
  one learner seat against cardtable agents;
* :mod:`cardtable.rl.openspiel` — every game as an OpenSpiel Python game
  (``pyspiel.load_game("python_cardtable_lost_cities(rounds=1)")`` after importing it).

See ``docs/rl.md`` for the tensor layouts and design notes.

>>> from cardtable.registry import load_game
>>> enc = encoder_for(load_game("lost-cities"))
>>> enc.observation_shape, enc.information_state_shape
((454,), (1618,))
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from cardtable.description import GameInfo, OptionInfo
from cardtable.protocol import Game
from cardtable.registry import encoder_class, game_info, game_names, load_game
from cardtable.rl.encoding import INFORMATION_STATE, OBSERVATION, Encoder, Layout, Segment

def _values(option: OptionInfo) -> list[Any]:
    """The values of an option worth covering, its default first (a range that is open,
    or wide enough to list ``offered`` values in forms: its minimum)."""
    if option.type is bool:
        values: Sequence[Any] = (False, True)
    elif option.choices is not None:
        values = option.choices
    else:
        low = option.minimum if option.minimum is not None else option.default
        closed = option.maximum is not None and not option.offered
        values = range(low, (option.maximum if closed and option.maximum is not None else low) + 1)
    return [option.default, *(v for v in values if v != option.default)]


def _variants(info: GameInfo) -> list[dict[str, Any]]:
    """Every combination of the options' values, as the options that differ from the defaults."""
    return [{o.name: v for o, v in zip(info.options, combo) if v != o.default}
            for combo in itertools.product(*map(_values, info.options))]


VARIANTS: tuple[tuple[str, dict[str, Any]], ...] = tuple(
    (name, options) for name in game_names() for options in _variants(game_info(name)))
"""Every game with each combination of its options' values (an open range: its default
and its minimum), from the descriptions (for tests and docs)."""


def encoder_for(game: Game | str, **options: Any) -> Encoder:
    """The tensor encoder of a game (a :class:`Game` or a registry name plus options).

    A game is encoded by its ``tensor`` part (:func:`cardtable.registry.encoder_class`).
    """
    if isinstance(game, str):
        game = load_game(game, **options)
    elif options:
        raise ValueError("options are only taken with a game name")
    encoder = encoder_class(game.name)
    if encoder is None:
        raise ValueError(f"no tensor encoding for game {game.name!r}")
    built: Encoder = encoder(game)
    return built


__all__ = ["INFORMATION_STATE", "OBSERVATION", "VARIANTS", "Encoder", "Layout", "Segment", "encoder_for"]
