"""The lobby's "Custom rules" section: the designer's knobs (``group="custom"``) of a game's
description in a collapsed section of the new-match form; a changed knob is stored with the
match and shown on the invitation (LC-6)."""

from __future__ import annotations

from typing import Any

from browserkit import DESKTOP, PHONE, LiveServer, Tracker


def test_custom_rules_are_collapsed_stored_and_shown_on_the_invite(browser: Any, server: LiveServer,
                                                                   tracker: Tracker) -> None:
    host_ctx = browser.new_context(viewport=DESKTOP, locale="en-US")
    friend_ctx = browser.new_context(viewport=PHONE, locale="en-US", is_mobile=True, has_touch=True)
    try:
        host = tracker.watch(host_ctx.new_page())
        host.goto(server.base + "/")
        host.wait_for_selector(".game-tile[data-game='lost-cities']")
        host.fill("#my-name", "Ann")
        host.click(".game-tile[data-game='lost-cities']")
        section = host.locator("details.custom-rules")
        section.wait_for(state="attached")
        assert section.get_attribute("open") is None, "the custom rules start collapsed"
        assert not host.is_visible("#opt-cost") and host.is_visible("#opt-rounds")
        host.click("details.custom-rules summary")
        assert host.input_value("#opt-cost") == "20"
        assert "the published rules say 20 (LC-6)" in host.inner_text("#opt-cost-help")
        host.fill("#opt-cost", "10")
        host.dispatch_event("#opt-cost", "change")
        host.wait_for_selector("details.custom-rules[open] #opt-cost")  # still open after the form redraws
        assert host.input_value("#opt-cost") == "10"
        host.select_option("#opt-rounds", "1")
        host.select_option(".seat-row[data-seat='1'] select.seat-kind", "human")
        host.click("#create")
        invite = host.input_value(".invite-link[data-seat='1']")
        friend = tracker.watch(friend_ctx.new_page())
        friend.goto(invite)
        friend.wait_for_selector(".join-options")
        options = friend.inner_text(".join-options")
        assert "Rounds: 1" in options and "Custom rules: Expedition cost: 10" in options, options
        assert "Bonus" not in options, "knobs at their published values are not listed"
    finally:
        host_ctx.close()
        friend_ctx.close()
