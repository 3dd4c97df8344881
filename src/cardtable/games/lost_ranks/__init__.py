"""Lost Ranks: the engine (:mod:`.rules`) and the game's parts, one module per role.

Importing the package loads only the engine (the standard library and cardtable's core);
the parts are loaded by name through :func:`cardtable.registry.game_part`:
``heuristic`` (the rule-based player), ``knowledge`` (the search's knowledge),
``terminal`` (the console's renderer), ``tensor`` (the RL encoder), ``measures`` (the lab's
per-game measures), ``pictures`` (the rule texts' card notation).
"""

from __future__ import annotations

from cardtable.games.lost_ranks.rules import (
    TRICK_KEY_TABLE,
    FORCE_BONUS,
    JACK_POINTS,
    PHANTOM_SIZE,
    ROUND_CAP,
    SPY_POINTS,
    TARGET,
    TWO_PLAYER_ROUNDS,
    ACE_DIAMONDS,
    ACE_HEARTS,
    ALL_CARDS,
    ARMY_NAMES,
    BLACK,
    CARD_RANK,
    CARD_SUIT,
    CardFaceUp,
    CardPlayed,
    COLOUR_JACKS,
    constrained_deal,
    count_deals,
    DRAW,
    DRAW_BIT,
    HAND,
    INFO,
    JACK_BITS,
    JACKS,
    LostRanks,
    LostRanksConfig,
    LostRanksState,
    make_deck,
    MatchEnded,
    NoWinnerTrick,
    NUM_CARDS,
    PHANTOM,
    PHANTOM_BASE,
    PhantomDrawn,
    pretty,
    RED,
    REFUSALS,
    RoundEnded,
    RoundStarted,
    SOLDIERS,
    SOURCE_NAMES,
    SPY,
    SPY_BIT,
    SUIT_COLOUR,
    SUIT_MASKS,
    TrickWon,
    VOID_MASKS,
)

__all__ = [
    "TRICK_KEY_TABLE",
    "FORCE_BONUS", "JACK_POINTS", "PHANTOM_SIZE", "ROUND_CAP", "SPY_POINTS", "TARGET", "TWO_PLAYER_ROUNDS",
    "ACE_DIAMONDS", "ACE_HEARTS", "ALL_CARDS", "ARMY_NAMES", "BLACK", "CARD_RANK", "CARD_SUIT",
    "CardFaceUp", "CardPlayed", "COLOUR_JACKS", "constrained_deal", "count_deals", "DRAW",
    "DRAW_BIT", "HAND", "INFO", "JACK_BITS", "JACKS", "LostRanks", "LostRanksConfig",
    "LostRanksState", "make_deck", "MatchEnded", "NoWinnerTrick", "NUM_CARDS", "PHANTOM",
    "PHANTOM_BASE", "PhantomDrawn", "pretty", "RED", "REFUSALS", "RoundEnded", "RoundStarted",
    "SOLDIERS", "SOURCE_NAMES", "SPY", "SPY_BIT", "SUIT_COLOUR", "SUIT_MASKS", "TrickWon",
    "VOID_MASKS",
]

