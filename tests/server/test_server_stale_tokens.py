"""A token voided while its HTTP request waits never acts (protocol revision 3):
HTTP requests authenticate before they take the match's lock, so the seat's
token is checked again under the lock — a claim in between voids the invite."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from srvkit import CEILING, ServerThread, generous_settings, join

from cardtable.server.app import new_match
from cardtable.server.errors import ProtocolError
from cardtable.server.room import Connection, Room, Rooms
from cardtable.server.store import Store


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def _claimed_after_authenticating(tmp_path: Path) -> tuple[Rooms, Room, int, str]:
    """A match whose seat to move was authenticated with its invite token, then
    claimed by somebody's ``hello``: the seat, and the now void invite token."""
    store = Store(f"sqlite:///{tmp_path / 'stale.db'}")
    rooms = Rooms(store, generous_settings())
    room, _host, tokens = await new_match(rooms, {"game": "rank", "config": {"players": 2}, "seed": 3,
                                                  "hints": True})
    seat = room.state.current_player()
    invite = tokens[seat]
    assert room.authenticate(invite) == seat  # what the HTTP endpoint did first
    await room.attach(Connection(16), invite, "Ann")  # the claim, before the request's turn
    return rooms, room, seat, invite


@pytest.mark.parametrize("action", ["move", "hint", "leave", "reclaim"])
def test_a_stale_invite_token_is_refused_under_the_lock(tmp_path: Path, action: str) -> None:
    async def scenario() -> None:
        rooms, room, seat, invite = await _claimed_after_authenticating(tmp_path)
        try:
            before = (room.seq, room.seats[seat].row.kind)
            with pytest.raises(ProtocolError) as refused:
                if action == "move":
                    await room.move(seat, room.seq, action=room.state.legal_actions()[0], token=invite)
                elif action == "hint":
                    await room.hint(seat, None, token=invite)
                elif action == "leave":
                    await room.set_ai(seat, None, by=seat, host=False, token=invite)
                else:
                    room.seats[seat].row.kind = "ai"  # (in memory only: so that there is something to reclaim)
                    before = (room.seq, "ai")
                    await room.reclaim(seat, token=invite)
            assert refused.value.code == "auth_failed" and refused.value.status == 403
            assert (room.seq, room.seats[seat].row.kind) == before
        finally:
            await rooms.close()
            await rooms.store.close()

    asyncio.run(scenario())


def test_a_websocket_seat_moves_without_a_token(tmp_path: Path) -> None:
    """The socket was seated under the lock by its hello: no token to check again."""
    async def scenario() -> None:
        rooms, room, seat, _invite = await _claimed_after_authenticating(tmp_path)
        try:
            assert await room.move(seat, 0, action=room.state.legal_actions()[0]) == 1
        finally:
            await rooms.close()
            await rooms.store.close()

    asyncio.run(scenario())


@pytest.fixture()
def srv(tmp_path: Path) -> Iterator[ServerThread]:
    with ServerThread(f"sqlite:///{tmp_path / 'race.db'}", rate_per_second=5000.0) as s:
        yield s


def test_an_invite_claimed_while_its_move_request_is_read_cannot_move(srv: ServerThread) -> None:
    """The POST authenticates, then waits for its body; the seat is claimed by a
    ``hello`` meanwhile; the body arrives: the move is refused, nothing changes."""
    created = srv.create("rank", {"players": 2}, seed=3)
    mid = created["match"]
    room = srv.rooms.rooms[mid]
    seat = room.state.current_player()
    invite = created["seats"][seat]["token"]
    action = srv.http.get(f"/api/matches/{mid}/state", headers=auth(invite)).json()["legal"][0]["action"]
    authenticated = threading.Event()
    real_authenticate = room.authenticate

    def spy(token: str | None, user: Any = None) -> Any:
        key = real_authenticate(token, user)
        if token == invite:
            authenticated.set()
        return key

    room.authenticate = spy
    claimer: list[Any] = []

    def body() -> Iterator[bytes]:
        yield b'{"seq": 0, '
        assert authenticated.wait(CEILING), "the request was not authenticated"
        claimer.append(join(srv, mid, invite, name="Ann"))  # claims the seat: the invite is void now
        yield f'"action": {action}}}'.encode()

    try:
        r = srv.http.post(f"/api/matches/{mid}/moves", content=body(),
                          headers={**auth(invite), "content-type": "application/json"})
        assert claimer and claimer[0].token not in (None, invite)
        assert r.status_code == 403 and r.json()["code"] == "auth_failed", r.text
        assert room.seq == 0
        state = srv.http.get(f"/api/matches/{mid}/state", headers=auth(claimer[0].token)).json()
        assert state["seq"] == 0 and state["log"] == []
    finally:
        for c in claimer:
            c.close()
