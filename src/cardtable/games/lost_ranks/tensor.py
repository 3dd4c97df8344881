"""Tensor encoding of Lost Ranks views (LR-20 information only).

``n`` = players (4, or 2 for Command of Two).  Cards are the 53 ids of
:mod:`cardtable.cards` (``suit * 13 + rank``; 52 = the Spy); suits are clubs, diamonds,
hearts, spades.  Seats are relative: row 0 is the observer, row ``r`` the seat ``r``
places clockwise (4 players: row 2 is the partner).  Armies are relative too: "mine" is
the observer's army.

Observation segments:

``hand`` (53)               the observer's real hand
``trump_card`` (53)         the Trump Card (out of play, LR-4)
``trump_suit`` (4)          its suit
``active_soldiers`` (53)    the active Lost Soldiers (LR-5)
``trick`` (n, 53)           the card each seat has played to the current trick
``trick_from_phantom`` (n)  that card came from a phantom deck (2 players)
``led_suit`` (5)            the led suit, or slot 4: the Spy was led and the next card is free
``captured`` (2, 53)        cards captured this round by my army / the enemy army
``discards`` (53)           cards discarded this round (LR-11)
``unseen`` (53)             cards the observer has not seen (others' hands, face-down phantoms)
``voids`` (n, 4)            suits each seat has shown it lacks
``last_trick`` (n, 53)      the previous trick's card per seat
``last_winner`` (n + 1)     who won it (slot n: nobody, LR-11)
``seats`` (n, 5)            per seat: to move, leads this trick, hand size / 17, my army, dealer
``status`` (14)             phase lead / follow / choose / over, trick number / tricks per round,
                            round points mine / enemy / 10, match totals mine / enemy / target,
                            round / round cap, tiebreak round, first lead forced (LR-6), I am
                            Red, Force Strength on
``phantom_mine`` (9, 53)    2 players: my phantom deck, position ``i`` (top first) one-hot
``phantom_theirs`` (9, 53)  2 players: the opponent's phantom deck, face-up positions only
``phantom_status`` (2, 10)  2 players: per seat (mine, theirs) the face-up flags of the 9
                            positions and the deck size / 9
``drawn`` (2, 53)           2 players: the two drawn cards of a draw-two, as far as I see them
``lead_source`` (2)         2 players: the leader played from hand / phantom

(With 4 players the phantom segments are absent, so the shapes stay fixed per variant.)

Information-state history segments (current round, from the public log):

``played_by`` (n, 53)       cards each seat played this round
``played_when`` (53)        (trick index + 1) / tricks per round of every card played
``led_by`` (n, 53)          cards each seat led (first card of a trick)
``won_tricks`` (n)          tricks each seat won this round / tricks per round
``from_phantom`` (53)       2 players: played from a phantom deck; ``face_up_by`` (n, 53) the
                            card each seat put face up under its phantom deck
"""

from __future__ import annotations

from cardtable.cards import FRENCH_NAMES, SUIT_WORDS
from cardtable.games.lost_ranks import LostRanks
from cardtable.rl.encoding import Encoder, FloatArray, Layout, View, clip, one_hot

N = 53
_CARD = {FRENCH_NAMES[c]: c for c in range(N)}
_SUIT = {w: i for i, w in enumerate(SUIT_WORDS)}
PHANTOM = 9


