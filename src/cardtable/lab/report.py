"""What a study found: the report's data model, built from the results table alone.

:func:`build_report` turns the rows of :mod:`cardtable.lab.results` into a
:class:`Report` — every number the HTML page (:mod:`cardtable.lab.report_html`)
shows, with its 95 % interval:

* **fairness** per cell: each seat's (or partnership's) headline rate — wins, or for
  Ранг staying in Rank — against the fair share (the mean over seats), with Wilson
  intervals; significant when the interval leaves the fair share out.  Where the game
  says who started (Lost Cities' first round), the first player's rate too, and the
  rates of sides that are not seats (Lost Ranks' armies, :func:`~cardtable.lab.measures.sides_of`);
* **variant against base**, lineup by lineup: the difference in every measure —
  proportions by Newcomb's hybrid score interval, means by a seeded percentile
  bootstrap; significant when the interval leaves 0 out;
* **length**: actions, rounds and minutes at a human pace;
* **rules in play**: every typed-event kind and per-game measure, per game;
* **skill**: in lineups of different agents, each agent's headline rate.

:attr:`Report.findings` says the significant results in words.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from cardtable.lab.measures import headline_of, sides_of
from cardtable.lab.results import Row
from cardtable.lab.series import MatchOutcome, SeriesSummary
from cardtable.lab.stats import bootstrap_interval, mean, newcomb_interval, wilson_interval
from cardtable.lab.study import Cell, Study

SKILL_ORDER = ("random", "easy", "heuristic", "medium", "hard", "ismcts")
"""Agents from weaker to stronger, as the skill gradient expects them."""
LENGTH_MEASURES = ("actions", "rounds", "minutes at a human pace")


@dataclass(frozen=True)
class Estimate:
    """A value, its 95 % interval, and the reference it is tested against."""

    value: float
    low: float
    high: float
    reference: float = 0.0

    @property
    def significant(self) -> bool:
        return not self.low <= self.reference <= self.high


@dataclass(frozen=True)
class SeatRate:
    label: str
    successes: int
    trials: int
    rate: Estimate


@dataclass(frozen=True)
class MeasureSummary:
    """A per-match measure in one cell: its mean (bootstrap interval), and how often it is non-zero."""

    name: str
    values: tuple[float, ...]
    mean: Estimate
    share_nonzero: float


@dataclass(frozen=True)
class Difference:
    """One measure, one variant against the base variant with the same lineup."""

    measure: str
    kind: str
    """``"proportion"`` (percentage points) or ``"mean"``."""
    base: float
    variant: float
    change: Estimate


@dataclass(frozen=True)
class Finding:
    """One sentence of the summary, under the cell it is about."""

    cell: str
    text: str

    def __str__(self) -> str:
        return f"{self.cell}: {self.text}"


@dataclass
class CellReport:
    cell: Cell
    matches: int
    seats: list[SeatRate]
    first_player: SeatRate | None
    sides: list[SeatRate]
    """Sides that are not seats (:func:`cardtable.lab.measures.sides_of`), e.g. Lost Ranks' armies."""
    entries: list[SeatRate]
    measures: dict[str, MeasureSummary]
    """Length (actions, rounds, minutes), game measures and ``event:KIND`` counts."""
    scores: list[float]
    """Every seat's (team's) final score, for the score distribution."""
    differences: list[Difference] = field(default_factory=list)
    """Against the base cell with the same lineup (empty for a base cell)."""


@dataclass
class Report:
    study: Study
    outcome: str
    """``"win"`` or ``"loss"``: what the headline rate counts."""
    verb: str
    cells: list[CellReport]
    findings: list[Finding]

    @property
    def matches(self) -> int:
        return sum(c.matches for c in self.cells)


def build_report(study: Study, rows: Sequence[Row]) -> Report:
    """The report of ``study`` from its results rows (cells without rows are left out)."""
    outcome, verb = headline_of(study.game)
    cells = []
    for cell in study.cells():
        own = [r for r in rows if r["cell_key"] == cell.key]
        if own:
            cells.append(_cell_report(study, cell, own, outcome))
    base_of = {c.cell.lineup: c for c in cells if c.cell.variant == study.cells()[0].variant}
    for report in cells:
        base = base_of.get(report.cell.lineup)
        if base is not None and base is not report:
            report.differences = _differences(base, report, outcome)
    result = Report(study, outcome, verb, cells, [])
    result.findings = findings(result)
    return result


def _succeeded(outcome: str) -> Callable[[float], bool]:
    return (lambda r: r > 0) if outcome == "win" else (lambda r: r < 0)


