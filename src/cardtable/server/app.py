"""The FastAPI application: REST endpoints and the ``/ws`` live-play socket.

See ``docs/server-protocol.md`` for the protocol.  :func:`create_app` builds
the app for a database URL; the store is opened when the app starts
(lifespan) and closed when it stops.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import JSONResponse, Response, StreamingResponse
from starlette.websockets import WebSocketDisconnect, WebSocketState

from cardtable import records
from cardtable.agents import agent_names, agents_by_strength
from cardtable.i18n import LANGUAGES, catalog
from cardtable.protocol import JSON
from cardtable.registry import game_names, load_game
from cardtable.server import lifecycle
from cardtable.server.account_api import install_account_routes, session_user
from cardtable.server.review import Analyses, review_message
from cardtable.server.tutorials import install_tutorial_routes
from cardtable.server.accounts import Accounts, User
from cardtable.server import chat
from cardtable.server.clocks import ClockOptions
from cardtable.server.cluster import (
    ClusterConfig,
    ClusterMiddleware,
    ClusterRooms,
    OwnedElsewhere,
    cluster_conninfo,
    open_cluster_rooms,
)
from cardtable.server.errors import ProtocolError, install_error_handlers
from cardtable.server.room import (
    PROTOCOL_REVISION,
    PROTOCOL_VERSION,
    Connection,
    Room,
    Rooms,
    Settings,
    default_agent,
    hash_token,
    shared_game,
    new_token,
)
from cardtable.server.limits import Limits, LimitsMiddleware, TokenBucket, client_address
from cardtable.server.store import MatchRow, SeatRow, Store
from cardtable.server.validate import check_id, clean_name, parse_json
from cardtable.server.views import dumps

log = logging.getLogger("cardtable.server")


def create_app(
    db_url: str,
    *,
    ai_delay: float = 0.0,
    takeover_grace: float = 30.0,
    sqlite_synchronous: str = "NORMAL",
    rate_per_second: float = 50.0,
    settings: Settings | None = None,
    cluster: ClusterConfig | None = None,
    **setting_fields: Any,
) -> FastAPI:
    """The server app storing its matches at ``db_url`` (SQLite file URL or path,
    or ``postgresql://…``); ``setting_fields`` set other :class:`Settings` fields.
    With ``cluster`` the app is one node of a cluster of processes sharing a
    PostgreSQL ``db_url`` (:mod:`cardtable.server.cluster`)."""
    if cluster is not None:
        cluster_conninfo(db_url)  # refuses SQLite before anything starts
    cfg = settings or Settings(ai_delay=ai_delay, takeover_grace=takeover_grace, rate_per_second=rate_per_second,
                               rate_burst=max(200.0, 4 * rate_per_second), **setting_fields)
    limits = Limits(cfg)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(db_url, sqlite_synchronous=sqlite_synchronous)
        app.state.store = store
        app.state.accounts = Accounts(store, cfg.clock, signin_per_minute=cfg.signin_per_minute,
                                      session_days=cfg.session_days, max_addresses=cfg.max_tracked_addresses)
        rooms: Rooms
        if cluster is not None:
            rooms = await open_cluster_rooms(app, store, cfg, limits, cluster, db_url)
        else:
            rooms = Rooms(store, cfg, limits)
        app.state.rooms = rooms
        app.state.analyses = Analyses(rooms.searches)
        rooms.start()
        await rooms.start_clocks()
        try:
            yield
        finally:
            await rooms.close()
            await store.close()

    app = FastAPI(title="cardtable", version=str(PROTOCOL_VERSION), lifespan=lifespan,
                  docs_url="/api/docs", openapi_url="/api/openapi.json", redoc_url=None)
    app.state.settings = cfg
    if cluster is not None:
        app.add_middleware(ClusterMiddleware)  # (inside the limits: they apply where a request arrives)
    app.add_middleware(LimitsMiddleware, limits=limits)
    install_error_handlers(app)
    _add_catalog_routes(app)
    _add_match_routes(app)
    _add_lobby_routes(app)
    _add_seat_routes(app)
    _add_live_play(app, cfg)
    install_account_routes(app)
    install_tutorial_routes(app)
    return app


def rooms_of(request: Request | WebSocket) -> Rooms:
    r: Rooms = request.app.state.rooms
    return r


# --- REST -----------------------------------------------------------------
def _add_catalog_routes(app: FastAPI) -> None:
    """The server's health and what it offers: games, agents, refusal catalogs."""

    @app.get("/api/health")
    async def health(request: Request) -> dict[str, JSON]:
        store: Store = request.app.state.store
        rooms = rooms_of(request)
        return {"ok": True, "protocol": PROTOCOL_VERSION, "revision": PROTOCOL_REVISION, "db": store.backend,
                "matches_in_memory": len(rooms.rooms), **rooms.move_stats()}

    @app.get("/api/games")
    async def games() -> list[dict[str, JSON]]:
        out: list[dict[str, JSON]] = []
        for name in game_names():
            try:
                game = load_game(name)
            except Exception:  # noqa: BLE001 - a game module still missing
                continue
            out.append({
                "name": name,
                "title": game.title,
                "num_players": game.num_players,
                "options": game.config_dict(),
                "description": game.info.as_json(),
                "cards": list(game.card_names()),
                "actions": list(game.action_names()),
                "agents": agents_by_strength(name),  # weakest first
                "default_agent": default_agent(name),
            })
        return out

    @app.get("/api/i18n")
    async def i18n() -> dict[str, JSON]:
        """The refusal catalog of every language (``cardtable.i18n``), for the browser."""
        return {lang: catalog(lang) for lang in LANGUAGES}


def _add_match_routes(app: FastAPI) -> None:
    """Creating, listing and reading matches, and playing moves over REST."""

    @app.post("/api/matches", status_code=201)
    async def create_match(request: Request) -> JSONResponse:
        body = await json_body(request)
        user = await session_user(request)
        room, host_token, tokens = await new_match(rooms_of(request), body, user)
        base = str(request.base_url).rstrip("/")
        seats: list[dict[str, JSON]] = []
        for s in room.seats:
            entry: dict[str, JSON] = {"seat": s.row.seat, "kind": s.row.kind, "name": s.row.name}
            token = tokens.get(s.row.seat)
            if token is not None:
                entry["token"] = token
                entry["invite"] = f"{base}/play/{room.id}#token={token}"
            else:
                entry["agent"] = s.row.agent
            seats.append(entry)
        return JSONResponse({"match": room.id, "host_token": host_token, "seats": seats, "info": room.info()},
                            status_code=201)

    @app.get("/api/matches/{match_id}/invite")
    async def invite_info(request: Request, match_id: str) -> dict[str, JSON]:
        """What an invite link leads to: its seat and the match (for the join page)."""
        room = await rooms_of(request).get(match_id)
        token = bearer(request)
        if token is None:
            raise ProtocolError("auth_required", "send the invite's token", status=401)
        return {"seat": room.authenticate(token), "info": room.info()}

    @app.get("/api/matches/{match_id}")
    async def match_info(request: Request, match_id: str) -> dict[str, JSON]:
        return (await rooms_of(request).get(match_id)).info()

    @app.get("/api/matches/{match_id}/state")
    async def match_state(request: Request, match_id: str) -> Response:
        room = await rooms_of(request).get(match_id)
        key, _ = await seat_key(request, room)
        return Response(room.state_message(key), media_type="application/json")

    @app.post("/api/matches/{match_id}/moves")
    async def post_move(request: Request, match_id: str) -> Response:
        room = await rooms_of(request).get(match_id)
        key, token = await seat_key(request, room)
        body = await json_body(request)
        await room.move(key, body.get("seq"), body.get("move"), body.get("action"), token=token)
        return Response(room.state_message(key), media_type="application/json")

    @app.post("/api/matches/{match_id}/hint")
    async def post_hint(request: Request, match_id: str) -> dict[str, JSON]:
        room = await rooms_of(request).get(match_id)
        key, token = await seat_key(request, room)
        body = await json_body(request, allow_empty=True)
        agent = body.get("agent")
        if agent is not None and not isinstance(agent, str):
            raise ProtocolError("bad_message", "'agent' must be an agent name")
        return await room.hint(key, agent, token=token)


def _add_lobby_routes(app: FastAPI) -> None:
    """What the lobby lists: the matches, and news of listed matches as they change."""

    @app.get("/api/matches")
    async def list_matches(request: Request, status: str | None = None, limit: int = 50) -> list[dict[str, Any]]:
        if status not in (None, "active", "finished"):
            raise ProtocolError("bad_message", "status must be active or finished")
        store: Store = request.app.state.store
        return await store.list_matches(status=status, limit=max(1, min(limit, 200)))

    @app.get("/api/lobby/events")
    async def lobby_events(request: Request) -> StreamingResponse:
        """Server-Sent Events for lobby pages: ``event: match`` with ``{"match", "change"}``
        whenever a listed match is created, changes seats or ends (``cardtable.server.lobby``)."""
        feed = rooms_of(request).lobby
        queue = feed.subscribe()
        return event_stream(request, "match", queue, lambda: feed.unsubscribe(queue))

    @app.get("/api/turns/events")
    async def turn_events(request: Request, matches: str = "") -> StreamingResponse:
        """Server-Sent Events for a player's pages: ``event: turn`` whenever one of
        ``matches`` (ids, comma-separated) comes to a new seat's turn or ends
        (:mod:`cardtable.server.turns`)."""
        feed = rooms_of(request).turns
        ids = feed.parse_ids(matches)
        queue = feed.subscribe(ids)
        return event_stream(request, "turn", queue, lambda: feed.unsubscribe(queue, ids))


def event_stream(request: Request, event: str, queue: asyncio.Queue[str],
                 unsubscribe: Callable[[], None]) -> StreamingResponse:
    """Server-Sent Events of the texts arriving on ``queue``, each as ``event``, with a
    keep-alive comment every ``lobby_heartbeat`` seconds; ``unsubscribe`` when it ends."""
    heartbeat: float = request.app.state.settings.lobby_heartbeat

    async def stream() -> AsyncIterator[str]:
        try:
            yield "retry: 5000\n: ready\n\n"
            while True:
                try:
                    text = await asyncio.wait_for(queue.get(), heartbeat)
                except asyncio.TimeoutError:
                    yield ": ping\n\n"
                    continue
                yield f"event: {event}\ndata: {text}\n\n"
        finally:
            unsubscribe()

    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


def _add_seat_routes(app: FastAPI) -> None:
    """Seats changing hands (to an AI and back, joining an open seat), replays and records."""

    @app.post("/api/matches/{match_id}/seats/{seat}/ai")
    async def seat_to_ai(request: Request, match_id: str, seat: int) -> dict[str, JSON]:
        room = await rooms_of(request).get(match_id)
        token = bearer(request)
        body = await json_body(request, allow_empty=True)
        agent = body.get("agent")
        if agent is not None and not isinstance(agent, str):
            raise ProtocolError("bad_message", "'agent' must be an agent name")
        if room.is_host(token):
            await room.set_ai(seat, agent, by=None, host=True)
        else:
            by, token = await seat_key(request, room)
            if by is None:
                raise ProtocolError("auth_required", "send the host token or a seat token", status=401)
            await room.set_ai(seat, agent, by=by, host=False, token=token)
        return {"seats": room.seats_info()}

    @app.post("/api/matches/{match_id}/seats/{seat}/human")
    async def seat_to_human(request: Request, match_id: str, seat: int) -> dict[str, JSON]:
        room = await rooms_of(request).get(match_id)
        key, token = await seat_key(request, room)
        if key is None:
            raise ProtocolError("auth_required", "send the seat's token", status=401)
        if key != seat:
            raise ProtocolError("not_your_seat", "only the seat's own player can take it back", status=403)
        await room.reclaim(key, token=token)
        return {"seats": room.seats_info()}

    @app.post("/api/matches/{match_id}/join")
    async def join_match(request: Request, match_id: str) -> dict[str, JSON]:
        room = await rooms_of(request).get(match_id)
        body = await json_body(request, allow_empty=True)
        seat = body.get("seat")
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
            raise ProtocolError("bad_message", "'seat' must be a seat number")
        name = clean_name(body.get("name"), "")
        seat_no, token = await room.join(seat, name or None, await session_user(request))
        base = str(request.base_url).rstrip("/")
        return {"match": room.id, "seat": seat_no, "token": token, "invite": f"{base}/play/{room.id}#token={token}",
                "info": room.info()}

    @app.get("/api/matches/{match_id}/replay")
    async def get_replay(request: Request, match_id: str) -> Response:
        room = await rooms_of(request).get(match_id)
        key, _ = await seat_key(request, room)
        return Response(await replay_message(room, key, None), media_type="application/json")

    @app.get("/api/matches/{match_id}/record")
    async def get_record(request: Request, match_id: str) -> JSONResponse:
        room = await rooms_of(request).get(match_id)
        token = bearer(request)
        if not room.is_host(token):
            key, token = await seat_key(request, room)
            if key is None:
                raise ProtocolError("auth_required", "records are for the match's players: send a seat token",
                                    status=401)
        if not room.finished:
            raise ProtocolError("not_finished", "a record is exported once the match is over", status=409)
        record = records.record_of(room.state, players=[s.row.name for s in room.seats])
        return JSONResponse(record)

    @app.get("/api/matches/{match_id}/analysis")
    async def get_analysis(request: Request, match_id: str, seat: int) -> JSONResponse:
        room = await rooms_of(request).get(match_id)
        if not room.is_host(bearer(request)):
            await seat_key(request, room)  # a seat, or a spectator where the match admits them
        analyses: Analyses = request.app.state.analyses
        return JSONResponse(await analyses.get(room, seat))

    @app.get("/api/matches/{match_id}/review")
    async def get_review(request: Request, match_id: str) -> Response:
        """The finished match with every hand revealed (``cardtable.server.review``)."""
        room = await rooms_of(request).get(match_id)
        key = None
        if not room.is_host(bearer(request)):
            key, _ = await seat_key(request, room)  # a seat, or a spectator where the match admits them
        return Response(await review_message(room, key), media_type="application/json")


# --- live play ------------------------------------------------------------
def _add_live_play(app: FastAPI, cfg: Settings) -> None:
    """The ``/ws`` socket: one session per connection, its outbox drained by a sender task."""

    @app.websocket("/ws")
    async def websocket(ws: WebSocket) -> None:
        await ws.accept()
        conn = Connection(cfg.outbox_limit, client_address(ws.scope))
        sender = asyncio.get_running_loop().create_task(_sender(ws, conn))
        rooms = rooms_of(ws)
        bucket = rooms.limits.message_bucket()
        try:
            await _session(ws, conn, rooms, cfg, bucket)
        except OwnedElsewhere as moved:  # a cluster node: the match's owner serves this socket
            assert isinstance(rooms, ClusterRooms) and moved.hello is not None
            await rooms.cluster.relay_socket(ws, conn, moved.node, moved.hello)
        except WebSocketDisconnect:
            pass
        except Exception:  # noqa: BLE001 - never let one client take the server down
            log.exception("websocket session failed")
        finally:
            room = conn.room
            if room is not None:
                room.detach(conn)
                rooms.maybe_evict(room)
            conn.close()
            try:
                await asyncio.wait_for(sender, 5)
            except (asyncio.TimeoutError, Exception):  # noqa: BLE001
                sender.cancel()


# --- helpers --------------------------------------------------------------------
async def seat_key(request: Request, room: Room) -> tuple[int | None, str | None]:
    """Who asks: the seat of the bearer token, or with none the seat bound to the
    signed-in account, or ``None`` (a spectator); and the token."""
    token = bearer(request)
    user = None if token is not None else await session_user(request)
    return room.authenticate(token, user), token


def bearer(request: Request) -> str | None:
    header = request.headers.get("authorization")
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ProtocolError("auth_failed", "use 'Authorization: Bearer <token>'", status=401)
    return token.strip()


async def json_body(request: Request, *, allow_empty: bool = False) -> dict[str, Any]:
    raw = await request.body()  # (LimitsMiddleware cuts it off at the limit)
    limit: int = request.app.state.settings.max_body_bytes
    if len(raw) > limit:
        raise ProtocolError("too_large", f"the body is larger than {limit} bytes", status=413)
    if not raw.strip():
        if allow_empty:
            return {}
        raise ProtocolError("bad_json", "the request needs a JSON object body")
    data = parse_json(raw, what="the body")
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "the body must be a JSON object")
    return data


