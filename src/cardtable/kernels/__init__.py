"""Compiled play-out kernels (the optional extra ``fast``: numba and numpy).

The pure-Python engines in :mod:`cardtable.games` stay the reference and the default;
a kernel plays whole matches inside one compiled call, with the same rules, for the
lab's batches and the search's play-outs.  Each kernel is verified against its engine
(``tests/test_kernels.py``, ``tests/test_kernel_rank.py``, ``tests/test_kernel_lost_ranks.py``):
the same legal moves at every step, the same results and typed events for the same
moves, and its compiled heuristic choosing what the Python heuristic chooses.  The
heuristic is written once, in each game's ``decisions`` module (plain functions the
Python heuristic calls and the kernel compiles, :func:`~cardtable.kernels.jit.compile_shared`);
the Lost Ranks kernel works out what the seat to move knows from its own state.

    >>> from cardtable.kernels import available
    >>> isinstance(available(), bool)
    True

A game's kernel is its ``kernel`` part (:func:`cardtable.registry.kernel_for`), a module
with ``play_many(game, policies, n, seed, styles=...)``; the games that have one:
:func:`cardtable.registry.games_with` ``("kernel")``.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cardtable.protocol import Game
from cardtable.registry import games_with, kernel_for

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

POLICIES = ("random", "heuristic")
"""What a kernel's seats can play: uniformly random legal moves, or the game's heuristic."""


def available() -> bool:
    """Are the kernels installed (numba and numpy importable)?"""
    return all(importlib.util.find_spec(name) is not None for name in ("numba", "numpy"))


@dataclass(frozen=True)
class PlayOuts:
    """The results of a batch of kernel matches (or play-outs), one row per match.

    ``scores[i]``: the seats' match totals; ``round_scores[i, r]``: round ``r``'s points
    per seat (zeros for rounds not played here); ``actions[i]``: actions applied;
    ``events[i, seat, e]``: how often ``seat`` made event ``event_names[e]``."""

    scores: npt.NDArray[np.int64]
    round_scores: npt.NDArray[np.int64]
    actions: npt.NDArray[np.int64]
    events: npt.NDArray[np.int64]
    event_names: tuple[str, ...]

    @property
    def winners(self) -> npt.NDArray[np.int64]:
        """Per match the seat with the highest score alone, -1 when several share it.

        >>> import numpy as np
        >>> z = np.zeros((3, 0, 3), np.int64)
        >>> PlayOuts(np.array([[5, 3, 1], [2, 2, 0], [0, -1, 4]]), z, np.zeros(3, np.int64), z, ()).winners.tolist()
        [0, -1, 2]
        """
        import numpy as np

        best = self.scores.max(axis=1, keepdims=True)
        alone = (self.scores == best).sum(axis=1) == 1
        return np.where(alone, self.scores.argmax(axis=1), -1)


def check(game: Game, policies: Sequence[str]) -> None:
    """A :class:`ValueError` unless a kernel plays ``game`` as configured with seats of
    ``policies``: the kernels compile the published rules, so a designer's knob at
    another value is refused here, before the game's own kernel checks the rest."""
    kernel = kernel_for(game.name)
    if kernel is None:
        raise ValueError(f"no compiled kernel for {game.name} yet (kernels: {', '.join(games_with('kernel'))})")
    custom = game.info.custom_rules(game.config_dict())
    if custom:
        changed = ", ".join(f"{k}={v}" for k, v in custom.items())
        raise ValueError(f"the compiled {game.title} kernel plays the published rules only, not {changed}")
    kernel.check(game, policies)


def play_many(game: Game, policy: str | Sequence[str], n: int, seed: int, *,
              styles: Sequence[str] | None = None) -> PlayOuts:
    """``n`` whole matches of ``game`` (its options as configured) dealt from ``seed``,
    each seat playing ``policy`` (one name of :data:`POLICIES`, or one per seat);
    ``styles``: the heuristic seats' named styles (the game's default style for every
    seat when ``None``).

    Raises :class:`ImportError` without numba and :class:`ValueError` for a game that
    has no kernel yet or a policy it does not know."""
    policies = (policy,) * game.num_players if isinstance(policy, str) else tuple(policy)
    for p in policies:
        if p not in POLICIES:
            raise ValueError(f"unknown kernel policy {p!r}; choose from: {', '.join(POLICIES)}")
    if n < 0:
        raise ValueError(f"the number of matches must be at least 0, not {n}")
    check(game, policies)
    kernel = kernel_for(game.name)
    assert kernel is not None
    played: PlayOuts = (kernel.play_many(game, policies, n, seed) if styles is None
                        else kernel.play_many(game, policies, n, seed, styles=styles))
    return played
