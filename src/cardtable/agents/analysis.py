"""Move analysis of a played match, like a chess analysis board.

:func:`analyse` replays a match and, at every decision of one seat that had more
than one legal move, runs the search (:func:`cardtable.agents.search.search`) from
that seat's :class:`~cardtable.agents.base.Observation` — its own view and the
legal moves, hidden cards redrawn by the game's sampler — so the analysis knows
exactly what the seat knew when it moved, never the true deal.

Every legal move gets an estimated *win chance* (the search's mean value ``v`` in
``[-1, 1]`` read as ``(v + 1) / 2``; in Ранг the chance not to lose).  The *best*
move is the one with the best estimate among those searched at least half as
often as the most searched one (:func:`best_move`); the *loss* of the move played
is the best move's win chance minus its own (never below zero).  A move is marked
by its loss:

* ``"inaccuracy"`` — at least :data:`INACCURACY` (5 points of win chance),
* ``"mistake"`` — at least :data:`MISTAKE` (10 points),
* ``"blunder"`` — at least :data:`BLUNDER` (20 points),

else ``"best"`` (the search's own move) or ``"good"``.  A decision's *accuracy* is
``1 − min(loss, ACCURACY_ZERO_LOSS) / ACCURACY_ZERO_LOSS`` — 100 % for the best
move, 0 % for a loss of :data:`ACCURACY_ZERO_LOSS` or more — and a round's or the
match's accuracy is the mean over its analysed decisions, in percent.

The search runs at a fixed iteration budget (at least one play-out per legal
move, so that every move has an estimate) with a seed derived from ``seed`` and
the decision's move number: the analysis is the same on every machine and run.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, Final

from cardtable.agents.base import Observation
from cardtable.agents.knowledge import knowledge_for
from cardtable.agents.search import SearchParams, search
from cardtable.protocol import JSON, State

INACCURACY: Final = 0.05
"""Smallest loss of estimated win chance marked as an inaccuracy."""
MISTAKE: Final = 0.10
"""Smallest loss of estimated win chance marked as a mistake."""
BLUNDER: Final = 0.20
"""Smallest loss of estimated win chance marked as a blunder."""
ACCURACY_ZERO_LOSS: Final = 0.25
"""A loss of this much win chance (or more) scores 0 % accuracy."""
DEFAULT_ITERATIONS: Final = 400
"""The search budget per decision unless another is asked for."""
CATEGORIES: Final = ("best", "good", "inaccuracy", "mistake", "blunder")


def category(loss: float, *, best: bool = False) -> str:
    """The mark of a move that loses ``loss`` win chance (``best``: the search's own move).

    >>> [category(x) for x in (0.0, 0.049, 0.05, 0.1, 0.2)]
    ['good', 'good', 'inaccuracy', 'mistake', 'blunder']
    >>> category(0.0, best=True)
    'best'
    """
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return "best" if best else "good"


def decision_accuracy(loss: float) -> float:
    """Accuracy of one decision in ``[0, 1]`` (see the module docstring).

    >>> decision_accuracy(0.0), decision_accuracy(0.125), decision_accuracy(0.5)
    (1.0, 0.5, 0.0)
    """
    return 1.0 - min(max(loss, 0.0), ACCURACY_ZERO_LOSS) / ACCURACY_ZERO_LOSS


@dataclass(frozen=True)
class MoveEstimate:
    """One legal move's estimate: its win chance from ``visits`` play-outs."""

    move: str
    action: int
    win: float
    visits: int


@dataclass(frozen=True)
class Decision:
    """The analysis of one decision of the seat (move ``ply``, counted from 0)."""

    ply: int
    round: int
    played: str
    best: str
    win_played: float
    win_best: float
    loss: float
    category: str
    accuracy: float
    moves: tuple[MoveEstimate, ...]
    """Every legal move, the best estimate first."""


@dataclass(frozen=True)
class RoundAccuracy:
    round: int
    decisions: int
    accuracy: float
    """Mean decision accuracy in percent."""
    counts: dict[str, int]
    """Decisions per category."""


@dataclass
class MatchAnalysis:
    """Every analysed decision of one seat, with accuracy per round and per match."""

    game: str
    config: dict[str, JSON]
    seat: int
    iterations: int
    seed: int
    value_label: str
    """What the win chance means (``"win"``; Ранг: ``"chance not to lose"``)."""
    decisions: list[Decision] = field(default_factory=list)

    @property
    def accuracy(self) -> float | None:
        """Mean decision accuracy over the match, in percent (``None``: no decision)."""
        return _mean_percent(self.decisions)

    @property
    def rounds(self) -> list[RoundAccuracy]:
        by_round: dict[int, list[Decision]] = {}
        for d in self.decisions:
            by_round.setdefault(d.round, []).append(d)
        return [RoundAccuracy(r, len(ds), _mean_percent(ds) or 0.0, _counts(ds)) for r, ds in sorted(by_round.items())]

    @property
    def win_chances(self) -> list[tuple[int, float]]:
        """``(ply, estimated win chance after the move played)`` for the plot over the match."""
        return [(d.ply, d.win_played) for d in self.decisions]

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; :meth:`from_dict` reads it back."""
        data = asdict(self)
        for d in data["decisions"]:
            d["moves"] = list(d["moves"])
        data["format"] = "cardtable-analysis"
        data["accuracy"] = self.accuracy
        data["rounds"] = [asdict(r) for r in self.rounds]
        data["counts"] = _counts(self.decisions)
        data["win_chances"] = [list(p) for p in self.win_chances]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MatchAnalysis:
        decisions = [Decision(**{**d, "moves": tuple(MoveEstimate(**m) for m in d["moves"])})
                     for d in data["decisions"]]
        return cls(data["game"], dict(data["config"]), data["seat"], data["iterations"], data["seed"],
                   data["value_label"], decisions)


def _mean_percent(decisions: list[Decision]) -> float | None:
    if not decisions:
        return None
    return 100.0 * sum(d.accuracy for d in decisions) / len(decisions)


def _counts(decisions: list[Decision]) -> dict[str, int]:
    return {c: sum(1 for d in decisions if d.category == c) for c in CATEGORIES}


def start_and_moves(source: Mapping[str, JSON] | State) -> tuple[State, list[int]]:
    """The starting state and the move ids of a record (checked by
    :func:`cardtable.records.replay`) or of a played state (its history)."""
    if isinstance(source, State):
        return source.game.new_state(seed=source.seed, decks=source.decks), list(source.history)
    from cardtable import records

    played = records.replay(dict(source))
    return records.new_state_of(dict(source)), list(played.history)


def decision_plies(start: State, moves: list[int], seat: int) -> list[int]:
    """The move numbers at which ``seat`` chose among more than one legal move."""
    state = start.clone()
    plies = []
    for ply, action in enumerate(moves):
        if state.current_player() == seat and len(state.legal_actions()) > 1:
            plies.append(ply)
        state.apply_action(action)
    return plies


def analyse(source: Mapping[str, JSON] | State, seat: int, *, iterations: int = DEFAULT_ITERATIONS,
            seed: int = 0, progress: Callable[[int, int], None] | None = None) -> MatchAnalysis:
    """Analyse every decision of ``seat`` in a match (a record, or a state whose
    history is the match so far).  ``progress(done, total)`` is called after each
    decision.  ``ValueError`` for a seat the game does not have."""
    start, moves = start_and_moves(source)
    game = start.game
    if not 0 <= seat < game.num_players:
        raise ValueError(f"seat must be 0..{game.num_players - 1} for {game.name}, not {seat}")
    kn = knowledge_for(game)
    result = MatchAnalysis(game.name, game.config_dict(), seat, iterations, seed, kn.value_label())
    plies = set(decision_plies(start, moves, seat))
    state = start.clone()
    for ply, action in enumerate(moves):
        if ply in plies:
            result.decisions.append(_analyse_decision(state, ply, action, iterations, seed))
            if progress is not None:
                progress(len(result.decisions), len(plies))
        state.apply_action(action)
    return result


def best_move(visits: Mapping[int, int], value_sums: Mapping[int, float]) -> int:
    """The move with the best mean value among those searched at least half as often
    as the most searched one (a lucky mean of a few play-outs is no reference); the
    more searched, then the lower id, among equals.

    >>> best_move({1: 10, 2: 10, 3: 2}, {1: 5.0, 2: 6.0, 3: 2.0})
    2
    """
    most = max(visits.values())
    return min((a for a, n in visits.items() if n > 0 and 2 * n >= most),
               key=lambda a: (-value_sums[a] / visits[a], -visits[a], a))


def estimate_moves(obs: Observation, iterations: int, seed: int) -> tuple[int, list[MoveEstimate]]:
    """The best move of ``obs`` and every legal move's estimate, the best first, from a
    search of ``iterations`` play-outs (at least one per legal move, so that every
    move has an estimate) seeded by ``seed``: the observation only, never the deal."""
    kn = knowledge_for(obs.game)
    params = SearchParams(iterations=max(iterations, len(obs.legal_actions)), root_actions=obs.legal_actions)
    stats = search(obs, params, seed, kn)
    best = best_move(stats.visits, stats.value_sums)
    estimates = sorted((MoveEstimate(obs.action_to_string(a), a, (stats.mean(a) + 1.0) / 2.0, stats.visits.get(a, 0))
                        for a in obs.legal_actions if stats.visits.get(a, 0) > 0),
                       key=lambda m: (m.action != best, -m.win, -m.visits, m.action))
    return best, estimates


def _analyse_decision(state: State, ply: int, played: int, iterations: int, seed: int) -> Decision:
    """Search the decision at ``state`` from the seat to move's observation only."""
    obs = Observation.of(state)
    best, estimates = estimate_moves(obs, iterations, random.Random(f"analysis/{seed}/{ply}").getrandbits(63))
    win = {m.action: m.win for m in estimates}
    played_win = win.get(played, 0.0)  # a move never searched counts as lost
    loss = max(0.0, win[best] - played_win)
    return Decision(ply=ply, round=knowledge_for(state.game).round_of(state), played=obs.action_to_string(played),
                    best=obs.action_to_string(best), win_played=played_win, win_best=win[best],
                    loss=loss, category=category(loss, best=played == best), accuracy=decision_accuracy(loss),
                    moves=tuple(estimates))


__all__ = [
    "ACCURACY_ZERO_LOSS",
    "BLUNDER",
    "CATEGORIES",
    "DEFAULT_ITERATIONS",
    "INACCURACY",
    "MISTAKE",
    "Decision",
    "MatchAnalysis",
    "MoveEstimate",
    "RoundAccuracy",
    "analyse",
    "best_move",
    "category",
    "decision_accuracy",
    "decision_plies",
    "estimate_moves",
    "start_and_moves",
]
