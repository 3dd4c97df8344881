"""The Lost Ranks heuristic's recorded choices: a frozen record of what
:class:`~cardtable.games.lost_ranks.heuristic.LostRanksHeuristic` chose, for
``tests/test_kernel_lost_ranks.py`` to show that the heuristic still chooses the same
after its decisions moved to :mod:`cardtable.games.lost_ranks.decisions`.

Each match of a variant is seeded ``seed``; one heuristic agent (seeded ``seed``) is
asked at every decision of every seat, and the move applied is its choice, or, with
chance 0.2 (``random.Random(seed)``), a random legal move instead, so that the positions
stray from the heuristic's own.  The record holds per variant and seed the agent's
actions in order: (seed, decision index, action).  Regenerate only on purpose, after a
deliberate change of the heuristic::

    PYTHONPATH=src python tests/golden/lost_ranks_heuristic.py
"""

from __future__ import annotations

import gzip
import json
import random
from collections.abc import Iterator
from pathlib import Path

from cardtable.agents.base import Agent, Observation
from cardtable.games.lost_ranks import LostRanks, LostRanksState

RECORD = Path(__file__).parent / "lost-ranks-heuristic.json.gz"
VARIANTS: dict[str, dict[str, int]] = {"4p": {"players": 4}, "4p-force": {"players": 4, "force_strength": True},
                                       "2p": {"players": 2}}
MATCHES = 200
"""Matches recorded per variant (seeds ``0 .. MATCHES - 1``)."""


def decisions(game: LostRanks, seed: int, agent: Agent) -> Iterator[tuple[LostRanksState, int]]:
    """The match of ``seed``: each decision's state (before the move) and the agent's
    action; then the move is applied."""
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        action = agent.act(Observation.of(state))
        yield state, action
        move = action if rng.random() > 0.2 else rng.choice(state.legal_actions())
        state.apply_action(move)


def record() -> dict[str, dict[str, list[int]]]:
    """Every variant's matches played by the current heuristic."""
    from cardtable.games.lost_ranks.heuristic import LostRanksHeuristic

    out: dict[str, dict[str, list[int]]] = {}
    for name, options in VARIANTS.items():
        game = LostRanks(**options)  # type: ignore[arg-type]
        out[name] = {str(seed): [a for _, a in decisions(game, seed, LostRanksHeuristic(game, seed=seed))]
                     for seed in range(MATCHES)}
    return out


def load() -> dict[str, dict[str, list[int]]]:
    """The record (variant -> seed -> actions)."""
    with gzip.open(RECORD, "rt", encoding="utf-8") as f:
        loaded: dict[str, dict[str, list[int]]] = json.load(f)
    return loaded


if __name__ == "__main__":
    with gzip.GzipFile(RECORD, "wb", mtime=0) as f:
        f.write(json.dumps(record(), separators=(",", ":")).encode())
    print(f"wrote {RECORD}")
