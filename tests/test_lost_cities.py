"""Lost Cities: one scenario per ruling (LC-1 … LC-8), conformance, determinism,
the heuristic's strength and the console renderer."""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Callable, Sequence

import pytest
from conformance import check_game
from rich.console import Console

from cardtable.agents import Observation, make_agent
from cardtable.games.lost_cities.heuristic import LostCitiesHeuristic
from cardtable.cards import parse_expedition
from cardtable.games.lost_cities.terminal import describe, render
from cardtable.games.lost_cities import LostCities, LostCitiesState, first_starter, score_cards
from cardtable.protocol import TERMINAL, IllegalAction
from cardtable.registry import load_game

# ---------------------------------------------------------------------------
# helpers


def kinds(text: str) -> list[int]:
    return [parse_expedition(t) for t in text.split()]


def make_deck(hand0: str, hand1: str, draw: str = "", colors: int = 5) -> list[int]:
    """A deck dealing ``hand0`` to seat 0 and ``hand1`` to seat 1 (8 cards each),
    then ``draw`` on top of the draw pile, then the remaining cards in sorted order."""
    h0, h1, top = kinds(hand0), kinds(hand1), kinds(draw)
    assert len(h0) == len(h1) == 8
    deck: list[int] = []
    for a, b in zip(h0, h1):
        deck += [a, b]
    deck += top
    rest = list(LostCities(colors=colors).full_deck)
    for k in deck:
        rest.remove(k)
    return deck + rest


def seed_starting(seat: int) -> int:
    """A match seed whose round 1 is started by ``seat`` (LC-7)."""
    return next(s for s in range(100) if first_starter(s) == seat)


def act(state: LostCitiesState, text: str) -> None:
    state.apply_action(state.parse_action(text))


def refusal(state: LostCitiesState, text: str) -> str:
    action = state.game.parse_action_name(text)
    reason = state.why_illegal(action)
    assert reason is not None, f"{text} should be illegal"
    before = str(state)
    with pytest.raises(IllegalAction) as err:
        state.apply_action(action)
    assert err.value.refusal == reason and str(err.value) == reason.message
    assert str(state) == before
    return reason.message


def play_round(state: LostCitiesState, policy: Callable[[LostCitiesState], str]) -> None:
    """Apply ``policy`` until the round (or the match) ends."""
    rounds = len(state.view(0)["round_scores"])
    while not state.is_terminal() and len(state.view(0)["round_scores"]) == rounds:
        act(state, policy(state))


def discard_first_draw_deck(state: LostCitiesState) -> str:
    view = state.view(state.current_player())
    return f"discard {view['hand'][0]}" if view["phase"] == "play" else "draw deck"


# ---------------------------------------------------------------------------
# LC-1 … LC-8


