"""``cardtable kernels``: compile the play-out kernels now, so that no match waits for them.

Without the extra ``fast`` (numba) the command says how to install it and that the
pure-Python engines play instead; with it, each game's kernel entries are compiled
into numba's on-disk cache (or loaded from it), one progress step each, in several
processes at once (``--jobs``; the searches take the longest).
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import TYPE_CHECKING

import typer
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

if TYPE_CHECKING:
    from cardtable.kernels.warm import WarmFailure, WarmStep

INSTALL_HINT = "pip install -e '.[fast]'"


def playout_engine() -> str:
    """One line for a server's start: which engine the AI's play-outs use."""
    from cardtable.kernels import available

    if available():
        return "AI play-outs: compiled kernels (numba)"
    return (f"AI play-outs: pure Python — {INSTALL_HINT} for about ten times more search "
            "per move at the same time")


def kernels_command(
    quiet: bool = typer.Option(False, "--quiet", help="Print only the summary line."),
    jobs: int = typer.Option(0, "--jobs", "-j", min=0,
                             help="Processes compiling at once (0: one a core, at most four)."),
) -> None:
    """Compile the AI's play-out kernels now (extra fast), not mid-match."""
    from cardtable.cli import console
    from cardtable.kernels import available
    from cardtable.kernels.warm import warm_parts, warm_steps

    if not available():
        console.print(f"The compiled kernels are not installed (numba): {INSTALL_HINT}. "
                      "Everything works without them, the search with fewer play-outs.", markup=False)
        return
    steps = warm_steps()
    processes = min(jobs or default_jobs(), len(warm_parts(steps)))
    start = time.perf_counter()
    with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                  TimeElapsedColumn(), console=console, disable=quiet or not console.is_terminal) as bar:
        task = bar.add_task("compiling the kernels", total=len(steps))
        if processes > 1:
            _compile_in_processes(steps, processes, lambda what, n: bar.update(task, description=what, advance=n))
        else:
            _compile_here(steps, lambda what, n: bar.update(task, description=what, advance=n))
    console.print(f"{len(steps)} kernel entries of {len({s.game for s in steps})} games ready "
                  f"in {time.perf_counter() - start:.1f} s (cached: later starts load them in about a second)")


def default_jobs() -> int:
    """One process a core this process may use, at most four (each compiler holds a few
    hundred MB)."""
    return max(1, min(4, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1))


Report = Callable[[str, int], None]
"""Progress: what is being compiled (or was), and how many steps finished with it."""


def _compile_here(steps: list[WarmStep], report: Report) -> None:
    from cardtable.kernels.warm import WarmFailure

    for step in steps:
        report(f"{step.game}: {step.what}", 0)
        try:
            step.run()
        except Exception as err:
            raise _failed(WarmFailure(step.game, step.what, str(err))) from None
        report(f"{step.game}: {step.what}", 1)


def _compile_in_processes(steps: list[WarmStep], processes: int, report: Report) -> None:
    """Each part (:func:`~cardtable.kernels.warm.warm_parts`) in a fresh process
    (``spawn``: numba's compiler does not survive a fork); numba's cache is written
    atomically, so parts that share a function both compile it and one copy stays."""
    from cardtable.kernels.warm import WarmFailure, warm_part, warm_parts

    report(f"compiling in {processes} processes", 0)
    with ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("spawn")) as pool:
        pending = {pool.submit(warm_part, *part): part for part in warm_parts(steps)}
        for done in as_completed(pending):
            game, kind = pending[done]
            try:
                count = done.result()
            except WarmFailure as failure:
                for other in pending:
                    other.cancel()
                raise _failed(failure) from None
            except Exception as err:  # the worker itself died (killed, out of memory)
                raise _failed(WarmFailure(game, kind, f"{type(err).__name__}: {err}")) from None
            report(f"{game}: {kind} ready", count)


def _failed(failure: WarmFailure) -> typer.Exit:
    """A broken numba install: say which part, keep the engines."""
    from cardtable.cli import fail

    return fail(f"compiling the {failure.game} kernel ({failure.what}) failed: {failure.message}; "
                "the pure-Python engines still play (uninstall numba to silence this)")
