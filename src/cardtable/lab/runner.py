"""Play a study: every cell's missing matches, on one process, many, or a Ray cluster.

One runner behind ``cardtable lab run``, ``cardtable simulate`` and ``cardtable arena``
(those two play a one-cell study: :func:`run_series`).  A match is a :class:`MatchTask` — plain data: the game and
its options, the lineup, the seating and the deal seed from
:func:`cardtable.lab.study.match_seed` — so where it is played does not change what
is played: ``jobs=1``, ``jobs=2`` and Ray give the same rows but for the timing
columns.  Rows are stored as matches finish; a stopped run resumes by playing only
the matches the results file lacks.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardtable.lab.engines import kernel_row
from cardtable.lab.results import ResultsStore, Row, open_results
from cardtable.lab.series import MatchOutcome, SeriesSummary, play_match, seating_for
from cardtable.lab.study import Study, match_seed, study_from_dict
from cardtable.protocol import Game
from cardtable.registry import load_game


@dataclass(frozen=True)
class MatchTask:
    """Everything needed to play one match of a study, anywhere."""

    cell: int
    cell_key: str
    variant: dict[str, Any]
    options: dict[str, Any]
    """All game options (the study's fixed ones and the variant's)."""
    game: str
    agents: tuple[str, ...]
    seating_rule: str
    match_index: int
    seed: int
    engine: str = "python"


def pending_tasks(study: Study, done: set[tuple[str, int]]) -> list[MatchTask]:
    """The study's matches not in ``done``, interleaved across cells (match 0 of every
    cell, then match 1 …) so an interrupted study has every cell partly played."""
    tasks = []
    cells = study.cells()
    for index in range(study.matches):
        for cell in cells:
            if (cell.key, index) in done:
                continue
            tasks.append(MatchTask(cell.index, cell.key, cell.variant, {**study.options, **cell.variant},
                                   study.game, cell.lineup.agents, cell.lineup.seating, index,
                                   match_seed(study.seed, cell.key, index), study.engine))
    return tasks


def play_task(task: MatchTask) -> Row:
    """Play one match and return its results row (see :mod:`cardtable.lab.results`), on
    the task's engine (:mod:`cardtable.lab.engines`)."""
    game = load_game(task.game, **task.options)
    rotation = task.match_index if task.seating_rule == "rotate" else 0
    seating = seating_for(rotation, game.num_players, len(task.agents))
    if task.engine == "kernel":
        return kernel_row(task, game, seating)
    started = time.perf_counter()
    outcome = play_match(game, task.agents, seed=task.seed, seating=seating)
    return {
        "cell": task.cell, "cell_key": task.cell_key, "variant": task.variant, "agents": list(task.agents),
        "seating_rule": task.seating_rule, "match_index": task.match_index, "seed": task.seed,
        "seating": outcome.seating, "returns": outcome.returns, "scores": outcome.scores,
        "actions": outcome.actions, "rounds": int(outcome.measures.get("rounds", 1)),
        "measures": outcome.measures, "events": outcome.events,
        "decisions": sum(len(t) for t in outcome.decision_seconds),
        "think_seconds": [round(s, 6) for s in outcome.think_seconds],
        "decision_seconds": [[round(s, 6) for s in seat] for seat in outcome.decision_seconds],
        "wall_seconds": round(time.perf_counter() - started, 6),
    }


def run_study(study: Study, store: ResultsStore, *, jobs: int = 1, ray_address: str | None = None,
              use_ray: bool = False, on_row: Callable[[Row], None] | None = None) -> int:
    """Play every match of ``study`` that ``store`` lacks and store each as it finishes;
    returns how many were played.  ``on_row`` is called after each row is stored (the
    progress bar); an exception from it — or Ctrl-C — stops the run with every
    finished match kept."""
    tasks = pending_tasks(study, store.done())
    if use_ray or ray_address is not None:
        rows = _on_ray(tasks, ray_address)
    elif jobs > 1:
        rows = _on_processes(tasks, jobs)
    else:
        rows = (play_task(t) for t in tasks)
    played = 0
    try:
        for row in rows:
            store.add(row)
            played += 1
            if on_row is not None:
                on_row(row)
    finally:
        close = getattr(rows, "close", None)
        if callable(close):
            close()
    return played


def one_cell_study(game: Game, entries: Sequence[str], *, matches: int, seed: int = 0) -> Study:
    """The study of ``entries`` (seats rotating, :func:`~cardtable.lab.series.seating_for`)
    playing ``matches`` matches of ``game`` as configured; checked like a study file."""
    return study_from_dict({"game": game.name, "title": f"{game.title}: {' vs '.join(entries)}", "seed": seed,
                            "matches": matches, "options": game.config_dict(),
                            "lineups": [{"agents": list(entries), "seating": "rotate"}]})


def run_series(game: Game, entries: Sequence[str], *, games: int, seed: int = 0, jobs: int = 1,
               results: Path | None = None, on_match: Callable[[MatchOutcome], None] | None = None) -> SeriesSummary:
    """Play the one-cell study of ``entries`` (:func:`one_cell_study`) with :func:`run_study`
    and summarise it.  ``results``: the results file to keep (resumed if it holds this
    study; default: kept in memory only).  Unknown agents or options fail before any
    match with a :class:`~cardtable.lab.study.StudyError`."""
    study = one_cell_study(game, entries, matches=games, seed=seed)
    notify = None if on_match is None else (lambda row: on_match(MatchOutcome.from_row(row)))
    with open_results(results or Path(":memory:"), study) as store:
        run_study(study, store, jobs=jobs, on_row=notify)
        rows = store.rows()
    return SeriesSummary(game.name, game.config_dict(), list(entries), game.teams(),
                         [MatchOutcome.from_row(r) for r in rows])


def _on_processes(tasks: Iterable[MatchTask], jobs: int) -> Iterator[Row]:
    """Rows as worker processes finish them, at most ``2 × jobs`` tasks in flight (so a
    stop wastes little work)."""
    queue = iter(tasks)
    pool = ProcessPoolExecutor(max_workers=jobs)
    running: set[Future[Row]] = set()
    try:
        for task in _take(queue, 2 * jobs):
            running.add(pool.submit(play_task, task))
        while running:
            finished, running = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                yield future.result()
                for task in _take(queue, 1):
                    running.add(pool.submit(play_task, task))
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _on_ray(tasks: list[MatchTask], address: str | None) -> Iterator[Row]:
    """Rows as Ray tasks finish them, on the running Ray instance or the one at
    ``address`` (``ray.init`` starts a local one when neither is given)."""
    try:
        import ray
    except ImportError:
        raise RuntimeError("--ray needs Ray: pip install 'cardtable[ray]'") from None
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    remote = ray.remote(play_task)
    queue = iter(tasks)
    width = max(2, 2 * int(ray.cluster_resources().get("CPU", 1)))
    running = [remote.remote(t) for t in _take(queue, width)]
    try:
        while running:
            finished, running = ray.wait(running, num_returns=1)
            for ref in finished:
                yield ray.get(ref)
                running.extend(remote.remote(t) for t in _take(queue, 1))
    finally:
        for ref in running:
            ray.cancel(ref)


def _take(queue: Iterator[MatchTask], n: int) -> list[MatchTask]:
    out = []
    for task in queue:
        out.append(task)
        if len(out) >= n:
            break
    return out
