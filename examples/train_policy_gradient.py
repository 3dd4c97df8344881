"""Train a small policy-gradient agent on a cardtable game with plain numpy.

The learner plays one seat of ``cardtable.rl.gymnasium.CardtableEnv`` against cardtable's
``random`` agent (or any agent name), sees the observation tensor, and chooses among the
legal actions (masked softmax).  The network is a one-hidden-layer MLP with a policy and
a value head, trained by advantage actor-critic on whole episodes (Adam, entropy bonus).
No deep-learning framework is needed: numpy, gymnasium and cardtable are enough
(``pip install cardtable[rl]``).

Lost Cities (the default, one round per episode) gets a dense shaping reward while
training: the change in (my expedition value − the opponent's) after each of the learner's
moves, / 100, plus ±1 at the end for a win or loss.  The win rate is then measured with
the plain environment reward against the same opponent, greedy (arg-max) play, on fresh
seeds, before and after training.

    python examples/train_policy_gradient.py                       # ~4 minutes
    python examples/train_policy_gradient.py --seconds 10 --eval 50   # a smoke run
    python examples/train_policy_gradient.py --game lost-ranks --players 2 --opponent random
"""

from __future__ import annotations

import argparse
import math
import time
from typing import Any

import numpy as np
import numpy.typing as npt

from cardtable.rl.gymnasium import CardtableEnv

Array = npt.NDArray[np.float64]


class Net:
    """MLP: obs -> tanh hidden -> (masked policy logits, value)."""

    def __init__(self, n_in: int, n_hidden: int, n_out: int, rng: np.random.Generator) -> None:
        self.p: dict[str, Array] = {
            "W1": rng.normal(0, 1 / math.sqrt(n_in), (n_in, n_hidden)),
            "b1": np.zeros(n_hidden),
            "W2": rng.normal(0, 0.01, (n_hidden, n_out)),
            "b2": np.zeros(n_out),
            "Wv": rng.normal(0, 0.01, (n_hidden, 1)),
            "bv": np.zeros(1),
        }
        self.m = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.t = 0

    def forward(self, x: Array, mask: Array) -> tuple[Array, Array, Array]:
        h = np.tanh(x @ self.p["W1"] + self.p["b1"])
        logits = h @ self.p["W2"] + self.p["b2"]
        logits = np.where(mask > 0, logits, -1e9)
        logits -= logits.max(axis=-1, keepdims=True)
        e = np.exp(logits) * (mask > 0)
        probs = e / e.sum(axis=-1, keepdims=True)
        value = (h @ self.p["Wv"] + self.p["bv"])[..., 0]
        return probs, value, h

    def update(self, x: Array, mask: Array, actions: npt.NDArray[np.int64], adv: Array, returns: Array,
               lr: float, entropy: float, value_coef: float = 0.5) -> None:
        n = len(actions)
        probs, value, h = self.forward(x, mask)
        onehot = np.zeros_like(probs)
        onehot[np.arange(n), actions] = 1.0
        # d(-logpi * adv)/dlogits = (probs - onehot) * adv
        g_logits = (probs - onehot) * adv[:, None]
        # entropy bonus: d(-H)/dlogits = probs * (log p + H)
        logp = np.log(np.where(probs > 0, probs, 1.0))
        ent = -(probs * logp).sum(axis=1, keepdims=True)
        g_logits += entropy * probs * (logp + ent) * (mask > 0)
        g_value = value_coef * 2 * (value - returns)
        g_h = g_logits @ self.p["W2"].T + g_value[:, None] @ self.p["Wv"].T
        g_pre = g_h * (1 - h * h)
        grads = {
            "W2": h.T @ g_logits / n, "b2": g_logits.mean(0),
            "Wv": h.T @ g_value[:, None] / n, "bv": np.array([g_value.mean()]),
            "W1": x.T @ g_pre / n, "b1": g_pre.mean(0),
        }
        self.t += 1
        for k, g in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            mhat = self.m[k] / (1 - 0.9 ** self.t)
            vhat = self.v[k] / (1 - 0.999 ** self.t)
            self.p[k] -= lr * mhat / (np.sqrt(vhat) + 1e-8)


def value_gap(env: CardtableEnv) -> float:
    """Lost Cities: my expedition value minus the opponent's, now (the shaping signal)."""
    state = env.state
    assert state is not None
    view = state.view(env.seat)
    if view.get("game") != "lost-cities":
        return 0.0
    scores = view["expedition_scores"]
    return float(sum(scores[env.seat]) - sum(scores[1 - env.seat])) / 100.0


