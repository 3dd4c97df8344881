"""Replays, open seats and several seats in one browser, driven by Playwright:

* a finished match's replay opened from "your matches", stepped through with the
  buttons, the keys, the slider and the move log — each step shows only what the
  seat saw at that step — and its JSON record exported; the public replay too;
* a newcomer joins an open seat from the lobby in a second browser context;
* one browser context holds three seats in two matches (two tabs in one match)
  and keeps every token across reloads.
"""

from __future__ import annotations

import json
from typing import Any

from browserkit import DESKTOP, PHONE, LeakChecker, LiveServer, Tracker, screenshot, shown_cards, wait_seq
from srvkit import CEILING, eventually
from test_browser_ui import all_cards, match_id_of

from cardtable import records

Page = Any

REPLAY_CARDS_JS = """() => {
  const out = {board: [], history: [], step: Number(document.body.dataset.step),
               hand: [...document.querySelectorAll('.my-area .hand .card')].map(e => e.dataset.card)};
  for (const e of document.querySelectorAll('[data-card]')) {
    (e.closest('[data-history]') ? out.history : out.board).push(e.dataset.card);
  }
  return out;
}"""


def finished_match(server: LiveServer, agent: str = "heuristic") -> tuple[str, str]:
    """A Lost Cities round played out by two AIs, seat 0 having been a person's seat
    handed to ``agent``: ``(match id, seat 0's token)``."""
    m = server.create("lost-cities", {"rounds": 1}, [{"kind": "human", "name": "Ann"}, {"kind": "ai"}], seed=31)
    mid = m["match"]
    r = server.http.post(f"/api/matches/{mid}/seats/0/ai", json={"agent": agent},
                         headers={"Authorization": f"Bearer {m['host_token']}"})
    assert r.status_code == 200, r.text
    eventually(lambda: server.http.get(f"/api/matches/{mid}").json()["status"] == "finished",
               "the AIs did not finish the match", timeout=3 * CEILING)
    return mid, m["seats"][0]["token"]


class ReplayChecker:
    """The replay page at its current step shows that step's view of the seat and
    nothing else: board cards from the view of that step, log cards from the views
    up to that step."""

    def __init__(self, server: LiveServer, mid: str, seat: int | None) -> None:
        self.steps = server.replay_steps(mid, seat)
        self.texts = [json.dumps(s["view"]) for s in self.steps]
        self.seat = seat
        self.visited: list[int] = []

    def check(self, page: Page, step: int) -> None:
        page.wait_for_function(f"() => document.body.dataset.step === '{step}'")
        found = page.evaluate(REPLAY_CARDS_JS)
        now = shown_cards(self.texts[step])
        before: set[str] = set().union(*(shown_cards(x) for x in self.texts[: step + 1]))
        assert set(found["board"]) <= now, f"step {step}: board shows {set(found['board']) - now}"
        assert set(found["history"]) <= before, f"step {step}: log shows {set(found['history']) - before}"
        if self.seat is not None:
            assert found["hand"] == self.steps[step]["view"]["hand"], f"step {step}: the hand differs"
        else:
            assert not found["hand"]
        self.visited.append(step)


