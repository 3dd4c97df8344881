"""A heuristic player for Ранг (Rank) that reads only its view.

Two facts of the rules shape it.  First, RG-4 makes a turn end only when the player
is stuck (or out), and an Ace, King or joker can always be played, so *between
turns nobody holds an Ace, King or joker* except cards from the deal or from a
pull-back.  Second, a player who ended a turn (drew an unplayable card, passed,
or was forced to play any card in Anti-Rank) holds nothing one rank from, or
equal to, the top card they were stuck on — and their hand has not changed since.

The agent therefore:

* **plays long runs** — a depth-first search over its own hand (suits never
  matter, so it searches rank counts) finds the order of plays that sheds the
  most cards this turn; Aces, Kings and jokers are kept as *escapes*, used as late
  in the chain as possible to bridge to the next run (ties favour playing plain
  cards first);
* **times its last card** — when the hand can be emptied, it prefers the order
  whose last card leaves the next player most likely stuck (so the pull-back of
  RG-6 fails and it is out), estimated from the unseen cards and the next
  player's revealed exclusions;
* in **Anti-Rank** (RG-8) it throws the card whose loss keeps the rest of its hand
  most playable.
"""

from __future__ import annotations

from typing import Any

from cardtable.agents.base import Agent, Observation
from cardtable.cards import FRENCH_NAMES
from cardtable.games.rank.decisions import ANSWERS, JK, anti_choice, playable_ranks, stuck_table, turn_choice

_KIND_OF = {name: k for k, name in enumerate(FRENCH_NAMES)}


def rank_of_kind(kind: int) -> int:
    """The heuristic's rank index of a card kind (0 = two … 12 = ace, :data:`JK` the joker)."""
    return JK if kind == 52 else kind % 13


def answers(top: int) -> tuple[int, ...]:
    """Ranks that can be played on a card of rank ``top`` at some RG-4 tier."""
    return tuple(r for r in range(14) if ANSWERS[top] >> r & 1)


class RankHeuristic(Agent):
    """Long runs, escapes kept for bridges, last card timed against the next player.

    The choices are :mod:`cardtable.games.rank.decisions` (shared with the compiled
    kernel); this class reads their inputs from the view."""

    name = "heuristic"

    def act(self, obs: Observation) -> int:
        legal = obs.legal_actions
        if len(legal) <= 1:
            return legal[0]
        view = obs.view
        me = int(view["player"])
        counts = [0] * 14
        for c in view["hand"]:
            counts[rank_of_kind(_KIND_OF[c])] += 1
        by_rank: dict[int, int] = {}
        for a in legal:
            if a < 53:
                by_rank.setdefault(rank_of_kind(a), a)
        ranks = sorted(by_rank)
        noise = [self.rng.random() for _ in ranks]
        return by_rank[ranks[rank_choice(view, me, counts, ranks, noise)]]


def rank_choice(view: dict[str, Any], me: int, counts: list[int], ranks: list[int], noise: list[float]) -> int:
    """The index in ``ranks`` (the ranks ``me`` may play, ascending) of the rank the
    heuristic plays with the hand ``counts`` (by rank) in ``view``; ties go to the larger
    ``noise``.  Reads of the view only ``packs``, ``pile``, ``in_game``, ``hand_sizes``,
    ``log``, ``anti_rank`` and ``stock``: the hand is ``counts``, so the choice can be
    asked of any hand (:mod:`cardtable.games.rank.inference` replays the others' plays)."""
    stuck = _next_player_stuck(view, _next_seat(view, me), _unseen(view, counts))
    if view["anti_rank"]["active"]:
        return anti_choice(counts, ranks, noise, stuck)
    return turn_choice(counts, ranks, noise, stuck, int(view["stock"]))


def would_play(view: dict[str, Any], me: int, counts: list[int], rank: int) -> bool:
    """Whether the heuristic, holding ``counts`` (by rank) in ``view``, plays ``rank`` (one
    of its tied best moves; a hand that may not play it, RG-4, RG-8, does not): the question
    the search's inference asks of the others' past plays (:mod:`cardtable.games.rank.inference`)."""
    if view["anti_rank"]["active"]:
        ranks = [r for r in range(len(counts)) if counts[r]]
    else:
        ranks = playable_ranks(counts, rank_of_kind(_KIND_OF[view["pile"][-1]]))
    if rank not in ranks:
        return False
    if len(ranks) == 1:
        return True
    at = ranks.index(rank)
    return rank_choice(view, me, counts, ranks, [1.0 if i == at else 0.0 for i in range(len(ranks))]) == at


def rank_counts(kinds: list[int]) -> list[int]:
    """Cards (kinds) counted by the heuristic's rank index."""
    counts = [0] * 14
    for k in kinds:
        counts[rank_of_kind(k)] += 1
    return counts


def _unseen(view: dict[str, Any], counts: list[int]) -> list[int]:
    """Cards by rank that are neither on the pile nor in the hand ``counts``."""
    packs = int(view["packs"])
    unseen = [4 * packs] * 13 + [2 * packs]
    for c in view["pile"]:
        unseen[rank_of_kind(_KIND_OF[c])] -= 1
    for r in range(14):
        unseen[r] -= counts[r]
    return [max(0, u) for u in unseen]


def _next_seat(view: dict[str, Any], me: int) -> int:
    seats = [int(s) for s in view["in_game"] if s != me]
    if not seats:
        return me
    later = [s for s in seats if s > me]
    return later[0] if later else seats[0]


def _next_player_stuck(view: dict[str, Any], seat: int, unseen: list[int]) -> list[float]:
    """Per top rank, the chance that ``seat`` can play nothing on it: its hand modelled
    as cards drawn from the unseen pool minus the ranks its play has shown it lacks."""
    size = int(view["hand_sizes"][seat])
    excluded = _exclusions(view).get(seat, set())
    pool = [0 if r in excluded else u for r, u in enumerate(unseen)]
    if sum(pool) < size:
        pool = unseen
    return stuck_table(pool, sum(pool), size)


def _exclusions(view: dict[str, Any]) -> dict[int, set[int]]:
    """Ranks each seat is known not to hold, from the last time it was stuck.

    A seat that drew an unplayable card, passed, or had to play any card in
    Anti-Rank held no card playable on the top card then (RG-4, RG-5, RG-8), and its
    hand has only lost cards since — unless a pull-back (RG-6) gave it new ones.
    """
    pile = view["pile"]
    index = 0
    out: dict[int, set[int]] = {}
    for e in view["log"]:
        kind = e["event"]
        seat = int(e["seat"])
        if kind == "play":
            if e.get("anti_rank"):
                out[seat] = set(answers(rank_of_kind(_KIND_OF[pile[index]])))
            index += 1
        elif (kind == "draw" and not e["played"]) or kind == "pass":
            out[seat] = set(answers(rank_of_kind(_KIND_OF[pile[index]])))
        elif kind == "anti-rank":  # nobody could play on the top card (RG-8)
            stuck = set(answers(rank_of_kind(_KIND_OF[pile[index]])))
            for other in range(len(view["hand_sizes"])):
                out[other] = stuck
        elif kind == "pull-back":
            out.pop(seat, None)
    return out
