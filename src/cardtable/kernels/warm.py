"""Compile every kernel once, ahead of play: the lab's batches and the search's play-outs.

numba compiles a kernel at its first call (tens of seconds on a fresh machine) and keeps
the machine code in its on-disk cache (``cache=True``), which later processes load in
about a second.  :func:`warm_steps` lists what to call so that nothing compiles in the
middle of a match — the set-up of ``make play`` runs them (``cardtable kernels``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cardtable.registry import games_with, load_game


@dataclass(frozen=True)
class WarmStep:
    """One call that compiles (or loads from the cache) part of a game's kernel."""

    game: str
    what: str
    """``"random"``, ``"heuristic"`` (the lab's play-outs) or ``"search, P play-outs"``
    (the search's, played by the knowledge's leaf policy ``P``)."""
    run: Callable[[], None]


def warm_steps() -> list[WarmStep]:
    """Every game's kernel entries: random and heuristic matches, and a short search
    for each policy that can play the search's play-outs (:attr:`Knowledge.leaf_policies`:
    a game's sizes differ in which they play by default — Command of Two the heuristic,
    four-player Lost Ranks the fast policy — and each is its own compiled entry)."""
    from cardtable.agents.knowledge import knowledge_for

    steps = []
    for name in games_with("kernel"):
        steps += [WarmStep(name, "random", _batch(name, "random")),
                  WarmStep(name, "heuristic", _batch(name, "heuristic"))]
        steps += [WarmStep(name, f"search, {policy} play-outs", _search(name, policy))
                  for policy in knowledge_for(load_game(name)).leaf_policies]
    return steps


def _batch(name: str, policy: str) -> Callable[[], None]:
    def run() -> None:
        from cardtable.kernels import play_many

        play_many(load_game(name), policy, 1, 0)

    return run


def _search(name: str, policy: str) -> Callable[[], None]:
    def run() -> None:
        from cardtable.agents.base import Observation
        from cardtable.agents.knowledge import knowledge_for
        from cardtable.agents.search import SearchParams, search

        game = load_game(name)
        state = game.new_state(seed=0)
        while len(state.legal_actions()) < 2:  # the search needs a choice to play out
            state.apply_action(state.legal_actions()[0])
        obs = Observation.of(state)
        search(obs, SearchParams(iterations=4), seed=0, knowledge=knowledge_for(game).with_leaf_policy(policy))

    return run


def warm() -> int:
    """Run every :func:`warm_steps` step (nothing without numba): how many ran."""
    from cardtable.kernels import available

    if not available():
        return 0
    steps = warm_steps()
    for step in steps:
        step.run()
    return len(steps)
