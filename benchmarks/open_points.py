"""Lost Ranks, Ранг and Lost Cities: how much a search entry gains over the heuristic where a move matters.

Match results resolve the search's gains poorly in Command of Two: most decisions cannot
change the round (the deal decides it, or the match is already decided), so two entries
play the same matches most of the time (docs/strength.md); in Ранг a tenth of the games
are lost whatever the seat does.  This measure spends the search's time only where a
move matters (``--game lost-ranks``, the default, ``--game rank`` or ``--game lost-cities``;
``--players``, ``--colors``):

``collect``
    Heuristic self-play (every seat the heuristic bot, or the bot ``--bot SPEC``, e.g.
    ``heuristic:style=bold``; the points remember it).  At a decision with a choice
    (looked at with chance ``--share``), every legal move is played on the *true* deal
    and continued by the heuristic to the search's cut-off — the end of the round in
    Lost Ranks and Lost Cities, of the game in Ранг — (every seat with the same fresh seeds for every
    move; ``--continuations K`` such continuations per move, their values averaged); the
    mover's value there is the search's own (the knowledge's ``evaluate``: in Lost Ranks
    the chance to win the match from the totals, in Ранг the place out, both in
    ``[-1, 1]``; in Lost Cities the chance to win the match from the totals).  A
    decision is *open* when these values differ between moves; the open ones are saved
    (pickled states).  ``--shuffle-stock`` (Ранг, Lost Cities): each continuation draws
    from the stock (the draw pile) reshuffled, the hands as dealt, so a move's value is
    what it is worth to a player who knows the hands but not the stock order — on the
    true stock it is partly the luck of that order, which no player can see (RG-9,
    LC-8); the gain is unbiased either way, the reshuffled values less noisy.
``score``
    Each entry chooses at every open decision from the seat's observation only; its gain
    there is the true-deal value of its move minus that of the heuristic's move (what the
    self-play played), its regret the best move's value minus its move's.  Printed per
    entry: the mean gain with its standard error, the regret, how often it played the
    heuristic's move, CPU seconds and the load average (JSON lines, also appended to
    ``--out``).  ``ENTRY|playouts=K`` sets the knowledge's ``leaf_playouts`` for that entry,
    ``|infer=K`` its ``infer_draws``, ``|miss=X`` its ``infer_miss`` (inference from play) and
    ``|policy=heuristic`` its ``leaf_policy`` (for every entry of the game; the search's own
    option ``leaf=heuristic`` does it for one agent only).

The gain is the one-step improvement over the heuristic on the deal as it was: it is
unbiased for "better than the heuristic's move if the heuristic plays on", and each entry
is scored on the same decisions (paired).  Tuning and evaluation use different seeds::

    python benchmarks/open_points.py collect points.pkl --seed 9000 --matches 60
    python benchmarks/open_points.py score points.pkl heuristic ismcts:seconds=0.1:cpu=true
    python benchmarks/open_points.py --game rank --players 4 collect rank.pkl --seed 9000 --matches 40 --continuations 8
    python benchmarks/open_points.py --game lost-cities collect lc.pkl --seed 9000 --matches 20 --bot heuristic:style=bold
"""

from __future__ import annotations

import argparse
import json
import math
import os
import pickle
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from cardtable.agents import Agent, Observation, make_agent
from cardtable.agents.knowledge import Knowledge, knowledge_for
from cardtable.protocol import Game, State
from cardtable.registry import load_game

GAMES = ("lost-ranks", "rank", "lost-cities")


def cutoff_values(game: Game, kn: Knowledge, state: State, seed: int, bot: str = "heuristic") -> list[float]:
    """Each seat's value at the search's cut-off after ``state`` (the end of its round in
    Lost Ranks and Lost Cities, of the game in Ранг), the bot ``bot`` playing every seat."""
    bots = [make_agent(bot, game, seed=seed * 1000 + 500 + s) for s in range(game.num_players)]
    root_round = kn.round_of(state)
    while not kn.cutoff(state, root_round):
        q = state.current_player()
        legal = state.legal_actions()
        state.apply_action(legal[0] if len(legal) == 1 else bots[q].act(Observation.of(state, q)))
    return kn.evaluate(state)


