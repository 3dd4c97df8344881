"""How a match ends other than by its rules, and how the next one starts: the
``resign``, ``abort``, ``draw_offer`` / ``draw_accept`` / ``draw_decline`` and
``rematch`` messages (``docs/server-protocol.md``, "Ending a match").

The engine's state cannot resign, so an early end is the room's
:attr:`~cardtable.server.room.Room.outcome`: a result like the state's, with an
``ending`` of ``resigned``, ``drawn`` or ``aborted``, stored with the match
(``matches.ending``) and restored when the match reloads.

* A side (a seat, or a Lost Ranks partnership: ``game.teams()``) resigns when each
  of its human seats has sent ``resign`` with ``"confirm": true``; the first
  partner's is an offer only the partnership hears of.  The side loses: its seats
  get the game's lowest return and the other seats share the rest.
* ``abort`` ends the match with no winner, unrated, while fewer than
  :attr:`~cardtable.server.room.Settings.abort_moves` moves have been made.
* A draw is agreed when every human seat has agreed to the offer; a move ends
  the offer.  Only games that can end level allow one (:func:`allows_draw`).
* ``rematch``, once every human seat has asked, creates the same match again with
  the seats rotated by one; each seat's connections alone get its new token.

>>> from cardtable.registry import load_game
>>> [allows_draw(load_game(name)) for name in ("lost-cities", "lost-ranks", "rank")]
[True, True, False]
>>> resignation_returns(load_game("lost-ranks"), [1, 3])
[1.0, -1.0, 1.0, -1.0]
>>> resignation_returns(load_game("rank", players=3), [2])
[0.0, 0.0, -1.0]
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from cardtable.protocol import JSON, Game
from cardtable.server.errors import ProtocolError
from cardtable.server.room import Connection, Room, Rooms, hash_token, new_token
from cardtable.server.store import MatchRow, SeatRow
from cardtable.server.views import dumps

Handler = Callable[[Rooms, Room, Connection, "int | None", dict[str, Any], JSON], Awaitable[None]]


def allows_draw(game: Game) -> bool:
    """Whether ``game`` can end level (:attr:`~cardtable.description.GameInfo.can_tie`):
    Ранг's returns sum to -1 (RG-7: there is always one loser), so it has no draws."""
    return game.info.can_tie


def side_of(game: Game, seat: int) -> list[int]:
    """The seats sharing ``seat``'s result (its partnership, or itself alone)."""
    return next(team for team in game.teams() if seat in team)


def resignation_returns(game: Game, side: list[int]) -> list[float]:
    """Returns when ``side`` resigns: the game's lowest for its seats, and what the
    returns must still add up to shared evenly by every other seat."""
    info = game.info
    others = game.num_players - len(side)
    share = (info.return_sum - len(side) * info.min_return) / others
    return [info.min_return if seat in side else share for seat in range(game.num_players)]


# --- shared checks and notices ---------------------------------------------------------
def _seated(room: Room, key: int | None, what: str) -> int:
    """``key``'s seat, if a human plays it in a match that is still on."""
    if key is None:
        raise ProtocolError("not_a_player", f"spectators cannot {what}", status=403)
    if room.broken:
        raise ProtocolError("unavailable", room.broken, status=503)
    if room.seats[key].row.kind != "human":
        raise ProtocolError("seat_is_ai", "an AI plays this seat now; send 'reclaim' to take it back", status=409)
    return key


def _playing(room: Room, key: int | None, what: str) -> int:
    seat = _seated(room, key, what)
    if room.finished:
        raise ProtocolError("match_over", "the match is over", status=409)
    return seat


def _humans(room: Room, seats: list[int] | None = None) -> set[int]:
    return {s.row.seat for s in room.seats if s.row.kind == "human" and (seats is None or s.row.seat in seats)}


def _with_id(text: str, req_id: JSON) -> str:
    return text if req_id is None else text[:-1] + ',"id":' + dumps(req_id) + "}"


def _tell(room: Room, keys: list[int | None], msg: dict[str, JSON], conn: Connection, req_id: JSON) -> None:
    """Send ``msg`` to the connections of ``keys``; the asker's copy carries ``req_id``."""
    text = dumps({"seq": room.seq, **msg})
    reply = _with_id(text, req_id)
    if conn.key not in keys:
        conn.send(reply)
    for key in keys:
        for c in list(room.connections_of(key)):
            c.send(reply if c is conn else text)


