"""Accounts in the browser: sign up, play a rated Lost Cities round (one round) against
the AI to its end, and see the rating on the leaderboard and the profile; a guest
joining by invite beside a signed-in host."""

from __future__ import annotations

import re
import secrets
from typing import Any

from browserkit import DESKTOP, PHONE, LiveServer, Tracker, screenshot, wait_seq

Page = Any


def sign_up(page: Page, server: LiveServer, name: str) -> None:
    page.goto(server.base + "/signin")
    page.click("#account-switch")  # to the sign-up form
    page.wait_for_selector("#account-submit:text('Sign up')")
    page.fill("#account-name", name)
    page.fill("#account-password", "correct horse battery")
    page.click("#account-submit")
    page.wait_for_selector(f".signed-in:has-text('{name}')")
    page.wait_for_selector(f".account .me-link:text('{name}')")


def match_id_of(page: Page) -> str:
    m = re.search(r"/play/([^/#?]+)", page.url)
    assert m, page.url
    return m.group(1)


def play_moves(page: Page, server: LiveServer, mid: str, moves: int) -> int:
    """Discard the first card and draw from the deck, by the keyboard, ``moves`` times
    or until the end: the moves made."""
    steps = 0
    while True:
        seq, views, _texts, finished, _legal = server.truth(mid)
        wait_seq(page, seq)
        if finished or steps >= moves:
            return steps
        if views[0]["current_player"] != 0:
            page.wait_for_function(f"() => Number(document.body.dataset.seq) > {seq}")
            continue
        page.wait_for_function("() => document.body.dataset.turn === 'me' && document.body.dataset.pending !== 'true'")
        page.keyboard.press("Shift+Digit1" if views[0]["phase"] == "play" else "1")
        wait_seq(page, seq + 1)
        steps += 1


def test_a_rated_match_against_the_ai_shows_on_the_leaderboard_and_profile(browser: Any, server: LiveServer,
                                                                            tracker: Tracker) -> None:
    name = f"Ann{secrets.token_hex(2)}"
    ctx = browser.new_context(viewport=DESKTOP, locale="en-US")
    try:
        page = tracker.watch(ctx.new_page())
        sign_up(page, server, name)
        page.wait_for_selector(".game-tile[data-game='lost-cities']")
        page.click(".game-tile[data-game='lost-cities']")
        page.select_option("#opt-rounds", "1")
        page.select_option(".seat-row[data-seat='1'] select.seat-agent", "random")
        page.check("#rated")
        screenshot(page, "accounts-lobby-signed-in", DESKTOP)
        page.click("#create")
        page.wait_for_selector(".lc-board")
        mid = match_id_of(page)
        info = server.http.get(f"/api/matches/{mid}").json()
        assert info["rated"] and info["seats"][0]["account"] and info["seats"][0]["name"] == name
        assert play_moves(page, server, mid, 6) == 6  # a few moves by the keyboard, then resign:
        page.click("#resign")  # a resigned rated match is rated like any other end
        page.click("#resign-go")
        page.wait_for_selector(".modal .verdict:has-text('You resigned.')")
        assert server.snapshot(mid)[3] is True

        page.goto(server.base + "/leaderboard?game=lost-cities")
        row = page.wait_for_selector(f"table.leaderboard tr:has(a:text('{name}'))")
        rating_text = row.inner_text()
        assert re.search(r"\d{3,4} ±\d+\?", rating_text), rating_text  # provisional after one match
        page.wait_for_selector("table.leaderboard tr.landmark:has-text('AI: random')")
        screenshot(page, "accounts-leaderboard", DESKTOP)

        page.click(f".account .me-link:text('{name}')")
        page.wait_for_selector(".profile-page .rating-group[data-game='lost-cities']")
        shown = page.inner_text(".rating-group .rating-value")
        assert shown.split(" ")[0] in rating_text
        assert page.locator(".rating-plot circle").count() == 1
        assert page.inner_text(".per-game td.played") == "1"
        replay = page.locator(f".recent-matches li[data-match='{mid}'] a.replay-link")
        assert replay.get_attribute("href") == f"/replay/{mid}?seat=0"
        review = page.locator(f".recent-matches li[data-match='{mid}'] a.review-link")
        assert review.get_attribute("href") == f"/review/{mid}?seat=0"
        screenshot(page, "accounts-profile", DESKTOP)
        screenshot(page, "accounts-profile-phone", PHONE)
        page.set_viewport_size(DESKTOP)
        replay.click()
        page.wait_for_selector(".replay-page-board")  # the session cookie is the seat: no token needed
    finally:
        ctx.close()


def test_a_guest_joins_by_invite_beside_a_signed_in_host(browser: Any, server: LiveServer, tracker: Tracker) -> None:
    name = f"Host{secrets.token_hex(2)}"
    host_ctx = browser.new_context(viewport=DESKTOP, locale="en-US")
    guest_ctx = browser.new_context(viewport=PHONE, locale="en-GB", is_mobile=True, has_touch=True)
    try:
        host = tracker.watch(host_ctx.new_page())
        sign_up(host, server, name)
        host.wait_for_selector(".game-tile[data-game='lost-cities']")
        host.select_option(".seat-row[data-seat='1'] select.seat-kind", "human")
        host.click("#create")
        invite = host.input_value(".invite-link[data-seat='1']")
        host.click("#go-table")
        host.wait_for_selector(".lc-board")

        guest = tracker.watch(guest_ctx.new_page())
        guest.goto(invite)
        guest.fill("#join-name", "Guest")
        guest.click("#join")
        guest.wait_for_selector(".lc-board")
        host.wait_for_selector(".players li[data-seat='1'] .pname:text('Guest')")
        assert guest.inner_text(".players li[data-seat='0'] .pname") == name
        mid = match_id_of(host)
        seats = server.http.get(f"/api/matches/{mid}").json()["seats"]
        assert [(s["name"], s["account"]) for s in seats] == [(name, True), ("Guest", False)]
        guest.goto(server.base + "/")
        guest.wait_for_selector(".account .signin-link")  # the guest is not signed in
    finally:
        host_ctx.close()
        guest_ctx.close()