def _bind_creator(seats: list[SeatRow], specs: list[Any], user: User | None, rated: Any) -> None:
    """Bind the seat marked ``"me": true`` to the signed-in creator (claimed, named
    after the account); a rated match needs one."""
    if not isinstance(rated, bool):
        raise ProtocolError("bad_message", "'rated' must be true or false")
    mine = [i for i, spec in enumerate(specs) if spec.get("me", False) is not False]
    for i in mine:
        if specs[i].get("me") is not True:
            raise ProtocolError("bad_seats", f"seat {i}: 'me' must be true or false")
        if seats[i].kind != "human":
            raise ProtocolError("bad_seats", f"seat {i}: only a human seat can be yours")
    if len(mine) > 1:
        raise ProtocolError("bad_seats", "at most one seat can be yours ('me': true)")
    if (mine or rated) and user is None:
        raise ProtocolError("account_required", "sign in to take a seat as yourself or to create a rated match",
                            status=401)
    if rated and not mine:
        raise ProtocolError("bad_seats", "a rated match needs your seat: mark it \"me\": true")
    if mine and user is not None:
        seats[mine[0]].user_id = user.id
        seats[mine[0]].name = user.name
        seats[mine[0]].claimed = True


async def new_match(rooms: Rooms, body: dict[str, Any], user: User | None = None) -> tuple[Room, str, dict[int, str]]:
    """Create and store a match from a request body (see the protocol doc); ``user``
    is the signed-in creator."""
    game_name = body.get("game")
    if not isinstance(game_name, str) or game_name not in game_names():
        raise ProtocolError("bad_game", f"'game' must be one of: {', '.join(game_names())}")
    config = body.get("config") or {}
    if not isinstance(config, dict) or not all(isinstance(v, (int, str, bool, float)) for v in config.values()):
        raise ProtocolError("bad_config", "'config' must be an object of game options")
    try:
        game = shared_game(game_name, config)
    except ValueError as err:
        raise ProtocolError("bad_config", str(err)) from None
    seats_spec = body.get("seats")
    if seats_spec is None:
        seats_spec = [{"kind": "human"} for _ in range(game.num_players)]
    if not isinstance(seats_spec, list) or len(seats_spec) != game.num_players:
        raise ProtocolError("bad_seats", f"'seats' must list {game.num_players} seats")
    seats, tokens, open_seats = _seat_rows(game_name, seats_spec)
    rated = body.get("rated", False)
    _bind_creator(seats, seats_spec, user, rated)
    seed = body.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**62):
        raise ProtocolError("bad_message", "'seed' must be a non-negative integer")
    options: dict[str, Any] = {}
    for flag, default in (("hints", any(s.kind == "ai" for s in seats) and not rated), ("spectators", True),
                          ("listed", False)):
        value = body.get(flag, default)
        if not isinstance(value, bool):
            raise ProtocolError("bad_message", f"'{flag}' must be true or false")
        options[flag] = value
    options["fixed_seed"] = seed is not None
    options["chat"] = chat.check_mode(body.get("chat"))
    clock = ClockOptions.parse(body.get("clock"))
    if clock is not None:
        options["clock"] = clock.as_json()
    if rated:
        if options["hints"]:
            raise ProtocolError("bad_message", "a rated match has no hints: leave out 'hints' or send false")
        if seed is not None:
            raise ProtocolError("bad_message", "a rated match is dealt at random: leave out 'seed'")
        options["rated"] = True
    if open_seats:
        options["open_seats"] = open_seats
    host_token = new_token()
    now = time.time()
    row = MatchRow(
        id=secrets.token_urlsafe(9),
        game=game_name,
        config=game.config_dict(),
        seed=secrets.randbits(62) if seed is None else seed,
        options=options,
        host_hash=hash_token(host_token),
        status="active",
        result=None,
        created=now,
        updated=now,
        seats=seats,
    )
    room = await rooms.create(row)
    return room, host_token, tokens


