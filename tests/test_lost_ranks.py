"""Lost Ranks: one scenario per ruling (LR-1 … LR-20, LR-19a), conformance, determinism,
resampling and the heuristic's strength.

Scenarios are explicit decks built with :func:`make_deck`; seed 7 draws dealer 0 and makes
seats 0 and 2 (4 players) or seat 0 (2 players) the Red army.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import pytest
from conformance import check_game

from cardtable.agents import Observation, make_agent
from cardtable.cards import french_name, parse_french
from cardtable.games.lost_ranks import rules as lost_ranks
from cardtable.games.lost_ranks import (
    DRAW,
    SPY,
    LostRanks,
    LostRanksState,
    constrained_deal,
    make_deck,
)
from cardtable.protocol import IllegalAction

SEED = 7  # dealer 0; Red = seats 0 and 2 (4 players), seat 0 (2 players)


def cards(text: str) -> list[int]:
    return [parse_french(w) for w in text.split()]


def names(state: LostRanksState) -> list[str]:
    return state.legal_action_strings()


def deal(
    hands: dict[int, str],
    trump: str,
    *,
    players: int = 4,
    phantoms: dict[int, str] | None = None,
    seed: int = SEED,
    **options: bool,
) -> LostRanksState:
    """A match whose first round is dealt as given; unnamed cards are filled in round-robin."""
    game = LostRanks(players=players, **options)
    dealer = LostRanks.draw_setup(seed)[0] % players
    size = 13 if players == 4 else 17
    held = {q: cards(hands.get(q, "")) for q in range(players)}
    piles = {q: cards((phantoms or {}).get(q, "")) for q in range(players)} if players == 2 else {}
    used = {c for h in held.values() for c in h} | {c for p in piles.values() for c in p} | {parse_french(trump)}
    rest = [c for c in range(53) if c not in used]
    assert len(used) + len(rest) == 53 and sum(map(len, held.values())) + sum(map(len, piles.values())) + 1 == len(used)
    targets = [(held[q], size) for q in range(players)] + [(piles[q], 9) for q in piles]
    while rest:  # round-robin over whoever still needs cards
        for pile, want in targets:
            if rest and len(pile) < want:
                pile.append(rest.pop(0))
    deck = make_deck(
        [held[q] for q in range(players)],
        parse_french(trump),
        dealer=dealer,
        phantoms=[piles[q] for q in range(players)] if players == 2 else None,
    )
    return game.new_state(seed=seed, decks=[deck])


def play(state: LostRanksState, *moves: str) -> None:
    """Apply moves by name (``AH`` = play from hand, ``draw``, ``ph 5H``), each checked legal."""
    for m in moves:
        if m == "draw":
            text = "draw two"
        elif m.startswith("ph "):
            text = "phantom " + m[3:]
        else:
            text = "play " + m
        state.apply_action(state.parse_action(text))


def refuse(state: LostRanksState, move: str, rule: str) -> str:
    action = state.game.parse_action_name(move)
    reason = state.why_illegal(action)
    assert reason is not None and reason.rule == rule, reason
    with pytest.raises(IllegalAction) as err:
        state.apply_action(action)
    assert err.value.refusal == reason and err.value.rule == rule
    return reason.message


# A 4-player deal used by several rulings.  Trump AC (clubs, Black).
HANDS_A = {
    0: "AH 5D 2C 3C 4C 5C 6C 7C 8C 9C 10C QC KC",
    1: "JD 9D 4H 2S 3S 4S 5S 6S 7S 8S 9S 10S QS",
    2: "JK 2H 3H 5H 6H 7H 8H 9H 10H QH KH KS AS",
    3: "JC 2D 3D 4D 6D 7D 8D 10D QD KD AD JH JS",
}


def scenario_a(trump: str = "AC", **options: bool) -> LostRanksState:
    hands = dict(HANDS_A)
    if trump == "AD":  # swap the two aces
        hands[3] = hands[3].replace("AD", "AC")
    return deal(hands, trump, **options)


# ---------------------------------------------------------------------------- cards


def test_lr1_rank_order_jacks_and_spy_never_win() -> None:
    s = scenario_a()
    play(s, "AH", "4H", "2H", "JH")  # A beats every heart; JH is unranked
    assert s.view(0)["last_trick"]["winner"] == 0  # type: ignore[index]
    play(s, "5D", "9D", "3H", "2D")  # 9D beats 5D and 2D
    assert s.view(0)["last_trick"]["winner"] == 1  # type: ignore[index]
    play(s, "JD", "JK", "3D", "8C")  # JD led; the Spy and JD cannot win; 8C trumps
    assert s.view(0)["last_trick"]["winner"] == 0  # type: ignore[index]
    g = s.game
    assert g.card_name(SPY) == "JK" and g.parse_card("10h") == parse_french("10H")


def test_lr2_lost_soldiers_and_the_spy_colour() -> None:
    black = scenario_a("AC").view(0)
    assert black["active_soldiers"] == ["JC", "JS", "JK"] and black["trump_colour"] == "black"
    red = scenario_a("AD").view(0)
    assert red["active_soldiers"] == ["JD", "JH", "JK"] and red["trump_colour"] == "red"


def test_lr3_armies_partners_across_and_drawn_from_the_seed() -> None:
    four = LostRanks()
    reds = set()
    for seed in range(12):
        s = four.new_state(seed=seed)
        a = s.armies
        assert a[0] == a[2] and a[1] == a[3] and a[0] != a[1]
        reds.add(a[0])
        assert s.view(1)["partner"] == 3
    assert reds == {0, 1}
    two = LostRanks(players=2)
    colours = {two.new_state(seed=seed).armies for seed in range(12)}
    assert colours == {(0, 1), (1, 0)}


# ---------------------------------------------------------------------------- deal


def test_lr4_deal_sizes_trump_card_and_refusals() -> None:
    s = LostRanks().new_state(seed=3)
    assert s.view(0)["hand_sizes"] == [13, 13, 13, 13]
    t = LostRanks(players=2).new_state(seed=3)
    v = t.view(0)
    assert v["hand_sizes"] == [17, 17] and v["phantom_sizes"] == [9, 9]
    soldiers = {"JC", "JD", "JH", "JS", "JK"}
    for seed in range(150):  # shuffled rounds are redealt until the Trump Card is playable
        assert LostRanks().new_state(seed=seed).view(0)["trump_card"] not in soldiers
    deck = make_deck([cards(HANDS_A[q]) for q in range(4)], parse_french("AC"), dealer=0)
    bad = deck[:]
    j = bad.index(parse_french("JD"))
    bad[-1], bad[j] = bad[j], bad[-1]  # the Trump Card is now a Jack
    with pytest.raises(ValueError, match="LR-4"):
        LostRanks().new_state(decks=[bad])
    with pytest.raises(ValueError, match="permutation"):
        LostRanks().new_state(decks=[deck[:-1]])
    with pytest.raises(ValueError, match="2 or 4"):
        LostRanks(players=3)


def test_lr5_battlefield_trump_suit_and_active_soldiers() -> None:
    s = scenario_a("AC")
    v = s.view(2)
    assert v["trump_card"] == "AC" and v["trump_suit"] == "clubs"
    # Only the Black Jacks and the Spy are active: JH and JD score nothing this round.
    play(s, "AH", "4H", "2H", "JH", "5D", "9D", "3H", "2D", "JD", "JK", "3D", "2C")
    assert s.view(0)["captured"]["red"] == ["2C", "3D", "JD", "2H", "4H", "JH", "AH", "JK"]  # type: ignore[index]
    assert s.round_points() == (2, 0)  # the Spy only


# ---------------------------------------------------------------------------- play


def test_lr6_first_lead_ace_of_hearts_then_diamonds_then_non_dealer() -> None:
    s = scenario_a()
    assert s.current_player() == 0 and names(s) == ["play AH"]
    refuse(s, "play 5D", "LR-6")
    # A♥ is the Trump Card: the holder of A♦ leads it.
    t = deal({2: "AD"}, "AH")
    assert t.current_player() == 2 and names(t) == ["play AD"]
    # 2 players: A♥ in a phantom deck is not held; A♦ is.
    u = deal({1: "AD"}, "5C", players=2, phantoms={0: "AH"})
    assert u.current_player() == 1 and names(u) == ["play AD"]
    refuse(u, "draw two", "LR-6")
    # Neither ace in a real hand: the non-dealer (seat 1, dealer 0) leads anything legal.
    w = deal({}, "AH", players=2, phantoms={0: "AD"})
    assert w.current_player() == 1 and len(w.legal_actions()) >= 17 and "draw two" in names(w)


def test_lr7_following_jack_protection_and_the_spy() -> None:
    s = scenario_a()
    play(s, "AH")
    assert names(s) == ["play 4H"]  # the only heart
    refuse(s, "play 2S", "LR-7")
    play(s, "4H")
    assert "play JK" not in names(s) and len(names(s)) == 10  # hearts only
    assert "Spy" in refuse(s, "play JK", "LR-7")
    play(s, "2H")
    assert names(s) == ["play JH"]  # the Jack is the last heart: it must be played
    play(s, "JH", "5D")
    assert names(s) == ["play 9D"]  # Jack protection
    assert "Jack protection" in refuse(s, "play JD", "LR-7")
    play(s, "9D")
    assert len(names(s)) == 12 and "play JK" in names(s)  # void in diamonds: anything, the Spy too
    play(s, "3H")
    assert s.view(0)["voids"][2] == ["diamonds"]  # type: ignore[index]


def test_lr8_leading_the_spy_only_as_last_card_and_jacks_may_lead() -> None:
    s = scenario_a()
    play(s, "AH", "4H", "2H", "JH", "5D", "9D", "3H", "2D")
    assert "play JD" in names(s)  # a Jack may be led ...
    play(s, "JD")
    assert s.view(0)["led_suit"] == "diamonds"  # ... and its suit is led
    play(s, "JK", "3D", "2C")
    # Seat 0 leads next and holds no Spy; seat 2 led nothing.  A hand with the Spy:
    t = deal({0: "AH JK"}, "2S")
    play(t, "AH")
    for _ in range(3):
        play(t, t.game.action_name(t.legal_actions()[0])[5:])
    assert t.current_player() == 0
    assert "play JK" not in names(t)
    refuse(t, "play JK", "LR-8")


def _run_spy_to_last(state: LostRanksState, holder: int) -> None:
    """Let ``holder`` win every trick with its trumps until only the Spy remains."""
    while state.view(holder)["hand"] != ["JK"] or state.current_player() != holder:
        seat = state.current_player()
        legal = state.legal_actions()
        choice = max(legal) if seat == holder else min(legal)
        state.apply_action(choice)


def test_lr9_spy_led_the_next_card_sets_the_suit() -> None:
    # Seat 0 wins every trick with the top trumps, keeping the Spy to the end (4 players).
    s = deal(
        {
            0: "AH JK AS KS QS 10S 9S 8S 7S 6S 5S 4S 3S",
            1: "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC"[:-3] + " 2H",
            2: "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
        },
        "2S",
    )
    _run_spy_to_last(s, 0)
    assert s.current_player() == 0 and names(s) == ["play JK"]  # the Spy as very last card (LR-8)
    last = {q: s.view(q)["hand"][0] for q in (1, 2, 3)}  # type: ignore[index]
    play(s, "JK")
    assert s.view(0)["led_suit"] is None
    play(s, last[1])
    assert s.view(0)["led_suit"] == {"C": "clubs", "H": "hearts"}[last[1][-1]]
    play(s, last[2], last[3])
    # 2 players: the Spy led from the phantom deck as its last card; the answer is free.
    t = _two_player_spy_scenario()
    assert t.view(0)["trick"] == [{"seat": 0, "card": "JK", "source": "phantom"}]
    assert t.current_player() == 1 and len(t.legal_actions()) == 9  # the whole hand (LR-9)
    play(t, "2H")
    assert t.view(1)["last_trick"]["winner"] == 1  # type: ignore[index]


def test_lr10_trump_beats_led_suit_and_the_winner_captures_all() -> None:
    s = scenario_a()
    play(s, "AH", "4H", "2H", "JH", "5D", "9D", "3H", "2D", "JD", "JK", "3D", "2C")
    v = s.view(1)
    assert v["last_trick"]["winner"] == 0  # type: ignore[index]  # the lowest trump beats 3D
    assert {"JD", "JK", "3D", "2C"} <= set(v["captured"]["red"])  # type: ignore[index]
    assert v["current_player"] == 0 and v["leader"] == 0  # the winner leads
    assert v["tricks_won"] == {"red": 2, "black": 1}
    # Off-suit non-trump cards never win: seat 2's 3H in the diamond trick lost to 9D.
    assert v["log"][7] == {"seat": 2, "card": "3H", "source": "hand"} and v["log"][9] == {"winner": 1}  # type: ignore[index]


def test_lr11_no_winner_discards_and_lead_passes_clockwise() -> None:
    s = deal({0: "AH 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"}, "AS")
    play(s, "AH")
    for _ in range(3):
        play(s, s.game.action_name(s.legal_actions()[0])[5:])
    assert s.current_player() == 0
    play(s, "JS")  # nobody else has a spade (trump): no card can win
    for _ in range(3):
        seat = s.current_player()
        choice = [a for a in s.legal_actions() if a // 13 != 3][0]
        play(s, s.game.action_name(choice)[5:])
        assert seat != 0
    v = s.view(0)
    assert v["last_trick"]["winner"] is None  # type: ignore[index]
    assert "JS" in v["discards"] and len(v["discards"]) == 4  # type: ignore[arg-type]
    assert v["current_player"] == 1  # clockwise from the trick's leader (seat 0)
    assert s.round_points() == (0, 0)  # a discarded active Jack scores for nobody (LR-15)



def test_lr11_two_players_no_winner_passes_the_lead_to_the_other_player() -> None:
    # Seat 0 wins AH, then leads JC from its hand; seat 1 answers from its phantom deck with
    # two diamonds, so a diamond follows the Jack: no trump, no other club -- nobody wins.
    t = deal({0: "AH JC"}, "AS", players=2, phantoms={1: "2H 3H 4D 5D"})
    play(t, "AH", "draw", "ph 2H")
    assert t.view(0)["last_trick"]["winner"] == 0 and t.current_player() == 0  # type: ignore[index]
    play(t, "JC", "draw")
    assert names(t) == ["phantom 4D", "phantom 5D"]  # neither follows clubs: either (LR-14)
    play(t, "ph 4D")
    v = t.view(1)
    assert v["last_trick"]["winner"] is None  # type: ignore[index]
    assert sorted(v["discards"]) == ["4D", "JC"]  # type: ignore[arg-type]
    assert v["current_player"] == 1 and v["leader"] == 1  # the lead passes to the other player
    assert t.round_points() == (0, 0)  # a discarded active Jack scores for nobody (LR-15)

# ---------------------------------------------------------------------------- Command of Two


def _two_player_spy_scenario() -> LostRanksState:
    """2 players, trump 2S.  Seat 0 leads AH, then leads its phantom (all high spades, the
    Spy last) nine times; seat 1 (no spade) answers from its hand.  Ends with the Spy led."""
    t = deal(
        {0: "AH", 1: "2H 3H 4H 6H 7H 8H 9H 10H QH 2C 3C 4C 5C 6C 7C 8C 9C"},
        "2S",
        players=2,
        phantoms={0: "AS KS QS 10S 9S 8S 7S 6S JK", 1: "JH 5H 2D 3D 4D 5D 6D 7D 8D"},
    )
    play(t, "AH", "draw", "ph 5H")
    for expect in ("AS", "QS", "9S", "7S", "KS", "10S", "6S", "8S"):
        play(t, "draw")
        if expect == "KS":
            assert names(t) == ["phantom KS"]  # drew JK and KS: the Spy cannot lead (LR-14)
        play(t, "ph " + expect)
        play(t, t.game.action_name(t.legal_actions()[0])[5:])
    play(t, "draw")  # the Spy alone: played at once
    return t


def test_lr12_phantom_decks_owner_knows_order_opponent_sees_size_and_face_up() -> None:
    t = deal({0: "AH"}, "2S", players=2, phantoms={0: "AS KS QS 10S 9S 8S 7S 6S JK", 1: "JH 5H 2D"})
    mine = t.view(0)
    assert mine["phantoms"][0] == ["AS", "KS", "QS", "10S", "9S", "8S", "7S", "6S", "JK"]  # type: ignore[index]
    assert mine["phantoms"][1] == [None] * 9  # type: ignore[index]
    play(t, "AH", "draw")
    assert t.view(0)["drawn"] == {"player": 1, "cards": [None, None], "face_up": [False, False]}
    assert t.view(1)["drawn"]["cards"] == ["JH", "5H"]  # type: ignore[index]
    play(t, "ph 5H")
    seen = t.view(0)
    assert seen["phantoms"][1][-1] == "JH" and seen["phantom_face_up"][1][-1] is True  # type: ignore[index]
    assert seen["phantom_sizes"] == [9, 8]


def test_lr13_follower_uses_the_other_source_fallback_and_26_tricks() -> None:
    t = deal({0: "AH"}, "2S", players=2, phantoms={0: "AS KS QS 10S 9S 8S 7S 6S JK", 1: "JH 5H 2D"})
    play(t, "AH")
    assert names(t) == ["draw two"]  # the leader used the hand
    refuse(t, "play 2C", "LR-13")
    u = _two_player_spy_scenario()
    play(u, "2H")  # seat 1 captured the Spy and leads
    assert u.current_player() == 1
    play(u, "3H")
    assert "draw two" not in names(u) and u.view(0)["phantom_sizes"][0] == 0  # type: ignore[index]
    last = 0
    while u.view(0)["round"] == 1:
        last = int(u.view(0)["trick_number"])  # type: ignore[arg-type]
        u.apply_action(u.legal_actions()[0])
    assert last == 26 and len(u.view(0)["round_scores"]) == 1  # type: ignore[arg-type]


def test_lr14_draw_two_follow_rules_leading_and_face_up_bottom() -> None:
    # Both drawn cards follow and one is the Jack: Jack protection between the two.
    t = deal({0: "AH"}, "2S", players=2, phantoms={1: "JH 5H"})
    play(t, "AH", "draw")
    assert names(t) == ["phantom 5H"]
    assert "Jack protection" in refuse(t, "phantom JH", "LR-14")
    refuse(t, "play 2C", "LR-14")
    # One follows: it must be played.
    u = deal({0: "AH"}, "2S", players=2, phantoms={1: "2C 5H"})
    play(u, "AH", "draw")
    assert names(u) == ["phantom 5H"]
    # Neither follows: either, the Spy included.
    w = deal({0: "AH"}, "2S", players=2, phantoms={1: "2C JK"})
    play(w, "AH", "draw")
    assert names(w) == ["phantom 2C", "phantom JK"]
    play(w, "ph JK")
    assert w.view(0)["phantoms"][1][-1] == "2C"  # type: ignore[index]  # face up at the bottom
    # Leading: the Spy only as the last phantom card (see also the LR-9 scenario).
    _two_player_spy_scenario()


# ---------------------------------------------------------------------------- scoring


def test_lr15_soldier_scoring() -> None:
    s = scenario_a("AD")  # Red trump: JH, JD and the Spy are active
    play(s, "AH", "4H", "2H", "JH")  # Red captures its own active Jack: +2
    assert s.round_points() == (2, 0)
    play(s, "5D", "9D", "3H", "2D", "JD", "JK", "3D", "2C")  # Black captures JD (0) and the Spy (+2)
    assert s.round_points() == (2, 2)
    # An inactive Jack scores nothing (trump AC: JH captured by Red).
    t = scenario_a("AC")
    play(t, "AH", "4H", "2H", "JH")
    assert t.round_points() == (0, 0)


def test_lr16_force_strength_majority_of_non_lost_cards() -> None:
    s = scenario_a("AD", force_strength=True)
    assert s.round_points() == (0, 0)  # equal counts: nothing
    play(s, "AH", "4H", "2H", "JH")  # Red: 3 plain cards
    assert s.round_points() == (3, 0)
    play(s, "5D", "9D", "3H", "2D", "JD", "JK", "3D", "2C")  # Black: 4 + 2 plain cards
    assert s.round_points() == (2, 3)
    off = scenario_a("AD")
    play(off, "AH", "4H", "2H", "JH")
    assert off.round_points() == (2, 0)


# ---------------------------------------------------------------------------- end of game


def _decide(game: LostRanks, rounds: Sequence[tuple[int, int]], *, tiebreaks: int = 0, spy: int = -1) -> LostRanksState:
    s = game.new_state(seed=1)
    s._round_scores = tuple(rounds)
    s._totals = (sum(r for r, _ in rounds), sum(b for _, b in rounds))
    s._tiebreaks = tiebreaks
    s._spy_captor = spy
    s._decide()
    return s


def test_lr17_four_players_target_cap_and_tiebreakers() -> None:
    g = LostRanks()
    assert _decide(g, [(6, 2), (4, 2)]).winner() == "red"  # only Red reached 10
    assert _decide(g, [(6, 6), (4, 4)]).winner() is None  # both at 10, tied ...
    assert _decide(g, [(6, 6), (4, 4)])._tiebreaks == 1  # ... a tiebreaker round follows
    assert _decide(g, [(6, 6), (6, 4)]).winner() == "red"  # both reached: higher wins
    seven = [(0, 0)] * 6 + [(2, 4)]
    assert _decide(g, seven).winner() == "black"  # round cap
    assert _decide(g, [(0, 0)] * 6).winner() is None and not _decide(g, [(0, 0)] * 6).is_terminal()
    assert _decide(g, [(2, 2)] * 7)._tiebreaks == 1
    assert _decide(g, [(2, 2)] * 7 + [(2, 0)], tiebreaks=1).winner() == "red"
    longer = LostRanks(longer_game=True)
    assert not _decide(longer, [(6, 2), (4, 2)]).is_terminal()  # target 15
    assert not _decide(longer, [(1, 0)] * 9).is_terminal()  # no round cap
    assert _decide(longer, [(8, 0), (8, 0)]).winner() == "red"


def test_lr18_two_players_fixed_rounds_and_spy_tiebreak() -> None:
    g = LostRanks(players=2)
    assert not _decide(g, [(2, 0)] * 3).is_terminal()
    assert _decide(g, [(2, 0)] * 3 + [(0, 8)]).winner() == "black"  # after exactly 4 rounds
    tied = _decide(g, [(2, 2)] * 4)
    assert tied._tiebreaks == 1 and not tied.is_terminal()
    assert _decide(g, [(2, 2)] * 4 + [(2, 2)], tiebreaks=1, spy=1).winner() == "black"  # Spy breaks it
    again = _decide(g, [(2, 2)] * 4 + [(0, 0)], tiebreaks=1, spy=-1)
    assert again._tiebreaks == 2 and not again.is_terminal()
    longer = LostRanks(players=2, longer_game=True)
    assert not _decide(longer, [(2, 0)] * 4).is_terminal()
    assert _decide(longer, [(2, 0)] * 7).winner() == "red"


def test_lr19_dealer_drawn_from_seed_and_rotates() -> None:
    for players in (4, 2):
        g = LostRanks(players=players)
        firsts = set()
        for seed in range(8):
            s = g.new_state(seed=seed)
            first = s.dealer
            firsts.add(first)
            assert first == LostRanks.draw_setup(seed)[0] % players
            rng = random.Random(seed)
            while s.view(0)["round"] == 1:
                s.apply_action(rng.choice(s.legal_actions()))
            if not s.is_terminal():
                assert s.dealer == (first + 1) % players
        assert len(firsts) > 1


def test_lr19a_safeguards_draw_after_ten_tiebreakers_and_fifty_rounds() -> None:
    g = LostRanks()
    s = _decide(g, [(2, 2)] * 17, tiebreaks=10)
    assert s.is_terminal() and s.winner() is None and s.returns() == [0.0] * 4 and s.result()["draw"]
    two = _decide(LostRanks(players=2), [(0, 0)] * 14, tiebreaks=10)
    assert two.is_terminal() and two.returns() == [0.0, 0.0]
    longer = LostRanks(longer_game=True)
    assert _decide(longer, [(0, 0)] * 49 + [(1, 0)]).winner() == "red"
    fifty = _decide(longer, [(0, 0)] * 50)
    assert fifty.is_terminal() and fifty.winner() is None


# ---------------------------------------------------------------------------- information


def test_lr20_views_hide_hands_partner_included() -> None:
    s = scenario_a()
    for seat in range(4):
        assert s.view(seat)["hand"] == sorted(HANDS_A[seat].split(), key=parse_french)
    # Swapping cards between the other three hands (partner included) changes nothing seat 0 sees.
    swapped = dict(HANDS_A)
    swapped[1] = swapped[1].replace("2S", "2H")
    swapped[2] = swapped[2].replace("2H", "2S")
    t = deal(swapped, "AC")
    assert t.view(0) == s.view(0) and t.view(2) != s.view(2)
    play(s, "AH", "4H")
    play(t, "AH", "4H")
    assert t.view(0) == s.view(0)
    assert s.view(0)["partner"] == 2 and s.view(0)["armies"] == ["red", "black", "red", "black"]


def test_lr20_resample_keeps_the_view_and_respects_voids() -> None:
    s = scenario_a()
    play(s, "AH", "4H", "2H", "JH", "5D", "9D", "3H", "2D")
    # Voids revealed: seat 2 in diamonds (it discarded 3H); seat 3 in hearts (its Jack was its
    # last heart, LR-7).  Seat 1 followed suit with a guard: Jack protection reveals nothing.
    for viewer in range(4):
        view = s.view(viewer)
        for k in range(20):
            r = s.resample(viewer, random.Random(k))
            assert r.view(viewer) == view
            assert not any(c // 13 == 1 for c in r.hand(2))
            assert not any(c // 13 == 2 for c in r.hand(3))
    # Before the first lead everybody knows who holds A♥ (LR-6): it stays there.
    fresh = scenario_a()
    for k in range(10):
        assert parse_french("AH") in fresh.resample(1, random.Random(k)).hand(0)
    # 2 players: the opponent's hidden phantom is reshuffled, face-up cards stay.
    t = deal({0: "AH"}, "2S", players=2, phantoms={1: "JH 5H"})
    play(t, "AH", "draw", "ph 5H")
    r = t.resample(0, random.Random(3))
    assert r.phantom(1)[-1] == parse_french("JH") and r.view(0) == t.view(0)


def _opening_deals() -> list[LostRanksState]:
    """Three 2-player deals that seat 0 cannot tell apart (its hand, its phantom deck and
    the Trump Card are the same; the dealer is seat 0, so seat 1 leads in each): A♥ in
    seat 1's hand; A♥ face down in seat 1's phantom and A♦ in its hand; both face down."""
    trump = "5C"
    others = [c for c in range(53) if c not in cards(f"AH AD {trump}")]
    own, own_phantom, rest = others[:17], others[17:26], others[26:]
    deals = []
    for in_phantom in ("", "AH", "AH AD"):
        hidden = cards(in_phantom)
        phantom = hidden + rest[: 9 - len(hidden)]
        hand = [c for c in rest + cards("AH AD") if c not in phantom]
        deals.append(deal(
            {0: " ".join(map(french_name, own)), 1: " ".join(map(french_name, hand))}, trump, players=2,
            phantoms={0: " ".join(map(french_name, own_phantom)), 1: " ".join(map(french_name, phantom))},
        ))
    return deals


def test_lr20_first_lead_is_shown_only_to_the_seat_that_leads_it_lr6_lr12() -> None:
    """LR-6 with LR-12/LR-20: the opponent of the leader learns nothing about where A♥
    is (the leader's real hand, face down in its phantom deck, or neither) until it is led."""
    deals = _opening_deals()
    assert [d.current_player() for d in deals] == [1, 1, 1]
    assert [d.view(1)["first_lead"] for d in deals] == ["AH", "AD", None]
    assert deals[0].view(0) == deals[1].view(0) == deals[2].view(0)
    assert deals[0].public_view() == deals[1].public_view() == deals[2].public_view()
    assert deals[0].view(0)["first_lead"] is None
    # Once led, the card is public (LR-20).
    play(deals[0], "AH")
    assert deals[0].public_view()["trick"] == [{"seat": 1, "card": "AH", "source": "hand"}]
    # 4 players: the Trump Card alone says which ace leads; everybody is told.
    assert scenario_a().public_view()["first_lead"] == "AH"


def test_lr20_resample_before_the_first_lead_draws_every_lr6_case() -> None:
    """Resampling for the leader's opponent draws from all three LR-6 cases of
    :func:`_opening_deals`, each consistent with its view (LR-6, LR-12, LR-20)."""
    state = _opening_deals()[0]
    view = state.view(0)
    seen = set()
    for k in range(60):
        r = state.resample(0, random.Random(k))
        assert r.view(0) == view and r.current_player() == 1
        lead = r.view(1)["first_lead"]
        seen.add(lead)
        legal = r.legal_action_strings()
        assert legal == [f"play {lead}"] if lead else "draw two" in legal
    assert seen == {"AH", "AD", None}


def test_constrained_deal_is_uniform_enough() -> None:
    # Two groups of two; card 0 may only go to group 0.
    counts: dict[tuple[int, ...], int] = {}
    rng = random.Random(1)
    for _ in range(3000):
        a, b = constrained_deal([(0b01, [0]), (0b11, [1, 2, 3])], [2, 2], rng)
        key = tuple(sorted(a))
        counts[key] = counts.get(key, 0) + 1
    assert set(counts) == {(0, 1), (0, 2), (0, 3)}
    assert all(800 < n < 1200 for n in counts.values())


# ---------------------------------------------------------------------------- protocol


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"players": 2},
        {"players": 4, "force_strength": True, "longer_game": True},
        {"players": 2, "force_strength": True, "longer_game": True},
    ],
)
def test_conformance(options: dict[str, object]) -> None:
    check_game(LostRanks(**options), seeds=range(2))  # type: ignore[arg-type]


