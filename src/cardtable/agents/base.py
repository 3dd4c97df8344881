"""The agent interface: ``act(observation) -> action``.

An agent sees one seat's :class:`Observation` — the JSON view, the legal
action ids and a sampler of the hidden information — and never the true state.
"""

from __future__ import annotations

import numbers
import random
import types
import typing
from abc import ABC, abstractmethod
from dataclasses import dataclass, field, fields
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


_KIND_WORDS: dict[Any, str] = {bool: "true or false", int: "a whole number", float: "a number",
                               str: "a word", type(None): "none"}


def _fits(value: Any, kind: Any) -> bool:
    if kind is float:  # a whole number is a number too (numpy's as well), a boolean is not
        return isinstance(value, numbers.Real) and not isinstance(value, bool)
    if kind is int:
        return isinstance(value, numbers.Integral) and not isinstance(value, bool)
    origin = typing.get_origin(kind)
    if origin is tuple:
        item = typing.get_args(kind)[0]
        return isinstance(value, tuple) and all(_fits(v, item) for v in value)
    return isinstance(value, kind)


def check_option_types(options: Any) -> None:
    """A :class:`ValueError` naming the first field of the dataclass instance ``options``
    whose value is not of its annotated kind (an agent option typed ``cpu=maybe``, say),
    with the kinds it takes.

    >>> @dataclass
    ... class Budget:
    ...     seconds: float | None = None
    ...     cpu: bool = False
    ...     def __post_init__(self) -> None:
    ...         check_option_types(self)
    >>> Budget(seconds=2, cpu=True).seconds
    2
    >>> Budget(cpu="maybe")
    Traceback (most recent call last):
    ...
    ValueError: cpu must be true or false, not 'maybe'
    """
    hints = typing.get_type_hints(type(options))
    for f in fields(options):
        value, kind = getattr(options, f.name), hints[f.name]
        kinds = typing.get_args(kind) if typing.get_origin(kind) in (typing.Union, types.UnionType) else (kind,)
        if not any(_fits(value, k) for k in kinds):
            words = " or ".join(_KIND_WORDS.get(k, "a list of action ids") for k in kinds)
            raise ValueError(f"{f.name} must be {words}, not {value!r}")


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
