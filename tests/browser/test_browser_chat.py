"""Two players chat at the table, each page in its own language: a quick phrase
shows in each reader's language, and markup in a line shows as the text it is."""

from __future__ import annotations

from typing import Any

from browserkit import CEILING, DESKTOP, LiveServer, Tracker

HOSTILE = "<img src=x onerror=\"window.__chatXss = 1\"> <b>bold?</b>"


def open_seat(browser: Any, tracker: Tracker, invite: str, name: str, lang: str) -> tuple[Any, Any]:
    ctx = browser.new_context(viewport=DESKTOP, locale="ru-RU" if lang == "ru" else "en-GB")
    page = tracker.watch(ctx.new_page())
    page.add_init_script(f"localStorage.setItem('cardtable.name', '{name}'); "
                         f"localStorage.setItem('cardtable.lang', '{lang}')")
    page.goto(invite)
    page.wait_for_selector("section.chat #chat-input", timeout=CEILING * 1000)
    return ctx, page


def last_line(page: Any, selector: str) -> Any:
    return page.wait_for_selector(f"section.chat .chat-list li:last-child {selector}", timeout=CEILING * 1000)


def test_two_players_chat_in_their_own_languages(browser: Any, server: LiveServer, tracker: Tracker) -> None:
    m = server.create("lost-cities", {"rounds": 1},
                      [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}])
    ann_ctx, ann = open_seat(browser, tracker, m["seats"][0]["invite"], "Ann", "en")
    bob_ctx, bob = open_seat(browser, tracker, m["seats"][1]["invite"], "Bob", "ru")
    try:
        ann.fill("#chat-input", HOSTILE)
        ann.press("#chat-input", "Enter")
        shown = last_line(bob, ".chat-text:not(.chat-phrase)")
        assert shown.text_content() == HOSTILE
        assert bob.locator("section.chat img, section.chat .chat-list b:not(.chat-who)").count() == 0
        assert bob.evaluate("() => window.__chatXss") is None
        assert ann.input_value("#chat-input") == ""

        bob.click("section.chat .chat-phrases button[data-phrase='gg']")
        assert last_line(ann, ".chat-phrase[data-phrase='gg']").text_content() == "Good game!"
        assert last_line(bob, ".chat-phrase[data-phrase='gg']").text_content() == "Хорошая игра!"
        assert last_line(ann, ".chat-who").text_content() == "Bob: "

        bob.reload()  # the state brings the recent lines back
        bob.wait_for_selector("section.chat .chat-list li", timeout=CEILING * 1000)
        texts = bob.locator("section.chat .chat-list .chat-text").all_text_contents()
        assert texts == [HOSTILE, "Хорошая игра!"]
        assert bob.evaluate("() => window.__chatXss") is None
    finally:
        ann_ctx.close()
        bob_ctx.close()
