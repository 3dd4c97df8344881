"""Ранг: the engine (:mod:`.rules`) and the game's parts, one module per role.

Importing the package loads only the engine (the standard library and cardtable's core);
the parts are loaded by name through :func:`cardtable.registry.game_part`:
``heuristic`` (the rule-based player), ``knowledge`` (the search's knowledge),
``terminal`` (the console's renderer), ``tensor`` (the RL encoder), ``measures`` (the lab's
per-game measures), ``pictures`` (the rule texts' card notation).
"""

from __future__ import annotations

from cardtable.games.rank.rules import (
    ANSWERS_TABLE,
    PULL_BACK_DRAWS,
    ACTION_NAMES,
    ALL_KINDS,
    AntiRankDeclared,
    AntiRankOver,
    CardDrawn,
    CardPlayed,
    constrained_deal,
    constraints_of_view,
    DRAW,
    HAND_SIZE,
    HandConstraints,
    INFO,
    MatchEnded,
    NUM_ACTIONS,
    NUM_KINDS,
    pack_counts,
    PASS,
    Passed,
    playable,
    PlayerOut,
    PullBack,
    Rank,
    RankConfig,
    RankState,
    REFUSALS,
)

__all__ = [
    "ANSWERS_TABLE",
    "PULL_BACK_DRAWS",
    "ACTION_NAMES", "ALL_KINDS", "AntiRankDeclared", "AntiRankOver", "CardDrawn", "CardPlayed",
    "constrained_deal", "constraints_of_view", "DRAW", "HAND_SIZE", "HandConstraints", "INFO",
    "MatchEnded", "NUM_ACTIONS", "NUM_KINDS", "pack_counts", "PASS", "Passed", "playable",
    "PlayerOut", "PullBack", "Rank", "RankConfig", "RankState", "REFUSALS",
]

