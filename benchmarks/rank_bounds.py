"""Ранг, 4 players: how much of a seat's loss rate the deal decides (measurement only).

Every game is an arena game (``cardtable arena rank --players 4 --agents X,heuristic,heuristic,heuristic``):
seed ``S + i``, entry 0 in seat ``(-i) % 4``, the heuristic bots seeded ``seed * 1000 + seat``.
These tools look at the true state — they are measurements, never agents.

``oracle``   For each game, every sequence of the entry-0 seat's choices is played against the exact
             bots (their random tie-breaks too: copied at each branch).  "Lost by the deal": no
             sequence avoids staying in Rank; "safe": none loses.  No agent can lose less often than
             the first share.
``pi``       A flat search (``ismcts:iterations=N``) whose worlds are the true state: ``full`` (every
             hand and the stock order) or ``hands`` (every hand, the stock reshuffled in each world).
``points``   The decision points of a heuristic seat (entry 0) where the oracle says that some moves
             still allow not losing and others do not; pickled for ``score``.
``score``    The share of those points where an agent (``heuristic``, ``ismcts:iterations=600`` …,
             optionally ``--pi full|hands``) picks a move that still allows not losing.
``planning`` What planning the seat's *own* later moves is worth once the cards are known.  At each
             decision of the heuristic seat (entry 0) with a choice — with the stock empty (``--phase
             empty``: then the game is deterministic and the true hands are all there is to know) or
             at every decision (``all``: the true stock order seen too) — the seat's game is played
             on three ways against the exact bots: the heuristic on; the one-step search on the
             true state at each of its later decisions (every move continued by the heuristic, the
             best kept, ties to the heuristic's move: what a search seeing every card does with
             heuristic continuations); and the best sequence of its choices (``oracle``'s search).
             Printed: the losses of each from the same decisions, and from the first of them in each
             game.  If the best sequence loses hardly less than the one-step search, a search that
             also plans the seat's later moves has nothing to gain over the one-step search even
             with the cards seen.

    python benchmarks/rank_bounds.py oracle --seed 5000 --games 400
    python benchmarks/rank_bounds.py pi --seed 5000 --games 400 --iterations 600 --sees hands
    python benchmarks/rank_bounds.py points --seed 6000 --games 2000 --out points.pkl
    python benchmarks/rank_bounds.py score points.pkl ismcts:iterations=600 [--sees hands]
    python benchmarks/rank_bounds.py planning --seed 60000 --games 2000 --phase empty
"""

from __future__ import annotations

import argparse
import copy
import pickle
import random
from typing import Any, Iterator

from cardtable.agents import Observation, make_agent
from cardtable.games.rank.knowledge import RankKnowledge
from cardtable.games.rank import Rank, RankState
from cardtable.lab.runner import run_series

GAME = Rank(players=4)


def _bots(seed: int) -> list[Any]:
    return [make_agent("heuristic", GAME, seed=seed * 1000 + s) for s in range(4)]


def survives(state: RankState, bots: list[Any], hero: int, every: bool = False) -> bool:
    """Whether some (``every``: every) sequence of ``hero``'s choices avoids losing."""
    while not state.is_terminal():
        p = state.current_player()
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply_action(legal[0])
        elif p != hero:
            state.apply_action(bots[p].act(Observation.of(state, p)))
        else:
            for a in legal:
                branch = state.clone()
                branch.apply_action(a)
                if survives(branch, copy.deepcopy(bots), hero, every) != every:
                    return not every
            return every
    return state.returns()[hero] >= 0


def loses_on(state: RankState, bots: list[Any], hero: int, plan: bool) -> bool:
    """Whether ``hero`` loses when the game goes on with the exact bots, ``hero`` playing its
    heuristic bot or (``plan``) the one-step search on the true state at each choice."""
    state, bots = state.clone(), copy.deepcopy(bots)
    while not state.is_terminal():
        p = state.current_player()
        legal = state.legal_actions()
        move = legal[0] if len(legal) == 1 else bots[p].act(Observation.of(state, p))
        if plan and p == hero and len(legal) > 1 and _loses_after(state, move, bots, hero):
            move = next((a for a in legal if a != move and not _loses_after(state, a, bots, hero)), move)
        state.apply_action(move)
    return state.returns()[hero] < 0


def _loses_after(state: RankState, move: int, bots: list[Any], hero: int) -> bool:
    branch = state.clone()
    branch.apply_action(move)
    return loses_on(branch, bots, hero, False)


def hero_decisions(seed: int, games: int) -> Iterator[tuple[int, int, list[Any], RankState]]:
    """Games ``seed`` … of the heuristic bots (entry 0 in seat ``(-i) % 4``): at each decision of
    that seat with a choice, the game's seed, the seat, the exact bots and the state, which the
    caller reads and leaves as they are; then the bots play on."""
    for i in range(games):
        hero = (-i) % 4
        bots = _bots(seed + i)
        s = GAME.new_state(seed=seed + i)
        while not s.is_terminal():
            p = s.current_player()
            legal = s.legal_actions()
            if len(legal) > 1 and p == hero:
                yield seed + i, hero, bots, s
            s.apply_action(legal[0] if len(legal) == 1 else bots[p].act(Observation.of(s, p)))


