"""Information-set search for every game: single-observer ISMCTS, difficulty levels, hints.

The searching seat knows only its :class:`~cardtable.agents.base.Observation`:
the JSON view, the legal actions and ``sample_state(rng)`` — a world whose hidden
cards are redrawn consistently with that view by the game's own
``State.resample`` (LC-8, LR-20, RG-9).  The search never reads the true state.

**Single-observer ISMCTS** (Cowling, Powley & Whitehouse 2012).  One tree over
the searching seat's information sets, keyed by the decisions taken from the
root (forced moves — a single legal action — are applied without a node).
Every iteration

1. samples a world (fresh, or a clone from a pool of sampled worlds when the
   game's sampler is costly, :attr:`Knowledge.world_pool`);
2. descends the tree, each seat choosing by UCB1 over the actions legal *in this
   world* with availability counts (an action's exploration term counts the
   visits in which it was available, not the parent's visits), the seat to move
   maximising its own value (its army's in Lost Ranks);
3. adds one node and plays out with the game's fast policy
   (:meth:`Knowledge.rollout_for` the searching seat, or ``rollout="random"``) until the
   game's cut-off — the end of the current round in Lost Cities and Lost Ranks,
   the end of the game in Ранг; with the extra ``fast`` (``kernel=True``) the game's
   ``kernel_values`` plays the same policy compiled, several play-outs from the leaf's
   world in one call, and returns their mean values;
4. backs up the per-seat values of :meth:`Knowledge.evaluate` (win
   probabilities of the match situation, mapped to ``[-1, 1]``).

**Flat determinized Monte Carlo** (``mode="pimc"``, PIMC): every remaining root
action is played out in the *same* sampled worlds with the *same* play-out
random numbers (common random numbers: the comparison between two moves is
paired), and the worse half is dropped in rounds (sequential halving).  The
root actions are the game's short list where its knowledge has one
(``candidates(obs, rng)``; Lost Cities: the heuristic's cheapest few moves),
else all legal ones.  Each game's knowledge picks the default mode (flat in
all three games since the nineteenth session; ``mode=ismcts`` selects the tree).

The move chosen is the most visited root action (best mean among equals).  With
``prior=True`` the game's heuristic bot suggests a move from the observation
(progressive bias at the root); the search keeps it unless another move's mean
value is better by ``keep_margin`` (plus, where the game asks for it, a number
of standard errors of the difference — in the flat search, of the *paired*
difference in the same worlds).  Where the game's knowledge says that its
play-outs cannot improve on the heuristic (:meth:`Knowledge.worth_searching`),
the agent plays the heuristic's move at once.

Budgets: ``iterations=`` (deterministic for a given seed), ``steps=`` (also
deterministic, and proportional to the work like the clock), ``seconds=`` (wall
clock; with ``cpu=true`` the searching thread's CPU time, for runs on a shared machine),
or several (whichever ends first).  A *step* is one action applied to a
simulated state — in the tree (forced moves included), at the flat search's root
or in a play-out — and each world drawn for an iteration costs two more for its
set-up, so that every iteration costs at least three steps, even one whose
descent reaches the cut-off inside the tree (near the end of a round the tree
soon holds every line to it, and no play-out is left).  The tree search stops at
the first iteration after which a budget is used up, the flat search once it has
played the play-outs that the budget allows at its rate so far: every budget
ends.  A root with a single legal action is not searched.  ``jobs=`` runs that many independent
searches in worker processes (root parallelism) and adds up their root
statistics.

Levels (``cardtable play --ai easy|medium|hard``, the arena, the server):

* ``easy`` — the heuristic bot with one move in four random: beatable;
* ``medium`` — 0.1 s of search per decision (≤ 0.2 s);
* ``hard`` — 0.7 s of search per decision (≤ 1 s at the 95th percentile).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, ClassVar

from cardtable.agents.base import Agent, Observation, check_option_types
from cardtable.agents.knowledge import Knowledge, knowledge_for
from cardtable.protocol import Game, State

# ---------------------------------------------------------------------------
# The search


VAR_FLOOR = 0.25
"""Smallest variance of play-out values assumed when comparing two moves' means."""
KEEP_MARGIN = 0.03
"""Default of :attr:`SearchParams.keep_margin`."""
PAIRED_VAR_FLOOR = 0.01
"""Smallest variance assumed for paired differences (flat search, same worlds)."""
RACE_MIN_WORLDS = 16
"""Worlds a flat search plays before it drops clearly worse moves (``race_z``)."""


