"""The browser in Russian speaks from the shared catalog (src/cardtable/i18n/ru.json):
the move log says "Вы сбросили" to the player and names the AI with a gender-neutral
present tense ("ИИ берёт …"), "Последние ходы" and the count of the draw pile come
with their plural forms, and the lobby's date is in the Russian format."""

from __future__ import annotations

import re
from typing import Any

from browserkit import DESKTOP, LiveServer, Tracker, wait_seq

from cardtable.games.lost_cities import LostCities
from cardtable.i18n import message

RU_MONTHS = ("янв.", "февр.", "мар.", "апр.", "мая", "июн.", "июл.", "авг.", "сент.", "окт.", "нояб.", "дек.")


def seat0_starts() -> int:
    game = LostCities(rounds=1)
    return next(seed for seed in range(500) if game.new_state(seed=seed).current_player() == 0)


def test_russian_move_log_second_person_and_lobby_date(browser: Any, server: LiveServer, tracker: Tracker) -> None:
    seed = seat0_starts()
    card = LostCities(rounds=1).new_state(seed=seed).view(0)["hand"][0]
    m = server.create("lost-cities", {"rounds": 1}, [{"kind": "human", "name": "Ann"}, {"kind": "ai"}], seed=seed)
    ctx = browser.new_context(viewport=DESKTOP, locale="ru-RU")
    try:
        page = tracker.watch(ctx.new_page())
        page.add_init_script("localStorage.setItem('cardtable.name', 'Ann'); localStorage.setItem('cardtable.lang', 'ru')")
        page.goto(m["seats"][0]["invite"])
        page.wait_for_selector(f".lc-hand button.card[data-card='{card}']:not([aria-disabled])")
        page.click(f".lc-hand button.card[data-card='{card}']")  # placed on its empty expedition
        wait_seq(page, 1)
        page.click(".deck button.card")
        wait_seq(page, 4)  # the AI has played and drawn
        lines = page.eval_on_selector_all(".log-list li", """ls => ls.map(l => {
          const copy = l.cloneNode(true);
          copy.querySelectorAll('[data-card]').forEach((c) => { c.textContent = c.dataset.card; });
          return copy.innerText.replace(/\\s+/g, ' ').trim();
        })""")
        assert lines[:2] == [f"Вы выложили {card}", "Вы взяли карту из колоды"], lines
        assert re.fullmatch(r".+ (выкладывает|сбрасывает) \w+", lines[2]), lines
        assert re.fullmatch(r".+ берёт (карту из колоды|\w+ из стопки сброса «\w+»)", lines[3]), lines
        assert not any(re.search(r"\w+л\b", line) for line in lines[2:]), "a past tense would name a gender"
        assert page.inner_text(".logbox summary").startswith("Ходы")
        recent = page.inner_text(".recent")
        assert recent.startswith("Последние ходы:"), recent
        left = LostCities(rounds=1).new_state(seed=seed).view(0)["draw_pile"] - 2
        assert page.get_attribute(".deck .card", "title") == message("count.draw_pile", "ru", n=left)
        # the lobby row's date, in the Russian medium format
        page.goto(server.base + "/")
        shown = page.inner_text(f".yours li[data-match='{m['match']}'] time.match-date")
        assert any(month in shown for month in RU_MONTHS) and re.search(r"\d{1,2}:\d{2}", shown), shown
        assert "г." in shown, shown
    finally:
        ctx.close()
