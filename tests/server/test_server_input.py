"""Hostile and odd input (issue #12): names and ids that are not printable
Unicode, deeply nested JSON, invite tokens reused after their seat was claimed,
the host displacing a present player, seats changing after the end, and
every error body having the documented shape."""

from __future__ import annotations

import json
import logging
import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from srvkit import CEILING, ServerThread, WsClient, generous_settings, join

from cardtable.server.limits import ManualClock


Msg = dict[str, Any]


class Records(logging.Handler):
    """Every log record at WARNING or above of the server and of uvicorn."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def logged() -> Iterator[Records]:
    handler = Records()
    names = ("cardtable.server", "uvicorn.error", "uvicorn")
    for name in names:
        logging.getLogger(name).addHandler(handler)
    try:
        yield handler
    finally:
        for name in names:
            logging.getLogger(name).removeHandler(handler)


def raw_json(body: Any) -> dict[str, Any]:
    """httpx keyword arguments sending ``body`` as ASCII JSON (lone surrogates escaped)."""
    return {"content": json.dumps(body).encode(), "headers": {"content-type": "application/json"}}


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def assert_error_shape(r: httpx.Response, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/json"), r.text
    body = r.json()
    assert set(body) <= {"type", "code", "message", "rule"}, body
    assert body["type"] == "error" and body["code"] == code, body
    assert isinstance(body["message"], str) and body["message"], body


# --- finding 1: names and ids --------------------------------------------------------
def test_a_name_that_is_not_printable_text_changes_nothing(server: ServerThread, logged: Records) -> None:
    created = server.create("lost-cities", {"rounds": 1})
    mid = created["match"]
    ann = join(server, mid, created["seats"][0]["token"], name="Ann")
    bob = WsClient(server.ws_url)
    try:
        hello: Msg = {"type": "hello", "v": 1, "match": mid, "token": created["seats"][1]["token"]}
        for name, code in [("Bob\ud800", "bad_json"), ("Bob\x07", "bad_name"), ("B\u202eob", "bad_name"),
                           ("B" * 41, "bad_name"), (["Bob"], "bad_message")]:
            err = bob.request({**hello, "name": name}, "error")
            assert err["code"] == code, (name, err)
            assert "id" not in err
        # nothing changed: every socket is open, the match answers, the seat is unclaimed
        assert ann.request({"type": "ping", "id": 1}, "pong")["id"] == 1
        info = server.http.get(f"/api/matches/{mid}")
        assert info.status_code == 200 and info.json()["seats"][1]["claimed"] is False
        assert server.http.get(f"/api/matches/{mid}/state").status_code == 200
        # the same socket may still say hello properly (emoji with a joiner are names too)
        bob.send({**hello, "name": " Bob \U0001f468\u200d\U0001f469 "})
        assert bob.wait("welcome")["you"] == 1
        seats = ann.wait(lambda m: m["type"] == "seats" and m["seats"][1]["claimed"])
        assert seats["seats"][1]["name"] == "Bob \U0001f468\u200d\U0001f469"
    finally:
        ann.close()
        bob.close()
    # over HTTP too, before anything is stored
    for name, code in [("Zed\udfff", "bad_json"), ("Zed\n\x00", "bad_name"), ("Z" * 41, "bad_name")]:
        r = server.http.post("/api/matches", **raw_json({"game": "lost-cities", "seats": [
            {"kind": "human", "name": name}, {"kind": "human"}]}))
        assert_error_shape(r, 400, code)
    assert [r.getMessage() for r in logged.records] == []


def test_an_id_that_is_not_printable_text_is_refused(server: ServerThread, logged: Records) -> None:
    created = server.create("rank", {"players": 2})
    c = join(server, created["match"], created["seats"][0]["token"])
    try:
        for bad, code in [("x\ud800", "bad_json"), ("x\x00", "bad_message"), ("x" * 65, "bad_message"),
                          (10**30, "bad_message"), (1.5, "bad_message"), (True, "bad_message"),
                          ({"a": 1}, "bad_message")]:
            err = c.request({"type": "ping", "id": bad}, "error")
            assert err["code"] == code and "id" not in err, (bad, err)
        for good in ["ß-Ж-\U0001f600", -(2**53 - 1), "x" * 64]:
            assert c.request({"type": "ping", "id": good}, "pong")["id"] == good
        assert not c.closed.is_set()
    finally:
        c.close()
    assert [r.getMessage() for r in logged.records] == []


# --- finding 2: whose token a seat is --------------------------------------------------
def test_claiming_an_invite_issues_a_fresh_token_and_voids_the_invite(server: ServerThread) -> None:
    created = server.create("lost-cities", {"rounds": 1})
    mid = created["match"]
    t0, t1 = created["seats"][0]["token"], created["seats"][1]["token"]
    ann = join(server, mid, t0, name="Ann")
    bob = join(server, mid, t1, name="Bob")
    try:
        assert ann.token and bob.token and len({ann.token, bob.token, t0, t1}) == 4
        # the creator's copies of the invite tokens no longer open the seats
        for old in (t0, t1):
            r = server.http.get(f"/api/matches/{mid}/state", headers=auth(old))
            assert_error_shape(r, 403, "auth_failed")
            again = WsClient(server.ws_url)
            try:
                err = again.request({"type": "hello", "v": 1, "match": mid, "token": old}, "error")
                assert err["code"] == "auth_failed"
            finally:
                again.close()
        # the claimer's token does, and reconnecting with it claims nothing new
        r = server.http.get(f"/api/matches/{mid}/state", headers=auth(bob.token))
        assert r.status_code == 200 and r.json()["you"] == 1
        second = WsClient(server.ws_url)
        try:
            welcome = second.request({"type": "hello", "v": 1, "match": mid, "token": bob.token}, "welcome")
            assert welcome["you"] == 1 and "token" not in welcome
        finally:
            second.close()
    finally:
        ann.close()
        bob.close()
    # the new token is what is stored: it survives the match being rebuilt
    server.rooms.rooms.pop(mid, None)
    r = server.http.get(f"/api/matches/{mid}/state", headers=auth(bob.token))
    assert r.status_code == 200 and r.json()["you"] == 1
    assert server.http.get(f"/api/matches/{mid}/state", headers=auth(t1)).status_code == 403


def test_two_sockets_racing_with_one_invite(server: ServerThread) -> None:
    created = server.create("lost-cities", {"rounds": 1})
    mid, invite = created["match"], created["seats"][1]["token"]
    clients = [WsClient(server.ws_url) for _ in range(3)]
    barrier = threading.Barrier(len(clients))
    replies: list[Msg] = []
    lock = threading.Lock()

    def racer(c: WsClient) -> None:
        barrier.wait()
        reply = c.request({"type": "hello", "v": 1, "match": mid, "token": invite},
                          lambda m: m["type"] in ("welcome", "error"))
        with lock:
            replies.append(reply)

    threads = [threading.Thread(target=racer, args=(c,)) for c in clients]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(20)
        kinds = sorted((m["type"], m.get("code")) for m in replies)
        assert kinds == [("error", "auth_failed"), ("error", "auth_failed"), ("welcome", None)], replies
        winner = next(m for m in replies if m["type"] == "welcome")
        assert winner["you"] == 1 and isinstance(winner["token"], str)
    finally:
        for c in clients:
            c.close()


def test_the_host_cannot_hand_a_present_players_seat_to_the_ai(tmp_path: Path) -> None:
    clock = ManualClock()
    settings = generous_settings(takeover_grace=30.0, clock=clock, rate_per_second=5000.0, rate_burst=20000.0)
    with ServerThread(f"sqlite:///{tmp_path / 'host.db'}", settings=settings) as srv:
        created = srv.create("rank", {"players": 3})
        mid, host = created["match"], created["host_token"]
        ann = join(srv, mid, created["seats"][0]["token"])
        bob = join(srv, mid, created["seats"][1]["token"])
        try:
            def to_ai(seat: int, token: str) -> httpx.Response:
                return srv.http.post(f"/api/matches/{mid}/seats/{seat}/ai", json={"agent": "random"},
                                     headers=auth(token))

            assert_error_shape(to_ai(1, host), 409, "seat_connected")
            bob.close()
            ann.wait(lambda m: m["type"] == "seats" and not m["seats"][1]["connected"])
            clock.advance(29.0)
            assert_error_shape(to_ai(1, host), 409, "too_early")
            assert ann.request({"type": "takeover", "seat": 1}, "error")["code"] == "too_early"
            clock.advance(1.0)
            r = to_ai(1, host)
            assert r.status_code == 200 and r.json()["seats"][1]["kind"] == "ai"
            # a seat nobody has claimed yet displaces nobody: the host may fill it at once
            r = to_ai(2, host)
            assert r.status_code == 200 and r.json()["seats"][2]["kind"] == "ai"
            # and the seats a player holds are still the player's
            assert_error_shape(to_ai(0, host), 409, "seat_connected")
        finally:
            ann.close()
            bob.close()


# --- finding 4: deeply nested JSON -------------------------------------------------------
def test_deeply_nested_json_is_malformed_input(server: ServerThread, logged: Records) -> None:
    deep = "[" * 5000
    r = server.http.post("/api/matches", content=deep.encode(), headers={"content-type": "application/json"})
    assert_error_shape(r, 400, "bad_json")
    r = server.http.post("/api/matches", content=("[" * 40 + "]" * 40).encode(),
                         headers={"content-type": "application/json"})
    assert_error_shape(r, 400, "bad_json")
    created = server.create("rank", {"players": 2})
    mid = created["match"]
    c = WsClient(server.ws_url)
    try:
        assert c.request(deep, "error")["code"] == "bad_json"  # as the first message
        c.send({"type": "hello", "v": 1, "match": mid, "token": created["seats"][0]["token"]})
        c.wait("state")
        for text in (deep, '{"type": "ping", "x": ' + '{"a":' * 1500 + "}"):
            assert c.request(text, "error")["code"] == "bad_json"
        assert c.request({"type": "ping", "id": "still"}, "pong")["id"] == "still"
    finally:
        c.close()
    assert [r.getMessage() for r in logged.records] == []


# --- finding 6: a finished match keeps its seats -------------------------------------------
def test_leave_and_reclaim_answer_the_asker(server: ServerThread) -> None:
    created = server.create("lost-cities", {"rounds": 1})
    mid = created["match"]
    ann = join(server, mid, created["seats"][0]["token"])
    try:
        seats = ann.request({"type": "leave", "agent": "random", "id": "bye"}, lambda m: "id" in m)
        assert seats["type"] == "seats" and seats["id"] == "bye" and seats["seats"][0]["kind"] == "ai"
        seats = ann.request({"type": "reclaim", "id": "back"}, lambda m: "id" in m)
        assert seats["type"] == "seats" and seats["id"] == "back" and seats["seats"][0]["kind"] == "human"
    finally:
        ann.close()


def test_a_finished_match_keeps_its_seats(server: ServerThread) -> None:
    created = server.create("lost-cities", {"rounds": 1}, seed=5,
                            seats=[{"kind": "human", "name": "Ann"}, {"kind": "ai", "agent": "random"}])
    mid, host = created["match"], created["host_token"]
    ann = join(server, mid, created["seats"][0]["token"])
    rng = random.Random(5)
    try:
        while True:
            assert ann.view is not None
            if ann.view["current_player"] < 0:
                break
            if ann.view["current_player"] != 0:
                ann.wait("update", timeout=2 * CEILING)
                continue
            seq = ann.seq
            ann.send({"type": "move", "seq": seq, "action": rng.choice(ann.legal)["action"]})
            ann.wait_seq(seq + 1)
        assert server.http.get(f"/api/matches/{mid}").json()["status"] == "finished"
        err = ann.request({"type": "leave", "id": "late"}, "error")
        assert (err["code"], err["id"]) == ("match_over", "late")
        for token in (host, ann.token):
            assert token is not None
            r = server.http.post(f"/api/matches/{mid}/seats/0/ai", json={}, headers=auth(token))
            assert_error_shape(r, 409, "match_over")
        assert [s["kind"] for s in server.http.get(f"/api/matches/{mid}").json()["seats"]] == ["human", "ai"]
    finally:
        ann.close()


# --- finding 9: one error shape ------------------------------------------------------------
def test_every_http_error_has_the_documented_shape(server: ServerThread, logged: Records) -> None:
    created = server.create("rank", {"players": 2})
    mid = created["match"]
    assert_error_shape(server.http.get("/api/nowhere"), 404, "not_found")
    assert_error_shape(server.http.get("/definitely/not/here"), 404, "not_found")
    assert_error_shape(server.http.delete("/api/matches"), 405, "method_not_allowed")
    assert_error_shape(server.http.get("/api/matches?limit=many"), 400, "bad_message")
    assert_error_shape(server.http.post(f"/api/matches/{mid}/seats/one/ai", json={}), 400, "bad_message")
    assert_error_shape(server.http.get("/api/matches/no%20such/state"), 404, "no_such_match")
    assert logged.records == []

    store = server.app.state.store
    original = store.list_matches

    async def broken(**_: Any) -> None:
        raise RuntimeError("secret detail")

    store.list_matches = broken
    try:
        r = server.http.get("/api/matches")
    finally:
        store.list_matches = original
    assert_error_shape(r, 500, "internal")
    assert "secret" not in r.text and "Traceback" not in r.text
    tracebacks = [rec for rec in logged.records if rec.exc_info]
    assert len(tracebacks) == 1 and "secret detail" in str(tracebacks[0].exc_info[1])  # type: ignore[index]
    assert len(logged.records) == 1
