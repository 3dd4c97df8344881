"""A rule-based Lost Cities player that reads only what its seat sees (LC-8).

How it plays
    * **Commits to a few colours.**  Each colour gets a projected LC-6 score
      (:func:`~cardtable.games.lost_cities.decisions.plan`): the cards of that colour it can still
      place from its hand plus a discounted share of the live cards above them
      (unseen or on a discard pile).  It starts an expedition only when the
      projection beats a margin that grows with every expedition it already
      runs, and only if the cards fit in the turns left.
    * **Wagers early, and only with enough high cards**: a wager is part of the
      plan only if the *conservative* projection (hand cards plus a smaller
      share of the future) keeps ``sum - 20`` clearly positive, with at least
      three number cards of the colour in hand and time to lay them.
    * **Plays in ascending order without skipping much**: only the lowest
      playable card of a colour is a candidate, and playing it costs the
      expected value of the live cards it skips.  It plays when that cost is
      below the cost of its cheapest discard (plus a tempo penalty when it is
      running out of turns), so free plays go first and big jumps wait.
    * **Discards what the opponent cannot use**: a discard costs what the card
      is worth to its own plans plus what it is worth to the opponent — zero
      for cards below the opponent's expedition top (or wagers after their
      first number) in colours they have started, little for colours they
      show no interest in, a lot for cards that extend their expeditions.
    * **Draws useful discards**: a pile top whose marginal value to its plans
      (plus a little for denying it to the opponent) beats an average deck
      card; otherwise it draws from the deck.
    * **Stalls near the end when it is ahead on cards to place**: when it still
      holds more profitable placements than the turns left, it takes a
      discard-pile card instead of a draw-pile card, so the round lasts longer
      (LC-5).  It never stalls when the extra turns would not help it.

One implementation, two readers
    The decisions (:func:`policy_action`, and :func:`ranked_moves` for the
    search's candidates) are computed on card-set ints — the layout at the top
    of :mod:`cardtable.games.lost_cities` — through the few reads of
    :class:`LostCitiesTable`: the seat to move's hand, both expeditions, the
    discard-pile tops, the draw-pile count, the opponent's hand *size* and the
    cards the opponent took from discard piles (LC-8).  A
    :class:`~cardtable.games.lost_cities.LostCitiesState` offers these reads
    itself (the search's play-outs call :func:`policy_action` on sampled worlds,
    about 10 µs a move); the bot (:class:`LostCitiesHeuristic`) parses its
    seat's JSON view into a :class:`ViewTable` and calls the same function.

    The decision code itself lives in :mod:`cardtable.games.lost_cities.decisions`,
    plain functions over colour fields that this module runs as Python and
    :mod:`cardtable.games.lost_cities.kernel` compiles with numba: one heuristic.  A
    colour's plan depends only on the four 16-bit fields of that colour (own hand,
    own and opposing expedition, the opponent's known cards) plus a few per-turn
    numbers, so here the per-colour facts are computed once per field combination
    and cached (:data:`_INFO`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Protocol

from cardtable.agents.base import Agent, Observation
from cardtable.cards import COLOR_LETTERS, EXPEDITION_NAMES
from cardtable.games.lost_cities.decisions import (FIRST, Facts, colour_facts, draw_choice, draw_options, play_choice,
                                                  play_options, seat_numbers, STALL_REACH)
from cardtable.games.lost_cities import DRAW, card_set, card_set_size
from cardtable.protocol import JSON, Game

_KIND_OF = {name: k for k, name in enumerate(EXPEDITION_NAMES)}

START_MARGIN = 0.0
"""Projected score a first expedition must promise before the bot starts it."""
EXTRA_EXPEDITION_MARGIN = 6.0
"""Added to the margin for every expedition already under way beyond the second."""
WAGER_MIN_NUMBERS = 3
"""Number cards of the colour in hand (or placed) needed before wagering."""
FUTURE_SHARE = 0.6
"""Share of live cards above the lowest card in hand that the bot counts on."""
CONSERVATIVE = 0.9
"""Extra discount on the future when deciding on wagers."""
DECK_VALUE = 2.5
"""What an average draw-pile card is worth to the plans (for draw decisions)."""
DENIAL = 0.25
"""Weight of denying a pile top to the opponent when deciding to take it."""
TEMPO_WEIGHT = 6.0
"""Cost of a discard per (cards waiting to be laid / turns left)."""


@dataclass(frozen=True)
class LostCitiesStyle:
    """The heuristic's settings (defaults: the module constants above)."""

    start_margin: float = START_MARGIN
    extra_margin: float = EXTRA_EXPEDITION_MARGIN
    wager_min_numbers: int = WAGER_MIN_NUMBERS
    future_share: float = FUTURE_SHARE
    conservative: float = CONSERVATIVE
    deck_value: float = DECK_VALUE
    denial: float = DENIAL
    tempo_weight: float = TEMPO_WEIGHT


