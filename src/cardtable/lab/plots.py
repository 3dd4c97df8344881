"""The report's figures (matplotlib, drawn off-screen), each with its 95 % intervals.

Every function takes a :class:`~cardtable.lab.report.Report` and returns a matplotlib
``Figure`` or ``None`` when the study has nothing to show for it;
:func:`figures` lists them in the report's order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cardtable.lab.report import LENGTH_MEASURES, Estimate, Report

Figure = Any
_COLOURS = ("#33658a", "#f6ae2d", "#86bbd8", "#f26419", "#2f4858", "#55a630")


def pyplot() -> Any:
    """matplotlib.pyplot on the off-screen Agg backend."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _interval_rows(ax: Any, labels: list[str], estimates: list[Estimate], scale: float = 100.0) -> None:
    ys = list(range(len(labels)))[::-1]
    for y, e in zip(ys, estimates):
        colour = "#c0392b" if e.significant else "#33658a"
        ax.errorbar([scale * e.value], [y], xerr=[[max(0.0, scale * (e.value - e.low))], [max(0.0, scale * (e.high - e.value))]],
                    fmt="o", color=colour, capsize=4)
    ax.set_yticks(ys, labels)
    ax.grid(axis="x", alpha=0.3)


def fairness(report: Report) -> Figure:
    plt = pyplot()
    labels, estimates = [], []
    for c in report.cells:
        sides = c.seats[:1] if len(c.seats) == 2 else c.seats  # with two sides the second mirrors the first
        for seat in sides + c.sides[:1] + c.seat_measures:
            labels.append(f"{c.cell.label}\n{seat.label}" if len(report.cells) > 1 else seat.label)
            estimates.append(seat.rate)
    fig, ax = plt.subplots(figsize=(8, 0.45 * len(labels) + 1.4))
    if len({e.reference for e in estimates}) > 1:  # table sizes differ: show the distance from each fair share
        estimates = [Estimate(e.value - e.reference, e.low - e.reference, e.high - e.reference) for e in estimates]
        what = f"points from the fair share (how often the seat {report.verb}, less the fair share)"
    else:
        what = f"% of matches the seat {report.verb}"
    _interval_rows(ax, labels, estimates)
    for share in sorted({e.reference for e in estimates}):
        ax.axvline(100 * share, color="grey", linestyle="--", linewidth=1)
    ax.set_xlabel(f"{what}\n(95 % Wilson interval; dashed line: fair share; red: significant)")
    ax.set_title("Fairness between seats")
    fig.tight_layout()
    return fig


def variant_changes(report: Report) -> Figure | None:
    cells = [c for c in report.cells if c.differences]
    if not cells:
        return None
    plt = pyplot()
    rows = [(c, d) for c in cells for d in c.differences
            if d.measure != "minutes at a human pace" and (d.base or d.variant)]
    fig, ax = plt.subplots(figsize=(8, 0.42 * len(rows) + 1.6))
    labels, estimates = [], []
    for c, d in rows:
        base = abs(d.base) if d.kind == "mean" and d.base else 1.0
        scale = 1.0 if d.kind == "proportion" else 1.0 / base
        labels.append(f"{c.cell.label}: {d.measure}" if len(cells) > 1 else d.measure)
        estimates.append(Estimate(d.change.value * scale, d.change.low * scale, d.change.high * scale))
    _interval_rows(ax, labels, estimates)
    ax.axvline(0, color="grey", linewidth=1)
    ax.set_xlabel("change against the base variant in %  (rates: points; means: % of the base mean)\n"
                  "95 % intervals: Newcomb for rates, bootstrap for means; red: significant")
    ax.set_title("What the variant changed")
    fig.tight_layout()
    return fig


