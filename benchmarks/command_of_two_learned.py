"""Command of Two: a policy learned from heuristic self-play, and the search over it.

The lever the fourteenth session left (docs/strength.md, "Fifteenth session"): a player
stronger than the heuristic, learned rather than tuned, to continue the search's
play-outs in its own seat — the Lost Cities lever, where the search improved on a
stronger style.  Everything heavy runs in the compiled kernel
(:mod:`learned_policy_kernel`):

``collect OUT --matches N --seed S``
    Heuristic self-play; at every decision with a choice, each legal move is played on
    the true deal and continued by the heuristic to the round's end
    (``--continuations`` times, the same random numbers for every move).  A move's
    label is the mover's value there (the search's own: the chance to win the match
    from the totals, :meth:`LostRanksKnowledge.red_value`).  The regression of these
    labels on what the seat knows estimates the move's value given the seat's
    information (the deals the self-play reaches average out), with no clairvoyance.
``train OUT DATA… --test DATA``
    A one-hidden-layer network ``Q = MLP(x)[move] + wh * heuristic value`` fitted to
    the labels, centred per decision (only differences between moves matter), by Adam
    in numpy; after each epoch the held-out gain (mean label of the chosen move minus
    the heuristic's, over all decisions of ``--test``) is printed and the weights saved
    (``OUT``, ``OUT.epochN.npz``).
``duel WEIGHTS --deals N --seed S --margin M``
    The learned policy (the heuristic's move unless another's ``Q`` leads by ``M``)
    against the heuristic, every deal played from both seats; prints its share of the
    matches (draws half) with the standard error over deals.
``matches WEIGHTS ENTRY --deals N --seed S --out F``
    Duplicate matches of the search ``ENTRY`` against the heuristic (each deal from both
    seats), its own seat's play-outs played by the learned policy (``--weights none``:
    the default play-outs, for the paired baseline); one JSON line per match, resumable.
    ``--opponent W``: against the learned policy with weights ``W`` (:class:`LearnedPlayer`,
    at ``--margin``) instead — an opponent stronger than the heuristic that the search,
    whose play-outs model the heuristic, has never seen (sixteenth session).
    ``--model-opponent``: the learned policy ``WEIGHTS`` plays the *opponent's* seat of the
    play-outs and the heuristic the search's own (the search that models that opponent).
    ``--mixture P``: only a share ``P`` of the worlds so, the rest by the heuristic in
    both seats (an opponent model mixing the two policies; seventeenth session).
    ``--against ENTRY``: against that agent (e.g. the default search) played with the
    game's own knowledge, a third opponent the search under test was not built against.

::

    python benchmarks/command_of_two_learned.py collect d1.npz --matches 3000 --seed 300
    python benchmarks/command_of_two_learned.py train w.npz d1.npz d2.npz --test t.npz --epochs 6
    python benchmarks/command_of_two_learned.py duel w.npz --deals 3000 --seed 2000000 --margin 0.02
    python benchmarks/command_of_two_learned.py matches w.npz ismcts:seconds=0.1:cpu=true --deals 100 --seed 30000 --out m.jsonl
    python benchmarks/command_of_two_learned.py matches none heuristic --deals 100 --seed 40000 --opponent w.npz --out h.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import learned_policy_kernel as L  # noqa: E402

from cardtable.agents import Agent, Observation, make_agent  # noqa: E402
from cardtable.agents.knowledge import knowledge_for  # noqa: E402
from cardtable.games.lost_ranks import decisions as D  # noqa: E402
from cardtable.games.lost_ranks import kernel as K  # noqa: E402
from cardtable.games.lost_ranks.heuristic import knowledge  # noqa: E402
from cardtable.games.lost_ranks.knowledge import LostRanksKnowledge  # noqa: E402
from cardtable.games.lost_ranks.rules import LostRanks  # noqa: E402
from cardtable.lab.series import play_match  # noqa: E402
from cardtable.protocol import Game  # noqa: E402
from cardtable.registry import load_game  # noqa: E402

WIDTH = 20
"""Most legal moves kept per decision (Command of Two has at most 18: a 17-card hand and
draw two)."""

Data = dict[str, Any]


def command_of_two() -> LostRanks:
    game = load_game("lost-ranks", players=2)
    assert isinstance(game, LostRanks)
    return game


# --- data -----------------------------------------------------------------------------------


def collect(game: LostRanks, matches: int, seed: int, continuations: int = 2, policy: Network | None = None,
            margin: float = 0.02) -> Data:
    """The labelled decisions of ``matches`` self-play matches
    (:func:`learned_policy_kernel.collect`; heuristic self-play, or with ``policy`` one
    seat playing it, its decisions only): knowledge ``k``, ``legal`` moves (-1 pad),
    their ``count``, the heuristic's values ``hval``, the move played ``chosen`` (an
    index), and each move's label ``value`` for the mover (the mean over the
    continuations)."""
    target, max_rounds, force = K._options(game)
    limit = matches * 260
    ks = np.zeros((limit, D.KNOWLEDGE), np.int64)
    legals = np.full((limit, WIDTH), -1, np.int64)
    counts, chosen = np.zeros(limit, np.int64), np.zeros(limit, np.int64)
    hvals = np.zeros((limit, 54))
    results = np.zeros((limit, WIDTH, continuations, L.RESULT), np.int64)
    weights = (policy if policy is not None else Network(hidden=1)).compiled() + (margin,)
    rows = L.collect(matches, seed, continuations, target, max_rounds, force, ks, legals, counts, hvals, chosen,
                     results, policy is not None, weights)
    kn = LostRanksKnowledge(game)
    cache: dict[tuple[int, ...], float] = {}
    values = np.zeros((rows, WIDTH))
    for i in range(rows):
        mover_red = ks[i, D.ARMY + ks[i, D.ME]] == K.RED
        for j in range(counts[i]):
            total = 0.0
            for c in range(continuations):
                row = tuple(int(v) for v in results[i, j, c])
                v = cache.get(row)
                if v is None:
                    v = cache[row] = kn.red_value(*row)
                total += v
            values[i, j] = (total if mover_red else -total) / continuations
    return {"k": ks[:rows], "legal": legals[:rows], "count": counts[:rows], "hval": hvals[:rows, :WIDTH],
            "chosen": chosen[:rows], "value": values}


def design(data: Data) -> tuple[np.ndarray, ...]:
    """The network's inputs: ``X`` (features per decision), ``A`` (output per legal
    move, -1 pad), ``H`` (heuristic values), ``V`` (labels)."""
    n = len(data["count"])
    X = np.zeros((n, L.FEATURES), np.float32)
    A = np.full((n, WIDTH), -1, np.int64)
    x = np.zeros(L.FEATURES)
    for i in range(n):
        k = data["k"][i]
        L.features(k, x)
        X[i] = x
        for j in range(int(data["count"][i])):
            A[i, j] = L.action_name(int(data["legal"][i, j]), int(k[D.TRUMP]))
    H = np.where(A >= 0, data["hval"], 0.0).astype(np.float32)
    V = np.where(A >= 0, data["value"], 0.0).astype(np.float32)
    return X, A, H, V


def load_data(paths: Sequence[str]) -> Data:
    parts = [dict(np.load(p)) for p in paths]
    return {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}


# --- the network ----------------------------------------------------------------------------


class Network:
    """``Q(x)[a] = relu(x W1 + b1) W2[:, a] + b2[a] + wh * heuristic value``."""

    PARAMETERS = ("w1", "b1", "w2", "b2", "wh")

    def __init__(self, hidden: int = 256, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        self.w1 = (rng.standard_normal((L.FEATURES, hidden)) * math.sqrt(2.0 / L.FEATURES)).astype(np.float32)
        self.b1 = np.zeros(hidden, np.float32)
        self.w2 = (rng.standard_normal((hidden, L.ACTIONS)) * 0.01).astype(np.float32)
        self.b2 = np.zeros(L.ACTIONS, np.float32)
        self.wh = np.zeros(1, np.float32)

    def q(self, X: np.ndarray, A: np.ndarray, H: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each legal move's ``Q`` (and the hidden layer)."""
        h = np.maximum(X @ self.w1 + self.b1, 0.0)
        out = h @ self.w2 + self.b2
        return np.take_along_axis(out, np.maximum(A, 0), 1) + self.wh[0] * H, h

    def choose(self, X: np.ndarray, A: np.ndarray, H: np.ndarray, prior: np.ndarray, margin: float) -> np.ndarray:
        """The chosen move's index per decision: ``prior``'s unless another's ``Q`` leads by ``margin``."""
        Q = np.where(A >= 0, self.q(X, A, H)[0], -np.inf)
        best = Q.argmax(1)
        rows = np.arange(len(Q))
        return np.where(Q[rows, best] - Q[rows, prior] > margin, best, prior)

    def gradients(self, X: np.ndarray, A: np.ndarray, H: np.ndarray, V: np.ndarray) -> tuple[float, dict[str, Any]]:
        """The centred squared error (half its sum over the batch, per decision) and its gradients."""
        legal = (A >= 0).astype(np.float32)
        n = legal.sum(1, keepdims=True)
        Q, h = self.q(X, A, H)
        err = ((Q - (Q * legal).sum(1, keepdims=True) / n) - (V - (V * legal).sum(1, keepdims=True) / n)) * legal
        g = (err - legal * err.sum(1, keepdims=True) / n) / len(X)
        g_out = np.zeros((len(X), L.ACTIONS), np.float32)
        np.add.at(g_out, (np.repeat(np.arange(len(X)), A.shape[1]), np.maximum(A, 0).ravel()), (g * legal).ravel())
        g_h = (g_out @ self.w2.T) * (h > 0)
        grads = {"w1": X.T @ g_h, "b1": g_h.sum(0), "w2": h.T @ g_out, "b2": g_out.sum(0),
                 "wh": np.array([(g * H).sum()], np.float32)}
        return 0.5 * float((err ** 2).sum()) / len(X), grads

    def fit(self, X: np.ndarray, A: np.ndarray, H: np.ndarray, V: np.ndarray, *, epochs: int, lr: float = 1e-3,
            batch: int = 512, l2: float = 1e-5, seed: int = 0,
            after_epoch: Callable[[int, float], None] | None = None) -> None:
        """Adam on minibatches; ``after_epoch(epoch, mean loss)``."""
        rng = np.random.default_rng(seed)
        first = {p: np.zeros_like(getattr(self, p)) for p in self.PARAMETERS}
        second = {p: np.zeros_like(getattr(self, p)) for p in self.PARAMETERS}
        step = 0
        for epoch in range(epochs):
            order, total = rng.permutation(len(X)), 0.0
            for start in range(0, len(X), batch):
                rows = order[start:start + batch]
                loss, grads = self.gradients(X[rows], A[rows], H[rows], V[rows])
                total += loss * len(rows)
                step += 1
                for p in self.PARAMETERS:
                    g = grads[p] + (l2 * getattr(self, p) if p in ("w1", "w2") else 0.0)
                    first[p] = 0.9 * first[p] + 0.1 * g
                    second[p] = 0.999 * second[p] + 0.001 * g * g
                    update = lr * (first[p] / (1 - 0.9 ** step)) / (np.sqrt(second[p] / (1 - 0.999 ** step)) + 1e-8)
                    setattr(self, p, (getattr(self, p) - update).astype(np.float32))
            if after_epoch is not None:
                after_epoch(epoch, total / len(X))

    def save(self, path: str) -> None:
        np.savez(path, **{p: getattr(self, p) for p in self.PARAMETERS})

    @classmethod
    def load(cls, path: str) -> Network:
        saved = np.load(path)
        net = cls(hidden=saved["b1"].shape[0])
        for p in cls.PARAMETERS:
            setattr(net, p, saved[p].astype(np.float32))
        return net

    def compiled(self) -> tuple[Any, ...]:
        """The weights as :func:`learned_policy_kernel.learned_choice` takes them."""
        return (np.asarray(self.w1, np.float64), np.asarray(self.b1, np.float64),
                np.ascontiguousarray(np.asarray(self.w2, np.float64).T), np.asarray(self.b2, np.float64),
                float(self.wh[0]))


