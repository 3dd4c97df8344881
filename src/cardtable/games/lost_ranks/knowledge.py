"""Lost Ranks knowledge for the search: round cut-offs and match win-probability values.

* **Cut-off** at the end of the current round (13 tricks, or 26 in Command of
  Two): a play-out never deals the next round.
* **Value** of a state at the cut-off: the chance that each army wins the match
  from the running totals, by an exact recursion over the rounds still to come
  (LR-17: first to the target, both → higher total, round cap; LR-18: fixed
  rounds, higher total) with a per-round distribution of army points measured
  from heuristic self-play (Spy and active Jacks, LR-15; with Force Strength,
  LR-16, one army gets one point more), separately for 4 and 2 players.  Ties at the end count as half a win.
  Mapped to ``[-1, 1]`` and mixed with a small term for the point difference.
* **Search**: the flat search (every root move played out in the same sampled worlds
  by the heuristic bot, 2 play-outs each in Command of Two, 8 with 4 players; the
  heuristic's move kept unless another leads by 0.01).
* **Play-out policy** (:mod:`cardtable.games.lost_ranks.rollout`, on the sampled state's
  accessors, no JSON; the compiled kernel runs the same functions, several play-outs per
  tree leaf, :meth:`LostRanksKnowledge.kernel_values`): a fast version
  of the heuristic bot, so that the opponents in a play-out behave like the real ones.
  A follower scores each legal card by the soldiers of the trick (LR-15) going to the
  army that ends up winning it — every later seat putting on the best card its hand in
  the sampled world allows (LR-7) — minus what the card is worth kept (4 players: the Spy
  and an own active Jack are kept for a partner's trick, an enemy active Jack is shed;
  2 players: the Spy and an enemy active Jack are liabilities, an own Jack is junk).  A
  leader plays a random plain card; in Command of Two it first sheds an enemy active
  Jack where the answering source (LR-13, LR-14) cannot take it, and otherwise draws two
  from the phantom deck 40 % of the time.  A small share of moves is random.  Played as
  a bot on one sampled world per move it wins 0.88 of 4-player matches and 0.63 of
  Command of Two matches against random on seeds 0–199 (the policy it replaced: 0.70
  and 0.45).  The search plays the heuristic bot itself instead
  (:attr:`LostRanksKnowledge.leaf_policy` ``"heuristic"``: compiled in the kernel, the
  bot's decisions in Python), which gains more at the decisions that matter than
  knowing every hidden card would (docs/strength.md, "Lost Ranks: the ceiling"); in
  Command of Two with the searching seat's first two decisions of each play-out chosen
  by a one-step look-ahead (``"lookahead"``, "Twenty-seventh session", "Twenty-ninth
  session").

Which cards each seat may still hold (voids shown by not following suit, LR-7,
LR-20; phantom cards) is the game's own ``resample``.  **Inference from play** (Command of
Two, with the compiled kernel; :attr:`LostRanksKnowledge.infer_draws`, the default since the
twenty-fifth session): each world is chosen among 16 such samples, each weighted by 0.05 to
the power of how often the heuristic, holding that world's cards, would not have played
what the opponent played this round
(:mod:`cardtable.games.lost_ranks.inference`; public facts and the seat's own cards only,
LR-20).
"""

from __future__ import annotations

import math
import random
from functools import lru_cache
from typing import Final

from cardtable.agents.base import Observation
from cardtable.agents.knowledge import Knowledge
from cardtable.games.lost_ranks import LostRanks, LostRanksState, decisions
from cardtable.games.lost_ranks.heuristic import AVOID, knowledge
from cardtable.games.lost_ranks.inference import RoundLog
from cardtable.games.lost_ranks.rules import ARMY_NAMES
from cardtable.games.lost_ranks.rollout import follow_move, lead_move, random_move
from cardtable.protocol import Game, State

# Per-round (points of one army, points of the other): heuristic self-play, 4 players,
# symmetrised (167 rounds).  Weights, not probabilities.
_ROUND_POINTS_4: Final = {
    (0, 0): 1.0, (0, 2): 24.5, (2, 0): 24.5, (0, 4): 24.0, (4, 0): 24.0, (0, 6): 12.0, (6, 0): 12.0,
    (2, 2): 36.0, (2, 4): 4.5, (4, 2): 4.5,
}
_ROUND_POINTS_2: Final = {
    (0, 0): 14.0, (0, 2): 44.0, (2, 0): 44.0, (0, 4): 16.0, (4, 0): 16.0, (2, 2): 23.0,
    (2, 4): 3.5, (4, 2): 3.5, (0, 6): 1.0, (6, 0): 1.0,
}
"""The same for Command of Two (2 players, 166 rounds)."""
MAX_ROUNDS_SEARCHED: Final = 50
_NO_PHANTOMS: Final = ((), (), (), ())
_NO_PHANTOM_N: Final = (0, 0, 0, 0)


