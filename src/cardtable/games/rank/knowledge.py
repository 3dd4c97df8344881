"""Ранг knowledge for the search: values, worlds and play-out policies.

* A match is one game: play-outs run to its end (it always ends, RG-7).
* **Value**: −1 for the seat left in Rank; the others +1 (first out) down to +0.5
  (last out before the loser): "not losing" is what counts, and going out early is
  a little better (it leaves more seats behind to lose; the shaped value is less
  noisy than a bare win/loss).
* **Worlds**: the game's own ``resample`` (``obs.sample_state``), which deals the
  unseen cards consistently with everything the searching seat has seen — a seat
  stuck on a top card holds nothing that answers it, a play of a lower RG-4 tier
  shows the higher tiers are empty, and so on (:meth:`RankState.hand_constraints`).
  Where the others have played since their last unseen card (in practice once the
  stock is out), each world is drawn among :attr:`RankKnowledge.infer_draws` samples
  by how well it explains those plays (inference from play,
  :mod:`cardtable.games.rank.inference`).
* **Play-out policy**: with the extra ``fast``, the heuristic bot itself, compiled
  (:meth:`RankKnowledge.kernel_values`, several play-outs per world).  Without it the
  fast policy (on the sampled state's legal-move mask, :mod:`cardtable.games.rank.rollout`,
  which the kernel can run too): keep the escapes — Aces, Kings and jokers, playable on
  anything at a lower RG-4 tier — while a plain card can be played; otherwise a random
  legal move.  This is the main idea of the heuristic bot (escapes bridge the next run)
  at the cost of one mask test.
"""

from __future__ import annotations

import random
from typing import Final

from cardtable.agents.base import Observation
from cardtable.agents.knowledge import Knowledge
from cardtable.games.rank import RankState
from cardtable.games.rank.heuristic import rank_counts, rank_of_kind, would_play
from cardtable.games.rank.inference import PlayLog
from cardtable.games.rank.rollout import rollout_move
from cardtable.protocol import Game, State

PLACE_WEIGHT: Final = 0.5
"""How much a later place out (before the last) costs, against 2 for losing: going
out early leaves fewer seats behind to lose to, and the shaped value is less noisy."""