def _cell_report(study: Study, cell: Cell, rows: Sequence[Row], outcome: str) -> CellReport:
    game = study.game_for(cell)
    hit = _succeeded(outcome)
    teams = game.teams()
    counts = [sum(hit(r["returns"][team[0]]) for r in rows) for team in teams]
    fair = sum(counts) / (len(teams) * len(rows))
    seats = [_rate(_team_label(team), counts[i], len(rows), fair) for i, team in enumerate(teams)]
    starters = [r for r in rows if "first_player" in r["measures"]]
    first = None
    if starters:
        wins = sum(hit(r["returns"][int(r["measures"]["first_player"])]) for r in starters)
        first = _rate("first player", wins, len(starters), fair)
    sides = [_rate(label, round(sum(r["measures"].get(key, 0.0) for r in rows)), len(rows), fair)
             for key, label in sides_of(study.game).items() if any(key in r["measures"] for r in rows)]
    return CellReport(cell, len(rows), seats, first, sides, _entry_rates(study, cell, rows, outcome, fair),
                      _measures(study, rows), [float(r["scores"][team[0]]) for r in rows for team in teams
                                               if len(r["scores"]) == game.num_players])


def _team_label(team: Sequence[int]) -> str:
    return f"seat {team[0]}" if len(team) == 1 else "seats " + "+".join(map(str, team))


def _rate(label: str, successes: int, trials: int, reference: float) -> SeatRate:
    low, high = wilson_interval(successes, trials)
    return SeatRate(label, successes, trials, Estimate(successes / trials, low, high, reference))


def _entry_rates(study: Study, cell: Cell, rows: Sequence[Row], outcome: str, fair: float) -> list[SeatRate]:
    """Each agent entry's rate, partners counted once (:meth:`SeriesSummary.per_entry`)."""
    if len(set(cell.lineup.agents)) < 2:
        return []
    game = study.game_for(cell)
    outcomes = [MatchOutcome.from_row(r) for r in rows]
    summary = SeriesSummary(study.game, game.config_dict(), list(cell.lineup.agents), game.teams(), outcomes)
    return [_rate(e.label, e.wins if outcome == "win" else e.losses, e.results, fair) for e in summary.per_entry()]


def _measures(study: Study, rows: Sequence[Row]) -> dict[str, MeasureSummary]:
    columns: dict[str, list[float]] = {
        "actions": [float(r["actions"]) for r in rows],
        "rounds": [float(r["rounds"]) for r in rows],
        "minutes at a human pace": [r["actions"] * study.human_seconds_per_move / 60 for r in rows],
    }
    names = sorted({k for r in rows for k in r["measures"]} - {"rounds", "first_player"} - set(sides_of(study.game)))
    for name in names:
        columns[name] = [float(r["measures"].get(name, 0.0)) for r in rows]
    for kind in sorted({k for r in rows for k in r["events"]}):
        columns[f"event:{kind}"] = [float(r["events"].get(kind, 0)) for r in rows]
    out = {}
    for name, values in columns.items():
        low, high = bootstrap_interval(values)
        out[name] = MeasureSummary(name, tuple(values), Estimate(mean(values), low, high, float("nan")),
                                   sum(1 for v in values if v) / len(values))
    return out


def _differences(base: CellReport, other: CellReport, outcome: str) -> list[Difference]:
    """Seat rates are compared only when both cells have the same seats (a variant that
    changes the table size changes every fair share)."""
    out = []
    same_seats = [s.label for s in base.seats] == [s.label for s in other.seats]
    for b, o in zip(base.sides, other.sides):
        low, high = newcomb_interval(b.successes, b.trials, o.successes, o.trials)
        out.append(Difference(f"{b.label}'s {outcome} rate", "proportion", b.rate.value, o.rate.value,
                              Estimate(o.rate.value - b.rate.value, low, high)))
        if len(base.sides) == 2:
            break
    for b, o in zip(base.seats, other.seats) if same_seats else ():
        low, high = newcomb_interval(b.successes, b.trials, o.successes, o.trials)
        out.append(Difference(f"{b.label} {outcome} rate", "proportion", b.rate.value, o.rate.value,
                              Estimate(o.rate.value - b.rate.value, low, high)))
        if len(base.seats) == 2:
            break  # with two sides the second side's change mirrors the first's
    for name in sorted(set(base.measures) | set(other.measures), key=_measure_order):
        bv = base.measures[name].values if name in base.measures else (0.0,) * base.matches
        ov = other.measures[name].values if name in other.measures else (0.0,) * other.matches
        low, high = bootstrap_interval(ov, bv)
        out.append(Difference(name, "mean", mean(list(bv)), mean(list(ov)),
                              Estimate(mean(list(ov)) - mean(list(bv)), low, high)))
    return out


