"""The tutorials over HTTP: ``/api/tutorials`` (see ``docs/server-protocol.md``, "Tutorials").

The browser's tutorial page walks the steps of :mod:`cardtable.tutorials` here:

* ``GET /api/tutorials`` — the games that have a tutorial, with their titles;
* ``GET /api/tutorials/{game}?step=N&lang=ru`` — the tutorial's texts and the table
  at step ``N`` (0 = the start): the learner's view, legal moves, the refusals of the
  hand's cards, the move log, in the shapes of a match's ``state`` message;
* ``POST /api/tutorials/{game}/moves`` ``{"step": N, "action": A}`` (or ``"move"``:
  notation) — the verdict on the learner's move at step ``N``: ``ok`` (then the table
  at step ``N + 1`` and the events of the move and the replies), ``illegal`` (the
  engine's refusal record and ruling) or ``off_lesson`` (the step's hint and ruling).

The server keeps no tutorial session: a tutorial is a fixed deal and a fixed script,
so the table at step ``N`` is rebuilt by replaying the lesson's moves (a few dozen
actions).  Nothing needs storing, expiring or cleaning up, a reload resumes at the
step the page remembers, and the answers are the learner's own view only, as in a
match.  A reading step is passed by asking for step ``N + 1``.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request

from cardtable.i18n import LANGUAGES
from cardtable.protocol import JSON, Event, details_json
from cardtable.server.errors import ProtocolError, reason_body
from cardtable.tutorials import Tutorial, TutorialError, load_tutorial, tutorial_games
from cardtable.tutorials.runner import OK


def log_lines(events: list[Event], first_seq: int) -> list[dict[str, JSON]]:
    """Events as a match's log lines (``seq`` counted from ``first_seq``)."""
    return [{"seq": first_seq + i, "seat": e.player, "move": e.text, "note": e.note, "details": details_json(e.details)}
            for i, e in enumerate(events)]


def awaits_move(tour: Tutorial) -> bool:
    """Whether the learner has a move to make now (not at a text to read, not at the end)."""
    return not tour.finished and not tour.step.reading and tour.learner_to_move()


def hand_refusals(tour: Tutorial) -> list[dict[str, JSON]]:
    """Why each card of the learner's hand cannot be played now (the table's tooltips)."""
    if not awaits_move(tour):
        return []
    state = tour.state
    hand = set(tour.view().get("hand") or ())
    out: list[dict[str, JSON]] = []
    for action in range(state.game.num_distinct_actions):
        move = state.action_to_string(action)
        verb, _, card = move.partition(" ")
        refusal = state.why_illegal(action) if verb == "play" and card in hand else None
        if refusal is not None:
            out.append({"action": action, "move": move, "rule": refusal.rule, "reason": reason_body(refusal)})
    return out


def table_at(tour: Tutorial, lang: str) -> dict[str, JSON]:
    """The learner's table at the runner's step, shaped like a match's ``state`` message
    (no legal moves at a text to read: the page's button goes on)."""
    legal = [{"action": a, "move": tour.state.action_to_string(a)} for a in tour.state.legal_actions()
             ] if awaits_move(tour) else []
    return {
        "step": tour.index,
        "finished": tour.finished,
        "view": tour.view(),
        "legal": legal,
        "refused": hand_refusals(tour),
        "log": log_lines(tour.events, 1),
        "status": "finished" if tour.state.is_terminal() else "active",
        "result": tour.state.result() if tour.state.is_terminal() else None,
    }


def _tutorial(game: str, step: Any) -> Tutorial:
    try:
        script = load_tutorial(game)
    except TutorialError as err:
        raise ProtocolError("not_found", str(err), status=404) from None
    if not isinstance(step, int) or isinstance(step, bool):
        raise ProtocolError("bad_message", f"'step' must be a step number 0..{len(script.steps)}")
    try:
        return Tutorial.at_step(script, step)
    except TutorialError as err:
        raise ProtocolError("bad_message", str(err)) from None


def _lang(lang: str | None) -> str:
    if lang is None:
        return "en"
    if lang not in LANGUAGES:
        raise ProtocolError("bad_request", f"lang must be one of {', '.join(LANGUAGES)}, not {lang!r}")
    return lang


def install_tutorial_routes(app: FastAPI) -> None:
    """Add the ``/api/tutorials`` endpoints to ``app`` (see the module doc)."""
    from cardtable.server.app import json_body

    @app.get("/api/tutorials")
    async def list_tutorials() -> list[dict[str, JSON]]:
        return [{"game": g, "title": load_tutorial(g).title.to_json()} for g in tutorial_games()]

    @app.get("/api/tutorials/{game}")
    async def tutorial_step(game: str, step: int = 0, lang: str | None = None) -> dict[str, JSON]:
        chosen = _lang(lang)
        tour = _tutorial(game, step)
        return {"tutorial": tour.script.summary(chosen), **table_at(tour, chosen)}

    @app.post("/api/tutorials/{game}/moves")
    async def tutorial_move(request: Request, game: str, lang: str | None = None) -> dict[str, JSON]:
        chosen = _lang(lang)
        body = await json_body(request)
        tour = _tutorial(game, body.get("step"))
        if tour.finished:
            raise ProtocolError("match_over", "the tutorial is over: no more moves", status=409)
        if tour.step.reading:
            raise ProtocolError("bad_message", f"step {tour.index} is a text to read: ask for step {tour.index + 1}")
        move = body.get("action", body.get("move"))
        if not isinstance(move, (int, str)) or isinstance(move, bool):
            raise ProtocolError("bad_message", "give the move as 'action' (an action id) or 'move' (notation)")
        first = len(tour.events) + 1
        verdict = tour.attempt(move)
        out: dict[str, JSON] = {"verdict": verdict.to_json(chosen)}
        if verdict.kind == OK:
            out["events"] = log_lines(list(verdict.events), first)
            out.update(table_at(tour, chosen))
        return out


__all__ = ["awaits_move", "hand_refusals", "install_tutorial_routes", "log_lines", "table_at"]
