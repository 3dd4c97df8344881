"""The rules page in the browser: a refusal's link lands on its ruling (LR-7), the
pictures are drawn as the table's cards, and the page reads at phone and desktop width."""

from __future__ import annotations

from typing import Any

from browserkit import DESKTOP, PHONE, SCREENSHOTS, SETTLED_JS, LiveServer

IN_VIEW_JS = """(id) => {
  const r = document.getElementById(id).getBoundingClientRect();
  return r.top >= 0 && r.bottom <= window.innerHeight;
}"""


def test_a_refusal_link_lands_on_lr7_in_view(browser: Any, server: LiveServer) -> None:
    for name, size in (("rules-lost-ranks-desktop", {**DESKTOP, "height": 800}), ("rules-lost-ranks-phone", PHONE)):
        page = browser.new_page(viewport=size)
        try:
            page.goto(f"{server.base}/rules")
            # a link shaped like a refusal's (i18n.js ruleHref), followed from another page
            page.evaluate("""() => {
              const a = document.createElement("a");
              a.href = "/rules/lost-ranks?lang=en#lr-7"; a.id = "refusal-link"; a.textContent = "LR-7";
              document.body.append(a);
            }""")
            page.click("#refusal-link")
            page.wait_for_url("**/rules/lost-ranks?lang=en#lr-7")
            page.wait_for_selector(".cards-picture .card[data-card='4H']")
            page.evaluate(SETTLED_JS)
            heading = page.locator("h3#lr-7")
            assert heading.inner_text().startswith("LR-7")
            assert page.evaluate(IN_VIEW_JS, "lr-7"), "the ruling is not in view"
            assert page.evaluate("() => document.querySelector(':target')?.id") == "lr-7"
            # the pictures are the table's cards (cards.js), the marked one highlighted
            assert page.locator(".cards-picture .rules-card").count() == 0
            assert page.locator(".cards-picture .card.last[data-card='9D']").count() == 1
            assert page.locator(".cards-picture .card.joker[data-card='JK']").count() >= 1
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), animations="disabled")
            page.locator(".cards-picture .card[data-card='2C']").scroll_into_view_if_needed()
            page.evaluate(SETTLED_JS)
            page.screenshot(path=str(SCREENSHOTS / f"{name}-trick.png"), animations="disabled")
            page.evaluate("() => window.scrollTo(0, 0)")
            page.evaluate(SETTLED_JS)
            page.screenshot(path=str(SCREENSHOTS / f"{name}-top.png"), animations="disabled")
            width = page.evaluate("() => document.documentElement.scrollWidth")
            assert width <= size["width"], f"the page is {width}px wide at {size['width']}px"
        finally:
            page.close()


def test_the_lobby_tiles_and_the_table_link_their_rules_in_the_page_language(browser: Any, server: LiveServer) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    try:
        page = ctx.new_page()
        page.add_init_script("localStorage.setItem('cardtable.name', 'Ann'); localStorage.setItem('cardtable.lang', 'ru')")
        page.goto(f"{server.base}/")
        for game in ("lost-cities", "lost-ranks", "rank"):
            link = page.wait_for_selector(f".tile-rules[data-game='{game}']")
            assert link.get_attribute("href") == f"/rules/{game}?lang=ru"
        page.screenshot(path=str(SCREENSHOTS / "lobby-rules-links.png"), animations="disabled")
        page.click(".tile-rules[data-game='rank']")
        page.wait_for_url("**/rules/rank?lang=ru")
        assert page.locator("html").get_attribute("lang") == "ru"
        assert page.locator("h3#rg-4").inner_text().startswith("RG-4")
        m = server.create("lost-ranks", {"players": 4}, [{"kind": "human", "name": "Ann"}] + [{"kind": "ai"}] * 3)
        page.goto(m["seats"][0]["invite"])
        link = page.wait_for_selector(".topbar a.rules-link")
        assert link.get_attribute("href") == "/rules/lost-ranks?lang=ru"
        page.screenshot(path=str(SCREENSHOTS / "table-rules-link.png"), animations="disabled")
    finally:
        ctx.close()
