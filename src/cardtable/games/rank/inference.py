"""Ранг: the others' plays since the stock ran out, replayable in a sampled world.

A sampled world (``resample``) deals the unseen cards uniformly among the hands the view
allows (RG-9: a seat stuck on a card holds nothing that answers it, and so on).  The
others' plays say more: a heuristic player plays the card its hand makes best.  Once the
stock is empty nobody draws again (RG-5, RG-6), so a seat's hand at any later move is
exactly its hand now plus the cards it has played since — in a sampled world, its
world hand plus those cards.  Each such play can then be asked again: "with *this* hand,
would the heuristic have played that rank?" (:func:`~cardtable.games.rank.heuristic.rank_choice`,
the bot's own decision, any of its tied best moves counting as its choice).

:class:`EndgameLog` holds what is the same in every world of one observation — each
play since the stock ran out, with the public facts the heuristic read when it was made
(the pile and log up to it, the hand sizes and the seats in the game then) — and counts a
world's *misses*: the plays the heuristic would not have made with the world's hands.
Computed from the view alone, with the heuristic bot's own decision code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cardtable.cards import parse_french
from cardtable.games.rank.decisions import _moves as playable_ranks  # RG-4's tiers, by rank
from cardtable.games.rank.heuristic import rank_choice, rank_of_kind
from cardtable.games.rank.rules import HAND_SIZE
from cardtable.protocol import JSON

RANKS = 14
"""Ranks 0 = two … 12 = ace and 13 = the joker (:mod:`cardtable.games.rank.decisions`)."""


@dataclass
class PastPlay:
    """One play by another seat after the stock ran out, and what was public then."""

    seat: int
    played: int
    """The rank it played."""
    top: int
    """The rank of the top card it played on."""
    anti: bool
    """Whether Anti-Rank was on (RG-8: any card of the hand may be played)."""
    since: tuple[int, ...]
    """Per rank, the cards ``seat`` has played from this play on (this one included)."""
    view: dict[str, Any]
    """The public part of a view at that moment, as :func:`rank_choice` reads it."""
    known: dict[tuple[int, ...], bool] = field(default_factory=dict)
    """Per hand (ranks), whether the heuristic would have played so: worlds repeat hands."""

    def missed(self, hand: list[int]) -> bool:
        """Whether the heuristic, holding ``hand`` (ranks, the seat's hand *now*), would
        not have made this play (a hand that could not make it counts as a miss)."""
        counts = [h + s for h, s in zip(hand, self.since)]
        key = tuple(counts)
        got = self.known.get(key)
        if got is None:
            got = self.known[key] = not self._chosen(counts)
        return got

    def _chosen(self, counts: list[int]) -> bool:
        if self.anti:
            ranks = [r for r in range(RANKS) if counts[r]]
        else:
            n, packed = playable_ranks(counts, self.top)
            ranks = sorted(packed >> 4 * i & 15 for i in range(n))
        if self.played not in ranks:
            return False
        if len(ranks) == 1:
            return True
        at = ranks.index(self.played)
        favour = [1.0 if i == at else 0.0 for i in range(len(ranks))]  # wins every tie
        return rank_choice(self.view, self.seat, counts, ranks, favour) == at


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
        since = [[0] * RANKS for _ in range(int(str(view["players"])))]
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
            played = rank_of_kind(parse_french(str(entry["card"])))
            since[seat][played] += 1
            sizes[seat] += 1
            index -= 1  # …once the card it played is off the pile
            previous = log[i - 1]
            assert isinstance(previous, dict)
            if seat == me or (previous["event"] == "draw" and previous["played"]):
                continue  # a playable draw must be played (RG-5): no choice
            public = {"packs": view["packs"], "pile": pile[:index + 1], "log": log[:i],
                      "hand_sizes": list(sizes), "in_game": sorted(in_game),
                      "anti_rank": {"active": bool(entry["anti_rank"])}, "stock": 0}
            plays.append(PastPlay(seat, played, rank_of_kind(parse_french(str(pile[index]))),
                                  bool(entry["anti_rank"]), tuple(since[seat]), public))
        plays.reverse()
        return cls(tuple(plays))

    def misses(self, hands: list[list[int]]) -> int:
        """How many of the plays the heuristic would not have made with ``hands`` (per
        seat, its cards now by rank)."""
        return sum(play.missed(hands[play.seat]) for play in self.plays)


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


def ranks_of(cards: list[int]) -> list[int]:
    """A hand of card kinds counted by rank."""
    counts = [0] * RANKS
    for k in cards:
        counts[rank_of_kind(k)] += 1
    return counts
