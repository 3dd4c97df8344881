"""Lost Cities knowledge for the search: round cut-offs, match-aware values, a fast play-out policy.

* **Cut-off** at the end of the current round (LC-5): a play-out never deals the
  next round.
* **Value** of a state at the cut-off, for seat 0 (seat 1 is the negative): with
  ``d`` the running match difference and ``r`` rounds still to play,
  ``0.9 * erf(d / (σ √(2 r))) + 0.1 * tanh(d / 50)`` — the chance to win the match
  if each later round adds a normal difference of spread ``σ`` (≈ 36 points
  between two good players, measured from heuristic self-play), mapped to
  ``[-1, 1]``, plus a small margin term so that the search still prefers larger
  wins (or smaller defeats) when the match is already decided; at the end of the
  match ``0.9 * sign(d) + 0.1 * tanh(d / 50)``.
* **Play-out policy**: the heuristic bot itself
  (:func:`cardtable.games.lost_cities.heuristic.policy_action`, called on the sampled state,
  whose accessors give the card sets the bot otherwise parses from its view; in the
  compiled kernel where numba is installed).  The searching seat plays the ``bold`` style
  (:data:`~cardtable.games.lost_cities.heuristic.STYLES`: it beats the baseline in about 62 %
  of matches).  The opponent is a **mixture** (:data:`OPPONENT_MIXTURE`): each sampled world
  draws its opponent — ``steady`` or ``bold`` (the searcher's own style) with equal
  chances; :class:`OpponentMixture` also takes other styles and :func:`randomised_style`
  settings — and every root move is played out in that world against the same one, so
  the flat search's comparison stays paired.  The flat search (``mode="pimc"``) thus
  estimates, for each candidate move, the round's outcome if the searcher plays on
  ``bold`` against an opponent who might play either way — one step of policy
  improvement over ``bold`` that does not bet on knowing the opponent's policy.
* **Candidates and prior**: ``bold``'s few cheapest moves (:func:`ranked_moves`), its
  own choice first and kept unless another move is clearly better, so the play-outs
  are spent on moves a good player would consider.
"""

from __future__ import annotations

import dataclasses
import math
import random
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from cardtable.agents.base import Observation
from cardtable.agents.knowledge import Knowledge
from cardtable.games.lost_cities.heuristic import STYLES, LostCitiesStyle, ViewTable, policy_action, ranked_moves
from cardtable.games.lost_cities import LostCitiesState
from cardtable.protocol import Game, State

OWN_STYLE: Final = STYLES["bold"]
"""How the searching seat plays on in its play-outs (and its prior move)."""
OPPONENT_STYLE: Final = STYLES["steady"]
"""The opponent's style where no world was drawn (:meth:`LostCitiesKnowledge.rollout_action`)."""

RANDOM_RANGES: Final[dict[str, tuple[float, float]]] = {
    "start_margin": (-3.0, 3.0), "extra_margin": (3.0, 9.0), "wager_min_numbers": (2.0, 3.0),
    "future_share": (0.5, 0.7), "conservative": (0.8, 1.3), "deck_value": (2.0, 3.0),
    "denial": (0.0, 0.5), "tempo_weight": (4.0, 8.0)}
"""The ranges of a randomised opponent's settings: each drawn uniformly (``wager_min_numbers``
one of the two whole numbers), the ranges of the grid that ``bold`` was tuned on
(docs/strength.md, "the bold style") — chosen before the pool and never from it."""


def randomised_style(rng: random.Random) -> LostCitiesStyle:
    """A heuristic style with each setting drawn from :data:`RANDOM_RANGES`."""
    drawn: dict[str, Any] = {}
    for name, (low, high) in RANDOM_RANGES.items():
        drawn[name] = rng.choice((int(low), int(high))) if name == "wager_min_numbers" else rng.uniform(low, high)
    return dataclasses.replace(LostCitiesStyle(), **drawn)


RANDOMISED: Final = "randomised"
"""A mixture component that is not a named style but :func:`randomised_style`."""


