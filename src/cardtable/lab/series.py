"""Run series of matches between named agents, seats rotated, and summarise them.

``agents`` is a list of agent names.  In match ``i`` seat ``s`` is played by
entry ``(s + i) % len(agents)``: with as many entries as seats every entry
visits every seat; with two entries in a four-seat partnership game the
entries form the two partnerships.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardtable.agents import Observation, make_agent
from cardtable.lab.stats import mean, wilson_interval
from cardtable.protocol import Game


@dataclass
class MatchOutcome:
    """One finished match: who sat where and what happened."""

    seed: int
    seating: list[int]
    """``seating[seat]`` = index into the agent list."""
    returns: list[float]
    scores: list[Any]
    actions: int
    think_seconds: list[float]
    """Total decision time per seat."""
    decisions: list[int]


def seating_for(match_index: int, num_players: int, num_entries: int) -> list[int]:
    """Which agent entry sits in each seat for match ``match_index``.

    >>> seating_for(0, 2, 2), seating_for(1, 2, 2)
    ([0, 1], [1, 0])
    >>> seating_for(1, 4, 2)
    [1, 0, 1, 0]
    """
    return [(s + match_index) % num_entries for s in range(num_players)]


def play_match(game: Game, agent_names: Sequence[str], *, seed: int, match_index: int = 0) -> MatchOutcome:
    """Play one match; agent entry ``k`` is seeded from ``(seed, k)``."""
    seating = seating_for(match_index, game.num_players, len(agent_names))
    agents = [make_agent(agent_names[e], game, seed=seed * 1000 + s) for s, e in enumerate(seating)]
    state = game.new_state(seed=seed)
    think = [0.0] * game.num_players
    decisions = [0] * game.num_players
    clock = time.perf_counter
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        if len(legal) == 1:
            action = legal[0]
        else:
            start = clock()
            action = agents[seat].act(Observation(game, seat, state.view(seat), tuple(legal), state))
            think[seat] += clock() - start
            decisions[seat] += 1
        state.apply_action(action)
    result = state.result()
    return MatchOutcome(seed, seating, list(state.returns()), list(result.get("scores", [])), len(state.history), think, decisions)


@dataclass
class EntrySummary:
    label: str
    matches: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    returns: list[float] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)
    think: float = 0.0
    decisions: int = 0

    @property
    def win_rate(self) -> float:
        return self.wins / self.matches if self.matches else 0.0

    @property
    def loss_rate(self) -> float:
        return self.losses / self.matches if self.matches else 0.0

    def win_interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.matches)

    def loss_interval(self) -> tuple[float, float]:
        return wilson_interval(self.losses, self.matches)

    def as_dict(self) -> dict[str, Any]:
        return {
            "agent": self.label,
            "seat_matches": self.matches,
            "win_rate": self.win_rate,
            "win_rate_95": list(self.win_interval()),
            "loss_rate": self.loss_rate,
            "loss_rate_95": list(self.loss_interval()),
            "draws": self.draws,
            "mean_return": mean(self.returns),
            "mean_score": mean(self.scores) if self.scores else None,
            "mean_decision_ms": 1000 * self.think / self.decisions if self.decisions else 0.0,
        }


@dataclass
class SeriesSummary:
    game: str
    config: dict[str, Any]
    agents: list[str]
    outcomes: list[MatchOutcome]

    def per_entry(self) -> list[EntrySummary]:
        """One line per agent entry, counted per seat it played (partners count twice,
        which leaves the rates unchanged)."""
        labels = _labels(self.agents)
        rows = [EntrySummary(label) for label in labels]
        for o in self.outcomes:
            for seat, entry in enumerate(o.seating):
                row = rows[entry]
                row.think += o.think_seconds[seat]
                row.decisions += o.decisions[seat]
                r = o.returns[seat]
                row.matches += 1
                row.wins += r > 0
                row.losses += r < 0
                row.draws += r == 0 and not any(x != 0 for x in o.returns)
                row.returns.append(r)
                if len(o.scores) == len(o.seating) and isinstance(o.scores[seat], (int, float)):
                    row.scores.append(float(o.scores[seat]))
        return rows

    def per_seat(self) -> list[EntrySummary]:
        """Win and loss rates by seat, whoever sat there (seat advantage)."""
        n = len(self.outcomes[0].seating) if self.outcomes else 0
        rows = [EntrySummary(f"seat {s}") for s in range(n)]
        for o in self.outcomes:
            for seat in range(n):
                r = o.returns[seat]
                rows[seat].matches += 1
                rows[seat].wins += r > 0
                rows[seat].losses += r < 0
                rows[seat].returns.append(r)
        return rows

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "config": self.config,
            "agents": self.agents,
            "matches": len(self.outcomes),
            "draws": sum(1 for o in self.outcomes if not any(o.returns)),
            "mean_actions": mean([o.actions for o in self.outcomes]),
            "entries": [e.as_dict() for e in self.per_entry()],
            "seats": [e.as_dict() for e in self.per_seat()],
        }


def _labels(agents: Sequence[str]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for a in agents:
        seen[a] = seen.get(a, 0) + 1
    counts: dict[str, int] = {}
    for a in agents:
        if seen[a] > 1:
            counts[a] = counts.get(a, 0) + 1
            out.append(f"{a}#{counts[a]}")
        else:
            out.append(a)
    return out


def run_series(
    game: Game,
    agent_names: Sequence[str],
    *,
    games: int,
    seed: int = 0,
    on_match: Callable[[MatchOutcome], None] | None = None,
) -> SeriesSummary:
    """Play ``games`` matches with seeds ``seed, seed+1, …`` and seats rotated."""
    for name in agent_names:  # fail early on an unknown agent
        make_agent(name, game, seed=0)
    outcomes = []
    for i in range(games):
        outcome = play_match(game, agent_names, seed=seed + i, match_index=i)
        outcomes.append(outcome)
        if on_match is not None:
            on_match(outcome)
    return SeriesSummary(game.name, game.config_dict(), list(agent_names), outcomes)
