"""Hostile clients of the match server.

:class:`Hostile` is a seeded generator of malformed and hostile requests and
websocket messages aimed at one match it knows (a :class:`Table`): bad JSON,
wrong types, huge numbers, odd Unicode (lone surrogates escaped in JSON, control
characters, very long strings), unknown kinds, other seats' actions, stale and
duplicate seqs, forged tokens and bad ``Authorization`` headers.  Each
:class:`Probe` says whether the server must refuse it (it could change the
match) or may answer it (a read, or a lenient input).

:class:`HostileClient` sends probes over HTTP and websockets (asyncio) and
checks each answer on its own: no 5xx, no traceback text, every refusal a
typed error of the documented shape with a code the server defines, every
must-refuse probe refused.  Whether a refusal left the match unchanged needs
the match's state before and after; ``tests/server/test_server_fuzz.py`` checks
that.  ``benchmarks/load.py --hostile`` runs the same clients beside its bots.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence, TypeVar, Union

import httpx
from srvkit import CLIENT_LIMITS
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

import cardtable.server

Msg = dict[str, Any]
T = TypeVar("T")

TRACEBACK_MARKS = ("Traceback", 'File "')
ERROR_KEYS = frozenset({"type", "code", "message", "rule", "reason", "seq", "id"})
"""Every key an error may carry (REST errors: all but ``seq`` and ``id``)."""
HELLO_CLOSES = frozenset({"unsupported_version", "no_such_match", "auth_failed", "spectators_disallowed",
                          "corrupt", "too_many_connections", "bad_origin"})
"""Hello refusals after which the server closes the connection."""


def server_error_codes() -> frozenset[str]:
    """Every error code the server's source defines (``ProtocolError("code", …)``
    and the plain errors of the hello phase)."""
    pattern = re.compile(r'(?:ProtocolError|LimitError|_plain_error)\(\s*"([a-z_]+)"'
                         r'|\b[45]\d\d: "([a-z_]+)"|if status >= 500 else "([a-z_]+)"')  # + HTTP status codes
    codes: set[str] = set()
    for path in Path(cardtable.server.__file__).parent.glob("*.py"):
        for found in pattern.findall(path.read_text(encoding="utf-8")):
            codes.update(c for c in found if c)
    return frozenset(codes)


# --- the target --------------------------------------------------------------------
@dataclass
class Table:
    """What a hostile client knows of the match it attacks (it holds every token)."""

    match: str
    num_players: int
    tokens: list[str]
    host: str
    action_names: list[str]
    seq: int = 0
    mover: int | None = 0
    legal: list[int] = field(default_factory=list)
    last: tuple[int, int, int] | None = None
    """(seq the latest move was made at, its seat, its action)."""
    finished: bool = False
    invites: list[str] = field(default_factory=list)
    """Invite tokens that stopped working when their seats were claimed."""

    def update(self, state: Msg, mover_legal: list[int]) -> None:
        """Take in a ``state`` message (of any key) and the mover's legal actions."""
        self.seq = state["seq"]
        self.finished = state["status"] == "finished"
        cur = state["match"]["current_player"]
        self.mover = None if self.finished else cur
        self.legal = mover_legal


@dataclass(frozen=True)
class HttpProbe:
    kind: str
    must_refuse: bool
    method: str
    path: str
    headers: tuple[tuple[str, bytes], ...] = ()
    body: bytes | None = None


@dataclass(frozen=True)
class WsProbe:
    kind: str
    must_refuse: bool
    via: str
    """``seat<n>`` or ``spectator`` (a joined connection), or ``fresh`` (before hello)."""
    frames: tuple[str | bytes, ...]


Probe = Union[HttpProbe, WsProbe]


# --- hostile values ---------------------------------------------------------------------
RAW = "\u0001RAW\u0001"
"""A placeholder string replaced by raw JSON text (numbers json.dumps cannot write)."""
RAW_NUMBERS = ("NaN", "Infinity", "-Infinity", "1e400", "-1e400", "1" + "0" * 5000, "-0.0", "0.0", "1E2",
               "12345678901234567890123456789")
ODD_TEXTS = ("", " ", "\u0000", "\u0007\u001b[31m", "\ud800", "\udfff", "a\ud83dz", "\u202eevil", "\u200b",
             "\ufeff", "e\u0301" * 50, "\U0001d54f" * 20, "ß", "İ", "☃", "\n\r\t", "null", "None", "__proto__",
             "<script>alert(1)</script>", "'; DROP TABLE moves; --", "../../etc/passwd", "%00", "{{7*7}}",
             "x" * 300, "y" * 5000)
ODD_INTS: tuple[Any, ...] = (-1, -2**31, 2**31, 2**53 + 1, 2**63, 2**64 + 1, 10**30, -10**30, 10**300)
ODD_SCALARS: tuple[Any, ...] = (None, True, False, 1.5, -0.0, 1e308, "1", "0", [], {}, [1, 2], {"a": 1})


def deep(depth: int, opener: str = "[", closer: str = "]") -> str:
    return opener * depth + closer * depth


GARBAGE_FRAMES = ("", " ", "{", "}", "nul", "null", "[]", "1", '"hello"', "true", '{"type":', "{'type': 'ping'}",
                  '{"type": "ping",}', "\ufeff{\"type\": \"ping\"}", '{"type": "ping"} {"type": "ping"}',
                  deep(3000), deep(2000, '{"a":', "}"), '[{"type": "ping"}]', '{"type": null}', '{"type": 7}',
                  '{"type": ["ping"]}', '{"type": "ping", "id": 1.5}', '{"type": "ping", "id": true}',
                  '{"type": "ping", "id": [1]}', '{"type": "ping", "id": "' + "i" * 65 + '"}',
                  '{"type": "' + "t" * 9000 + '"}', '{"type": "ping", "pad": "' + "p" * 9000 + '"}')


