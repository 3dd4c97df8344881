"""The tutorial runner: one learner walking a :class:`~cardtable.tutorials.script.TutorialScript`.

The runner is the core of every tutorial front end (the terminal's
``cardtable tutorial GAME``, the server's ``/api/tutorials/…``): it holds the real
engine state of the scripted deal, the step the learner is at, and judges each move:

* an unreadable or illegal move gets the engine's own refusal record
  (:meth:`State.why_illegal` — a :class:`~cardtable.protocol.Refusal` with its ruling);
* a legal move that is not the lesson's gets the step's hint (the step's ruling cited);
* the lesson's move is applied, then the other seats' scripted replies, and the
  learner is at the next step.

A reading step (no move) is passed with :meth:`Tutorial.proceed`.  The runner never
shows more than the learner's seat may know: front ends render :meth:`Tutorial.view`.

>>> from cardtable.tutorials.script import load_tutorial
>>> tour = Tutorial(load_tutorial("rank"))
>>> tour.step.id
'welcome'
>>> tour.proceed().kind
'ok'
>>> tour.attempt("play JK").kind  # RG-4: a joker only when nothing else is allowed
'illegal'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Literal

from cardtable.protocol import JSON, PROTOCOL_REFUSALS, Event, IllegalAction, Refusal, State, view_contains
from cardtable.tutorials.script import Step, Text, TutorialError, TutorialScript

VerdictKind = Literal["ok", "illegal", "off_lesson"]

OK: Final = "ok"
ILLEGAL: Final = "illegal"
OFF_LESSON: Final = "off_lesson"


@dataclass(frozen=True)
class Verdict:
    """What the runner made of a move: ``kind`` ``"ok"`` (applied, with the ``events`` of
    the move and the replies), ``"illegal"`` (the engine's ``refusal``) or
    ``"off_lesson"`` (legal, but not the lesson's: the step's ``hint``, its ``rule``)."""

    kind: VerdictKind
    refusal: Refusal | None = None
    hint: Text | None = None
    rule: str | None = None
    events: tuple[Event, ...] = field(default=())

    def to_json(self, lang: str) -> dict[str, JSON]:
        return {"kind": self.kind, "refusal": self.refusal.to_json() if self.refusal else None,
                "hint": self.hint(lang) if self.hint else None, "rule": self.rule}


class Tutorial:
    """A learner at one step of a tutorial (see the module doc)."""

    def __init__(self, script: TutorialScript) -> None:
        self.script = script
        self.state: State = script.game.new_state(seed=script.seed, decks=[list(script.deck)])
        self.index = 0
        """The step the learner is at (``len(script.steps)`` once finished)."""
        self.events: list[Event] = []
        """Every event so far, the replies' included (the move log)."""

    @classmethod
    def at_step(cls, script: TutorialScript, index: int) -> Tutorial:
        """A runner that has played the first ``index`` steps the lesson's way (the server
        keeps no session: it rebuilds the learner's state from the step number)."""
        if not 0 <= index <= len(script.steps):
            raise TutorialError(f"step {index} is not a step of this tutorial (0..{len(script.steps)})")
        tour = cls(script)
        while tour.index < index:
            tour.play_lesson()
        return tour

    @property
    def finished(self) -> bool:
        return self.index >= len(self.script.steps)

    @property
    def step(self) -> Step:
        if self.finished:
            raise TutorialError("the tutorial is over: no more steps")
        return self.script.steps[self.index]

    def view(self) -> dict[str, JSON]:
        """The learner's view of the table (the seat's own, nothing more)."""
        return self.state.view(self.script.seat)

    def learner_to_move(self) -> bool:
        return self.state.current_player() == self.script.seat

    def read_action(self, move: str | int) -> int | Refusal:
        """``move`` (notation or action id) as an action id, or why it is not one now."""
        if isinstance(move, int) and not isinstance(move, bool):
            if not 0 <= move < self.script.game.num_distinct_actions:
                return PROTOCOL_REFUSALS("not_a_move", text=repr(str(move)), game=self.script.game.title,
                                         legal=self.state.legal_action_strings())
            return self.state.why_illegal(move) or move
        try:
            return self.state.parse_action(str(move))
        except IllegalAction as err:
            if err.refusal is None:
                raise
            return err.refusal

    def attempt(self, move: str | int) -> Verdict:
        """Judge the learner's ``move`` at the current step; apply it if it is the lesson's."""
        step = self.step
        if step.reading:
            raise TutorialError(f"step {step.id!r} is a text to read: proceed(), no move")
        action = self.read_action(move)
        if isinstance(action, Refusal):
            return Verdict(ILLEGAL, refusal=action, rule=action.rule)
        if action not in self._expected_actions(step):
            return Verdict(OFF_LESSON, hint=step.hint, rule=step.rule)
        return Verdict(OK, events=self._advance(action))

    def proceed(self) -> Verdict:
        """Go past a reading step."""
        if not self.step.reading:
            raise TutorialError(f"step {self.step.id!r} waits for a move: {', '.join(self.step.expect)}")
        return Verdict(OK, events=self._advance(None))

    def play_lesson(self) -> Verdict:
        """Make the current step's first expected move (or read it): what a test or a
        server rebuilding a learner's state does."""
        step = self.step
        return self.proceed() if step.reading else self.attempt(step.expect[0])

    def _expected_actions(self, step: Step) -> set[int]:
        return {self.script.game.parse_action_name(m) for m in step.expect}

    def _advance(self, action: int | None) -> tuple[Event, ...]:
        step = self.step
        events: list[Event] = []
        if action is not None:
            events.append(self.state.apply_action(action))
        for reply in step.then:
            seat = self.state.current_player()
            if seat == self.script.seat:
                raise TutorialError(f"step {step.id!r}: the reply {reply!r} would be the learner's move")
            try:
                events.append(self.state.apply_action(self.state.parse_action(reply)))
            except IllegalAction as err:
                raise TutorialError(f"step {step.id!r}: the scripted reply {reply!r} is refused: {err}") from None
        if step.shows and not view_contains(self.view(), {"player": None, **step.shows}):
            raise TutorialError(f"step {step.id!r}: the learner's view does not show {step.shows!r}")
        self.events.extend(events)
        self.index += 1
        return tuple(events)


__all__ = ["ILLEGAL", "OFF_LESSON", "OK", "Tutorial", "Verdict", "VerdictKind"]