@dataclass
class SearchParams:
    """Settings of one search (see the module docstring)."""

    iterations: int | None = None
    """Tree search: iterations (one play-out each).  Flat Monte Carlo: play-outs in all."""
    seconds: float | None = None
    cpu: bool = False
    """Measure ``seconds`` in the CPU time of the searching thread (``time.thread_time``)
    instead of the wall clock: on a machine shared with other jobs the search gets the
    work it would do in that time on an idle core (arena runs; ``hard:cpu=true``)."""
    steps: int | None = None
    """Work units in all: actions applied to simulated states (in the tree, at the flat
    search's root, in play-outs), plus two per world drawn for its set-up — a budget
    proportional to the work done, like the clock, but reproducible and independent of
    the machine's load."""
    rollout: str = "policy"
    """``"policy"`` (the game's fast play-out policy) or ``"random"``."""
    exploration: float | None = None
    """UCB1 constant (values are in ``[-1, 1]``; ``None``: the game's default)."""
    prior: bool = True
    prior_bias: float = 0.5
    """Progressive-bias weight of the heuristic's move at the root."""
    keep_margin: float | None = None
    """Keep the heuristic's move unless another is better by this much (value units;
    ``None``: the game's margin, :data:`KEEP_MARGIN` unless its knowledge sets another)."""
    world_pool: int | None = None
    """Reuse at most this many sampled worlds (``None``: the game's default)."""
    mode: str | None = None
    """``None`` (the game's default), ``"ismcts"`` (the tree search) or ``"pimc"`` (flat determinized Monte Carlo:
    every remaining root action played out in the same worlds with the same
    play-out random numbers, the worse half dropped in rounds — sequential halving)."""
    kernel: bool = True
    """Policy play-outs: play them in the game's compiled kernel where its knowledge has
    one and numba is installed (``kernel_values``, in the flat search also
    ``kernel_playout``: the same policy, many times faster); ``False``: always in the
    Python engine."""
    leaf: str | None = None
    """Who plays the play-outs where the game offers a choice (its knowledge's
    :attr:`~cardtable.agents.knowledge.Knowledge.leaf_policies`: Lost Ranks and Ранг
    ``"rollout"``, the fast play-out policy, or ``"heuristic"``, the heuristic bot; Lost
    Ranks also ``"lookahead"``, the heuristic with the searching seat looking one step
    ahead; ``None``: the game's default, its ``leaf_policy``)."""
    root_actions: tuple[int, ...] | None = None
    """Flat search: the root moves to compare (``None``: the game's short list, else every
    legal move).  The move analysis passes every legal move; the tree search always
    considers every legal move."""

    def __post_init__(self) -> None:
        check_option_types(self)
        if self.iterations is None and self.seconds is None and self.steps is None:
            raise ValueError("a search needs a budget: iterations=…, seconds=… or steps=…")
        if self.steps is not None and self.steps < 1:
            raise ValueError(f"steps must be at least 1, not {self.steps}")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {self.iterations}")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError(f"seconds must be positive, not {self.seconds}")
        if self.rollout not in ("policy", "random"):
            raise ValueError(f"rollout must be 'policy' or 'random', not {self.rollout!r}")
        if self.mode not in (None, "ismcts", "pimc"):
            raise ValueError(f"mode must be 'ismcts' or 'pimc', not {self.mode!r}")

    def clock(self) -> Callable[[], float]:
        """The clock that ``seconds`` is measured on: the thread's CPU time with ``cpu``,
        else the wall clock."""
        return time.thread_time if self.cpu else time.perf_counter


