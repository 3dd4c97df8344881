"""Accounts, sessions, seats bound to accounts, rated matches and leaderboards
(docs/server-protocol.md, "Accounts and ratings"), over SQLite and PostgreSQL."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, select, text

from srvkit import CEILING, CLIENT_LIMITS, ServerThread, db_url_for, eventually, generous_settings

from cardtable.server.limits import ManualClock
from cardtable.server.store import normalise_url, users_table


def unique(prefix: str) -> str:
    """A name no other test (nor an earlier run on the same PostgreSQL database) uses."""
    return f"{prefix}_{secrets.token_hex(3)}"


def browser(srv: ServerThread) -> httpx.Client:
    """An HTTP client that keeps cookies and says where it comes from, like a page of the server."""
    return httpx.Client(limits=CLIENT_LIMITS, base_url=srv.base, timeout=CEILING, headers={"Origin": srv.base})


def sign_up(client: httpx.Client, name: str, password: str = "correct horse") -> dict[str, Any]:
    r = client.post("/api/account/signup", json={"name": name, "password": password})
    assert r.status_code == 201, r.text
    user: dict[str, Any] = r.json()["user"]
    return user


@pytest.fixture(scope="module")
def srv(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    url = db_url_for(backend, tmp_path_factory.mktemp(f"acc-{backend}"))
    with ServerThread(url, settings=generous_settings(signin_per_minute=1e6)) as server:
        yield server


def test_sign_up_in_and_out(srv: ServerThread) -> None:
    name = unique("Anna")
    with browser(srv) as b:
        user = sign_up(b, name)
        assert user["name"] == name
        cookie = next(c for c in b.cookies.jar if c.name == "cardtable_session")
        assert cookie.has_nonstandard_attr("HttpOnly") and not cookie.secure
        assert b.get("/api/account").json()["user"] == user
        assert b.post("/api/account/signout").json() == {"user": None}
        assert b.get("/api/account").json()["user"] is None
        r = b.post("/api/account/signin", json={"name": name.upper(), "password": "correct horse"})
        assert r.status_code == 200 and r.json()["user"] == user, r.text
        assert b.get("/api/account").json()["user"] == user
    with browser(srv) as stranger:
        assert stranger.get("/api/account").json() == {"user": None}


@pytest.mark.parametrize("body, status, code", [
    ({"name": "x", "password": "long enough"}, 400, "bad_name"),
    ({"name": "a" * 25, "password": "long enough"}, 400, "bad_name"),
    ({"name": "two words", "password": "long enough"}, 400, "bad_name"),
    ({"name": "_under", "password": "long enough"}, 400, "bad_name"),
    ({"name": "ctl\x07", "password": "long enough"}, 400, "bad_name"),
    ({"name": 12, "password": "long enough"}, 400, "bad_name"),
    ({"name": "okname", "password": "short"}, 400, "bad_password"),
    ({"name": "okname", "password": "p" * 257}, 400, "bad_password"),
    ({"name": "okname", "password": ["list"]}, 400, "bad_password"),
    ({"name": "okname"}, 400, "bad_password"),
])
def test_sign_up_refuses_bad_names_and_passwords(srv: ServerThread, body: dict[str, Any], status: int,
                                                 code: str) -> None:
    with browser(srv) as b:
        r = b.post("/api/account/signup", json=body)
        assert (r.status_code, r.json()["code"]) == (status, code), r.text
        assert "long enough" not in r.text


def test_names_are_unique_by_their_case_folded_nfkc_form(srv: ServerThread) -> None:
    suffix = secrets.token_hex(3)
    with browser(srv) as b:
        sign_up(b, f"Straße{suffix}")
        for other in (f"STRASSE{suffix}", f"strasse{suffix}", f"ｓｔｒａｓｓｅ{suffix}"):
            r = b.post("/api/account/signup", json={"name": other, "password": "another one"})
            assert (r.status_code, r.json()["code"]) == (409, "name_taken"), (other, r.text)
        r = b.post("/api/account/signin", json={"name": f"ｓｔｒａßｅ{suffix}", "password": "correct horse"})
        assert r.status_code == 200, r.text


def test_sign_in_refusals_say_what_was_wrong(srv: ServerThread) -> None:
    name = unique("Boris")
    with browser(srv) as b:
        sign_up(b, name)
        for body, status, code in [
            ({"name": name, "password": "wrong password"}, 401, "bad_credentials"),
            ({"name": unique("nobody"), "password": "correct horse"}, 401, "bad_credentials"),
            ({"name": name}, 400, "bad_message"),
            ({"name": None, "password": "correct horse"}, 400, "bad_message"),
        ]:
            r = b.post("/api/account/signin", json=body)
            assert (r.status_code, r.json()["code"]) == (status, code), (body, r.text)
        r = b.post("/api/account/signin", content=b"{not json", headers={"content-type": "application/json"})
        assert (r.status_code, r.json()["code"]) == (400, "bad_json")
        r = b.post("/api/account/signin", content=b"[1]", headers={"content-type": "application/json"})
        assert (r.status_code, r.json()["code"]) == (400, "bad_message")


def test_cookie_requests_without_origin_are_refused_as_csrf(srv: ServerThread) -> None:
    with browser(srv) as b:
        sign_up(b, unique("Carl"))
        session = b.cookies["cardtable_session"]
    bare = httpx.Client(limits=CLIENT_LIMITS, base_url=srv.base, timeout=CEILING, cookies={"cardtable_session": session})
    with bare:
        r = bare.post("/api/matches", json={"game": "lost-cities"})
        assert (r.status_code, r.json()["code"]) == (403, "csrf_failed"), r.text
        r = bare.post("/api/account/signout")
        assert (r.status_code, r.json()["code"]) == (403, "csrf_failed")
        r = bare.post("/api/account/signin", json={"name": "a", "password": "b"})
        assert (r.status_code, r.json()["code"]) == (403, "csrf_failed")
        assert bare.get("/api/account").json()["user"] is not None  # reading is not state-changing
        r = bare.post("/api/account/signout", headers={"Origin": "http://evil.example"})
        assert (r.status_code, r.json()["code"]) == (403, "bad_origin")
        r = bare.post("/api/account/signout", headers={"Sec-Fetch-Site": "same-origin"})
        assert r.status_code == 200, r.text


def test_passwords_are_hashed_and_never_logged(srv: ServerThread, caplog: pytest.LogCaptureFixture) -> None:
    name, password = unique("Dora"), "s3cret-" + secrets.token_hex(4)
    caplog.set_level(logging.DEBUG)
    with browser(srv) as b:
        sign_up(b, name, password)
        b.post("/api/account/signin", json={"name": name, "password": password + "x"})
    assert all(password not in record.getMessage() for record in caplog.records)
    engine = create_engine(normalise_url(srv.db_url))
    try:
        with engine.connect() as conn:
            digest = conn.execute(select(users_table.c.password_hash)
                                  .where(users_table.c.name == name)).scalar_one()
            sessions = conn.execute(text("SELECT token_hash FROM sessions")).scalars().all()
    finally:
        engine.dispose()
    assert digest.startswith("$argon2id$") and password not in digest
    assert all(len(s) == 64 for s in sessions)


def play_out(client: httpx.Client, mid: str, headers: dict[str, str] | None = None) -> dict[str, Any]:
    """Play the first legal move whenever it is the asker's turn until the match ends."""
    while True:
        state: dict[str, Any] = {}

        def my_turn_or_over() -> bool:
            state.update(client.get(f"/api/matches/{mid}/state", headers=headers).json())
            return state["status"] == "finished" or bool(state["legal"])

        eventually(my_turn_or_over, "the AI did not move")
        if state["status"] == "finished":
            return state
        r = client.post(f"/api/matches/{mid}/moves", headers=headers,
                        json={"seq": state["seq"], "action": state["legal"][0]["action"]})
        assert r.status_code == 200, r.text


