"""Ранг (Rank): one scenario test per ruling RG-1 … RG-9, conformance, determinism,
the heuristic's measured strength and the console renderer.

Scenarios are built from explicit decks.  Short ones are written card by card with
:func:`build`; the few that need an exhausted stock (RG-5 pass, RG-6 out at once,
RG-8 Anti-Rank) use a full deck written out below and the fixed policy "always the
first legal action" to reach the position.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from conformance import check_game

from cardtable.agents import Observation, make_agent
from cardtable.cards import parse_french
from cardtable.games.rank.terminal import describe, render
from cardtable.games.rank import ALL_KINDS as ALL
from cardtable.games.rank import (
    DRAW, PASS, HandConstraints, Rank, RankState, constrained_deal, constraints_of_view, playable,
)
from cardtable.protocol import IllegalAction


def cards(text: str) -> list[int]:
    return [parse_french(x) for x in text.split()]


def names(state: RankState, seat: int) -> list[str]:
    return list(state.view(seat)["hand"])


def seed_with_dealer(game: Rank, dealer: int) -> int:
    return next(s for s in range(10_000) if game.dealer_of(s) == dealer)


def build(game: Rank, hands: dict[int, str], up: str, stock: str = "") -> RankState:
    """A game whose seat 0 moves first (the dealer is the last seat), with the given
    hands, turned-up card and top of the stock; every other card goes to the bottom
    of the stock in id order."""
    n = game.num_players
    assert sorted(hands) == list(range(n)), "give every seat's hand"
    seed = seed_with_dealer(game, n - 1)
    order: list[int] = []
    for seat in range(n):  # seat 0 = left of the dealer, dealt first (RG-2)
        assert len(hands[seat].split()) == 5
        order += cards(hands[seat])
    order += cards(up) + cards(stock)
    pool = Counter({k: game.pack[k] for k in range(53)})
    pool.subtract(order)
    assert all(v >= 0 for v in pool.values()), "a card is used too often"
    order += sorted(pool.elements())
    return game.new_state(seed=seed, decks=[order])


def play(state: RankState, *moves: str) -> None:
    for m in moves:
        state.apply_action(state.parse_action(m))


def legal(state: RankState) -> list[str]:
    return state.legal_action_strings()


def reason(state: RankState, move: str) -> str:
    refusal = state.why_illegal(state.game.parse_action_name(move))
    assert refusal is not None, f"{move} is legal"
    return refusal.message


def first_legal_until(state: RankState, condition: object, limit: int = 500) -> RankState:
    for _ in range(limit):
        if condition(state):  # type: ignore[operator]
            return state
        state.apply_action(state.legal_actions()[0])
    raise AssertionError("condition never met")


# Full decks (dealing order) whose "first legal action" play-outs reach empty-stock positions.
DECK_3P_1587 = (  # dealer 0: Anti-Rank declared, the next player can play — it is over
    "JD 4H 4D KS 6H 2D AH JC 8S 9C 6D JH 7H JK KH 2C 6S 4S 2S 4C KD 8C 6C 10C 10H 3S KC QH JK 3C AS "
    "10D 9D QC QS 5C 8D AC 7C 2H 5S 9H 8H 7D 3H 3D 10S AD QD 9S 7S JS 5D 5H"
)
DECK_4P_1089 = (  # dealer 0: Anti-Rank, the next player cannot play though a later one could
    "5H 6H 4D 5D QS KS AS JD JC 8S JS AC 6D 10D JK 2H QH 3S 9H QC JH 7S 10S JK 9S KH KC 4S AH 5S 6C "
    "10C 10H 8C 9D 4H 2S 6S AD 8D KD 7H 4C 5C 9C 3H 3C 7D QD 2D 7C 3D 2C 8H"
)
DECK_4P_1497 = (  # dealer 0: a pass with an empty stock; a player out at once
    "JK 5D 3C 4S 8D 10S JD 10C 4H 6S 6H 5C 4C 7H 5H AS 2H QD QC 9H 7S JC 8H JH AC AH 7D 7C QH JS KD "
    "JK 8S 6C 10D 10H 2C 9D QS 6D 9S KH 3S 4D KC 2S 9C 5S AD KS 3D 3H 8C 2D"
)
DECK_3P_1330 = (  # dealer 1: a pull-back with a single card left in the stock
    "3D 2H 6S 4S KD AC 6C KS 9C AH 6H KC 10H 2D 10C 5D QS 4D 3H 3C 9H 3S 8S 5C 2C 5S 10S QC 7S JH JD "
    "5H 7H AD 8C JK 8H 6D 9D AS JS KH QH 7D JK 4C 10D 9S 4H 8D QD JC 7C 2S"
)


def from_deck(players: int, seed: int, deck: str) -> RankState:
    return Rank(players=players).new_state(seed=seed, decks=[cards(deck)])


# --- RG-1 -----------------------------------------------------------------------------
def test_rg1_decks_players_and_circular_rank_order() -> None:
    for n in (2, 3, 4):
        assert Rank(players=n).deck_size == 54
    for n in (5, 10):
        game = Rank(players=n)
        assert game.deck_size == 108 and game.pack[parse_french("7H")] == 2 and game.pack[52] == 4
    for bad in (1, 11, True, "4"):
        with pytest.raises(ValueError, match="2 to 10"):
            Rank(players=bad)  # type: ignore[arg-type]
    game = Rank(players=4)
    full = [k for k in range(53) for _ in range(game.pack[k])]
    with pytest.raises(ValueError, match=r"RG-1.*missing AS"):
        game.new_state(decks=[[c for c in full if c != parse_french("AS")] + [0]])
    with pytest.raises(ValueError, match="0..52"):
        game.new_state(decks=[full[:-1] + [53]])
    with pytest.raises(ValueError, match="single game"):
        game.new_state(decks=[full, full])
    # Circular order: the Ace touches both the 2 and the King; suits never matter.
    s = build(game, {0: "2C KD QH 5S 9D", 1: "3C 3D 3H 3S 4C", 2: "4D 4H 4S 5C 5D",
                     3: "5H 6C 6D 6H 6S"}, up="AS")
    assert legal(s) == ["play 2C", "play KD"]
    assert "one rank from A (K or 2)" in reason(s, "QH") and "(RG-4)" in reason(s, "QH")
    play(s, "KD")  # top K: the Queen and the Ace are one rank away
    assert legal(s) == ["play QH"]
    play(s, "QH")
    assert legal(s) == ["draw"]  # stuck on QH with 2C 5S 9D
    assert Rank(players=2).parse_card("JK") == 52 and Rank(players=2).card_name(52) == "JK"


# --- RG-2 -----------------------------------------------------------------------------
def test_rg2_deal_dealer_from_seed_five_each_then_up_card_and_stock() -> None:
    game = Rank(players=4)
    seed = 3
    dealer = game.dealer_of(seed)
    deck = [k for k in range(53) for _ in range(game.pack[k])]
    random.Random(5).shuffle(deck)
    s = game.new_state(seed=seed, decks=[deck])
    assert s.view(0)["dealer"] == dealer
    for i in range(4):
        seat = (dealer + 1 + i) % 4
        assert sorted(cards(" ".join(names(s, seat)))) == sorted(deck[5 * i: 5 * i + 5])
    view = s.view(0)
    assert view["pile"] == [game.card_name(deck[20])] and view["top"] == game.card_name(deck[20])
    assert view["stock"] == 54 - 21 and view["hand_sizes"] == [5, 5, 5, 5]
    # Seeded games: sizes by player count (one pack up to 4 players, two from 5).
    for n, stock in ((2, 43), (3, 38), (5, 82), (10, 57)):
        v = Rank(players=n).new_state(seed=1).view(0)
        assert v["stock"] == stock and v["hand_sizes"] == [5] * n and len(v["pile"]) == 1
    # The stock is drawn top first: a stuck first player draws deck[21].
    s = build(game, {0: "2C 3C 4C 2D 3D", 1: "5C 5D 5H 5S 6C", 2: "6D 6H 6S 7C 7D",
                     3: "7H 7S 8C 8D 8H"}, up="10S", stock="QD 4S")
    assert legal(s) == ["draw"]
    play(s, "draw")
    assert "QD" in names(s, 0) and s.current_player() == 1


# --- RG-3 -----------------------------------------------------------------------------
def test_rg3_left_of_dealer_moves_first_then_clockwise() -> None:
    for n in (2, 3, 6):
        game = Rank(players=n)
        for seed in range(6):
            s = game.new_state(seed=seed)
            assert s.current_player() == (game.dealer_of(seed) + 1) % n
    game = Rank(players=3)
    # Seat 0 goes out (seat 1 cannot answer QD); seat 1 draws an unplayable card; seat 2
    # plays, gets stuck, draws an unplayable card: the turn skips seat 0 back to seat 1.
    s = build(game, {0: "8D 9D 10D JD QD", 1: "2C 3C 4C 5C 6C", 2: "JS 3H 4H 5H 6H"}, up="7C",
              stock="2S 3S 4S")
    play(s, "8D", "9D", "10D", "JD", "QD")
    assert s.view(0)["finished"] == [0] and s.current_player() == 1
    play(s, "draw")  # 2S on QD: cannot play
    assert s.current_player() == 2
    play(s, "JS")  # on QD; then stuck on JS with 3H 4H 5H 6H
    assert legal(s) == ["draw"]
    play(s, "draw")  # 3S: not playable on JS
    assert s.current_player() == 1


# --- RG-4 -----------------------------------------------------------------------------
OTHERS = {1: "2C 2D 2H 2S 3C", 2: "3D 3H 3S 4C 4D", 3: "4H 4S 5C 5D 5H"}


def test_rg4_strict_tiers_compulsion_and_continuing() -> None:
    game = Rank(players=4)
    # Tier 1: one rank away (any suit) beats everything else.
    s = build(game, {0: "6H 8S 7D AS JK", **OTHERS}, up="7C")
    assert legal(s) == ["play 6H", "play 8S"]
    assert reason(s, "7D") == "you hold a card one rank from 7 (6 or 8): play that first (RG-4)"
    assert "RG-4" in reason(s, "AS") and "RG-4" in reason(s, "JK")
    assert "compulsory" in reason(s, "draw") and "compulsory" in reason(s, "pass")
    assert reason(s, "9C").startswith("you do not hold 9C")
    # After each play the same player continues against the new top card.
    play(s, "8S")
    assert s.current_player() == 0 and legal(s) == ["play 7D"]
    play(s, "7D")
    assert legal(s) == ["play 6H"]
    play(s, "6H")  # on 6: nothing one away, no 6: Aces or Kings next
    assert legal(s) == ["play AS"]
    assert reason(s, "JK") == "you hold an Ace or a King: play it before a joker (RG-4)"
    play(s, "AS")
    assert legal(s) == ["play JK"]
    play(s, "JK")  # last card: pull-back decided by seat 1 (RG-6)
    # Tier 2: the same rank, only when nothing is one rank away.
    s = build(game, {0: "7D AS KH JK 2C", **{1: "3C 3D 3H 3S 4C", 2: "4D 4H 4S 5C 5D", 3: "5H 5S 9C 9D 9H"}}, up="7C")
    assert legal(s) == ["play 7D"]
    assert reason(s, "AS") == "you hold a 7, the same rank as 7C: play it before an Ace, King or joker (RG-4)"
    # Tier 3: any Ace or King; tier 4: a joker.
    s = build(game, {0: "AS KH JK 2C 3D", 1: "3C 3H 3S 4C 4D", 2: "4H 4S 5C 5D 5H",
                     3: "5S 9C 9D 9H 9S"}, up="7C")
    assert legal(s) == ["play KH", "play AS"]
    s = build(game, {0: "JK 2C 3D 4H 10S", 1: "3C 3H 3S 4C 4D", 2: "2D 4S 5C 5D 5H",
                     3: "5S 9C 9D 9H 9S"}, up="7C")
    assert legal(s) == ["play JK"]
    assert reason(s, "2C") == ("2C does not go on 7C: it is neither one rank from 7 (6 or 8), nor a 7, "
                               "nor an Ace, King or joker (RG-4)")
    play(s, "JK")  # anything goes on a joker
    assert legal(s) == ["play 2C", "play 3D", "play 4H", "play 10S"]


# --- RG-5 -----------------------------------------------------------------------------
def test_rg5_stuck_player_draws_must_play_a_playable_draw_and_passes_on_empty_stock() -> None:
    game = Rank(players=4)
    hands = {0: "2C 3C 4C 2D 3D", 1: "5C 5D 5H 5S 6C", 2: "6D 6H 6S 4H 4S", 3: "7H 7S 8C 8D 8H"}
    s = build(game, hands, up="10S", stock="JD QS 4D")
    assert legal(s) == ["draw"]
    assert "you can play nothing, so draw a card (RG-5)" in reason(s, "2C")
    assert "(RG-5)" in reason(s, "pass")
    play(s, "draw")  # JD goes on 10S: it must be played, and nothing else
    assert legal(s) == ["play JD"]
    assert reason(s, "2C") == "you drew JD and it can be played: it must be played (RG-5)"
    assert s.view(0)["log"][-1] == {"move": 1, "event": "draw", "seat": 0, "played": True, "card": "JD"}
    play(s, "JD")  # the turn goes on: stuck again on JD, draw again
    assert s.current_player() == 0 and legal(s) == ["draw"]
    play(s, "draw")  # QS on JD: playable
    play(s, "QS")
    play(s, "draw")  # 4D on QS: not playable, the turn passes
    assert s.current_player() == 1 and "4D" in names(s, 0)
    assert s.view(1)["log"][-1] == {"move": 5, "event": "draw", "seat": 0, "played": False}
    assert s.view(0)["log"][-1]["card"] == "4D"
    # Empty stock: a stuck player passes (somebody else can still play: no Anti-Rank).
    s = first_legal_until(from_deck(4, 1497, DECK_4P_1497), lambda t: t.legal_actions() == [PASS])
    view = s.view(s.current_player())
    assert view["stock"] == 0 and not view["anti_rank"]["active"]
    assert playable(cards(" ".join(view["hand"])), parse_french(view["top"])) == []
    assert reason(s, "draw") == "the stock is empty: you cannot draw, so you pass (RG-5)"
    others = [p for p in view["in_game"] if p != s.current_player()]
    assert any(playable(cards(" ".join(names(s, p))), parse_french(view["top"])) for p in others)
    seat = s.current_player()
    play(s, "pass")
    assert s.current_player() != seat and s.view(0)["log"][-1]["event"] == "pass"


# --- RG-6 -----------------------------------------------------------------------------
def test_rg6_pull_back_decided_by_the_next_player() -> None:
    game = Rank(players=4)
    rest = {2: "2H 3H 4H 5H 6H", 3: "2S 3S 4S 5S 6S"}
    # The next player can answer QD: seat 0 draws the top two stock cards and is back.
    s = build(game, {0: "8D 9D 10D JD QD", 1: "JC 2C 3C 4C 5C", **rest}, up="7C", stock="9S 10S 7D")
    play(s, "8D", "9D", "10D", "JD", "QD")
    assert sorted(names(s, 0)) == ["10S", "9S"] and s.current_player() == 1
    view = s.view(1)
    assert view["pull_back"] == {"move": 5, "event": "pull-back", "seat": 0, "by": 1, "cards": 2}
    assert view["in_game"] == [0, 1, 2, 3] and view["stock"] == 33 - 2
    assert legal(s) == ["play JC"]
    # The next player must draw: seat 0 is out for good.
    s = build(game, {0: "8D 9D 10D JD QD", 1: "6C 2C 3C 4C 5C", **rest}, up="7C", stock="9S 10S")
    play(s, "8D", "9D", "10D", "JD", "QD")
    view = s.view(1)
    assert view["finished"] == [0] and view["in_game"] == [1, 2, 3] and view["hand_sizes"][0] == 0
    assert view["pull_back"] == {"move": 5, "event": "out", "seat": 0, "place": 1, "by": 1}
    assert legal(s) == ["draw"]
    # Nobody goes out on a joker while the stock lasts.
    s = build(game, {0: "8D 9D 10D JD JK", 1: "6C 2C 3C 4C 5C", **rest}, up="7C", stock="9S 10S")
    play(s, "8D", "9D", "10D", "JD", "JK")
    assert len(names(s, 0)) == 2 and s.view(0)["finished"] == []
    # Only as many cards as remain: a single card left in the stock.
    s = first_legal_until(from_deck(3, 1330, DECK_3P_1330),
                          lambda t: any(e["event"] == "pull-back" and e["cards"] == 1 for e in t.view(0)["log"]))
    entry = next(e for e in s.view(0)["log"] if e["event"] == "pull-back")
    assert s.view(0)["stock"] == 0 and s.view(0)["hand_sizes"][entry["seat"]] == 1
    # With an empty stock the player who plays their last card is out at once.
    s = first_legal_until(from_deck(4, 1497, DECK_4P_1497),
                          lambda t: any(e["event"] == "out" and e["by"] is None for e in t.view(0)["log"]))
    out = next(e for e in s.view(0)["log"] if e["event"] == "out" and e["by"] is None)
    view = s.view(0)
    assert view["stock"] == 0 and view["hand_sizes"][out["seat"]] == 0 and out["seat"] in view["finished"]
    assert out["seat"] not in view["in_game"] and view["pull_back"] is None


# --- RG-7 -----------------------------------------------------------------------------
def test_rg7_last_player_left_loses_pull_back_decided_first() -> None:
    game = Rank(players=2)
    s = build(game, {0: "8D 9D 10D JD QD", 1: "2C 3C 4C 5C 6C"}, up="7C")
    play(s, "8D", "9D", "10D", "JD")
    assert s.returns() == [0.0, 0.0] and s.view(0)["round_scores"] == []
    play(s, "QD")  # seat 1 cannot answer QD: seat 0 is out, seat 1 stays in Rank
    assert s.is_terminal() and s.legal_actions() == []
    assert s.returns() == [0.0, -1.0]
    assert s.result() == {"returns": [0.0, -1.0], "scores": [0, -1], "loser": 1, "order": [0, 1],
                          "winner": 0, "moves": 5}
    view = s.view(1)
    assert view["scores"] == [0, -1] and view["round_scores"] == [[0, -1]] and view["round"] == 1
    assert "game is over" in reason(s, "draw") and "(RG-7)" in reason(s, "draw")
    # The pull-back counts first: seat 1 can answer, seat 0 is back and the game goes on.
    s = build(game, {0: "8D 9D 10D JD QD", 1: "KC 3C 4C 5C 6C"}, up="7C")
    play(s, "8D", "9D", "10D", "JD", "QD")
    assert not s.is_terminal() and len(names(s, 0)) == 2 and s.current_player() == 1
    # A full game: the loser is the one seat never out; returns -1 for it, 0 otherwise.
    s = Rank(players=5).new_state(seed=4)
    rng = random.Random(4)
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
    result = s.result()
    assert sorted(result["order"]) == list(range(5)) and result["order"][-1] == result["loser"]
    assert s.returns() == [-1.0 if p == result["loser"] else 0.0 for p in range(5)]


# --- RG-8 -----------------------------------------------------------------------------
def _anti_declared(state: RankState) -> bool:
    return bool(state.view(0)["anti_rank"]["active"])


def _can_play(state: RankState, seat: int) -> bool:
    view = state.view(seat)
    return bool(playable(cards(" ".join(view["hand"])), parse_french(view["top"])))


def test_rg8_anti_rank_declared_any_card_turn_passes_and_ends() -> None:
    s = first_legal_until(from_deck(3, 1587, DECK_3P_1587), _anti_declared)
    seat = s.current_player()
    view = s.view(seat)
    assert view["stock"] == 0 and view["anti_rank"] == {"active": True, "declared_by": seat}
    assert view["log"][-1] == {"move": len(s.history), "event": "anti-rank", "seat": seat}
    # Nobody still in the game could play on the top card.
    assert not any(_can_play(s, p) for p in view["in_game"])
    # Any one card of the hand may be played; drawing and passing are refused.
    assert legal(s) == sorted({f"play {c}" for c in view["hand"]}, key=lambda m: s.game.parse_action_name(m))
    assert "Anti-Rank: nobody can play" in reason(s, "pass") and "(RG-8)" in reason(s, "draw")
    s.apply_action(s.legal_actions()[0])
    nxt = s.current_player()
    assert nxt != seat
    # The next player can play under RG-4: Anti-Rank is over and normal play resumes.
    assert _can_play(s, nxt) and not _anti_declared(s)
    assert s.view(0)["log"][-1]["event"] == "anti-rank over"
    hand = cards(" ".join(names(s, nxt)))
    assert s.legal_actions() == playable(hand, parse_french(s.view(0)["top"]))

    # The next player cannot play: they too play any card, even though a later player could.
    s = first_legal_until(from_deck(4, 1089, DECK_4P_1089),
                          lambda t: _anti_declared(t) and t.current_player() != t.view(0)["anti_rank"]["declared_by"])
    forced = s.current_player()
    assert not _can_play(s, forced)
    assert any(_can_play(s, p) for p in s.view(0)["in_game"] if p != forced)
    assert s.legal_actions() == sorted(set(cards(" ".join(names(s, forced)))))
    assert "you cannot play" in reason(s, "pass") and "(RG-8)" in reason(s, "pass")
    s.apply_action(s.legal_actions()[0])
    assert s.current_player() != forced
    last_play = [e for e in s.view(0)["log"] if e["event"] == "play"][-1]
    assert last_play["seat"] == forced and last_play["anti_rank"] is True


# --- RG-9 -----------------------------------------------------------------------------
def test_rg9_information_view_log_and_resampling() -> None:
    game = Rank(players=4)
    hands = {0: "2C 3C 4C 2D 3D", 1: "5C 5D 5H 5S 6C", 2: "6D 6H 6S 4H 4S", 3: "7H 7S 8C 8D 8H"}
    s = build(game, hands, up="10S", stock="JD QS 4D")
    play(s, "draw", "JD", "draw", "QS", "draw")
    mine = s.view(0)
    theirs = s.view(2)
    assert mine["hand"] == ["2C", "2D", "3C", "3D", "4C", "4D"]
    assert mine["pile"] == ["10S", "JD", "QS"] and mine["top"] == "QS"
    assert mine["stock"] == 30 and mine["hand_sizes"] == [6, 5, 5, 5]
    assert mine["turn"] == {"seat": 1, "plays": [], "drew": 0}
    assert [e.get("card") for e in mine["log"] if e["event"] == "draw"] == ["JD", "QS", "4D"]
    assert [e.get("card") for e in theirs["log"] if e["event"] == "draw"] == [None, None, None]
    assert [e["played"] for e in theirs["log"] if e["event"] == "draw"] == [True, True, False]
    text = json.dumps(theirs)
    assert "4D" not in text and "5C" not in text and "2C" not in text  # nobody else's hand, no stock order
    assert set(theirs) >= {"game", "player", "current_player", "round", "scores", "round_scores",
                           "hand", "top", "pile", "stock", "hand_sizes", "in_game", "finished", "turn",
                           "pull_back", "anti_rank", "log"}
    assert legal(s) == ["draw"]  # seat 1 holds nothing for QS


def test_rg9_chain_and_resample() -> None:
    game = Rank(players=4)
    hands = {0: "8D 9D 10D 2C 3C", 1: "5C 5D 5H 5S 6C", 2: "6D 6H 6S 4H 4S", 3: "7H 7S 8C 8H 2H"}
    s = build(game, hands, up="7C", stock="2D 3D")
    play(s, "8D", "9D")
    assert s.view(1)["turn"] == {"seat": 0, "plays": ["8D", "9D"], "drew": 0}
    rng = random.Random(3)
    seen = set()
    for _ in range(10):
        r = s.resample(0, rng)
        assert r.view(0) == s.view(0) and r.legal_actions() == s.legal_actions()
        seen.add(tuple(r.view(1)["hand"]))
        assert r.decks is None and r.history == s.history
    assert len(seen) > 1


# --- RG-9: what the public record proves, and resampling that keeps it ------------------
def kinds_of(names_text: str) -> set[int]:
    return set(cards(names_text))


def answering(top: str) -> set[int]:
    """Every kind that RG-4 lets one play on ``top`` at some tier."""
    return {k for k in range(53) if playable([k], parse_french(top))}


def hand_of(state: RankState, seat: int) -> list[int]:
    return cards(" ".join(names(state, seat)))


def test_rg9_resample_a_seat_that_drew_an_unplayable_card_holds_nothing_that_answers() -> None:
    game = Rank(players=4)
    hands = {0: "2C 3C 4C 2D 3D", 1: "5C 5D 5H 5S 6C", 2: "6D 6H 6S 4H 4S", 3: "7H 7S 8C 8D 8H"}
    s = build(game, hands, up="10S", stock="JD QS 4D")
    play(s, "draw", "JD", "draw", "QS", "draw")  # seat 0 is stuck on QS and draws 4D: nothing answers QS
    bad = answering("QS")
    assert all(m & sum(1 << k for k in bad) == 0 for m in s.hand_constraints(1).slots[0])
    for k in range(200):
        r = s.resample(1, random.Random(k))
        assert not set(hand_of(r, 0)) & bad
        assert r.view(1) == s.view(1)
    # The other seats have shown nothing: their resampled hands do hold such cards at times.
    assert any(set(hand_of(s.resample(1, random.Random(k)), 2)) & bad for k in range(50))


def test_rg9_resample_a_seat_that_passed_holds_nothing_that_answers_and_someone_else_can_play() -> None:
    s = first_legal_until(from_deck(4, 1497, DECK_4P_1497), lambda t: t.legal_actions() == [PASS])
    passer = s.current_player()
    top = s.view(0)["top"]
    play(s, "pass")
    watcher = s.current_player()  # the next seat to move watches the passer
    assert watcher != passer and s.view(watcher)["stock"] == 0
    bad = answering(top)
    cons = s.hand_constraints(watcher)
    assert cons.admits([hand_of(s, p) for p in range(4)])
    for k in range(200):
        r = s.resample(watcher, random.Random(k))
        assert not set(hand_of(r, passer)) & bad, "the pass showed the passer cannot answer the top card"
        # no Anti-Rank was declared, so some seat still in the game can play on the top card (RG-8)
        assert any(set(hand_of(r, p)) & bad for p in r.view(0)["in_game"] if p != passer)
        assert r.view(watcher) == s.view(watcher) and r.legal_actions() == s.legal_actions()


def test_rg9_resample_the_tier_of_a_play_and_a_later_draw() -> None:
    game = Rank(players=4)
    hands = {0: "AS 2C 9D 10H QD", 1: "3C 3D 3H 3S 4C", 2: "4D 4H 4S 5C 5D", 3: "9C 9H 9S 10C 10D"}
    s = build(game, hands, up="7C", stock="6H")
    play(s, "AS")  # an Ace on 7C: seat 0 held no 6, 7 or 8 (RG-4 tiers 1 and 2)
    play(s, "2C")  # then stuck on 2C: it draws 6H, which cannot be played on 2C (RG-5)
    play(s, "draw")
    assert s.current_player() == 1
    sevens = kinds_of("6C 6D 6H 6S 7C 7D 7H 7S 8C 8D 8H 8S")
    bad = answering("2C")
    cons = s.hand_constraints(1)
    assert sorted(bin(m).count("1") for m in cons.slots[0]) == [24, 24, 24, 36]  # 53 kinds minus 2, 3, K, A, JK (and 6, 7, 8)
    seen_drawn_seven = False
    for k in range(300):
        hand = set(hand_of(s.resample(1, random.Random(k)), 0))
        assert not hand & bad
        assert len(hand & sevens) <= 1  # only the drawn card may be a 6, 7 or 8
        seen_drawn_seven |= bool(hand & sevens)
    assert seen_drawn_seven


def test_rg9_resample_pending_draw_and_answered_pull_back() -> None:
    game = Rank(players=4)
    hands = {0: "2C 3C 4C 2D 3D", 1: "5C 5D 5H 5S 6C", 2: "6D 6H 6S 4H 4S", 3: "7H 7S 8C 8D 8H"}
    s = build(game, hands, up="10S", stock="JD QS 4D")
    play(s, "draw")  # JD answers 10S: seat 0 must play it, and nothing else it holds answers 10S
    for k in range(100):
        r = s.resample(1, random.Random(k))
        moves = r.legal_actions()
        assert len(moves) == 1 and moves[0] in answering("10S")
        assert len(set(hand_of(r, 0)) & answering("10S")) == 1
    # Seat 1 answers seat 0's last card, so seat 0 is pulled back (RG-6): seat 1 can play.
    rest = {2: "2H 3H 4H 5H 6H", 3: "2S 3S 4S 5S 6S"}
    s = build(game, {0: "8D 9D 10D JD QD", 1: "JC 2C 3C 4C 5C", **rest}, up="7C", stock="9S 10S 7D")
    play(s, "8D", "9D", "10D", "JD", "QD")
    assert s.view(2)["pull_back"]["event"] == "pull-back"
    assert s.hand_constraints(2).some == ((1,), sum(1 << k for k in answering("QD")))
    for k in range(100):
        r = s.resample(2, random.Random(k))
        assert DRAW not in r.legal_actions() and set(hand_of(r, 1)) & answering("QD")


def _consistency_walk(players: int, seeds: range) -> int:
    """Random and heuristic games: every seat's constraints hold in the true state, the
    resampled worlds meet them too, and they depend on the view only."""
    game = Rank(players=players)
    checked = 0
    for seed in seeds:
        rng = random.Random(seed)
        bots = [make_agent("heuristic", game, seed=p) for p in range(players)]
        s = game.new_state(seed=seed)
        while not s.is_terminal():
            true_hands = [s._hand_list(p) for p in range(players)]  # the true state, for the check only
            for p in range(players):
                cons = s.hand_constraints(p)
                sizes = [len(m) for m in cons.slots]
                assert sizes == [0 if q == p else len(true_hands[q]) for q in range(players)]
                assert cons.admits(true_hands), f"seed {seed} move {len(s.history)} seat {p}:\n{s}\n{cons}"
                if rng.random() < 0.25:
                    r = s.resample(p, random.Random(rng.getrandbits(32)))
                    assert cons.admits([r._hand_list(q) for q in range(players)])
                    assert r.hand_constraints(p) == cons
                    assert constraints_of_view(s.view(p)) == cons  # agents can compute them from the view
                    if s.current_player() == p:
                        assert r.legal_actions() == s.legal_actions()
                checked += 1
            legal = s.legal_actions()
            p = s.current_player()
            s.apply_action(bots[p].act(Observation.of(s)) if seed % 2 and len(legal) > 1 else rng.choice(legal))
    return checked


@pytest.mark.parametrize("players,games", [(2, 12), (3, 10), (4, 10), (6, 4)])
def test_rg9_the_true_hands_always_meet_the_constraints(players: int, games: int) -> None:
    assert _consistency_walk(players, range(games)) > 1000


def test_constrained_deal_finds_every_consistent_deal_and_refuses_impossible_ones() -> None:
    a, b, c, d = cards("2C 3C 4C 5C")
    counts = [0] * 53
    for k in (a, b, c, d):
        counts[k] = 1
    # Seat 1: one slot of {a, b}; seat 2: one slot of {b, c}, one of {a, b}; seat 3: anything.
    cons = HandConstraints(((), (1 << a | 1 << b,), (1 << b | 1 << c, 1 << a | 1 << b), (ALL,)), None)
    possible = set()
    for x in (a, b):
        for y in (b, c):
            for z in (a, b):
                if len({x, y, z}) == 3:
                    w = ({a, b, c, d} - {x, y, z}).pop()
                    possible.add((x, tuple(sorted((y, z))), w))
    seen = set()
    for k in range(300):
        hands, stock = constrained_deal(cons, counts, random.Random(k))
        assert stock == [] and cons.admits(hands)
        seen.add((hands[1][0], tuple(sorted(hands[2])), hands[3][0]))
    assert seen == possible
    # "Somebody holds d": only seat 3 can.
    some = HandConstraints(cons.slots, ((1, 2, 3), 1 << d))
    assert all(constrained_deal(some, counts, random.Random(k))[0][3] == [d] for k in range(20))
    with pytest.raises(RuntimeError, match="inconsistent"):
        constrained_deal(HandConstraints(((), (1 << a,), (1 << a,), ()), None), counts, random.Random(0))


# --- protocol details ------------------------------------------------------------------
def test_actions_names_parsing_and_refusals_leave_state_unchanged() -> None:
    game = Rank(players=3)
    assert game.num_distinct_actions == 55
    table = [game.action_name(a) for a in range(55)]
    assert len(set(table)) == 55 and table[52] == "play JK" and table[DRAW] == "draw" and table[PASS] == "pass"
    assert game.parse_action_name("7♥") == game.parse_action_name("play 7h") == parse_french("7H")
    assert game.parse_action_name("пас") == PASS and game.parse_action_name("Draw") == DRAW
    with pytest.raises(IllegalAction, match="not a move"):
        game.parse_action_name("fly")
    s = game.new_state(seed=2)
    before = str(s)
    bad = next(a for a in range(55) if a not in s.legal_actions())
    with pytest.raises(IllegalAction) as err:
        s.apply_action(bad)
    assert err.value.rule is not None and err.value.rule.startswith("RG-")
    assert str(s) == before
    assert "not a move" in str(s.why_illegal(99)) and "not a move" in str(s.why_illegal(-1))
    with pytest.raises(IllegalAction):
        s.apply_action(-1)
    assert str(s) == before


@pytest.mark.parametrize("players", [2, 4, 5, 10])
def test_conformance(players: int) -> None:
    check_game(Rank(players=players), seeds=range(3))


def test_deterministic_under_disturbed_global_random() -> None:
    def run(disturb: bool) -> list[int]:
        game = Rank(players=4)
        agents = [make_agent("heuristic" if p % 2 else "random", game, seed=p) for p in range(4)]
        s = game.new_state(seed=9)
        while not s.is_terminal():
            if disturb:
                random.seed(random.random())
            s.apply_action(agents[s.current_player()].act(Observation.of(s)))
        return s.history

    random.seed(1)
    first = run(False)
    assert run(True) == first == run(False)
    assert str(Rank(players=6).new_state(seed=5)) == str(Rank(players=6).new_state(seed=5))


# --- the heuristic ---------------------------------------------------------------------
def heuristic_loss_rate(players: int, seat: int, games: int) -> float:
    """One heuristic seat against uniformly random seats, over seeds 0..games-1."""
    game = Rank(players=players)
    losses = 0
    for seed in range(games):
        hero = make_agent("heuristic", game, seed=seed)
        rng = random.Random(seed * 7919 + 1)
        s = game.new_state(seed=seed)
        while not s.is_terminal():
            p = s.current_player()
            s.apply_action(hero.act(Observation.of(s, p)) if p == seat else rng.choice(s.legal_actions()))
        losses += s.returns()[seat] < 0
    return losses / games


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4, 6])
def test_heuristic_loses_less_often_than_random_in_every_seat(players: int) -> None:
    # Every seat is alike for random play (the dealer is drawn), so random's loss rate is 1/N.
    rates = [heuristic_loss_rate(players, seat, 300) for seat in range(players)]
    assert max(rates) < 1 / players, rates
    assert sum(rates) / players < 0.9 / players, rates


# --- console ---------------------------------------------------------------------------
def test_console_render_and_describe_in_both_languages_hide_others_draws() -> None:
    from rich.console import Console

    game = Rank(players=4)
    hands = {0: "2C 3C 4C 2D 3D", 1: "5C 5D 5H 5S 6C", 2: "6D 6H 6S 4H 4S", 3: "7H 7S 8C 8D 8H"}
    s = build(game, hands, up="10S", stock="JD QS 4D")
    event = s.apply_action(DRAW)
    assert describe(event, s.view(0)) == "You draw J♦ — it can be played and must be (RG-5)"
    assert describe(event, s.view(1)) == "Seat 0 draws a card — it can be played and must be (RG-5)"
    assert "J♦" not in describe(event, s.view(1), lang="ru")
    assert describe(event, s.view(1), lang="ru").startswith("Игрок 0 берёт карту из колоды")
    console = Console(width=100, record=True)
    for lang in ("en", "ru"):
        console.print(render(s.view(0), lang=lang))
    out = console.export_text()
    assert "Top card" in out and "Верхняя карта" in out and "J♦▲" in out
    assert "Stock: 32" in out and "В колоде: 32" in out