def policy_move(s: LostRanksState, legal: list[int], rng: random.Random) -> int:
    """The play-out move (:func:`cardtable.games.lost_ranks.rollout.rollout_move`) of the
    seat to move of a sampled world, fed from its accessors (only as far as it reads them)."""
    n = len(legal)
    a = random_move(legal, n, rng)
    if a >= 0:
        return a
    trick = s.trick
    if trick:
        return follow_move(s.current_player(), s.armies, s.trump_suit, s.led_suit, len(trick), [e[0] for e in trick],
                           [e[1] for e in trick], s.hand_masks, legal, n, rng)
    if s.game.num_players == 2:
        phantoms: tuple[tuple[int, ...], ...] = (s.phantom_cards(0), s.phantom_cards(1))
        phantom_n: tuple[int, ...] = (len(phantoms[0]), len(phantoms[1]))
    else:
        phantoms, phantom_n = _NO_PHANTOMS, _NO_PHANTOM_N
    return lead_move(s.current_player(), s.armies, s.trump_suit, s.hand_masks, phantoms, phantom_n, legal, n, rng)


def heuristic_move(s: LostRanksState, rng: random.Random) -> int:
    """The heuristic bot's move for the seat to move of a sampled world, from that seat's
    view of it (ties broken by ``rng``, as the bot breaks them)."""
    legal = s.legal_actions()
    if len(legal) == 1:
        return legal[0]
    noise = [rng.random() for _ in legal]
    return legal[decisions.choose(knowledge(s.view(s.current_player())), legal, noise, AVOID, [0.0] * decisions.WORK)]


def _distribution(points: dict[tuple[int, int], float], force: bool) -> tuple[tuple[int, int, float], ...]:
    total = sum(points.values())
    out: dict[tuple[int, int], float] = {}
    for (x, y), w in points.items():
        if force:
            for dx, dy in ((1, 0), (0, 1)):
                key = (x + dx, y + dy)
                out[key] = out.get(key, 0.0) + 0.5 * w / total
        else:
            out[(x, y)] = out.get((x, y), 0.0) + w / total
    return tuple((x, y, p) for (x, y), p in sorted(out.items()))


class MatchOdds:
    """``win(a, b, rounds)``: the chance that the army on ``a`` points beats the one on
    ``b`` after ``rounds`` finished rounds (LR-17/LR-18; ties count half)."""

    def __init__(self, game: Game) -> None:
        assert isinstance(game, LostRanks)
        self.two = game.config.players == 2
        self.target: int | None = game.target
        self.max_rounds: int | None = game.max_rounds
        self.dist = _distribution(_ROUND_POINTS_2 if self.two else _ROUND_POINTS_4, game.config.force_strength)
        self.win = lru_cache(maxsize=None)(self._win)

    def _due(self, a: int, b: int, rounds: int) -> bool:
        if self.two:
            return rounds >= (self.max_rounds or 0)
        target = self.target or 0
        return a >= target or b >= target or (self.max_rounds is not None and rounds >= self.max_rounds)

    def tiebreak(self, a: int, b: int) -> float:
        """One more round decides (ties again: half)."""
        p = 0.0
        for x, y, w in self.dist:
            p += w * (1.0 if a + x > b + y else 0.5 if a + x == b + y else 0.0)
        return p

    def _win(self, a: int, b: int, rounds: int) -> float:
        if rounds >= MAX_ROUNDS_SEARCHED:
            return 1.0 if a > b else 0.0 if a < b else 0.5
        p = 0.0
        for x, y, w in self.dist:
            a2, b2, r2 = a + x, b + y, rounds + 1
            if self._due(a2, b2, r2):
                v = 1.0 if a2 > b2 else 0.0 if a2 < b2 else 0.5
            else:
                v = self.win(a2, b2, r2)
            p += w * v
        return p


