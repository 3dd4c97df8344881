"""The report as one self-contained HTML file (figures embedded as PNG data; it opens
offline) and, on request, a PDF (the summary page, then the figures).

Every number shown comes from :class:`~cardtable.lab.report.Report`; the tables carry
``data-value`` attributes with the unrounded values, so tests and scripts can read
them back.
"""

from __future__ import annotations

import base64
import html
import io
import textwrap
from pathlib import Path
from typing import Any

from cardtable.lab.plots import figures, pyplot
from cardtable.lab.report import Difference, Estimate, Report, SeatRate

_STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; max-width: 62rem; margin: 2rem auto; padding: 0 1rem; color: #1d2733; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; } h2 { margin-top: 2.2rem; border-bottom: 1px solid #ccd; }
.meta { color: #567; margin-top: 0; } .summary { background: #f3f6fa; border-left: 4px solid #33658a; padding: .6rem 1.2rem; }
.summary li { margin: .25rem 0; } .summary h3 { margin: .8rem 0 .2rem; font-size: 1rem; } .sig { color: #b03a2e; font-weight: 600; }
table { border-collapse: collapse; margin: .6rem 0 1rem; font-size: .9rem; }
th, td { padding: .2rem .6rem; border-bottom: 1px solid #dde; text-align: right; } th:first-child, td:first-child { text-align: left; }
img { max-width: 100%; } figure { margin: 1rem 0; } figcaption { color: #567; font-size: .85rem; }
"""


def _png(fig: Any) -> str:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110)
    pyplot().close(fig)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def _interval(e: Estimate, percent: bool = True) -> str:
    k = 100 if percent else 1
    cls = ' class="sig"' if e.significant else ""
    return (f'<td{cls} data-value="{e.value!r}" data-low="{e.low!r}" data-high="{e.high!r}">'
            f"{k * e.value:.1f} [{k * e.low:.1f}, {k * e.high:.1f}]</td>")


def _rate_table(rows: list[SeatRate], what: str) -> str:
    body = "".join(f'<tr data-label="{html.escape(r.label)}"><td>{html.escape(r.label)}</td><td>{r.successes}</td>'
                   f"<td>{r.trials}</td>{_interval(r.rate)}<td>{'yes' if r.rate.significant else 'no'}</td></tr>"
                   for r in rows)
    return (f"<table><tr><th>{what}</th><th>count</th><th>of</th><th>% [95 % CI]</th><th>significant</th></tr>"
            f"{body}</table>")


def _difference_table(rows: list[Difference]) -> str:
    body = []
    for d in rows:
        pct = d.kind == "proportion"

        def fmt(v: float) -> str:
            return f"{100 * v:.1f} %" if pct else f"{v:.2f}"

        body.append(f'<tr data-change="{html.escape(d.measure)}"><td>{html.escape(d.measure)}</td>'
                    f"<td>{fmt(d.base)}</td><td>{fmt(d.variant)}</td>{_interval(d.change, percent=pct)}"
                    f"<td>{'yes' if d.change.significant else 'no'}</td></tr>")
    return ("<table><tr><th>measure</th><th>base</th><th>variant</th><th>change [95 % CI]</th>"
            f"<th>significant</th></tr>{''.join(body)}</table>")


def _measure_table(report: Report) -> str:
    names = sorted({n for c in report.cells for n in c.measures}, key=lambda n: (n.startswith("event:"), n))
    head = "".join(f"<th>{html.escape(c.cell.label)}</th>" for c in report.cells)
    body = []
    for name in names:
        cells = []
        for c in report.cells:
            m = c.measures.get(name)
            cells.append("<td>—</td>" if m is None else
                         f'<td data-value="{m.mean.value!r}">{m.mean.value:.2f} [{m.mean.low:.2f}, {m.mean.high:.2f}]'
                         f" · {100 * m.share_nonzero:.0f} % of games</td>")
        body.append(f'<tr data-measure="{html.escape(name)}"><td>{html.escape(name.removeprefix("event:"))}</td>'
                    f"{''.join(cells)}</tr>")
    return (f"<table><tr><th>per match: mean [95 % CI] · share of games where it happens</th>{head}</tr>"
            f"{''.join(body)}</table>")


def render_html(report: Report) -> str:
    """The whole report page."""
    study = report.study
    drawn = {key: (title, _png(fig)) for key, title, fig in figures(report)}
    parts = [f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{html.escape(study.display_title)}"
             f"</title><style>{_STYLE}</style></head><body>",
             f"<h1>{html.escape(study.display_title)}</h1>",
             f"<p class='meta'>{html.escape(study.game)} · {report.matches} matches in {len(report.cells)} "
             f"cell(s) · seed {study.seed} · options {html.escape(str(study.options or 'default'))}</p>",
             "<section id='summary' class='summary'><h2>Findings</h2>", _findings(report), "</section>"]

    def figure(key: str) -> str:
        if key not in drawn:
            return ""
        title, data = drawn[key]
        return f"<figure><img id='fig-{key}' alt='{html.escape(title)}' src='data:image/png;base64,{data}'></figure>"

    parts += ["<h2 id='fairness'>Fairness between seats</h2>", figure("fairness")]
    for c in report.cells:
        parts += [f"<h3>{html.escape(c.cell.label)}</h3>", _rate_table(c.seats + c.sides + c.seat_measures,
                                                                        "seat")]
    changed = [c for c in report.cells if c.differences]
    if changed:
        parts += ["<h2 id='changes'>What each variant changed (against the base)</h2>", figure("changes")]
        for c in changed:
            parts += [f"<h3>{html.escape(c.cell.label)}</h3>", _difference_table(c.differences)]
    parts += ["<h2 id='distributions'>Scores, margins and length</h2>", figure("distributions"),
              "<h2 id='rules'>Rules in play</h2>", figure("rules"), _measure_table(report)]
    skilled = [c for c in report.cells if c.entries]
    if skilled:
        parts += ["<h2 id='skill'>Skill gradient</h2>", figure("skill")]
        for c in skilled:
            parts += [f"<h3>{html.escape(c.cell.label)}</h3>", _rate_table(c.entries, "agent")]
    parts.append("<p class='meta'>Intervals are 95 %: Wilson for rates, Newcomb's hybrid score for differences "
                 "of rates, a seeded percentile bootstrap for means. Each test is at the 5 % level: among many seats "
                 "and measures about one in twenty is &ldquo;significant&rdquo; by chance alone. Made by <code>cardtable lab report</code>.</p>"
                 "</body></html>")
    return "\n".join(p for p in parts if p)


def _findings(report: Report) -> str:
    groups: dict[str, list[str]] = {}
    for f in report.findings:
        groups.setdefault(f.cell, []).append(f.text)
    return "".join(f"<h3>{html.escape(cell)}</h3><ul>"
                   + "".join(f"<li>{_mark(html.escape(text[0].upper() + text[1:]))}</li>" for text in texts) + "</ul>"
                   for cell, texts in groups.items())


def _mark(line: str) -> str:
    return line.replace("— significant", "— <span class='sig'>significant</span>")


def write_pdf(report: Report, path: Path) -> None:
    """A PDF: the findings on the first page, one figure a page after it."""
    from matplotlib.backends.backend_pdf import PdfPages

    plt = pyplot()
    with PdfPages(path) as pdf:
        page = plt.figure(figsize=(8.27, 11.69))
        page.text(0.06, 0.96, report.study.display_title, fontsize=14, weight="bold", va="top", wrap=True)
        y = 0.92
        for finding in report.findings:
            wrapped = textwrap.wrap(str(finding), 110, initial_indent="• ", subsequent_indent="  ")
            page.text(0.06, y, "\n".join(wrapped), fontsize=8.5, va="top")
            y -= 0.0145 * len(wrapped) + 0.006
        pdf.savefig(page)
        plt.close(page)
        for _key, _title, fig in figures(report):
            pdf.savefig(fig)
            plt.close(fig)
