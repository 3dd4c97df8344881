"""The review of a finished match (issue #14, "review"), in headless Chromium:

* opened from the end-of-match dialog and from the lobby's finished matches, it
  steps through the match (buttons, keys, the move log) with every hand shown as
  it was at each step; the move analysis of the seat marks its inaccuracies,
  mistakes and blunders with the better move and the loss, gives the accuracy and
  plots the estimated win chance; screenshots at 1280×800 and 390×844;
* a spectator's review (the public board, every hand), in Russian;
* a match still being played has no review: the page says so;
* the table's hint shows the estimated win chances, in English and in Russian.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from typing import Any

import pytest

from browserkit import PHONE, LiveServer, Tracker, screenshot
from srvkit import CEILING
from test_browser_replay_join import finished_match
from test_browser_ui import wait_turn

Page = Any
LAPTOP = {"width": 1280, "height": 800}
ANALYSIS_CEILING_MS = 6 * CEILING * 1000
"""The analysis runs a search per decision: a generous ceiling, never a speed to reach."""

HANDS_JS = """() => Object.fromEntries([...document.querySelectorAll('.review-hands li[data-seat]')].map(
  (li) => [li.dataset.seat, [...li.querySelectorAll('.review-cards [data-card]')].map((e) => e.dataset.card)]))"""


@pytest.fixture()
def quick_analyses(server: LiveServer) -> Iterator[None]:
    """A small search budget for the analyses of this module's matches (cached per match)."""
    analyses = server.app.state.analyses
    before = analyses.iterations
    analyses.iterations = 40
    yield
    analyses.iterations = before


def half_up(x: float) -> int:
    """A percentage rounded as the page's Intl.NumberFormat rounds it (halves up, not to even)."""
    return math.floor(x + 0.5)


def check_hands(page: Page, server: LiveServer, mid: str, step: int) -> None:
    """The hands shown at ``step`` are every seat's own hand at that step."""
    page.wait_for_function(f"() => document.body.dataset.step === '{step}'")
    shown = page.evaluate(HANDS_JS)
    for seat in (0, 1):
        hand = server.replay_steps(mid, seat)[step]["view"]["hand"]
        assert shown[str(seat)] == hand, f"step {step}: seat {seat} shows {shown[str(seat)]}, holds {hand}"