def _measure_order(name: str) -> tuple[int, str]:
    return (name.startswith("event:"), name)


def _pct(e: Estimate) -> str:
    return f"{100 * e.value:.1f} % [{100 * e.low:.1f}, {100 * e.high:.1f}]"


def _say(label: str, verb: str) -> str:
    """``seat 0 wins`` but ``seats 0+2 win``."""
    if not label.startswith("seats "):
        return f"{label} {verb}"
    return f"{label} {verb.replace('is ', 'are ', 1) if verb.startswith('is ') else verb.removesuffix('s')}"


def _verdict(e: Estimate) -> str:
    return "significant" if e.significant else "not significant"


def findings(report: Report) -> list[Finding]:
    """The report's headline results in words, cell by cell: fairness, the variant's
    changes against the base (always its effect on fairness, then every significant
    change), length, and skill."""
    out: list[Finding] = []
    for c in report.cells:
        texts: list[str] = []
        say = texts.append
        say(_fairness_text(c, report.verb))
        for side in c.sides[:1] if len(c.sides) == 2 else c.sides:
            say(f"{side.label} {report.verb} {_pct(side.rate)} (fair share {100 * side.rate.reference:.1f} %) — "
                f"{_verdict(side.rate)}.")
        if c.first_player is not None:
            say(f"the first player {report.verb} {_pct(c.first_player.rate)} — {_verdict(c.first_player.rate)}.")
        if c.differences:
            rates = [d for d in c.differences if d.kind == "proportion"]
            rest = [d for d in c.differences if d.kind != "proportion"]
            first = (f"{_change_text(rates[0])} — {_verdict(rates[0].change)}; " if rates
                     else "the table size differs, so compare the seats' rates above; ")
            changed = [d for d in rates[1:] + rest if d.change.significant and d.measure != "minutes at a human pace"]
            say("against the base variant: " + first
                + ("; ".join(_change_text(d) for d in changed) + " — significant." if changed
                   else "no other measure changed significantly."))
        m = c.measures
        rounds = f" in {m['rounds'].mean.value:.1f} rounds" if any(v != 1 for v in m["rounds"].values) else ""
        say(f"a match lasts {m['actions'].mean.value:.0f} moves [{m['actions'].mean.low:.0f}, "
            f"{m['actions'].mean.high:.0f}]{rounds}, "
            f"≈ {m['minutes at a human pace'].mean.value:.0f} minutes at {report.study.human_seconds_per_move:g} s a move.")
        for e in _by_skill(c.entries)[-1:]:
            say(f"the stronger agent, {e.label}, {report.verb} {_pct(e.rate)} of its results — "
                f"{_verdict(e.rate)} against the fair share {100 * e.rate.reference:.1f} %.")
        out.extend(Finding(c.cell.label, text) for text in texts)
    return out


def _fairness_text(c: CellReport, verb: str) -> str:
    """Two sides: the first side's rate.  More seats: the range, and any seat that differs."""
    if len(c.seats) <= 2:
        seat = c.seats[0]
        return (f"{_say(seat.label, verb)} {_pct(seat.rate)} of {c.matches} matches "
                f"(fair share {100 * seat.rate.reference:.1f} %) — {_verdict(seat.rate)}.")
    low = min(c.seats, key=lambda s: s.rate.value)
    high = max(c.seats, key=lambda s: s.rate.value)
    off = [s for s in c.seats if s.rate.significant]
    text = (f"every seat's rate (it {verb}) against the fair share {100 * low.rate.reference:.1f} % over "
            f"{c.matches} matches: from {100 * low.rate.value:.1f} % ({low.label}) to "
            f"{100 * high.rate.value:.1f} % ({high.label}); ")
    if not off:
        return text + "no seat differs significantly."
    return text + "; ".join(f"{s.label} {_pct(s.rate)}" for s in off) + " — significant."


def _change_text(d: Difference) -> str:
    if d.kind == "proportion":
        return (f"{d.measure} {100 * d.base:.1f} % → {100 * d.variant:.1f} %, {100 * d.change.value:+.1f} points [{100 * d.change.low:+.1f}, "
                f"{100 * d.change.high:+.1f}]")
    return (f"{d.measure} {d.base:.2f} → {d.variant:.2f} per match, {d.change.value:+.2f} "
            f"[{d.change.low:+.2f}, {d.change.high:+.2f}]")


def _by_skill(entries: Sequence[SeatRate]) -> list[SeatRate]:
    def rank(e: SeatRate) -> int:
        name = e.label.split(":")[0].split("#")[0]
        return SKILL_ORDER.index(name) if name in SKILL_ORDER else len(SKILL_ORDER)
    return sorted(entries, key=rank)