class Hostile:
    """A seeded generator of hostile probes against one :class:`Table`."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.makers: list[tuple[int, Callable[[Table], Probe | None]]] = [
            (4, self.http_create), (2, self.http_join), (6, self.http_move), (2, self.http_hint),
            (3, self.http_seat_ai), (2, self.http_seat_human), (4, self.http_read), (3, self.http_odd_path),
            (4, self.ws_garbage), (8, self.ws_move), (2, self.ws_duplicate), (6, self.ws_control),
            (4, self.ws_pre_hello), (8, self.after_the_end),
        ]
        self._weights = [w for w, _ in self.makers]

    def batch(self, table: Table, size: int) -> list[Probe]:
        out: list[Probe] = []
        while len(out) < size:
            maker = self.rng.choices(self.makers, self._weights)[0][1]
            probe = maker(table)
            if probe is not None:
                out.append(probe)
        return out

    # --- values --------------------------------------------------------------------
    def pick(self, options: Sequence[T]) -> T:
        return options[self.rng.randrange(len(options))]

    def odd_value(self) -> Any:
        roll = self.rng.random()
        if roll < 0.3:
            return self.pick(ODD_TEXTS)
        if roll < 0.55:
            return self.pick(ODD_INTS)
        if roll < 0.7:
            return RAW
        if roll < 0.8:
            return [[[self.pick(ODD_SCALARS)]]] * self.rng.randrange(1, 4)
        return self.pick(ODD_SCALARS)

    def forged_token(self, table: Table) -> str:
        real = self.pick(table.tokens)
        if table.invites and self.rng.random() < 0.3:
            return self.pick(table.invites)
        return self.pick((real[:-1] + ("A" if real[-1] != "A" else "B"), real.upper(), real + "x", real[:8], "",
                          "\ud800" + real, "0" * 32, table.host[::-1], "Bearer " + real, self.pick(ODD_TEXTS)))

    def forged_header_token(self, table: Table) -> bytes:
        """A wrong token that HTTP can carry (visible ASCII or Latin-1, no edge spaces)."""
        real = self.pick(table.tokens)
        if table.invites and self.rng.random() < 0.3:
            return self.pick(table.invites).encode()
        token = self.pick((real[:-1] + ("A" if real[-1] != "A" else "B"), real.upper(), real + "x", real[:8],
                           "0" * 32, table.host[::-1], "Bearer " + real, real + "\u00e9", "\u00ff" * 5, "x" * 300,
                           "null", "undefined", "%00", real + "," + real))
        return token.encode("latin-1")

    def odd_seq(self, table: Table) -> Any:
        """A seq the move must be refused for: old, future, negative, huge or mistyped."""
        options: list[Any] = [table.seq + 1, table.seq + 2, -1, -table.seq - 1, 2**63, 10**30, float(table.seq),
                              str(table.seq), None, True, [table.seq], {"seq": table.seq}, RAW]
        if table.seq > 0:
            options += [table.seq - 1, 0]
        return self.pick(options)

    def junk_move_text(self) -> str:
        base = self.pick(("play", "discard", "draw deck", "pass", "", "play ??"))
        return base + self.pick((" \u00a7", " \ud800", "\u0000", " ☃☃", " " + "Z" * 250, "\u202e", " 7 7 7 §"))

    def illegal_action(self, table: Table) -> int | None:
        illegal = [a for a in range(len(table.action_names)) if a not in set(table.legal)]
        return self.pick(illegal) if illegal else None

    def auth(self, table: Table, *, real: int | None = None) -> tuple[str, tuple[tuple[str, bytes], ...]]:
        """A label and the headers of an ``Authorization`` variant; ``real`` forces a real seat token."""
        if real is not None:
            return f"seat{real}", (("authorization", f"Bearer {table.tokens[real]}".encode()),)
        roll = self.rng.randrange(8)
        if roll == 0:
            return "none", ()
        if roll == 1:
            return "host", (("authorization", f"Bearer {table.host}".encode()),)
        if roll in (2, 3):
            seat = self.rng.randrange(table.num_players)
            return f"seat{seat}", (("authorization", f"Bearer {table.tokens[seat]}".encode()),)
        if roll == 4:
            return "forged", (("authorization", b"Bearer " + self.forged_header_token(table)),)
        header = self.pick((b"Bearer", b"Basic dXNlcjpwYXNz", b"bearer", b"Token abc", b"\xff\xfe",
                            b"Bearer \xe9\xe9", b"Bearer " + b"a" * 3000, b"Bearer a b c", b"Digest x=1"))
        return "mangled", (("authorization", header),)

    def raw_json(self, value: Any) -> str:
        """JSON text of ``value``, each :data:`RAW` string replaced by a raw number
        literal (lone surrogates are written as ``\\udXXX`` escapes)."""
        text = json.dumps(value)
        encoded = json.dumps(RAW)
        while encoded in text:
            text = text.replace(encoded, self.pick(RAW_NUMBERS), 1)
        return text

    def body(self, value: Any) -> bytes:
        return self.raw_json(value).encode()

    def bad_body(self) -> bytes:
        return self.pick((b"", b"{", b"[]", b"null", b"42", b'"x"', b"\xff\xfe\x00", b"{'a': 1}",
                          deep(6000).encode(), deep(4000, '{"a":', "}").encode(),
                          b'{"seq": 1,}', b"x" * 17000, b"\x00" * 10))

    # --- HTTP probes --------------------------------------------------------------------
    def http_create(self, table: Table) -> Probe:
        """``POST /api/matches`` with one corruption of a valid body (refused), or a
        lenient oddity (an unknown field, an odd name: either answer will do)."""
        body: Msg = {"game": "lost-cities", "config": {"rounds": 1}, "seats": [{"kind": "human"}, {"kind": "human"}],
                     "seed": 5}
        corruptions: list[tuple[str, Callable[[], None]]] = [
            ("game", lambda: body.update(game=self.pick(("chess", "", None, 7, ["lost-cities"], "LOST-CITIES",
                                                         "lost-cities\u0000", "\ud800")))),
            ("config", lambda: body.update(config=self.pick(([1], "rounds=1", 7, {"wings": 2},
                                                             {"rounds": [1]}, {"rounds": {"a": 1}},
                                                             {"colors": self.pick((-1, 0, 99, 10**30))},
                                                             {"rounds": RAW}, {"colors": None})))),
            ("seats", lambda: body.update(seats=self.pick(({"kind": "human"}, "human", [], [{"kind": "human"}] * 3,
                                                           [{"kind": "human"}, 7], [{"kind": "robot"}] * 2,
                                                           [{"kind": None}] * 2, [[]] * 2)))),
            ("agent", lambda: body.update(seats=[{"kind": "human"}, {"kind": "ai", "agent": self.pick(
                ("deep-blue", 7, ["heuristic"], "\ud800", "heuristic:style=nope"))}])),
            ("open", lambda: body.update(seats=[{"kind": "human", "open": self.pick(("yes", 1, None, [True]))},
                                                {"kind": "ai", "open": True}][: self.rng.randrange(1, 3)] * 2)),
            ("name", lambda: body.update(seats=[{"kind": "human", "name": self.pick((7, ["Ann"], {"a": 1},
                                                                                     True))}] * 2)),
            ("seed", lambda: body.update(seed=self.pick((-1, 2**62, 2**64, 10**30, 1.5, True, "5", [5], RAW)))),
            ("flag", lambda: body.update({self.pick(("hints", "spectators", "listed")):
                                          self.pick(("yes", 1, 0, None, [True], {}))})),
        ]
        roll = self.rng.random()
        if roll < 0.15:
            return HttpProbe("http:create:bad_body", True, "POST", "/api/matches", (), self.bad_body())
        if roll < 0.3:
            body[self.pick(("extra", "__proto__", "constructor", "\ud800", "seats ", "Game"))] = self.odd_value()
            if self.rng.random() < 0.5:
                body["seats"] = [{"kind": "human", "name": self.pick(ODD_TEXTS)}, {"kind": "human"}]
            return HttpProbe("http:create:lenient", False, "POST", "/api/matches", (), self.body(body))
        what, corrupt = self.pick(corruptions)
        corrupt()
        return HttpProbe(f"http:create:{what}", True, "POST", "/api/matches", (), self.body(body))

    def http_join(self, table: Table) -> Probe:
        """``POST …/join`` of a match with no open seat: always refused."""
        roll = self.rng.random()
        if roll < 0.2:
            raw = self.bad_body()
        else:
            body: Msg = {}
            if self.rng.random() < 0.7:
                body["seat"] = self.pick([*range(table.num_players), *ODD_INTS, *ODD_SCALARS, RAW])
            if self.rng.random() < 0.5:
                body["name"] = self.odd_value()
            raw = self.body(body)
        label, headers = self.auth(table)
        return HttpProbe("http:join", True, "POST", f"/api/matches/{table.match}/join", headers, raw)

    def http_move(self, table: Table) -> Probe | None:
        """``POST …/moves`` that must be refused: the mover's token only with a
        stale seq, an illegal action or a bad body; any other token with anything."""
        label, headers = self.auth(table)
        mover = table.mover is not None and label == f"seat{table.mover}"
        roll = self.rng.random()
        if roll < 0.15:
            return HttpProbe(f"http:move:{label}:bad_body", True, "POST", f"/api/matches/{table.match}/moves",
                             headers, self.bad_body())
        legal = self.pick(table.legal) if table.legal else 0
        if roll < 0.45 and not mover:
            body: Msg = {"seq": table.seq, "action": legal}
            kind = "other_seat"
        elif roll < 0.7:
            body = {"seq": self.odd_seq(table), self.pick(("action", "move")): legal}
            if "move" in body:
                body["move"] = table.action_names[legal]
            kind = "stale"
        else:
            action = self.illegal_action(table)
            body = {"seq": table.seq}
            if action is not None and self.rng.random() < 0.5:
                body[self.pick(("action", "move"))] = action
                if "move" in body:
                    body["move"] = table.action_names[action]
            else:
                body[self.pick(("action", "move"))] = self.pick((self.junk_move_text(), *ODD_INTS, *ODD_SCALARS,
                                                                  len(table.action_names), RAW))
            kind = "illegal"
        if self.rng.random() < 0.2:
            body[self.pick(("extra", "seat", "player", "token"))] = self.odd_value()
        return HttpProbe(f"http:move:{label}:{kind}", True, "POST", f"/api/matches/{table.match}/moves", headers,
                         self.body(body))

    def http_hint(self, table: Table) -> Probe:
        label, headers = self.auth(table)
        if self.rng.random() < 0.3:
            agent: Any = self.pick(("heuristic", "random", None))
        else:
            agent = self.odd_value()
        raw = self.body({} if agent is None else {"agent": agent}) if self.rng.random() < 0.85 else self.bad_body()
        may_answer = (table.mover is not None and label == f"seat{table.mover}"
                      and (agent in ("heuristic", "random", None, "") or not raw.strip()))  # no body: default
        return HttpProbe(f"http:hint:{label}", not may_answer, "POST", f"/api/matches/{table.match}/hint",
                         headers, raw)

    def odd_seat_path(self, table: Table) -> str:
        # (no spelling FastAPI might read as a seat number, such as "1.0" or "-0")
        return str(self.pick([*range(table.num_players), table.num_players, -1, 2**63, 10**30, "x", "1.5", "0x1",
                              "%00", "%F0%9F%92%A9", "%ED%A0%80", "1e3", "", "[0]", "one"]))

    def http_seat_ai(self, table: Table) -> Probe | None:
        """``POST …/seats/{n}/ai``: never the host (or a seat itself) handing a live
        human seat to a known agent before the end, which would be accepted."""
        label, headers = self.auth(table)
        seat = self.odd_seat_path(table)
        agent: Any = self.pick(("heuristic", None, "random", *ODD_TEXTS[:6], 7, [1], RAW))
        valid_agent = agent in ("heuristic", None, "random", "")  # "" means the default agent
        valid_seat = seat in [str(s) for s in range(table.num_players)]
        allowed = label == "host" or label == f"seat{seat}"
        if allowed and valid_seat and valid_agent and not table.finished:
            return None
        raw = self.body({} if agent is None else {"agent": agent}) if self.rng.random() < 0.9 else self.bad_body()
        return HttpProbe(f"http:seat_ai:{label}", True, "POST", f"/api/matches/{table.match}/seats/{seat}/ai",
                         headers, raw)

    def http_seat_human(self, table: Table) -> Probe:
        label, headers = self.auth(table)
        seat = self.odd_seat_path(table)
        return HttpProbe(f"http:seat_human:{label}", True, "POST",
                         f"/api/matches/{table.match}/seats/{seat}/human", headers,
                         self.pick((b"", b"{}", self.bad_body())))

    def http_read(self, table: Table) -> Probe:
        """Reads (state, replay, record, info): refused for bad tokens, answered otherwise."""
        label, headers = self.auth(table)
        what = self.pick(("state", "replay", "record", ""))
        path = f"/api/matches/{table.match}" + (f"/{what}" if what else "")
        token_ok = label in ("none", *(f"seat{s}" for s in range(table.num_players)))
        if what == "record":
            token_ok = table.finished and label not in ("none", "forged", "mangled")
        elif what == "":
            token_ok = True
        return HttpProbe(f"http:read:{what or 'info'}:{label}", not token_ok, "GET", path, headers)

    def http_odd_path(self, table: Table) -> Probe:
        """Unknown match ids and routes, wrong methods, odd queries."""
        mid = self.pick(("x", "a" * 41, "a" * 2000, "%00", "..%2F..%2Fetc", "%ED%A0%80", "%F0%9F%92%A9",
                         table.match.upper() if table.match.upper() != table.match else table.match + "x",
                         table.match + "%20", " "))
        roll = self.rng.randrange(6)
        if roll == 0:
            return HttpProbe("http:path:no_such_match", True, "GET", f"/api/matches/{mid}/state")
        if roll == 1:
            return HttpProbe("http:path:no_such_match", True, "POST", f"/api/matches/{mid}/moves", (),
                             self.body({"seq": 0, "action": 0}))
        if roll == 2:
            path = self.pick(("/api/nope", "/api/matches/x/y/z", "/api/matches/%s/movez" % table.match, "/ws/x",
                              "/api//matches", "/api/matches/%s/seats/0" % table.match))
            return HttpProbe("http:path:unknown", True, "GET", path)
        if roll == 3:
            method, path = self.pick((("DELETE", f"/api/matches/{table.match}"), ("PUT", "/api/matches"),
                                      ("GET", f"/api/matches/{table.match}/moves"), ("PATCH", "/api/health"),
                                      ("GET", f"/api/matches/{table.match}/join")))
            return HttpProbe("http:path:method", True, method, path)
        if roll == 4:
            status = self.pick(("bogus", "", "ACTIVE", "%00", "finished%00", "%ED%A0%80"))
            return HttpProbe("http:list:bad_status", True, "GET", f"/api/matches?status={status}")
        query = self.pick(("limit=abc", "limit=-5", "limit=" + "9" * 40, "limit=1e3", "status=active&limit=0",
                           "limit=%00", "limit=2&limit=3"))
        return HttpProbe("http:list:odd_limit", False, "GET", f"/api/matches?{query}")

    # --- websocket probes ------------------------------------------------------------------
    def via(self, table: Table) -> str:
        return self.pick([*(f"seat{s}" for s in range(table.num_players)), "spectator"])

    def frame(self, message: Msg) -> str:
        if self.rng.random() < 0.3:
            extra = self.pick(("extra", "id", "player", "v", "token", "seat"))
            if extra in message:
                extra = "extra"
            message[extra] = self.odd_value()
            if "id" in message and not _short_id(message["id"]):
                message["id"] = self.pick(("x", 7, "\u2603" * 10, "i" * 64))
        return self.raw_json(message)

    def ws_garbage(self, table: Table) -> Probe:
        """Frames that are not a well-formed message at all, or of an unknown type."""
        roll = self.rng.random()
        if roll < 0.55:
            frame: str | bytes = self.pick(GARBAGE_FRAMES)
        elif roll < 0.7:
            frame = self.pick((b"", b"\x00\x01", b'{"type": "ping"}', b"\xff" * 100))
        else:
            frame = self.raw_json({"type": self.pick(("MOVE", "Move", "move ", "hello2", "", "\ud800", "admin",
                                                      "seed", "state", "update", "ack", "error", "welcome",
                                                      "__proto__", "x" * 200)), "seq": table.seq})
        return WsProbe("ws:garbage", True, self.via(table), (frame,))

    def ws_move(self, table: Table) -> Probe:
        """A move that must be refused: from a spectator or a seat not to move, or
        from the mover with a stale seq, an illegal action or unreadable text."""
        via = self.via(table)
        mover = table.mover is not None and via == f"seat{table.mover}"
        legal = self.pick(table.legal) if table.legal else 0
        roll = self.rng.random()
        if roll < 0.35 and not mover:
            msg: Msg = {"type": "move", "seq": table.seq, "action": legal}
            kind = "other_seat" if via != "spectator" else "spectator"
        elif roll < 0.65:
            msg = {"type": "move", "seq": self.odd_seq(table), "action": legal}
            kind = "stale"
        else:
            action = self.illegal_action(table)
            msg = {"type": "move", "seq": table.seq}
            if action is not None and self.rng.random() < 0.5:
                msg["action"] = action
            elif self.rng.random() < 0.5:
                msg["move"] = self.pick((self.junk_move_text(), *ODD_SCALARS, *ODD_INTS))
            else:
                msg["action"] = self.pick((*ODD_INTS, *ODD_SCALARS, len(table.action_names), RAW, "1"))
            kind = "illegal"
        if "action" in msg and self.rng.random() < 0.3 and isinstance(msg["action"], int) \
                and 0 <= msg["action"] < len(table.action_names):
            msg["move"] = table.action_names[msg.pop("action")]
        return WsProbe(f"ws:move:{kind}", True, via, (self.frame(msg),))

    def ws_duplicate(self, table: Table) -> Probe | None:
        """The latest move resent by its own seat at its seq (``duplicate``), or by another seat."""
        if table.last is None:
            return None
        seq, seat, action = table.last
        via = f"seat{seat}" if self.rng.random() < 0.7 else self.via(table)
        msg: Msg = {"type": "move", "seq": seq}
        if self.rng.random() < 0.5:
            msg["action"] = action
        else:
            msg["move"] = self.pick((table.action_names[action], table.action_names[action].lower(),
                                     "  " + table.action_names[action].upper() + "  "))
        return WsProbe("ws:move:duplicate", True, via, (self.frame(msg),))

    def ws_control(self, table: Table) -> Probe | None:
        """hint, leave, takeover, reclaim, a second hello; sync/ping/replay (answered)."""
        via = self.via(table)
        seat = int(via[4:]) if via.startswith("seat") else None
        what = self.pick(("hint", "hint", "leave", "takeover", "takeover", "reclaim", "hello", "sync", "ping",
                          "replay"))
        msg: Msg = {"type": what}
        must = True
        if what == "hint":
            if self.rng.random() < 0.5:
                msg["agent"] = self.pick(("heuristic", "random", *ODD_TEXTS[:8], 7, [1]))
            must = not (seat is not None and seat == table.mover and msg.get("agent") in (None, "", "heuristic",
                                                                                          "random"))
        elif what == "leave":
            if seat is not None and not table.finished:
                msg["agent"] = self.pick(("deep-blue", 7, [1], {"a": 1}, *ODD_TEXTS[1:8], True))
        elif what == "takeover":
            target = self.pick([*range(table.num_players), -1, table.num_players, *ODD_INTS, *ODD_SCALARS])
            if target == seat and isinstance(target, int) and not table.finished:
                return None
            msg["seat"] = target
            if self.rng.random() < 0.3:
                msg["agent"] = self.pick(("heuristic", "nope", 7))
        elif what == "hello":
            msg.update(v=1, match=table.match, token=self.pick(table.tokens))
        else:
            must = False
        return WsProbe(f"ws:{what}:{'seat' if seat is not None else 'spectator'}", must, via, (self.frame(msg),))

    def after_the_end(self, table: Table) -> Probe | None:
        """Seat changes that a finished match must refuse: a seat's ``leave``, a
        ``takeover``, the host's ``seats/{n}/ai`` (only once the match is over)."""
        if not table.finished:
            return None
        seat = self.rng.randrange(table.num_players)
        agent = self.pick((None, "heuristic", "random"))
        roll = self.rng.randrange(3)
        if roll == 0:
            msg: Msg = {"type": "leave"} if agent is None else {"type": "leave", "agent": agent}
            return WsProbe("ws:leave:finished", True, f"seat{seat}", (self.raw_json(msg),))
        if roll == 1:
            other = (seat + 1) % table.num_players
            return WsProbe("ws:takeover:finished", True, f"seat{seat}",
                           (self.raw_json({"type": "takeover", "seat": other}),))
        token = self.pick((table.host, table.tokens[seat]))
        return HttpProbe("http:seat_ai:finished", True, "POST", f"/api/matches/{table.match}/seats/{seat}/ai",
                         (("authorization", f"Bearer {token}".encode()),),
                         self.body({} if agent is None else {"agent": agent}))

    def ws_pre_hello(self, table: Table) -> Probe:
        """A fresh connection whose first message is not a good hello."""
        good: Msg = {"type": "hello", "v": 1, "match": table.match, "token": self.pick([*table.tokens, None])}
        roll = self.rng.randrange(7)
        if roll == 0:
            frames: tuple[str | bytes, ...] = (*GARBAGE_FRAMES[:12], b"\x00", '{"type": "sync"}',
                                               '{"type": "move", "seq": 0, "action": 0}', '{"type": "HELLO", "v": 1}')
            return WsProbe("ws:pre:not_hello", True, "fresh", (self.pick(frames),))
        if roll == 1:
            good["v"] = self.pick((0, 2, "1", 1.0, None, True, [1], 10**30, RAW))
            return WsProbe("ws:pre:version", good["v"] != 1, "fresh", (self.raw_json(good),))
        if roll == 2:
            good["match"] = self.pick(("x", "", table.match + "x", "a" * 41, "\ud800", "\u0000", "a" * 5000))
            return WsProbe("ws:pre:no_such_match", True, "fresh", (self.raw_json(good),))
        if roll == 3:
            good["match"] = self.pick((None, 7, [table.match], {"id": table.match}, RAW))
            return WsProbe("ws:pre:bad_match", True, "fresh", (self.raw_json(good),))
        if roll == 4:
            good["token"] = self.forged_token(table)
            return WsProbe("ws:pre:forged_token", True, "fresh", (self.raw_json(good),))
        if roll == 5:
            good["token"] = self.pick((7, [table.tokens[0]], {"t": 1}, True, "t" * 201))
            return WsProbe("ws:pre:bad_token", True, "fresh", (self.raw_json(good),))
        good["name"] = self.odd_value()
        return WsProbe("ws:pre:odd_name", False, "fresh", (self.raw_json(good),))