def test_lc1_deck_of_60_or_72_cards_and_options() -> None:
    five, six = LostCities(), LostCities(colors=6)
    assert len(five.full_deck) == 60 and len(six.full_deck) == 72
    for game in (five, six):
        for c in range(game.colors):
            cards = [k for k in game.full_deck if k // 10 == c]
            assert sorted(cards) == [10 * c] * 3 + [10 * c + v for v in range(1, 10)]
    assert five.card_name(59) == "P10" and six.parse_card("pw") == 50
    with pytest.raises(ValueError, match="not a card"):
        five.parse_card("P5")  # no purple in the five-colour game
    # an explicit deck must be exactly the multiset of the cards
    deck = make_deck("Yw Y2 Y3 Y4 Y5 Y6 Y7 Y8", "Bw B2 B3 B4 B5 B6 B7 B8")
    five.new_state(decks=[deck])
    bad = list(deck)
    bad[-1] = bad[0]  # one wager too many, one card missing
    with pytest.raises(ValueError, match=r"LC-1"):
        five.new_state(decks=[bad])
    with pytest.raises(ValueError, match="60 cards"):
        five.new_state(decks=[deck[:-1]])
    with pytest.raises(ValueError, match="72 cards"):
        six.new_state(decks=[deck])
    with pytest.raises(ValueError, match="decks given"):
        LostCities(rounds=1).new_state(decks=[deck, deck])
    for wrong in ({"colors": 4}, {"colors": 7}, {"rounds": 0}, {"rounds": -2}, {"rounds": True}):
        with pytest.raises(ValueError):
            LostCities(**wrong)  # type: ignore[arg-type]
    assert LostCities(rounds=5).config.rounds == 5


def test_lc2_deal_alternates_and_draw_pile_count_is_public() -> None:
    deck = make_deck("Yw Y2 Y3 Y4 Y5 Y6 Y7 Y8", "Bw B2 B3 B4 B5 B6 B7 B8", "R10 G10")
    state = LostCities().new_state(seed=0, decks=[deck])
    v0, v1 = state.view(0), state.view(1)
    assert v0["hand"] == "Yw Y2 Y3 Y4 Y5 Y6 Y7 Y8".split()
    assert v1["hand"] == "Bw B2 B3 B4 B5 B6 B7 B8".split()
    assert v0["draw_pile"] == v1["draw_pile"] == 44
    assert v0["opponent_hand_size"] == 8 and v0["opponent_known"] == []
    assert LostCities(colors=6).new_state(seed=1).view(0)["draw_pile"] == 56
    # the top of the draw pile is deck[16]: the first player to draw gets R10
    starter = state.current_player()
    act(state, "discard " + state.view(starter)["hand"][0])
    act(state, "draw deck")
    assert "R10" in state.view(starter)["hand"]


def test_lc3_place_higher_numbers_wagers_first_or_discard() -> None:
    seat = 0
    deck = make_deck("Yw Yw Y3 Y5 Y9 B4 Bw G2", "R2 R3 R4 R5 R6 R7 R8 R9")
    state = LostCities().new_state(seed=seed_starting(seat), decks=[deck])
    assert state.current_player() == seat
    assert state.legal_action_strings() == [
        "play Yw", "play Y3", "play Y5", "play Y9", "discard Yw", "discard Y3", "discard Y5", "discard Y9",
        "play Bw", "play B4", "discard Bw", "discard B4", "play G2", "discard G2",
    ]
    assert "LC-3" in refusal(state, "draw deck")
    assert refusal(state, "play R2") == "you have no R2 in your hand (LC-3)"
    act(state, "play Yw")
    act(state, "draw deck")
    act(state, "discard R2")
    act(state, "draw deck")
    # two wagers may go on an expedition holding only wagers
    assert "play Yw" in state.legal_action_strings()
    act(state, "play Y5")
    act(state, "draw deck")
    act(state, "discard R3")
    act(state, "draw deck")
    assert refusal(state, "play Y3") == "Y3 is not higher than Y5 already on your yellow expedition (LC-3)"
    assert refusal(state, "play Yw") == (
        "a wager may be placed only before any number card: your yellow expedition already holds Y5 (LC-3)"
    )
    legal = state.legal_action_strings()
    assert "play Y9" in legal and "discard Y3" in legal and "discard Yw" in legal
    assert "play Y3" not in legal and "play Yw" not in legal
    assert state.view(1)["expeditions"][0]["Y"] == ["Yw", "Y5"]


def test_lc4_cannot_take_back_the_card_just_discarded() -> None:
    seat = 1
    deck = make_deck("R2 R3 R4 R5 R6 R7 R8 R9", "Yw Y2 Y3 Y4 Y5 Y6 Y7 Y8")
    state = LostCities().new_state(seed=seed_starting(seat), decks=[deck])
    assert state.current_player() == seat
    act(state, "discard Y8")
    assert state.view(seat)["phase"] == "draw" and state.view(seat)["banned"] == "Y"
    assert state.legal_action_strings() == ["draw deck"]
    assert refusal(state, "draw Y") == (
        "you cannot take from the yellow discard pile: you discarded onto it this turn (LC-4)"
    )
    assert refusal(state, "draw B") == "the blue discard pile is empty (LC-4)"
    assert "LC-4" in refusal(state, "play Y2")
    act(state, "draw deck")
    assert state.current_player() == 1 - seat
    act(state, "discard R9")
    assert state.legal_action_strings() == ["draw deck", "draw Y"]
    act(state, "draw Y")  # the other player may take the yellow card
    assert "Y8" in state.view(1 - seat)["hand"]
    assert state.view(seat)["opponent_known"] == ["Y8"]
    # the ban lasts one turn: now seat may take R9 from the red pile
    act(state, "discard Y7")
    assert state.legal_action_strings() == ["draw deck", "draw R"]


def test_lc5_round_ends_when_the_last_draw_pile_card_is_taken() -> None:
    state = LostCities(rounds=2).new_state(seed=4)
    events = []
    while len(state.view(0)["round_scores"]) == 0:
        events.append(state.apply_action(state.parse_action(discard_first_draw_deck(state))))
    draws = [e for e in events if e.text == "draw deck"]
    assert len(draws) == 44  # exactly the 44 cards of the draw pile, one per turn
    assert "round 1 ends" in draws[-1].note and "LC-5" in draws[-1].note
    assert all("ends" not in e.note for e in events[:-1])
    view = state.view(0)
    assert view["round"] == 2 and view["draw_pile"] == 44 and len(view["hand"]) == 8
    assert view["log"] == []


def test_lc5_safeguard_ends_round_after_100_turns_without_a_draw_pile_card() -> None:
    state = LostCities(rounds=1).new_state(seed=6)
    act(state, discard_first_draw_deck(state))
    act(state, "draw deck")
    act(state, discard_first_draw_deck(state))
    act(state, "draw deck")
    turns = 0
    while not state.is_terminal():
        view = state.view(state.current_player())
        if view["phase"] == "play":
            nonempty = {c for c, pile in view["discards"].items() if pile}
            # discard so that another pile stays available to take from
            card = next(n for n in view["hand"] if nonempty - {n[0]})
            act(state, f"discard {card}")
            continue
        piles = [a for a in state.legal_action_strings() if a != "draw deck"]
        event = state.apply_action(state.parse_action(piles[0]))
        turns += 1
        assert view["turns_without_deck_draw"] == turns - 1
    assert turns == 100
    assert "100 turns without a draw-pile card (LC-5)" in event.note
    assert state.view(0)["draw_pile"] == 42
    assert state.result()["round_scores"] == [[0, 0]]


def test_lc6_scoring_examples() -> None:
    y = lambda text: [k for k in kinds(text)]  # noqa: E731
    assert score_cards([]) == 0
    assert score_cards(y("Y2")) == -18
    assert score_cards(y("Y5 Y6 Y9 Y10")) == 10
    assert score_cards(y("Yw Y5 Y6 Y9 Y10")) == 20
    assert score_cards(y("Yw Yw Yw Y5 Y6 Y9 Y10")) == 40
    assert score_cards(y("Yw")) == -40 and score_cards(y("Yw Yw Yw")) == -80
    # 8 cards (wagers counted) earn 20, added after multiplying
    assert score_cards(y("Yw Y2 Y3 Y4 Y5 Y6 Y7 Y8")) == (35 - 20) * 2 + 20
    assert score_cards(y("Y2 Y3 Y4 Y5 Y6 Y7 Y8")) == 35 - 20
    assert score_cards(y("Yw Yw Yw Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 Y10")) == 156
    assert score_cards(y("Yw Yw Y2 Y3 Y4 Y5 Y6")) == (20 - 20) * 3


def test_lc6_round_scores_in_a_played_round() -> None:
    seat = 0
    deck = make_deck("Yw Y2 Y3 Y4 Y5 Y6 Y7 Y8", "Bw R2 R3 R4 R5 R6 R7 R8")
    state = LostCities(rounds=1).new_state(seed=seed_starting(seat), decks=[deck])

    def policy(s: LostCitiesState) -> str:
        seat = s.current_player()
        view = s.view(seat)
        if view["phase"] == "draw":
            return "draw deck"
        mine = ["Yw", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7", "Y8"] if seat == 0 else ["Bw"]
        started = any(view["expeditions"][seat].values())
        for name in view["hand"]:
            if name in mine and f"play {name}" in s.legal_action_strings() and not (name.endswith("w") and started):
                return f"play {name}"
        return f"discard {next(n for n in view['hand'] if n not in mine)}"

    play_round(state, policy)
    assert state.is_terminal()
    view = state.view(0)
    assert view["expeditions"][0]["Y"] == "Yw Y2 Y3 Y4 Y5 Y6 Y7 Y8".split()
    assert view["expedition_scores"][0][0] == 50
    assert view["expeditions"][1]["B"] == ["Bw"] and view["expedition_scores"][1][1] == -40
    assert sum(view["expedition_scores"][0]) == 50 and sum(view["expedition_scores"][1]) == -40
    assert state.result() == {"returns": [1.0, -1.0], "scores": [50, -40], "round_scores": [[50, -40]], "winner": 0}

def reds_for_seat_1(s: LostCitiesState) -> str:
    """Seat 1 lays its red cards in order (R5..R10 = 45, scoring 25); everything else is discarded."""
    seat = s.current_player()
    view = s.view(seat)
    if view["phase"] == "draw":
        return "draw deck"
    reds = [n for n in view["hand"] if n in ("R5", "R6", "R7", "R8", "R9", "R10")]
    if seat == 1 and reds and f"play {reds[0]}" in s.legal_action_strings():
        return f"play {reds[0]}"
    return f"discard {next(n for n in view['hand'] if n not in reds)}"


def test_lc7_match_starters_and_draw() -> None:
    quiet = make_deck("Yw Y2 Y3 Y4 Y5 Y6 Y7 Y8", "Bw B2 B3 B4 B5 B6 B7 B8")
    strong_for_1 = make_deck("Yw Y2 Y3 Y4 G2 G3 G4 B2", "R5 R6 R7 R8 R9 R10 B3 B4")
    for seat in (0, 1):
        seed = seed_starting(seat)
        state = LostCities(rounds=3).new_state(seed=seed, decks=[quiet, quiet, strong_for_1])
        assert state.view(0)["starter"] == seat  # round 1: drawn from the match seed
        play_round(state, discard_first_draw_deck)
        assert state.view(0)["round_scores"] == [[0, 0]]
        # equal totals: the player who did not start round 1 starts round 2
        assert state.view(0)["starter"] == 1 - seat and state.current_player() == 1 - seat
        play_round(state, discard_first_draw_deck)
        assert state.view(1)["starter"] == seat
        assert state.view(0)["round"] == 3

        play_round(state, reds_for_seat_1)
        assert state.is_terminal() and state.current_player() == TERMINAL
        result = state.result()
        assert result["round_scores"] == [[0, 0], [0, 0], [0, 25]]
        assert result["winner"] == 1 and state.returns() == [-1.0, 1.0]
    # a higher running total starts the next round, even if that player started the last one
    state = LostCities(rounds=2).new_state(seed=seed_starting(1), decks=[strong_for_1])
    play_round(state, reds_for_seat_1)
    assert state.view(0)["scores"] == [0, 25]
    assert state.view(0)["starter"] == 1 and state.current_player() == 1
    # equal final totals: a draw
    state = LostCities(rounds=1).new_state(seed=3, decks=[quiet])
    play_round(state, discard_first_draw_deck)
    assert state.result() == {"returns": [0.0, 0.0], "scores": [0, 0], "round_scores": [[0, 0]], "winner": None}


def test_lc8_views_show_only_what_a_player_may_know() -> None:
    seat = 0
    deck = make_deck("Yw G2 G3 G4 G5 G6 G7 G8", "Yw R2 R3 R4 R5 R6 R7 R8", "B2 B3 B4 B5")
    state = LostCities().new_state(seed=seed_starting(seat), decks=[deck])
    act(state, "discard G8")
    act(state, "draw deck")  # seat 0 draws B2
    act(state, "discard Yw")
    act(state, "draw G")  # seat 1 takes G8 (public)
    act(state, "discard G7")
    act(state, "draw Y")  # seat 0 takes Yw from the pile: it holds two wagers now
    view0, view1 = state.view(0), state.view(1)
    assert view1["opponent_known"] == ["Yw"] and view0["opponent_known"] == ["G8"]
    assert view0["opponent_hand_size"] == view1["opponent_hand_size"] == 8
    assert view0["discards"] == {"Y": [], "B": [], "W": [], "G": ["G7"], "R": []}
    assert view0["log"] == [
        {"player": 0, "action": "discard G8", "card": "G8"},
        {"player": 0, "action": "draw deck"},
        {"player": 1, "action": "discard Yw", "card": "Yw"},
        {"player": 1, "action": "draw G", "card": "G8"},
        {"player": 0, "action": "discard G7", "card": "G7"},
        {"player": 0, "action": "draw Y", "card": "Yw"},
    ]
    assert view0 == {**view0, "hand": sorted(view0["hand"], key=parse_expedition)}
    # a hidden card (seat 1's R2) appears nowhere in seat 0's view; B2 drawn by seat 0 is unknown to seat 1
    assert not re.search(r"\bR2\b", json.dumps(view0))
    assert not re.search(r"\bB2\b", json.dumps(view1))
    # the opponent plays a wager: with identical wagers the played one is taken as the known one
    act(state, "discard R8")
    act(state, "draw deck")
    act(state, "play Yw")
    assert state.view(1)["opponent_known"] == []
    assert state.view(1)["expeditions"][0]["Y"] == ["Yw"]
    # resampling keeps the seat's view and the opponent's known cards, redraws the rest
    state = LostCities().new_state(seed=seed_starting(seat), decks=[deck])
    for text in ("discard G8", "draw deck", "discard R8", "draw G"):
        act(state, text)
    hands = set()
    for k in range(20):
        sample = state.resample(0, random.Random(k))
        assert sample.view(0) == state.view(0)
        assert "G8" in sample.view(1)["hand"]
        hands.add(tuple(sample.view(1)["hand"]))
    assert len(hands) > 10


# ---------------------------------------------------------------------------
# protocol details


def test_action_table_names_and_parsing() -> None:
    for colors in (5, 6):
        game = LostCities(colors=colors)
        names = [game.action_name(a) for a in range(game.num_distinct_actions)]
        assert len(set(names)) == len(names) == 21 * colors + 1
        assert game.action_name(game.play_action(parse_expedition("Y7"))) == "play Y7"
        assert game.action_name(game.discard_action(parse_expedition("Rw"))) == "discard Rw"
        assert game.action_name(game.draw_deck_action) == "draw deck"
        assert game.action_name(game.draw_pile_action(1)) == "draw B"
    state = LostCities().new_state(seed=seed_starting(0), decks=[make_deck("Yw G2 G3 G4 G5 G6 G7 G8", "Yw R2 R3 R4 R5 R6 R7 R8")])
    assert state.parse_action("  PLAY   g2 ") == state.game.play_action(parse_expedition("G2"))
    with pytest.raises(IllegalAction, match="not a move"):
        state.parse_action("fly away")
    assert "not a move of Lost Cities" in str(state.why_illegal(999))
    assert "not a move of Lost Cities" in str(state.why_illegal(-1))
    with pytest.raises(IllegalAction):
        state.apply_action(999)


def test_undo_and_clone_across_a_round_boundary() -> None:
    state = LostCities(rounds=2).new_state(seed=9)
    snapshots = []
    while len(state.view(0)["round_scores"]) == 0:
        snapshots.append(str(state))
        act(state, discard_first_draw_deck(state))
    copy = state.clone()
    copy.undo_action()
    assert str(copy) == snapshots[-1] and copy.view(0)["round"] == 1
    assert state.view(0)["round"] == 2
    for expected in reversed(snapshots):
        state.undo_action()
        assert str(state) == expected
    with pytest.raises(IllegalAction):
        state.undo_action()


@pytest.mark.parametrize("options,seeds", [({}, range(2)), ({"colors": 6}, range(1)), ({"rounds": 1}, range(4)),
                                           ({"colors": 6, "rounds": 1}, range(2))])
def test_conformance(options: dict[str, int], seeds: range) -> None:
    check_game(load_game("lost-cities", **options), seeds=seeds)


def _match(game: LostCities, names: Sequence[str], seed: int, disturb: bool = False) -> LostCitiesState:
    agents = [make_agent(names[s], game, seed=seed * 2 + s) for s in range(2)]
    state = game.new_state(seed=seed)
    while not state.is_terminal():
        if disturb:
            random.seed(random.random() * 1e9)
        seat = state.current_player()
        state.apply_action(agents[seat].act(Observation.of(state, seat)))
    assert isinstance(state, LostCitiesState)
    return state


def test_determinism_under_disturbed_global_random() -> None:
    game = LostCities(rounds=2)
    for seed in (1, 2):
        random.seed(0)
        first = _match(game, ["heuristic", "random"], seed)
        random.seed(99)
        second = _match(game, ["heuristic", "random"], seed, disturb=True)
        assert first.history == second.history and str(first) == str(second)
    a, b = game.new_state(seed=5), game.new_state(seed=5)
    random.seed(1)
    assert str(a) == str(b) and str(game.new_state(seed=6)) != str(a)


@pytest.mark.slow
def test_heuristic_beats_random_in_95_percent_of_matches() -> None:
    game = LostCities()
    assert isinstance(make_agent("heuristic", game), LostCitiesHeuristic)
    wins = 0
    n = 200
    for i in range(n):
        names = ["heuristic", "random"] if i % 2 == 0 else ["random", "heuristic"]
        seat = i % 2
        state = _match(game, names, 1000 + i)
        wins += state.returns()[seat] > 0
    assert wins / n >= 0.95, f"heuristic won only {wins}/{n}"


# ---------------------------------------------------------------------------
# console


def test_console_render_and_describe() -> None:
    game = LostCities(colors=6, rounds=2)
    state = _match(game, ["heuristic", "heuristic"], 3)
    replay = game.new_state(seed=3)
    console = Console(file=io.StringIO(), width=120, force_terminal=True, color_system="truecolor")
    lines: list[str] = []
    for i, action in enumerate(state.history):
        event = replay.apply_action(action)
        for seat in range(2):
            line = describe(event, replay.view(seat))
            lines.append(line)
            if event.text == "draw deck" and event.player != seat:
                # the opponent's deck draw is announced without the card
                assert line.split(".")[0] == "Opponent draws from the draw pile"
        if i % 40 == 0 or replay.is_terminal():
            for seat in range(2):
                console.print(render(replay.view(seat)))
                console.print(render(replay.view(seat), lang="ru"))
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert "Lost Cities — round 2 of 2" in text and "purple" in text and "Finished rounds" in text
    assert any("Round 1 is over" in line for line in lines)
    assert any("Match over" in line for line in lines)
    plain = Console(file=io.StringIO(), width=120)
    start = LostCities().new_state(seed=seed_starting(0), decks=[make_deck("Yw G2 G3 G4 G5 G6 G7 G8", "Yw R2 R3 R4 R5 R6 R7 R8")])
    act(start, "discard G8")
    plain.print(render(start.view(0)))
    out = plain.file.getvalue()  # type: ignore[attr-defined]
    assert "1:Yw" in out and "7:G7" in out and "draw phase" in out and "green pile" in out
