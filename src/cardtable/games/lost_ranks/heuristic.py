"""A rule-based Lost Ranks player that reads only its view.

It scores each legal move by the soldiers at stake in the trick (LR-15): the Spy is worth
+2 to whoever captures it, an active Jack +2 to its own army if that army captures it,
and an active enemy Jack is denied by capturing or discarding it.  For every candidate
card it estimates the chance that its army ends up winning the trick (certain when it
plays last; otherwise from the unseen cards that could still beat the winning card and
the known voids), adds the stake, and subtracts what the card is worth kept in hand
(trumps and masters are resources, an own active Jack or the Spy is best fed into a
trick its army wins).  So it protects its active Jacks, feeds partner-won tricks with
soldiers, trumps in to capture enemy-won soldiers, avoids leading Jacks into tricks
that may have no winner, and plays low when it cannot win.

Later enemy seats are assumed to find their best card only part of the time
(``enemy_fight``): fully pessimistic estimates kept soldiers in hand until the last
tricks forced them out.  For the same reason the Spy and the own active Jacks are kept
less and less as the hand empties (``keep_fade``), and a Jack is led only when the partner
is clearly placed to win it.

With 2 players (Command of Two) a soldier can never win, so whoever plays one hands it to
the other army unless the trick has no winner (LR-10, LR-11): the Spy and the enemy's
active Jacks in the bot's own hand or phantom deck are liabilities, its own active Jacks
are junk, and what it can gain are the soldiers the opponent plays.  A lead is valued by
the opponent's possible answers (:class:`_Two`): from the top two of its phantom deck
(face-up cards known, face-down ones drawn from the unseen cards, with the suits its
hand has shown void in all in the phantom) when the lead comes from the hand, or from its
real hand (hypergeometric) when the lead comes from the phantom deck (LR-13, LR-14) — the
chance that it takes the trick, dumps the Spy or an active Jack of the bot's army on a led
Jack, or must give one up.  So the bot sheds an enemy Jack where the answer cannot take
it, does not lead Jacks into a Spy the opponent could dump, keeps the Spy while Jacks the
opponent might lead remain (a Spy played on a led Jack is discarded), and makes voids
while it holds the Spy.  Followed tricks are exact: both cards are known.

Strength against ``random`` (matches won): 4 players (a heuristic partnership against a
random one) 0.900 on seeds 0–999, 0.902 on 5000–5399, 0.917 on 20000–20399 (before the
changes above 0.905, 0.880, 0.848); 2 players 0.709 on seeds 0–999, 0.708 on 1000–1999 (before
0.684 and 0.695).  With 2 players every round starts with a ±2 coin flip — who was dealt
the Spy — which good play can only partly undo: an idealised model of the round in
``docs/strength.md`` needs flawless Jack play and 40 % of the Spies dodged to reach 0.90.

The decisions are :mod:`cardtable.games.lost_ranks.decisions` (shared with the compiled
kernel); this module reads their inputs, what the seat knows, from its view.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardtable.agents.base import Agent, Observation
from cardtable.cards import SUIT_WORDS, parse_french
from cardtable.games.lost_ranks import decisions as d
from cardtable.games.lost_ranks.rules import ALL_CARDS
from cardtable.protocol import JSON

ARMY_INDEX = {"red": 0, "black": 1}
AVOID = d.avoid_table()
""":func:`~cardtable.games.lost_ranks.decisions.avoid_table`, made once."""


def _mask(names: Sequence[JSON]) -> int:
    """The card mask of the named cards (``None``: a card not seen, left out)."""
    m = 0
    for name in names:
        if name is not None:
            m |= 1 << parse_french(str(name))
    return m


def _phantom(k: list[int], at: int, names: Sequence[JSON]) -> int:
    """Writes a phantom deck (top first, -1 for a face-down card) from slot ``at + 1`` on
    and its size at ``at``; returns the mask of its visible cards."""
    k[at] = len(names)
    seen = 0
    for i, name in enumerate(names):
        k[at + 1 + i] = -1 if name is None else parse_french(str(name))
        seen |= 0 if name is None else 1 << k[at + 1 + i]
    return seen


def knowledge(view: dict[str, JSON]) -> list[int]:
    """What the seat of ``view`` knows, as :mod:`~cardtable.games.lost_ranks.decisions`
    reads it (its knowledge slots)."""
    k = [0] * d.KNOWLEDGE
    me, n = int(view["player"]), int(view["players"])
    k[d.ME], k[d.PLAYERS] = me, n
    k[d.TRUMP] = SUIT_WORDS.index(str(view["trump_suit"]))
    k[d.FORCE] = int(bool(view["force_strength"]))
    k[d.HAND] = hand = _mask(view["hand"])
    led = view["led_suit"]
    k[d.LED] = SUIT_WORDS.index(str(led)) if led is not None else -1
    trick = view["trick"]
    k[d.TRICK_N] = len(trick)
    played = 0
    for i, t in enumerate(trick):
        k[d.TRICK_SEAT + i], k[d.TRICK_CARD + i] = int(t["seat"]), parse_french(t["card"])
        played |= 1 << k[d.TRICK_CARD + i]
    for q in range(n):
        k[d.ARMY + q] = ARMY_INDEX[str(view["armies"][q])]
        k[d.VOIDS + q] = sum(1 << SUIT_WORDS.index(str(w)) for w in view["voids"][q])
        k[d.SIZES + q] = int(view["hand_sizes"][q])
    captured = view["captured"]
    gone = played | _mask([view["trump_card"]]) | _mask(view["discards"])
    for pile in captured.values():
        gone |= _mask(pile)
    k[d.LIVE] = ALL_CARDS & ~gone
    known = gone | hand
    if n == 2:
        phantoms = view["phantoms"]
        known |= _phantom(k, d.MY_PHANTOM_N, phantoms[me]) | _phantom(k, d.OPP_PHANTOM_N, phantoms[1 - me])
        drawn = view["drawn"]
        if isinstance(drawn, dict):
            known |= _mask(drawn["cards"])
    k[d.UNSEEN] = ALL_CARDS & ~known
    return k


class LostRanksHeuristic(Agent):
    """Soldier-aware card play for both modes (see the module docstring).

    The choices are :func:`cardtable.games.lost_ranks.decisions.choose` over
    :func:`knowledge`; one tie-breaking number per legal action from the agent's
    generator."""

    name = "heuristic"

    def act(self, obs: Observation) -> int:
        legal = list(obs.legal_actions)
        if len(legal) == 1:
            return legal[0]
        noise = [self.rng.random() for _ in legal]
        return legal[d.choose(knowledge(obs.view), legal, noise, AVOID, [0.0] * d.WORK)]