def stock_shuffled(state: State, rng: random.Random) -> State:
    """A Ранг state with its hands as they are and the stock still to draw reshuffled
    (Lost Cities: the draw pile; a measurement's world: it reads the true hands)."""
    world: Any = state.clone()
    if hasattr(world, "draw_pile"):  # Lost Cities (LC-4): the pile from its next card on
        pile = list(world.draw_pile())
        rng.shuffle(pile)
        world._draw, world._ptr = tuple(pile), 0
        return world  # type: ignore[no-any-return]
    stock = list(world.stock_cards)
    rng.shuffle(stock)
    world._stock, world._pos = stock, 0
    world._undo = []
    return world  # type: ignore[no-any-return]


def collect(game: Game, first: int, matches: int, share: float, continuations: int = 1,
            shuffle_stock: bool = False, bot: str = "heuristic") -> tuple[list[dict[str, Any]], int]:
    """The open decisions of ``matches`` self-play matches of the bot ``bot`` from seed
    ``first``, and the number of decisions looked at (each move's value the mean of
    ``continuations`` continuations by that bot; ``shuffle_stock``: each from the stock
    reshuffled, :func:`stock_shuffled`)."""
    if shuffle_stock and game.name == "lost-ranks":
        raise SystemExit("--shuffle-stock is for Ранг and Lost Cities: Lost Ranks has no stock")
    kn = knowledge_for(game)
    points: list[dict[str, Any]] = []
    looked = 0
    for seed in range(first, first + matches):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        bots = [make_agent(bot, game, seed=seed * 1000 + s) for s in range(game.num_players)]
        while not state.is_terminal():
            q = state.current_player()
            legal = state.legal_actions()
            if len(legal) == 1:
                state.apply_action(legal[0])
                continue
            move = bots[q].act(Observation.of(state, q))
            if rng.random() < share:
                looked += 1
                values: dict[int, float] = {}
                for a in legal:
                    total = 0.0
                    for c in range(continuations):
                        world = (stock_shuffled(state, random.Random(seed * 7919 + 31 * c)) if shuffle_stock
                                 else state.clone())
                        world.apply_action(a)
                        total += cutoff_values(game, kn, world, seed + 7919 * c, bot)[q]
                    values[a] = round(total / continuations, 9)
                if len(set(values.values())) > 1:
                    points.append({"seed": seed, "state": state.clone(), "player": q, "heuristic": move,
                                   "values": values, "bot": bot})
            state.apply_action(move)
    return points, looked


KNOWLEDGE_SETTINGS: dict[str, tuple[str, type]] = {
    "playouts": ("leaf_playouts", int), "infer": ("infer_draws", int), "miss": ("infer_miss", float),
    "policy": ("leaf_policy", str)}
"""``ENTRY|key=value`` suffixes: the knowledge attribute each sets and its type."""


@contextmanager
def knowledge_settings(game: Game, spec: str) -> Iterator[str]:
    """Apply the ``|key=value`` suffixes of ``spec`` (:data:`KNOWLEDGE_SETTINGS`) to the
    game's shared knowledge and its twins for other play-out policies
    (:meth:`~cardtable.agents.knowledge.Knowledge.with_leaf_policy`) while the block runs;
    yields the plain entry."""
    entry, *extra = spec.split("|")
    base = knowledge_for(game)
    twins = [base, *(t for t in base.__dict__.get("_twins", {}).values() if t is not base)]
    kept = [{attr: getattr(kn, attr) for attr, _ in KNOWLEDGE_SETTINGS.values() if hasattr(kn, attr)} for kn in twins]
    try:
        for key, text in (kv.split("=") for kv in extra):
            attr, kind = KNOWLEDGE_SETTINGS[key]
            if attr not in kept[0]:
                raise SystemExit(f"{spec}: the {game.name} search has no {attr} (|{key}=…)")
            for kn in twins:
                if attr != "leaf_policy" or kn is base:
                    setattr(kn, attr, kind(text))
        yield entry
    finally:
        made = [t for t in base.__dict__.get("_twins", {}).values() if all(t is not k for k in twins)]
        for kn, values in [*zip(twins, kept), *((t, kept[0]) for t in made)]:  # a twin made in the block: as the base
            for attr, value in values.items():
                if attr != "leaf_policy" or kn is base:
                    setattr(kn, attr, value)


