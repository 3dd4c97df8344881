"""PettingZoo AEC environments for every cardtable game and variant.

>>> from cardtable.rl.pettingzoo import env
>>> e = env("lost-ranks", players=4)
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> sorted(obs), obs["observation"].shape, obs["action_mask"].shape
(['action_mask', 'observation'], (863,), (53,))

Agents are ``player_0 … player_{n-1}`` (seat order).  Each observation is a dict with
``observation`` (the seat's tensor from :mod:`cardtable.rl.encoding`, ``float32`` in
``[-1, 1]``) and ``action_mask`` (``int8`` over the game's fixed action space; all zero
when it is not the agent's turn).  ``observation_type="information_state"`` gives the
perfect-recall tensor instead.

The seat to move is always ``agent_selection``: a multi-step turn (Lost Cities' play then
draw, a Ранг chain of plays, Lost Ranks' draw-two then choose) selects the same agent
again.  Rewards are 0 until the match ends, then each seat's ``returns()`` (+1 win, −1
loss, 0 draw; Ранг: −1 for the loser, 0 for the others).  ``reset(seed=s)`` makes the
match deterministic; without a seed the environment's own generator continues.
An illegal action raises :class:`cardtable.protocol.IllegalAction`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv  # type: ignore[import-untyped,unused-ignore]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped,unused-ignore]

from cardtable.protocol import Game, IllegalAction, State
from cardtable.registry import DEFAULT_GAME, load_game
from cardtable.rl import encoder_for
from cardtable.rl.encoding import INFORMATION_STATE, KINDS, OBSERVATION, Encoder


class raw_env(AECEnv):  # type: ignore[misc]
    """The AEC environment without PettingZoo's safety wrappers (see :func:`env`)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "name": "cardtable_v0", "is_parallelizable": False}

    def __init__(self, game: str | Game = DEFAULT_GAME, *, observation_type: str = OBSERVATION,
                 render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        self.game: Game = load_game(game, **options) if isinstance(game, str) else game
        if observation_type not in KINDS:
            raise ValueError(f"observation_type must be one of {KINDS}, not {observation_type!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None")
        self.observation_type = observation_type
        self.render_mode = render_mode
        self.encoder: Encoder = encoder_for(self.game)
        self.metadata = {**self.metadata, "name": f"cardtable_{self.game.name.replace('-', '_')}_v0"}
        n = self.game.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agents = self.possible_agents[:]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        shape = self.encoder.layout(observation_type).shape
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(low=-1.0, high=1.0, shape=shape, dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(self.game.num_distinct_actions,), dtype=np.int8),
            })
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self.game.num_distinct_actions) for a in self.possible_agents}
        self._np_random: np.random.Generator | None = None
        self.state: State | None = None
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = self.possible_agents[0]

    # --- spaces ---------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # --- episode ----------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        match_seed = int(self._np_random.integers(0, 2**63 - 1))
        self.state = self.game.new_state(seed=match_seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.state.current_player()]

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        state = self._require_state()
        seat = self._seat[agent]
        view = state.view(seat)
        return {
            "observation": self.encoder.encode(view, self.observation_type),
            "action_mask": self.encoder.action_mask(state, seat),
        }

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self._require_state()
        if action is None:
            raise IllegalAction(f"{agent} must act: None is only for finished agents")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        state.apply_action(int(action))
        if state.is_terminal():
            returns = state.returns()
            for a in self.agents:
                self.rewards[a] = float(returns[self._seat[a]])
                self.terminations[a] = True
        else:
            self.agent_selection = self.possible_agents[state.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        state = self._require_state()
        text = f"{self.game.title}: {len(state.history)} actions\n{state}"
        if state.is_terminal():
            text += f"\nresult: {state.result()}"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    def _require_state(self) -> State:
        if self.state is None:
            raise RuntimeError("call reset() before using the environment")
        return self.state


def env(game: str | Game = DEFAULT_GAME, *, observation_type: str = OBSERVATION,
        render_mode: str | None = None, **options: Any) -> AECEnv:
    """An AEC environment for ``game`` with variant ``options`` (``players=4`` …),
    wrapped in PettingZoo's out-of-bounds and order-enforcing wrappers."""
    e = raw_env(game, observation_type=observation_type, render_mode=render_mode, **options)
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(e))


__all__ = ["INFORMATION_STATE", "OBSERVATION", "env", "raw_env"]
