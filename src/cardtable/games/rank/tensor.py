"""Tensor encoding of Ранг (Rank) views (RG-9 information only).

``n`` = players, ``P`` = packs (1 for 2–4 players, 2 for 5–10).  Card *kinds* are the
53 ids of :mod:`cardtable.cards` (``suit * 13 + rank``, 52 = joker).  Multisets use the
**physical-card layout** of ``S = 54 * P`` slots: kind ``k < 52`` owns slots
``k*P .. k*P+P-1`` and the joker owns the last ``2P`` slots; ``n`` copies of a kind set
the first ``n`` of its slots (a thermometer).  Seats are relative: row 0 is the observer,
row ``r`` the seat ``r`` places clockwise.

Observation segments:

``hand`` (S)            the observer's hand
``top`` (53)            the top card of the pile (one-hot kind)
``pile`` (S)            every card on the pile (all cards played, and the first up-card)
``unseen`` (S)          cards the observer has not seen: others' hands and the stock
``seats`` (n, 7)        per seat: to move, still in the game, hand size / 20, out, finishing
                        place / n, dealer, declared the active Anti-Rank
``status`` (8)          stock / deck size, Anti-Rank active, cards played this turn / 10,
                        draws this turn / 10, pull-back decided at this turn's start, game
                        over, observer is the loser, observer is out

Information-state history segments (the whole game is one round):

``played_by`` (n, 53)   cards each seat has played, per kind / copies of the kind
``draw_counts`` (n, 3)  per seat: draws / 20, draws not played at once / 20, passes / 10
``my_draws`` (S)        the cards the observer drew (its own draws are shown to it)
``stuck_on`` (n, 53)    the top card at each seat's most recent draw or pass: it held no
                        legal play on that card then (RG-4, RG-5)
``recent`` (L, n + 55)  the last L = 8 actions, newest first: actor (relative seat) and
                        action id (``53`` draw, ``54`` pass) one-hot
"""

from __future__ import annotations

from cardtable.cards import FRENCH_NAMES, JOKER
from cardtable.games.rank import DRAW, NUM_ACTIONS, NUM_KINDS, PASS, Rank
from cardtable.rl.encoding import Encoder, FloatArray, Layout, View, one_hot

RECENT = 8
_KIND = {FRENCH_NAMES[k]: k for k in range(NUM_KINDS)}