@dataclass
class RootStats:
    """Visits and summed values (for the searching seat) of each root action."""

    visits: dict[int, int] = field(default_factory=dict)
    value_sums: dict[int, float] = field(default_factory=dict)
    iterations: int = 0
    seconds: float = 0.0
    steps: int = 0
    """Work done, in the units of :attr:`SearchParams.steps`."""
    playout_moves: int = 0
    """The actions applied in play-outs (part of :attr:`steps`), in Python or in a kernel."""
    prior: int | None = None
    keep_margin: float = 0.0
    """How much better (in value) another move must look to replace :attr:`prior`."""
    keep_z: float = 0.0
    """…plus this many standard errors of the difference of the two means."""
    square_sums: dict[int, float] = field(default_factory=dict)
    paired: dict[int, list[float]] = field(default_factory=dict)
    """Flat search: per action, ``[n, sum, sum of squares]`` of its value minus the
    prior's in the same world (paired: the difference's spread without the worlds'
    own spread)."""

    def add(self, other: RootStats) -> None:
        for a, n in other.visits.items():
            self.visits[a] = self.visits.get(a, 0) + n
            self.value_sums[a] = self.value_sums.get(a, 0.0) + other.value_sums.get(a, 0.0)
            if a in other.square_sums:
                self.square_sums[a] = self.square_sums.get(a, 0.0) + other.square_sums[a]
        self.iterations += other.iterations
        self.steps += other.steps
        self.playout_moves += other.playout_moves
        for a, pair in other.paired.items():
            row = self.paired.setdefault(a, [0, 0.0, 0.0])
            for i in range(3):
                row[i] += pair[i]
        self.seconds = max(self.seconds, other.seconds)

    def mean(self, action: int) -> float:
        n = self.visits.get(action, 0)
        return self.value_sums.get(action, 0.0) / n if n else -1.0

    def _var(self, action: int) -> float:
        n = self.visits.get(action, 0)
        if n < 2 or action not in self.square_sums:
            return 1.0
        m = self.mean(action)
        # floored: a few equal play-out results say little about the spread
        return max(VAR_FLOOR, (self.square_sums[action] / n - m * m) * n / (n - 1))

    def ranked(self) -> list[tuple[int, int, float]]:
        """``(action, visits, mean value)``, most visited first."""
        rows = [(a, n, self.mean(a)) for a, n in self.visits.items()]
        rows.sort(key=lambda r: (-r[1], -r[2], r[0]))
        return rows

    def choose(self, keep_margin: float | None = None) -> int:
        """The most visited action (best mean among equals), or the prior's move unless
        that one looks better by more than ``keep_margin`` (default :attr:`keep_margin`)."""
        margin = self.keep_margin if keep_margin is None else keep_margin
        rows = self.ranked()
        best = rows[0][0]
        if self.prior is not None and self.prior != best and self.visits.get(self.prior):
            lead = self.mean(best) - self.mean(self.prior)
            pair = self.paired.get(best)
            if self.keep_z and pair is not None and pair[0] >= 2:  # the same worlds: paired
                n = pair[0]
                lead = pair[1] / n
                var = max(PAIRED_VAR_FLOOR, (pair[2] / n - lead * lead) * n / (n - 1))
                lead -= self.keep_z * math.sqrt(var / n)
            elif self.keep_z:
                lead -= self.keep_z * math.sqrt(self._var(best) / max(1, self.visits[best])
                                                + self._var(self.prior) / self.visits[self.prior])
            if lead <= margin:
                return self.prior
        return best


class _Node:
    """Statistics of the actions taken from one information set of the tree."""

    __slots__ = ("edges",)

    def __init__(self) -> None:
        # action -> [visits, value sum, availability, child node or None, sum of squared values]
        self.edges: dict[int, list[Any]] = {}


class _Worlds:
    """Sampled worlds: fresh ones, or clones from a bounded pool."""

    def __init__(self, obs: Observation, rng: random.Random, pool: int | None, knowledge: Knowledge) -> None:
        self.obs = obs
        self.sample = knowledge.sample_world
        self.rng = rng
        self.pool = pool
        self.stock: list[State] = []
        self.at = 0

    def next(self) -> State:
        if self.pool is None:
            return self.sample(self.obs, self.rng)
        if len(self.stock) < self.pool:
            world = self.sample(self.obs, self.rng)
            self.stock.append(world)
            return world.clone()
        world = self.stock[self.at]
        self.at = (self.at + 1) % len(self.stock)
        return world.clone()


WORLD_SETUP_STEPS = 2
"""Steps charged for each world an iteration draws (sampled, or cloned from the pool)."""


def search(obs: Observation, params: SearchParams, seed: int, knowledge: Knowledge | None = None) -> RootStats:
    """Run one search from ``obs`` and return its root statistics.

    A root with a single legal action returns at once (no iterations, no steps);
    one with none is a ``ValueError``."""
    kn = knowledge if knowledge is not None else knowledge_for(obs.game)
    if params.leaf is not None:
        kn = kn.with_leaf_policy(params.leaf)
    if not obs.legal_actions:
        raise ValueError(f"nothing to search: seat {obs.player} has no legal action (it is not its turn)")
    if len(obs.legal_actions) == 1:
        stats = RootStats(visits={obs.legal_actions[0]: 0}, value_sums={obs.legal_actions[0]: 0.0})
    elif (params.mode or kn.mode) == "pimc":
        stats = _pimc(obs, params, seed, kn)
    else:
        stats = _ismcts(obs, params, seed, kn)
    if params.keep_margin is None:
        stats.keep_margin = kn.keep_margin(obs, KEEP_MARGIN)
    else:
        stats.keep_margin = params.keep_margin
    stats.keep_z = kn.keep_confidence(obs)
    return stats


