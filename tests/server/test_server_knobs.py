"""Designers' knobs over the server: ``/api/games`` describes them, ``/api/matches``
checks them (the option's name and what is allowed), the match info and the stored record
keep a changed knob, and the record replays (LC-6, LR-17)."""

from __future__ import annotations

from cardtable import records
from cardtable.registry import game_info

from srvkit import ServerThread, eventually

AI_SEATS = [{"kind": "ai", "agent": "random"}, {"kind": "ai", "agent": "random"}]


def test_knobs_are_described_checked_stored_and_replayed(server: ServerThread) -> None:
    games = {g["name"]: g for g in server.http.get("/api/games").json()}
    cost = {o["name"]: o for o in games["lost-cities"]["description"]["options"]}["cost"]
    assert (cost["group"], cost["default"], cost["minimum"], cost["maximum"]) == ("custom", 20, 0, 60)
    assert "LC-6" in cost["help"]["en"] and cost["values"] is None

    for config, message in [({"target": 500}, "target must be a whole number from 1 to 100 (LR-17), not 500"),
                            ({"players": 2, "target": 20}, "target applies to 4 players only (LR-17)")]:
        r = server.http.post("/api/matches", json={"game": "lost-ranks", "config": config})
        assert r.status_code == 400 and r.json()["code"] == "bad_config", r.text
        assert message in r.json()["message"]

    created = server.create("lost-cities", {"rounds": 1, "cost": 10}, seats=AI_SEATS, seed=3)
    mid = created["match"]
    eventually(lambda: server.http.get(f"/api/matches/{mid}").json()["status"] == "finished",
               "the AI-only match did not finish")
    info = server.http.get(f"/api/matches/{mid}").json()
    assert info["config"] == {"colors": 5, "rounds": 1, "cost": 10}
    assert game_info("lost-cities").custom_rules(info["config"]) == {"cost": 10}
    record = server.http.get(f"/api/matches/{mid}/record",
                             headers={"Authorization": f"Bearer {created['host_token']}"}).json()
    assert record["config"]["cost"] == 10
    replayed = records.replay(record)
    assert replayed.is_terminal() and replayed.game.config.cost == 10  # type: ignore[attr-defined]
    assert replayed.result() == record["result"]