class RankEncoder(Encoder):
    """Encoder of one Ранг variant (``players``)."""

    game: Rank

    def __init__(self, game: Rank) -> None:
        super().__init__(game)
        n = game.num_players
        P = game.packs
        S = 54 * P
        self.packs = int(P)
        self.slots = S
        self.copies = [P] * 52 + [2 * P]
        self.observation_layout = Layout([
            ("hand", (S,), "the observer's hand (physical-card slots)"),
            ("top", (NUM_KINDS,), "the top card of the pile (kind one-hot)"),
            ("pile", (S,), "every card on the pile"),
            ("unseen", (S,), "cards not seen: the other hands and the stock"),
            ("seats", (n, 7), "per relative seat: to move, in the game, hand size / 20, out, "
                              "place / n, dealer, declared the active Anti-Rank"),
            ("status", (8,), "stock / deck, Anti-Rank active, plays this turn / 10, draws this turn / 10, "
                             "pull-back this turn, game over, I lost, I am out"),
        ])
        self.information_state_layout = self.observation_layout.extended([
            ("played_by", (n, NUM_KINDS), "cards played by each relative seat / copies of the kind"),
            ("draw_counts", (n, 3), "per seat: draws / 20, draws not played / 20, passes / 10"),
            ("my_draws", (S,), "the cards the observer drew"),
            ("stuck_on", (n, NUM_KINDS), "top card at each seat's latest draw or pass"),
            ("recent", (RECENT, n + NUM_ACTIONS), "last 8 actions, newest first: relative actor, action id"),
        ])

    def _slot(self, kind: int, i: int) -> int:
        return 52 * self.packs + i if kind == JOKER else kind * self.packs + i

    def _add(self, arr: FloatArray, names: list[str]) -> None:
        counts: dict[int, int] = {}
        for name in names:
            k = _KIND[name]
            counts[k] = counts.get(k, 0) + 1
        self._set(arr, counts)

    def _set(self, arr: FloatArray, counts: dict[int, int]) -> None:
        for k, c in counts.items():
            for i in range(min(c, self.copies[k])):
                arr[self._slot(k, i)] = 1.0

    def _observation(self, t: dict[str, FloatArray], view: View) -> None:
        me = int(view["player"])
        n = self.num_players
        self._add(t["hand"], view["hand"])
        one_hot(t["top"], _KIND[view["top"]])
        self._add(t["pile"], view["pile"])
        seen: dict[int, int] = {}
        for name in list(view["hand"]) + list(view["pile"]):
            k = _KIND[name]
            seen[k] = seen.get(k, 0) + 1
        unseen = t["unseen"]
        for k in range(NUM_KINDS):
            for i in range(seen.get(k, 0), self.copies[k]):
                unseen[self._slot(k, i)] = 1.0
        seats = t["seats"]
        in_game = set(view["in_game"])
        finished: list[int] = view["finished"]
        anti = view["anti_rank"]
        for seat in range(n):
            r = (seat - me) % n
            seats[r, 0] = float(view["current_player"] == seat)
            seats[r, 1] = float(seat in in_game)
            seats[r, 2] = view["hand_sizes"][seat] / 20.0
            if seat in finished:
                seats[r, 3] = 1.0
                seats[r, 4] = (finished.index(seat) + 1) / n
            seats[r, 5] = float(view["dealer"] == seat)
            seats[r, 6] = float(bool(anti["active"]) and anti["declared_by"] == seat)
        st = t["status"]
        deck = 54 * self.packs
        st[0] = view["stock"] / deck
        st[1] = float(bool(anti["active"]))
        turn = view["turn"]
        if turn is not None:
            st[2] = len(turn["plays"]) / 10.0
            st[3] = turn["drew"] / 10.0
        st[4] = float(view["pull_back"] is not None)
        st[5] = float(view["current_player"] < 0)
        st[6] = float(view["loser"] == me)
        st[7] = float(me in finished)

    def _history(self, t: dict[str, FloatArray], view: View) -> None:
        me = int(view["player"])
        n = self.num_players
        played = t["played_by"]
        draws = t["draw_counts"]
        stuck = t["stuck_on"]
        mine: dict[int, int] = {}
        top = -1
        actions: list[tuple[int, int]] = []
        for e in view["log"]:
            event = e["event"]
            seat = int(e["seat"])
            r = (seat - me) % n
            if event == "start":
                top = _KIND[e["card"]]
            elif event == "play":
                k = _KIND[e["card"]]
                played[r, k] += 1.0 / self.copies[k]
                top = k
                actions.append((r, k))
            elif event == "draw":
                draws[r, 0] += 1.0 / 20.0
                if not e["played"]:
                    draws[r, 1] += 1.0 / 20.0
                stuck[r, :] = 0.0
                if top >= 0:
                    stuck[r, top] = 1.0
                if "card" in e:
                    k = _KIND[e["card"]]
                    mine[k] = mine.get(k, 0) + 1
                actions.append((r, DRAW))
            elif event == "pass":
                draws[r, 2] += 1.0 / 10.0
                stuck[r, :] = 0.0
                if top >= 0:
                    stuck[r, top] = 1.0
                actions.append((r, PASS))
        self._set(t["my_draws"], mine)
        recent = t["recent"]
        for i, (r, a) in enumerate(reversed(actions[-RECENT:])):
            recent[i, r] = 1.0
            recent[i, n + a] = 1.0