def test_replay_of_a_finished_match_step_by_step_and_export(browser: Any, server: LiveServer,
                                                           tracker: Tracker) -> None:
    mid, token = finished_match(server)
    ctx = browser.new_context(viewport=DESKTOP, locale="en-US", accept_downloads=True)
    public_ctx = browser.new_context(viewport=PHONE, locale="ru-RU")
    try:
        page = tracker.watch(ctx.new_page())
        page.goto(server.base + "/")
        page.wait_for_selector(".game-tile")
        page.evaluate("([id, token]) => localStorage.setItem('cardtable.matches', JSON.stringify("
                      "{[id]: {game: 'lost-cities', created: Date.now(), seats: [{seat: 0, token}]}}))", [mid, token])
        page.reload()
        page.click(f".yours li[data-match='{mid}'] .replay-link")
        page.wait_for_selector(".replay-page-board")
        assert f"/replay/{mid}" in page.url and "seat=0" in page.url
        check = ReplayChecker(server, mid, 0)
        last = len(check.steps) - 1
        assert page.evaluate("() => document.body.dataset.steps") == str(last)
        check.check(page, 0)
        assert "The deal" in page.inner_text(".replay-now")
        for i in range(1, 4):
            page.click("#replay-next")
            check.check(page, i)
        assert page.inner_text(".replay-pos") == f"move 3 of {last}"
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        check.check(page, 5)
        page.keyboard.press("ArrowLeft")
        check.check(page, 4)
        page.click("#replay-prev")
        check.check(page, 3)
        page.keyboard.press("Shift+ArrowRight")
        check.check(page, 13)
        # the move just replayed is highlighted, in the log and on the table
        assert page.locator(".replay-log li.is-current[data-step='13']").count() == 1
        assert page.locator(".card.last, .pile.taken").count() >= 1
        page.click(".replay-log li[data-step='20'] button")
        check.check(page, 20)
        screenshot(page, "replay-desktop", DESKTOP)
        screenshot(page, "replay-phone", PHONE)
        page.set_viewport_size(DESKTOP)
        page.evaluate("() => { const s = document.getElementById('replay-slider'); s.value = '30'; "
                      "s.dispatchEvent(new Event('input')); }")
        check.check(page, 30)
        page.keyboard.press("End")
        check.check(page, last)
        assert "You lose" in page.inner_text(".replay-now") or "You win" in page.inner_text(".replay-now") \
            or "draw" in page.inner_text(".replay-now")
        page.click("#match-summary")
        page.wait_for_selector(".modal")
        page.keyboard.press("Escape")
        page.keyboard.press("Home")
        check.check(page, 0)
        assert page.is_disabled("#replay-prev") and page.is_disabled("#replay-first")
        page.keyboard.press("End")
        check.check(page, last)
        page.reload()  # the position is in the address
        page.wait_for_selector(".replay-page-board")
        check.check(page, last)

        # the record: the same file `cardtable replay` reads, to the same end
        with page.expect_download() as dl:
            page.click("#export")
        path = dl.value.path()
        assert path is not None
        rec = records.loads(open(path, encoding="utf-8").read())
        state = records.replay(rec)
        assert state.is_terminal() and len(state.history) == last

        # the public replay (no token in this browser), in Russian on a phone
        pub = tracker.watch(public_ctx.new_page())
        pub.goto(f"{server.base}/replay/{mid}?step=7")
        pub.wait_for_selector(".replay-page-board")
        public = ReplayChecker(server, mid, None)
        public.check(pub, 7)
        assert "общая" in pub.inner_text(".viewpoint")
        assert pub.locator("#export").count() == 0
        screenshot(pub, "replay-public-phone-ru", PHONE)
    finally:
        ctx.close()
        public_ctx.close()


def test_a_name_being_typed_survives_the_lobby_redrawing(browser: Any, server: LiveServer, tracker: Tracker) -> None:
    """The lobby redraws itself when its lists change (its timer, another tab taking a
    seat); a name being typed keeps its focus and its text, spaces included.  (A
    redraw between a click into the field and the typing once lost Bob's name.)"""
    m = server.create("rank", {"players": 2}, [{"kind": "human"}, {"kind": "ai"}])
    ctx = browser.new_context(viewport=DESKTOP, locale="en-US")
    try:
        page = tracker.watch(ctx.new_page())
        page.goto(server.base + "/")
        page.wait_for_selector(".game-tile")
        page.click("#my-name")
        page.keyboard.type("Ann ")
        other = ctx.new_page()  # another tab of this browser takes a seat: the lobby lists it
        other.goto(server.base + "/api/health")
        other.evaluate("([id, token]) => localStorage.setItem('cardtable.matches', JSON.stringify("
                       "{[id]: {game: 'rank', created: Date.now(), seats: [{seat: 0, token}]}}))",
                       [m["match"], m["seats"][0]["token"]])
        page.wait_for_selector(f".yours li[data-match='{m['match']}']")
        page.keyboard.type("Lee")
        assert page.input_value("#my-name") == "Ann Lee"
        assert page.evaluate("() => localStorage.getItem('cardtable.name')") == "Ann Lee"
        other.close()
    finally:
        ctx.close()