class LostRanksEncoder(Encoder):
    """Encoder of one Lost Ranks variant (``players``, ``force_strength``, ``longer_game``)."""

    game: LostRanks

    def __init__(self, game: LostRanks) -> None:
        super().__init__(game)
        n = game.num_players
        self.two = n == 2
        self.tricks = game.tricks_per_round
        segs: list[tuple[str, tuple[int, ...], str]] = [
            ("hand", (N,), "the observer's real hand"),
            ("trump_card", (N,), "the Trump Card"),
            ("trump_suit", (4,), "the trump suit"),
            ("active_soldiers", (N,), "the active Lost Soldiers (LR-5)"),
            ("trick", (n, N), "card played to the current trick by each relative seat"),
            ("trick_from_phantom", (n,), "that card came from a phantom deck"),
            ("led_suit", (5,), "led suit one-hot; slot 4: the Spy was led, next card free"),
            ("captured", (2, N), "cards captured this round by my army / the enemy"),
            ("discards", (N,), "cards discarded this round (LR-11)"),
            ("unseen", (N,), "cards the observer has not seen"),
            ("voids", (n, 4), "suits each relative seat has shown it lacks"),
            ("last_trick", (n, N), "previous trick: card per relative seat"),
            ("last_winner", (n + 1,), "winner of the previous trick (slot n: nobody)"),
            ("seats", (n, 5), "per relative seat: to move, leader, hand size / 17, my army, dealer"),
            ("status", (14,), "phase lead/follow/choose/over, trick / tricks, round points mine/enemy / 10, "
                              "totals mine/enemy / target, round / cap, tiebreak, forced first lead, "
                              "I am Red, Force Strength"),
        ]
        if self.two:
            segs += [
                ("phantom_mine", (PHANTOM, N), "my phantom deck, position one-hot, top first"),
                ("phantom_theirs", (PHANTOM, N), "opponent's phantom deck, face-up positions only"),
                ("phantom_status", (2, PHANTOM + 1), "per seat (mine, theirs): face-up flags, size / 9"),
                ("drawn", (2, N), "the two cards of a pending draw-two, as far as visible"),
                ("lead_source", (2,), "the leader played from hand / phantom"),
            ]
        self.observation_layout = Layout(segs)
        hist: list[tuple[str, tuple[int, ...], str]] = [
            ("played_by", (n, N), "cards each relative seat played this round"),
            ("played_when", (N,), "(trick index + 1) / tricks per round of each played card"),
            ("led_by", (n, N), "cards each relative seat led this round"),
            ("won_tricks", (n,), "tricks each relative seat won this round / tricks per round"),
        ]
        if self.two:
            hist += [
                ("from_phantom", (N,), "cards played from a phantom deck this round"),
                ("face_up_by", (n, N), "cards each seat turned face up under its phantom deck"),
            ]
        self.information_state_layout = self.observation_layout.extended(hist)

    def _cards(self, arr: FloatArray, names: list[str]) -> None:
        for name in names:
            arr[_CARD[name]] = 1.0

    def _observation(self, t: dict[str, FloatArray], view: View) -> None:
        me = int(view["player"])
        n = self.num_players
        armies: list[str] = view["armies"]
        mine = view["army"]
        enemy = "black" if mine == "red" else "red"
        self._cards(t["hand"], view["hand"])
        trump = _CARD[view["trump_card"]]
        t["trump_card"][trump] = 1.0
        one_hot(t["trump_suit"], _SUIT[view["trump_suit"]])
        self._cards(t["active_soldiers"], view["active_soldiers"])
        seen = set(view["hand"]) | {view["trump_card"]}
        for play in view["trick"]:
            r = self.relative(view, play["seat"])
            t["trick"][r, _CARD[play["card"]]] = 1.0
            t["trick_from_phantom"][r] = float(play["source"] == "phantom")
            seen.add(play["card"])
        if view["led_suit"] is not None:
            t["led_suit"][_SUIT[view["led_suit"]]] = 1.0
        elif view["trick"]:
            t["led_suit"][4] = 1.0
        for row, army in enumerate((mine, enemy)):
            self._cards(t["captured"][row], view["captured"][army])
            seen.update(view["captured"][army])
        self._cards(t["discards"], view["discards"])
        seen.update(view["discards"])
        for seat in range(n):
            r = (seat - me) % n
            for suit in view["voids"][seat]:
                t["voids"][r, _SUIT[suit]] = 1.0
        last = view["last_trick"]
        if last is not None:
            for play in last["trick"]:
                t["last_trick"][self.relative(view, play["seat"]), _CARD[play["card"]]] = 1.0
            w = last["winner"]
            t["last_winner"][n if w is None else self.relative(view, w)] = 1.0
        seats = t["seats"]
        for seat in range(n):
            r = (seat - me) % n
            seats[r, 0] = float(view["current_player"] == seat)
            seats[r, 1] = float(view["leader"] == seat)
            seats[r, 2] = view["hand_sizes"][seat] / 17.0
            seats[r, 3] = float(armies[seat] == mine)
            seats[r, 4] = float(view["dealer"] == seat)
        self._status(t["status"], view)
        if self.two:
            self._phantom_planes(t, view, seen)
        unseen = t["unseen"]
        for c in range(N):
            if FRENCH_NAMES[c] not in seen:
                unseen[c] = 1.0

    def _status(self, st: FloatArray, view: View) -> None:
        """The ``status`` segment: phase, trick number, points, scores, match flags."""
        mine = view["army"]
        enemy = "black" if mine == "red" else "red"
        phase = view["phase"]
        for i, name in enumerate(("lead", "follow", "choose", "over")):
            st[i] = float(phase == name)
        st[4] = view["trick_number"] / self.tricks
        points = view["round_points"]
        st[5] = clip(points[mine] / 10.0)
        st[6] = clip(points[enemy] / 10.0)
        target = view["target"] or 10
        totals = view["army_scores"]
        st[7] = clip(totals[mine] / target)
        st[8] = clip(totals[enemy] / target)
        st[9] = clip(view["round"] / (view["max_rounds"] or 50))
        st[10] = float(view["tiebreak_round"] > 0)
        st[11] = float(view["first_lead"] is not None)
        st[12] = float(mine == "red")
        st[13] = float(bool(view["force_strength"]))

    def _phantom_planes(self, t: dict[str, FloatArray], view: View, seen: set[str]) -> None:
        """Command of Two's segments: the phantom decks, the drawn pair and the lead's
        source; the cards they show are added to ``seen``."""
        me = int(view["player"])
        for row, seat in enumerate((me, 1 - me)):
            deck = view["phantoms"][seat]
            face = view["phantom_face_up"][seat]
            seg = t["phantom_mine"] if row == 0 else t["phantom_theirs"]
            for i, name in enumerate(deck[:PHANTOM]):
                if name is not None:
                    seg[i, _CARD[name]] = 1.0
                    seen.add(name)
                t["phantom_status"][row, i] = float(face[i])
            t["phantom_status"][row, PHANTOM] = len(deck) / PHANTOM
        drawn = view["drawn"]
        if drawn is not None:
            for i, name in enumerate(drawn["cards"][:2]):
                if name is not None:
                    t["drawn"][i, _CARD[name]] = 1.0
                    seen.add(name)
        source = view["lead_source"]
        if source is not None:
            t["lead_source"][0 if source == "hand" else 1] = 1.0

    def _history(self, t: dict[str, FloatArray], view: View) -> None:
        trick = 0
        first = True
        for e in view["log"]:
            if "seat" not in e:
                w = e.get("winner")
                if w is not None:
                    t["won_tricks"][self.relative(view, w)] += 1.0 / self.tricks
                trick += 1
                first = True
                continue
            r = self.relative(view, e["seat"])
            c = _CARD[e["card"]]
            t["played_by"][r, c] = 1.0
            t["played_when"][c] = (trick + 1) / self.tricks
            if first:
                t["led_by"][r, c] = 1.0
                first = False
            if self.two:
                if e["source"] == "phantom":
                    t["from_phantom"][c] = 1.0
                up = e.get("face_up")
                if up is not None:
                    t["face_up_by"][r, _CARD[up]] = 1.0