def heuristic_moves(data: Data) -> np.ndarray:
    """The heuristic's move (an index) at each decision: its best value."""
    legal = np.arange(data["hval"].shape[1]) < data["count"][:, None]
    return np.asarray(np.where(legal, data["hval"], -np.inf).argmax(1))


def gain(choice: np.ndarray, data: Data) -> tuple[float, float, int]:
    """Mean label of the chosen moves minus the heuristic's, its standard error, and how
    many choices differ from the heuristic's."""
    rows, prior = np.arange(len(choice)), heuristic_moves(data)
    diff = data["value"][rows, choice] - data["value"][rows, prior]
    return float(diff.mean()), float(diff.std() / math.sqrt(len(diff))), int((choice != prior).sum())


# --- play -----------------------------------------------------------------------------------


def duel(game: LostRanks, net: Network, deals: int, seed: int, margin: float) -> dict[str, Any]:
    """The learned policy against the heuristic on ``deals`` deals from both seats."""
    target, max_rounds, force = K._options(game)
    start = time.process_time()
    seats = []
    for seat in (0, 1):
        out = np.zeros(deals, np.int64)
        L.duel(deals, seed, seat, target, max_rounds, force, net.compiled() + (margin,), out)
        seats.append(np.where(out == 0, 0.5, (out + 1) / 2))
    per_deal = (seats[0] + seats[1]) / 2
    return {"margin": margin, "deals": deals, "seed": seed, "share": round(float(per_deal.mean()), 4),
            "se": round(float(per_deal.std() / math.sqrt(deals)), 4), "cpu": round(time.process_time() - start, 1),
            "load": round(os.getloadavg()[0], 2)}