def test_a_name_being_typed_on_the_join_page_survives_a_redraw(browser: Any, server: LiveServer,
                                                               tracker: Tracker) -> None:
    """Bob's name, typed on the invite page, is the name he joins under.  (The
    catalog arriving between the click into the field and the typing once lost "Bob",
    and the host saw "Player" join — the flake of the invite tests.)  The page now
    waits for the shared catalog before it draws anything (its texts come from it):
    while the catalog's answer is held back there is no form to type into."""
    m = server.create("lost-cities", {"rounds": 1}, [{"kind": "human", "name": "Ann"}, {"kind": "human"}])
    invite = f"{server.base}/play/{m['match']}#token={m['seats'][1]['token']}"
    ctx = browser.new_context(viewport=PHONE, locale="en-US", is_mobile=True, has_touch=True)
    held: list[Any] = []
    try:
        page = tracker.watch(ctx.new_page())
        page.route("**/api/i18n*", lambda route: held.append(route))
        page.goto(invite)
        page.wait_for_function("() => document.readyState === 'complete'")
        assert held, "the page asked for the catalog"
        assert page.query_selector("#join-name") is None, "a form drawn before the catalog arrived"
        for route in held:
            route.continue_()
        page.wait_for_selector("#join-name")
        page.fill("#join-name", "Bob")
        assert page.input_value("#join-name") == "Bob"
        page.click("#join")
        page.wait_for_selector(".lc-board")
        page.wait_for_selector(".players li[data-seat='1'] .pname:text('Bob')")
    finally:
        ctx.close()


def test_the_lobby_shows_who_joined_instead_of_a_dead_invite(browser: Any, server: LiveServer,
                                                              tracker: Tracker) -> None:
    """Once a friend claims a seat by its link, the link answers auth_failed: the
    creator's lobby shows "joined by NAME" there (told at once by the turn feed), not the link."""
    ann_ctx = browser.new_context(viewport=DESKTOP, locale="en-US")
    bob_ctx = browser.new_context(viewport=DESKTOP, locale="en-US")
    try:
        ann = tracker.watch(ann_ctx.new_page())
        ann.goto(server.base + "/")
        ann.wait_for_selector(".game-tile[data-game='rank']")
        ann.fill("#my-name", "Ann")
        ann.click(".game-tile[data-game='rank']")
        ann.select_option("#opt-players", "3")
        ann.select_option(".seat-row[data-seat='1'] select.seat-kind", "human")
        ann.select_option(".seat-row[data-seat='2'] select.seat-kind", "human")
        ann.click("#create")
        invite = ann.input_value(".invite-link[data-seat='1']")
        assert ann.is_visible(".invite-link[data-seat='2']")

        bob = tracker.watch(bob_ctx.new_page())
        bob.goto(invite)
        bob.fill("#join-name", "Bob")
        bob.click("#join")
        bob.wait_for_selector(".players li[data-seat='1'].me")

        ann.wait_for_selector(".invites li[data-seat='1'] .joined", timeout=CEILING * 1000)
        assert ann.inner_text(".invites li[data-seat='1'] .joined") == "joined by Bob"
        assert ann.query_selector(".invite-link[data-seat='1']") is None
        assert ann.is_visible(".invite-link[data-seat='2']"), "an unclaimed seat keeps its link"
    finally:
        ann_ctx.close()
        bob_ctx.close()


