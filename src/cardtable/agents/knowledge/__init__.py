"""Per-game knowledge for the search agents (:mod:`cardtable.agents.search`).

The search itself is game-agnostic: it samples worlds from an
:class:`~cardtable.agents.base.Observation` and plays them out.  What a game
adds lives in one small module per game, behind the :class:`Knowledge` interface:

* :meth:`Knowledge.cutoff` — where a play-out stops (Lost Cities and Lost Ranks:
  the end of the current round, so a search never plays out a whole match);
* :meth:`Knowledge.evaluate` — per-seat values in ``[-1, 1]`` of a *determinized*
  state at the cut-off: the match situation turned into a win probability
  (``2 p - 1``), normalised so that Lost Cities' large score scale and Lost
  Ranks' small one look alike to the search;
* :meth:`Knowledge.rollout_action` — a fast play-out policy acting directly on a
  determinized (sampled) state: legitimate, since a sampled world holds nothing
  the searching seat may not know, and much cheaper than building a JSON view
  for the heuristic bots;
* :meth:`Knowledge.prior` — an optional suggested move at the root, computed
  from the real :class:`Observation` only (the game's heuristic bot);
* optionally ``kernel_values(world, root_round, me, seed)`` (Lost Ranks, Ранг) or
  ``kernel_playout(world, root_round, me)`` (Lost Cities) — the same play-out policy in
  the game's compiled kernel, ``None`` where the kernel does not play the game's rules;
  and ``kernel_playouts(world, actions, root_round, me)`` (Lost Cities) — the flat
  search's play-outs of every root move of one world in one kernel call.

Which cards each seat can still hold is the game's own ``State.resample`` (LC-8
known cards, LR-20 voids, RG-9): the search never reads the true state.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cardtable.protocol import Game, State

if TYPE_CHECKING:  # pragma: no cover
    from cardtable.agents.base import Agent, Observation


class Knowledge:
    """Defaults: play-outs to the end of the match with random moves, values = returns."""

    game: Game
    mode: str = "ismcts"
    """The search the agents run for this game: ``"ismcts"`` or ``"pimc"``."""
    exploration: float = 0.7
    """UCB1 constant of the tree search for this game (values in ``[-1, 1]``)."""
    world_pool: int | None = None
    """Reuse at most this many sampled worlds per search (``None``: a fresh one each
    iteration); set where the game's sampler costs more than a play-out."""
    leaf_policies: tuple[str, ...] = ("rollout",)
    """Who can play the play-outs in this game: ``"rollout"`` (:meth:`rollout_action`, the
    fast play-out policy) and, where the game offers it, ``"heuristic"`` (the heuristic bot
    itself, compiled in the kernel)."""
    leaf_policy: str = "rollout"
    """The one of :attr:`leaf_policies` the search plays (the search's option ``leaf``
    picks another: :meth:`with_leaf_policy`)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._prior_agent: Agent | None = None

    def with_leaf_policy(self, name: str) -> Knowledge:
        """This knowledge with ``name`` playing the play-outs (itself if it already does;
        else a twin, made once, that shares everything else)."""
        twins: dict[str, Knowledge] = self.__dict__.setdefault("_twins", {self.leaf_policy: self})
        got = twins.get(name)
        if got is None:
            if name not in self.leaf_policies:
                raise ValueError(f"{self.game.name} play-outs can be played by {' or '.join(map(repr, self.leaf_policies))}, "
                                 f"not {name!r}")
            got = twins[name] = copy.copy(self)
            got.leaf_policy = name
        return got

    @property
    def kernel(self) -> Any:
        """The game's compiled kernel module (:func:`cardtable.registry.kernel_for`) where it
        plays this game as configured — the extra ``fast`` installed, the published rules
        (:func:`cardtable.kernels.check`) — else ``None``; looked up once."""
        if "_kernel_module" not in self.__dict__:
            self.__dict__["_kernel_module"] = _kernel_playing(self.game)
        return self.__dict__["_kernel_module"]

    # --- worlds -----------------------------------------------------------------
    def sample_world(self, obs: Observation, rng: random.Random) -> State:
        """A world consistent with ``obs``: the game's ``resample`` (through
        ``obs.sample_state``), refined where the game knows more than its sampler."""
        return obs.sample_state(rng)

    @staticmethod
    def draw_by_weight(worlds: list[State], weights: list[float], rng: random.Random) -> State:
        """One of ``worlds`` drawn with chance proportional to its weight (sampling-importance
        resampling: the worlds come from ``resample``, the weights say how well each explains
        the others' play; all weights 0 draws uniformly)."""
        total = sum(weights)
        if total <= 0:
            return worlds[int(rng.random() * len(worlds))]
        r = rng.random() * total
        for world, weight in zip(worlds, weights):
            r -= weight
            if r < 0:
                return world
        return worlds[-1]

    # --- play-outs -------------------------------------------------------------
    def round_of(self, state: State) -> int:
        """Index of the round ``state`` is in (0 for single-round games)."""
        return 0

    def cutoff(self, state: State, root_round: int) -> bool:
        """Stop the play-out here (always at the end of the match)."""
        return state.is_terminal()

    def evaluate(self, state: State) -> list[float]:
        """Per-seat values in ``[-1, 1]`` of a state at a cut-off."""
        return [max(-1.0, min(1.0, r)) for r in state.returns()]

    def rollout_action(self, state: State, rng: random.Random) -> int:
        """A play-out move of the seat to move in a determinized state."""
        legal = state.legal_actions()
        return legal[int(rng.random() * len(legal))]

    def rollout_for(self, me: int) -> Callable[[State, random.Random], int]:
        """The play-out policy of a search by seat ``me`` (default
        :meth:`rollout_action` for every seat; a game may play the searcher's own
        moves differently from its model of the others)."""
        return self.rollout_action

    # --- root advice -------------------------------------------------------------
    def prior(self, obs: Observation, seed: int) -> int | None:
        """The heuristic bot's move for ``obs`` (``None`` if the game has none)."""
        agent = self._heuristic(seed)
        if agent is None or len(obs.legal_actions) < 2:
            return None
        agent.rng.seed(seed)
        return agent.act(obs)

    def _heuristic(self, seed: int) -> Agent | None:
        if self._prior_agent is None:
            from cardtable.agents import make_agent

            try:
                self._prior_agent = make_agent("heuristic", self.game, seed=seed)
            except ValueError:
                return None
        return self._prior_agent

    def worth_searching(self, obs: Observation) -> bool:
        """Whether a search can improve on the heuristic's move here (else the agent
        plays that move at once)."""
        return True

    def keep_confidence(self, obs: Observation) -> float:
        """How many standard errors the better-looking move must lead the heuristic's
        move by (on top of :meth:`keep_margin`) before it replaces it."""
        return 0.0

    def keep_margin(self, obs: Observation, default: float) -> float:
        """How much better than the heuristic's move another must look to be played
        (where the play-outs are a poor model of the game, a larger margin)."""
        return default

    def value_label(self) -> str:
        """What a value means to a human (for hints)."""
        return "win"


_CACHE: dict[tuple[str, str], Knowledge] = {}


def knowledge_for(game: Game) -> Knowledge:
    """The knowledge of ``game`` (one shared instance per configuration): the game's
    ``knowledge`` part (:func:`cardtable.registry.knowledge_class`), else the generic one."""
    from cardtable.registry import knowledge_class

    key = (game.name, repr(game.config))
    got = _CACHE.get(key)
    if got is None:
        cls = knowledge_class(game.name) or Knowledge
        got = cls(game)
        _CACHE[key] = got
    return got


__all__ = ["Knowledge", "knowledge_for"]


def _kernel_playing(game: Game) -> Any:
    """The kernel module of ``game`` if it plays the game's rules as configured, else ``None``."""
    from cardtable.kernels import available, check
    from cardtable.registry import kernel_for

    if not available():
        return None
    try:
        check(game, ("random",) * game.num_players)
    except ValueError:
        return None
    return kernel_for(game.name)