def _seat_rows(game_name: str, seats_spec: list[Any]) -> tuple[list[SeatRow], dict[int, str], list[int]]:
    """The seats of a new match from the request's ``seats``: their rows, the new
    tokens of the human seats, and the seats open to anyone."""
    known_agents = agent_names(game_name)
    seats: list[SeatRow] = []
    tokens: dict[int, str] = {}
    open_seats: list[int] = []
    for i, spec in enumerate(seats_spec):
        if not isinstance(spec, dict):
            raise ProtocolError("bad_seats", f"seat {i} must be an object such as {{\"kind\": \"human\"}}")
        kind = spec.get("kind", "human")
        is_open = spec.get("open", False)
        if not isinstance(is_open, bool):
            raise ProtocolError("bad_seats", f"seat {i}: 'open' must be true or false")
        if is_open and kind != "human":
            raise ProtocolError("bad_seats", f"seat {i}: only a human seat can be open to anyone")
        if is_open:
            open_seats.append(i)
        if kind == "human":
            token = new_token()
            tokens[i] = token
            seats.append(SeatRow(seat=i, kind="human", name=clean_name(spec.get("name"), f"seat {i}"),
                                 agent=None, token_hash=hash_token(token), claimed=False))
        elif kind == "ai":
            agent = spec.get("agent") or default_agent(game_name)
            if agent not in known_agents:
                raise ProtocolError("bad_agent", f"seat {i}: unknown agent {agent!r}; choose from: "
                                    f"{', '.join(known_agents)}")
            seats.append(SeatRow(seat=i, kind="ai", name=clean_name(spec.get("name"), str(agent)),
                                 agent=str(agent), token_hash=None, claimed=True))
        else:
            raise ProtocolError("bad_seats", f"seat {i}: kind must be 'human' or 'ai'")
    return seats, tokens, open_seats


