"""cardtable: Lost Cities, Lost Ranks and Ранг — play, study and research."""

from cardtable.protocol import TERMINAL, Event, Game, IllegalAction, State
from cardtable.registry import game_names, load_game

__all__ = ["TERMINAL", "Event", "Game", "IllegalAction", "State", "game_names", "load_game"]
__version__ = "0.1.0"