def test_review_with_every_hand_and_the_move_analysis(browser: Any, server: LiveServer, tracker: Tracker,
                                                     quick_analyses: None) -> None:
    # seat 0 plays at random: its round of ~40 decisions is sure to hold moves the
    # analysis marks (the AIs' seeds are the server's own, so the match is not fixed)
    mid, token = finished_match(server, agent="random")
    ctx = browser.new_context(viewport=LAPTOP, locale="en-US")
    try:
        page = tracker.watch(ctx.new_page())
        page.goto(server.base + "/")
        page.wait_for_selector(".game-tile")
        page.evaluate("([id, token]) => localStorage.setItem('cardtable.matches', JSON.stringify("
                      "{[id]: {game: 'lost-cities', created: Date.now(), seats: [{seat: 0, token}]}}))", [mid, token])
        # the end-of-match dialog of the table leads to the review
        page.goto(f"{server.base}/play/{mid}?seat=0")
        page.wait_for_selector(".modal #modal-review")
        page.wait_for_function("() => document.querySelector('#modal-review').innerText.trim().endsWith('Review')")
        page.click("#modal-review")
        page.wait_for_selector(".review-hands")
        assert f"/review/{mid}" in page.url and "seat=0" in page.url
        last = int(page.evaluate("() => document.body.dataset.steps"))
        check_hands(page, server, mid, 0)
        page.click("#replay-next")
        check_hands(page, server, mid, 1)
        page.keyboard.press("ArrowRight")
        check_hands(page, server, mid, 2)
        page.keyboard.press("Shift+ArrowRight")
        check_hands(page, server, mid, 12)
        page.keyboard.press("ArrowLeft")
        check_hands(page, server, mid, 11)

        # the analysis of seat 0 (the page's own seat): the server's, shown in full
        page.wait_for_selector("#match-accuracy", timeout=ANALYSIS_CEILING_MS)
        analysis = server.http.get(f"/api/matches/{mid}/analysis", params={"seat": 0}).json()
        assert analysis["seat"] == 0 and analysis["decisions"]
        assert page.inner_text("#match-accuracy") == f"Accuracy {half_up(analysis['accuracy'])}%"
        assert page.locator(".review-rounds li").all_inner_texts() == [
            f"Round {r['round']}: {half_up(r['accuracy'])}%" for r in analysis["rounds"]]
        marked = [d for d in analysis["decisions"] if d["category"] in ("inaccuracy", "mistake", "blunder")]
        assert marked, "a random player made no move the analysis marks"
        assert page.locator(".review-marked-list li").count() == len(marked)
        assert page.locator(".replay-log li.mark-inaccuracy, .replay-log li.mark-mistake, "
                            ".replay-log li.mark-blunder").count() == len(marked)
        assert page.locator("svg.win-chart circle.dot").count() == len(analysis["decisions"])
        worst = max(marked, key=lambda d: d["loss"])
        item = page.locator(f".review-marked-list li[data-step='{worst['ply'] + 1}']")
        text = item.inner_text()
        assert worst["category"] in text and "better:" in text and f"−{half_up(100 * worst['loss'])}%" in text
        item.scroll_into_view_if_needed()
        top = item.bounding_box()["y"]
        item.locator("button").click()
        check_hands(page, server, mid, worst["ply"] + 1)
        assert page.evaluate("() => document.activeElement.id") == f"marked-{worst['ply'] + 1}"  # kept on redraw
        # and the page where it was: the clicked item stays in view at about the same height
        # (texts above it change with the step, so a few pixels may move; a jump to the top would not)
        after = page.locator(f".review-marked-list li[data-step='{worst['ply'] + 1}']").bounding_box()
        assert 0 <= after["y"] <= LAPTOP["height"] - after["height"] and abs(after["y"] - top) < 120
        assert worst["category"] in page.inner_text(".review-here")
        assert page.locator(f"svg.win-chart line.cursor[data-step='{worst['ply'] + 1}']").count() == 1
        page.evaluate("() => window.scrollTo(0, 0)")
        screenshot(page, "review-desktop", LAPTOP)
        page.set_viewport_size(PHONE)
        page.keyboard.press("ArrowLeft")  # a redraw at the phone's width (the chart is drawn for it)
        page.keyboard.press("ArrowRight")
        check_hands(page, server, mid, worst["ply"] + 1)
        page.evaluate("() => window.scrollTo(0, 0)")
        screenshot(page, "review-phone", PHONE)
        page.set_viewport_size(LAPTOP)

        # the other seat's analysis, then the end of the match
        page.select_option("#analysis-seat", "1")
        page.wait_for_selector("#match-accuracy", timeout=ANALYSIS_CEILING_MS)
        other = server.http.get(f"/api/matches/{mid}/analysis", params={"seat": 1}).json()
        assert page.locator("svg.win-chart circle.dot").count() == len(other["decisions"])
        page.keyboard.press("End")
        check_hands(page, server, mid, last)

        # the lobby's finished match leads to the review too
        page.goto(server.base + "/")
        page.click(f".yours li[data-match='{mid}'] .review-link")
        page.wait_for_selector(".review-hands")
        assert f"/review/{mid}" in page.url
    finally:
        ctx.close()


