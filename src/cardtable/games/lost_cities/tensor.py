"""Tensor encoding of Lost Cities views (LC-8 information only).

Card sets use the **physical-card layout** of ``S = 12 * colors`` slots: colour ``c``
owns slots ``12c .. 12c+11``; slots ``12c+0..2`` are its three wagers (a *thermometer*:
``n`` wagers set the first ``n`` slots, since wagers are interchangeable, LC-1) and slot
``12c+1+v`` is the number card of value index ``v = 1..9`` (cards 2..10).  Colours are in
``view["colors"]`` order (Y B W G R, then P).  "mine"/"theirs" are relative to the
observer; ``R`` is the number of rounds of the variant and ``A`` the action count
(``20C + 1 + C``).

Observation segments (see :meth:`LostCitiesEncoder.describe` for offsets):

``hand`` (S)                 the observer's hand
``opponent_known`` (S)       cards the opponent took from discard piles and still holds (LC-8)
``expedition_mine`` (S)      the observer's expeditions
``expedition_theirs`` (S)    the opponent's expeditions
``discards`` (S)             every card in the discard piles
``discard_tops`` (S)         the top card of each discard pile (what a draw would take)
``discard_depth`` (C)        cards in each discard pile / 12
``unseen`` (S)               cards the observer has not seen: opponent's other cards + draw pile
``expedition_scores`` (2, C) LC-6 value of each expedition now / 100 (row 0 mine)
``banned`` (C)               the pile discarded onto this turn (cannot be taken back, LC-4)
``status`` (8)               my turn, play phase, draw phase, match over, draw pile / its size
                             at the deal, opponent hand size / 8, turns without a deck draw / 100,
                             I started this round
``match`` (R + 3)            round one-hot, my total / 200, opponent total / 200, (mine − theirs) / 100

Information-state history segments (current round, from the public log):

``discarded_by`` (2, S)      cards discarded this round by me (row 0) / the opponent (row 1)
``taken_by`` (2, S)          cards taken from discard piles this round by me / the opponent
``discard_order`` (S)        for a card now on a discard pile: (its depth + 1) / 12 — the pile order
``recent`` (L, 2 + A)        the last L = 8 actions, newest first: actor (me, opponent) one-hot
                             and action id one-hot
"""

from __future__ import annotations

from cardtable.cards import EXPEDITION_NAMES
from cardtable.games.lost_cities import HAND_SIZE, LostCities
from cardtable.rl.encoding import Encoder, FloatArray, Layout, View, clip, one_hot

RECENT = 8
"""Actions kept in the ``recent`` history segment."""