def workspace(net: Network) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Scratch arrays for :func:`learned_move` (inputs, hidden layer, move values)."""
    return np.zeros(L.FEATURES), np.zeros(net.b1.shape[0]), np.zeros(54)


def learned_move(policy: tuple[Any, ...], obs: Observation, heuristic_move: int, *work: np.ndarray) -> int:
    """The learned policy's move at ``obs`` (``policy`` = compiled weights + margin):
    ``heuristic_move`` unless another legal move's ``Q`` leads it by the margin."""
    legal = sorted(obs.legal_actions)
    moves = np.zeros(54, np.int64)
    moves[:len(legal)] = legal
    k = np.asarray(knowledge(obs.view), np.int64)
    return legal[int(L.choice_from_knowledge(k, moves, len(legal), legal.index(heuristic_move), *policy, *work))]


class LearnedPlayer(Agent):
    """The learned policy as a bot (an opponent the search has never modelled): the
    heuristic bot's move unless another's ``Q`` leads it by ``margin``."""

    name = "learned"

    def __init__(self, game: Game, net: Network, margin: float, *, seed: int = 0) -> None:
        super().__init__(game, seed=seed)
        self.heuristic = make_agent("heuristic", game, seed=seed)
        self.policy = net.compiled() + (margin,)
        self.work = workspace(net)

    def act(self, obs: Observation) -> int:
        return learned_move(self.policy, obs, self.heuristic.act(obs), *self.work)


