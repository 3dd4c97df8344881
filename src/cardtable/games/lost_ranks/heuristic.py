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
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from cardtable.agents.base import Agent, Observation
from cardtable.cards import JACK, JOKER, SUIT_WORDS, parse_french
from cardtable.protocol import JSON

SPY = JOKER
DRAW = 53
PHANTOM_BASE = 54
SUIT_COLOUR = (1, 0, 0, 1)  # 0 red, 1 black: clubs, diamonds, hearts, spades
ARMY_INDEX = {"red": 0, "black": 1}


def _suit(card: int) -> int:
    return -1 if card == SPY else card // 13


def _rank(card: int) -> int:
    return card % 13


def _is_soldier(card: int) -> bool:
    return card == SPY or card % 13 == JACK


def _cards(names: Sequence[JSON]) -> list[int]:
    return [parse_french(str(n)) for n in names if n is not None]


class _Table:
    """The view decoded into card ids and sets."""

    guard_cost = 0.3
    rank_cost = 0.05
    trump_cost = 0.5
    master_cost = 0.15
    spy_keep = 0.7
    own_jack_keep = 1.0
    enemy_jack_keep = -0.3
    forced_weight = 1.0
    enemy_fight = 0.4
    """Chance that a later enemy seat puts its best card on the trick (when it does not, the
    trick is as if it could not beat it): opponents do not always find the card that wins."""

    def __init__(self, view: dict[str, JSON]) -> None:
        self.me: int = int(view["player"])
        self.n: int = int(view["players"])
        armies = view["armies"]
        self.armies = [ARMY_INDEX[str(a)] for a in armies]
        self.army = self.armies[self.me]
        self.trump = SUIT_WORDS.index(str(view["trump_suit"]))
        self.trump_colour = SUIT_COLOUR[self.trump]
        self.force = bool(view["force_strength"])
        self.hand = _cards(view["hand"])
        trick = view["trick"]
        self.trick: list[tuple[int, int]] = [(int(t["seat"]), parse_french(t["card"])) for t in trick]
        led = view["led_suit"]
        self.led = SUIT_WORDS.index(str(led)) if led is not None else -1
        voids = view["voids"]
        self.voids = [{SUIT_WORDS.index(str(w)) for w in v} for v in voids]
        sizes = view["hand_sizes"]
        self.hand_sizes = [int(x) for x in sizes]
        known: set[int] = set(self.hand)
        known.add(parse_french(str(view["trump_card"])))
        captured = view["captured"]
        for pile in captured.values():
            known.update(_cards(pile))
        known.update(_cards(view["discards"]))
        known.update(c for _, c in self.trick)
        self.gone = set(known) - set(self.hand)
        """Cards out of play for everybody (played, trump card)."""
        self.two = self.n == 2
        self.my_phantom: list[int] = []
        self.opp_phantom: list[int | None] = []
        self.drawn: list[int] = []
        if self.two:
            phantoms = view["phantoms"]
            self.my_phantom = _cards(phantoms[self.me])
            opp = phantoms[1 - self.me]
            self.opp_phantom = [None if x is None else parse_french(str(x)) for x in opp]
            known.update(self.my_phantom)
            known.update(c for c in self.opp_phantom if c is not None)
            drawn = view["drawn"]
            if isinstance(drawn, dict):
                cards = [None if x is None else parse_french(str(x)) for x in drawn["cards"]]
                if int(drawn["player"]) == self.me:
                    self.drawn = [c for c in cards if c is not None]
                known.update(c for c in cards if c is not None)
        self.unseen = set(range(53)) - known
        self._avoid_cache: dict[int, list[float]] = {}
        # Cards still to be played by somebody, known or not (for "master" tests).
        self.live = set(range(53)) - self.gone

    # -- trick arithmetic ------------------------------------------------------
    def key(self, card: int, led: int) -> int:
        """Strength of ``card`` in a trick led in ``led`` (-1 cannot win)."""
        if _is_soldier(card):
            return -1
        s = card // 13
        if s == self.trump:
            return 100 + _rank(card)
        if s == led:
            return _rank(card)
        return -1

    def best(self, plays: Sequence[tuple[int, int]], led: int) -> tuple[int, int]:
        """(winning seat or -1, its key)."""
        seat, top = -1, -1
        for s, c in plays:
            k = self.key(c, led)
            if k > top:
                seat, top = s, k
        return seat, top

    def soldier_value(self, card: int, captor_army: int) -> float:
        """Points for my army minus the enemy's if ``card`` goes to ``captor_army`` (-1: discarded)."""
        if card == SPY:
            if captor_army < 0:
                return 0.0
            return 2.0 if captor_army == self.army else -2.0
        if card % 13 != JACK or SUIT_COLOUR[card // 13] != self.trump_colour:
            return 0.0
        owner = SUIT_COLOUR[card // 13]
        if captor_army != owner:
            return 0.0
        return 2.0 if owner == self.army else -2.0

    def stake(self, cards: Sequence[int], captor_army: int) -> float:
        v = sum(self.soldier_value(c, captor_army) for c in cards)
        if self.force and captor_army >= 0:
            plain = sum(1 for c in cards if not _is_soldier(c))
            v += 0.08 * plain * (1 if captor_army == self.army else -1)
        return v

    def keep_value(self, card: int) -> float:
        """What a card is worth kept for later (what playing it costs), 4 players."""
        if card == SPY:
            return self.spy_keep  # fed to a partner's trick it scores
        if card % 13 == JACK:
            if SUIT_COLOUR[card // 13] != self.trump_colour:
                return -0.2  # inactive: junk, glad to be rid of it
            # An own active Jack is worth +2 fed to a trick the army wins; an enemy one costs 2
            # if the enemy captures it.
            if SUIT_COLOUR[card // 13] == self.army:
                return self.own_jack_keep
            return self.enemy_jack_keep
        s = card // 13
        higher = sum(1 for r in range(_rank(card) + 1, 13) if r != JACK and s * 13 + r in self.live)
        base = self.rank_cost * _rank(card)
        if s == self.trump:
            base += self.trump_cost
        if higher == 0:
            base += self.master_cost  # a master card
        if self.guard_cost:
            jack = s * 13 + JACK
            if jack in self.hand and SUIT_COLOUR[s] == self.trump_colour:
                base += self.guard_cost  # it shields an active Jack (LR-7)
        return base

    # -- who could still beat a card --------------------------------------------
    def p_hold(self, beaters: int, size: int) -> float:
        """Chance that a hidden hand of ``size`` cards holds one of ``beaters`` unseen cards."""
        u = len(self.unseen)
        if beaters <= 0 or size <= 0 or u <= 0:
            return 0.0
        if u - beaters < size:
            return 1.0
        return 1.0 - math.comb(u - beaters, size) / math.comb(u, size)

    def p_beat(self, seat: int, led: int, top: int) -> float:
        """Chance that ``seat`` (a hidden 4-player hand) can take a trick whose best key is ``top``."""
        size = self.hand_sizes[seat]
        if size == 0:
            return 0.0
        void = self.voids[seat]
        unseen = self.unseen
        trumps = [c for c in unseen if c // 13 == self.trump and not _is_soldier(c) and c != SPY]
        if led >= 0 and led != self.trump:
            suit_cards = [c for c in unseen if c != SPY and c // 13 == led]
            higher = [c for c in suit_cards if not _is_soldier(c) and top < 100 and _rank(c) > top]
            p = 0.0 if led in void else self.p_hold(len(higher), size)
            if self.trump in void:
                return p
            over = [c for c in trumps if 100 + _rank(c) > top]
            if led in void:
                p_void = 1.0
            else:
                p_void = 1.0 - self.p_hold(len(suit_cards), size)
            return 1.0 - (1.0 - p) * (1.0 - p_void * self.p_hold(len(over), size))
        over = [c for c in trumps if 100 + _rank(c) > top]
        if self.trump in void:
            return 0.0
        return self.p_hold(len(over), size)

    def expected_dumps(self, after: Sequence[int], led: int) -> tuple[float, float]:
        """Soldier points later seats may still throw in: (if my army captures, if the enemy does).

        A seat void in the led suit may discard anything; each unseen soldier is in a given
        hidden hand with chance size/unseen and comes out with chance about 1/size.
        """
        u = len(self.unseen)
        if not u:
            return 0.0, 0.0
        mine = theirs = 0.0
        for c in self.unseen:
            if c == SPY:
                mine += 2.0
                theirs -= 2.0
            elif c % 13 == JACK and SUIT_COLOUR[c // 13] == self.trump_colour:
                if SUIT_COLOUR[c // 13] == self.army:
                    mine += 2.0
                else:
                    theirs -= 2.0
        gain = loss = 0.0
        for q in after:
            size = self.hand_sizes[q]
            if not size:
                continue
            p_void = 1.0 if led < 0 or led in self.voids[q] else 0.25
            gain += p_void * mine / u
            loss += p_void * theirs / u
            if self.forced_weight and led >= 0 and led not in self.voids[q]:
                # The led suit's Jack comes out now if it is the last card of that suit (LR-7).
                jack = led * 13 + JACK
                if jack in self.unseen and SUIT_COLOUR[led] == self.trump_colour:
                    others = sum(1 for c in self.unseen if c != jack and c != SPY and c // 13 == led)
                    avoid = self._avoid(size - 1) if size > 1 else None
                    p_last = 1.0 if avoid is None else avoid[min(others, len(avoid) - 1)]
                    p = self.forced_weight * (size / u) * p_last
                    if SUIT_COLOUR[led] == self.army:
                        gain += 2.0 * p
                    else:
                        loss -= 2.0 * p
        return gain, loss

    # -- the best card a hidden hand can put on a trick -----------------------------
    def _avoid(self, size: int) -> list[float]:
        """``[k]``: chance that a hidden hand of ``size`` holds none of ``k`` given unseen cards."""
        got = self._avoid_cache.get(size)
        if got is None:
            u = len(self.unseen)
            if size <= 0:
                got = [1.0] * (u + 1)
            else:
                total = math.comb(u, size) if u >= size else 1
                got = [math.comb(u - k, size) / total if u - k >= size else 0.0 for k in range(u + 1)]
            self._avoid_cache[size] = got
        return got

    def max_cdf(self, seat: int, led: int) -> dict[int, float]:
        """``x -> P(the best key seat can play on a trick led in led is <= x)`` at every
        relevant key (hypergeometric over the unseen cards, using the seat's known voids)."""
        avoid = self._avoid(self.hand_sizes[seat])
        void = self.voids[seat]
        trumps = sorted(100 + _rank(c) for c in self.unseen if c != SPY and c // 13 == self.trump and not _is_soldier(c))
        if self.trump in void:
            trumps = []
        if led < 0 or led == self.trump:
            keys = [-1] + trumps
            return {x: avoid[sum(1 for k in trumps if k > x)] for x in keys}
        led_cards = [c for c in self.unseen if c != SPY and c // 13 == led]
        led_keys = sorted(_rank(c) for c in led_cards if not _is_soldier(c))
        n_led = len(led_cards)
        if led in void:
            led_keys = []
            n_led = 0
        keys = [-1] + led_keys + trumps
        out = {}
        for x in keys:
            a = sum(1 for k in led_keys if k > x)
            tx = sum(1 for k in trumps if k > x)
            out[x] = max(0.0, avoid[a] - (avoid[n_led] - avoid[n_led + tx]))
        return out

    def outcome(self, plays: Sequence[tuple[int, int]], led: int, after: Sequence[int]) -> tuple[float, float]:
        """(P my army captures the trick, P the enemy does) if every later seat plays the best
        card it can (they all fight for it); the rest is a trick with no winner."""
        seat, top = self.best(plays, led)
        if not after:
            if seat < 0:
                return 0.0, 0.0
            return (1.0, 0.0) if self.armies[seat] == self.army else (0.0, 1.0)
        cdfs = [(q, self.max_cdf(q, led)) for q in after]
        if self.enemy_fight < 1.0:
            f = self.enemy_fight
            cdfs = [(q, {x: f * v + 1.0 - f for x, v in c.items()} if self.armies[q] != self.army else c)
                    for q, c in cdfs]
        keys = sorted({k for _, c in cdfs for k in c if k > top})

        def below(cdf: dict[int, float], x: int) -> float:
            # P(best <= x): the largest relevant key not above x.
            best = 1.0
            lower = -2
            for k, v in cdf.items():
                if lower < k <= x:
                    lower, best = k, v
            return best if lower > -2 else 0.0

        p = [0.0, 0.0]
        stay = 1.0
        for _, cdf in cdfs:
            stay *= below(cdf, top)
        if seat >= 0:
            p[0 if self.armies[seat] == self.army else 1] += stay
        none = stay if seat < 0 else 0.0
        prev = {q: below(cdf, top) for q, cdf in cdfs}
        for x in keys:
            now = {q: below(cdf, x) for q, cdf in cdfs}
            for q, _ in cdfs:
                hit = now[q] - prev[q]
                if hit <= 0:
                    continue
                others = 1.0
                for r, _ in cdfs:
                    if r != q:
                        others *= prev[r]  # strictly below x: one card cannot be in two hands
                p[0 if self.armies[q] == self.army else 1] += hit * others
            prev = now
        total = p[0] + p[1] + none
        if total <= 0:
            return 0.0, 0.0
        return p[0] / total, p[1] / total



class LostRanksHeuristic(Agent):
    """Soldier-aware card play for both modes (see the module docstring)."""

    name = "heuristic"
    future_weight = 0.125
    dump_weight = 1.0
    jack_lead_penalty = 1.0
    keep_fade = 8
    """With fewer cards than this in hand, the Spy and the own active Jacks are kept for a
    partner's trick less and less: late in a round the chances to feed them run out and
    the last card is forced into whatever trick comes."""
    void_bonus = 0.0
    trump_lead = 0.6
    two_lead_value = 0.2
    """Command of Two: worth of leading the next trick."""
    two_lost_dump = 1.8
    """Command of Two: what a soldier the opponent dumps on my led Jack costs me (I would
    otherwise capture it when it is played, LR-15)."""
    two_void_bonus = 0.3

    def act(self, obs: Observation) -> int:
        legal = list(obs.legal_actions)
        if len(legal) == 1:
            return legal[0]
        t = _Table(obs.view)
        if t.two:
            return self._act_two(t, legal)
        return self._act_four(t, legal)

    # ---------------------------------------------------------------- 4 players
    def _act_four(self, t: _Table, legal: list[int]) -> int:
        best_a, best_v = legal[0], -1e9
        for a in legal:
            v = self._value_four(t, a) + self.rng.random() * 1e-6
            if v > best_v:
                best_a, best_v = a, v
        return best_a

    def _value_four(self, t: _Table, card: int) -> float:
        n = t.n
        plays = t.trick + [(t.me, card)]
        led = t.led
        if not t.trick or led < 0:
            led = _suit(card) if card != SPY else -1
        leader = plays[0][0]
        after = [(leader + i) % n for i in range(len(plays), n)]
        seat, top = t.best(plays, led)
        cards = [c for _, c in plays]
        p_us, p_them = t.outcome(plays, led, after)
        p_none = max(0.0, 1.0 - p_us - p_them)
        value = p_us * t.stake(cards, t.army) + p_them * t.stake(cards, 1 - t.army) + p_none * t.stake(cards, -1)
        # Soldiers still to come are more likely dumped into a trick whose winner is clear.
        gain, loss = t.expected_dumps(after, led)
        value += self.future_weight * len(after) * (p_us - p_them) + self.dump_weight * (p_us * gain + p_them * loss)
        keep = t.keep_value(card)
        if card == SPY or (card % 13 == JACK and SUIT_COLOUR[card // 13] == t.trump_colour == t.army):
            keep *= min(1.0, len(t.hand) / self.keep_fade)
        value -= keep
        if not t.trick:
            if self.trump_lead and card != SPY and card // 13 == t.trump and card % 13 != JACK:
                mine = sum(1 for c in t.hand if c != SPY and c // 13 == t.trump and c % 13 != JACK)
                out = sum(1 for c in t.unseen if c != SPY and c // 13 == t.trump and c % 13 != JACK)
                if mine >= 3 and mine >= out:
                    value += self.trump_lead  # draw the enemy's trumps so our winners stand
            if card % 13 == JACK and card != SPY:
                value -= self.jack_lead_penalty  # a led Jack invites a trick with no winner (LR-11)
            elif card != SPY and self.void_bonus and card // 13 != t.trump:
                # Holding a soldier to unload, make a void to discard it into a partner's trick.
                suit = card // 13
                if sum(1 for c in t.hand if c != SPY and c // 13 == suit) == 1 and any(
                    t.keep_value(c) >= 0.5 or t.keep_value(c) <= -0.5 for c in t.hand if _is_soldier(c)
                ):
                    value += self.void_bonus
        return value

    # ---------------------------------------------------------------- 2 players
    def _act_two(self, t: _Table, legal: list[int]) -> int:
        w = _Two(t)
        best_a, best_v = legal[0], -1e9
        for a in legal:
            if a == DRAW:
                v = self._value_draw(t, w)
            elif a >= PHANTOM_BASE:
                v = self._value_two(t, w, a - PHANTOM_BASE, from_phantom=True)
            else:
                v = self._value_two(t, w, a, from_phantom=False)
            v += self.rng.random() * 1e-6
            if v > best_v:
                best_a, best_v = a, v
        return best_a

    def _value_draw(self, t: _Table, w: _Two) -> float:
        """A phantom play is worth its best card among those the draw would allow (LR-14)."""
        top = t.my_phantom[:2]
        if len(top) < 2:
            return self._value_two(t, w, top[0], from_phantom=True) if top else -1e9
        if not t.trick:
            options = [c for c in top if c != SPY]
        elif t.led < 0:
            options = top
        else:
            suited = [c for c in top if c != SPY and c // 13 == t.led]
            if len(suited) == 2:
                options = [c for c in suited if c % 13 != JACK]
            else:
                options = suited or top
        return max(self._value_two(t, w, c, from_phantom=True) for c in options)

    def _value_two(self, t: _Table, w: _Two, card: int, *, from_phantom: bool) -> float:
        keep = w.keep(card)
        if not from_phantom and card != SPY and SPY in t.hand and w.jacks_out:
            # Holding the Spy, a void lets it fall on a Jack the opponent leads (LR-7, LR-11).
            if sum(1 for c in t.hand if c != SPY and c // 13 == card // 13) == 1:
                keep -= self.two_void_bonus
        if t.trick:
            led = t.led if t.led >= 0 else _suit(card)
            plays = t.trick + [(t.me, card)]
            seat, _ = t.best(plays, led)
            captor = -1 if seat < 0 else t.armies[seat]
            value = t.stake([c for _, c in plays], captor)
            if seat == t.me:
                value += self.two_lead_value
            return value - keep
        cap, dump, give, none = w.answer(card, from_phantom)
        value = cap * t.stake([card], 1 - t.army) + none * t.stake([card], -1)
        value += give * 2.0 - dump * self.two_lost_dump
        if not _is_soldier(card):
            value += max(0.0, 1.0 - cap - none) * self.two_lead_value
        return value - keep


_B, _S, _SJ, _T, _Y, _J, _O = range(7)
"""How an answer card meets a lead: beats it in suit, follows without beating, is the led
suit's Jack, trumps, is the Spy, another Jack, anything else."""


class _Two:
    """Command of Two: what the opponent can answer to a lead, and what a card is worth kept.

    The opponent's unseen cards lie in its real hand or among the face-down cards of its
    phantom deck; suits it has shown void in (LR-20) are all in the phantom.  A hand answer
    is hypergeometric over the rest; a phantom answer comes from the top two cards (known
    where face up), each drawn from the hidden cards.
    """

    q_jack = 0.15
    """Chance that an enemy active Jack kept for later is taken by its army after all."""
    d_spy = 0.8
    """Scale of the chance that the Spy kept for later falls on a Jack led by the opponent."""

    def __init__(self, t: _Table) -> None:
        self.t = t
        opp = 1 - t.me
        self.h = t.hand_sizes[opp]
        self.ph = t.opp_phantom
        hidden = sum(1 for c in self.ph if c is None)
        void = t.voids[opp]
        self.pool = [c for c in t.unseen if c == SPY or c // 13 not in void]
        self.forced = [c for c in t.unseen if c != SPY and c // 13 in void]
        n = len(self.pool)
        h = min(self.h, n)
        total = math.comb(n, h) if n else 1
        self.avoid = [math.comb(n - j, h) / total if n - j >= h else 0.0 for j in range(n + 1)]
        # Chance that one face-down phantom position holds a given card.
        self.p_forced = 1.0 / hidden if hidden else 0.0
        self.p_pool = max(0.0, (hidden - len(self.forced)) / (hidden * n)) if hidden and n else 0.0
        self.jacks_out = sum(1 for c in t.unseen if c != SPY and c % 13 == JACK)

    def keep(self, card: int) -> float:
        """What a card is worth kept: the Spy and an enemy active Jack are liabilities (whoever
        plays a soldier hands it to the other army unless the trick has no winner)."""
        t = self.t
        if card == SPY:
            return -2.0 * (1.0 - self.d_spy * min(1.0, self.jacks_out / 2))
        if card % 13 == JACK:
            if SUIT_COLOUR[card // 13] == t.trump_colour != t.army:
                return -2.0 * self.q_jack
            return 0.0  # my own active Jack can only be taken by the enemy; inactive ones score nothing
        s = card // 13
        higher = sum(1 for r in range(_rank(card) + 1, 13) if r != JACK and s * 13 + r in t.live)
        base = t.rank_cost * _rank(card) + (t.trump_cost if s == t.trump else 0.0)
        if higher == 0:
            base += t.master_cost
        jack = s * 13 + JACK
        if jack in t.hand and SUIT_COLOUR[s] == t.trump_colour != t.army:
            if sum(1 for c in t.hand if c // 13 == s and c != jack and c != SPY) == 1:
                base += t.guard_cost  # the last guard of an enemy Jack (LR-7)
        return base

    def valuable(self, card: int) -> bool:
        """An opponent's card worth 2 to me if I capture it: the Spy or my army's active Jack."""
        t = self.t
        return card == SPY or (card % 13 == JACK and SUIT_COLOUR[card // 13] == t.trump_colour == t.army)

    def category(self, card: int, lead: int, led: int) -> int:
        t = self.t
        if card == SPY:
            return _Y
        if card % 13 == JACK:
            return _SJ if card // 13 == led else _J
        s = card // 13
        if s == led:
            return _B if t.key(card, led) > t.key(lead, led) else _S
        return _T if s == t.trump else _O

    def answer(self, lead: int, from_phantom: bool) -> tuple[float, float, float, float]:
        """For ``lead`` led from my phantom deck or hand: the chances that the opponent can take
        the trick, dumps a soldier worth 2 to me into a trick with no winner, must give me
        such a soldier, or the trick has no winner (LR-10, LR-11, LR-13, LR-14)."""
        led = _suit(lead)
        phantom = not from_phantom
        if phantom and not self.ph:
            phantom = False
        if not phantom and self.h == 0:
            phantom = True
        return self._phantom_answer(lead, led) if phantom else self._hand_answer(lead, led)

    def _phantom_answer(self, lead: int, led: int) -> tuple[float, float, float, float]:
        soldier = _is_soldier(lead)
        if not self.ph:
            return 0.0, 0.0, 0.0, 1.0 if soldier else 0.0
        dists: list[dict[tuple[int, bool], float]] = []
        for entry in self.ph[:2]:
            d: dict[tuple[int, bool], float] = {}
            if entry is not None:
                d[(self.category(entry, lead, led), self.valuable(entry))] = 1.0
            else:
                for cards, chance in ((self.forced, self.p_forced), (self.pool, self.p_pool)):
                    for x in cards:
                        key = (self.category(x, lead, led), self.valuable(x))
                        d[key] = d.get(key, 0.0) + chance
                total = sum(d.values())
                d = {k: w / total for k, w in d.items()} if total > 0 else {(_O, False): 1.0}
            dists.append(d)
        out = [0.0, 0.0, 0.0, 0.0]
        if len(dists) == 1:
            for (c, v), p in dists[0].items():
                for i, y in enumerate(_single_outcome(c, v, soldier)):
                    out[i] += p * y
        else:
            for (c1, v1), p1 in dists[0].items():
                for (c2, v2), p2 in dists[1].items():
                    for i, y in enumerate(_pair_outcome(c1, v1, c2, v2, soldier)):
                        out[i] += p1 * p2 * y
        return out[0], out[1], out[2], out[3]

    def _hand_answer(self, lead: int, led: int) -> tuple[float, float, float, float]:
        soldier = _is_soldier(lead)
        if self.h == 0:
            return 0.0, 0.0, 0.0, 1.0 if soldier else 0.0
        beat = follow = trumps = extra = 0
        spy = sole_jack = False
        for x in self.pool:
            c = self.category(x, lead, led)
            if c == _B:
                beat += 1
            elif c == _S:
                follow += 1
            elif c == _SJ:
                follow += 1
                sole_jack = self.valuable(x)
            elif c == _T:
                trumps += 1
            elif c == _Y:
                spy = True
            elif c == _J and self.valuable(x):
                extra += 1
        avoid = self.avoid
        suited = beat + follow
        cap = max(0.0, 1.0 - avoid[beat] + avoid[suited] - avoid[suited + trumps])
        dump = give = none = 0.0
        if soldier:
            extra += 1 if spy else 0
            if extra:
                dump = avoid[suited + trumps] - avoid[suited + trumps + extra]
            none = 1.0 - cap
        elif sole_jack:
            give = avoid[suited - 1] - avoid[suited]  # the led suit's Jack is its only card of the suit
        return cap, max(0.0, dump), max(0.0, give), none


def _single_outcome(c: int, valuable: bool, soldier: bool) -> tuple[float, float, float, float]:
    """(take, dump, give, no winner) when the opponent's phantom holds one card of category ``c``."""
    if c in (_B, _T):
        return 1.0, 0.0, 0.0, 0.0
    if c in (_Y, _J, _SJ):
        if soldier:
            return 0.0, 1.0 if valuable else 0.0, 0.0, 1.0
        return 0.0, 0.0, 1.0 if valuable else 0.0, 0.0
    return 0.0, 0.0, 0.0, 1.0 if soldier else 0.0


def _pair_outcome(c1: int, v1: bool, c2: int, v2: bool, soldier: bool) -> tuple[float, float, float, float]:
    """The same for a draw of two (LR-14: follow suit if either card does; the opponent
    then picks what suits it best)."""
    if c1 == _B or c2 == _B:
        return 1.0, 0.0, 0.0, 0.0
    suited = [(c, v) for c, v in ((c1, v1), (c2, v2)) if c in (_S, _SJ)]
    if suited:
        if any(c == _S for c, _ in suited):  # a plain card follows (Jack protection between the two)
            return 0.0, 0.0, 0.0, 1.0 if soldier else 0.0
        valuable = suited[0][1]  # only the led suit's Jack follows: it must be played
        if soldier:
            return 0.0, 1.0 if valuable else 0.0, 0.0, 1.0
        return 0.0, 0.0, 1.0 if valuable else 0.0, 0.0
    if c1 == _T or c2 == _T:
        return 1.0, 0.0, 0.0, 0.0
    if soldier:  # two cards that cannot win: a soldier worth 2 to me may be dumped
        return 0.0, 1.0 if (v1 and c1 in (_Y, _J)) or (v2 and c2 in (_Y, _J)) else 0.0, 0.0, 1.0
    if c1 == _O or c2 == _O:
        return 0.0, 0.0, 0.0, 0.0
    return 0.0, 0.0, 1.0 if v1 and v2 else 0.0, 0.0
