"""One match between agents, the seats' rotation, and the summary of a series.

A series is one cell of a study (:func:`cardtable.lab.runner.run_series` plays it with
the lab's runner); this module plays a match and summarises finished ones.

``entries`` are agent specs (``"heuristic"``, ``"ismcts:iterations=300"``, see
:func:`cardtable.agents.parse_agent_spec`).  In match ``i`` seat ``s`` is played
by entry ``(s + i) % len(entries)``: with as many entries as seats every entry
visits every seat; with two entries in a four-seat partnership game the entries
form the two partnerships.

Results are counted per *team* (:meth:`cardtable.protocol.Game.teams`): a
partnership held by one entry is one result per match, not two, so the 95 %
intervals have the right width.  In games without partners a team is a seat.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from cardtable.agents import Agent, Observation, make_agent
from cardtable.lab.measures import count_event_kinds, measures_of
from cardtable.lab.stats import mean, time_summary, wilson_interval
from cardtable.protocol import Event, Game


@dataclass
class MatchOutcome:
    """One finished match: who sat where and what happened."""

    seed: int
    seating: list[int]
    """``seating[seat]`` = index into the entry list."""
    returns: list[float]
    scores: list[Any]
    actions: int
    decision_seconds: list[list[float]]
    """Every decision's time per seat (decisions with more than one legal move)."""
    events: dict[str, int] = field(default_factory=dict)
    """Typed event details counted by kind (:func:`cardtable.lab.measures.count_event_kinds`)."""
    measures: dict[str, float] = field(default_factory=dict)
    """The game's derived measures (:func:`cardtable.lab.measures.measures_of`)."""

    @property
    def think_seconds(self) -> list[float]:
        return [sum(times) for times in self.decision_seconds]

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> MatchOutcome:
        """The outcome stored as a results row (:mod:`cardtable.lab.results`)."""
        return cls(row["seed"], row["seating"], row["returns"], row["scores"], row["actions"],
                   row.get("decision_seconds") or [[] for _ in row["seating"]], row["events"], row["measures"])


def seating_for(match_index: int, num_players: int, num_entries: int) -> list[int]:
    """Which entry sits in each seat for match ``match_index``.

    >>> seating_for(0, 2, 2), seating_for(1, 2, 2)
    ([0, 1], [1, 0])
    >>> seating_for(1, 4, 2)
    [1, 0, 1, 0]
    """
    return [(s + match_index) % num_entries for s in range(num_players)]


def play_match(game: Game, entries: Sequence[str], *, seed: int, match_index: int = 0,
               seating: Sequence[int] | None = None,
               agent_for: Callable[[str, Game, int], Agent] | None = None) -> MatchOutcome:
    """Play one match; the agent in seat ``s`` is seeded with ``seed * 1000 + s``.
    ``seating`` (entry per seat) defaults to the rotation :func:`seating_for`;
    ``agent_for(entry, game, seed)`` makes the agents (default
    :func:`~cardtable.agents.make_agent`; benchmarks pass their own wrappers)."""
    seating = list(seating) if seating is not None else seating_for(match_index, game.num_players, len(entries))
    make = agent_for if agent_for is not None else lambda spec, g, s: make_agent(spec, g, seed=s)
    agents = [make(entries[e], game, seed * 1000 + s) for s, e in enumerate(seating)]
    state = game.new_state(seed=seed)
    times: list[list[float]] = [[] for _ in range(game.num_players)]
    clock = time.perf_counter
    events: list[Event] = []
    try:
        while not state.is_terminal():
            seat = state.current_player()
            legal = state.legal_actions()
            if len(legal) == 1:
                action = legal[0]
            else:
                start = clock()
                action = agents[seat].act(Observation(game, seat, state.view(seat), tuple(legal), state))
                times[seat].append(clock() - start)
            events.append(state.apply_action(action))
    finally:
        for agent in agents:
            close = getattr(agent, "close", None)
            if callable(close):
                close()
    scores = list(state.result().get("scores", []))
    return MatchOutcome(seed, seating, list(state.returns()), scores, len(state.history), times,
                        dict(count_event_kinds(events)), measures_of(state, events))


@dataclass
class EntrySummary:
    """Results of one agent entry (or one seat)."""

    label: str
    results: int = 0
    """Matches counted once per team the entry held (partners together)."""
    wins: int = 0
    losses: int = 0
    draws: int = 0
    returns: list[float] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)
    decision_seconds: list[float] = field(default_factory=list)

    def add(self, ret: float, *, drawn: bool) -> None:
        self.results += 1
        self.wins += ret > 0
        self.losses += ret < 0
        self.draws += drawn
        self.returns.append(ret)

    @property
    def win_rate(self) -> float:
        return self.wins / self.results if self.results else 0.0

    @property
    def loss_rate(self) -> float:
        return self.losses / self.results if self.results else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "agent": self.label,
            "results": self.results,
            "win_rate": self.win_rate,
            "win_rate_95": list(wilson_interval(self.wins, self.results)),
            "loss_rate": self.loss_rate,
            "loss_rate_95": list(wilson_interval(self.losses, self.results)),
            "draws": self.draws,
            "mean_return": mean(self.returns),
            "mean_score": mean(self.scores) if self.scores else None,
            "decision_ms": time_summary(self.decision_seconds),
        }


@dataclass
class SeriesSummary:
    game: str
    config: dict[str, Any]
    agents: list[str]
    teams: list[list[int]]
    outcomes: list[MatchOutcome]

    def per_entry(self) -> list[EntrySummary]:
        """One row per entry: one result per team it held in each match."""
        rows = [EntrySummary(label) for label in _labels(self.agents)]
        for o in self.outcomes:
            drawn = not any(o.returns)
            for team in self.teams:
                holders = {o.seating[s] for s in team}
                units = [team] if len(holders) == 1 else [[s] for s in team]
                for unit in units:
                    rows[o.seating[unit[0]]].add(o.returns[unit[0]], drawn=drawn)
            for seat, entry in enumerate(o.seating):
                rows[entry].decision_seconds.extend(o.decision_seconds[seat])
                if len(o.scores) == len(o.seating) and isinstance(o.scores[seat], (int, float)):
                    rows[entry].scores.append(float(o.scores[seat]))
        return rows

    def per_seat(self) -> list[EntrySummary]:
        """Win and loss rates by seat, whoever sat there (seat advantage)."""
        n = len(self.outcomes[0].seating) if self.outcomes else 0
        rows = [EntrySummary(f"seat {s}") for s in range(n)]
        for o in self.outcomes:
            for seat in range(n):
                rows[seat].add(o.returns[seat], drawn=not any(o.returns))
        return rows

    def as_dict(self, *, outcomes: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "game": self.game,
            "config": self.config,
            "agents": self.agents,
            "teams": self.teams,
            "matches": len(self.outcomes),
            "draws": sum(1 for o in self.outcomes if not any(o.returns)),
            "mean_actions": mean([o.actions for o in self.outcomes]),
            "entries": [e.as_dict() for e in self.per_entry()],
            "seats": [e.as_dict() for e in self.per_seat()],
        }
        if outcomes:
            data["outcomes"] = [asdict(o) for o in self.outcomes]
        return data


def _labels(agents: Sequence[str]) -> list[str]:
    """Entry labels, numbered where a spec appears more than once."""
    totals = {a: agents.count(a) for a in agents}
    seen: dict[str, int] = {}
    out = []
    for a in agents:
        if totals[a] > 1:
            seen[a] = seen.get(a, 0) + 1
            out.append(f"{a}#{seen[a]}")
        else:
            out.append(a)
    return out
