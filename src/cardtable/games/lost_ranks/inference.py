"""Command of Two: the round so far, replayable in a sampled world (for inference from play).

A sampled world (``resample``) deals the cards a seat cannot see uniformly among those the
view allows (voids, LR-7, LR-20).  The opponent's plays say more than its voids: a
heuristic opponent plays what its cards make best.  To ask "would it have played so with
*these* cards?" a world's round is replayed from its start.  The round's start is
rebuilt from public facts only (LR-20: every card played, by whom, from which source, and
the drawn card that went face up, LR-14 — the view's ``log``) and the world's cards:

* a seat's hand at the start: its hand in the world and the cards it played from it;
* its phantom deck at the start (LR-12, top first): the face-down cards it drew, in the
  order they were drawn (each draw takes the top two; the card not played goes face up to
  the bottom, so face-down cards are always on top), then its face-down cards in the
  world.  Within a drawn pair the order is not public and does not matter to the play;
  the played card is put first.

:class:`RoundLog` holds what is the same in every world of one observation (the actions
of the round and the cards drawn from each phantom deck); :meth:`RoundLog.start` adds a
world's cards.  Standard library only; the replay itself runs in the compiled kernel
(:func:`cardtable.games.lost_ranks.kernel.heuristic_misses`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cardtable.cards import parse_french
from cardtable.games.lost_ranks.rules import DRAW, PHANTOM_BASE, LostRanksState
from cardtable.protocol import JSON

PHANTOM_SIZE = 9
"""Cards in each phantom deck at the start of a Command of Two round (LR-4)."""


@dataclass(frozen=True)
class RoundStart:
    """A world's round at its start: each seat's hand (a card mask) and phantom deck (top
    first), the seat that leads and the card it must lead (LR-6; -1 none)."""

    hands: tuple[int, int]
    phantoms: tuple[tuple[int, ...], tuple[int, ...]]
    leader: int
    forced: int


@dataclass(frozen=True)
class RoundLog:
    """The public course of the current Command of Two round (see the module docstring)."""

    actions: tuple[int, ...]
    """The round's actions so far (the engine's ids), a drawn pair not yet played left out."""
    hand_played: tuple[int, int]
    """Per seat, the mask of the cards it played from its hand."""
    drawn_down: tuple[tuple[int, ...], tuple[int, ...]]
    """Per seat, the face-down cards drawn from its phantom deck, in drawing order."""
    face_up: tuple[tuple[int, ...], tuple[int, ...]]
    """Per seat, the face-up cards its phantom deck holds now, top first (a check)."""
    leader: int
    """The seat that led the round's first trick (-1: none yet)."""

    @classmethod
    def of(cls, view: dict[str, JSON]) -> RoundLog | None:
        """The log of a Command of Two view (with the viewer's own drawn pair not yet
        played, which only its view shows).  ``None`` when the log does not add up."""
        entries = view["log"]
        assert isinstance(entries, list)
        actions: list[int] = []
        hand_played = [0, 0]
        queues: list[list[int]] = [[-1] * PHANTOM_SIZE, [-1] * PHANTOM_SIZE]  # -1: a face-down card
        drawn: list[list[int]] = [[], []]
        leader = -1
        for entry in entries:
            assert isinstance(entry, dict)
            if "card" not in entry:
                continue
            seat, card = int(str(entry["seat"])), parse_french(str(entry["card"]))
            leader = seat if leader < 0 else leader
            if entry["source"] == "hand":
                actions.append(card)
                hand_played[seat] |= 1 << card
                continue
            other = entry.get("face_up")
            pair = [card] if other is None else [card, parse_french(str(other))]
            if not _draw(queues[seat], drawn[seat], pair):
                return None
            actions.extend([DRAW] if other is None else [DRAW, PHANTOM_BASE + card])
            if other is not None:
                queues[seat].append(pair[1])
        pending = view["drawn"]
        if isinstance(pending, dict):
            cards = pending["cards"]
            assert isinstance(cards, list)
            mover = int(str(pending["player"]))
            if None in cards or not _draw(queues[mover], drawn[mover], [parse_french(str(c)) for c in cards]):
                return None
        ups = tuple(tuple(c for c in q if c >= 0) for q in queues)
        return cls(tuple(actions), (hand_played[0], hand_played[1]), (tuple(drawn[0]), tuple(drawn[1])),
                   (ups[0], ups[1]), leader)

    def start(self, world: LostRanksState) -> RoundStart | None:
        """The round's start in ``world`` (``None`` when the world's phantom decks do not
        match the log: not a world of this observation)."""
        hands = world.hand_masks
        down = world.face_down_counts
        decks: list[tuple[int, ...]] = []
        for seat in range(2):
            deck = world.phantom_cards(seat)
            if tuple(deck[down[seat]:]) != self.face_up[seat]:
                return None
            start = self.drawn_down[seat] + tuple(deck[: down[seat]])
            if len(start) != PHANTOM_SIZE:
                return None
            decks.append(start)
        start_hands = (hands[0] | self.hand_played[0], hands[1] | self.hand_played[1])
        leader, forced = first_lead(start_hands, world.dealer)
        if self.leader >= 0 and leader != self.leader:
            return None
        return RoundStart(start_hands, (decks[0], decks[1]), leader, forced)


def _draw(queue: list[int], drawn: list[int], pair: list[int]) -> bool:
    """Take ``len(pair)`` cards off the top of a phantom deck ``queue`` (-1 face down):
    the face-down ones are the cards of ``pair`` not known face up, appended to
    ``drawn``.  ``False`` when the pair does not fit the deck."""
    if len(queue) < len(pair):
        return False
    top = queue[: len(pair)]
    del queue[: len(pair)]
    unknown = [c for c in pair if c not in top]
    if sum(1 for c in top if c < 0) != len(unknown) or any(c >= 0 and c not in pair for c in top):
        return False
    drawn.extend(unknown)
    return True


def first_lead(hands: Sequence[int], dealer: int) -> tuple[int, int]:
    """LR-6 with 2 players: the holder of A♥ leads it, else the holder of A♦, else the
    player who is not the dealer leads any card; ``(leader, forced card or -1)``."""
    for ace in ("AH", "AD"):
        card = parse_french(ace)
        for seat in range(2):
            if hands[seat] >> card & 1:
                return seat, card
    return 1 - dealer, -1