def planning_outcomes(seed: int, games: int, phase: str) -> Iterator[tuple[int, bool, bool, bool]]:
    """Per decision of the heuristic seat with a choice (``phase`` ``empty``: only with the
    stock empty): the game's seed, and whether the seat loses playing on the heuristic, the
    one-step search on the true state, and the best sequence of its choices."""
    for game_seed, hero, bots, s in hero_decisions(seed, games):
        if phase == "all" or not s.stock_cards:
            yield (game_seed, loses_on(s, bots, hero, False), loses_on(s, bots, hero, True),
                   not survives(s.clone(), copy.deepcopy(bots), hero))


def planning(seed: int, games: int, phase: str) -> None:
    rows = list(planning_outcomes(seed, games, phase))
    first = list({r[0]: r for r in reversed(rows)}.values())
    for label, chosen in (("decisions", rows), ("games, at the seat's first such decision", first)):
        heuristic, step, best = (sum(r[k] for r in chosen) for k in (1, 2, 3))
        print(f"seeds {seed}..{seed + games - 1}, {len(chosen)} {label} ({phase}): lost playing on the heuristic "
              f"{heuristic}, the one-step search on the true state {step}, the best sequence {best}")


def oracle(seed: int, games: int) -> None:
    lost = safe = 0
    for i in range(games):
        hero = (-i) % 4
        bots = _bots(seed + i)
        if not survives(GAME.new_state(seed=seed + i), copy.deepcopy(bots), hero):
            lost += 1
        elif survives(GAME.new_state(seed=seed + i), bots, hero, every=True):
            safe += 1
    print(f"seeds {seed}..{seed + games - 1}: lost by the deal {lost} ({100 * lost / games:.2f} %), "
          f"not lost whatever the seat does {safe} ({100 * safe / games:.2f} %)")


def _see(sees: str) -> None:
    """Make the Ранг search's worlds the true state (``full``) or its hands (``hands``)."""
    from open_points import stock_shuffled

    def world(self: RankKnowledge, obs: Observation, rng: random.Random) -> RankState:
        if sees == "hands":
            return stock_shuffled(obs._state, rng)  # type: ignore[return-value]
        w: Any = obs._state.clone()
        w._undo = []
        return w  # type: ignore[no-any-return]
    RankKnowledge.sample_world = world  # type: ignore[method-assign]


def pi(seed: int, games: int, iterations: int, sees: str) -> None:
    _see(sees)
    summary = run_series(GAME, [f"ismcts:iterations={iterations}", "heuristic", "heuristic", "heuristic"],
                         games=games, seed=seed)
    lost = sum(o.returns[o.seating.index(0)] < 0 for o in summary.outcomes)
    print(f"seeds {seed}..{seed + games - 1}: a search seeing {sees} loses {lost} ({100 * lost / games:.2f} %)")


def points(seed: int, games: int, out: str) -> None:
    found = []
    total = 0
    for game_seed, hero, bots, s in hero_decisions(seed, games):
        total += 1
        labels = {}
        for a in s.legal_actions():
            branch = s.clone()
            branch.apply_action(a)
            labels[a] = survives(branch, copy.deepcopy(bots), hero)
        if len(set(labels.values())) > 1:
            found.append((game_seed, hero, list(s.history), labels))
    with open(out, "wb") as f:
        pickle.dump(found, f)
    print(f"{total} decisions, {len(found)} critical, saved to {out}")


def score(path: str, spec: str, sees: str | None) -> None:
    if sees:
        _see(sees)
    with open(path, "rb") as f:
        found = pickle.load(f)
    good = 0
    for seed, hero, history, labels in found:
        s = GAME.new_state(seed=seed)
        for a in history:
            s.apply_action(a)
        good += labels[make_agent(spec, GAME, seed=seed * 1000 + hero).act(Observation.of(s, hero))]
    print(f"{spec}{' seeing ' + sees if sees else ''}: {good} of {len(found)} ({100 * good / len(found):.1f} %)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tool", choices=["oracle", "pi", "points", "score", "planning"])
    ap.add_argument("args", nargs="*")
    ap.add_argument("--seed", type=int, default=5000)
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--iterations", type=int, default=600)
    ap.add_argument("--sees", choices=["full", "hands"])
    ap.add_argument("--out", default="rank-points.pkl")
    ap.add_argument("--phase", choices=["empty", "all"], default="empty",
                    help="planning: the decisions with the stock empty, or all")
    a = ap.parse_args()
    if a.tool == "oracle":
        oracle(a.seed, a.games)
    elif a.tool == "pi":
        pi(a.seed, a.games, a.iterations, a.sees or "full")
    elif a.tool == "planning":
        planning(a.seed, a.games, a.phase)
    elif a.tool == "points":
        points(a.seed, a.games, a.out)
    else:
        score(a.args[0], a.args[1], a.sees)


if __name__ == "__main__":
    main()