@dataclass(frozen=True)
class OpponentMixture:
    """How the search models the opponent: a style drawn afresh for every sampled world,
    ``parts`` the components (a name of :data:`~cardtable.games.lost_cities.heuristic.STYLES`
    or :data:`RANDOMISED`) with their weights."""

    parts: tuple[tuple[str, float], ...]

    def __post_init__(self) -> None:
        for name, weight in self.parts:
            if name != RANDOMISED and name not in STYLES:
                raise ValueError(f"unknown mixture part {name!r}; choose from: {', '.join((*STYLES, RANDOMISED))}")
            if weight <= 0:
                raise ValueError(f"the weight of {name!r} must be positive, not {weight}")
        if not self.parts:
            raise ValueError("an opponent mixture needs at least one part")

    def draw(self, rng: random.Random) -> LostCitiesStyle:
        """One opponent: a component by weight (one random number), then its style."""
        pick = rng.random() * sum(w for _, w in self.parts)
        for name, weight in self.parts:
            pick -= weight
            if pick < 0:
                break
        return randomised_style(rng) if name == RANDOMISED else STYLES[name]


OPPONENT_MIXTURE: Final = OpponentMixture((("steady", 1.0), ("bold", 1.0)))
"""The search's model of the opponent: ``steady`` or ``bold`` (the searcher's own style)
with equal chances, a world each.  Chosen by the summed margin against the tuning
opponents ``steady`` and ``bold`` (``benchmarks/lost_cities_mixture.py``, docs/strength.md)
over ``steady`` alone and ``steady``/``bold``/randomised thirds — never by the frozen pool."""

SIGMA: Final = 36.0
"""Spread of one round's score difference between two good players (points)."""
MARGIN_SCALE: Final = 50.0
CANDIDATES: Final = 6
"""Moves the flat search compares: the heuristic's cheapest few."""
KEEP_Z: Final = 1.5
"""Standard errors by which a move must beat the heuristic's before replacing it."""
RACE_Z: Final = 3.0