PATCHED = ("kernel_values", "prior")
"""What :func:`learned_search` replaces on the game's (shared) search knowledge."""


class DefaultPlayer(Agent):
    """The agent ``spec`` played with the game's own search knowledge, even inside a
    :func:`learned_search` block (which patches the one knowledge all searches of the
    game share): an opponent that is not the search under test, e.g. the default search."""

    name = "default"

    def __init__(self, game: Game, spec: str, *, seed: int = 0) -> None:
        super().__init__(game, seed=seed)
        self.inner = make_agent(spec, game, seed=seed)
        self.knowledge = knowledge_for(game)

    def act(self, obs: Observation) -> int:
        patched = {k: self.knowledge.__dict__.pop(k) for k in PATCHED if k in self.knowledge.__dict__}
        try:
            return self.inner.act(obs)
        finally:
            self.knowledge.__dict__.update(patched)


@contextmanager
def learned_search(game: LostRanks, net: Network, margin: float, *, playouts: bool = True,
                   prior: bool = False, opponent: bool = False, mixture: float = 1.0) -> Iterator[None]:
    """While the block runs, the game's search knowledge plays its own seat's play-outs
    by the learned policy (``playouts``; the opponent's stay the heuristic's — or, with
    ``opponent``, the opponent's seat by the learned policy and its own by the heuristic)
    and takes the learned policy's move as the move to keep unless another clearly leads
    (``prior``; else the heuristic's).  ``mixture``: the share of worlds played so (the
    rest by the heuristic in both seats) — an opponent model that mixes two policies,
    drawn per world from the world's play-out seed, so every root move of a world meets
    the same opponent."""
    if not 0.0 <= mixture <= 1.0:
        raise ValueError(f"mixture is a share of worlds, from 0 to 1, not {mixture}")
    kn = knowledge_for(game)
    assert isinstance(kn, LostRanksKnowledge)
    policy = net.compiled() + (margin,)
    x, h, hv = workspace(net)

    def kernel_values(world: Any, root_round: int, me: int, seed: int) -> tuple[list[float], int]:
        if kn.cutoff(world, root_round):
            return kn.evaluate(world), 0
        if mixture < 1.0 and not mixed_in(seed, mixture):
            return LostRanksKnowledge.kernel_values(kn, world, root_round, me, seed)
        results = np.zeros((kn.leaf_playouts, L.RESULT), np.int64)
        learner = 1 - me if opponent else me
        moves = int(L.learned_rounds(K.export(world), seed & 0xFFFFFFFF, results, learner, policy))
        v = sum(kn.red_value(*(int(x) for x in row)) for row in results) / len(results)
        return [v if army == 0 else -v for army in world.armies], moves

    def learned_prior(obs: Observation, seed: int) -> int | None:
        move = LostRanksKnowledge.prior(kn, obs, seed)
        return None if move is None else learned_move(policy, obs, move, x, h, hv)

    if playouts:
        kn.kernel_values = kernel_values  # type: ignore[method-assign]
    if prior:
        kn.prior = learned_prior  # type: ignore[method-assign]
    try:
        yield
    finally:
        for name in PATCHED:
            kn.__dict__.pop(name, None)


