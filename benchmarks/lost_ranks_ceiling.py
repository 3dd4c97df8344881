"""Lost Ranks and Ранг: the ceiling of the search — the same search when every sampled world is the true deal.

The search's worlds are drawn from the cards its seat cannot see (LR-20, RG-9).  An *omniscient*
entry (``omniscient:SPEC``, e.g. ``omniscient:ismcts:seconds=0.1:cpu=true``) is the agent of
``SPEC`` whose observation samples the *true* state instead (:class:`TrueDealObservation`):
every world it searches is the deal as it is, down to the order of the phantom decks (Ранг: of
the stock; ``hands:SPEC`` sees the hands and draws from the stock reshuffled; in Command of
Two it sees where every card is but draws the opponent's face-down phantom cards reshuffled).  What
it wins bounds what any fair player with the same search and play-outs can win.  The wrapper
lives here, in a benchmark, never in the product: no product agent is handed such an
observation (the other seats of a match get the ordinary one).

``open POINTS ENTRY…``
    The gain and regret at the open decisions of
    :mod:`open_points` (same scoring, same decisions: paired with its rows).
``replay RESULTS ENTRY…``
    Replays an arena results file's matches (the lab's SQLite or the arena's JSON) (same deal seeds, same seating) with ``ENTRY``
    in the seats of the file's first entry and the file's other entries unchanged; prints
    per match the stored and the replayed result of that seat, then the wins (a return above
    the match's lowest: in Ранг, not staying in Rank), their Wilson interval and the matches
    turned either way.  ``--expected P``: ``ENTRY`` is known to do well at rate ``P`` in those
    seats (the heuristic against copies of itself: 0.5 in Command of Two, 0.75 in Ранг with 4
    players); adds two estimates of the stored entry's rate over all deals, each with its
    interval: ``stored_estimate``, ``P`` + the paired difference, and ``stored_stratified``,
    its rates after the deals ``ENTRY`` did well and badly in, weighted ``P`` and ``1 − P``
    (:func:`~cardtable.lab.stats.stratified_rate`; the better one when the stored entry keeps
    nearly all that ``ENTRY`` wins).

``pooled ENTRY RESULTS…``
    ``replay`` of each results file with ``ENTRY``, then one row for all their matches: the
    counts added, the intervals and the ``--expected`` paired estimate over the pooled matches.

``deals OUT --seed S --matches N``
    Fresh deals to replay: the heuristic against copies of itself in ``N`` matches (match
    seeds ``S``, ``S + 1``, …; the seats rotated), split by how the first seat's entry did
    into ``OUT_lost.json`` and ``OUT_won.json`` (the arena's JSON, entries ``heuristic``),
    so that two entries can be compared on the deals the heuristic loses — where a search
    has something to turn — and on those it wins.  ``--players``: 2 in Lost Ranks (Command
    of Two), 4 in Ранг by default.

``--game rank`` (before the command) for Ранг; Lost Ranks is the default.  ``--lookahead D``
(before the command; Command of Two): in the play-outs with the look-ahead (the search's
default there, ``leaf=lookahead``), the searching seat chooses its first ``D`` decisions of
each play-out by a one-step look-ahead in the world instead of the default two
(:attr:`~cardtable.games.lost_ranks.knowledge.LostRanksKnowledge.lookahead_depth`; 0: the
heuristic's play-outs).  The play-outs before the twenty-eighth session are the entry's
``leaf=heuristic``.

::

    python benchmarks/lost_ranks_ceiling.py open points.pkl omniscient:ismcts:seconds=0.1:cpu=true
    python benchmarks/lost_ranks_ceiling.py replay lr2-hard-5000.sqlite omniscient:ismcts:seconds=0.1:cpu=true
    python benchmarks/lost_ranks_ceiling.py pooled heuristic cot_11200.sqlite cot_11300.sqlite --expected 0.5
    python benchmarks/lost_ranks_ceiling.py deals fresh --seed 5000000 --matches 400
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import random
import sqlite3
import time
from dataclasses import dataclass
from typing import Any

from cardtable.agents import Agent, Observation, make_agent
from cardtable.lab.series import play_match
from cardtable.lab.stats import paired_difference_interval, stratified_rate, wilson_interval
from cardtable.protocol import Game, State
from cardtable.registry import load_game

OMNISCIENT = "omniscient:"
HANDS = "hands:"


@dataclass(frozen=True)
class TrueDealObservation(Observation):
    """An observation whose sampled worlds are the true state (benchmark only)."""

    def sample_state(self, rng: random.Random) -> State:
        return self._state.clone()

    @classmethod
    def seeing(cls, obs: Observation) -> TrueDealObservation:
        """``obs`` with the true state as its only world."""
        return cls(obs.game, obs.player, obs.view, obs.legal_actions, obs._state)


@dataclass(frozen=True)
class TrueHandsObservation(TrueDealObservation):
    """An observation whose sampled worlds hold the true hands (benchmark only): Ранг's stock
    still to draw reshuffled (:func:`open_points.stock_shuffled`); in Command of Two the
    other seat's face-down phantom cards reshuffled among themselves
    (:func:`phantom_shuffled`: which cards it holds where, not in which order it will draw)."""

    def sample_state(self, rng: random.Random) -> State:
        if self.game.name == "lost-ranks":
            return phantom_shuffled(self._state, self.player, rng)
        from open_points import stock_shuffled

        return stock_shuffled(self._state, rng)


def phantom_shuffled(state: State, seat: int, rng: random.Random) -> State:
    """A Command of Two state with every card where it is, except that the face-down cards of
    the phantom deck of the seat other than ``seat`` are reshuffled among themselves (LR-12:
    the owner knows their order, the opponent does not; a measurement's world)."""
    world: Any = state.clone()
    other = 1 - seat
    down = world._down[other]
    hidden = list(world._phantoms[other][:down])
    rng.shuffle(hidden)
    phantoms = list(world._phantoms)
    phantoms[other] = tuple(hidden) + tuple(world._phantoms[other][down:])
    world._phantoms = phantoms
    world._stack = []
    return world  # type: ignore[no-any-return]


class OmniscientAgent(Agent):
    """The agent of a spec, searching the true deal (:class:`TrueDealObservation`) or, with
    ``hands``, the true hands (:class:`TrueHandsObservation`)."""

    name = "omniscient"

    def __init__(self, inner: Agent, hands: bool = False) -> None:
        super().__init__(inner.game)
        self.inner = inner
        self.seeing = TrueHandsObservation.seeing if hands else TrueDealObservation.seeing

    def act(self, obs: Observation) -> int:
        return self.inner.act(self.seeing(obs))

    def close(self) -> None:
        close = getattr(self.inner, "close", None)
        if callable(close):
            close()


def agent_for(spec: str, game: Game, seed: int) -> Agent:
    """``omniscient:SPEC`` → :class:`OmniscientAgent` around ``SPEC``; ``hands:SPEC`` (Ранг)
    the same seeing the hands but not the stock order; any other spec as :func:`make_agent`
    makes it."""
    if spec.startswith(OMNISCIENT):
        return OmniscientAgent(make_agent(spec[len(OMNISCIENT):], game, seed=seed))
    if spec.startswith(HANDS):
        if game.name != "rank" and game.num_players != 2:
            raise SystemExit(f"{spec}: 'hands:' is for Ранг (its stock reshuffled) and Command of Two (the "
                             "opponent's face-down phantom cards reshuffled); use 'omniscient:'")
        return OmniscientAgent(make_agent(spec[len(HANDS):], game, seed=seed), hands=True)
    return make_agent(spec, game, seed=seed)


def stored_matches(path: str) -> tuple[list[str], list[tuple[int, list[int], list[float]]]]:
    """The entries and the ``(seed, seating, returns)`` of each match of an arena results
    file: the lab's SQLite (``--results``) or the arena's JSON (``--json``)."""
    if path.endswith(".json"):
        with open(path) as f:
            data = json.load(f)
        return list(data["command"]["agents"]), [(row["seed"], row["seating"], row["returns"]) for row in data["outcomes"]]
    db = sqlite3.connect(path)
    rows = db.execute("SELECT seed, seating, returns, agents FROM matches ORDER BY match_index").fetchall()
    return json.loads(rows[0][3]), [(seed, json.loads(seating), json.loads(returns)) for seed, seating, returns, _ in rows]


def did_well(returns: list[float], seat: int) -> bool:
    """Whether ``seat`` did well: a return above the match's lowest (Lost Ranks: its army
    won; Ранг: it did not stay in Rank)."""
    return returns[seat] > min(returns)


def replay(path: str, spec: str, name: str = "lost-ranks", expected: float | None = None) -> dict[str, Any]:
    """The matches of results file ``path`` (game ``name``) replayed with ``spec`` (its
    ``|key=value`` knowledge settings as in :mod:`open_points`) in its first entry's seats.

    ``expected``: the rate at which ``spec`` is *known* to do well in those seats over all
    deals — a player against copies of itself, by symmetry (the heuristic against the
    heuristic: 0.5 in Command of Two, 0.75 not staying in Rank with 4 players).  The stored
    entry's rate is then also estimated as ``expected`` plus the paired difference on these
    deals (``stored_estimate``, with :func:`~cardtable.lab.stats.paired_difference_interval`):
    the deals' luck, shared by both, cancels."""
    from open_points import knowledge_settings

    agents, rows = stored_matches(path)
    game = load_game(name, players=len(rows[0][1]))
    load = os.getloadavg()[0]
    start = time.process_time()
    stored_wins = won = gained = lost = 0
    for index, (seed, seating, returns) in enumerate(rows):
        hero = seating.index(0)
        with knowledge_settings(game, spec) as entry:
            out = play_match(game, [entry] + agents[1:], seed=seed, seating=seating, agent_for=agent_for)
        before, after = did_well(returns, hero), did_well(list(out.returns), hero)
        stored_wins += before
        won += after
        gained += after and not before
        lost += before and not after
        print(json.dumps({"match": index, "seed": seed, "seating": seating, "stored": returns[hero],
                          "replayed": out.returns[hero]}), flush=True)
    row: dict[str, Any] = {"file": path, "entry": spec, "stored_entry": agents[0]}
    row.update(counts_row(len(rows), stored_wins, won, gained, lost, expected))
    row.update({"cpu": round(time.process_time() - start, 1), "load": [round(load, 2), round(os.getloadavg()[0], 2)]})
    return row


def counts_row(n: int, stored_wins: int, won: int, gained: int, lost: int,
               expected: float | None = None) -> dict[str, Any]:
    """The summary of ``n`` replayed matches: the replayed entry's wins with their Wilson
    interval, the stored entry's, the matches turned either way and (given ``expected``)
    the stored entry's paired estimate."""
    low, high = wilson_interval(won, n)
    stored_low, stored_high = wilson_interval(stored_wins, n)
    row: dict[str, Any] = {
        "matches": n, "wins": won, "win": round(won / n, 4), "ci95": [round(low, 4), round(high, 4)],
        "stored_wins": stored_wins, "stored_ci95": [round(stored_low, 4), round(stored_high, 4)],
        "turned_to_win": gained, "turned_to_loss": lost}
    if expected is not None:
        both = stored_wins - lost
        d, d_low, d_high = paired_difference_interval(both, lost, gained, n - both - lost - gained)
        row["stored_estimate"] = [round(min(1.0, max(0.0, expected + v)), 4) for v in (d, d_low, d_high)]
        if 0 < won < n:
            row["stored_stratified"] = [round(v, 4) for v in stratified_rate(expected, both, won, lost, n - won)]
    return row


def pooled(paths: list[str], spec: str, name: str = "lost-ranks", expected: float | None = None,
           out: str | None = None) -> dict[str, Any]:
    """:func:`replay` of every file of ``paths`` (each row emitted to ``out`` as it ends),
    then one row for all their matches together: the counts added, the intervals and the
    paired estimate computed over the pooled matches (not averaged over files)."""
    from open_points import emit

    keys = ("matches", "stored_wins", "wins", "turned_to_win", "turned_to_loss")
    totals = dict.fromkeys(keys, 0)
    stored_entries = set()
    for path in paths:
        row = replay(path, spec, name, expected)
        emit(row, out)
        stored_entries.add(row["stored_entry"])
        for key in keys:
            totals[key] += row[key]
    pooled_row: dict[str, Any] = {"files": paths, "entry": spec, "stored_entry": sorted(stored_entries)}
    pooled_row.update(counts_row(totals["matches"], totals["stored_wins"], totals["wins"],
                                 totals["turned_to_win"], totals["turned_to_loss"], expected))
    return pooled_row


def heuristic_deals(game: Game, seed: int, matches: int) -> dict[str, list[dict[str, Any]]]:
    """:func:`play_match` of the heuristic against copies of itself on match seeds ``seed``
    … ``seed + matches - 1`` (seat of entry 0 rotated with the match number): the arena's
    outcome rows of the matches entry 0 lost (``"lost"``) and did well in (``"won"``)."""
    rows: dict[str, list[dict[str, Any]]] = {"lost": [], "won": []}
    n = game.num_players
    for index in range(matches):
        seating = [0 if (s + index) % n == 0 else 1 for s in range(n)]
        out = play_match(game, ["heuristic", "heuristic"], seed=seed + index, seating=seating)
        returns = list(out.returns)
        kind = "won" if did_well(returns, seating.index(0)) else "lost"
        rows[kind].append({"seed": seed + index, "seating": seating, "returns": returns})
    return rows


def write_deals(game: Game, out: str, seed: int, matches: int) -> dict[str, Any]:
    """:func:`heuristic_deals` written to ``OUT_lost.json`` and ``OUT_won.json``; returns
    the counts and the files."""
    rows = heuristic_deals(game, seed, matches)
    summary: dict[str, Any] = {"matches": matches, "seed": seed}
    for kind, outcomes in rows.items():
        path = f"{out}_{kind}.json"
        with open(path, "w") as f:
            json.dump({"command": {"agents": ["heuristic", "heuristic"]}, "outcomes": outcomes}, f)
        summary[kind] = {"file": path, "deals": len(outcomes)}
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=("lost-ranks", "rank"), default="lost-ranks")
    parser.add_argument("--lookahead", type=int, default=None, metavar="D",
                        help="Command of Two: the searching seat looks one step ahead at its first D decisions "
                             "of each play-out (default: the search's, 2; 0: the heuristic's play-outs)")
    sub = parser.add_subparsers(dest="command", required=True)
    o = sub.add_parser("open")
    o.add_argument("points")
    o.add_argument("entries", nargs="+")
    o.add_argument("--players", type=int, default=None, help="default: 2 in Lost Ranks, 4 in Ранг")
    o.add_argument("--out", default=None)
    r = sub.add_parser("replay")
    r.add_argument("results")
    r.add_argument("entries", nargs="+")
    p = sub.add_parser("pooled")
    p.add_argument("entry")
    p.add_argument("results", nargs="+")
    d = sub.add_parser("deals", help="fresh deals the heuristic loses and wins, to replay")
    d.add_argument("out", help="prefix of the two files written: OUT_lost.json, OUT_won.json")
    d.add_argument("--seed", type=int, required=True)
    d.add_argument("--matches", type=int, required=True)
    d.add_argument("--players", type=int, default=None, help="default: 2 in Lost Ranks, 4 in Ранг")
    expected_help = ("the replayed entry's known rate of doing well in these seats (e.g. 0.5: the heuristic "
                     "against itself in Command of Two; 0.75 in Ранг with 4 players): adds the stored "
                     "entry's paired estimate and its interval")
    for command in (r, p):
        command.add_argument("--out", default=None)
        command.add_argument("--expected", type=float, default=None, help=expected_help)
    args = parser.parse_args()
    if args.command in ("replay", "pooled") and args.expected is not None and not 0.0 <= args.expected <= 1.0:
        parser.error(f"--expected must be a rate between 0 and 1, not {args.expected}")
    if args.lookahead is not None:
        if args.lookahead < 0 or args.game != "lost-ranks":
            parser.error(f"--lookahead {args.lookahead}: give 0 or more, and only for Lost Ranks (Command of Two)")
        from cardtable.games.lost_ranks.knowledge import LostRanksKnowledge

        LostRanksKnowledge.lookahead_depth = args.lookahead
    if args.command == "deals":
        if args.matches < 1:
            parser.error(f"--matches must be 1 or more, not {args.matches}")
        players = args.players if args.players is not None else 2 if args.game == "lost-ranks" else 4
        print(json.dumps(write_deals(load_game(args.game, players=players), args.out, args.seed, args.matches)))
        return
    if args.command == "open":
        from open_points import score

        players = args.players if args.players is not None else 2 if args.game == "lost-ranks" else 4
        game = load_game(args.game, players=players)
        with open(args.points, "rb") as f:
            points = pickle.load(f)
    from open_points import emit

    if args.command == "pooled":
        emit(pooled(args.results, args.entry, args.game, args.expected, args.out), args.out)
        return
    for spec in args.entries:
        emit(score(game, points, spec, agent_for) if args.command == "open"
             else replay(args.results, spec, args.game, args.expected), args.out)


if __name__ == "__main__":
    main()
