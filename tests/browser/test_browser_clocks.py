"""Match clocks in the browser (docs/server-protocol.md, "Clocks"): the lobby's clock
choice, the clock on the table, and a live clock running out — for the AI to move
(with the "your turn" event on the other page) and as a loss on time.  The server's
wall clock is a ManualClock the test advances, so nothing waits on real time."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browserkit import LiveServer, Tracker, screenshot

from cardtable.server.limits import ManualClock

LAPTOP = {"width": 1280, "height": 800}
START = 1_800_000_000.0


@pytest.fixture(scope="module")
def clock() -> ManualClock:
    return ManualClock(START)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, clock: ManualClock) -> Iterator[LiveServer]:
    db: Path = tmp_path_factory.mktemp("browser-clocks") / "cardtable.db"
    with LiveServer(f"sqlite:///{db}", ai_delay=0.02, wall_clock=clock) as srv:
        yield srv


def run_out(server: LiveServer, clock: ManualClock, match_id: str) -> None:
    """Move the server's clock to the running deadline and wake its deadline task."""
    info = server.http.get(f"/api/matches/{match_id}").json()
    clock.advance(info["clock"]["deadline"] - clock.now())
    server.rooms.deadlines.wake_threadsafe()


def two_pages(browser: Any, tracker: Tracker, server: LiveServer, made: dict[str, Any]) -> tuple[list[Any], list[Any]]:
    contexts = [browser.new_context(viewport=LAPTOP, locale="en-US") for _ in range(2)]
    pages = []
    for seat, ctx in enumerate(contexts):
        page = tracker.watch(ctx.new_page())
        page.add_init_script(f"localStorage.setItem('cardtable.name', '{('Ann', 'Bo')[seat]}');"
                             "window.__turns = []; window.addEventListener('cardtable:your-turn', "
                             "(e) => window.__turns.push(e.detail));")
        page.goto(made["seats"][seat]["invite"])
        page.wait_for_selector(".lc-board")
        pages.append(page)
    return contexts, pages


def test_a_live_clock_runs_out_and_the_ai_moves_for_the_late_player(browser: Any, server: LiveServer,
                                                                      clock: ManualClock, tracker: Tracker) -> None:
    made = server.create("lost-cities", {"rounds": 1}, [{"kind": "human"}, {"kind": "human"}],
                         clock={"per": "move", "seconds": 30, "on_timeout": "ai"})
    mid = made["match"]
    contexts, pages = two_pages(browser, tracker, server, made)
    try:
        mover = server.http.get(f"/api/matches/{mid}").json()["current_player"]
        late, other = pages[mover], pages[1 - mover]
        for page in pages:
            page.wait_for_selector(f".match-clock .clock-seat.running[data-seat='{mover}']")
            shown = page.inner_text(f".match-clock .clock-seat[data-seat='{mover}'] .clock-time")
            assert re.fullmatch(r"0:[0-3]\d", shown), shown
        screenshot(late, "clock-running", LAPTOP)
        run_out(server, clock, mid)
        late.wait_for_selector(".toast:has-text('Your time ran out: the AI makes this move for you.')")
        other.wait_for_selector(f".match-clock .clock-seat.running[data-seat='{1 - mover}']")
        other.wait_for_function("() => window.__turns.length > 0")
        turn = other.evaluate("() => window.__turns[window.__turns.length - 1]")
        assert turn["match"] == mid and turn["seat"] == 1 - mover and turn["deadline"] == clock.now() + 30
        seats = server.http.get(f"/api/matches/{mid}").json()["seats"]
        assert seats[mover]["kind"] == "human", "the late player keeps the seat"
    finally:
        for c in contexts:
            c.close()