def _recorded_match(game: LostRanks, seed: int, before_each_move: Callable[[], object]) -> list[object]:
    """A random match (moves from ``random.Random(seed)``, independent of the global
    random state) as every step's views and public view, then the history and result."""
    s = game.new_state(seed=seed)
    choices = random.Random(seed)
    trail: list[object] = []
    while not s.is_terminal():
        before_each_move()
        trail.append(([s.view(p) for p in range(game.num_players)], s.public_view()))
        s.apply_action(choices.choice(s.legal_actions()))
    trail += [s.history, s.result()]
    return trail


def _assert_deterministic(game: LostRanks) -> None:
    """The same seed and moves give the same match whatever the global random state
    is, at the deal and before every move; another seed gives another deal."""
    random.seed(1)
    undisturbed = _recorded_match(game, 11, lambda: None)
    random.seed(2)
    disturbance = random.Random(99)
    disturbed = _recorded_match(game, 11, lambda: random.seed(disturbance.random()))
    same = disturbed == undisturbed  # a bool: pytest's diff of two whole matches can take minutes on CI
    assert same, "the match depends on the global random state"
    first, second, other = (game.new_state(seed=s) for s in (5, 5, 6))
    assert str(first) == str(second)
    hands = [[s.view(p)["hand"] for p in range(game.num_players)] for s in (first, other)]
    assert hands[0] != hands[1], "another seed must deal other hands"