def score(game: Game, points: list[dict[str, Any]], spec: str,
          agent_for: Callable[[str, Game, int], Agent] | None = None) -> dict[str, Any]:
    """One entry's gains over the heuristic's moves at ``points`` (see the module docstring);
    ``agent_for(entry, game, seed)`` makes the agent (default :func:`make_agent`)."""
    make = agent_for if agent_for is not None else lambda e, g, s: make_agent(e, g, seed=s)
    load = os.getloadavg()[0]
    start = time.process_time()
    gains: list[float] = []
    regrets: list[float] = []
    same = 0
    with knowledge_settings(game, spec) as entry:
        for i, point in enumerate(points):
            values = point["values"]
            agent = make(entry, game, point["seed"] * 7 + i)
            move = agent.act(Observation.of(point["state"], point["player"]))
            gains.append(values[move] - values[point["heuristic"]])
            regrets.append(max(values.values()) - values[move])
            same += move == point["heuristic"]
    n = len(gains)
    mean = sum(gains) / n
    se = math.sqrt(sum((g - mean) ** 2 for g in gains) / max(1, n - 1) / n)
    return {"entry": spec, "points": n, "gain": round(mean, 4), "se": round(se, 4),
            "regret": round(sum(regrets) / n, 4), "heuristic_move": same,
            "cpu": round(time.process_time() - start, 1), "load": [round(load, 2), round(os.getloadavg()[0], 2)],
            "gains": gains}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=GAMES, default="lost-ranks")
    parser.add_argument("--players", type=int, default=None, help="default: 2 in Lost Ranks, 4 in Ранг (Lost Cities: 2)")
    parser.add_argument("--colors", type=int, default=5, choices=(5, 6), help="Lost Cities: expeditions (default 5)")
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect")
    c.add_argument("points")
    c.add_argument("--seed", type=int, required=True)
    c.add_argument("--matches", type=int, default=60)
    c.add_argument("--share", type=float, default=0.5)
    c.add_argument("--continuations", type=int, default=1, help="continuations per move (values averaged)")
    c.add_argument("--bot", default="heuristic",
                   help="the agent of the self-play and the continuations (default: heuristic)")
    c.add_argument("--shuffle-stock", action="store_true",
                   help="Ранг: each continuation from the stock reshuffled (the value given the hands, not the stock order)")
    s = sub.add_parser("score")
    s.add_argument("points")
    s.add_argument("entries", nargs="+")
    s.add_argument("--out", default=None)
    args = parser.parse_args()
    if args.game == "lost-cities":
        if args.players not in (None, 2):
            parser.error("Lost Cities is a game for 2 players: leave out --players")
        game = load_game(args.game, colors=args.colors)
    else:
        players = args.players if args.players is not None else 2 if args.game == "lost-ranks" else 4
        game = load_game(args.game, players=players)
    game.new_state(seed=0)
    if args.command == "collect":
        start = time.process_time()
        try:
            make_agent(args.bot, game, seed=0)
        except ValueError as error:
            parser.error(f"--bot {args.bot}: {error}")
        points, looked = collect(game, args.seed, args.matches, args.share, args.continuations,
                                 args.shuffle_stock, args.bot)
        with open(args.points, "wb") as f:
            pickle.dump(points, f)
        print(f"{len(points)} open decisions of {looked} looked at ({args.matches} matches from seed {args.seed}); "
              f"cpu {time.process_time() - start:.0f} s, load {os.getloadavg()[0]:.2f}")
        return
    with open(args.points, "rb") as f:
        points = pickle.load(f)
    for spec in args.entries:
        emit(score(game, points, spec), args.out)


def emit(row: dict[str, Any], out: str | None) -> None:
    """Print ``row`` without its per-decision gains; append it whole to file ``out``."""
    print(json.dumps({k: v for k, v in row.items() if k != "gains"}), flush=True)
    if out:
        with open(out, "a") as f:
            f.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
