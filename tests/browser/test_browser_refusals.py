"""A refused card explains itself in the page's language, with its ruling (LC-3)."""

from __future__ import annotations

from typing import Any

from browserkit import CEILING, DESKTOP, LiveServer, Tracker, wait_seq

from cardtable.games.lost_cities import LostCities


def human_wager_seed() -> tuple[int, str, str]:
    """A seed whose round 1 seat 0 starts holding a wager and a number card of one colour."""
    game = LostCities(rounds=1)
    for seed in range(2000):
        state = game.new_state(seed=seed)
        if state.current_player() != 0:
            continue
        hand = state.view(0)["hand"]
        for card in hand:
            if card[1:].isdigit() and card[0] + "w" in hand:
                return seed, card[0] + "w", card
    raise AssertionError("no such seed")


def test_unplayable_wager_tooltip_gives_the_lc3_reason_in_russian(browser: Any, server: LiveServer,
                                                                   tracker: Tracker) -> None:
    seed, wager, number = human_wager_seed()
    m = server.create("lost-cities", {"rounds": 1}, [{"kind": "human", "name": "Ann"}, {"kind": "ai"}], seed=seed)
    ctx = browser.new_context(viewport=DESKTOP, locale="ru-RU")
    try:
        page = tracker.watch(ctx.new_page())
        page.add_init_script("localStorage.setItem('cardtable.name', 'Ann'); localStorage.setItem('cardtable.lang', 'ru')")
        page.goto(m["seats"][0]["invite"])
        page.wait_for_selector(f".lc-hand button.card[data-card='{number}']:not([aria-disabled])")
        page.click(f".lc-hand button.card[data-card='{number}']")
        wait_seq(page, 1)
        page.click(".deck button.card")
        wait_seq(page, 4)  # the AI has played and drawn: seat 0 is to move again
        title = page.wait_for_function(
            f"() => document.querySelector(\".lc-hand [data-card='{wager}'][title]\")?.title",
            timeout=CEILING * 1000).json_value()
        assert title == (f"пари можно выложить только до первой числовой карты: в вашей "
                         f"{ {'Y': 'жёлтой', 'B': 'синей', 'W': 'белой', 'G': 'зелёной', 'R': 'красной'}[wager[0]] } "
                         f"экспедиции уже лежит {number} (LC-3)")
    finally:
        ctx.close()