STYLES: dict[str, LostCitiesStyle] = {
    "steady": LostCitiesStyle(),
    "bold": LostCitiesStyle(start_margin=-3.0, wager_min_numbers=2, conservative=1.15),
    "cautious": LostCitiesStyle(start_margin=4.0, extra_margin=8.0, conservative=0.8),
    "eager": LostCitiesStyle(start_margin=-10.0, extra_margin=2.0, wager_min_numbers=2, future_share=0.75,
                             conservative=1.3),
    "hasty": LostCitiesStyle(tempo_weight=12.0, deck_value=3.5),
}
"""Named styles of :class:`LostCitiesHeuristic` (``heuristic:style=bold``).

``steady`` is the baseline bot (the ``heuristic`` of the targets in docs/strength.md).
``bold`` wagers with two number cards instead of three, counts the whole expected
future when it weighs a wager and starts a colour a little more readily; tuned by
playing it against ``steady`` (2000 matches per setting) it wins about 62 % of
5-colour matches.  The search agents play ``bold`` themselves in their play-outs
(:mod:`cardtable.games.lost_cities.knowledge`).

``cautious``, ``eager`` and ``hasty`` are the frozen **pool** (:data:`POOL`): players the
search is measured against but never tuned against (docs/strength.md).  ``cautious``
asks more of a new colour and of a wager; ``eager`` opens many colours and wagers with
two numbers, counting on much of the future; ``hasty`` lays its cards sooner (a heavy
tempo term) and takes few discards."""

POOL: Final = ("cautious", "eager", "hasty")
"""The styles the search is never tuned against (their settings are frozen by a test)."""




class LostCitiesTable(Protocol):
    """What the heuristic reads of a position: the seat to move's side of the table.

    :class:`~cardtable.games.lost_cities.LostCitiesState` provides these reads (its
    fast accessors), and so does :class:`ViewTable` from a seat's JSON view.  Card
    sets are in the layout of :mod:`cardtable.games.lost_cities`; the heuristic asks
    for the hand of the seat to move only."""

    @property
    def colors(self) -> int: ...
    @property
    def phase(self) -> int: ...
    @property
    def draw_pile_size(self) -> int: ...
    @property
    def drawable_piles(self) -> int: ...
    def current_player(self) -> int: ...
    def discard_top(self, colour: int) -> int: ...
    def hand_set(self, seat: int) -> int: ...
    def hand_size(self, seat: int) -> int: ...
    def expedition_set(self, seat: int) -> int: ...
    def known_set(self, seat: int) -> int: ...


