"""Compile every kernel once, ahead of play: the lab's batches and the search's play-outs.

numba compiles a kernel at its first call (tens of seconds on a fresh machine) and keeps
the machine code in its on-disk cache (``cache=True``), which later processes load in
about a second.  :func:`warm_steps` lists what to call so that nothing compiles in the
middle of a match — the set-up of ``make play`` runs them (``cardtable kernels``).
:func:`warm_parts` groups them into parts that share little compiled code (a game's
batches, a game's searches), so that several processes can compile them at once.
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

    @property
    def part(self) -> tuple[str, str]:
        """``(game, "search" or "batch")``: the steps of a part share compiled code; two
        parts little (each compiles alone in about the time it takes after the other)."""
        return self.game, "search" if self.what.startswith("search") else "batch"


class WarmFailure(Exception):
    """A step that failed to compile, named (raised across processes, so picklable)."""

    def __init__(self, game: str, what: str, message: str) -> None:
        super().__init__(game, what, message)
        self.game, self.what, self.message = game, what, message


def warm_steps() -> list[WarmStep]:
    """Every game's kernel entries: random and heuristic matches, and a short search
    for each policy that can play the search's play-outs (:attr:`Knowledge.leaf_policies`:
    a game's sizes differ in which they play by default — four-player Lost Ranks the
    heuristic, Command of Two the heuristic with a look-ahead — and each is its own
    compiled entry)."""
    from cardtable.agents.knowledge import knowledge_for

    steps = []
    for name in games_with("kernel"):
        steps += [WarmStep(name, "random", _batch(name, "random")),
                  WarmStep(name, "heuristic", _batch(name, "heuristic"))]
        steps += [WarmStep(name, f"search, {policy} play-outs", _search(name, policy))
                  for policy in knowledge_for(load_game(name)).leaf_policies]
    return steps


def warm_parts(steps: list[WarmStep]) -> list[tuple[str, str]]:
    """The parts of ``steps``, the searches first: they take the longest to compile
    (Lost Ranks' fast-policy search alone about half of all), so with several
    processes the batches fill in beside them."""
    parts = list(dict.fromkeys(step.part for step in steps))
    return sorted(parts, key=lambda part: part[1] != "search")


def warm_part(game: str, kind: str) -> int:
    """Run the steps of one part (in a worker process of ``cardtable kernels --jobs``):
    how many ran; a failing step raises :class:`WarmFailure` naming it."""
    done = 0
    for step in warm_steps():
        if step.part == (game, kind):
            try:
                step.run()
            except Exception as err:
                raise WarmFailure(step.game, step.what, str(err)) from None
            done += 1
    return done


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
