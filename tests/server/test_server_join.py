"""Open seats: a newcomer takes a free seat with ``POST /api/matches/{id}/join``
(protocol revision 2), on every database of ``BACKENDS``."""

from __future__ import annotations

import threading
from typing import Any

import httpx
from srvkit import CEILING, CLIENT_LIMITS, ServerThread, eventually, join

Msg = dict[str, Any]


def post_join(server: ServerThread, mid: str, body: Msg | None = None) -> httpx.Response:
    return server.http.post(f"/api/matches/{mid}/join", json=body if body is not None else {})


def listed(server: ServerThread, mid: str) -> Msg:
    found: list[Msg] = [m for m in server.http.get("/api/matches?status=active").json() if m["id"] == mid]
    assert len(found) == 1
    return found[0]


def test_a_newcomer_takes_an_open_seat(server: ServerThread) -> None:
    created = server.create("rank", {"players": 3}, listed=True, seats=[
        {"kind": "human", "name": "Ann"}, {"kind": "human", "open": True}, {"kind": "ai", "agent": "random"}])
    mid = created["match"]
    invite_token = created["seats"][1]["token"]
    assert [s["open"] for s in created["info"]["seats"]] == [False, True, False]
    assert [s["open"] for s in listed(server, mid)["seats"]] == [False, True, False]
    assert listed(server, mid)["seats"][0]["name"] == "Ann"
    ann = join(server, mid, created["seats"][0]["token"])
    try:
        # refused: seats the creator did not open, or out of range, or a malformed body
        refusals: list[tuple[Msg, int, str]] = [
            ({"seat": 0}, 403, "invite_only"),
            ({"seat": 2}, 403, "invite_only"),
            ({"seat": 3}, 400, "bad_seat"),
            ({"seat": -1}, 400, "bad_seat"),
            ({"seat": "1"}, 400, "bad_message"),
            ({"seat": True}, 400, "bad_message"),
            ({"name": 5}, 400, "bad_message"),
        ]
        for body, status, code in refusals:
            r = post_join(server, mid, body)
            assert (r.status_code, r.json()["code"]) == (status, code), (body, r.text)
        r = server.http.post(f"/api/matches/{mid}/join", content=b"[1]", headers={"content-type": "application/json"})
        assert r.status_code == 400 and r.json()["code"] == "bad_message"
        assert server.http.post("/api/matches/nope/join", json={}).json()["code"] == "no_such_match"

        r = post_join(server, mid, {"name": "  Zed  "})
        assert r.status_code == 200, r.text
        got = r.json()
        assert got["seat"] == 1 and got["match"] == mid and got["token"] != invite_token
        assert got["invite"].endswith(f"/play/{mid}#token={got['token']}")
        assert got["info"]["seats"][1] == {"seat": 1, "name": "Zed", "kind": "human", "agent": None,
                                           "claimed": True, "account": False, "connected": False, "open": False}
        # the players already at the table hear about it
        seats = ann.wait(lambda m: m["type"] == "seats" and m["seats"][1]["claimed"])
        assert seats["seats"][1]["name"] == "Zed"

        # the seat is the newcomer's alone: the creator's old invite link no longer works
        zed = join(server, mid, got["token"])
        assert zed.view is not None and zed.view["player"] == 1
        zed.close()
        stale = server.http.get(f"/api/matches/{mid}/state", headers={"Authorization": f"Bearer {invite_token}"})
        assert stale.status_code == 403 and stale.json()["code"] == "auth_failed"

        # nothing left to take
        r = post_join(server, mid)
        assert (r.status_code, r.json()["code"]) == (409, "no_free_seat")
        r = post_join(server, mid, {"seat": 1})
        assert (r.status_code, r.json()["code"]) == (409, "seat_taken")
        assert [s["open"] for s in listed(server, mid)["seats"]] == [False, False, False]
    finally:
        ann.close()

    # the claim, the name and the new token are stored: they survive the match
    # being dropped from memory and rebuilt from the database
    room = server.rooms.rooms[mid]
    eventually(lambda: room.connection_count() == 0, "the closed connections are still attached")
    server.rooms.rooms.pop(mid, None)
    again = join(server, mid, got["token"])
    try:
        assert again.view is not None and again.view["player"] == 1
        state = server.http.get(f"/api/matches/{mid}").json()
        assert state["seats"][1]["name"] == "Zed" and state["seats"][1]["claimed"]
    finally:
        again.close()