class ViewTable:
    """A :class:`LostCitiesTable` read from the JSON view of the seat to move (LC-8)."""

    __slots__ = ("colors", "phase", "draw_pile_size", "drawable_piles", "_player", "_hand",
                 "_hand_sizes", "_expeditions", "_known", "_tops")

    def __init__(self, view: dict[str, JSON]) -> None:
        v: dict[str, Any] = view
        me: int = v["player"]
        if v["current_player"] != me:
            raise ValueError(f"the view is seat {me}'s, but seat {v['current_player']} is to move")
        colors = len(v["colors"])
        letters = COLOR_LETTERS[:colors]
        self._player = me
        self.colors = colors
        self.phase = DRAW if v["phase"] == "draw" else 0
        self.draw_pile_size: int = v["draw_pile"]
        self._hand = card_set(_KIND_OF[n] for n in v["hand"])
        sizes = [0, 0]
        sizes[me], sizes[1 - me] = card_set_size(self._hand), v["opponent_hand_size"]
        self._hand_sizes = sizes
        self._expeditions = [card_set(_KIND_OF[n] for names in side.values() for n in names)
                             for side in v["expeditions"]]
        known = [0, 0]
        known[1 - me] = card_set(_KIND_OF[n] for n in v["opponent_known"])
        self._known = known
        piles = [v["discards"][letter] for letter in letters]
        self._tops = [_KIND_OF[pile[-1]] if pile else -1 for pile in piles]
        self.drawable_piles = sum(1 << c for c, pile in enumerate(piles) if pile and letters[c] != v["banned"])

    def current_player(self) -> int:
        return self._player

    def discard_top(self, colour: int) -> int:
        return self._tops[colour]

    def hand_set(self, seat: int) -> int:
        if seat != self._player:
            raise ValueError(f"seat {self._player}'s view does not show seat {seat}'s hand (LC-8)")
        return self._hand

    def hand_size(self, seat: int) -> int:
        return self._hand_sizes[seat]

    def expedition_set(self, seat: int) -> int:
        return self._expeditions[seat]

    def known_set(self, seat: int) -> int:
        """What the view shows of the cards ``seat`` took from piles: the opponent's (LC-8);
        the viewer's own count as part of its hand."""
        return self._known[seat]


_FIELD_LOW15: Final = sum(0x7FFF << (16 * c) for c in range(6))
_FIELD_BIT15: Final = sum(0x8000 << (16 * c) for c in range(6))


def _started(expedition: int) -> int:
    """How many colours of an expedition card set hold a card: per 16-bit field, bit 15
    ends up set iff the field is not zero (the low 15 bits plus 0x7FFF carry into it)."""
    return ((((expedition & _FIELD_LOW15) + _FIELD_LOW15) | expedition) & _FIELD_BIT15).bit_count()


_UNREAD: Final = colour_facts(0, 0, 0, 0)
"""Stand-in facts of a colour the decision does not read."""
_INFO: dict[int, Facts] = {}
"""Per-colour facts (:func:`~cardtable.games.lost_cities.decisions.colour_facts`) by the
colour's four 16-bit fields ``hand | exp << 16 | opp_exp << 32 | opp_known << 48``."""


class _Seat:
    """The seat to move in the heuristic's terms: its colours' facts and the per-turn
    numbers ``(rate, turns, margin)`` (:func:`~cardtable.games.lost_cities.decisions.seat_numbers`)."""

    __slots__ = ("facts", "rate", "turns", "margin", "draw_pile")

    def __init__(self, table: LostCitiesTable, style: LostCitiesStyle, only: int = 0) -> None:
        """``only``: a bitmask of the colours whose facts are needed (0: all); the others
        get :data:`_UNREAD` (a draw-phase choice far from the end reads only the
        drawable piles' colours)."""
        p = table.current_player()
        hand = table.hand_set(p)
        exp = table.expedition_set(p)
        oexp = table.expedition_set(1 - p)
        kn = table.known_set(1 - p)
        info = _INFO
        facts: list[Facts] = []
        for c in range(table.colors):
            if only and not only >> c & 1:
                facts.append(_UNREAD)
                continue
            sh = 16 * c
            key = ((hand >> sh) & 0xFFFF | ((exp >> sh) & 0xFFFF) << 16
                   | ((oexp >> sh) & 0xFFFF) << 32 | ((kn >> sh) & 0xFFFF) << 48)
            f = info.get(key)
            if f is None:
                if len(info) > 500_000:
                    info.clear()
                f = info[key] = colour_facts(key & 0xFFFF, (key >> 16) & 0xFFFF, (key >> 32) & 0xFFFF, key >> 48)
            facts.append(f)
        self.facts = facts
        draw_pile = self.draw_pile = table.draw_pile_size
        self.rate, self.turns, self.margin = seat_numbers(
            draw_pile, table.hand_size(1 - p), card_set_size(kn) if kn else 0, _started(exp),
            style.future_share, style.start_margin, style.extra_margin)


