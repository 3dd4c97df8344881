"""Lobby push (``GET /api/lobby/events``, Server-Sent Events): lobby pages hear of a
listed match as it is created, as its seats change and when it ends — and of no
unlisted match; the number of subscribers is bounded; and the join page's
``GET /api/matches/{id}/invite`` names an invite's seat."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from srvkit import CEILING, CLIENT_LIMITS, ServerThread, generous_settings

Msg = dict[str, Any]


class EventStream:
    """The lobby's event stream read line by line (each read waits for the server)."""

    def __init__(self, response: httpx.Response) -> None:
        self.response = response
        self.lines = response.iter_lines()

    def next_event(self) -> Msg:
        """The data of the next ``match`` event (comments and keep-alives skipped)."""
        kind = None
        for line in self.lines:
            if line.startswith("event: "):
                kind = line[len("event: "):]
            elif line.startswith("data: ") and kind == "match":
                data: Msg = json.loads(line[len("data: "):])
                return data
        raise AssertionError("the lobby event stream ended")

    def wait_ready(self) -> None:
        for line in self.lines:
            if line == ": ready":
                return
        raise AssertionError("the lobby event stream ended before it was ready")


@contextmanager
def lobby_stream(server: ServerThread) -> Iterator[EventStream]:
    with httpx.Client(limits=CLIENT_LIMITS, base_url=server.base, timeout=CEILING) as client:
        with client.stream("GET", "/api/lobby/events") as response:
            assert response.status_code == 200
            assert response.headers["content-type"].startswith("text/event-stream")
            stream = EventStream(response)
            stream.wait_ready()  # subscribed: what happens from now on is sent
            yield stream


def test_lobby_pages_hear_of_listed_matches_only(server: ServerThread) -> None:
    with lobby_stream(server) as events:
        server.create("rank", {"players": 2}, seats=[{"kind": "human"}, {"kind": "ai"}])  # not listed
        listed = server.create("rank", {"players": 3}, listed=True, seats=[
            {"kind": "human", "name": "Ann"}, {"kind": "human", "open": True}, {"kind": "ai", "agent": "random"}])
        mid = listed["match"]
        assert events.next_event() == {"match": mid, "change": "created"}
        r = server.http.post(f"/api/matches/{mid}/join", json={"name": "Bob"})
        assert r.status_code == 200, r.text
        assert events.next_event() == {"match": mid, "change": "seats"}
        host = {"Authorization": f"Bearer {listed['host_token']}"}
        assert server.http.post(f"/api/matches/{mid}/seats/0/ai", json={"agent": "random"}, headers=host).status_code == 200
        assert events.next_event() == {"match": mid, "change": "seats"}


def test_the_number_of_lobby_subscribers_is_bounded(tmp_path: Path) -> None:
    with ServerThread(f"sqlite:///{tmp_path / 'db.sqlite'}", settings=generous_settings(max_lobby_subscribers=1)) as srv:
        with lobby_stream(srv) as events:
            r = srv.http.get("/api/lobby/events")
            assert r.status_code == 503 and r.json()["code"] == "busy", r.text
            mid = srv.create("rank", {"players": 2}, listed=True, seats=[{"kind": "human"}, {"kind": "ai"}])["match"]
            assert events.next_event()["match"] == mid  # the first subscriber is still served
        # a closed page frees its place
        with lobby_stream(srv) as again:
            mid2 = srv.create("rank", {"players": 2}, listed=True, seats=[{"kind": "human"}, {"kind": "ai"}])["match"]
            assert again.next_event()["match"] == mid2


def test_an_invite_names_its_seat(server: ServerThread) -> None:
    created = server.create("lost-cities", {"rounds": 1}, seats=[{"kind": "human", "name": "Ann"}, {"kind": "human"}])
    mid = created["match"]
    token = created["seats"][1]["token"]
    r = server.http.get(f"/api/matches/{mid}/invite", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text
    assert r.json()["seat"] == 1
    assert r.json()["info"]["seats"][0]["name"] == "Ann"
    assert server.http.get(f"/api/matches/{mid}/invite").status_code == 401
    bad = server.http.get(f"/api/matches/{mid}/invite", headers={"Authorization": "Bearer nope"})
    assert bad.status_code == 403 and bad.json()["code"] == "auth_failed"


def test_a_server_with_a_lobby_page_open_still_stops(tmp_path: Path) -> None:
    """A lobby page's event stream never ends by itself; stopping the server closes it
    after the grace time instead of waiting for the page forever."""
    srv = ServerThread(f"sqlite:///{tmp_path / 'stop.db'}")
    with srv:
        with lobby_stream(srv):
            srv.server.should_exit = True
            srv.thread.join(CEILING)
            assert not srv.thread.is_alive(), "the server waited for the open lobby page"