def _end(room: Room, result: dict[str, Any], conn: Connection, req_id: JSON) -> None:
    """End the match early: an ``ended`` notice to everyone, then each one's new state."""
    _tell(room, room.keys, {"type": "ended", "ending": result["ending"], "seats": result.get("seats")},
          conn, req_id)
    room.end_early(result)


# --- the messages ----------------------------------------------------------------------
async def resign(rooms: Rooms, room: Room, conn: Connection, key: int | None, data: dict[str, Any],
                 req_id: JSON) -> None:
    """``resign``: ``key``'s side gives up the match, once each of its human seats has asked."""
    async with room.lock:
        seat = _playing(room, key, "resign")
        if data.get("confirm") is not True:
            raise ProtocolError("not_confirmed", "resigning loses the match: send 'resign' with \"confirm\": true")
        side = side_of(room.game, seat)
        asked = room.agreed.setdefault("resign", set())
        asked.add(seat)
        waiting = sorted(_humans(room, side) - asked)
        if waiting:
            _tell(room, list(side), {"type": "resign_offer", "seat": seat, "side": side, "waiting": waiting},
                  conn, req_id)
            return
        returns = resignation_returns(room.game, side)
        _end(room, {"ending": "resigned", "seats": side, "returns": returns, "moves": room.seq}, conn, req_id)


async def abort(rooms: Rooms, room: Room, conn: Connection, key: int | None, data: dict[str, Any],
                req_id: JSON) -> None:
    """``abort``: call the match off, with no result, before it is a few moves old."""
    async with room.lock:
        seat = _playing(room, key, "abort the match")
        limit = room.settings.abort_moves
        if room.seq >= limit:
            raise ProtocolError("too_late", f"{room.seq} moves are made: a match can be aborted only before "
                                f"{limit} moves; resign instead", status=409)
        _end(room, {"ending": "aborted", "seats": [seat], "returns": None, "moves": room.seq}, conn, req_id)


def _draw_checks(room: Room, key: int | None) -> int:
    seat = _playing(room, key, "agree to a draw")
    if not allows_draw(room.game):
        raise ProtocolError("no_ties", f"{room.game.title} cannot end in a draw: someone always loses",
                            status=409)
    return seat


def _draw_pending(room: Room) -> set[int]:
    offer = room.agreed.get("draw")
    if offer is None:
        raise ProtocolError("no_draw_offer", "no draw is on offer (a move ends an offer)", status=409)
    return offer


def _draw_news(room: Room, seat: int, offer: set[int], conn: Connection, req_id: JSON) -> None:
    waiting = sorted(_humans(room) - offer)
    if not waiting:
        returns = [0.0] * room.game.num_players
        _end(room, {"ending": "drawn", "seats": sorted(offer), "returns": returns, "moves": room.seq}, conn, req_id)
        return
    _tell(room, room.keys, {"type": "draw_offer", "seat": seat, "agreed": sorted(offer), "waiting": waiting},
          conn, req_id)


async def draw_offer(rooms: Rooms, room: Room, conn: Connection, key: int | None, data: dict[str, Any],
                     req_id: JSON) -> None:
    """``draw_offer``: propose ending level; every other human seat must accept."""
    async with room.lock:
        seat = _draw_checks(room, key)
        if "draw" in room.agreed:
            raise ProtocolError("draw_pending", "a draw is already on offer: accept or decline it", status=409)
        for side in room.game.teams():
            if not _humans(room, side):
                raise ProtocolError("ai_declines", f"seats {side} are played by AI, which plays on", status=409)
        offer = room.agreed["draw"] = {seat}
        _draw_news(room, seat, offer, conn, req_id)


async def draw_accept(rooms: Rooms, room: Room, conn: Connection, key: int | None, data: dict[str, Any],
                      req_id: JSON) -> None:
    """``draw_accept``: agree to the draw on offer; the last to agree ends the match."""
    async with room.lock:
        seat = _draw_checks(room, key)
        offer = _draw_pending(room)
        offer.add(seat)
        _draw_news(room, seat, offer, conn, req_id)