def test_a_rated_match_against_an_ai_updates_both_ratings(srv: ServerThread) -> None:
    name = unique("Eve")
    with browser(srv) as b:
        user = sign_up(b, name)
        r = b.post("/api/matches", json={"game": "lost-cities", "config": {"rounds": 1}, "rated": True,
                                         "seats": [{"kind": "human", "me": True}, {"kind": "ai", "agent": "random"}]})
        assert r.status_code == 201, r.text
        made = r.json()
        mid = made["match"]
        assert made["info"]["rated"] and not made["info"]["hints"]
        assert made["info"]["seats"][0]["name"] == name and made["info"]["seats"][0]["account"]
        # no token: the session cookie is the seat (the seat can be resumed from any browser)
        final = play_out(b, mid)
        assert final["you"] == 0
        won = final["result"]["returns"][0] > 0

        def rated() -> bool:
            return any(e["name"] == name for e in b.get("/api/leaderboard?game=lost-cities").json()["entries"])

        eventually(rated, "the rating did not appear on the leaderboard")
        board = b.get("/api/leaderboard", params={"game": "lost-cities", "players": 2}).json()
        mine = next(e for e in board["entries"] if e["name"] == name)
        bot = next(e for e in board["entries"] if e["name"] == "AI: random")
        assert mine["games"] == 1 and mine["provisional"] and not mine["ai"] and bot["ai"]
        assert (mine["rating"] > 1500) == won
        profile = b.get(f"/api/users/{name.lower()}").json()
        assert profile["user"] == user
        assert profile["ratings"][0]["rating"] == mine["rating"]
        assert [h["match"] for h in profile["history"]] == [mid]
        assert profile["recent"][0]["match"] == mid and profile["recent"][0]["place"] == (1 if won else 2)
        assert profile["games"]["lost-cities"] == {"played": 1, "first": int(won), "last": int(not won)}
    with browser(srv) as other:  # another browser, signed in as the same account
        r = other.post("/api/account/signin", json={"name": name, "password": "correct horse"})
        assert r.status_code == 200
        assert other.get(f"/api/matches/{mid}/replay").json()["you"] == 0