@pytest.mark.parametrize("players", [4, 2])
def test_determinism(players: int) -> None:
    _assert_deterministic(LostRanks(players=players))


@pytest.mark.parametrize("from_round", [0, 1])
def test_determinism_test_catches_global_randomness(from_round: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check of the check: an engine shuffling with the global ``random`` (from the
    first deal, or only from the second round on, after moves were applied) fails it."""
    true_round_rng = lost_ranks.round_rng

    def leaky_round_rng(seed: int, index: int) -> random.Random:
        return random if index >= from_round else true_round_rng(seed, index)  # type: ignore[return-value]

    monkeypatch.setattr(lost_ranks, "round_rng", leaky_round_rng)
    for players in (4, 2):
        with pytest.raises(AssertionError, match="global random state"):
            _assert_deterministic(LostRanks(players=players))


def test_options_and_action_names() -> None:
    g = LostRanks(players=2)
    assert g.num_distinct_actions == 107 and g.action_name(DRAW) == "draw two"
    assert g.parse_action_name("AS") == parse_french("AS")
    assert g.parse_action_name("Phantom 10♥") == 54 + parse_french("10H")
    assert len({g.action_name(a) for a in range(107)}) == 107
    assert LostRanks().num_distinct_actions == 53
    with pytest.raises(ValueError):
        LostRanks(force_strength=1)  # type: ignore[arg-type]
    s = g.new_state(seed=1)
    with pytest.raises(IllegalAction):
        s.apply_action(500)
    assert "not a move" in str(s.why_illegal(-1))


# ---------------------------------------------------------------------------- heuristic


# ---------------------------------------------------------------------------- console


def test_console_render_and_describe() -> None:
    from rich.console import Console

    from cardtable.games.lost_ranks.terminal import describe, render

    def text(view: dict[str, object], lang: str = "en") -> str:
        console = Console(width=120, record=True, file=open("/dev/null", "w"))
        console.print(render(view, lang=lang))
        return console.export_text()

    s = scenario_a()
    out = text(s.view(0))
    assert "Trump Card A♣" in out and "J♣ J♠ Spy" in out and "Red (You & Partner)" in out
    assert "First lead of the round: A♥" in out
    event = s.apply_action(s.parse_action("play AH"))
    assert describe(event, s.view(1)) == "East plays A♥"
    assert describe(event, s.view(0)) == "You play A♥"
    play(s, "4H", "2H")
    event = s.apply_action(s.parse_action("play JH"))
    assert describe(event, s.view(0)) == "East plays J♥ — you win the trick"
    assert "Last trick" in text(s.view(2)) and text(s.view(1), "ru")
    t = deal({0: "AH"}, "2S", players=2, phantoms={1: "JH 5H"})
    play(t, "AH")
    event = t.apply_action(t.parse_action("draw two"))
    assert describe(event, t.view(0)) == "Opponent draws two from the phantom deck"
    assert "Opponent drew ? + ?" in text(t.view(0)) and "You drew p1:J♥ + p2:5♥" in text(t.view(1))  # numbered as the keys p1, p2
    event = t.apply_action(t.parse_action("phantom 5H"))
    assert describe(event, t.view(0)) == (
        "Opponent plays 5♥ from the phantom deck — J♥ goes face up to the bottom — you win the trick"
    )
    assert "face up: #8 J♥" in text(t.view(0))


# ---------------------------------------------------------------------------- heuristic

# Measured (matches won against random): 4 players 0.895 on these 200 seeds, 0.900 on seeds
# 0-999, 0.902 on 5000-5399, 0.917 on 20000-20399; 2 players 0.755 here, 0.709 on 0-999 and
# 0.708 on 1000-1999 (see cardtable.games.lost_ranks.heuristic).  With 2 players whoever is dealt the Spy
# almost always hands it to the other army (it cannot win, LR-1, LR-10), so every round starts
# with a ±2 coin flip: an idealised model of the round (docs/strength.md) puts even flawless
# soldier play near 0.90, and the bot realistically reaches about 0.71.  The thresholds are what
# the bot achieves on these seeds, with margin.
THRESHOLDS = {4: 0.87, 2: 0.70}


def _heuristic_rate(players: int, matches: int) -> float:
    wins = 0
    for seed in range(matches):
        g = LostRanks(players=players)
        s = g.new_state(seed=seed)
        hero = seed % 2
        agents = [
            make_agent("heuristic" if q % 2 == hero else "random", g, seed=seed * 10 + q) for q in range(players)
        ]
        while not s.is_terminal():
            p = s.current_player()
            s.apply_action(agents[p].act(Observation.of(s, p)))
        wins += s.returns()[hero] > 0
    return wins / matches


@pytest.mark.slow
def test_heuristic_beats_random_four_players() -> None:
    assert _heuristic_rate(4, 200) >= THRESHOLDS[4]


@pytest.mark.slow
def test_heuristic_beats_random_two_players() -> None:
    assert _heuristic_rate(2, 200) >= THRESHOLDS[2]


def test_heuristic_chooses_what_it_chose_before_its_decisions_moved() -> None:
    """The heuristic's choices are those recorded from it before its decisions moved to
    ``decisions.py`` (``tests/golden/lost_ranks_heuristic.py``: every decision of matches
    with random moves mixed in, 4 players, Force Strength and Command of Two; the first
    60 matches of each here, all 200 when the record was checked)."""
    from cardtable.games.lost_ranks.heuristic import LostRanksHeuristic
    from golden.lost_ranks_heuristic import VARIANTS, decisions, load

    record = load()
    compared = 0
    for variant, options in VARIANTS.items():
        game = LostRanks(**options)  # type: ignore[arg-type]
        for seed in range(60):
            recorded = record[variant][str(seed)]
            chosen = [a for _, a in decisions(game, seed, LostRanksHeuristic(game, seed=seed))]
            assert chosen == recorded, (variant, seed, next(i for i, (a, b) in enumerate(zip(chosen, recorded)) if a != b))
            compared += len(chosen)
    assert compared > 35000


def test_phantom_answers_are_the_card_outcomes_summed_over_the_chances() -> None:
    """The heuristic's answer of the opponent's phantom deck (LR-13, LR-14) in closed form
    (``single_answer``, ``pair_answer``) is ``single_outcome`` / ``pair_outcome`` summed
    over every category of one card or two, on random chances."""
    from cardtable.games.lost_ranks import decisions as d

    rng = random.Random(16)
    for _ in range(300):
        chances = []
        for _ in range(2):
            raw = [rng.random() if rng.random() < 0.6 else 0.0 for _ in range(14)]
            raw[rng.randrange(14)] += 0.1
            chances.append([x / sum(raw) for x in raw])
        entries = [(p[d.B * 2] + p[d.B * 2 + 1], p[d.S * 2] + p[d.S * 2 + 1], p[d.SJ * 2] + p[d.SJ * 2 + 1],
                    p[d.SJ * 2 + 1], p[d.T * 2] + p[d.T * 2 + 1], sum(p[d.Y * 2:]), p[d.Y * 2 + 1] + p[d.J * 2 + 1])
                   for p in chances]
        for soldier in (False, True):
            single = [sum(chances[0][c] * d.single_outcome(c // 2, c % 2, soldier)[i] for c in range(14))
                      for i in range(4)]
            pair = [sum(chances[0][a] * chances[1][b] * d.pair_outcome(a // 2, a % 2, b // 2, b % 2, soldier)[i]
                        for a in range(14) for b in range(14)) for i in range(4)]
            assert d.single_answer(entries[0], soldier) == pytest.approx(single, abs=1e-12)
            assert d.pair_answer(entries[0], entries[1], soldier) == pytest.approx(pair, abs=1e-12)


@pytest.mark.parametrize("players", [2, 4])
def test_an_unpickled_state_plays_on_where_no_state_was_dealt(players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A state unpickled in a process that has dealt none (a ``jobs=`` search worker under
    spawn or forkserver, a saved position) builds the engine's lazy move tables itself: it
    met the empty table before (an ``IndexError`` on a follower's answer to a phantom lead,
    LR-13, or to a hand lead) and plays on exactly as the original."""
    import pickle

    state = LostRanks(players=players).new_state(seed=SEED)
    blob = pickle.dumps(state)
    rng = random.Random(3)
    moves, legal_sets = [], []
    while not state.is_terminal():
        legal = state.legal_actions()
        legal_sets.append(legal)
        moves.append(rng.choice(legal))
        state.apply_action(moves[-1])
    monkeypatch.setattr(lost_ranks, "_SUIT_CARDS", [])  # as in a fresh process
    restored = pickle.loads(blob)
    for legal, move in zip(legal_sets, moves):
        assert restored.legal_actions() == legal
        restored.apply_action(move)
    assert restored.is_terminal() and restored.returns() == state.returns()