def test_a_newcomer_joins_an_open_seat_from_the_lobby(browser: Any, server: LiveServer, tracker: Tracker) -> None:
    ann_ctx = browser.new_context(viewport=DESKTOP, locale="en-US")
    bob_ctx = browser.new_context(viewport=PHONE, locale="en-US", is_mobile=True, has_touch=True)
    try:
        ann = tracker.watch(ann_ctx.new_page())
        ann.goto(server.base + "/")
        ann.wait_for_selector(".game-tile[data-game='lost-cities']")
        ann.fill("#my-name", "Ann")
        ann.select_option("#opt-rounds", "1")
        ann.select_option(".seat-row[data-seat='1'] select.seat-kind", "open")
        assert ann.is_checked(".new-match .check input[type='checkbox']"), "an open seat lists the match"
        ann.click("#create")
        ann.wait_for_selector(".invites .tag.open")
        open_invite = ann.input_value(".invite-link[data-seat='1']")
        ann.click("#go-table")
        ann.wait_for_selector(".lc-board")
        mid = match_id_of(ann)
        assert "Seat 2 (open)" in ann.inner_text(".players")

        bob = tracker.watch(bob_ctx.new_page())
        bob.goto(server.base + "/")
        bob.fill("#my-name", "Bob")
        join = bob.locator(f".open li[data-match='{mid}'] .join-open")
        join.wait_for()
        screenshot(bob, "lobby-open-seat-phone", PHONE)
        join.click()
        bob.wait_for_selector(".lc-board")
        assert f"/play/{mid}?seat=1" in bob.url
        ann.wait_for_selector(".players li[data-seat='1'] .pname:text('Bob')")
        assert bob.locator(".players li[data-seat='1'] .tag:text('You')").count() == 1
        stored = bob.evaluate("() => JSON.parse(localStorage.getItem('cardtable.matches'))")
        assert [s["seat"] for s in stored[mid]["seats"]] == [1]
        checkers = {0: LeakChecker(server, mid, 0), 1: LeakChecker(server, mid, 1)}
        pages = {0: ann, 1: bob}
        seq, views, _t, _f = server.snapshot(mid)
        cur = views[0]["current_player"]
        for s, p in pages.items():
            checkers[s].check(p)
        pages[cur].keyboard.press("Shift+Digit1")  # discard the first card: always allowed
        for s, p in pages.items():
            wait_seq(p, seq + 1)
            checkers[s].check(p)
        listed = [m for m in server.http.get("/api/matches").json() if m["id"] == mid][0]
        assert not any(s["open"] for s in listed["seats"]), "the seat is no longer open"

        # the seat's original invite link died when Bob took the seat; the dead token is not kept
        late = tracker.watch(ann_ctx.new_page())
        late.goto(open_invite)
        late.wait_for_selector(".fatal")
        assert "someone else has taken its seat" in late.inner_text(".fatal")
        stored = late.evaluate("() => JSON.parse(localStorage.getItem('cardtable.matches'))")
        assert [s["seat"] for s in stored[mid]["seats"]] == [0]
        late.close()

        # a spectator of a match with an open seat sits down from the table itself
        other = server.create("rank", {"players": 2}, [{"kind": "human", "name": "Ann"}, {"kind": "human", "open": True}])
        oid = other["match"]
        watcher = tracker.watch(bob_ctx.new_page())
        watcher.goto(f"{server.base}/play/{oid}")
        watcher.wait_for_selector(".rank-board")
        assert "Watching" in watcher.inner_text(".turnbox")
        LeakChecker(server, oid, None).check(watcher)
        watcher.click(".players li[data-seat='1'] .sit-here")
        watcher.wait_for_selector(".players li.me[data-seat='1']")
        assert watcher.url.endswith(f"/play/{oid}?seat=1")
        LeakChecker(server, oid, 1).check(watcher)
        assert watcher.locator(".rank-hand .card").count() > 0
        stored = watcher.evaluate("() => JSON.parse(localStorage.getItem('cardtable.matches'))")
        assert set(stored) == {mid, oid}, "both of Bob's matches are kept"
    finally:
        ann_ctx.close()
        bob_ctx.close()