class LostRanksKnowledge(Knowledge):
    """Lost Ranks: round cut-offs and match win-probability values."""

    world_pool = 64
    """The exact constrained deal of ``resample`` (voids) costs about a millisecond with
    four players: reuse 64 sampled worlds per search."""

    leaf_playouts = 8
    """Policy play-outs per tree leaf in the compiled kernel (:meth:`kernel_values`), their
    values averaged: in the kernel a play-out costs less than the tree's descent to the
    leaf, so each descent buys a less noisy estimate.  Command of Two: 2 per world and
    root move of the flat search (more worlds for the time; set in ``__init__``)."""

    leaf_policies = ("rollout", "heuristic", "lookahead")
    leaf_policy = "rollout"
    """Who plays the play-outs: ``"rollout"`` (the fast play-out policy of
    :mod:`~cardtable.games.lost_ranks.rollout`), ``"heuristic"`` (the heuristic bot
    itself: in the kernel compiled, :func:`~cardtable.games.lost_ranks.kernel.heuristic_playouts`,
    in Python :func:`heuristic_move`) or ``"lookahead"`` (the heuristic, the searching
    seat choosing its first :attr:`lookahead_depth` decisions of each play-out by a
    one-step look-ahead in the play-out's world, :func:`~cardtable.games.lost_ranks.kernel.lookahead_playouts`; only
    compiled — without the kernel the heuristic plays).  Set in ``__init__``: the
    heuristic with 4 players (the flat search, docs/strength.md, "Nineteenth session"),
    the look-ahead in Command of Two ("Twenty-seventh session": +9 / −1 matches turned
    on 100 replayed deals at 0.7 CPU s; the heuristic had gained +0.043 ± 0.006 at the
    open decisions over the fast policy, "Lost Ranks: the ceiling")."""

    lookahead_depth = 2
    """With :attr:`leaf_policy` ``"lookahead"``: how many of the searching seat's
    decisions with a choice in each play-out look ahead.  2 (docs/strength.md,
    "Twenty-ninth session": on fresh deals the heuristic lost, depth 2 won +16 / −6
    matches against depth 1 at 0.1 CPU s over 180 deals and +7 / −2 at 0.7 s over 45;
    depth 3 was level with depth 2)."""

    keep_margin_value: float | None = None
    """How much better than the heuristic's move another must look to be played (``None``:
    the search's default, :data:`~cardtable.agents.search.KEEP_MARGIN`).  0.01 (set in
    ``__init__``)."""

    infer_draws = 1
    """Command of Two: sampled worlds drawn per world searched, one kept with a weight of
    :attr:`infer_miss` to the power of the opponent's moves this round that the heuristic
    would not have made in it (1: no inference, the plain ``resample``).  16 in Command of
    Two (set in ``__init__``)."""

    infer_miss = 0.2
    """The weight factor per such move (see :attr:`infer_draws`); 0.05 in Command of Two."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.odds = MatchOdds(game)
        self._red_values: dict[tuple[int, ...], float] = {}
        self._logs: tuple[Observation, RoundLog | None] | None = None
        # docs/strength.md, "Eleventh session": in Command of Two, at the 812 open
        # decisions (0.1 CPU s), the flat search gains +0.020 ± 0.006 over the tree, 2
        # play-outs a world (more worlds) and the margin 0.01 included.  "Nineteenth
        # session": with 4 players the same search (8 play-outs a world) won 29 of series
        # 3300's 40 matches where the tree won 23 (+10 / −4), and 32 of 40 fresh ones
        # where the heuristic partnership won 20 (+13 / −1).
        self.leaf_policy = "heuristic"
        self.mode = "pimc"
        self.keep_margin_value = 0.01
        if game.num_players == 2:
            self.leaf_policy = "lookahead"
            self.leaf_playouts = 2
            # docs/strength.md, "Twenty-fifth session": replayed at 0.1 CPU s on 290 fresh
            # deals, the inference won 193 matches where the search without it won 183
            # (+16 / −6 turned, sign test p ≈ 0.05).
            self.infer_draws = 16
            self.infer_miss = 0.05

    def sample_world(self, obs: Observation, rng: random.Random) -> State:
        """``resample``; in Command of Two with :attr:`infer_draws` > 1, the best
        explanation of the opponent's play among that many samples, drawn by weight."""
        if self.infer_draws <= 1 or self.game.num_players != 2 or self.kernel is None:
            return obs.sample_state(rng)
        if self._logs is None or self._logs[0] is not obs:
            self._logs = (obs, RoundLog.of(obs.view))
        log = self._logs[1]
        if log is None or not log.actions:
            return obs.sample_state(rng)
        worlds = [obs.sample_state(rng) for _ in range(self.infer_draws)]
        weights = [self.infer_miss ** self.opponent_misses(log, w, obs.player) for w in worlds]
        return self.draw_by_weight(worlds, weights, rng)

    def opponent_misses(self, log: RoundLog, world: State, me: int) -> int:
        """How many of the opponent's moves in ``log`` the heuristic would not have made
        with ``world``'s cards (:func:`~cardtable.games.lost_ranks.kernel.heuristic_misses`;
        a world that does not fit the log counts as missing every move)."""
        assert isinstance(world, LostRanksState)
        kernel = self.kernel
        start = log.start(world)
        if start is None:
            return len(log.actions)
        misses: int = kernel.round_misses(world, start, log.actions, 1 - me)
        return len(log.actions) if misses < 0 else misses

    def keep_margin(self, obs: Observation, default: float) -> float:
        return default if self.keep_margin_value is None else self.keep_margin_value

    def round_of(self, state: State) -> int:
        assert isinstance(state, LostRanksState)
        return state.round_index

    def cutoff(self, state: State, root_round: int) -> bool:
        assert isinstance(state, LostRanksState)
        return state.is_terminal() or state.round_index != root_round

    def rollout_action(self, state: State, rng: random.Random) -> int:
        assert isinstance(state, LostRanksState)
        if self.leaf_policy != "rollout":
            return heuristic_move(state, rng)
        return policy_move(state, state.legal_actions(), rng)

    def evaluate(self, state: State) -> list[float]:
        assert isinstance(state, LostRanksState)
        red, black = state.army_totals
        winner = state.winner()
        outcome = -1 if not state.is_terminal() else 2 if winner is None else ARMY_NAMES.index(winner)
        v = self.red_value(red, black, state.rounds_played, state.tiebreak_rounds, outcome)
        return [v if a == 0 else -v for a in state.armies]

    def red_value(self, red: int, black: int, rounds: int, tiebreaks: int, outcome: int) -> float:
        """The Red army's value of the totals ``red``, ``black`` after ``rounds`` finished
        rounds (``outcome``: -1 on, else the match's: 0 Red won, 1 Black won, 2 draw);
        the Black army's is its negative."""
        margin = 0.1 * math.tanh((red - black) / 4.0)
        if outcome >= 0:
            return 0.9 * (1.0 if outcome == 0 else -1.0 if outcome == 1 else 0.0) + margin
        p_red = self.odds.tiebreak(red, black) if tiebreaks else self.odds.win(red, black, rounds)
        return 0.9 * (2.0 * p_red - 1.0) + margin

    def kernel_values(self, world: State, root_round: int, me: int, seed: int) -> tuple[list[float], int] | None:
        """:attr:`leaf_playouts` play-outs of ``world`` to the cut-off in the compiled
        kernel by the :attr:`leaf_policy` (the fast policy,
        :func:`cardtable.games.lost_ranks.kernel.policy_playouts`; the heuristic,
        :func:`~cardtable.games.lost_ranks.kernel.heuristic_playouts`; or the heuristic
        with seat ``me`` looking ahead, :func:`~cardtable.games.lost_ranks.kernel.lookahead_playouts`;
        their random numbers from ``seed``): their mean per-seat values and the moves
        played in all; ``None`` without the extra ``fast`` or for options the kernel refuses."""
        kernel = self.kernel
        if kernel is None:
            return None
        assert isinstance(world, LostRanksState)
        if self.cutoff(world, root_round):
            return self.evaluate(world), 0
        seed &= 0xFFFFFFFF
        if self.leaf_policy == "lookahead":
            moves, rows = kernel.lookahead_playouts(world, seed, self.leaf_playouts, me, self.lookahead_depth)
        elif self.leaf_policy == "heuristic":
            moves, rows = kernel.heuristic_playouts(world, seed, self.leaf_playouts)
        else:
            moves, rows = kernel.policy_playouts(world, seed, self.leaf_playouts)
        cache = self._red_values
        total = 0.0
        for row in rows:
            v = cache.get(row)
            if v is None:
                v = cache[row] = self.red_value(*row)
            total += v
        v = total / len(rows)
        return [v if a == 0 else -v for a in world.armies], moves

    def kernel_playout(self, world: State, root_round: int, me: int, seed: int = 0) -> tuple[float, int] | None:
        """:meth:`kernel_values` for seat ``me`` only."""
        got = self.kernel_values(world, root_round, me, seed)
        return None if got is None else (got[0][me], got[1])


