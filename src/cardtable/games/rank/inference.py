"""Ранг: the others' plays since the stock ran out, replayable in a sampled world.

A sampled world (``resample``) deals the unseen cards uniformly among the hands the view
allows (RG-9: a seat stuck on a card holds nothing that answers it, and so on).  The
others' plays say more: a heuristic player plays the card its hand makes best.  Once the
stock is empty nobody draws again (RG-5, RG-6), so a seat's hand at any later move is
exactly its hand now plus the cards it has played since — in a sampled world, its
world hand plus those cards.  Each such play can then be asked again: "with *this* hand,
would the heuristic have played that card?" (:func:`~cardtable.games.rank.heuristic.would_play`,
the bot's own decision, any of its tied best moves counting as its choice; the search's
knowledge asks it, :meth:`~cardtable.games.rank.knowledge.RankKnowledge.missed_plays`).

:class:`EndgameLog` holds what is the same in every world of one observation: each
play since the stock ran out, with the public facts the heuristic read when it was made
(the pile and log up to it, the hand sizes and the seats in the game then).  Computed
from the view alone; the standard library, the core and the engine only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cardtable.cards import parse_french
from cardtable.games.rank.rules import HAND_SIZE
from cardtable.protocol import JSON


@dataclass
class PastPlay:
    """One play by another seat after the stock ran out, and what was public then."""

    seat: int
    card: int
    """The card (kind) it played."""
    since: tuple[int, ...]
    """The cards (kinds) ``seat`` has played from this play on, this one included: its hand
    then is its hand now plus these (RG-5, RG-6)."""
    view: dict[str, Any]
    """The public part of a view just before the play, as the heuristic reads it: ``packs``,
    ``pile`` (its last card the top then), ``log``, ``hand_sizes``, ``in_game``,
    ``anti_rank`` (``active``: RG-8 was on) and ``stock`` (0)."""
    answers: dict[tuple[int, ...], bool] = field(default_factory=dict)
    """A cache for whoever replays the play: its answer per hand (worlds repeat hands)."""


@dataclass(frozen=True)
class EndgameLog:
    """The others' plays since the stock ran out, in one observation (module docstring)."""

    plays: tuple[PastPlay, ...]

    @classmethod
    def of(cls, view: dict[str, JSON]) -> EndgameLog:
        """The plays of seats other than the viewer after the stock ran out (none while it
        lasts), but for a drawn card's forced play."""
        if int(str(view["stock"])) > 0:
            return cls(())
        log = view["log"]
        pile = view["pile"]
        assert isinstance(log, list) and isinstance(pile, list)
        me = int(str(view["player"]))
        start = _stock_out_entry(view)
        plays: list[PastPlay] = []
        since: list[list[int]] = [[] for _ in range(int(str(view["players"])))]
        sizes = [int(str(x)) for x in view["hand_sizes"]]
        in_game = {int(str(x)) for x in view["in_game"]}
        index = len(pile) - 1  # pile[index] is the card the entry below was played on…
        for i in range(len(log) - 1, start, -1):
            entry = log[i]
            assert isinstance(entry, dict)
            kind, seat = entry["event"], int(str(entry["seat"]))
            if kind == "out":
                in_game.add(seat)
            if kind != "play":
                continue
            card = parse_french(str(entry["card"]))
            since[seat].append(card)
            sizes[seat] += 1
            index -= 1  # …once the card it played is off the pile
            previous = log[i - 1]
            assert isinstance(previous, dict)
            if seat == me or (previous["event"] == "draw" and previous["played"]):
                continue  # a playable draw must be played (RG-5): no choice
            public = {"packs": view["packs"], "pile": pile[:index + 1], "log": log[:i],
                      "hand_sizes": list(sizes), "in_game": sorted(in_game),
                      "anti_rank": {"active": bool(entry["anti_rank"])}, "stock": 0}
            plays.append(PastPlay(seat, card, tuple(since[seat]), public))
        plays.reverse()
        return cls(tuple(plays))


def _stock_out_entry(view: dict[str, JSON]) -> int:
    """The index in the view's log of the draw (or pull-back) that emptied the stock
    (RG-2: what the deal and the turned-up card leave, RG-5, RG-6); -1 if it never held a card."""
    log = view["log"]
    assert isinstance(log, list)
    players = int(str(view["players"]))
    deck = 54 * int(str(view["packs"]))
    hand = int(str(view.get("hand_size", HAND_SIZE)))
    stock = deck - players * hand - 1
    if stock <= 0:
        return -1
    for i, entry in enumerate(log):
        assert isinstance(entry, dict)
        if entry["event"] == "draw":
            stock -= 1
        elif entry["event"] == "pull-back":
            stock -= int(str(entry["cards"]))
        if stock <= 0:
            return i
    return len(log)