def test_an_unrated_match_changes_no_rating(srv: ServerThread) -> None:
    name = unique("Finn")
    with browser(srv) as b:
        sign_up(b, name)
        r = b.post("/api/matches", json={"game": "lost-cities", "config": {"rounds": 1},
                                         "seats": [{"kind": "human", "me": True}, {"kind": "ai", "agent": "random"}]})
        mid = r.json()["match"]
        play_out(b, mid)
        eventually(lambda: b.get(f"/api/users/{name}").json()["recent"][0]["status"] == "finished",
                   "the end was not stored")
        profile = b.get(f"/api/users/{name}").json()
        assert profile["ratings"] == [] and profile["history"] == [] and not profile["recent"][0]["rated"]


def test_a_guest_joins_by_invite_beside_a_signed_in_host(srv: ServerThread) -> None:
    name = unique("Gail")
    with browser(srv) as host:
        sign_up(host, name)
        r = host.post("/api/matches", json={"game": "lost-cities", "seats": [{"kind": "human", "me": True},
                                                                            {"kind": "human"}]})
        made = r.json()
        mid, invite = made["match"], made["seats"][1]["token"]
        guest = srv.client(mid, invite, name="Guest")
        try:
            welcome = guest.wait("welcome")
            assert welcome["you"] == 1 and welcome["token"] != invite
            state = guest.wait("state")
            seats = state["match"]["seats"]
            assert (seats[0]["name"], seats[0]["account"]) == (name, True)
            assert (seats[1]["name"], seats[1]["account"]) == ("Guest", False)
        finally:
            guest.close()
        cookie = {"Cookie": f"cardtable_session={host.cookies['cardtable_session']}", "Origin": srv.base}
        signed_in = srv.client(mid, None, headers=cookie)
        try:
            assert signed_in.wait("welcome")["you"] == 0  # the account's seat, without a token
        finally:
            signed_in.close()


def test_rated_match_seats_are_for_accounts(srv: ServerThread) -> None:
    with browser(srv) as host:
        sign_up(host, unique("Hana"))
        made = host.post("/api/matches", json={"game": "lost-cities", "rated": True,
                                               "seats": [{"kind": "human", "me": True},
                                                         {"kind": "human", "open": True}]}).json()
        mid, invite = made["match"], made["seats"][1]["token"]
    guest = srv.client(mid, invite)
    try:
        assert guest.wait("error")["code"] == "account_required"
    finally:
        guest.close()
    r = srv.http.post(f"/api/matches/{mid}/join", json={})
    assert (r.status_code, r.json()["code"]) == (401, "account_required")
    with browser(srv) as joiner:
        name = unique("Ivan")
        sign_up(joiner, name)
        r = joiner.post(f"/api/matches/{mid}/join", json={"name": "ignored"})
        assert r.status_code == 200, r.text
        seat = r.json()["info"]["seats"][1]
        assert (seat["name"], seat["account"]) == (name, True)


@pytest.mark.parametrize("body, status, code", [
    ({"seats": [{"kind": "human", "me": "yes"}, {"kind": "ai"}]}, 400, "bad_seats"),
    ({"seats": [{"kind": "ai", "me": True}, {"kind": "human"}]}, 400, "bad_seats"),
    ({"seats": [{"kind": "human", "me": True}, {"kind": "human", "me": True}]}, 400, "bad_seats"),
    ({"rated": "yes", "seats": [{"kind": "human", "me": True}, {"kind": "ai"}]}, 400, "bad_message"),
    ({"rated": True, "seats": [{"kind": "human"}, {"kind": "ai"}]}, 400, "bad_seats"),
    ({"rated": True, "seed": 5, "seats": [{"kind": "human", "me": True}, {"kind": "ai"}]}, 400, "bad_message"),
    ({"rated": True, "hints": True, "seats": [{"kind": "human", "me": True}, {"kind": "ai"}]}, 400, "bad_message"),
])
def test_creating_a_match_as_yourself_refuses_bad_input(srv: ServerThread, body: dict[str, Any], status: int,
                                                        code: str) -> None:
    with browser(srv) as b:
        sign_up(b, unique("Jo"))
        r = b.post("/api/matches", json={"game": "lost-cities", **body})
        assert (r.status_code, r.json()["code"]) == (status, code), r.text


