"""The browser tutorials (issue #14 "New: learn"), each game's walked to its end in headless Chromium.

At 1280×800 in English and on a 390×844 phone in Russian, the learner first tries
the illegal moves a step suggests (the engine's refusal shows, its ruling linked to
the rules page), a legal move off the lesson (the step's hint shows), a card of the
hand that cannot be played (its refusal), then makes the lesson's move on the
table's own board; the last step's button starts a real match against ``easy``.
Screenshots go to ``artifacts/screenshots/tutorial-*.png``.
"""

from __future__ import annotations

from typing import Any

import pytest
from browserkit import PHONE, LiveServer, Tracker, screenshot

from cardtable.i18n import message
from cardtable.tutorials import Tutorial, load_tutorial

Page = Any
LAPTOP = {"width": 1280, "height": 800}
SIZES = {"desktop": (LAPTOP, "en"), "phone": (PHONE, "ru")}


def at_step(page: Page, index: int) -> None:
    page.wait_for_function("(n) => document.body.dataset.tutorialStep === String(n) "
                           "&& document.body.dataset.busy === 'false'", arg=index)


def off_lesson_move(tour: Tutorial) -> int | None:
    """A legal move of the current step that is not the lesson's (None if every legal move is)."""
    lesson = {tour.state.parse_action(m) for m in tour.step.expect}
    others = [a for a in tour.state.legal_actions() if a not in lesson]
    return others[0] if others else None


def click_action(page: Page, action: int) -> None:
    page.locator(f"button[data-action='{action}']:not([disabled]):not([aria-disabled])").first.click()


def walk_step(page: Page, tour: Tutorial, name: str, lang: str, shots: set[str]) -> None:
    """One step in the browser: its wrong moves first, then the lesson's move."""
    step = tour.step
    say = page.locator("#tutorial-say")
    assert say.get_attribute("data-step") == step.id
    assert say.inner_text().strip() == step.say(lang)
    if step.reading:
        page.click("#tutorial-next")
        return
    for attempt in step.tries:
        page.click(f".try-move[data-move='{attempt.move}']")
        verdict = page.locator(f".tutorial-verdict.refused[data-rule='{attempt.rule}']")
        verdict.wait_for()
        assert verdict.locator("a.rule-link").get_attribute("href").endswith(f"#{attempt.rule.lower()}")
        if "refused" not in shots:
            shots.add("refused")
            screenshot(page, f"tutorial-{name}-refused", page.viewport_size)
    other = off_lesson_move(tour)
    if other is not None and page.locator(f"button[data-action='{other}']:not([disabled]):not([aria-disabled])").count():
        click_action(page, other)
        page.locator(f".tutorial-verdict.off-lesson[data-rule='{step.rule}']").wait_for()
        assert step.hint is not None and step.hint(lang) in page.locator(".tutorial-verdict").inner_text()
        assert page.locator(".tutorial-step").count() == 1
        if "hint" not in shots:
            shots.add("hint")
            screenshot(page, f"tutorial-{name}-hint", page.viewport_size)
    click_action(page, tour.state.parse_action(step.expect[0]))


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", ["lost-cities", "lost-ranks", "rank"])
def test_tutorial_to_its_end_then_a_real_match(browser: Any, server: LiveServer, tracker: Tracker,
                                               game: str, size: str) -> None:
    viewport, lang = SIZES[size]
    ctx = browser.new_context(viewport=viewport, locale="ru-RU" if lang == "ru" else "en-US")
    page = tracker.watch(ctx.new_page())
    page.add_init_script(f"localStorage.setItem('cardtable.lang', '{lang}'); localStorage.setItem('cardtable.name', 'Ann')")
    page.goto(f"{server.base}/tutorial/{game}")
    tour = Tutorial(load_tutorial(game))
    name = f"{game}-{size}-{lang}"
    shots: set[str] = set()
    at_step(page, 0)
    screenshot(page, f"tutorial-{name}-start", viewport)
    while not tour.finished:
        walk_step(page, tour, name, lang, shots)
        tour.play_lesson()
        at_step(page, tour.index)
    assert shots >= {"refused"}
    done = page.locator(".tutorial-step h2")
    assert done.inner_text().strip() == message("tutorial.done", lang)
    assert page.locator("#tutorial-say").inner_text().strip() == load_tutorial(game).outro(lang)
    screenshot(page, f"tutorial-{name}-end", viewport)
    page.click("#tutorial-play-easy")
    page.wait_for_url("**/play/*")
    page.wait_for_selector(".players li.me")
    seats = page.locator(".players .tag.ai").all_inner_texts()
    assert len(seats) == load_tutorial(game).game.num_players - 1 and all(seats)
    ctx.close()