def test_several_seats_and_matches_in_one_browser(browser: Any, server: LiveServer, tracker: Tracker) -> None:
    a = server.create("lost-cities", {"rounds": 1}, [{"kind": "human"}, {"kind": "human"}])
    b = server.create("rank", {"players": 2}, [{"kind": "human"}, {"kind": "human"}])
    old = server.create("rank", {"players": 2}, [{"kind": "human", "name": "Cat"}, {"kind": "ai"}])
    ctx = browser.new_context(viewport=DESKTOP, locale="en-US")
    try:
        ctx.add_init_script("localStorage.setItem('cardtable.name', 'Cat')")
        tabs: dict[str, Page] = {}
        for name, m, seat, board in (("a1", a, 1, ".lc-board"), ("b1", b, 1, ".rank-board"), ("a0", a, 0, ".lc-board")):
            page = tracker.watch(ctx.new_page())
            page.goto(m["seats"][seat]["invite"])
            page.wait_for_selector(board)
            page.wait_for_selector(".players li.me")
            assert page.url.endswith(f"/play/{m['match']}?seat={seat}"), page.url
            assert page.get_attribute(".players li.me", "data-seat") == str(seat)
            tabs[name] = page
        stored = tabs["a0"].evaluate("() => JSON.parse(localStorage.getItem('cardtable.matches'))")
        for m, seats in ((a, [0, 1]), (b, [1])):
            held = {s["seat"]: s["token"] for s in stored[m["match"]]["seats"]}
            assert sorted(held) == seats
            for seat, token in held.items():
                # claiming a seat by its invite gives it a fresh token (protocol revision 3): kept, and valid
                assert token != m["seats"][seat]["token"]
                r = server.http.get(f"/api/matches/{m['match']}/state", headers={"Authorization": f"Bearer {token}"})
                assert r.status_code == 200 and r.json()["you"] == seat

        # both tabs of match A play their own seat, and survive a reload
        for name, seat in (("a1", 1), ("a0", 0)):
            tabs[name].reload()
            tabs[name].wait_for_selector(".players li.me")
            assert tabs[name].get_attribute(".players li.me", "data-seat") == str(seat)
        mid = a["match"]
        seq, views, _t, _f = server.snapshot(mid)
        cur = views[0]["current_player"]
        mover = tabs["a0"] if cur == 0 else tabs["a1"]
        assert mover.evaluate("() => document.body.dataset.turn") == "me"
        assert all_cards(mover, ".lc-hand") == views[cur]["hand"]
        LeakChecker(server, mid, cur).check(mover)
        LeakChecker(server, mid, 1 - cur).check(tabs["a1"] if cur == 0 else tabs["a0"])
        mover.keyboard.press("Shift+Digit1")
        wait_seq(tabs["a0"], seq + 1)
        wait_seq(tabs["a1"], seq + 1)

        # a match stored the older way (one token per match) is still found
        lobby = tracker.watch(ctx.new_page())
        lobby.goto(server.base + "/")
        lobby.evaluate("([id, token]) => { const all = JSON.parse(localStorage.getItem('cardtable.matches')); "
                       "all[id] = {token, seat: 0, game: 'rank', created: 1}; "
                       "localStorage.setItem('cardtable.matches', JSON.stringify(all)); }",
                       [old["match"], old["seats"][0]["token"]])
        lobby.reload()
        lobby.wait_for_selector(".yours .match-list")
        rows = lobby.eval_on_selector_all(".yours li[data-match]", "els => els.map(e => [e.dataset.match, e.dataset.seat])")
        assert sorted(rows) == sorted([[a["match"], "0"], [a["match"], "1"], [b["match"], "1"], [old["match"], "0"]])
        lobby.click(f".yours li[data-match='{old['match']}'] a.match-link")
        lobby.wait_for_selector(".rank-board")
        assert lobby.get_attribute(".players li.me", "data-seat") == "0"
        screenshot(tabs["a1"], "two-seats-tab-desktop", DESKTOP)
    finally:
        ctx.close()
