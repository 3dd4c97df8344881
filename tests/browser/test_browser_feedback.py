"""Keyboard, screen-reader and feedback checks of the table (issue #14, "Also"), each
in headless Chromium:

* messages do not rebuild the page: the focused control stays the same element,
  and turns and moves are said through one persistent live region;
* a dialog takes the focus, keeps Tab inside and gives the focus back when it closes
  (the end-of-match dialog too, which opens by itself);
* the played card moves to its place, unless the person asked for reduced motion;
* stepping a replay with its buttons keeps the focus on the button;
* the turn's sound and the background notification are off until turned on, and
  the choice is kept;
* axe-core finds no serious or critical violation on the lobby, each game's table
  and a rules page.

Screenshots at 1280×800 and 390×844 go to ``artifacts/screenshots/``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from browserkit import PHONE, LiveServer, Tracker, screenshot, wait_seq
from test_browser_replay_join import finished_match
from test_browser_ui import wait_turn

Page = Any

LAPTOP = {"width": 1280, "height": 800}
AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
"""axe-core 4.14.1 (MPL-2.0, vendor/axe-core.LICENSE), injected into the pages tested."""

SEATS_VS_AI = [{"kind": "human", "name": "Ann"}, {"kind": "ai", "agent": "random"}]

AXE_JS = """async () => {
  const r = await axe.run(document, {resultTypes: ['violations']});
  return r.violations.filter((v) => ['serious', 'critical'].includes(v.impact))
    .map((v) => ({id: v.id, impact: v.impact, help: v.help,
                  nodes: v.nodes.slice(0, 6).map((n) => `${n.target.join(' ')}: ${(n.any[0] || n.all[0] || {}).message || ''}`)}));
}"""


def open_table(browser: Any, server: LiveServer, tracker: Tracker, game: str, config: dict[str, Any],
               seats: list[dict[str, Any]] | None = None, size: dict[str, int] = LAPTOP,
               **ctx_options: Any) -> tuple[Any, Page, dict[str, Any]]:
    """Ann's table (seat 0) of a new match against the AI, drawn."""
    m = server.create(game, config, seats or SEATS_VS_AI, seed=7)
    ctx = browser.new_context(viewport=size, locale="en-US", **ctx_options)
    page = tracker.watch(ctx.new_page())
    page.add_init_script("localStorage.setItem('cardtable.name', 'Ann')")
    page.goto(m["seats"][0]["invite"])
    page.wait_for_selector(".table-page main.table-layout")
    return ctx, page, m


def serious_violations(page: Page) -> list[dict[str, Any]]:
    page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(AXE_JS)
    return found


def play_first(page: Page) -> None:
    """Seat 0 makes its first offered move (the keypad's "1")."""
    seq = int(page.evaluate("() => document.body.dataset.seq"))
    page.keyboard.press("1")
    wait_seq(page, seq + 1)


def play_lost_cities_turn(page: Page) -> None:
    """Ann's whole Lost Cities turn by the keys: the first card offered, then the deck
    (the draw's "1"); the AI moves next."""
    wait_turn(page)
    play_first(page)
    wait_turn(page)
    play_first(page)


def test_a_message_keeps_the_focused_control_and_says_the_move_in_one_live_region(
        browser: Any, server: LiveServer, tracker: Tracker) -> None:
    """The AI's move arrives while Ann's keyboard is on the Scores button: the button
    is the same element afterwards (not a copy refocused), the turn box was not
    recreated, and the one live region said the AI's move and that it is her turn."""
    ctx, page, m = open_table(browser, server, tracker, "lost-cities", {"rounds": 1})
    try:
        wait_turn(page)
        page.focus("#scores")
        page.evaluate("() => { document.activeElement.__kept = 1; document.querySelector('.turnbox').__kept = 1; }")
        said = int(page.evaluate("() => Number(document.getElementById('announcer')?.dataset.count || 0)"))
        play_lost_cities_turn(page)
        page.wait_for_function("() => document.body.dataset.turn === 'me' && document.body.dataset.pending !== 'true'"
                               " && document.querySelectorAll('.log-list li').length >= 4")
        assert page.evaluate("() => document.activeElement.id") == "scores"
        assert page.evaluate("() => document.activeElement.__kept === 1"), "the focused button was rebuilt"
        assert page.evaluate("() => document.querySelector('.turnbox').__kept === 1"), "the turn box was rebuilt"
        live = page.evaluate("() => [...document.querySelectorAll('[aria-live]')]"
                             ".filter((e) => e.getAttribute('aria-live') !== 'off' && !e.closest('.chat')).map((e) => e.id)")
        assert live == ["announcer"], f"live regions: {live}"
        page.wait_for_function(f"() => Number(document.getElementById('announcer').dataset.count) > {said}"
                               " && /AI 2: .*Your turn/.test(document.getElementById('announcer').textContent)")
        screenshot(page, "feedback-table-lost-cities-desktop", LAPTOP)
        screenshot(page, "feedback-table-lost-cities-phone", PHONE)
    finally:
        ctx.close()


