"""What a match did, beyond who won: typed-event counts and per-game measures.

Two sources, one row per match:

* **Event counts** — every :class:`~cardtable.protocol.Event` may carry typed
  ``details`` (frozen dataclasses with a class-level ``kind`` such as
  ``"no_winner_trick"`` or ``"pull_back"``).  :func:`count_event_kinds` counts them
  generically, so a kind a game starts emitting shows up in the lab without a change
  here.
* **Per-game measures** — where a rule shows in the final state or in events read
  together (a failed pull-back is a ``player_out`` *with* a puller): each game's
  ``measures`` part (``cardtable.games.<game>.measures``, whose docstring lists them)
  defines ``final_measures(state)`` and/or ``event_measures(details)``, and may name
  sides that are not seats (``SIDES``, :func:`sides_of`) and its headline outcome
  (``HEADLINE``, :func:`headline_of`; by default who wins).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from cardtable.protocol import Event, State
from cardtable.registry import game_part

Measures = dict[str, float]


def count_event_kinds(events: Iterable[Any]) -> Counter[str]:
    """How many typed event details of each ``kind`` a stream of events carried.

    >>> from dataclasses import dataclass
    >>> from typing import ClassVar, NamedTuple
    >>> @dataclass(frozen=True)
    ... class Tie:
    ...     kind: ClassVar[str] = "no_winner_trick"
    >>> class Ev(NamedTuple):
    ...     details: tuple[object, ...] = ()
    >>> sorted(count_event_kinds([Ev((Tie(), Tie())), Ev(), object()]).items())
    [('no_winner_trick', 2)]
    """
    return Counter(str(d.kind) for event in events for d in getattr(event, "details", ()))


def measures_of(state: State, events: Iterable[Event] = ()) -> Measures:
    """The per-game measures of a finished match whose events were ``events`` (none for a
    game not in the tables)."""
    part = game_part(state.game.name, "measures")
    measure: Callable[[State], Measures] | None = getattr(part, "final_measures", None)
    from_events: Callable[[Sequence[Any]], Measures] | None = getattr(part, "event_measures", None)
    out = measure(state) if measure is not None else {}
    if from_events is not None:
        out.update(from_events([d for event in events for d in getattr(event, "details", ())]))
    return out


def sides_of(game_name: str) -> dict[str, str]:
    """Measure → side for sides that are not seats (the game's ``SIDES``; none for most).

    >>> sides_of("lost-ranks")["red_army_won"]
    'the red army'
    """
    sides: dict[str, str] = getattr(game_part(game_name, "measures"), "SIDES", {})
    return sides


def headline_of(game_name: str) -> tuple[str, str]:
    """Which outcome a game's headline rate counts and how to say it (the game's
    ``HEADLINE``; by default who wins).

    >>> headline_of("lost-cities"), headline_of("rank")
    (('win', 'wins'), ('loss', 'is left in Rank'))
    """
    headline: tuple[str, str] = getattr(game_part(game_name, "measures"), "HEADLINE", ("win", "wins"))
    return headline