def _short_id(value: Any) -> bool:
    return isinstance(value, (int, str)) and not isinstance(value, bool) and len(str(value)) <= 64


# --- checking answers ----------------------------------------------------------------------
def error_problems(msg: Any, codes: frozenset[str], *, ws: bool) -> list[str]:
    """What is wrong with ``msg`` as an error of the documented shape (nothing: ``[]``)."""
    if not isinstance(msg, dict) or msg.get("type") != "error":
        return [f"refusal is not a typed error: {str(msg)[:120]!r}"]
    problems = []
    extra = set(msg) - ERROR_KEYS - ({"seq", "id"} if ws else set())
    if extra or (not ws and {"seq", "id"} & set(msg)):
        problems.append(f"error has unexpected keys {sorted(set(msg) - ERROR_KEYS)}")
    code = msg.get("code")
    if not isinstance(code, str) or code not in codes:
        problems.append(f"unknown error code {code!r}")
    elif code == "internal":
        problems.append("internal error (a server bug)")
    if not isinstance(msg.get("message"), str) or not msg["message"]:
        problems.append(f"error {code!r} has no message")
    if "rule" in msg and not isinstance(msg["rule"], str):
        problems.append(f"error {code!r} has a non-string rule")
    reason = msg.get("reason")
    if "reason" in msg and not (code == "illegal" and isinstance(reason, dict) and isinstance(reason.get("key"), str)
                                and isinstance(reason.get("params"), dict)):
        problems.append(f"error {code!r} has a malformed reason {reason!r}")
    if ws and not (msg.get("seq") is None or isinstance(msg.get("seq"), int)):
        problems.append(f"error {code!r} has a bad seq")
    return problems


