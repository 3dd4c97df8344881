"""``cardtable kernels``: compile the play-out kernels now, so that no match waits for them.

Without the extra ``fast`` (numba) the command says how to install it and that the
pure-Python engines play instead; with it, each game's kernel entries are compiled
into numba's on-disk cache (or loaded from it), one progress step each.
"""

from __future__ import annotations

import time

import typer
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

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
) -> None:
    """Compile the AI's play-out kernels now (extra fast), not mid-match."""
    from cardtable.cli import console, fail
    from cardtable.kernels import available
    from cardtable.kernels.warm import warm_steps

    if not available():
        console.print(f"The compiled kernels are not installed (numba): {INSTALL_HINT}. "
                      "Everything works without them, the search with fewer play-outs.", markup=False)
        return
    steps = warm_steps()
    start = time.perf_counter()
    with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                  TimeElapsedColumn(), console=console, disable=quiet or not console.is_terminal) as bar:
        task = bar.add_task("compiling the kernels", total=len(steps))
        for step in steps:
            bar.update(task, description=f"{step.game}: {step.what}")
            try:
                step.run()
            except Exception as err:  # a broken numba install: say which part, keep the engines
                raise fail(f"compiling the {step.game} kernel ({step.what}) failed: {err}; "
                           "the pure-Python engines still play (uninstall numba to silence this)") from None
            bar.advance(task)
    console.print(f"{len(steps)} kernel entries of {len({s.game for s in steps})} games ready "
                  f"in {time.perf_counter() - start:.1f} s (cached: later starts load them in about a second)")