async def draw_decline(rooms: Rooms, room: Room, conn: Connection, key: int | None, data: dict[str, Any],
                       req_id: JSON) -> None:
    """``draw_decline``: turn the offer down (or, by its maker, withdraw it); play goes on."""
    async with room.lock:
        seat = _draw_checks(room, key)
        _draw_pending(room)
        del room.agreed["draw"]
        _tell(room, room.keys, {"type": "draw_declined", "seat": seat}, conn, req_id)


def lose_on_time(room: Room, seat: int) -> None:
    """``seat``'s time ran out with ``on_timeout: "lose"`` (lock held): its side loses
    as if it had resigned (``ending: "timeout"``, rated).  In Ранг the seat becomes
    the one loser and the match ends (RG-7: one player loses, the others score 0),
    rather than play going on without it, which the rules do not provide for."""
    side = side_of(room.game, seat)
    result = {"ending": "timeout", "seats": side, "returns": resignation_returns(room.game, side), "moves": room.seq}
    text = dumps({"type": "ended", "seq": room.seq, "ending": "timeout", "seats": side})
    room.broadcast(lambda key: text)
    room.end_early(result)


def rematch_row(room: Room) -> tuple[MatchRow, dict[int, str]]:
    """The next match: the same game, config and options, every seat's player one
    seat on (fresh tokens for the human seats, returned by new seat); the same deal
    if the creator fixed the seed."""
    n = room.game.num_players
    seats: list[SeatRow] = []
    tokens: dict[int, str] = {}
    for new in range(n):
        old = room.seats[(new - 1) % n].row
        token_hash = None
        if old.kind == "human":
            tokens[new] = new_token()
            token_hash = hash_token(tokens[new])
        seats.append(SeatRow(seat=new, kind=old.kind, name=old.name, agent=old.agent, token_hash=token_hash,
                             claimed=old.claimed, user_id=old.user_id))
    options = dict(room.row.options)
    if "open_seats" in options:
        options["open_seats"] = sorted((int(s) + 1) % n for s in options["open_seats"])
    now = time.time()
    row = MatchRow(id=secrets.token_urlsafe(9), game=room.row.game, config=room.game.config_dict(),
                   seed=room.row.seed if options.get("fixed_seed") else secrets.randbits(62), options=options,
                   host_hash=hash_token(new_token()), status="active", result=None, created=now, updated=now,
                   seats=seats)
    return row, tokens


async def rematch(rooms: Rooms, room: Room, conn: Connection, key: int | None, data: dict[str, Any],
                  req_id: JSON) -> None:
    """``rematch``: after the end, ask for the next match; the last human seat to ask
    starts it and every seat learns its new seat and token."""
    async with room.lock:
        seat = _seated(room, key, "ask for a rematch")
        if not room.finished:
            raise ProtocolError("not_over", "a rematch follows the end of the match", status=409)
        if room.rematch is not None:
            raise ProtocolError("rematch_started", f"the rematch is match {room.rematch}", status=409)
        asked = room.agreed.setdefault("rematch", set())
        asked.add(seat)
        waiting = sorted(_humans(room) - asked)
        if waiting:
            _tell(room, room.keys, {"type": "rematch_wanted", "seat": seat, "agreed": sorted(asked),
                                    "waiting": waiting}, conn, req_id)
            return
        row, tokens = rematch_row(room)
        new_room = await rooms.create(row)
        room.rematch = new_room.id
        n = room.game.num_players
        for old in room.keys:
            new = None if old is None else (old + 1) % n
            msg: dict[str, JSON] = {"type": "rematch", "seq": room.seq, "match": new_room.id, "seat": new,
                                    "token": tokens.get(new) if new is not None else None}
            text = dumps(msg)
            for c in list(room.connections_of(old)):
                c.send(_with_id(text, req_id) if c is conn else text)


MESSAGES: dict[str, Handler] = {
    "resign": resign,
    "abort": abort,
    "draw_offer": draw_offer,
    "draw_accept": draw_accept,
    "draw_decline": draw_decline,
    "rematch": rematch,
}
"""The client messages of this module, by ``type`` (:func:`cardtable.server.app._dispatch`)."""
