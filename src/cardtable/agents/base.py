"""The agent interface: ``act(observation) -> action``.

An agent sees one seat's :class:`Observation` — the JSON view, the legal
action ids and a sampler of the hidden information — and never the true state.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar

from cardtable.protocol import JSON, Game, State


@dataclass(frozen=True)
class Observation:
    """What the seat to move knows, handed to :meth:`Agent.act`."""

    game: Game
    player: int
    view: dict[str, JSON]
    legal_actions: tuple[int, ...]
    _state: State = field(repr=False, compare=False)

    @classmethod
    def of(cls, state: State, player: int | None = None) -> Observation:
        """The observation of ``player`` (default: the seat to move)."""
        seat = state.current_player() if player is None else player
        legal = tuple(state.legal_actions()) if seat == state.current_player() else ()
        return cls(state.game, seat, state.view(seat), legal, state)

    def sample_state(self, rng: random.Random) -> State:
        """A full state consistent with this view, hidden cards drawn at random."""
        return self._state.resample(self.player, rng)

    def action_to_string(self, action: int) -> str:
        return self._state.action_to_string(action)


class Agent(ABC):
    """Base class of agents.  ``name`` is the registry name; agents are seeded."""

    name: ClassVar[str] = "agent"

    def __init__(self, game: Game, *, seed: int = 0, **options: Any) -> None:
        self.game = game
        self.rng = random.Random(seed)
        if options:
            raise ValueError(f"agent {self.name!r} takes no options {sorted(options)}")

    @abstractmethod
    def act(self, obs: Observation) -> int:
        """Choose one of ``obs.legal_actions``."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class RandomAgent(Agent):
    """Uniformly random legal actions."""

    name = "random"

    def act(self, obs: Observation) -> int:
        return self.rng.choice(obs.legal_actions)