class RankKnowledge(Knowledge):
    """Ранг: play-outs to the end, "not losing" values, the heuristic (or escape-keeping)
    play-outs, worlds weighted by the others' endgame play."""

    mode = "pimc"
    """Few legal moves per decision and a noisy outcome: every move is played out in the
    same worlds (measured 18.0 % losses against 19.8 % for the tree, 400 games each —
    within the noise, but never worse)."""

    leaf_playouts = 12
    """Policy play-outs per root move and world in the compiled kernel (:meth:`kernel_values`),
    their values averaged: the exact constrained deal of a world costs far more than a
    compiled play-out, so each world is played out several times."""

    leaf_policies = ("rollout", "heuristic")
    leaf_policy = "rollout"
    """Who plays the play-outs: ``"rollout"`` (the escape-keeping policy above) or
    ``"heuristic"`` (the heuristic bot itself: in the kernel compiled,
    :func:`~cardtable.games.rank.kernel.heuristic_playouts`, in Python the bot on the
    seat's view of the sampled world).  With the kernel the heuristic is the default
    (docs/strength.md, "Twelfth session": 175 losses in 900 arena games against 190
    for the fast policy); in Python it would cost a view per play-out move."""

    infer_draws = 8
    """Worlds drawn per world searched where the others have played since their last
    unseen card: the one played out is drawn among them by :attr:`infer_miss` to the power
    of those plays that the heuristic would not have made with the world's hands (:mod:`cardtable.games.rank.inference`;
    1: no inference, the plain ``resample``)."""

    infer_miss = 0.2
    """The weight factor per such play (see :attr:`infer_draws`)."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self._logs: tuple[Observation, PlayLog] | None = None
        if self.kernel is not None:
            self.leaf_policy = "heuristic"
        n = game.num_players
        self.place_values = tuple(-1.0 if place == n - 1 else 1.0 - PLACE_WEIGHT * place / max(1, n - 2)
                                  for place in range(n))
        """The value of each place out (the loser −1; the others between +1, first out, and
        0.5, last before the loser): not losing is what counts most."""

    def sample_world(self, obs: Observation, rng: random.Random) -> State:
        """``resample``; where the others have played since their last unseen card (and
        :attr:`infer_draws` > 1), the world among that many samples that best explains
        those plays, drawn by weight (:class:`~cardtable.games.rank.inference.PlayLog`)."""
        if self.infer_draws <= 1:
            return obs.sample_state(rng)
        if self._logs is None or self._logs[0] is not obs:
            self._logs = (obs, PlayLog.of(obs.view))
        log = self._logs[1]
        if not log.plays:
            return obs.sample_state(rng)
        worlds = [obs.sample_state(rng) for _ in range(self.infer_draws)]
        weights = [self.infer_miss ** self.missed_plays(log, world) for world in worlds]
        return self.draw_by_weight(worlds, weights, rng)

    @staticmethod
    def missed_plays(log: PlayLog, world: State) -> int:
        """How many plays of ``log`` the heuristic would not have made with ``world``'s
        hands (each seat's hand then: its hand in the world and the cards it played since)."""
        assert isinstance(world, RankState)
        missed = 0
        for play in log.plays:
            counts = rank_counts(world.hand_cards(play.seat) + list(play.since))
            key = tuple(counts)
            answer = play.answers.get(key)
            if answer is None:
                answer = play.answers[key] = not would_play(play.view, play.seat, counts, rank_of_kind(play.card))
            missed += answer
        return missed

    def evaluate(self, state: State) -> list[float]:
        n = self.game.num_players
        if not state.is_terminal():
            return [0.0] * n
        order = state.result()["order"]
        assert isinstance(order, list)
        values = [0.0] * n
        for place, seat in enumerate(order):
            values[int(seat)] = self.place_values[place]
        return values

    def rollout_action(self, state: State, rng: random.Random) -> int:
        assert isinstance(state, RankState)
        if self.leaf_policy == "heuristic":
            choice = self.prior(Observation.of(state, state.current_player()), rng.getrandbits(63))
            if choice is not None:
                return choice
        return rollout_move(state.legal_mask, state.anti_rank, rng)

    def kernel_values(self, world: State, root_round: int, me: int, seed: int) -> tuple[list[float], int] | None:
        """:attr:`leaf_playouts` policy play-outs of ``world`` to the game's end in the
        compiled kernel (:func:`cardtable.games.rank.kernel.policy_playouts`: the policy
        of :meth:`rollout_action`, compiled from :mod:`cardtable.games.rank.rollout`, its
        random numbers from ``seed``): their mean per-seat values and the moves played in
        all; ``None`` without the extra ``fast`` or for a game the kernel refuses."""
        kernel = self.kernel
        if kernel is None:
            return None
        assert isinstance(world, RankState)
        if world.is_terminal():
            return self.evaluate(world), 0
        playouts = kernel.heuristic_playouts if self.leaf_policy == "heuristic" else kernel.policy_playouts
        moves, orders = playouts(world, seed & 0xFFFFFFFF, self.leaf_playouts)
        n = self.game.num_players
        totals = [0.0] * n
        for order in orders:
            for seat, v in zip(order, self.place_values):
                totals[seat] += v
        return [v / len(orders) for v in totals], moves

    def kernel_playout(self, world: State, root_round: int, me: int, seed: int = 0) -> tuple[float, int] | None:
        """:meth:`kernel_values` for seat ``me`` only."""
        got = self.kernel_values(world, root_round, me, seed)
        return None if got is None else (got[0][me], got[1])


    def value_label(self) -> str:
        return "chance not to lose"