def _playout(world: State, kn: Knowledge, root_round: int, rng: random.Random, random_rollout: bool,
             me: int) -> int:
    """Play ``world`` out to the game's cut-off (a search by seat ``me``); return the
    number of moves played."""
    cutoff = kn.cutoff
    moves = 0
    if random_rollout:
        while not cutoff(world, root_round):
            legal = world.legal_actions()
            world.apply_action(legal[int(rng.random() * len(legal))])
            moves += 1
    else:
        policy = kn.rollout_for(me)
        while not cutoff(world, root_round):
            world.apply_action(policy(world, rng))
            moves += 1
    return moves


def _candidates(kn: Knowledge, obs: Observation, rng: random.Random) -> list[int]:
    """The root moves the flat search compares: the game's short list where its
    knowledge has one (``candidates(obs, rng)``), else every legal move."""
    shortlist = getattr(kn, "candidates", None)
    if shortlist is None:
        return list(obs.legal_actions)
    moves: list[int] = shortlist(obs, rng)
    return moves


def _clearly_worse(pair: list[float], z: float) -> bool:
    """Whether a move's paired difference to the prior's, ``[n, sum, sum of squares]``,
    is below zero by more than ``z`` standard errors."""
    n = pair[0]
    mean = pair[1] / n
    var = max(PAIRED_VAR_FLOOR, (pair[2] / n - mean * mean) * n / (n - 1))
    return mean + z * math.sqrt(var / n) < 0.0


def _record_paired(stats: RootStats, prior: int, results: list[tuple[int, float]]) -> None:
    """Add one world's values of the root moves to their paired differences to ``prior``'s."""
    base = next(v for a, v in results if a == prior)
    for a, v in results:
        if a != prior:
            d = v - base
            row = stats.paired.setdefault(a, [0, 0.0, 0.0])
            row[0] += 1
            row[1] += d
            row[2] += d * d