async def replay_message(room: Room, key: int | None, req_id: JSON) -> str:
    steps = await asyncio.to_thread(room.replay_steps, key)
    msg: dict[str, JSON] = {"type": "replay", "seq": room.seq, "you": key, "status": room.status(),
                            "steps": steps, "result": room.result_for(key)}
    if req_id is not None:
        msg["id"] = req_id
    return dumps(msg)


async def _sender(ws: WebSocket, conn: Connection) -> None:
    try:
        while True:
            text = await conn.queue.get()
            if text is None:
                break
            await ws.send_text(text)
    except Exception:  # noqa: BLE001 - the peer went away
        pass
    finally:
        conn.closed = True
        if ws.application_state == WebSocketState.CONNECTED:
            try:
                await ws.close(code=1013 if conn.overflowed else 1000)
            except Exception:  # noqa: BLE001
                pass


def _plain_error(code: str, message: str, req_id: JSON = None, seq: int | None = None) -> str:
    msg: dict[str, JSON] = {"type": "error", "seq": seq, "code": code, "message": message}
    if req_id is not None:
        msg["id"] = req_id
    return dumps(msg)


async def _receive(ws: WebSocket, timeout: float | None) -> str | bytes | None:
    if timeout is None:
        message = await ws.receive()
    else:
        message = await asyncio.wait_for(ws.receive(), timeout)
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text: str | None = message.get("text")
    if text is not None:
        return text
    data: bytes | None = message.get("bytes")
    return data