class LostCitiesEncoder(Encoder):
    """Encoder of one Lost Cities variant (``colors``, ``rounds``)."""

    game: LostCities

    def __init__(self, game: LostCities) -> None:
        super().__init__(game)
        C = game.colors
        S = 12 * C
        R = game.config.rounds
        A = game.num_distinct_actions
        self.colors = C
        self.slots = S
        self.rounds = R
        self._kind = {EXPEDITION_NAMES[k]: k for k in range(10 * C)}
        self._action = {game.action_name(a): a for a in range(A)}
        self._draw_pile_start = 12 * C - 2 * HAND_SIZE
        self.observation_layout = Layout([
            ("hand", (S,), "the observer's hand (physical-card slots)"),
            ("opponent_known", (S,), "cards the opponent took from discard piles and still holds"),
            ("expedition_mine", (S,), "the observer's expeditions"),
            ("expedition_theirs", (S,), "the opponent's expeditions"),
            ("discards", (S,), "every card in the discard piles"),
            ("discard_tops", (S,), "the top card of each discard pile"),
            ("discard_depth", (C,), "cards in each discard pile / 12"),
            ("unseen", (S,), "cards not seen: opponent's unknown cards and the draw pile"),
            ("expedition_scores", (2, C), "LC-6 value of each expedition now / 100 (row 0 mine)"),
            ("banned", (C,), "the pile discarded onto this turn (LC-4)"),
            ("status", (8,), "my turn, play phase, draw phase, over, draw pile fraction, "
                             "opponent hand / 8, turns without deck draw / 100, I started the round"),
            ("match", (R + 3,), "round one-hot, my total / 200, opponent total / 200, difference / 100"),
        ])
        self.information_state_layout = self.observation_layout.extended([
            ("discarded_by", (2, S), "cards discarded this round by me / the opponent"),
            ("taken_by", (2, S), "cards taken from discard piles this round by me / the opponent"),
            ("discard_order", (S,), "(depth from the bottom + 1) / 12 of each card now on a pile"),
            ("recent", (RECENT, 2 + A), "last 8 actions, newest first: actor (me, opponent), action id"),
        ])

    # --- card sets ------------------------------------------------------------
    def _slot_of(self, kind: int, count: int) -> int:
        """Slot of the ``count``-th copy (0-based) of ``kind``."""
        c, v = divmod(kind, 10)
        return 12 * c + (count if v == 0 else 2 + v)

    def _add(self, arr: FloatArray, names: list[str], value: float = 1.0) -> None:
        seen: dict[int, int] = {}
        for name in names:
            k = self._kind[name]
            n = seen.get(k, 0)
            seen[k] = n + 1
            if n < 3:
                arr[self._slot_of(k, n)] = value

    def _counts(self, names: list[str], into: dict[int, int]) -> None:
        for name in names:
            k = self._kind[name]
            into[k] = into.get(k, 0) + 1

    def _set_counts(self, arr: FloatArray, counts: dict[int, int]) -> None:
        for k, n in counts.items():
            for i in range(min(n, 3) if k % 10 == 0 else min(n, 1)):
                arr[self._slot_of(k, i)] = 1.0

    # --- segments -------------------------------------------------------------
    def _observation(self, t: dict[str, FloatArray], view: View) -> None:
        me = int(view["player"])
        opp = 1 - me
        letters: list[str] = view["colors"]
        self._add(t["hand"], view["hand"])
        self._add(t["opponent_known"], view["opponent_known"])
        for seat, seg in ((me, "expedition_mine"), (opp, "expedition_theirs")):
            exp = view["expeditions"][seat]
            for letter in letters:
                self._add(t[seg], exp[letter])
        seen: dict[int, int] = {}
        for part in (view["hand"], view["opponent_known"]):
            self._counts(part, seen)
        for seat in (0, 1):
            for letter in letters:
                self._counts(view["expeditions"][seat][letter], seen)
        for c, letter in enumerate(letters):
            pile: list[str] = view["discards"][letter]
            self._add(t["discards"], pile)
            self._counts(pile, seen)
            t["discard_depth"][c] = len(pile) / 12.0
            if pile:
                top = self._kind[pile[-1]]
                already = sum(1 for x in pile[:-1] if x == pile[-1])
                t["discard_tops"][self._slot_of(top, min(already, 2))] = 1.0
        unseen = t["unseen"]
        for k in range(10 * self.colors):
            total = 3 if k % 10 == 0 else 1
            have = seen.get(k, 0)
            for i in range(have, total):
                unseen[self._slot_of(k, i)] = 1.0
        scores = t["expedition_scores"]
        for row, seat in enumerate((me, opp)):
            for c, x in enumerate(view["expedition_scores"][seat]):
                scores[row, c] = clip(x / 100.0)
        if view["banned"] is not None:
            one_hot(t["banned"], letters.index(view["banned"]))
        st = t["status"]
        phase = view["phase"]
        st[0] = float(view["current_player"] == me)
        st[1] = float(phase == "play")
        st[2] = float(phase == "draw")
        st[3] = float(phase == "over")
        st[4] = view["draw_pile"] / self._draw_pile_start
        st[5] = view["opponent_hand_size"] / HAND_SIZE
        st[6] = view["turns_without_deck_draw"] / 100.0
        st[7] = float(view["starter"] == me)
        m = t["match"]
        one_hot(m, int(view["round"]) - 1)
        scores_total: list[int] = view["scores"]
        R = self.rounds
        m[R] = clip(scores_total[me] / 200.0)
        m[R + 1] = clip(scores_total[opp] / 200.0)
        m[R + 2] = clip((scores_total[me] - scores_total[opp]) / 100.0)

    def _history(self, t: dict[str, FloatArray], view: View) -> None:
        me = int(view["player"])
        log: list[dict[str, object]] = view["log"]
        discarded: list[dict[int, int]] = [{}, {}]
        taken: list[dict[int, int]] = [{}, {}]
        for entry in log:
            who = 0 if entry["player"] == me else 1
            action = str(entry["action"])
            card = entry.get("card")
            if card is None:
                continue
            if action.startswith("discard"):
                self._counts([str(card)], discarded[who])
            elif action.startswith("draw"):
                self._counts([str(card)], taken[who])
        for who in (0, 1):
            self._set_counts(t["discarded_by"][who], discarded[who])
            self._set_counts(t["taken_by"][who], taken[who])
        order = t["discard_order"]
        for letter in view["colors"]:
            seen: dict[int, int] = {}
            for depth, name in enumerate(view["discards"][letter]):
                k = self._kind[name]
                n = seen.get(k, 0)
                seen[k] = n + 1
                order[self._slot_of(k, min(n, 2))] = (depth + 1) / 12.0
        recent = t["recent"]
        for i, entry in enumerate(reversed(log[-RECENT:])):
            recent[i, 0 if entry["player"] == me else 1] = 1.0
            recent[i, 2 + self._action[str(entry["action"])]] = 1.0