def test_invite_only_is_the_default(server: ServerThread) -> None:
    created = server.create("lost-cities", {"rounds": 1}, listed=True)
    mid = created["match"]
    assert not any(s["open"] for s in created["info"]["seats"])
    for body in ({}, {"seat": 1}):
        r = post_join(server, mid, body)
        assert (r.status_code, r.json()["code"]) == (403, "invite_only")
    # an unclaimed invited seat still belongs to whoever holds its link
    c = join(server, mid, created["seats"][1]["token"], name="Bob")
    assert c.view is not None and c.view["player"] == 1
    c.close()


def test_open_seat_options_are_checked(server: ServerThread) -> None:
    for seats, code in [
        ([{"kind": "human"}, {"kind": "ai", "open": True}], "bad_seats"),
        ([{"kind": "human"}, {"kind": "human", "open": "yes"}], "bad_seats"),
    ]:
        r = server.http.post("/api/matches", json={"game": "lost-cities", "seats": seats})
        assert r.status_code == 400 and r.json()["code"] == code, r.text


def test_an_open_seat_claimed_by_its_invite_link_is_taken(server: ServerThread) -> None:
    created = server.create("lost-cities", {"rounds": 1}, seats=[{"kind": "human"}, {"kind": "human", "open": True}])
    mid = created["match"]
    c = join(server, mid, created["seats"][1]["token"], name="Bob")
    try:
        r = post_join(server, mid, {"seat": 1})
        assert (r.status_code, r.json()["code"]) == (409, "seat_taken")
        r = post_join(server, mid)
        assert (r.status_code, r.json()["code"]) == (409, "no_free_seat")
    finally:
        c.close()


def test_no_seat_in_a_finished_match(server: ServerThread) -> None:
    created = server.create("lost-cities", {"rounds": 1}, seats=[
        {"kind": "ai", "agent": "random"}, {"kind": "human", "open": True}])
    mid, host = created["match"], created["host_token"]
    spectator = join(server, mid)
    try:
        # the host hands the open seat to the AI: nobody may take it, and the match plays out
        r = server.http.post(f"/api/matches/{mid}/seats/1/ai", json={"agent": "random"},
                             headers={"Authorization": f"Bearer {host}"})
        assert r.status_code == 200
        r = post_join(server, mid, {"seat": 1})
        assert (r.status_code, r.json()["code"]) == (409, "seat_taken")
        spectator.wait(lambda m: m["type"] == "update" and m["status"] == "finished", timeout=2 * CEILING)
    finally:
        spectator.close()
    for body in ({}, {"seat": 1}):
        r = post_join(server, mid, body)
        assert (r.status_code, r.json()["code"]) == (409, "match_over")


def test_two_newcomers_racing_for_one_seat(server: ServerThread) -> None:
    created = server.create("lost-cities", {"rounds": 1}, seats=[{"kind": "human"}, {"kind": "human", "open": True}])
    mid = created["match"]
    barrier = threading.Barrier(4)
    results: list[httpx.Response] = []
    lock = threading.Lock()

    def racer(i: int) -> None:
        with httpx.Client(limits=CLIENT_LIMITS, base_url=server.base, timeout=CEILING) as http:
            barrier.wait()
            r = http.post(f"/api/matches/{mid}/join", json={"name": f"R{i}"})
            with lock:
                results.append(r)

    threads = [threading.Thread(target=racer, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    codes = sorted(r.status_code for r in results)
    assert codes == [200, 409, 409, 409], [r.text for r in results]
    winner = next(r.json() for r in results if r.status_code == 200)
    assert {r.json()["code"] for r in results if r.status_code == 409} == {"no_free_seat"}
    info = server.http.get(f"/api/matches/{mid}").json()
    assert info["seats"][1]["name"] == winner["info"]["seats"][1]["name"]
    assert info["seats"][1]["name"] in {f"R{i}" for i in range(4)}
    c = join(server, mid, winner["token"])
    assert c.view is not None and c.view["player"] == 1
    c.close()
