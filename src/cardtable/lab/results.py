"""The results of a study: one row per finished match, in a SQLite file.

Why SQLite: it is in the standard library, every data tool opens it (``sqlite3``,
pandas ``read_sql``, DuckDB, DB Browser), and each row is committed the moment its
match finishes — a study stopped by Ctrl-C or a crash keeps every finished match and
:func:`cardtable.lab.runner.run_study` resumes with the rest.  Parquet files cannot be
appended to in place, so ``cardtable lab export --parquet`` writes one from the
database when a columnar file is wanted (:func:`export_parquet`, needs ``pyarrow``).

Table ``matches`` (list-valued columns hold JSON text; SQLite's ``json_extract``
reads them):

==================  ==============================================================
column              meaning
==================  ==============================================================
cell, cell_key      the cell's number and stable key (:attr:`Cell.key`)
variant, agents     the varied options and the lineup's agent specs (JSON)
seating_rule        ``rotate`` or ``fixed``
match_index, seed   the match's number in its cell and its deal seed
seating             entry index per seat (JSON)
returns, scores     per seat (JSON)
actions, rounds     length in actions (moves) and rounds
measures, events    the game's derived measures and typed-event counts (JSON objects)
decisions           decisions with a choice, all seats
think_seconds       thinking time per seat (JSON) — a timing column
decision_seconds    every timed decision's seconds, per seat (JSON) — a timing column
wall_seconds        the match's wall time — a timing column
==================  ==============================================================

Table ``study`` holds the study the rows belong to (JSON); a file is never mixed
with another study's rows.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from cardtable.lab.study import Study, StudyError, study_from_dict

JSON_COLUMNS = ("variant", "agents", "seating", "returns", "scores", "measures", "events", "think_seconds",
                "decision_seconds")
COLUMNS = ("cell", "cell_key", "variant", "agents", "seating_rule", "match_index", "seed", "seating", "returns",
           "scores", "actions", "rounds", "measures", "events", "decisions", "think_seconds", "decision_seconds",
           "wall_seconds")
TIMING_COLUMNS = ("think_seconds", "decision_seconds", "wall_seconds")
"""Columns that depend on the machine; every other column is reproducible from the study."""
_SAME_STUDY = ("game", "seed", "engine", "options", "variants", "lineups")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS study (id INTEGER PRIMARY KEY CHECK (id = 1), data TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS matches (
    cell INTEGER NOT NULL, cell_key TEXT NOT NULL, variant TEXT NOT NULL, agents TEXT NOT NULL,
    seating_rule TEXT NOT NULL, match_index INTEGER NOT NULL, seed INTEGER NOT NULL, seating TEXT NOT NULL,
    returns TEXT NOT NULL, scores TEXT NOT NULL, actions INTEGER NOT NULL, rounds INTEGER NOT NULL,
    measures TEXT NOT NULL, events TEXT NOT NULL, decisions INTEGER NOT NULL, think_seconds TEXT NOT NULL,
    decision_seconds TEXT NOT NULL DEFAULT '[]', wall_seconds REAL NOT NULL,
    PRIMARY KEY (cell_key, match_index)
);
"""

Row = dict[str, Any]


class ResultsStore:
    """An open results file; rows are committed one by one as they are added."""

    def __init__(self, path: Path, study: Study | None = None) -> None:
        """Open ``path``; with ``study``, create the file or check it holds that study
        (only ``matches`` and ``title`` may differ: a resumed study may grow)."""
        if study is None and not path.exists():
            raise StudyError(f"no results file {path}: run the study first (cardtable lab run STUDY.toml)")
        self.path = path
        try:
            self._db = sqlite3.connect(path)
            self._db.executescript(_SCHEMA)
            self._add_missing_columns()
            stored = self._db.execute("SELECT data FROM study").fetchone()
        except sqlite3.DatabaseError as err:
            raise StudyError(f"{path} is not a results file of cardtable lab: {err}") from None
        if stored is None:
            if study is None:
                raise StudyError(f"{path} holds no study")
            with self._db:
                self._db.execute("INSERT INTO study (id, data) VALUES (1, ?)", (json.dumps(study.as_dict()),))
            self.study = study
            return
        self.study = study_from_dict(json.loads(stored[0]))
        if study is not None:
            self._check_same(study)
            self.study = study
            with self._db:
                self._db.execute("UPDATE study SET data = ? WHERE id = 1", (json.dumps(study.as_dict()),))

    def _add_missing_columns(self) -> None:
        """A file written before ``decision_seconds`` existed gains it (empty for old rows)."""
        present = {name for _, name, *_ in self._db.execute("PRAGMA table_info(matches)")}
        if "decision_seconds" not in present:
            with self._db:
                self._db.execute("ALTER TABLE matches ADD COLUMN decision_seconds TEXT NOT NULL DEFAULT '[]'")

    def _check_same(self, study: Study) -> None:
        old, new = self.study.as_dict(), study.as_dict()
        for key in _SAME_STUDY:
            if old[key] != new[key]:
                raise StudyError(f"{self.path} holds results of another study ({key} was {old[key]!r}, "
                                 f"now {new[key]!r}): give another --out, or delete the file to start over")

    def done(self) -> set[tuple[str, int]]:
        """``(cell_key, match_index)`` of every stored match."""
        return {(k, i) for k, i in self._db.execute("SELECT cell_key, match_index FROM matches")}

    def add(self, row: Row) -> None:
        """Store one finished match (committed at once)."""
        values = [json.dumps(row[c]) if c in JSON_COLUMNS else row[c] for c in COLUMNS]
        with self._db:
            self._db.execute(f"INSERT INTO matches ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})",
                             values)

    def rows(self) -> list[Row]:
        """Every stored match, JSON columns decoded, ordered by cell and match index."""
        cursor = self._db.execute(f"SELECT {', '.join(COLUMNS)} FROM matches ORDER BY cell, match_index")
        return [{c: json.loads(v) if c in JSON_COLUMNS else v for c, v in zip(COLUMNS, values)} for values in cursor]

    def close(self) -> None:
        self._db.close()


@contextmanager
def open_results(path: Path, study: Study | None = None) -> Iterator[ResultsStore]:
    store = ResultsStore(path, study)
    try:
        yield store
    finally:
        store.close()


def export_parquet(results: Path, out: Path) -> int:
    """Write the ``matches`` table of ``results`` as a Parquet file (JSON columns as
    text); returns the number of rows."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    with open_results(results) as store:
        rows = store.rows()
    table = pa.table({c: [json.dumps(r[c]) if c in JSON_COLUMNS else r[c] for r in rows] for c in COLUMNS})
    pq.write_table(table, out)
    return len(rows)