def run_episode(env: CardtableEnv, net: Net, rng: np.random.Generator, seed: int, greedy: bool,
                shaping: bool) -> tuple[list[Any], float]:
    """One match; returns ``(steps, outcome)``, steps as ``(obs, mask, action, reward)``."""
    obs, info = env.reset(seed=seed)
    steps: list[Any] = []
    gap = value_gap(env) if shaping else 0.0
    while True:
        mask = info["action_mask"].astype(np.float64)
        probs, _, _ = net.forward(obs[None, :].astype(np.float64), mask[None, :])
        p = probs[0]
        action = int(np.argmax(p)) if greedy else int(rng.choice(len(p), p=p))
        obs2, reward, terminated, truncated, info = env.step(action)
        r = float(reward)
        if shaping:
            new_gap = value_gap(env)
            r += new_gap - gap
            gap = new_gap
        steps.append((obs, mask, action, r))
        obs = obs2
        if terminated or truncated:
            return steps, float(reward)


def evaluate(env: CardtableEnv, net: Net, games: int, seed: int) -> tuple[float, float, float]:
    """Win, draw and loss rates over ``games`` seeded matches (greedy play)."""
    rng = np.random.default_rng(seed)
    results = [run_episode(env, net, rng, seed + 1_000_003 * i, True, False)[1] for i in range(games)]
    wins = sum(1 for r in results if r > 0)
    draws = sum(1 for r in results if r == 0)
    return wins / games, draws / games, (games - wins - draws) / games


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main(argv: list[str] | None = None) -> dict[str, float]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="lost-cities")
    ap.add_argument("--players", type=int, default=None, help="players (Lost Ranks, Ранг)")
    ap.add_argument("--rounds", type=int, default=1, help="rounds per match (Lost Cities)")
    ap.add_argument("--opponent", default="random", help="cardtable agent for the other seats")
    ap.add_argument("--seconds", type=float, default=240.0, help="training time budget")
    ap.add_argument("--eval", type=int, default=400, help="evaluation matches before and after")
    ap.add_argument("--batch", type=int, default=8, help="episodes per update")
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--entropy", type=float, default=0.01)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)

    options: dict[str, Any] = {}
    if args.game == "lost-cities":
        options["rounds"] = args.rounds
    if args.players is not None:
        options["players"] = args.players
    env = CardtableEnv(args.game, seat=None, opponents=args.opponent, **options)
    shaping = args.game == "lost-cities"
    rng = np.random.default_rng(args.seed)
    net = Net(env.observation_space.shape[0], args.hidden, int(env.action_space.n), rng)

    eval_seed = 10_000_000 + args.seed
    before = evaluate(env, net, args.eval, eval_seed)
    print(f"{args.game} {options} vs {args.opponent}: untrained win rate {before[0]:.3f} "
          f"(draws {before[1]:.3f}) over {args.eval} matches", flush=True)

    start = time.monotonic()
    episodes = updates = 0
    recent: list[float] = []
    while time.monotonic() - start < args.seconds:
        batch = []
        for _ in range(args.batch):
            steps, outcome = run_episode(env, net, rng, int(rng.integers(2**62)), False, shaping)
            episodes += 1
            recent = (recent + [outcome])[-200:]
            g = 0.0
            for obs, mask, action, r in reversed(steps):
                g += r
                batch.append((obs, mask, action, g))
        x = np.stack([b[0] for b in batch]).astype(np.float64)
        m = np.stack([b[1] for b in batch])
        a = np.array([b[2] for b in batch], dtype=np.int64)
        ret = np.array([b[3] for b in batch])
        _, v, _ = net.forward(x, m)
        adv = ret - v
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        net.update(x, m, a, adv, ret, args.lr, args.entropy)
        updates += 1
        if updates % 25 == 0:
            wins = sum(1 for r in recent if r > 0) / max(1, len(recent))
            print(f"  {time.monotonic() - start:6.0f}s  episodes {episodes:6d}  "
                  f"training win rate (last {len(recent)}, sampling) {wins:.3f}", flush=True)
    trained = time.monotonic() - start

    after = evaluate(env, net, args.eval, eval_seed)
    lo, hi = wilson(after[0], args.eval)
    print(f"trained {trained:.0f}s, {episodes} episodes, {updates} updates")
    print(f"win rate vs {args.opponent}: {before[0]:.3f} untrained -> {after[0]:.3f} trained "
          f"(95% CI {lo:.3f}-{hi:.3f}; draws {after[1]:.3f}, losses {after[2]:.3f}; {args.eval} matches)")
    return {"before": before[0], "after": after[0], "episodes": float(episodes), "seconds": trained}


if __name__ == "__main__":
    main()
