"""The HTTP endpoints of accounts, profiles and leaderboards (``/api/account…``,
``/api/users/{name}``, ``/api/leaderboard``), and :func:`session_user`, how the
other endpoints learn who is signed in.  See ``docs/server-protocol.md``,
"Accounts" and "Ratings"."""

from __future__ import annotations

import json
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import JSONResponse
from sqlalchemy import Connection, desc, select

from cardtable.protocol import JSON
from cardtable.registry import game_names, load_game
from cardtable.server import ratings
from cardtable.server.accounts import SESSION_COOKIE, Accounts, User, check_csrf
from cardtable.server.errors import ProtocolError
from cardtable.server.limits import client_address
from cardtable.server.room import shared_game
from cardtable.server.store import Store, matches_table, seats_table

RECENT_MATCHES = 20
"""Matches listed on a profile."""


def accounts_of(request: Request | WebSocket) -> Accounts:
    accounts: Accounts = request.app.state.accounts
    return accounts


async def session_user(request: Request | WebSocket) -> User | None:
    """The signed-in user of this request's session cookie, or ``None``.  An HTTP
    request that changes state by the cookie must pass :func:`check_csrf`."""
    token = request.cookies.get(SESSION_COOKIE)
    if token is None:
        return None
    if isinstance(request, Request):
        check_csrf(request.method, True, request.headers.get("origin"), request.headers.get("sec-fetch-site"))
    return await accounts_of(request).user_of(token)


def _signed_in_response(request: Request, user: User, token: str, status: int) -> JSONResponse:
    response = JSONResponse({"user": user.as_json()}, status_code=status)
    accounts = accounts_of(request)
    response.set_cookie(SESSION_COOKIE, token, max_age=int(accounts.session_seconds), httponly=True,
                        samesite="strict", secure=request.url.scheme == "https", path="/")
    return response


def _form(body: dict[str, Any]) -> tuple[object, object]:
    return body.get("name"), body.get("password")


def place_of(result: dict[str, Any] | None, teams: list[list[int]], seat: int) -> int | None:
    """1-based place of ``seat``'s team in a finished match's ``result`` (``None`` if unknown)."""
    if not result or not isinstance(result.get("returns"), list):
        return None
    order = result.get("order") if isinstance(result.get("order"), list) else None
    ranks = ratings.team_ranks(teams, [float(r) for r in result["returns"]], order)
    team = next((i for i, t in enumerate(teams) if seat in t), None)
    return None if team is None else ranks[team] + 1


def _recent(conn: Connection, user_id: int, limit: int, *, finished_only: bool) -> list[dict[str, Any]]:
    """The player's newest matches (``finished_only``: the ones over, all that others see)."""
    m, s = matches_table.c, seats_table.c
    query = (select(m.id, m.game, m.config, m.options, m.status, m.result, m.created, s.seat)
             .select_from(seats_table.join(matches_table, s.match_id == m.id))
             .where(s.user_id == user_id).order_by(desc(m.created)).limit(limit))
    if finished_only:
        query = query.where(m.status == "finished")
    rows = conn.execute(query).mappings().all()
    out: list[dict[str, Any]] = []
    for r in rows:
        config = json.loads(r["config"])
        teams = shared_game(r["game"], config).teams()
        result = None if r["result"] is None else json.loads(r["result"])
        out.append({"match": r["id"], "game": r["game"], "config": config, "seat": r["seat"], "status": r["status"],
                    "rated": bool(json.loads(r["options"]).get("rated", False)), "created": r["created"],
                    "place": place_of(result, teams, r["seat"]), "teams": len(teams)})
    return out


def _per_game(conn: Connection, user_id: int) -> dict[str, dict[str, int]]:
    """Finished matches per game: played, first places, last places."""
    totals: dict[str, dict[str, int]] = {}
    for match in _recent(conn, user_id, 100000, finished_only=True):
        entry = totals.setdefault(match["game"], {"played": 0, "first": 0, "last": 0})
        entry["played"] += 1
        entry["first"] += match["place"] == 1
        entry["last"] += match["place"] == match["teams"] and match["teams"] > 1
    return totals


def install_account_routes(app: FastAPI) -> None:
    """Add the account, profile and leaderboard endpoints to ``app``."""
    from cardtable.server.app import json_body

    @app.post("/api/account/signup", status_code=201)
    async def sign_up(request: Request) -> JSONResponse:
        check_csrf(request.method, True, request.headers.get("origin"), request.headers.get("sec-fetch-site"))
        accounts = accounts_of(request)
        accounts.check_attempt(client_address(request.scope))
        user, token = await accounts.sign_up(*_form(await json_body(request)))
        return _signed_in_response(request, user, token, 201)

    @app.post("/api/account/signin")
    async def sign_in(request: Request) -> JSONResponse:
        check_csrf(request.method, True, request.headers.get("origin"), request.headers.get("sec-fetch-site"))
        accounts = accounts_of(request)
        accounts.check_attempt(client_address(request.scope))
        user, token = await accounts.sign_in(*_form(await json_body(request)))
        return _signed_in_response(request, user, token, 200)

    @app.post("/api/account/signout")
    async def sign_out(request: Request) -> JSONResponse:
        token = request.cookies.get(SESSION_COOKIE)
        if token is not None:
            check_csrf(request.method, True, request.headers.get("origin"), request.headers.get("sec-fetch-site"))
            await accounts_of(request).sign_out(token)
        response = JSONResponse({"user": None})
        response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="strict")
        return response

    @app.get("/api/account")
    async def whoami(request: Request) -> dict[str, JSON]:
        user = await session_user(request)
        return {"user": None if user is None else user.as_json()}

    @app.get("/api/users/{name}")
    async def profile(request: Request, name: str) -> dict[str, Any]:
        if len(name) > 100:
            raise ProtocolError("no_such_user", "no account has this name", status=404)
        user = await accounts_of(request).find(name)
        if user is None:
            raise ProtocolError("no_such_user", "no account has this name", status=404)
        store: Store = request.app.state.store
        player = ratings.user_player(user.id)
        own = await session_user(request) == user  # only the player sees their matches still going

        def op(conn: Connection) -> dict[str, Any]:
            return {"user": user.as_json(), "ratings": ratings.current(conn, player),
                    "history": ratings.history(conn, player), "games": _per_game(conn, user.id),
                    "recent": _recent(conn, user.id, RECENT_MATCHES, finished_only=not own)}

        return await store.run(op)

    @app.get("/api/leaderboard")
    async def leaderboard(request: Request, game: str = "", players: int = 0, limit: int = 50) -> dict[str, Any]:
        if game not in game_names():
            raise ProtocolError("bad_game", f"'game' must be one of: {', '.join(game_names())}")
        allowed = _player_counts(game)
        count = players or allowed[0]
        if count not in allowed:
            raise ProtocolError("bad_players", f"{game} is rated at {', '.join(map(str, allowed))} players, "
                                f"not {players}")
        store: Store = request.app.state.store
        entries = await store.run(lambda conn: ratings.leaderboard(conn, game, count, max(1, min(limit, 200))))
        return {"game": game, "players": count, "entries": entries}


def _player_counts(game: str) -> list[int]:
    """The player counts of ``game`` (its default first)."""
    default = load_game(game)
    counts = [default.num_players]
    option = next((o for o in default.info.options if o.name == "players"), None)
    if option is not None:
        values = option.choices or (range(option.minimum, option.maximum + 1)
                                    if option.minimum is not None and option.maximum is not None else ())
        counts += [v for v in values if isinstance(v, int) and v not in counts]
    return counts