def distributions(report: Report) -> Figure:
    plt = pyplot()
    panels: list[tuple[str, Callable[[Any], list[float]]]] = [
        ("final score per side", lambda c: c.scores),
        ("margin", lambda c: list(c.measures["margin"].values) if "margin" in c.measures else []),
        ("game length (moves)", lambda c: list(c.measures["actions"].values)),
        ("minutes at a human pace", lambda c: list(c.measures["minutes at a human pace"].values)),
    ]
    panels = [p for p in panels if any(p[1](c) for c in report.cells)]
    fig, axes = plt.subplots(1, len(panels), figsize=(3.2 * len(panels), 3.0), squeeze=False)
    for ax, (title, values_of) in zip(axes[0], panels):
        for i, c in enumerate(report.cells):
            values = values_of(c)
            if values:
                ax.hist(values, bins=20, histtype="step", linewidth=1.6, color=_COLOURS[i % len(_COLOURS)],
                        label=c.cell.label)
        ax.set_title(title, fontsize=10)
    if len(report.cells) > 1:
        rows = (len(report.cells) + 1) // 2
        fig.set_figheight(3.0 + 0.25 * rows)
        fig.legend(*axes[0][0].get_legend_handles_labels(), loc="lower center", ncol=2, fontsize=8)
        fig.tight_layout(rect=(0, (0.25 * rows + 0.1) / fig.get_figheight(), 1, 1))
    else:
        fig.tight_layout()
    return fig


def rules_in_play(report: Report) -> Figure | None:
    names = sorted({n for c in report.cells for n in c.measures if n not in LENGTH_MEASURES and n != "margin"})
    if not names:
        return None
    plt = pyplot()
    legend = 0.3 * ((len(report.cells) + 1) // 2) if len(report.cells) > 1 else 0.0
    fig, ax = plt.subplots(figsize=(8, 0.5 * len(names) * len(report.cells) + 1.4 + legend))
    height = 0.8 / len(report.cells)
    for i, c in enumerate(report.cells):
        for j, name in enumerate(names):
            m = c.measures.get(name)
            if m is None:
                continue
            y = len(names) - 1 - j + (len(report.cells) / 2 - i - 0.5) * height
            ax.barh(y, m.mean.value, height=height, color=_COLOURS[i % len(_COLOURS)],
                    xerr=[[max(0.0, m.mean.value - m.mean.low)], [max(0.0, m.mean.high - m.mean.value)]], capsize=3,
                    label=c.cell.label if j == 0 else None)
    ax.set_yticks(range(len(names))[::-1], [n.removeprefix("event:") for n in names])
    ax.set_xlabel("per match (mean, 95 % bootstrap interval)")
    ax.set_title("How often each rule comes into play")
    if legend:
        fig.legend(loc="lower center", ncol=2, fontsize=8)
        fig.tight_layout(rect=(0, (legend + 0.1) / fig.get_figheight(), 1, 1))
    else:
        fig.tight_layout()
    return fig


def skill(report: Report) -> Figure | None:
    cells = [c for c in report.cells if c.entries]
    if not cells:
        return None
    plt = pyplot()
    labels = [f"{c.cell.label}\n{e.label}" if len(cells) > 1 else e.label for c in cells for e in c.entries]
    fig, ax = plt.subplots(figsize=(8, 0.6 * len(labels) + 1.4))
    _interval_rows(ax, labels, [e.rate for c in cells for e in c.entries])
    ax.axvline(100 * cells[0].entries[0].rate.reference, color="grey", linestyle="--", linewidth=1)
    ax.set_xlabel(f"% of its results the agent {report.verb} (95 % Wilson interval)")
    ax.set_title("Skill: does the stronger agent win?")
    fig.tight_layout()
    return fig


FIGURES: tuple[tuple[str, str, Callable[[Report], Figure | None]], ...] = (
    ("fairness", "Fairness between seats", fairness),
    ("changes", "What the variant changed", variant_changes),
    ("distributions", "Scores, margins and length", distributions),
    ("rules", "Rules in play", rules_in_play),
    ("skill", "Skill gradient", skill),
)


def figures(report: Report) -> list[tuple[str, str, Figure]]:
    """``(id, title, figure)`` of every figure the report has, in order."""
    out = []
    for key, title, draw in FIGURES:
        fig = draw(report)
        if fig is not None:
            out.append((key, title, fig))
    return out