def test_a_spectators_review_in_russian(browser: Any, server: LiveServer, tracker: Tracker,
                                        quick_analyses: None) -> None:
    mid, _token = finished_match(server)
    ctx = browser.new_context(viewport=PHONE, locale="ru-RU")
    try:
        page = tracker.watch(ctx.new_page())
        page.goto(f"{server.base}/review/{mid}?step=5")
        page.wait_for_selector(".review-hands")
        check_hands(page, server, mid, 5)
        assert page.locator(".my-area .hand .card").count() == 0  # the board is the public one
        assert "Все руки" in page.inner_text(".review-hands h2")
        page.wait_for_selector("#match-accuracy", timeout=ANALYSIS_CEILING_MS)
        assert page.inner_text("#match-accuracy").startswith("Точность")
        assert "Разбор ходов" in page.inner_text(".review-analysis h2")
        screenshot(page, "review-public-phone-ru", PHONE)
    finally:
        ctx.close()


def test_no_review_while_the_match_is_played(browser: Any, server: LiveServer, tracker: Tracker) -> None:
    """RG-9: each hand stays its owner's until the end: the review page says why it is empty."""
    m = server.create("rank", {"players": 2}, [{"kind": "human"}, {"kind": "human"}])
    ctx = browser.new_context(viewport=LAPTOP, locale="en-US")
    try:
        page = ctx.new_page()  # not watched: the refused request is a console error by design
        page.goto(f"{server.base}/review/{m['match']}")
        page.wait_for_selector(".fatal")
        text = page.inner_text(".fatal")
        assert "once the match is over" in text
        assert page.locator(".review-hands, [data-card]").count() == 0
        assert page.evaluate("() => [...window.__cardtableMissing]") == []
    finally:
        ctx.close()


def test_the_hint_shows_the_estimated_win_chances(browser: Any, server: LiveServer, tracker: Tracker) -> None:
    m = server.create("lost-cities", {"rounds": 1}, [{"kind": "human", "name": "Ann"}, {"kind": "ai", "agent": "random"}],
                      seed=8, hints=True)
    ctx = browser.new_context(viewport=LAPTOP, locale="en-US")
    try:
        page = tracker.watch(ctx.new_page())
        page.add_init_script("localStorage.setItem('cardtable.name', 'Ann')")
        page.goto(m["seats"][0]["invite"])
        page.wait_for_selector(".lc-board")
        assert wait_turn(page) == "me"
        page.keyboard.press("h")
        page.wait_for_selector(".hintbox .hint-chance")
        text = page.inner_text(".hintbox")
        assert re.search(r"est\. win \d{1,3}%", text), text
        assert re.search("next best:|other moves:", text) and len(re.findall(r"\d{1,3}%", text)) == 3, text
        page.click(".lang-switch [data-lang='ru']")
        page.wait_for_function("() => document.querySelector('.hintbox')?.innerText.includes('шанс на победу')")
        assert re.search("следом:|другие ходы:", page.inner_text(".hintbox"))
        screenshot(page, "hint-chances-ru", LAPTOP)
    finally:
        ctx.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_browser_formats_shared_messages_as_the_terminal_does(browser: Any, server: LiveServer,
                                                                 tracker: Tracker, lang: str) -> None:
    """The browser's shared-catalog messages (i18n.js ``t``, formatted by messages.js) and
    cardtable.i18n.messages give the same text, plural forms included."""
    from cardtable.i18n import message

    keys = ["web.review.count.mistake", "web.review.hand_of", "web.review.decisions", "count.draw_pile",
            "web.hint.estimate"]
    numbers = [0, 1, 2, 5, 11, 12, 21, 22, 25, 101, 112]
    ctx = browser.new_context(viewport=LAPTOP)
    try:
        page = tracker.watch(ctx.new_page())
        page.add_init_script(f"localStorage.setItem('cardtable.lang', '{lang}')")
        page.goto(server.base + "/")
        page.wait_for_selector(".game-tile")
        shown = page.evaluate("""async ([keys, numbers]) => {
          const m = await import('/static/i18n.js');
          await m.loadCatalog();
          return keys.map((k) => numbers.map((n) => m.t(k, {n, name: 'Ann', label: 'win', chance: '5 %'})));
        }""", [keys, numbers])
        expected = [[message(k, lang, n=n, name="Ann", label="win", chance="5 %") for n in numbers] for k in keys]
        assert shown == expected
    finally:
        ctx.close()