def test_dialogs_take_trap_and_give_back_the_focus_and_the_end_dialog_does_too(
        browser: Any, server: LiveServer, tracker: Tracker) -> None:
    """Scores: Enter on the button opens the dialog with the focus inside, Tab stays
    inside, Escape closes it and the focus is on the Scores button again.  Resigning
    ends the match: the end dialog, opened by the server's message, takes the focus."""
    ctx, page, _m = open_table(browser, server, tracker, "lost-cities", {"rounds": 1})
    try:
        wait_turn(page)
        page.focus("#scores")
        page.keyboard.press("Enter")
        page.wait_for_selector(".modal")
        assert page.evaluate("() => document.activeElement.closest('.modal') !== null")
        for _ in range(4):
            page.keyboard.press("Tab")
            assert page.evaluate("() => document.activeElement.closest('.modal') !== null"), "Tab left the dialog"
        page.keyboard.press("Escape")
        page.wait_for_selector(".modal", state="detached")
        assert page.evaluate("() => document.activeElement.id") == "scores", "the focus did not come back"
        page.click("#resign")
        page.wait_for_selector("#resign-go")
        page.click("#resign-go")
        page.wait_for_function("() => document.body.dataset.status === 'finished' && document.querySelector('.modal')")
        assert page.evaluate("() => document.activeElement.closest('.modal') !== null"), "the end dialog has no focus"
        screenshot(page, "feedback-end-dialog-desktop", LAPTOP)
        screenshot(page, "feedback-end-dialog-phone", PHONE)
        page.keyboard.press("Escape")
        page.wait_for_selector(".modal", state="detached")
        assert page.evaluate("() => document.activeElement.closest('.tools') !== null"), "the focus was lost on close"
    finally:
        ctx.close()


def test_the_played_card_moves_to_its_place_unless_motion_is_reduced(browser: Any, server: LiveServer,
                                                                     tracker: Tracker) -> None:
    """Ann plays a Lost Cities card: it is animated from her hand to its place; with
    prefers-reduced-motion nothing is animated for the same move."""
    for motion, moves in (("no-preference", True), ("reduce", False)):
        ctx, page, _m = open_table(browser, server, tracker, "lost-cities", {"rounds": 1}, reduced_motion=motion)
        try:
            wait_turn(page)
            play_first(page)
            if moves:
                page.wait_for_function("() => Number(document.body.dataset.moved || 0) > 0")
            else:
                assert page.evaluate("() => document.body.dataset.moved") is None
                assert page.evaluate("() => document.getAnimations().length") == 0
        finally:
            ctx.close()


def test_turn_sound_and_notification_are_off_by_default_kept_and_used(browser: Any, server: LiveServer,
                                                                      tracker: Tracker) -> None:
    """Both toggles start off; turned on (the notification asks the browser, which
    grants it here), they stay on after a reload; then the next turn plays the tone,
    and, the tab being in the background, shows a notification."""
    ctx, page, _m = open_table(browser, server, tracker, "lost-cities", {"rounds": 1})
    try:
        ctx.grant_permissions(["notifications"])
        wait_turn(page)
        assert page.get_attribute("#sound-toggle", "aria-pressed") == "false"
        assert page.get_attribute("#notify-toggle", "aria-pressed") == "false"
        page.click("#sound-toggle")
        page.click("#notify-toggle")
        page.wait_for_selector("#notify-toggle[aria-pressed='true']")
        assert page.get_attribute("#sound-toggle", "aria-pressed") == "true"
        page.reload()
        page.wait_for_selector("#notify-toggle[aria-pressed='true']")
        assert page.get_attribute("#sound-toggle", "aria-pressed") == "true"
        wait_turn(page)
        # the tab goes to the background (headless Chromium's tab is never hidden by itself)
        page.evaluate("() => Object.defineProperty(document, 'hidden', {configurable: true, get: () => true})")
        play_lost_cities_turn(page)
        page.wait_for_function("() => Number(document.body.dataset.tones || 0) > 0"
                               " && Number(document.body.dataset.notified || 0) > 0")
    finally:
        ctx.close()


