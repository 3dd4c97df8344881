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

With 2 players it also weighs the source of a lead (LR-13): a hand lead forces the
opponent to answer blind from the top of their phantom deck, a phantom lead (whose top
two cards it knows) lets the opponent answer from the hand.  There a soldier is always
taken by the army that did not play it (it cannot win), so the bot values the Spy and the
enemy's active Jacks in its own hand as liabilities to shed into tricks with no winner.

Strength against ``random`` (matches won): 4 players (a heuristic partnership against a
random one) 0.85–0.92 depending on the block of seeds (0.903 on 5000–5299, 0.915 on
10000–10399, 0.848 on 20000–20399; 0.91 on seeds 0–199); 2 players 0.63–0.70 (0.698 on
20000–20399, 0.625 on 30000–30399, 0.70 on seeds 0–199) — the milder 2-player keep values
of the Spy and the enemy's Jacks added about 0.04 there.  Lost Ranks is luck-heavy: a
random-rollout search with 30 samples per move reaches about 0.92 with 4 players on seeds
0–132, and with 2 players the Spy (captured by the army that did not play it unless a Jack
shares its trick) makes every round largely a ±2 coin flip for any policy.
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
    enemy_jack_keep = -1.2
    forced_weight = 1.0
    two_spy_keep = -0.5
    two_enemy_jack_keep = -0.25

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
        """What a card is worth kept for later (what playing it costs)."""
        if card == SPY:
            # 4 players: fed to a partner's trick it scores; 2 players: whoever plays the
            # Spy almost always hands it to the other army (it cannot win, LR-1).
            return self.two_spy_keep if self.two else self.spy_keep
        if card % 13 == JACK:
            if SUIT_COLOUR[card // 13] != self.trump_colour:
                return -0.2  # inactive: junk, glad to be rid of it
            # 4 players: an own active Jack is worth +2 fed to a trick the army wins; an enemy
            # one costs 2 if the enemy captures it.  2 players: a soldier one plays is always
            # taken by the other army (it cannot win), so an own Jack is junk there.
            if SUIT_COLOUR[card // 13] == self.army:
                return -0.2 if self.two else self.own_jack_keep
            return self.two_enemy_jack_keep if self.two else self.enemy_jack_keep
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
    jack_lead_penalty = 0.5
    void_bonus = 0.0
    trump_lead = 0.6
    two_dump_weight = 0.0

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
        value -= t.keep_value(card)
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
        best_a, best_v = legal[0], -1e9
        for a in legal:
            if a == DRAW:
                v = self._value_draw(t)
            elif a >= PHANTOM_BASE:
                v = self._value_two(t, a - PHANTOM_BASE, from_phantom=True)
            else:
                v = self._value_two(t, a, from_phantom=False)
            v += self.rng.random() * 1e-6
            if v > best_v:
                best_a, best_v = a, v
        return best_a

    def _value_draw(self, t: _Table) -> float:
        top = t.my_phantom[:2]
        if len(top) < 2:
            return self._value_two(t, top[0], from_phantom=True) if top else -1e9
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
        return max(self._value_two(t, c, from_phantom=True) for c in options)

    def _value_two(self, t: _Table, card: int, *, from_phantom: bool) -> float:
        if t.trick:
            led = t.led if t.led >= 0 else _suit(card)
            plays = t.trick + [(t.me, card)]
            seat, _ = t.best(plays, led)
            cards = [c for _, c in plays]
            captor = -1 if seat < 0 else t.armies[seat]
            value = t.stake(cards, captor)
            if captor == t.army:
                value += 0.15  # the lead
            return value - t.keep_value(card) * (0.3 if from_phantom else 1.0)
        # Leading: the opponent answers from the other source.
        led = _suit(card)
        opp = 1 - t.me
        if from_phantom:
            p_beat = self._p_opp_hand_beats(t, opp, card, led)
        else:
            p_beat = self._p_opp_phantom_beats(t, opp, card, led)
        seat_key = t.key(card, led)
        if seat_key < 0:
            # A led Jack: a trick with no winner unless the answer wins it.
            p_us = 0.0
            p_them = p_beat
        else:
            p_us = 1.0 - p_beat
            p_them = p_beat
        value = p_us * (t.stake([card], t.army) + 0.3) + p_them * (t.stake([card], 1 - t.army) - 0.2)
        value += (1 - p_us - p_them) * t.stake([card], -1)
        gain, loss = t.expected_dumps([opp], led)
        value += self.two_dump_weight * (p_us * gain + p_them * loss)
        cost = t.keep_value(card)
        return value - (0.3 * cost if from_phantom else cost)

    def _p_opp_hand_beats(self, t: _Table, opp: int, card: int, led: int) -> float:
        top = t.key(card, led)
        return t.p_beat(opp, led, top)

    def _p_opp_phantom_beats(self, t: _Table, opp: int, card: int, led: int) -> float:
        """The opponent must answer a hand lead with the top of its phantom deck (LR-13, LR-14)."""
        ph = t.opp_phantom
        if not ph:
            return t.p_beat(opp, led, t.key(card, led))
        top = t.key(card, led)
        unseen = sorted(t.unseen)
        known = [c for c in ph[:2]]
        trials = 24 if any(c is None for c in known) else 1
        hits = 0
        for _ in range(trials):
            pool = list(unseen)
            pair: list[int] = []
            for c in known:
                if c is None:
                    if not pool:
                        continue
                    pair.append(pool.pop(self.rng.randrange(len(pool))))
                else:
                    pair.append(c)
            # The opponent must follow with a suited card if it drew one (LR-14).
            suited = [c for c in pair if c != SPY and c // 13 == led]
            options = suited or pair
            if any(t.key(c, led) > top for c in options):
                hits += 1
        return hits / trials