def test_me_and_rated_need_a_signed_in_creator(srv: ServerThread) -> None:
    for body in ({"seats": [{"kind": "human", "me": True}, {"kind": "ai"}]},
                 {"rated": True, "seats": [{"kind": "human", "me": True}, {"kind": "ai"}]}):
        r = srv.http.post("/api/matches", json={"game": "lost-cities", **body})
        assert (r.status_code, r.json()["code"]) == (401, "account_required"), r.text


def test_profile_and_leaderboard_refusals(srv: ServerThread) -> None:
    for path, status, code in [
        ("/api/users/nobody-here-" + secrets.token_hex(3), 404, "no_such_user"),
        ("/api/users/" + "x" * 101, 404, "no_such_user"),
        ("/api/leaderboard?game=chess", 400, "bad_game"),
        ("/api/leaderboard", 400, "bad_game"),
        ("/api/leaderboard?game=lost-cities&players=3", 400, "bad_players"),
        ("/api/leaderboard?game=lost-cities&players=two", 400, "bad_message"),
    ]:
        r = srv.http.get(path)
        assert (r.status_code, r.json()["code"]) == (status, code), (path, r.text)
    assert srv.http.get("/api/leaderboard?game=rank&players=6").json()["players"] == 6
    assert srv.http.get("/api/leaderboard?game=lost-ranks").json()["players"] == 4


def test_sign_in_attempts_are_rate_limited_per_address(tmp_path: Path) -> None:
    clock = ManualClock()
    settings = generous_settings(signin_per_minute=3.0, clock=clock)
    with ServerThread(f"sqlite:///{tmp_path / 'db.sqlite'}", settings=settings) as server, browser(server) as b:
        name = unique("Kim")
        sign_up(b, name)  # 1
        for _ in range(2):  # 2, 3
            assert b.post("/api/account/signin", json={"name": name, "password": "nope nope"}).status_code == 401
        r = b.post("/api/account/signin", json={"name": name, "password": "correct horse"})
        assert (r.status_code, r.json()["code"]) == (429, "rate_limited"), r.text
        assert "sign-in attempts" in r.json()["message"]
        clock.advance(20.0)  # one attempt back
        r = b.post("/api/account/signin", json={"name": name, "password": "correct horse"})
        assert r.status_code == 200, r.text


def test_the_rating_update_and_the_end_of_a_match_are_one_transaction(backend: str, tmp_path: Path) -> None:
    """A rating update that fails leaves the match unfinished and no rating written."""
    import asyncio

    from sqlalchemy import Connection, insert

    from cardtable.server.store import MatchRow, SeatRow, Store, ratings_table

    mid = unique("atomic")

    def failing_update(conn: Connection) -> None:
        conn.execute(insert(ratings_table).values(game="lost-cities", players=2, player=f"ai:{mid}", mu=30.0,
                                                  sigma=5.0, games=1, updated=0.0))
        raise RuntimeError("the rating update failed")

    async def go() -> tuple[str, list[Any]]:
        store = Store(db_url_for(backend, tmp_path))
        try:
            await store.create_match(MatchRow(id=mid, game="lost-cities", config={}, seed=1, options={},
                                              host_hash="h", status="active", result=None, created=1.0, updated=1.0,
                                              seats=[SeatRow(0, "ai", "a", "random", None, True),
                                                     SeatRow(1, "ai", "b", "random", None, True)]))
            with pytest.raises(RuntimeError):
                await store.finish(mid, {"returns": [1.0, -1.0]}, failing_update)
            row = await store.load_match(mid)
            assert row is not None
            written = await store.run(lambda conn: conn.execute(
                select(ratings_table.c.player).where(ratings_table.c.player == f"ai:{mid}")).all())
            return row.status, list(written)
        finally:
            await store.close()

    assert asyncio.run(go()) == ("active", [])


def test_a_profile_shows_matches_still_going_only_to_their_player(srv: ServerThread) -> None:
    name = unique("Lena")
    with browser(srv) as b:
        sign_up(b, name)
        mid = b.post("/api/matches", json={"game": "lost-cities", "seats": [{"kind": "human", "me": True},
                                                                           {"kind": "ai"}]}).json()["match"]
        assert [m["match"] for m in b.get(f"/api/users/{name}").json()["recent"]] == [mid]
    assert srv.http.get(f"/api/users/{name}").json()["recent"] == []
