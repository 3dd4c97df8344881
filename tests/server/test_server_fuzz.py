"""Hostile clients against a live server (seeded, deterministic counts).

For a few matches of every game, thousands of malformed and hostile requests
and messages (``hostile.Hostile``) are sent between the legal moves of a
random game, over HTTP and websockets, before and after ``hello`` and after
the end.  Every answer is checked on its own (no 5xx, no traceback text, every
refusal a typed error of the documented shape with a code the server defines,
every must-refuse probe refused; ``hostile.HostileClient``), and after each
batch the match's state as every seat and as a spectator sees it must be the
one before the batch: a refused message changes nothing.

Run with ``-s`` to see the counts (probes per kind, refusals per code).
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hostile import Hostile, HostileClient, Probe, Table, Tally, describe, new_table, server_error_codes
from srvkit import CLIENT_LIMITS, ServerThread

import httpx

DOC = Path(__file__).parents[2] / "docs" / "server-protocol.md"
MATCHES = [("lost-cities", {"rounds": 1}, 101), ("lost-ranks", {"players": 2}, 202), ("rank", {"players": 3}, 303)]
IDS = ["lost-cities", "lost-ranks-2", "rank-3"]
BATCH = 12
"""Probes between two snapshots of the match."""
MAX_MOVES = 150
"""Legal moves played per match at most (each followed by a batch)."""
FINISHED_BATCHES = 10
"""Batches sent once the match is over."""

TOTAL = Tally()


def documented_codes() -> set[str]:
    """Every backquoted word of the protocol document (a superset of its error codes)."""
    return set(re.findall(r"`([a-z_]+)`", DOC.read_text(encoding="utf-8")))


@pytest.fixture(scope="module")
def fuzz_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    url = f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'cardtable.db'}"
    quiet = [logging.getLogger(name) for name in ("cardtable.server", "uvicorn.error")]
    levels = [q.level for q in quiet]
    for q in quiet:
        q.setLevel(logging.CRITICAL)  # thousands of refused inputs; the server logs what it caught
    try:
        with ServerThread(url, rate_per_second=1e6) as srv:
            yield srv
    finally:
        for q, level in zip(quiet, levels):
            q.setLevel(level)
    print("\n=== hostile-client fuzz, all matches ===\n" + TOTAL.summary())
    seen = set(TOTAL.refused) - {c for c in TOTAL.refused if c.startswith("HTTP ")}
    print(f"codes seen but not in docs/server-protocol.md: {sorted(seen - documented_codes())}")


def comparable(state: dict[str, Any]) -> dict[str, Any]:
    """A state message without what connections change (``connected``)."""
    for seat in state["match"]["seats"]:
        seat.pop("connected", None)
    return state


async def snapshot(client: HostileClient) -> list[dict[str, Any]]:
    keys: list[int | None] = [*range(client.table.num_players), None]
    return [comparable(await client.state(k)) for k in keys]


def difference(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> str:
    for key, (a, b) in enumerate(zip(before, after)):
        if a != b:
            fields = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
            return f"view of key {key if key < len(before) - 1 else 'spectator'} changed in {fields}"
    return ""


async def fuzz_match(base: str, game: str, config: dict[str, Any], seed: int, tally: Tally) -> list[str]:
    """Play one match with hostile batches between the moves; the state changes found."""
    async with httpx.AsyncClient(limits=CLIENT_LIMITS, base_url=base) as http:
        table: Table = await new_table(http, game, config, seed)
    client = HostileClient(base, table, server_error_codes(), tally)
    gen = Hostile(seed)
    rng = random.Random(seed)
    changes: list[str] = []
    try:
        for via in [*(f"seat{s}" for s in range(table.num_players)), "spectator"]:
            await client.joined(via)
        await client.refresh()
        before = await snapshot(client)
        moves = finished_batches = 0
        while finished_batches < FINISHED_BATCHES and moves <= MAX_MOVES:
            batch: list[Probe] = gen.batch(table, BATCH)
            for probe in batch:
                await client.run(probe)
            after = await snapshot(client)
            if after != before:
                changes.append(f"after move {table.seq}: {difference(before, after)}; the batch: "
                               + " | ".join(f"{p.kind} {describe(p)[:120]}" for p in batch if p.must_refuse))
                await client.refresh()
                before = after
            if table.finished:
                finished_batches += 1
                continue
            try:
                await client.advance(rng)
            except RuntimeError as err:
                changes.append(f"after move {table.seq}: {err}")
                break
            moves += 1
            before = await snapshot(client)
    finally:
        await client.aclose()
    return changes


@pytest.mark.parametrize("game,config,seed", MATCHES, ids=IDS)
def test_hostile_clients_get_typed_refusals_and_change_nothing(fuzz_server: ServerThread, game: str,
                                                              config: dict[str, Any], seed: int) -> None:
    tally = Tally()
    changes = asyncio.run(fuzz_match(fuzz_server.base, game, config, seed, tally))
    TOTAL.merge(tally)
    print(f"\n=== {game} {config} ===\n{tally.summary()}")
    for change in changes[:10]:
        print("STATE CHANGED", change[:600])
    assert sum(tally.sent.values()) >= 1000
    failures = [f"{tally.server_errors} answers were 5xx"] if tally.server_errors else []
    if tally.problems:
        failures.append(f"{sum(tally.problems.values())} bad answers of {len(tally.problems)} kinds, e.g. "
                        + "; ".join(list(tally.problems)[:3]))
    if changes:
        failures.append(f"{len(changes)} batches of refused messages changed the match: {changes[0][:300]}")
    assert not failures, "\n".join(failures)
