"""Gymnasium single-agent environments: the learner takes one seat, cardtable agents the rest.

>>> from cardtable.rl.gymnasium import CardtableEnv
>>> e = CardtableEnv("lost-cities", rounds=1, opponents="random")
>>> obs, info = e.reset(seed=0)
>>> obs.shape, info["action_mask"].shape, int(info["action_mask"].sum()) > 0
((452,), (106,), True)

The observation is the learner seat's tensor (:mod:`cardtable.rl.encoding`; ``float32`` in
``[-1, 1]``); ``observation_type="information_state"`` gives the perfect-recall tensor.
The action space is the game's fixed ``Discrete(num_distinct_actions)``; the legal-action
mask is ``info["action_mask"]`` and :meth:`CardtableEnv.action_masks` (the method
sb3-contrib's ``MaskablePPO`` calls).

Every other seat is played by a cardtable agent chosen by name (``"random"``,
``"heuristic"``, ``"easy"`` … — :func:`cardtable.agents.agent_names`), one name for all or
a list per other seat in seat order.  ``seat=None`` draws the learner's seat per episode.
A step applies the learner's action, then lets the agents play until the learner must act
again (a multi-step turn simply asks the learner again) or the match ends.  The reward is
0 until the end, then the learner's ``returns()`` (+1 win, −1 loss, 0 draw; Ранг: −1 for
the loser).  An illegal action ends the episode with reward −1 and
``info["illegal_action"] = True`` (``illegal_action="raise"`` raises instead).  If the
match ends before the learner's first move (possible in Ранг), ``reset`` deals again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from cardtable.agents import Agent, Observation, make_agent
from cardtable.protocol import Game, IllegalAction, State
from cardtable.registry import DEFAULT_GAME, load_game
from cardtable.rl import encoder_for
from cardtable.rl.encoding import KINDS, OBSERVATION, Encoder, FloatArray, MaskArray

_REDEALS = 100


class CardtableEnv(gym.Env[FloatArray, np.int64]):
    """One learner seat of a cardtable game against cardtable agents."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}

    def __init__(self, game: str | Game = DEFAULT_GAME, *, seat: int | None = 0,
                 opponents: str | Sequence[str] = "random", observation_type: str = OBSERVATION,
                 illegal_action: str = "lose", render_mode: str | None = None, **options: Any) -> None:
        self.game: Game = load_game(game, **options) if isinstance(game, str) else game
        n = self.game.num_players
        if seat is not None and not 0 <= seat < n:
            raise ValueError(f"seat must be 0..{n - 1} or None (random), not {seat!r}")
        if observation_type not in KINDS:
            raise ValueError(f"observation_type must be one of {KINDS}, not {observation_type!r}")
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action must be 'lose' or 'raise', not {illegal_action!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None")
        names = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != n - 1:
            raise ValueError(f"give one opponent name or {n - 1} names (one per other seat), not {len(names)}")
        for name in names:  # fail early on unknown names
            make_agent(name, self.game, seed=0)
        self.opponent_names = names
        self.fixed_seat = seat
        self.observation_type = observation_type
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.encoder: Encoder = encoder_for(self.game)
        shape = self.encoder.layout(observation_type).shape
        self.observation_space = spaces.Box(low=-1.0, high=1.0, shape=shape, dtype=np.float32)
        self.action_space = spaces.Discrete(self.game.num_distinct_actions)
        self.seat = 0 if seat is None else seat
        self.state: State | None = None
        self.agents: dict[int, Agent] = {}
        self._done = False

    # --- episode ----------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[FloatArray, dict[str, Any]]:
        super().reset(seed=seed)
        self._done = False
        rng = self.np_random
        for _ in range(_REDEALS):
            n = self.game.num_players
            self.seat = int(rng.integers(n)) if self.fixed_seat is None else self.fixed_seat
            others = [s for s in range(n) if s != self.seat]
            self.agents = {
                s: make_agent(name, self.game, seed=int(rng.integers(0, 2**31 - 1)))
                for s, name in zip(others, self.opponent_names)
            }
            self.state = self.game.new_state(seed=int(rng.integers(0, 2**63 - 1)))
            self._advance()
            if not self.state.is_terminal():
                break
        else:  # pragma: no cover - needs 100 matches in a row over before the learner moves
            raise RuntimeError("the learner never got a move")
        return self._obs(), self._info()

    def step(self, action: np.int64 | int) -> tuple[FloatArray, SupportsFloat, bool, bool, dict[str, Any]]:
        state = self._require_state()
        if self._done or state.is_terminal():
            raise RuntimeError("the episode is over: call reset()")
        a = int(action)
        reason = state.why_illegal(a)
        if reason is not None:
            if self.illegal_action == "raise":
                raise IllegalAction(reason)
            info = self._info()
            info["illegal_action"] = True
            info["reason"] = reason
            self._done = True
            return self._obs(), -1.0, True, False, info
        state.apply_action(a)
        self._advance()
        terminated = state.is_terminal()
        reward = float(state.returns()[self.seat]) if terminated else 0.0
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, terminated, False, self._info()

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """Legal actions of the learner now, as booleans (sb3-contrib's MaskablePPO protocol)."""
        return self.encoder.action_mask(self._require_state(), self.seat).astype(bool)

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        state = self._require_state()
        view = state.view(self.seat)
        text = (f"{self.game.title}, learner seat {self.seat}, {len(state.history)} actions; "
                f"to move: {view['current_player']}; hand: {' '.join(map(str, view.get('hand', [])))}")
        if state.is_terminal():
            text += f"\nresult: {state.result()}"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # --- internals ----------------------------------------------------------------
    def _advance(self) -> None:
        state = self._require_state()
        while not state.is_terminal() and state.current_player() != self.seat:
            p = state.current_player()
            state.apply_action(self.agents[p].act(Observation.of(state, p)))

    def _obs(self) -> FloatArray:
        state = self._require_state()
        return self.encoder.encode(state.view(self.seat), self.observation_type)

    def _mask(self) -> MaskArray:
        return self.encoder.action_mask(self._require_state(), self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._mask(), "seat": self.seat}

    def _require_state(self) -> State:
        if self.state is None:
            raise RuntimeError("call reset() before using the environment")
        return self.state


def make(game: str = DEFAULT_GAME, **kwargs: Any) -> CardtableEnv:
    """``CardtableEnv(game, **kwargs)`` (a short alias)."""
    return CardtableEnv(game, **kwargs)


__all__ = ["CardtableEnv", "make"]