def _parse(raw: str | bytes | None, limit: int) -> dict[str, Any]:
    if not isinstance(raw, str):
        raise ProtocolError("bad_message", "send JSON text frames, not binary")
    if len(raw) > limit:
        raise ProtocolError("too_large", f"messages are limited to {limit} bytes")
    data = parse_json(raw, what="the message")
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "a message must be a JSON object with a 'type'")
    if not isinstance(data.get("type"), str):
        raise ProtocolError("bad_message", "a message needs a 'type' string")
    check_id(data.get("id"))
    return data


CLIENT_TYPES = ("hello", "move", "sync", "hint", "replay", "ping", "leave", "takeover", "reclaim",
                *lifecycle.MESSAGES, *chat.CHAT_TYPES)


async def _session(ws: WebSocket, conn: Connection, rooms: Rooms, cfg: Settings, bucket: TokenBucket) -> None:
    # 1. hello: within hello_timeout of the socket's opening, frames rate-limited
    room: Room | None = None
    deadline = cfg.clock.now() + cfg.hello_timeout
    while room is None:
        try:
            left = deadline - cfg.clock.now()
            if left <= 0:
                raise asyncio.TimeoutError
            raw = await _receive(ws, left)
            if cfg.clock.now() >= deadline:
                raise asyncio.TimeoutError
        except asyncio.TimeoutError:
            conn.send(_plain_error("hello_timeout", f"send 'hello' within {cfg.hello_timeout:.0f} s"))
            return
        if not bucket.take():
            conn.send(_plain_error("rate_limited", "too many messages before 'hello'"))
            return
        req_id: JSON = None
        try:
            data = _parse(raw, cfg.max_message_bytes)
            req_id = data.get("id")
            if data["type"] != "hello":
                raise ProtocolError("not_joined", "send 'hello' first: {\"type\": \"hello\", \"v\": 1, "
                                    "\"match\": …, \"token\": …}")
            version = data.get("v")
            if version != PROTOCOL_VERSION:
                raise ProtocolError("unsupported_version",
                                    f"this server speaks protocol version {PROTOCOL_VERSION}, not {version!r}")
            token = data.get("token")
            if token is not None and (not isinstance(token, str) or len(token) > 200):
                raise ProtocolError("bad_message", "'token' must be a seat token string")
            name = clean_name(data.get("name"), "") or None
            match_id = data.get("match")
            if not isinstance(match_id, str):
                raise ProtocolError("bad_message", "'match' must be a match id")
            candidate = await rooms.get(match_id)
            await candidate.attach(conn, token, name, await session_user(ws))
            room = candidate
        except OwnedElsewhere as moved:
            moved.hello = raw if isinstance(raw, str) else None
            if moved.hello is None:
                conn.send(_plain_error("bad_message", "send JSON text frames, not binary", req_id))
                continue
            raise
        except ProtocolError as err:
            conn.send(_plain_error(err.code, err.message, req_id))
            if err.code in ("unsupported_version", "no_such_match", "auth_failed", "spectators_disallowed",
                            "corrupt"):
                return
    # 2. the session
    while not conn.closed:
        raw = await _receive(ws, None)
        key = conn.key
        req_id = None
        try:
            if not bucket.take():
                raise ProtocolError("rate_limited", "too many messages: slow down")
            data = _parse(raw, cfg.max_message_bytes)
            req_id = data.get("id")
            await _dispatch(rooms, room, conn, key, data, req_id)
        except ProtocolError as err:
            conn.send(room.error_message(key, err, req_id))
        except Exception:  # noqa: BLE001
            log.exception("match %s: handling a message failed", room.id)
            conn.send(room.error_message(key, ProtocolError("internal", "the server could not handle this message"),
                                         req_id))