def mixed_in(seed: int, share: float) -> bool:
    """Whether the world with play-out seed ``seed`` (the flat search's 64 random bits,
    the same for each root move) is among the ``share`` played by the learned policy:
    its top 20 bits, which the kernel's own random numbers (the low 32) do not use."""
    return ((seed >> 44) & 0xFFFFF) < share * (1 << 20)


def matches(game: LostRanks, entry: str, deals: int, seed: int, out: str, opponent: Network | None = None,
            margin: float = 0.02, against: str | None = None) -> None:
    """Duplicate matches of ``entry`` against the heuristic (or the learned ``opponent``
    at ``margin``, or the agent ``against`` with the game's own knowledge), appended to
    ``out`` (skipping those already there)."""
    if opponent is not None and against is not None:
        raise ValueError("play against the learned policy or against an agent, not both")

    def agent_for(spec: str, g: Game, agent_seed: int) -> Agent:
        if spec == "learned" and opponent is not None:
            return LearnedPlayer(g, opponent, margin, seed=agent_seed)
        if spec == "against" and against is not None:
            return DefaultPlayer(g, against, seed=agent_seed)
        return make_agent(spec, g, seed=agent_seed)

    other = "learned" if opponent is not None else "against" if against is not None else "heuristic"
    done = set()
    if os.path.exists(out):
        with open(out) as f:
            done = {(r["seed"], r["seat"]) for r in map(json.loads, f)}
    start = time.process_time()
    for match_seed in range(seed, seed + deals):
        for seat in (0, 1):
            if (match_seed, seat) in done:
                continue
            outcome = play_match(game, [entry, other], seed=match_seed, seating=[0, 1] if seat == 0 else [1, 0],
                                 agent_for=agent_for)
            with open(out, "a") as f:
                f.write(json.dumps({"seed": match_seed, "seat": seat, "return": outcome.returns[seat],
                                    "cpu": round(time.process_time() - start, 1),
                                    "load": round(os.getloadavg()[0], 2)}) + "\n")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect")
    c.add_argument("out")
    c.add_argument("--matches", type=int, required=True)
    c.add_argument("--seed", type=int, required=True)
    c.add_argument("--continuations", type=int, default=2)
    c.add_argument("--policy", default=None,
                   help="weights: one seat plays this policy (in play and continuations), its decisions kept")
    c.add_argument("--margin", type=float, default=0.02)
    t = sub.add_parser("train")
    t.add_argument("out")
    t.add_argument("data", nargs="+")
    t.add_argument("--test", required=True)
    t.add_argument("--epochs", type=int, default=6)
    t.add_argument("--hidden", type=int, default=256)
    t.add_argument("--lr", type=float, default=1e-3)
    t.add_argument("--margin", type=float, default=0.02, help="for the held-out gain printed")
    t.add_argument("--init", default=None, help="weights to start from (else random)")
    d = sub.add_parser("duel")
    d.add_argument("weights")
    d.add_argument("--deals", type=int, default=3000)
    d.add_argument("--seed", type=int, default=2000000)
    d.add_argument("--margin", type=float, nargs="+", default=[0.02])
    m = sub.add_parser("matches")
    m.add_argument("weights", help="a weights file, or 'none' for the default play-outs")
    m.add_argument("entry")
    m.add_argument("--deals", type=int, required=True)
    m.add_argument("--seed", type=int, required=True)
    m.add_argument("--margin", type=float, default=0.02)
    m.add_argument("--prior", action="store_true", help="also keep the learned policy's move, not the heuristic's")
    m.add_argument("--prior-only", action="store_true", help="the learned prior with the default play-outs")
    m.add_argument("--model-opponent", action="store_true",
                   help="the learned policy plays the opponent's seat of the play-outs, the heuristic the search's own")
    m.add_argument("--mixture", type=float, default=1.0, metavar="SHARE",
                   help="the share of the search's worlds played so (the rest: the heuristic in both seats)")
    m.add_argument("--opponent", default=None, metavar="WEIGHTS",
                   help="play against the learned policy with these weights (at --margin), not the heuristic")
    m.add_argument("--against", default=None, metavar="ENTRY",
                   help="play against this agent (e.g. the default search), with the game's own knowledge")
    m.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    game = command_of_two()
    for value in (getattr(args, "matches", 1), getattr(args, "deals", 1), getattr(args, "epochs", 1)):
        if not isinstance(value, int) or value < 1:
            parser.error("--matches, --deals and --epochs must be at least 1")
    if args.command == "matches" and args.opponent and args.against:
        parser.error("--opponent and --against: one opponent at a time")
    if args.command == "collect":
        start = time.process_time()
        policy = Network.load(args.policy) if args.policy else None
        data = collect(game, args.matches, args.seed, args.continuations, policy, args.margin)
        np.savez_compressed(args.out, **data)
        print(f"{len(data['count'])} decisions from {args.matches} matches; cpu {time.process_time() - start:.0f} s")
    elif args.command == "train":
        train(args)
    elif args.command == "duel":
        net = Network.load(args.weights)
        for margin in args.margin:
            print(json.dumps(duel(game, net, args.deals, args.seed, margin)), flush=True)
    else:
        game.new_state(seed=0)
        opponent = Network.load(args.opponent) if args.opponent else None
        if args.weights == "none":
            matches(game, args.entry, args.deals, args.seed, args.out, opponent, args.margin, args.against)
        else:
            with learned_search(game, Network.load(args.weights), args.margin, playouts=not args.prior_only,
                                prior=args.prior or args.prior_only, opponent=args.model_opponent,
                                mixture=args.mixture):
                matches(game, args.entry, args.deals, args.seed, args.out, opponent, args.margin, args.against)


def train(args: argparse.Namespace) -> None:
    data, test = load_data(args.data), load_data([args.test])
    X, A, H, V = design(data)
    Xt, At, Ht, _ = design(test)
    net = Network.load(args.init) if args.init else Network(hidden=args.hidden)
    print(f"{len(X)} decisions to learn from, {len(Xt)} held out", flush=True)

    def report(epoch: int, loss: float) -> None:
        held_out = gain(net.choose(Xt, At, Ht, heuristic_moves(test), args.margin), test)
        net.save(f"{args.out.removesuffix('.npz')}.epoch{epoch}.npz")
        print(json.dumps({"epoch": epoch, "loss": round(loss, 5), "wh": round(float(net.wh[0]), 4),
                          "held_out_gain": round(held_out[0], 5), "se": round(held_out[1], 5),
                          "changed": held_out[2]}), flush=True)

    net.fit(X, A, H, V, epochs=args.epochs, lr=args.lr, after_epoch=report)
    net.save(args.out)


if __name__ == "__main__":
    main()