def test_axe_finds_no_serious_violation_on_the_lobby_tables_and_rules(browser: Any, server: LiveServer,
                                                                      tracker: Tracker) -> None:
    """axe-core on the lobby, a table of each game (as it is on Ann's turn) and a rules
    page: no violation of impact serious or critical, at both sizes."""
    found: dict[str, list[dict[str, Any]]] = {}
    for size, tag in ((LAPTOP, "desktop"), (PHONE, "phone")):
        ctx = browser.new_context(viewport=size, locale="en-US", bypass_csp=True)
        try:
            page = tracker.watch(ctx.new_page())
            page.goto(server.base + "/")
            page.wait_for_selector(".game-tile")
            found[f"lobby-{tag}"] = serious_violations(page)
            page.goto(server.base + "/rules/lost-ranks")
            page.wait_for_selector(".cards-picture .card")
            found[f"rules-{tag}"] = serious_violations(page)
        finally:
            ctx.close()
        for game, config in (("lost-cities", {"rounds": 1}), ("lost-ranks", {"players": 2}), ("rank", {"players": 2})):
            ctx, page, _m = open_table(browser, server, tracker, game, config, size=size, bypass_csp=True)
            try:
                wait_turn(page)
                found[f"{game}-{tag}"] = serious_violations(page)
                screenshot(page, f"feedback-axe-{game}-{tag}", size)
            finally:
                ctx.close()
    bad = {k: v for k, v in found.items() if v}
    assert not bad, json.dumps(bad, indent=1)


def test_stepping_a_replay_with_its_buttons_keeps_the_focus_on_the_button(browser: Any, server: LiveServer,
                                                                          tracker: Tracker) -> None:
    """Enter on "next step" twice goes two steps: the button keeps the focus (it is
    the same element after the redraw), so the keyboard can go on."""
    mid, _token = finished_match(server)
    ctx = browser.new_context(viewport=LAPTOP, locale="en-US")
    try:
        page = tracker.watch(ctx.new_page())
        page.goto(f"{server.base}/replay/{mid}?step=0")
        page.wait_for_selector(".replay-page-board")
        page.focus("#replay-next")
        page.evaluate("() => { document.activeElement.__kept = 1; }")
        for step in (1, 2):
            page.keyboard.press("Enter")
            page.wait_for_function(f"() => document.body.dataset.step === '{step}'")
        assert page.evaluate("() => document.activeElement.id") == "replay-next"
        assert page.evaluate("() => document.activeElement.__kept === 1"), "the button was rebuilt"
    finally:
        ctx.close()


@pytest.mark.parametrize("page_kind", ["replay", "review"])
def test_the_replay_and_review_dialogs_take_trap_and_give_back_the_focus(
        browser: Any, server: LiveServer, tracker: Tracker, page_kind: str) -> None:
    """The scores dialog of a replay and of a review: it takes the focus, Tab stays in
    it, and closing it (Escape, or its Close button) puts the focus back on Scores."""
    mid, _token = finished_match(server)
    ctx = browser.new_context(viewport=LAPTOP, locale="en-US")
    try:
        page = tracker.watch(ctx.new_page())
        page.goto(f"{server.base}/{page_kind}/{mid}?step=0")
        page.wait_for_selector(".replay-page-board")
        for close in ("Escape", "#close-modal"):
            page.focus("#scores")
            page.keyboard.press("Enter")
            page.wait_for_selector(".modal")
            assert page.evaluate("() => document.activeElement.closest('.modal') !== null"), "the dialog has no focus"
            for _ in range(3):
                page.keyboard.press("Tab")
                assert page.evaluate("() => document.activeElement.closest('.modal') !== null"), "Tab left the dialog"
            if close == "Escape":
                page.keyboard.press("Escape")
            else:
                page.click(close)
            page.wait_for_selector(".modal", state="detached")
            assert page.evaluate("() => document.activeElement.id") == "scores", f"{close}: the focus did not come back"
    finally:
        ctx.close()


def test_a_lobby_tile_keeps_the_focus_when_the_open_list_is_pushed(browser: Any, server: LiveServer,
                                                                   tracker: Tracker) -> None:
    """A keyboard user on the Ранг tile: a new open match pushed to the lobby redraws
    the lists, and the tile (no id of its own) is still the focused element, the same one."""
    ctx = browser.new_context(viewport=LAPTOP, locale="en-US")
    try:
        lobby = tracker.watch(ctx.new_page())
        lobby.goto(server.base + "/")
        lobby.wait_for_selector(".game-tile[data-game='rank']")
        lobby.wait_for_function("() => document.body.dataset.feed === 'open'")
        lobby.focus(".game-tile[data-game='rank']")
        lobby.evaluate("() => { document.activeElement.__kept = 1; }")
        m = server.create("rank", {"players": 3}, [{"kind": "human", "name": "Cid"}, {"kind": "human", "open": True},
                                                   {"kind": "ai"}], listed=True)
        lobby.wait_for_selector(f".panel.open li[data-match='{m['match']}'] .join-open")
        assert lobby.evaluate("() => document.activeElement.dataset.game") == "rank"
        assert lobby.evaluate("() => document.activeElement.__kept === 1"), "the tile was rebuilt"
    finally:
        ctx.close()