async def _dispatch(rooms: Rooms, room: Room, conn: Connection, key: int | None, data: dict[str, Any],
                    req_id: JSON) -> None:
    kind = data["type"]
    if kind == "move":
        t0 = time.perf_counter()
        await room.move(key, data.get("seq"), data.get("move"), data.get("action"), conn, req_id)
        rooms.record_move(time.perf_counter() - t0)
    elif kind == "sync":
        conn.send(room.state_message(key, conn))
    elif kind == "ping":
        pong: dict[str, JSON] = {"type": "pong", "seq": room.seq}
        if req_id is not None:
            pong["id"] = req_id
        conn.send(dumps(pong))
    elif kind == "hint":
        agent = data.get("agent")
        if agent is not None and not isinstance(agent, str):
            raise ProtocolError("bad_message", "'agent' must be an agent name")
        rooms.check_hint(conn.address)
        hint = await room.hint(key, agent)
        if req_id is not None:
            hint["id"] = req_id
        conn.send(dumps(hint))
    elif kind == "replay":
        conn.send(await replay_message(room, key, req_id))
    elif kind == "leave":
        if key is None:
            raise ProtocolError("not_a_player", "spectators have no seat to leave", status=403)
        agent = data.get("agent")
        if agent is not None and not isinstance(agent, str):
            raise ProtocolError("bad_message", "'agent' must be an agent name")
        await room.set_ai(key, agent, by=key, host=False, conn=conn, req_id=req_id)
    elif kind == "takeover":
        seat = data.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise ProtocolError("bad_message", "'seat' must be a seat number")
        agent = data.get("agent")
        if agent is not None and not isinstance(agent, str):
            raise ProtocolError("bad_message", "'agent' must be an agent name")
        await room.set_ai(seat, agent, by=key, host=False, conn=conn, req_id=req_id)
    elif kind == "reclaim":
        await room.reclaim(key, conn, req_id)
    elif kind in lifecycle.MESSAGES:
        await lifecycle.MESSAGES[kind](rooms, room, conn, key, data, req_id)
    elif kind in chat.CHAT_TYPES:
        await chat.handle(room, conn, data, req_id)
    elif kind == "hello":
        raise ProtocolError("already_joined", "this connection has already joined a match")
    else:
        raise ProtocolError("unknown_type", f"unknown message type {kind!r}; known: {', '.join(CLIENT_TYPES)}")
