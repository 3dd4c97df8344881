"""The lab's HTML report opened in headless Chromium: offline, the findings shown,
every figure loaded (decoded, not a broken image), no page error."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browserkit import DESKTOP, Tracker, screenshot

from cardtable.lab.report import build_report
from cardtable.lab.results import open_results
from cardtable.lab.runner import run_study
from cardtable.lab.study import study_from_dict

pytest.importorskip("matplotlib")

IMAGES_JS = """() => [...document.images].map(i => ({id: i.id, complete: i.complete, width: i.naturalWidth}))"""


def test_the_lab_report_opens_offline_with_its_findings_and_figures(browser: Any, tracker: Tracker,
                                                                   tmp_path: Path) -> None:
    from cardtable.lab.report_html import render_html

    study = study_from_dict({"title": "Does the purple expedition change Lost Cities?", "game": "lost-cities",
                             "seed": 5, "matches": 6, "options": {"rounds": 1}, "variants": {"colors": [5, 6]},
                             "lineups": [{"agents": ["heuristic", "random"]}]})
    with open_results(tmp_path / "r.sqlite", study) as store:
        run_study(study, store)
        report = build_report(study, store.rows())
    page_file = tmp_path / "report.html"
    page_file.write_text(render_html(report), encoding="utf-8")
    context = browser.new_context(viewport=DESKTOP, offline=True)
    page = tracker.watch(context.new_page())
    page.goto(page_file.as_uri())
    assert page.title() == "Does the purple expedition change Lost Cities?"
    summary = page.locator("#summary").inner_text()
    seat = next(f for f in report.findings if f.text.startswith("seat 0 wins"))
    assert seat.text[0].upper() + seat.text[1:] in summary
    assert "Against the base variant" in summary
    page.wait_for_function("() => [...document.images].every(i => i.complete)")
    images = page.evaluate(IMAGES_JS)
    assert {i["id"] for i in images} >= {"fig-fairness", "fig-changes", "fig-distributions", "fig-rules", "fig-skill"}
    assert all(i["width"] > 300 for i in images), images
    screenshot(page, "lab-report", DESKTOP)
    context.close()
