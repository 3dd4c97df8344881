"""The event store on its own: group commit, the one-writer-per-seq guarantee,
failure isolation inside a batch, reloading."""

from __future__ import annotations

import asyncio
import secrets
import time
from pathlib import Path

import pytest
from sqlalchemy.exc import IntegrityError
from srvkit import BACKENDS, db_url_for

from cardtable.server.store import MatchRow, SeatRow, Store, normalise_url


def _row() -> MatchRow:
    now = time.time()
    return MatchRow(id=secrets.token_urlsafe(9), game="rank", config={"players": 2}, seed=5, options={},
                    host_hash="0" * 64, status="active", result=None, created=now, updated=now,
                    seats=[SeatRow(0, "human", "a", None, "1" * 64), SeatRow(1, "ai", "b", "random", None, True)])


@pytest.mark.parametrize("backend", BACKENDS)
def test_group_commit_and_isolation(backend: str, tmp_path: Path) -> None:
    async def main() -> None:
        store = Store(db_url_for(backend, tmp_path))
        try:
            row = _row()
            await store.create_match(row)
            # Many appends at once are committed together; a duplicate seq fails alone.
            results = await asyncio.gather(
                *(store.append_move(row.id, seq, seq % 2, seq, f"m{seq}") for seq in range(1, 41)),
                store.append_move(row.id, 7, 0, 99, "again"),
                return_exceptions=True,
            )
            assert all(r is None for r in results[:40])
            assert isinstance(results[40], IntegrityError)
            with pytest.raises(IntegrityError):
                await store.append_move(row.id, 40, 1, 1, "late")
            seat = row.seats[1]
            seat.kind, seat.agent = "ai", "heuristic"
            await store.update_seat(row.id, seat)
            await store.finish(row.id, {"winner": 1})
            loaded = await store.load_match(row.id)
            assert loaded is not None
            assert [m[0] for m in loaded.moves] == list(range(1, 41))
            assert loaded.moves[6] == (7, 1, 7)
            assert loaded.seats[1].agent == "heuristic" and loaded.status == "finished"
            assert loaded.result == {"winner": 1} and loaded.config == {"players": 2}
            assert await store.load_match("missing") is None
            assert store.batches < store.operations
        finally:
            await store.close()

    asyncio.run(main())


def test_urls() -> None:
    assert normalise_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalise_url("/tmp/x.db") == "sqlite:////tmp/x.db"
    assert normalise_url("sqlite:///a.db") == "sqlite:///a.db"
    with pytest.raises(ValueError):
        Store("sqlite:///x.db", sqlite_synchronous="SOMETIMES")