def test_unplayable_hand_card_is_explained_by_the_engine(browser: Any, server: LiveServer, tracker: Tracker) -> None:
    ctx = browser.new_context(viewport=LAPTOP, locale="en-US")
    page = tracker.watch(ctx.new_page())
    page.add_init_script("localStorage.setItem('cardtable.lang', 'en')")
    page.goto(f"{server.base}/tutorial/rank?step=1")
    at_step(page, 1)
    page.click(".hand button.card[data-card='7D']", force=True)  # RG-4: 8♠ is a neighbour of 7♥
    page.locator(".tutorial-verdict.refused[data-rule='RG-4']").wait_for()
    assert page.evaluate("() => document.body.dataset.tutorialStep") == "1"
    page.reload()  # the address keeps the step
    at_step(page, 1)
    ctx.close()


def test_lobby_and_rules_pages_link_to_the_tutorials(browser: Any, server: LiveServer, tracker: Tracker) -> None:
    ctx = browser.new_context(viewport=LAPTOP, locale="en-US")
    page = tracker.watch(ctx.new_page())
    page.add_init_script("localStorage.setItem('cardtable.lang', 'en')")
    page.goto(f"{server.base}/")
    link = page.locator("a.tile-tutorial[data-game='lost-ranks']")
    link.wait_for()
    page.wait_for_function("() => document.querySelector(\"a.tile-tutorial\").textContent !== '…'")
    assert link.inner_text().strip() == message("tutorial.learn", "en")
    link.click()
    page.wait_for_url("**/tutorial/lost-ranks")
    at_step(page, 0)
    page.goto(f"{server.base}/rules/rank?lang=ru")
    page.click(".rules-tutorial a")
    page.wait_for_url("**/tutorial/rank*")
    at_step(page, 0)
    assert page.locator("#tutorial-say").inner_text().strip() == load_tutorial("rank").steps[0].say("ru")
    page.goto(f"{server.base}/tutorial")
    page.locator(".tutorial-list a[data-game='lost-cities']").wait_for()
    ctx.close()


def test_board_keys_play_and_the_language_switch_reloads_the_step(browser: Any, server: LiveServer,
                                                                   tracker: Tracker) -> None:
    ctx = browser.new_context(viewport=LAPTOP, locale="en-US")
    page = tracker.watch(ctx.new_page())
    page.add_init_script("localStorage.setItem('cardtable.lang', 'en')")
    page.goto(f"{server.base}/tutorial/lost-cities?step=1")
    at_step(page, 1)
    script = load_tutorial("lost-cities")
    assert page.locator("#tutorial-say").inner_text().strip() == script.steps[1].say("en")
    page.keyboard.press("2")  # the second card of the hand is Yw too: the wager lesson's move
    at_step(page, 2)
    page.click(".lang-switch button[data-lang='ru']")
    page.wait_for_function("(text) => document.querySelector('#tutorial-say')?.innerText.trim() === text",
                           arg=script.steps[2].say("ru"))
    assert page.evaluate("() => document.body.dataset.tutorialStep") == "2"
    ctx.close()