def traceback_problems(text: str) -> list[str]:
    return [f"traceback text sent to a client: {text[:160]!r}"] if any(m in text for m in TRACEBACK_MARKS) else []


@dataclass
class Outcome:
    """The answer to one probe: error codes received and what was wrong."""

    probe: Probe
    codes: list[str] = field(default_factory=list)
    status: int | None = None
    problems: list[str] = field(default_factory=list)


@dataclass
class Tally:
    """Counts over many probes (picklable, so that processes can send theirs)."""

    sent: Counter[str] = field(default_factory=Counter)
    refused: Counter[str] = field(default_factory=Counter)
    answered: Counter[str] = field(default_factory=Counter)
    server_errors: int = 0
    problems: Counter[str] = field(default_factory=Counter)
    examples: dict[str, str] = field(default_factory=dict)
    """One probe (kind and first frame or body) per problem."""

    def add(self, outcome: Outcome) -> None:
        probe = outcome.probe
        self.sent[":".join(probe.kind.split(":")[:2])] += 1
        for code in outcome.codes:
            self.refused[code] += 1
        if not outcome.codes:
            self.answered[":".join(probe.kind.split(":")[:2])] += 1
        if outcome.status is not None and outcome.status >= 500:
            self.server_errors += 1
        for problem in outcome.problems:
            key = f"{':'.join(probe.kind.split(':')[:2])}: {problem[:110]}"
            self.problems[key] += 1
            self.examples.setdefault(key, describe(probe))

    def merge(self, other: Tally) -> None:
        self.sent.update(other.sent)
        self.refused.update(other.refused)
        self.answered.update(other.answered)
        self.server_errors += other.server_errors
        self.problems.update(other.problems)
        for k, v in other.examples.items():
            self.examples.setdefault(k, v)

    def summary(self) -> str:
        lines = [f"hostile probes sent: {sum(self.sent.values())}  {dict(sorted(self.sent.items()))}",
                 f"refused, by code: {sum(self.refused.values())}  {dict(self.refused.most_common())}",
                 f"answered (reads and lenient inputs): {dict(sorted(self.answered.items()))}",
                 f"5xx answers: {self.server_errors}",
                 f"problems: {sum(self.problems.values())}"]
        for key, count in self.problems.most_common(60):
            lines.append(f"  {count:5d} x {key}\n          e.g. {self.examples[key]}")
        return "\n".join(lines)


