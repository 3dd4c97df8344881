"""Resigning from the table page: the in-page confirmation (cancelled, then
confirmed), both players' verdicts, and the rematch that seats each one a seat on
(docs/server-protocol.md, "Ending a match")."""

from __future__ import annotations

from typing import Any

from browserkit import LiveServer, Tracker

LAPTOP = {"width": 1280, "height": 800}


def test_resign_asks_in_the_page_then_both_can_rematch(browser: Any, server: LiveServer, tracker: Tracker) -> None:
    m = server.create("lost-cities", {"rounds": 1}, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}])
    mid = m["match"]
    contexts = [browser.new_context(viewport=LAPTOP) for _ in range(2)]
    try:
        ann, bo = (tracker.watch(c.new_page()) for c in contexts)
        native: list[str] = []
        for page, seat in ((ann, 0), (bo, 1)):
            page.on("dialog", lambda d: (native.append(d.message), d.dismiss()))
            page.add_init_script(f"localStorage.setItem('cardtable.name', '{('Ann', 'Bo')[seat]}')")
            page.goto(m["seats"][seat]["invite"])
            page.wait_for_selector(".lc-board")
        ann.click("#resign")
        ann.wait_for_selector(".modal[role='dialog'] #resign-go")
        assert ann.evaluate("() => document.activeElement.closest('.modal') !== null")
        ann.keyboard.press("Escape")
        ann.wait_for_selector(".backdrop", state="detached")
        assert server.snapshot(mid)[3] is False, "cancelling the dialog must not resign"
        ann.click("#resign")
        ann.click("#resign-go")
        ann.wait_for_selector(".modal .verdict:has-text('You resigned.')")
        bo.wait_for_selector(".modal .verdict:has-text('Ann resigned: you win.')")
        assert server.snapshot(mid)[3] is True
        assert native == [], "no native dialogs"
        for page in (ann, bo):
            page.click("#close-modal")
        ann.click("#rematch")
        ann.wait_for_selector("#rematch[disabled]")
        bo.click("#rematch")
        ann.wait_for_url(lambda url: mid not in url and "seat=1" in url)
        bo.wait_for_url(lambda url: mid not in url and "seat=0" in url)
        for page in (ann, bo):
            page.wait_for_selector(".lc-board")
            page.wait_for_selector("#resign")
        assert ann.url.split("?")[0] == bo.url.split("?")[0]
    finally:
        for c in contexts:
            c.close()
