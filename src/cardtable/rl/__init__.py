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

from typing import Any

from cardtable.protocol import Game
from cardtable.registry import load_game
from cardtable.rl.encoding import INFORMATION_STATE, OBSERVATION, Encoder, Layout, Segment

VARIANTS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("lost-cities", {}),
    ("lost-cities", {"colors": 6}),
    ("lost-cities", {"rounds": 1}),
    ("lost-ranks", {"players": 4}),
    ("lost-ranks", {"players": 4, "force_strength": True, "longer_game": True}),
    ("lost-ranks", {"players": 2}),
    ("lost-ranks", {"players": 2, "force_strength": True, "longer_game": True}),
    *(("rank", {"players": n}) for n in range(2, 11)),
)
"""Every game with each option that changes shapes or rules (for tests and docs)."""


def encoder_for(game: Game | str, **options: Any) -> Encoder:
    """The tensor encoder of a game (a :class:`Game` or a registry name plus options)."""
    if isinstance(game, str):
        game = load_game(game, **options)
    elif options:
        raise ValueError("options are only taken with a game name")
    if game.name == "lost-cities":
        from cardtable.games.lost_cities import LostCities
        from cardtable.rl.lost_cities import LostCitiesEncoder

        assert isinstance(game, LostCities)
        return LostCitiesEncoder(game)
    if game.name == "rank":
        from cardtable.games.rank import Rank
        from cardtable.rl.rank import RankEncoder

        assert isinstance(game, Rank)
        return RankEncoder(game)
    if game.name == "lost-ranks":
        from cardtable.games.lost_ranks import LostRanks
        from cardtable.rl.lost_ranks import LostRanksEncoder

        assert isinstance(game, LostRanks)
        return LostRanksEncoder(game)
    raise ValueError(f"no tensor encoding for game {game.name!r}")


__all__ = ["INFORMATION_STATE", "OBSERVATION", "VARIANTS", "Encoder", "Layout", "Segment", "encoder_for"]