def describe(probe: Probe) -> str:
    if isinstance(probe, HttpProbe):
        head = dict(probe.headers).get("authorization", b"")[:40]
        return f"{probe.method} {probe.path[:80]} auth={head!r} body={(probe.body or b'')[:100]!r}"
    return f"{probe.via} {[f[:100] for f in probe.frames]!r}"


# --- sending probes ---------------------------------------------------------------------------
class _Socket:
    """One websocket whose reader task queues every message it receives."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.queue: asyncio.Queue[Msg | None] = asyncio.Queue()
        self.problems: list[str] = []
        self.reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                raw = text if isinstance(text, str) else text.decode("utf-8", "replace")
                self.problems += traceback_problems(raw)
                try:
                    msg = json.loads(raw)
                except ValueError:
                    self.problems.append(f"the server sent a frame that is not JSON: {raw[:80]!r}")
                    continue
                self.queue.put_nowait(msg if isinstance(msg, dict) else {"type": None, "raw": msg})
        except ConnectionClosed:
            pass
        finally:
            self.queue.put_nowait(None)

    @property
    def closed(self) -> bool:
        return self.reader.done()

    async def close(self) -> None:
        await self.ws.close()
        await asyncio.wait_for(self.reader, 10)


class HostileClient:
    """Sends :class:`Probe` s at one match over HTTP and websockets and checks each
    answer (see the module doc); every outcome is added to ``tally``."""

    def __init__(self, base: str, table: Table, codes: frozenset[str], tally: Tally, *,
                 timeout: float = 30.0) -> None:
        self.base = base.rstrip("/")
        self.ws_url = self.base.replace("http://", "ws://") + "/ws"
        self.table = table
        self.codes = codes
        self.tally = tally
        self.timeout = timeout
        self.http = httpx.AsyncClient(base_url=self.base, timeout=timeout,
                                      limits=httpx.Limits(max_keepalive_connections=0))
        """Hostile requests, each on its own connection (a refused body may end one)."""
        self.honest = httpx.AsyncClient(limits=CLIENT_LIMITS, base_url=self.base, timeout=timeout)
        """The legal moves and the state snapshots."""
        self.sockets: dict[str, _Socket] = {}
        self.barriers = 0

    async def aclose(self) -> None:
        for sock in self.sockets.values():
            await sock.close()
        await self.http.aclose()
        await self.honest.aclose()

    async def run(self, probe: Probe) -> Outcome:
        outcome = await (self._http(probe) if isinstance(probe, HttpProbe) else self._ws(probe))
        self.tally.add(outcome)
        return outcome

    # --- HTTP ------------------------------------------------------------------------------
    async def _http(self, probe: HttpProbe) -> Outcome:
        outcome = Outcome(probe)
        try:
            resp = await self.http.request(probe.method, probe.path,
                                           headers=[(k.encode(), v) for k, v in probe.headers],
                                           content=probe.body)
        except httpx.HTTPError as err:
            outcome.problems.append(f"the request failed: {type(err).__name__}")
            return outcome
        outcome.status = resp.status_code
        text = resp.content.decode("utf-8", "replace")
        outcome.problems += traceback_problems(text)
        if resp.status_code >= 500:
            outcome.problems.append(f"HTTP {resp.status_code}")
        if resp.status_code >= 400:
            try:
                body = resp.json()
            except ValueError:
                body = text[:120]
            outcome.problems += error_problems(body, self.codes, ws=False)
            code = body.get("code") if isinstance(body, dict) else None
            outcome.codes.append(code if isinstance(code, str) else f"HTTP {resp.status_code}")
        elif probe.must_refuse:
            outcome.problems.append(f"accepted (HTTP {resp.status_code})")
        return outcome

    # --- websockets ------------------------------------------------------------------------
    async def _connect(self) -> _Socket:
        ws = await connect(self.ws_url, open_timeout=self.timeout, max_size=2**24, ping_interval=None)
        return _Socket(ws)

    async def joined(self, via: str) -> _Socket:
        """The joined connection ``via`` (``seat<n>`` or ``spectator``), reconnected if it was closed."""
        sock = self.sockets.get(via)
        if sock is not None and not sock.closed:
            return sock
        sock = await self._connect()
        token = None if via == "spectator" else self.table.tokens[int(via[4:])]
        await sock.ws.send(json.dumps({"type": "hello", "v": 1, "match": self.table.match, "token": token,
                                       "name": f"fuzz {via}"}))
        while True:
            msg = await asyncio.wait_for(sock.queue.get(), self.timeout)
            if msg is None or msg.get("type") == "error":
                raise ConnectionError(f"{via} could not join: {msg}")
            if msg.get("type") == "welcome" and isinstance(msg.get("token"), str) and token is not None:
                seat = int(via[4:])  # the seat was claimed: its invite token is dead, this one is ours
                self.table.invites.append(self.table.tokens[seat])
                self.table.tokens[seat] = msg["token"]
            if msg.get("type") == "state":
                break
        self.sockets[via] = sock
        return sock

    async def _ws(self, probe: WsProbe) -> Outcome:
        outcome = Outcome(probe)
        try:
            sock = await (self._connect() if probe.via == "fresh" else self.joined(probe.via))
        except (OSError, ConnectionError, InvalidStatus, asyncio.TimeoutError) as err:
            outcome.problems.append(f"could not connect: {type(err).__name__} {str(err)[:80]}")
            return outcome
        barrier = f"barrier-{self.barriers}"
        self.barriers += 1
        try:
            for frame in probe.frames:
                await sock.ws.send(frame)
            await sock.ws.send(json.dumps({"type": "ping", "id": barrier}))
        except ConnectionClosed:
            pass
        answers, closed = await self._answers(sock, barrier, len(probe.frames) + 1, outcome)
        self._judge(outcome, answers, closed)
        outcome.problems += sock.problems
        sock.problems.clear()
        if probe.via == "fresh":
            await sock.close()
        return outcome

    async def _answers(self, sock: _Socket, barrier: str, frames: int, outcome: Outcome) -> tuple[list[Msg], bool]:
        """The direct answers up to the barrier ping's (broadcasts skipped); and
        whether the connection closed.  A rate-limited barrier ends the wait once
        every frame sent has had its answer."""
        answers: list[Msg] = []
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout
        while True:
            try:
                msg = await asyncio.wait_for(sock.queue.get(), max(0.0, deadline - loop.time()))
            except asyncio.TimeoutError:
                outcome.problems.append(f"no answer within {self.timeout:.0f} s")
                await sock.ws.close()  # a fresh connection for the next probe
                return answers, False
            if msg is None:
                sock.queue.put_nowait(None)
                return answers, True
            if msg.get("type") in ("seats", "update"):
                continue
            if msg.get("id") == barrier:
                return answers, False
            answers.append(msg)
            if len(answers) >= frames and all(m.get("code") == "rate_limited" for m in answers[-1:]):
                return answers, False

    def _judge(self, outcome: Outcome, answers: list[Msg], closed: bool) -> None:
        probe = outcome.probe
        errors = [m for m in answers if m.get("type") == "error"]
        for err in errors:
            outcome.problems += error_problems(err, self.codes, ws=True)
            outcome.codes.append(str(err.get("code")))
        others = [str(m.get("type")) for m in answers if m.get("type") != "error"]
        if probe.must_refuse and not errors:
            outcome.problems.append(f"not refused (answers: {others})")
        if "ack" in others and probe.must_refuse:
            outcome.problems.append("a move that must be refused was accepted")
        if closed:
            hello_close = isinstance(probe, WsProbe) and probe.via == "fresh" and errors and errors[-1].get("code") in HELLO_CLOSES
            if not hello_close:
                outcome.problems.append("the server closed the connection without a closing error")

    # --- the match ---------------------------------------------------------------------------
    async def state(self, seat: int | None) -> Msg:
        """``GET …/state`` as ``seat`` (``None``: spectator)."""
        headers = {} if seat is None else {"Authorization": f"Bearer {self.table.tokens[seat]}"}
        resp = await self.honest.get(f"/api/matches/{self.table.match}/state", headers=headers)
        resp.raise_for_status()
        msg: Msg = resp.json()
        return msg

    async def refresh(self) -> None:
        """Bring the table up to date (seq, mover, the mover's legal actions)."""
        msg = await self.state(0)
        cur = msg["match"]["current_player"]
        if cur is not None and cur != 0 and msg["status"] != "finished":
            msg = await self.state(cur)
        self.table.update(msg, [m["action"] for m in msg["legal"]])

    async def advance(self, rng: random.Random) -> bool:
        """One random legal move by the seat to move (over REST); False once the match is over."""
        table = self.table
        if table.finished or table.mover is None:
            return False
        action = rng.choice(table.legal)
        seat = table.mover
        resp = await self.honest.post(f"/api/matches/{table.match}/moves", json={"seq": table.seq, "action": action},
                                    headers={"Authorization": f"Bearer {table.tokens[seat]}"})
        if resp.status_code != 200:
            raise RuntimeError(f"a legal move was refused: {resp.status_code} {resp.text[:200]}")
        table.last = (table.seq, seat, action)
        await self.refresh()
        return not table.finished


async def new_table(http: httpx.AsyncClient, game: str, config: Msg, seed: int) -> Table:
    """Create a match of human seats (fixed seed, hints on) and describe it."""
    from cardtable.server.room import shared_game

    resp = await http.post("/api/matches", json={"game": game, "config": config, "seed": seed, "hints": True})
    resp.raise_for_status()
    created = resp.json()
    rules = shared_game(game, created["info"]["config"])
    names = [rules.action_name(a) for a in range(rules.num_distinct_actions)]
    return Table(match=created["match"], num_players=created["info"]["num_players"],
                 tokens=[s["token"] for s in created["seats"]], host=created["host_token"], action_names=names)


GAMES: tuple[tuple[str, Msg], ...] = (("lost-cities", {"rounds": 1}), ("lost-ranks", {"players": 2}),
                                      ("rank", {"players": 3}))
"""The matches :func:`hammer` attacks, in turn."""


async def hammer(base: str, seed: int, seconds: float, tally: Tally, *, batch: int = 12,
                 max_probes: int = 50000, timeout: float = 30.0) -> None:
    """One hostile client for ``seconds`` (or ``max_probes``): match after match of
    :data:`GAMES`, a batch of probes between every two legal moves.  Failures of
    the client itself (a match that cannot be joined, a legal move refused) are
    counted as problems ``client: …`` and the next match is started."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    gen = Hostile(seed)
    rng = random.Random(seed)
    codes = server_error_codes()
    sent = 0
    for round_no in range(10**9):
        if loop.time() >= deadline or sent >= max_probes:
            return
        game, config = GAMES[round_no % len(GAMES)]
        try:
            async with httpx.AsyncClient(limits=CLIENT_LIMITS, base_url=base, timeout=30) as http:
                table = await new_table(http, game, config, rng.randrange(2**31))
        except httpx.HTTPError as err:
            tally.problems[f"client: creating a match failed: {type(err).__name__} {str(err)[:80]}"] += 1
            continue
        client = HostileClient(base, table, codes, tally, timeout=timeout)
        try:
            for via in [*(f"seat{s}" for s in range(table.num_players)), "spectator"]:
                await client.joined(via)
            await client.refresh()
            while loop.time() < deadline and sent < max_probes:
                for probe in gen.batch(table, batch):
                    if loop.time() >= deadline:
                        break
                    await client.run(probe)
                    sent += 1
                if not await client.advance(rng):
                    break
        except (ConnectionError, RuntimeError, OSError, httpx.HTTPError, asyncio.TimeoutError) as err:
            tally.problems[f"client: {type(err).__name__}: {str(err)[:100]}"] += 1
        finally:
            await client.aclose()
