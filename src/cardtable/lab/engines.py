"""Which engine plays a study's matches: the Python games (the reference) or a kernel.

``engine = "python"`` (the default) plays every match with the engines of
:mod:`cardtable.games` and the agents of :mod:`cardtable.agents`.  ``engine =
"kernel"`` plays them inside the compiled kernels of :mod:`cardtable.kernels` (the
extra ``fast``: numba), many times faster; it needs a game with a kernel
(:func:`cardtable.registry.games_with` ``("kernel")``) and seats the kernel can play
(:data:`KERNEL_AGENTS`).

A kernel match is dealt from the same seed (:func:`cardtable.lab.study.match_seed`)
and seated the same way, and its row has the same columns — but the kernel deals
its own cards from that seed, so the rows are not those of the Python engine: the
*statistics* agree (within their intervals, ``tests/test_lab.py``), match by match
they differ.  What a kernel does not record is left out of its rows: the decision
timings (``decisions`` is 0, ``think_seconds`` 0, ``decision_seconds`` empty) and the
Lost Cities measures ``first_player`` and ``eight_card_bonuses``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cardtable.agents import parse_agent_spec
from cardtable.protocol import Game
from cardtable.registry import games_with, kernel_for

if TYPE_CHECKING:
    from cardtable.lab.results import Row
    from cardtable.lab.runner import MatchTask

ENGINES = ("python", "kernel")
KERNEL_AGENTS = ("random", "heuristic", "heuristic:style=STYLE")
"""Agent specs a kernel seat plays (the Python heuristic's named styles are the kernel's)."""


def kernel_seat(spec: str) -> tuple[str, str]:
    """The kernel policy and heuristic style of an agent spec, or a :class:`ValueError`
    naming what a kernel plays.

    >>> kernel_seat("heuristic:style=bold"), kernel_seat("random")
    (('heuristic', 'bold'), ('random', 'steady'))
    """
    name, options = parse_agent_spec(spec)
    if name == "random" and not options:
        return name, "steady"
    if name == "heuristic" and set(options) <= {"style"}:
        return name, str(options.get("style", "steady"))
    raise ValueError(f"engine 'kernel' plays only {', '.join(KERNEL_AGENTS)} seats, not {spec!r}; "
                     "use engine 'python' for other agents")


def check_kernel(game: Game, agents: Sequence[str]) -> None:
    """Can a kernel play ``agents`` at ``game``?  A :class:`ValueError` says why not."""
    if game.name not in games_with("kernel"):
        raise ValueError(f"engine 'kernel' supports {', '.join(games_with('kernel'))} only, not {game.name}; "
                         "use engine 'python'")
    from cardtable import kernels

    if not kernels.available():
        raise ValueError("engine 'kernel' needs numba and numpy: pip install 'cardtable[fast]'")
    try:
        kernels.check(game, [kernel_seat(spec)[0] for spec in agents])
    except ValueError as error:
        raise ValueError(f"engine 'kernel': {error}; use engine 'python'") from None


def kernel_row(task: MatchTask, game: Game, seating: list[int]) -> Row:
    """Play ``task`` in its game's kernel; the row in the results format
    (:mod:`cardtable.lab.results`; what is left out: the module docstring)."""
    from cardtable import kernels

    kernel = kernel_for(game.name)
    if kernel is None:
        raise ValueError(f"engine 'kernel': no kernel for {game.name}")
    seats = [kernel_seat(task.agents[e]) for e in seating]
    started = time.perf_counter()
    out = kernels.play_many(game, [p for p, _ in seats], 1, task.seed, styles=[s for _, s in seats])
    scores = [int(x) for x in out.scores[0]]
    counts = {name: int(out.events[0, :, e].sum()) for e, name in enumerate(out.event_names)}
    rounds = kernel.match_rounds(counts) if hasattr(kernel, "match_rounds") else int(game.config_dict().get("rounds", 1))
    return {
        "cell": task.cell, "cell_key": task.cell_key, "variant": task.variant, "agents": list(task.agents),
        "seating_rule": task.seating_rule, "match_index": task.match_index, "seed": task.seed,
        "seating": seating, "returns": kernel.row_returns(scores, counts), "scores": scores, "actions": int(out.actions[0]),
        "rounds": rounds, "measures": kernel.row_measures(scores, rounds, counts),
        "events": kernel.row_events(rounds, counts), "decisions": 0,
        "think_seconds": [0.0] * len(scores), "decision_seconds": [[] for _ in scores],
        "wall_seconds": round(time.perf_counter() - started, 6),
    }

