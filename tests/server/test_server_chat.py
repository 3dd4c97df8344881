"""Per-match chat over the websocket: lines and quick phrases, who may talk in
each ``chat`` mode, every refusal of a bad ``chat``/``mute``/``unmute``, the rate
limit (on a driven clock), mutes, and the history sent in ``state``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from srvkit import ServerThread, WsClient, db_url_for, generous_settings, join

from cardtable.server.chat import HISTORY
from cardtable.server.limits import ManualClock

Msg = dict[str, Any]


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    url = db_url_for("sqlite", tmp_path_factory.mktemp("chat"))
    with ServerThread(url, settings=generous_settings(rate_per_second=5000.0, rate_burst=1e6,
                                                      chat_per_minute=1e6, chat_burst=1e6)) as server:
        yield server


def table(srv: ServerThread, chat: str | None = None) -> tuple[str, WsClient, WsClient]:
    extra = {} if chat is None else {"chat": chat}
    created = srv.create("lost-cities", {"rounds": 1}, **extra)
    mid = created["match"]
    a, b = (join(srv, mid, s["token"], name=n) for s, n in zip(created["seats"], ("Ann", "Bob")))
    return mid, a, b


def say(client: WsClient, **fields: Any) -> Msg:
    """Send a chat message with an id; its echo or its error."""
    return client.request({"type": "chat", "id": "c", **fields}, lambda m: m.get("id") == "c")


def test_a_line_reaches_both_seats_as_sent(srv: ServerThread) -> None:
    _, a, b = table(srv)
    with a, b:
        echo = say(a, text="  <img src=x onerror=alert(1)>   hi ")
        assert echo["type"] == "chat", echo
        assert echo["text"] == "<img src=x onerror=alert(1)> hi" and echo["from"] == 0 and echo["name"] == "Ann"
        got = b.wait("chat")
        assert {k: got[k] for k in ("seq", "from", "name", "text")} == {
            "seq": echo["seq"], "from": 0, "name": "Ann", "text": echo["text"]}
        assert "id" not in got
        phrase = say(b, phrase="gg")
        assert phrase["phrase"] == "gg" and "text" not in phrase and phrase["seq"] == echo["seq"] + 1
        assert a.wait("chat")["phrase"] == "gg"


@pytest.mark.parametrize("fields, code", [
    ({}, "bad_message"),
    ({"text": "hi", "phrase": "gg"}, "bad_message"),
    ({"text": 7}, "bad_message"),
    ({"text": ["hi"]}, "bad_message"),
    ({"text": True}, "bad_message"),
    ({"text": "   "}, "bad_message"),
    ({"text": "x" * 301}, "bad_message"),
    ({"text": "bell\x07"}, "bad_message"),
    ({"text": "nul\x00"}, "bad_message"),
    ({"text": "rtl\u202e"}, "bad_message"),
    ({"text": "unassigned\U000e0fff"}, "bad_message"),
    ({"phrase": "insult"}, "bad_message"),
    ({"phrase": 3}, "bad_message"),
    ({"phrase": ""}, "bad_message"),
])
def test_bad_chat_messages_are_refused_and_sent_to_nobody(srv: ServerThread, fields: Msg, code: str) -> None:
    _, a, b = table(srv)
    with a, b:
        err = say(a, **fields)
        assert err["type"] == "error" and err["code"] == code, err
        assert say(a, text="after")["type"] == "chat"  # the connection stays open
        got = b.wait("chat")
        assert got["text"] == "after", got  # the refused line never reached b


def test_the_longest_line_is_accepted(srv: ServerThread) -> None:
    _, a, b = table(srv)
    with a, b:
        assert say(a, text="я" * 300)["text"] == "я" * 300


def test_a_lone_surrogate_is_refused_as_bad_json(srv: ServerThread) -> None:
    _, a, b = table(srv)
    with a, b:
        a.send('{"type": "chat", "id": "c", "text": "half \\ud800 a pair"}')
        err = a.wait(lambda m: m.get("id") == "c" or m.get("type") == "error")
        assert err["type"] == "error" and err["code"] == "bad_json", err


def test_spectators_may_not_talk_or_read_when_chat_is_for_seats(srv: ServerThread) -> None:
    mid, a, b = table(srv)
    with a, b, join(srv, mid) as watcher:
        assert say(watcher, text="hello")["code"] == "not_a_player"
        say(a, text="players only")
        assert b.wait("chat")["text"] == "players only"
        assert say(a, text="again")["type"] == "chat"
        watcher.request({"type": "sync"}, "state")
        assert not [m for m in watcher.drain() if m.get("type") == "chat"]
        state = watcher.request({"type": "sync"}, "state")
        assert state["chat"] == []


def test_spectators_talk_and_read_when_chat_is_for_all(srv: ServerThread) -> None:
    mid, a, b = table(srv, "all")
    with a, b, join(srv, mid) as watcher:
        line = say(watcher, phrase="hi")
        assert line["from"] is None and line["name"] is None and line["phrase"] == "hi"
        assert a.wait("chat")["phrase"] == "hi"
        say(a, text="welcome")
        assert watcher.wait("chat")["text"] == "welcome"


def test_chat_off_refuses_every_chat_message(srv: ServerThread) -> None:
    mid, a, b = table(srv, "off")
    with a, b:
        assert say(a, text="hi")["code"] == "chat_off"
        assert say(a, phrase="gg")["code"] == "chat_off"
        reply = a.request({"type": "mute", "seat": 1, "id": "m"}, lambda m: m.get("id") == "m")
        assert reply["code"] == "chat_off"
        assert srv.http.get(f"/api/matches/{mid}").json()["chat"] == "off"


@pytest.mark.parametrize("mode", ["loud", 1, True, ""])
def test_a_bad_chat_option_is_refused_at_creation(srv: ServerThread, mode: Any) -> None:
    r = srv.http.post("/api/matches", json={"game": "lost-cities", "chat": mode})
    assert r.status_code == 400 and r.json()["code"] == "bad_message", r.text


def test_mute_stops_a_seats_lines_for_the_muter_only(srv: ServerThread) -> None:
    mid, a, b = table(srv, "all")
    with a, b, join(srv, mid) as watcher:
        muted = a.request({"type": "mute", "seat": 1, "id": "m"}, lambda m: m.get("id") == "m")
        assert muted == {"type": "muted", "seats": [1], "id": "m"}
        say(b, text="muted line")
        assert watcher.wait("chat")["text"] == "muted line"
        say(watcher, text="marker")
        assert a.wait("chat")["text"] == "marker"  # b's line came first and was not sent to a
        state = a.request({"type": "sync"}, "state")
        assert [line["text"] for line in state["chat"]] == ["marker"]
        unmuted = a.request({"type": "unmute", "seat": 1, "id": "u"}, lambda m: m.get("id") == "u")
        assert unmuted["seats"] == []
        say(b, text="heard again")
        assert a.wait("chat")["text"] == "heard again"


@pytest.mark.parametrize("fields, code", [
    ({}, "bad_message"),
    ({"seat": {}}, "bad_message"),
    ({"seat": "1"}, "bad_message"),
    ({"seat": True}, "bad_message"),
    ({"seat": 1.0}, "bad_message"),
    ({"seat": 2}, "bad_seat"),
    ({"seat": -1}, "bad_seat"),
    ({"seat": 0}, "bad_seat"),
])
def test_bad_mutes_are_refused(srv: ServerThread, fields: Msg, code: str) -> None:
    _, a, b = table(srv)
    with a, b:
        for kind in ("mute", "unmute"):
            msg = {"type": kind, "id": "m", **fields}
            err = a.request(msg, lambda m: m.get("id") == "m")
            assert err["type"] == "error" and err["code"] == code, (kind, err)


def test_spectators_can_be_muted_together(srv: ServerThread) -> None:
    mid, a, b = table(srv, "all")
    with a, b, join(srv, mid) as watcher:
        assert a.request({"type": "mute", "seat": None, "id": "m"}, lambda m: m.get("id") == "m")["seats"] == [None]
        say(watcher, text="from the rail")
        say(b, text="marker")
        assert a.wait("chat")["text"] == "marker"


def test_state_carries_the_last_lines(srv: ServerThread) -> None:
    mid, a, b = table(srv)
    with a, b:
        for i in range(HISTORY + 3):
            say(a, text=f"line {i}")
    with join(srv, mid, b.token) as again:
        state = again.request({"type": "sync"}, "state")
        texts = [line["text"] for line in state["chat"]]
        assert texts == [f"line {i}" for i in range(3, HISTORY + 3)]


def test_chat_is_rate_limited_per_connection(tmp_path: Path) -> None:
    clock = ManualClock()
    settings = generous_settings(clock=clock, rate_per_second=5000.0, rate_burst=1e6, chat_per_minute=6.0,
                                 chat_burst=2.0)
    with ServerThread(db_url_for("sqlite", tmp_path), settings=settings) as srv:
        _, a, b = table(srv)
        with a, b:
            assert say(a, text="one")["type"] == "chat"
            assert say(a, text="two")["type"] == "chat"
            err = say(a, text="three")
            assert err["type"] == "error" and err["code"] == "rate_limited", err
            assert say(b, text="b has its own bucket")["type"] == "chat"
            clock.advance(10.0)  # 6 a minute: one line every 10 s
            assert say(a, text="three again")["type"] == "chat"
            assert say(a, text="four")["code"] == "rate_limited"


def test_the_last_lines_survive_a_restart(tmp_path: Path) -> None:
    url = db_url_for("sqlite", tmp_path)
    settings = generous_settings(rate_per_second=5000.0, rate_burst=1e6, chat_per_minute=1e6, chat_burst=1e6)
    with ServerThread(url, settings=settings) as first:
        mid, a, b = table(first)
        with a, b:
            for i in range(HISTORY + 2):
                say(a, text=f"line {i}")
            say(b, phrase="gg")
        tokens = (a.token, b.token)
    with ServerThread(url, settings=settings) as again, join(again, mid, tokens[1]) as back:
        state = back.request({"type": "sync"}, "state")
        lines = state["chat"]
        assert [line.get("text", line.get("phrase")) for line in lines] == (
            [f"line {i}" for i in range(3, HISTORY + 2)] + ["gg"])
        assert lines[-1]["from"] == 1 and lines[-1]["name"] == "Bob" and "text" not in lines[-1]
        with join(again, mid, tokens[0]) as ann:
            assert say(ann, text="after the restart")["seq"] == HISTORY + 4
