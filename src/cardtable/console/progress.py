"""Progress of long command-line runs: a bar on a terminal, plain lines in a log.

A rich bar draws itself only on a terminal; written to a file or a pipe (``cardtable
arena … 2> run.log``, a batch job, ``nohup``) it shows nothing until the run ends.
:func:`progress_bar` gives the bar on a terminal and otherwise a :class:`LineProgress`:
one plain line each time a task passes another twentieth of its total, and at its end —
how far, how long so far, about how long left::

    Lost Ranks: hard vs heuristic: 5/20 matches in 0:05:31, 0:16:33 left

The lines follow the work done, never a clock: a log gets the same lines (but for their
times) however fast the run went.
"""

from __future__ import annotations

import datetime as _dt
from typing import Any

from rich.console import Console
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, ProgressColumn, Task, TaskID, TextColumn,
                           TimeElapsedColumn, TimeRemainingColumn)

STEPS = 20
"""A :class:`LineProgress` writes a line each time a task passes another 1/STEPS of its total."""


def progress_bar(console: Console, *columns: ProgressColumn | str, unit: str = "matches") -> Progress:
    """A rich progress bar with ``columns`` (by default: description, bar, done/total,
    elapsed, remaining) where ``console`` is a terminal, a :class:`LineProgress` writing
    to it otherwise.  Tasks added with ``quiet=True`` are drawn on the bar but not
    written as lines."""
    if console.is_terminal:
        return Progress(*(columns or default_columns()), console=console)
    return LineProgress(console=console, unit=unit)


def default_columns() -> tuple[ProgressColumn, ...]:
    """Description, bar, done/total, time elapsed and time left."""
    return (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
            TimeRemainingColumn())


class LineProgress(Progress):
    """A :class:`rich.progress.Progress` that draws nothing and writes plain lines instead
    (see the module's docstring); for consoles that are not terminals."""

    def __init__(self, *, console: Console, unit: str = "matches", steps: int = STEPS) -> None:
        super().__init__(console=console, disable=True)
        self.unit = unit
        self.steps = steps
        self._started_at: dict[TaskID, float] = {}

    def add_task(self, description: str, start: bool = True, total: float | None = 100.0, completed: int = 0,
                 visible: bool = True, **fields: Any) -> TaskID:
        task_id = super().add_task(description, start=start, total=total, completed=completed, visible=visible,
                                   **fields)
        self._started_at[task_id] = float(completed)
        return task_id

    def advance(self, task_id: TaskID, advance: float = 1) -> None:
        before = self._tasks[task_id].completed
        super().advance(task_id, advance)
        self._report(task_id, before)

    def update(self, task_id: TaskID, **changes: Any) -> None:
        before = self._tasks[task_id].completed
        super().update(task_id, **changes)
        self._report(task_id, before)

    def _report(self, task_id: TaskID, before: float) -> None:
        task = self._tasks[task_id]
        if task.fields.get("quiet") or not task.total or task.completed == before:
            return
        every = max(1.0, task.total / self.steps)
        if task.completed >= task.total or int(task.completed // every) > int(before // every):
            self.console.print(self.line(task), markup=True, highlight=False)

    def line(self, task: Task) -> str:
        """``DESCRIPTION: DONE/TOTAL UNIT in ELAPSED, LEFT left`` (no estimate before
        the first unit of this run is done, none once the task is finished)."""
        done = int(task.completed)
        text = f"{task.description}: {done}/{int(task.total or 0)} {self.unit}"
        elapsed = task.elapsed or 0.0
        text += f" in {clock(elapsed)}"
        done_here = task.completed - self._started_at.get(task.id, 0.0)
        left = (task.total or 0) - task.completed
        if left > 0 and done_here > 0:
            text += f", {clock(elapsed / done_here * left)} left"
        return text


def clock(seconds: float) -> str:
    """Seconds as ``H:MM:SS``.

    >>> clock(331.6)
    '0:05:31'
    """
    return str(_dt.timedelta(seconds=int(seconds)))
