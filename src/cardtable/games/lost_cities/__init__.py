"""Lost Cities: the engine (:mod:`.rules`) and the game's parts, one module per role.

Importing the package loads only the engine (the standard library and cardtable's core);
the parts are loaded by name through :func:`cardtable.registry.game_part`:
``heuristic`` (the rule-based player), ``knowledge`` (the search's knowledge),
``terminal`` (the console's renderer), ``tensor`` (the RL encoder), ``measures`` (the lab's
per-game measures), ``pictures`` (the rule texts' card notation), ``kernel`` (the numba play-out kernel).
"""

from __future__ import annotations

from cardtable.games.lost_cities.rules import (
    card_set,
    card_set_size,
    CardDrawn,
    CardPlayed,
    DRAW,
    expedition_score,
    first_starter,
    HAND_SIZE,
    INFO,
    LostCities,
    LostCitiesConfig,
    LostCitiesState,
    MatchEnded,
    PLAY,
    REFUSALS,
    RoundEnded,
    RoundStarted,
    score_cards,
    STALL_LIMIT,
)

__all__ = [
    "card_set", "card_set_size", "CardDrawn", "CardPlayed", "DRAW", "expedition_score", "first_starter",
    "HAND_SIZE", "INFO", "LostCities", "LostCitiesConfig", "LostCitiesState", "MatchEnded",
    "PLAY", "REFUSALS", "RoundEnded", "RoundStarted", "score_cards", "STALL_LIMIT",
]