def test_a_live_clock_running_out_loses_the_match(browser: Any, server: LiveServer, clock: ManualClock,
                                                  tracker: Tracker) -> None:
    made = server.create("lost-cities", {"rounds": 1}, [{"kind": "human"}, {"kind": "human"}],
                         clock={"per": "match", "seconds": 120, "on_timeout": "lose"})
    mid = made["match"]
    contexts, pages = two_pages(browser, tracker, server, made)
    try:
        mover = server.http.get(f"/api/matches/{mid}").json()["current_player"]
        pages[0].wait_for_selector(".match-clock .clock-seat.running")
        run_out(server, clock, mid)
        pages[mover].wait_for_selector(".modal .verdict:has-text('Your time ran out: the match is lost.')")
        name = ("Ann", "Bo")[mover]
        pages[1 - mover].wait_for_selector(f".modal .verdict:has-text('{name} ran out of time: you win.')")
        info = server.http.get(f"/api/matches/{mid}").json()
        assert info["status"] == "finished" and info["ending"] == "timeout"
    finally:
        for c in contexts:
            c.close()


def test_the_lobby_creates_a_match_with_the_chosen_clock(browser: Any, server: LiveServer,
                                                         tracker: Tracker) -> None:
    ctx = browser.new_context(viewport=LAPTOP, locale="en-US")
    try:
        page = tracker.watch(ctx.new_page())
        page.goto(server.base + "/")
        page.wait_for_selector(".game-tile[data-game='lost-cities']")
        page.click(".game-tile[data-game='lost-cities']")
        page.select_option("#opt-rounds", "1")
        page.select_option(".seat-row[data-seat='1'] select.seat-agent", "random")
        page.select_option("#clock-choice", "match:600")
        page.select_option("#clock-on-timeout", "lose")
        page.locator(".clock-fields").scroll_into_view_if_needed()
        screenshot(page, "clock-lobby", LAPTOP)
        page.click("#create")
        page.wait_for_selector(".lc-board")
        mid = re.search(r"/play/([^/?#]+)", page.url)
        assert mid is not None
        info = server.http.get(f"/api/matches/{mid.group(1)}").json()
        assert info["clock"]["per"] == "match" and info["clock"]["seconds"] == 600
        assert info["clock"]["on_timeout"] == "lose"
        page.wait_for_selector(".match-clock .clock-seat[data-seat='0']")
    finally:
        ctx.close()


def test_the_lobby_hears_when_the_turn_comes_to_a_correspondence_player(browser: Any, server: LiveServer,
                                                                        clock: ManualClock, tracker: Tracker) -> None:
    made = server.create("lost-cities", {"rounds": 1}, [{"kind": "human"}, {"kind": "human"}],
                         clock={"per": "move", "seconds": 86400, "on_timeout": "ai"})
    mid = made["match"]
    mover = server.http.get(f"/api/matches/{mid}").json()["current_player"]
    mine = 1 - mover
    ctx = browser.new_context(viewport=LAPTOP, locale="en-US")
    try:
        page = tracker.watch(ctx.new_page())
        page.add_init_script("localStorage.setItem('cardtable.name', 'Cy'); window.__turns = []; "
                             "window.addEventListener('cardtable:your-turn', (e) => window.__turns.push(e.detail));")
        page.goto(made["seats"][mine]["invite"])
        page.wait_for_selector(".lc-board")
        with server.client(mid, made["seats"][mover]["token"]) as opponent:
            opponent.wait("state")
            page.goto(server.base + "/")
            item = f".match-list li[data-match='{mid}']"
            page.wait_for_selector(f"{item} .match-status:has-text('waiting for')")
            assert page.evaluate("() => window.__turns.length") == 0
            run_out(server, clock, mid)  # the opponent's day is up: the AI plays its turn
            page.wait_for_selector(f"{item}.mine-turn .match-status:has-text('your turn')")
            page.wait_for_selector(f"{item} .match-clock-left:has-text('1 d 0 h left')")
            turn = page.evaluate("() => window.__turns[0]")
            assert turn["match"] == mid and turn["seat"] == mine and turn["left"] == 86400
    finally:
        ctx.close()