def _tops(table: LostCitiesTable) -> list[int]:
    """The top kind of each discard pile the seat to move may take from, else -1."""
    avail = table.drawable_piles
    return [table.discard_top(c) if avail >> c & 1 else -1 for c in range(table.colors)]


def policy_action(table: LostCitiesTable, style: LostCitiesStyle = STYLES["steady"]) -> int:
    """The heuristic's move (playing ``style``) for the seat to move of an ongoing round:
    ``table`` is a :class:`~cardtable.games.lost_cities.LostCitiesState` (the search's
    sampled worlds) or a :class:`ViewTable`."""
    if table.phase:
        dd = 20 * table.colors
        if not table.drawable_piles:
            return dd
        avail = table.drawable_piles
        seat = _Seat(table, style, 0 if table.draw_pile_size <= STALL_REACH else avail)
        tops = [-1] * table.colors
        while avail:
            c = FIRST[avail]
            tops[c] = table.discard_top(c)
            avail &= avail - 1
        c = draw_choice(seat.facts, tops, seat.draw_pile, seat.rate, seat.turns, seat.margin,
                        style.conservative, style.wager_min_numbers, style.denial, style.deck_value)
        return dd if c < 0 else dd + 1 + c
    seat = _Seat(table, style)
    return play_choice(seat.facts, seat.rate, seat.turns, seat.margin, style.conservative,
                       style.wager_min_numbers, style.tempo_weight)


def ranked_moves(table: LostCitiesTable, style: LostCitiesStyle = STYLES["steady"]) -> list[tuple[float, int]]:
    """Every move the heuristic weighs, as ``(cost, action)``, its choice first, then the
    rest cheapest first.  Play phase: discards at their cost, plays at their cost minus
    the tempo term; draw phase: each pile by minus its gain, the deck at minus the
    style's ``deck_value`` (stalling aside, the heuristic takes a pile only when it
    beats that)."""
    seat = _Seat(table, style)
    choice = policy_action(table, style)
    out: list[tuple[float, int]] = []
    rate, turns, margin, cons, wmin = seat.rate, seat.turns, seat.margin, style.conservative, style.wager_min_numbers
    if table.phase:
        dd = 20 * table.colors
        options = draw_options(seat.facts, _tops(table), rate, turns, margin, cons, wmin, style.denial)
        out = [(-o[0], dd + 1 + o[2]) for o in options]
        out.append((-style.deck_value, dd))
    else:
        plays, discards, tempo = play_options(seat.facts, rate, turns, margin, cons, wmin, style.tempo_weight, True)
        out = [(cost - tempo, 20 * (k // 10) + k % 10) for cost, k in plays]
        out += [(cost, 20 * (k // 10) + 10 + k % 10) for cost, k in discards]
    out.sort()
    first = [row for row in out if row[1] == choice]
    rest = [row for row in out if row[1] != choice]
    return first + rest


class LostCitiesHeuristic(Agent):
    """Commit to good colours, wager with strength, play in order, discard safely,
    take useful discards, stall when extra turns pay: :func:`policy_action` on the
    seat's view."""

    name = "heuristic"

    def __init__(self, game: Game, *, seed: int = 0, style: str = "steady") -> None:
        """``style``: a name from :data:`STYLES` (default ``steady``, the baseline)."""
        super().__init__(game, seed=seed)
        chosen = STYLES.get(style)
        if chosen is None:
            raise ValueError(f"unknown style {style!r}; choose from: {', '.join(STYLES)}")
        self.style = chosen

    def act(self, obs: Observation) -> int:
        legal = obs.legal_actions
        if len(legal) == 1:
            return legal[0]
        return policy_action(ViewTable(obs.view), self.style)
