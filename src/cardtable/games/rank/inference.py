"""Ранг: the others' plays since their last unseen card, replayable in a sampled world.

A sampled world (``resample``) deals the unseen cards uniformly among the hands the view
allows (RG-9: a seat stuck on a card holds nothing that answers it, and so on).  The
others' plays say more: a heuristic player plays the card its hand makes best.  A seat's
hand changes only by its own plays, which everybody sees, and by the cards it draws
(RG-5) or takes back (RG-6), which only it sees.  So from a seat's last unseen card on,
its hand at any of its plays is exactly its hand now plus the cards it has played since
— in a sampled world, its world hand plus those cards.  Each such play can then be asked
again: "with *this* hand, would the heuristic have played that card?"
(:func:`~cardtable.games.rank.heuristic.would_play`, the bot's own decision, any of its
tied best moves counting as its choice; the search's knowledge asks it,
:meth:`~cardtable.games.rank.knowledge.RankKnowledge.missed_plays`).

While the stock lasts every turn ends with a draw (or the last card), so there is little
to ask; once it is out nobody draws again, and each seat's plays reach back to its last
draw — often a turn or more before the stock ran out.  A drawn card that had to be played
at once (RG-5) is no unseen card and no choice: it is neither asked nor counted.

:class:`PlayLog` holds what is the same in every world of one observation: each such
play, with the public facts the heuristic read when it was made (the pile, log, stock,
hand sizes and seats in the game then).  Computed from the view alone; the standard
library, the core and the engine only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cardtable.cards import parse_french
from cardtable.protocol import JSON


@dataclass
class PastPlay:
    """One play by another seat since its last unseen card, and what was public then."""

    seat: int
    card: int
    """The card (kind) it played."""
    since: tuple[int, ...]
    """The cards (kinds) ``seat`` has played from this play on, this one included: its hand
    then is its hand now plus these (RG-5, RG-6)."""
    view: dict[str, Any]
    """The public part of a view just before the play, as the heuristic reads it: ``packs``,
    ``pile`` (its last card the top then), ``log``, ``hand_sizes``, ``in_game``,
    ``anti_rank`` (``active``: RG-8 was on) and ``stock``."""
    answers: dict[tuple[int, ...], bool] = field(default_factory=dict)
    """A cache for whoever replays the play: its answer per hand (worlds repeat hands)."""


@dataclass(frozen=True)
class PlayLog:
    """The others' plays since their last unseen card, in one observation (module docstring)."""

    plays: tuple[PastPlay, ...]

    @classmethod
    def of(cls, view: dict[str, JSON]) -> PlayLog:
        """The plays of each seat other than the viewer still holding cards, made after its
        last unplayed draw or pull-back, but for a drawn card's forced play (RG-5)."""
        log, pile = view["log"], view["pile"]
        assert isinstance(log, list) and isinstance(pile, list)
        me = int(str(view["player"]))
        sizes = [int(str(x)) for x in view["hand_sizes"]]
        asked = [s != me and sizes[s] > 0 for s in range(len(sizes))]
        since: list[list[int]] = [[] for _ in sizes]
        in_game = {int(str(x)) for x in view["in_game"]}
        stock = int(str(view["stock"]))
        index = len(pile) - 1  # pile[index] is the card the entry below was played on…
        plays: list[PastPlay] = []
        for i in range(len(log) - 1, 0, -1):  # entry 0 turned up the first card (RG-2)
            if not any(asked):
                break
            entry = log[i]
            assert isinstance(entry, dict)
            kind, seat = entry["event"], int(str(entry["seat"]))
            if kind == "out":
                in_game.add(seat)
            elif kind in ("draw", "pull-back"):
                cards = 1 if kind == "draw" else int(str(entry["cards"]))
                stock += cards
                sizes[seat] -= cards
                if kind == "pull-back" or not entry["played"]:
                    asked[seat] = False  # unseen cards came in: earlier hands are unknown
            elif kind == "play":
                sizes[seat] += 1
                index -= 1  # …once the card it played is off the pile
                previous = log[i - 1]
                assert isinstance(previous, dict)
                if not asked[seat] or (previous["event"] == "draw" and previous["played"]):
                    continue  # a playable draw must be played (RG-5): no choice, not held before
                card = parse_french(str(entry["card"]))
                since[seat].append(card)
                public = {"packs": view["packs"], "pile": pile[:index + 1], "log": log[:i],
                          "hand_sizes": list(sizes), "in_game": sorted(in_game),
                          "anti_rank": {"active": bool(entry["anti_rank"])}, "stock": stock}
                plays.append(PastPlay(seat, card, tuple(since[seat]), public))
        plays.reverse()
        return cls(tuple(plays))
