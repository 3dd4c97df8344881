"""What a match did, beyond who won: typed-event counts and per-game measures.

Two sources, one row per match:

* **Event counts** — every :class:`~cardtable.protocol.Event` may carry typed
  ``details`` (frozen dataclasses with a class-level ``kind`` such as
  ``"no_winner_trick"`` or ``"pull_back"``).  :func:`count_event_kinds` counts them
  generically, so a kind a game starts emitting shows up in the lab without a change
  here.
* **Per-game measures** — where a rule shows in the final state
  (:data:`GAME_MEASURES`), or in events read together (:data:`EVENT_MEASURES`: a
  failed pull-back is a ``player_out`` *with* a puller).  The whole per-game table:

  ============  =====================================================================
  game          measures (per match)
  ============  =====================================================================
  lost-cities   ``rounds``; ``first_player`` (who started round 1); ``margin`` (score difference); ``eight_card_bonuses``
                (expeditions of 8+ cards, LC-6); ``wagers_played`` (the LC-5
                stalling safeguard shows once its typed event lands)
  lost-ranks    ``rounds``; ``first_dealer`` (the seat that dealt round 1, LR-19);
                ``margin`` (army score difference); ``tiebreak_rounds``;
                ``draw`` (1 if drawn); ``red_army_won``, ``black_army_won`` (sides);
                ``no_winner_tricks`` (tricks nobody won, LR-11)
  rank          ``first_dealer`` (the dealer, RG-2); ``pull_backs_won`` (the next player could play: the one who played
                out draws back in, RG-6), ``pull_backs_failed`` (it could not: that
                player is out), ``anti_rank_declarations`` (RG-8); who is left in
                Rank is the headline outcome
  ============  =====================================================================

``first_player`` and ``first_dealer`` name a seat, so the report can test its advantage
(:data:`SEAT_MEASURES`).  :data:`HEADLINE` names each game's headline outcome: Lost Cities and Lost Ranks are
won; in Ранг nobody wins — one player is *left in Rank* (a loss) and the rest escape.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from cardtable.protocol import Event, State

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


def _lost_cities(state: State) -> Measures:
    view = state.public_view()
    scores = state.result()["scores"]
    summaries = view.get("round_summaries", [])
    piles = [pile for summary in summaries for side in summary["expeditions"] for pile in side.values()]
    return {
        "rounds": float(len(summaries)),
        "first_player": float(summaries[0]["starter"]) if summaries else 0.0,
        "margin": float(abs(scores[0] - scores[1])),
        "eight_card_bonuses": float(sum(1 for pile in piles if len(pile) >= 8)),
        "wagers_played": float(sum(1 for pile in piles for card in pile if card.endswith("w"))),
    }


def _lost_ranks(state: State) -> Measures:
    result = state.result()
    armies = list(result["army_scores"].values())
    winner = None if result["draw"] else result["winner"]
    # LR-19: the deal passes one seat clockwise a round; the final view shows the last dealer.
    first_dealer = (state.public_view()["dealer"] - (result["rounds"] - 1)) % state.game.num_players
    return {
        "first_dealer": float(first_dealer),
        "red_army_won": float(winner == "red"),
        "black_army_won": float(winner == "black"),
        "rounds": float(result["rounds"]),
        "margin": float(abs(armies[0] - armies[1])),
        "tiebreak_rounds": float(result["tiebreak_rounds"]),
        "draw": float(bool(result["draw"])),
    }


def _rank(state: State) -> Measures:
    return {"first_dealer": float(state.public_view()["dealer"])}


GAME_MEASURES: dict[str, Callable[[State], Measures]] = {
    "lost-cities": _lost_cities,
    "lost-ranks": _lost_ranks,
    "rank": _rank,
}

SEAT_MEASURES: dict[str, str] = {
    "first_player": "first player",
    "first_dealer": "first dealer",
}
"""Measures that name a seat: the report tests whether that seat's side does better than
the fair share (the first player's and the dealer's advantage)."""

def _rank_events(details: Sequence[Any]) -> Measures:
    return {
        "pull_backs_won": float(sum(1 for d in details if d.kind == "pull_back")),
        "pull_backs_failed": float(sum(1 for d in details if d.kind == "player_out" and d.by is not None)),
        "anti_rank_declarations": float(sum(1 for d in details if d.kind == "anti_rank_declared")),
    }


def _lost_ranks_events(details: Sequence[Any]) -> Measures:
    return {"no_winner_tricks": float(sum(1 for d in details if d.kind == "no_winner_trick"))}


EVENT_MEASURES: dict[str, Callable[[Sequence[Any]], Measures]] = {
    "rank": _rank_events,
    "lost-ranks": _lost_ranks_events,
}
"""Game → measures read from a match's typed event details, in order."""

SIDES: dict[str, dict[str, str]] = {
    "lost-ranks": {"red_army_won": "the red army", "black_army_won": "the black army"},
}
"""Game → {measure: side}: sides that are not seats (Lost Ranks deals the armies to the
partnerships afresh each match, LR-3), whose fairness the report tests like the seats'."""

HEADLINE: dict[str, tuple[str, str]] = {
    "lost-cities": ("win", "wins"),
    "lost-ranks": ("win", "wins"),
    "rank": ("loss", "is left in Rank"),
}
"""Game → (which outcome the headline rate counts, how to say it)."""


def measures_of(state: State, events: Iterable[Event] = ()) -> Measures:
    """The per-game measures of a finished match whose events were ``events`` (none for a
    game not in the tables)."""
    measure = GAME_MEASURES.get(state.game.name)
    from_events = EVENT_MEASURES.get(state.game.name)
    out = measure(state) if measure is not None else {}
    if from_events is not None:
        out.update(from_events([d for event in events for d in getattr(event, "details", ())]))
    return out


def headline_of(game_name: str) -> tuple[str, str]:
    return HEADLINE.get(game_name, ("win", "wins"))