def _playout_budget(params: SearchParams, done: int, steps: int, elapsed: float) -> int:
    """The flat search's play-outs in all: ``params.iterations``, else what the clock
    allows at the rate so far; at most what ``params.steps`` allow at that rate."""
    if params.iterations is not None:
        total = params.iterations
    elif params.steps is None:
        total = int(done / max(elapsed, 1e-6) * (params.seconds or 0.0))
    else:
        total = 1 << 62
    if params.steps is not None:
        total = min(total, done * params.steps // max(1, steps))
    return total


def _halve(remaining: list[int], stats: RootStats) -> list[int]:
    """Sequential halving: the better half of ``remaining`` by mean value (at least two),
    and the prior, which always stays."""
    remaining.sort(key=lambda x: -stats.value_sums[x] / stats.visits[x])
    survivors = remaining[:max(2, (len(remaining) + 1) // 2)]
    if stats.prior is not None and stats.prior in remaining and stats.prior not in survivors:
        survivors.append(stats.prior)
    return survivors


def _world_playouts(
    world: State,
    moves: list[int],
    kn: Knowledge,
    root_round: int,
    me: int,
    play_seed: int,
    batch: KernelBatch | None,
    fast: Callable[[State, int, int, int], tuple[float, int] | None] | None,
    random_rollout: bool,
) -> list[tuple[float, int]]:
    """(value for ``me``, play-out moves) of each root move in ``moves`` played out in
    ``world``: one kernel call for all of them where the knowledge has one, else one
    play-out per move from the same seed (compiled where possible)."""
    played = None if batch is None else batch(world, moves, root_round, me)
    if played is not None:
        return played
    out: list[tuple[float, int]] = []
    for a in moves:
        w = world.clone()
        w.apply_action(a)
        compiled = None if fast is None else fast(w, root_round, me, play_seed)
        if compiled is None:
            length = _playout(w, kn, root_round, random.Random(play_seed), random_rollout, me)
            out.append((kn.evaluate(w)[me], length))
        else:
            out.append(compiled)
    return out


def _pimc(obs: Observation, params: SearchParams, seed: int, kn: Knowledge) -> RootStats:
    """Flat determinized Monte Carlo with common worlds and sequential halving.

    Where the game's knowledge sets ``race_z`` (Lost Cities), a move whose paired
    difference to the prior's is below zero by that many standard errors (after
    :data:`RACE_MIN_WORLDS` worlds) is dropped at once, and the search ends when only
    the prior is left: time goes to the close decisions."""
    clock = params.clock()
    start = clock()
    rng = random.Random(seed)
    me = obs.player
    stats = RootStats()
    if params.root_actions is None:
        remaining = _candidates(kn, obs, rng)
    else:
        remaining = [a for a in params.root_actions if a in obs.legal_actions]
        if not remaining:
            raise ValueError(f"root_actions {params.root_actions} hold no legal move of seat {obs.player}")
    if params.prior and len(remaining) > 1:
        stats.prior = kn.prior(obs, seed)
        if stats.prior not in obs.legal_actions:
            stats.prior = None
        elif stats.prior not in remaining:
            remaining.append(stats.prior)
    for a in remaining:
        stats.visits[a] = 0
        stats.value_sums[a] = 0.0
    random_rollout = params.rollout == "random"
    # The game's compiled policy play-out, where its knowledge has one (the same policy).
    fast = None if random_rollout or not params.kernel else _kernel_playout(kn)
    batch: KernelBatch | None = None if fast is None else getattr(kn, "kernel_playouts", None)
    race: float | None = getattr(kn, "race_z", None)
    deadline = start + params.seconds if params.seconds is not None else math.inf
    steps = playout_moves = 0
    phases = max(1, math.ceil(math.log2(len(remaining)))) if len(remaining) > 1 else 1
    root_round = -1
    done = 0
    worlds = 0
    phase_done = 0
    phase = 0
    while True:
        world = kn.sample_world(obs, rng)
        if root_round < 0:
            root_round = kn.round_of(world)
        play_seed = rng.getrandbits(64)
        results = []
        played = _world_playouts(world, remaining, kn, root_round, me, play_seed, batch, fast, random_rollout)
        for a, (v, moves) in zip(remaining, played):
            steps += moves
            playout_moves += moves
            stats.visits[a] += 1
            stats.value_sums[a] += v
            stats.square_sums[a] = stats.square_sums.get(a, 0.0) + v * v
            results.append((a, v))
        if stats.prior is not None:
            _record_paired(stats, stats.prior, results)
        done += len(remaining)
        steps += WORLD_SETUP_STEPS + len(remaining)  # the world's set-up and each root action
        phase_done += len(remaining)
        worlds += 1
        if race is not None and stats.prior is not None and worlds >= RACE_MIN_WORLDS:
            remaining = [a for a in remaining if a == stats.prior or not _clearly_worse(stats.paired[a], race)]
            if len(remaining) == 1:  # the heuristic's move is clearly the best: done
                break
        now = clock()
        total = _playout_budget(params, done, steps, now - start)
        if done >= total or now >= deadline:
            break
        if len(remaining) > 1 and phase < phases - 1 and phase_done >= total / phases:
            remaining = _halve(remaining, stats)
            phase += 1
            phase_done = 0
    stats.iterations = worlds
    stats.steps = steps
    stats.playout_moves = playout_moves
    stats.seconds = clock() - start
    # The last survivors were played out in every world, the eliminated ones in fewer:
    # the most visited actions, best mean first, are the paired comparison's winners.
    return stats


KernelValues = Callable[[State, int, int, int], "tuple[list[float], int] | None"]
"""A knowledge's ``kernel_values(world, root_round, me, seed)``: the compiled policy
play-out of ``world`` to the cut-off (its random numbers from ``seed``), the per-seat
values there and the moves played, or ``None`` where the kernel does not play the game."""


KernelBatch = Callable[[State, list[int], int, int], "list[tuple[float, int]] | None"]
"""A knowledge's ``kernel_playouts(world, actions, root_round, me)`` (Lost Cities): the
compiled play-outs of a root world after each of the root ``actions``, in one call —
``me``'s value and the moves played for each, as its ``kernel_playout`` would give them
one by one, or ``None`` where the kernel does not play the game."""


def _kernel_playout(kn: Knowledge) -> Callable[[State, int, int, int], tuple[float, int] | None] | None:
    """The flat search's compiled play-out, ``(world, root_round, me, seed) -> (me's value,
    moves)``: the knowledge's ``kernel_values`` for seat ``me``, else its seedless
    ``kernel_playout`` (a deterministic policy, Lost Cities), else ``None``."""
    values: KernelValues | None = getattr(kn, "kernel_values", None)
    if values is not None:
        def play(world: State, root_round: int, me: int, seed: int) -> tuple[float, int] | None:
            got = values(world, root_round, me, seed)
            return None if got is None else (got[0][me], got[1])

        return play
    seedless: Callable[[State, int, int], tuple[float, int] | None] | None = getattr(kn, "kernel_playout", None)
    if seedless is None:
        return None
    return lambda world, root_round, me, seed: seedless(world, root_round, me)


def _descend(world: State, root: _Node, root_round: int, rng: random.Random,
             cutoff: Callable[[State, int], bool], c: float, prior: int | None, bias: float) -> tuple[list[tuple[list[Any], int]], int]:
    """ISMCTS selection and expansion in ``world``, from ``root`` down to the first new
    edge or the cut-off: the path of ``(edge, player)`` taken and the actions applied.

    An action seen for the first time is tried first (the prior's at the root); else the
    highest UCB score wins, availability counts standing in for the parent's visits, and
    the prior's edge at the root gets ``bias / (visits + 1)`` more."""
    log = math.log
    sqrt = math.sqrt
    node = root
    path: list[tuple[list[Any], int]] = []
    steps = 0
    while not cutoff(world, root_round):
        legal = world.legal_actions()
        steps += 1  # one action applied below, whichever it is
        if len(legal) == 1:
            world.apply_action(legal[0])
            continue
        p = world.current_player()
        edges = node.edges
        fresh: list[int] = []
        for a in legal:
            e = edges.get(a)
            if e is None:
                fresh.append(a)
            else:
                e[2] += 1
        if fresh:
            if node is root and prior in fresh:
                a = prior
            else:
                a = fresh[int(rng.random() * len(fresh))]
            e = edges[a] = [0, 0.0, 1, None, 0.0]
            for b in fresh:
                if b != a:
                    edges[b] = [0, 0.0, 1, None, 0.0]
            world.apply_action(a)
            path.append((e, p))
            break
        best_score = -math.inf
        best_edge: list[Any] = []
        best_action = legal[0]
        for a in legal:
            e = edges[a]
            n = e[0]
            if n == 0:
                score = math.inf
            else:
                score = e[1] / n + c * sqrt(log(e[2]) / n)
                if node is root and a == prior:
                    score += bias / (n + 1)
            if score > best_score:
                best_score, best_edge, best_action = score, e, a
        world.apply_action(best_action)
        path.append((best_edge, p))
        if best_edge[0] == 0:
            break
        child = best_edge[3]
        if child is None:
            child = best_edge[3] = _Node()
        node = child
    return path, steps


def _ismcts(obs: Observation, params: SearchParams, seed: int, kn: Knowledge) -> RootStats:
    """Single-observer ISMCTS (the module docstring); stops at the first iteration
    after which a budget is used up."""
    clock = params.clock()
    start = clock()
    rng = random.Random(seed)
    legal_root = list(obs.legal_actions)
    stats = RootStats()
    if params.prior and len(legal_root) > 1:
        stats.prior = kn.prior(obs, seed)
        if stats.prior not in legal_root:
            stats.prior = None
    root = _Node()
    worlds = _Worlds(obs, rng, params.world_pool if params.world_pool is not None else kn.world_pool, kn)
    root_round = kn.round_of(worlds.next())
    deadline = start + params.seconds if params.seconds is not None else math.inf
    limit = params.iterations if params.iterations is not None else 1 << 62
    c = params.exploration if params.exploration is not None else kn.exploration
    bias = params.prior_bias if stats.prior is not None else 0.0
    prior = stats.prior
    random_rollout = params.rollout == "random"
    cutoff = kn.cutoff
    me = obs.player
    step_limit = params.steps if params.steps is not None else 1 << 62
    # The game's compiled policy play-out, where its knowledge has one (the same policy).
    fast: KernelValues | None = None if random_rollout or not params.kernel else getattr(kn, "kernel_values", None)
    steps = playout_moves = 0
    done = 0
    while done < limit and steps < step_limit and (done == 0 or clock() < deadline):
        world = worlds.next()
        steps += WORLD_SETUP_STEPS
        path, descent = _descend(world, root, root_round, rng, cutoff, c, prior, bias)
        steps += descent
        # --- play-out (none when the descent reached the cut-off)
        # the kernel's random numbers do not come from rng: a knowledge that declines
        # (None: no kernel for these rules) leaves the search as it is in Python
        compiled = None if fast is None else fast(world, root_round, me, (seed ^ done * 0x9E3779B1) & 0xFFFFFFFF)
        if compiled is None:
            moves = _playout(world, kn, root_round, rng, random_rollout, me)
            values = kn.evaluate(world)
        else:
            values, moves = compiled
        steps += moves
        playout_moves += moves
        # --- back-up
        if path:
            first = path[0][0]
            v0 = values[path[0][1]]
            first[4] += v0 * v0
        for e, p in path:
            e[0] += 1
            e[1] += values[p]
        done += 1
    for a, e in root.edges.items():
        if e[0]:
            stats.visits[a] = e[0]
            stats.value_sums[a] = e[1]
            stats.square_sums[a] = e[4]
    for a in legal_root:  # every legal action appears, visited or not
        stats.visits.setdefault(a, 0)
        stats.value_sums.setdefault(a, 0.0)
    stats.iterations = done
    stats.steps = steps
    stats.playout_moves = playout_moves
    stats.seconds = clock() - start
    return stats


def _search_task(obs: Observation, params: SearchParams, seed: int) -> RootStats:
    return search(obs, params, seed)


# ---------------------------------------------------------------------------
# Agents


class ISMCTSAgent(Agent):
    """Single-observer ISMCTS (see the module docstring).

    Options: ``iterations=``, ``steps=``, ``seconds=`` (default 0.7 s when no budget
    is given), ``cpu=`` (``seconds`` of the thread's CPU time), ``rollout="policy"|"random"``, ``jobs=`` (root parallelism over
    processes), ``exploration=``, ``prior=``, ``keep_margin=``, ``world_pool=``,
    ``mode=``.
    """

    name: ClassVar[str] = "ismcts"
    defaults: ClassVar[dict[str, Any]] = {"seconds": 0.7}

    def __init__(self, game: Game, *, seed: int = 0, **options: Any) -> None:
        super().__init__(game, seed=seed)
        settings = dict(self.defaults)
        if ("iterations" in options or "steps" in options) and "seconds" not in options:
            settings.pop("seconds", None)
        settings.update(options)
        jobs = settings.pop("jobs", 1)
        if not isinstance(jobs, int) or isinstance(jobs, bool) or jobs < 1:
            raise ValueError(f"jobs must be a positive whole number, not {jobs!r}")
        known = set(SearchParams.__dataclass_fields__)
        unknown = sorted(set(settings) - known)
        if unknown:
            raise ValueError(f"agent {self.name!r} takes no options {unknown}; it takes {sorted(known | {'jobs'})}")
        self.params = SearchParams(**settings)
        self.jobs = jobs
        self.knowledge = knowledge_for(game)
        if self.params.leaf is not None:
            self.knowledge = self.knowledge.with_leaf_policy(self.params.leaf)
        self._pool: Executor | None = None
        self.last: RootStats | None = None
        """The root statistics of the last decision (for hints and tests)."""

    def analyse(self, obs: Observation) -> RootStats:
        """Search ``obs`` and return the root statistics (also kept as :attr:`last`)."""
        seed = self.rng.getrandbits(63)
        if self.jobs == 1:
            stats = search(obs, self.params, seed, self.knowledge)
        else:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(max_workers=self.jobs)
            futures = [self._pool.submit(_search_task, obs, self.params, seed + 7919 * i) for i in range(self.jobs)]
            parts = [f.result() for f in futures]
            stats = RootStats(prior=parts[0].prior, keep_margin=parts[0].keep_margin, keep_z=parts[0].keep_z)
            for part in parts:
                stats.add(part)
        self.last = stats
        return stats

    def act(self, obs: Observation) -> int:
        legal = obs.legal_actions
        if len(legal) == 1:
            return legal[0]
        if self.params.prior and not self.knowledge.worth_searching(obs):
            choice = self.knowledge.prior(obs, self.rng.getrandbits(63))
            if choice is not None and choice in legal:
                return choice
        return self.analyse(obs).choose()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None

    def __del__(self) -> None:
        pool = getattr(self, "_pool", None)
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.params}, jobs={self.jobs})"


class MediumAgent(ISMCTSAgent):
    """``medium``: a short search, at most 0.2 s per decision."""

    name = "medium"
    defaults = {"seconds": 0.1}


class HardAgent(ISMCTSAgent):
    """``hard``: the full search, at most 1 s per decision (95th percentile)."""

    name = "hard"
    defaults = {"seconds": 0.7}


class EasyAgent(Agent):
    """``easy``: the heuristic bot with a share of random moves (default one in four)."""

    name = "easy"

    def __init__(self, game: Game, *, seed: int = 0, noise: float = 0.25) -> None:
        super().__init__(game, seed=seed)
        if isinstance(noise, bool) or not isinstance(noise, (int, float)) or not 0.0 <= noise <= 1.0:
            raise ValueError(f"noise must be between 0 and 1, not {noise!r}")
        self.noise = noise
        self.knowledge = knowledge_for(game)

    def act(self, obs: Observation) -> int:
        legal = obs.legal_actions
        if len(legal) == 1:
            return legal[0]
        if self.rng.random() < self.noise:
            return self.rng.choice(legal)
        choice = self.knowledge.prior(obs, self.rng.getrandbits(63))
        return choice if choice is not None and choice in legal else self.rng.choice(legal)


# ---------------------------------------------------------------------------
# Hints


@dataclass(frozen=True)
class HintFacts:
    """What a hint says, as data for the front ends to put in words in their language.

    ``move`` is the suggested move's notation (``None``: not the seat's turn);
    ``only`` when it is the one legal move; otherwise ``value`` is its estimate in
    percent, ``label`` what the estimate means (the knowledge's
    :meth:`~cardtable.agents.knowledge.Knowledge.value_label`), ``others`` the next best
    moves with their estimates and ``spread`` the ±2 standard errors in percent when
    one of them looks better than the choice.
    """

    move: str | None
    only: bool = False
    value: int = 0
    label: str = ""
    others: tuple[tuple[str, int], ...] = ()
    spread: int | None = None

    def text(self) -> str:
        """The hint in English: ``"Suggested: play Y7 — est. win 62 %; next best: …"``."""
        if self.move is None:
            return "No move to suggest: it is not your turn."
        if self.only:
            return f"Suggested: {self.move} — the only legal move."
        out = f"Suggested: {self.move} — est. {self.label} {self.value} %"
        if self.others:
            out += "; next best: " + ", ".join(f"{move} {value} %" for move, value in self.others)
        if self.spread is not None:
            out += f" (estimates ±{self.spread} %)"
        return out


def hint_facts(state_or_obs: State | Observation, seat: int | None = None, *, seconds: float = 0.6,
               iterations: int | None = None, seed: int = 0, top: int = 3) -> HintFacts:
    """The AI's suggested move for ``seat`` with the estimated values of the best few.

    ``state_or_obs`` is the table (only ``seat``'s observation of it is used) or an
    observation.
    """
    if isinstance(state_or_obs, Observation):
        obs = state_or_obs
    else:
        obs = Observation.of(state_or_obs, seat)
    if not obs.legal_actions:
        return HintFacts(None)
    if len(obs.legal_actions) == 1:
        return HintFacts(obs.action_to_string(obs.legal_actions[0]), only=True)
    options: dict[str, Any] = {"iterations": iterations} if iterations is not None else {"seconds": seconds}
    agent = HardAgent(obs.game, seed=seed, **options)
    stats = agent.analyse(obs)
    choice = stats.choose()
    rows = [r for r in stats.ranked() if r[1] > 0]

    def pct(value: float) -> int:
        return round(50 * (value + 1))

    others = sorted((r for r in rows if r[0] != choice), key=lambda r: -r[2])[: max(0, top - 1)]
    spread = None
    n = stats.visits.get(choice, 0)
    if others and n and any(v > stats.mean(choice) for _, _, v in others):
        spread = max(1, round(100 * math.sqrt(stats._var(choice) / n)))  # ±2 SE in percent of [-1, 1] → [0, 100]
    return HintFacts(obs.action_to_string(choice), value=pct(stats.mean(choice)), label=agent.knowledge.value_label(),
                     others=tuple((obs.action_to_string(a), pct(v)) for a, _, v in others), spread=spread)


def hint(state_or_obs: State | Observation, seat: int | None = None, *, seconds: float = 0.6,
         iterations: int | None = None, seed: int = 0, top: int = 3) -> str:
    """The AI's suggested move for ``seat`` with the estimated values of the best few, in
    English: e.g. ``"Suggested: play Y7 — est. win 62 %; next best: discard B3 54 %,
    draw deck 50 %"`` (:func:`hint_facts` as text)."""
    return hint_facts(state_or_obs, seat, seconds=seconds, iterations=iterations, seed=seed, top=top).text()


def hint_text(state: State, seat: int) -> str:
    """The hint shown by ``cardtable play`` when the human types ``?`` or ``hint``."""
    return hint(state, seat, seed=len(state.history))


__all__ = [
    "EasyAgent",
    "HardAgent",
    "ISMCTSAgent",
    "MediumAgent",
    "RootStats",
    "SearchParams",
    "HintFacts",
    "hint",
    "hint_facts",
    "hint_text",
    "search",
]