class LostCitiesKnowledge(Knowledge):
    """Lost Cities: round cut-offs, match win-probability values, the heuristic as
    play-out policy (``bold`` for the searcher, the opponent drawn from :attr:`mixture`),
    ``bold``'s best few moves as candidates and its choice as the prior."""

    mode = "pimc"
    sigma = SIGMA
    candidates_kept = CANDIDATES
    keep_z = KEEP_Z
    margin_kept = 0.0
    race_z = RACE_Z
    """Flat search: drop a move once it trails the heuristic's by this many standard
    errors of the paired difference; stop when only the heuristic's move is left."""
    mixture: OpponentMixture = OPPONENT_MIXTURE
    """The opponent model: one style drawn from it for each sampled world."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self._drawn = threading.local()
        """The opponent of the world this thread sampled last (:meth:`sample_world`)."""

    def sample_world(self, obs: Observation, rng: random.Random) -> State:
        """A world consistent with ``obs``, and the opponent's style in it drawn from
        :attr:`mixture` with the same ``rng``: every root move's play-out in this world
        meets the same opponent (the flat search's comparison stays paired)."""
        world = super().sample_world(obs, rng)
        self._drawn.style = self.mixture.draw(rng)
        self._drawn.rows = None
        return world

    def world_opponent(self) -> LostCitiesStyle:
        """The opponent's style in the world this thread sampled last (before any: the
        mixture's first part, or :data:`OPPONENT_STYLE` if that is randomised)."""
        style: LostCitiesStyle | None = getattr(self._drawn, "style", None)
        if style is None:
            first = self.mixture.parts[0][0]
            style = OPPONENT_STYLE if first == RANDOMISED else STYLES[first]
        return style

    exploration = 1.4
    """(Tree search only.)  Play-out values of one round are close to ±1 (noisy):
    explore more, so that no move is starved after a few unlucky play-outs."""

    def round_of(self, state: State) -> int:
        assert isinstance(state, LostCitiesState)
        return state.round_index

    def cutoff(self, state: State, root_round: int) -> bool:
        assert isinstance(state, LostCitiesState)
        return state.is_terminal() or state.round_index != root_round

    def evaluate(self, state: State) -> list[float]:
        assert isinstance(state, LostCitiesState)
        totals = state.match_totals
        v = self._value(totals[0] - totals[1], self.game.config.rounds - state.rounds_played, state.is_terminal())
        return [v, -v]

    def _value(self, d: int, left: int, over: bool) -> float:
        """Seat 0's value of a match difference ``d`` with ``left`` rounds to play."""
        margin = math.tanh(d / MARGIN_SCALE)
        if over or left <= 0:
            win = 1.0 if d > 0 else -1.0 if d < 0 else 0.0
        else:
            win = math.erf(d / (self.sigma * math.sqrt(2.0 * left)))
        return 0.9 * win + 0.1 * margin

    def kernel_playout(self, world: State, root_round: int, me: int) -> tuple[float, int] | None:
        """The policy play-out of ``world`` to the cut-off in the compiled kernel
        (:func:`cardtable.games.lost_cities.kernel.heuristic_round`: the same moves as
        :meth:`rollout_for`'s, compiled from the same decisions): ``me``'s value there
        and the moves played; ``None`` without the extra ``fast`` or when the game's scoring
        is not the one the kernel compiles (a designer's changed cost or bonus)."""
        kernel = self.kernel
        if kernel is None:
            return None
        assert isinstance(world, LostCitiesState)
        if self.cutoff(world, root_round):
            return self.evaluate(world)[me], 0
        a, b, moves = kernel.heuristic_round(kernel.export(world), self._kernel_styles(kernel, me))
        rounds = self.game.config.rounds
        v = self._value(a - b, rounds - world.round_index - 1, world.round_index + 1 >= rounds)
        return (v if me == 0 else -v), moves

    def kernel_playouts(self, world: State, actions: Sequence[int], root_round: int,
                        me: int) -> list[tuple[float, int]] | None:
        """:meth:`kernel_playout` after each root move of ``actions`` in ``world`` (a world
        at the root, before the move), all in one kernel call
        (:func:`~cardtable.games.lost_cities.kernel.heuristic_rounds`): the flat search's
        play-outs of one world, with one export and no clone per move.  The same values
        and move counts as one :meth:`kernel_playout` per move; ``None`` where that one is."""
        kernel = self.kernel
        if kernel is None:
            return None
        assert isinstance(world, LostCitiesState)
        totals, moves = kernel.heuristic_rounds(kernel.export(world), actions, self._kernel_styles(kernel, me))
        rounds = self.game.config.rounds
        sign = 1.0 if me == 0 else -1.0
        left, over = rounds - root_round - 1, root_round + 1 >= rounds
        return [(sign * self._value(int(a) - int(b), left, over), int(n)) for (a, b), n in zip(totals, moves)]

    def keep_confidence(self, obs: Observation) -> float:
        return self.keep_z

    def keep_margin(self, obs: Observation, default: float) -> float:
        """No fixed margin: the moves are compared in the same worlds against the same
        drawn opponent, so :meth:`keep_confidence` (standard
        errors of the paired difference) alone guards against noise."""
        return self.margin_kept

    def rollout_action(self, state: State, rng: random.Random) -> int:
        assert isinstance(state, LostCitiesState)
        return policy_action(state, OPPONENT_STYLE)

    def _kernel_styles(self, kernel: Any, me: int) -> Any:
        """The kernel's style rows of a search by seat ``me`` in the world sampled last:
        ``me`` plays :data:`OWN_STYLE`, the other :meth:`world_opponent`."""
        rows: Any = getattr(self._drawn, "rows", None)
        if rows is None or rows[0] != me:
            import numpy as np

            own, other = kernel.style_vector(OWN_STYLE), kernel.style_vector(self.world_opponent())
            rows = (me, np.stack([own, other] if me == 0 else [other, own]))
            self._drawn.rows = rows
        return rows[1]

    def rollout_for(self, me: int) -> Callable[[State, random.Random], int]:
        """Play-outs of a search by seat ``me`` in the world sampled last: ``me`` plays
        :data:`OWN_STYLE`, the opponent :meth:`world_opponent`."""
        other = self.world_opponent()
        styles = (OWN_STYLE, other) if me == 0 else (other, OWN_STYLE)

        def act(state: State, rng: random.Random) -> int:
            assert isinstance(state, LostCitiesState)
            return policy_action(state, styles[state.current_player()])

        return act

    def prior(self, obs: Observation, seed: int) -> int | None:
        """:data:`OWN_STYLE`'s move: the heuristic on the seat's view."""
        if len(obs.legal_actions) < 2:
            return None
        move = policy_action(ViewTable(obs.view), OWN_STYLE)
        return move if move in obs.legal_actions else None

    def candidates(self, obs: Observation, rng: random.Random) -> list[int]:
        """:data:`OWN_STYLE`'s :data:`CANDIDATES` cheapest moves, its own choice first.

        Computed on a sampled world: the policy reads only what the seat to move
        sees (its hand, the table, the opponent's hand size and known cards),
        which every world consistent with ``obs`` shares."""
        world = self.sample_world(obs, rng)
        assert isinstance(world, LostCitiesState)
        ranked = ranked_moves(world, OWN_STYLE)
        legal = set(obs.legal_actions)
        moves = [a for _, a in ranked if a in legal]
        return moves[: self.candidates_kept] or list(obs.legal_actions)


