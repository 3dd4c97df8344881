"""``GET /api/matches/{id}/analysis?seat=N``: the move analysis of a finished match, run in
the worker pool and cached per match and seat (docs/server-protocol.md)."""

from __future__ import annotations

import zlib
from typing import Any

from cardtable import records
from cardtable.agents.analysis import analyse
from cardtable.server.review import ANALYSIS_ITERATIONS

from srvkit import ServerThread, eventually

AI_SEATS = [{"kind": "ai", "agent": "random"}, {"kind": "ai", "agent": "heuristic"}]


def _finished(server: ServerThread, **options: Any) -> dict[str, Any]:
    created = server.create("rank", {"players": 2}, seats=AI_SEATS, seed=5, **options)
    mid = created["match"]
    eventually(lambda: server.http.get(f"/api/matches/{mid}").json()["status"] == "finished",
               "the AI-only match did not finish")
    return created


def test_analysis_of_a_finished_match_is_the_cli_analysis_and_cached(server: ServerThread) -> None:
    created = _finished(server)
    mid = created["match"]
    r = server.http.get(f"/api/matches/{mid}/analysis", params={"seat": 1})  # a spectator may ask
    assert r.status_code == 200, r.text
    record = server.http.get(f"/api/matches/{mid}/record",
                             headers={"Authorization": f"Bearer {created['host_token']}"}).json()
    expected = analyse(record, 1, iterations=ANALYSIS_ITERATIONS, seed=zlib.crc32(mid.encode())).as_dict()
    assert r.json() == expected and r.json()["decisions"]
    analyses = server.app.state.analyses
    started = analyses.started
    again = server.http.get(f"/api/matches/{mid}/analysis", params={"seat": 1})
    assert again.json() == r.json() and analyses.started == started  # served from the cache
    other = server.http.get(f"/api/matches/{mid}/analysis", params={"seat": 0})
    assert other.status_code == 200 and other.json()["seat"] == 0 and analyses.started == started + 1
    assert records.replay(record).is_terminal()


def test_analysis_refusals(server: ServerThread) -> None:
    playing = server.create("rank", {"players": 2})
    r = server.http.get(f"/api/matches/{playing['match']}/analysis", params={"seat": 0})
    assert r.status_code == 409 and r.json()["code"] == "not_finished"
    mid = _finished(server)["match"]
    for seat, code in (("5", "bad_message"), ("-1", "bad_message"), ("x", "bad_message")):
        r = server.http.get(f"/api/matches/{mid}/analysis", params={"seat": seat})
        assert r.status_code == 400 and r.json()["code"] == code, r.text
        assert "seat" in r.json()["message"]
    r = server.http.get(f"/api/matches/{mid}/analysis")
    assert r.status_code == 400 and "seat" in r.json()["message"], r.text
    closed = _finished(server, spectators=False)
    r = server.http.get(f"/api/matches/{closed['match']}/analysis", params={"seat": 0})
    assert r.status_code == 403 and r.json()["code"] == "spectators_disallowed"
    r = server.http.get(f"/api/matches/{closed['match']}/analysis", params={"seat": 0},
                        headers={"Authorization": f"Bearer {closed['host_token']}"})
    assert r.status_code == 200, r.text
