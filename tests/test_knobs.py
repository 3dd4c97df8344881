"""Designers' knobs: the numbers of the published rules as game options (``group="custom"``).

Each knob's default is its ruling's number (LC-6, LR-15 … LR-18, RG-2, RG-6); a test per
knob shows that a non-default value changes what it should, the conformance check runs
every game at non-default values, and refusals name the option and what is allowed.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from cardtable import records
from cardtable.games.lost_cities import LostCities, score_cards, score_table
from cardtable.cards import FRENCH_NAMES
from cardtable.games.lost_ranks import LostRanks, make_deck
from cardtable.games.rank import Rank
from cardtable.protocol import Event, Game, State
from cardtable.registry import game_info, game_names, load_game
from conformance import check_game


def _random_match(game: Game, seed: int) -> Iterator[tuple[State, Event]]:
    """A random match of ``game``: each applied event with the state after it."""
    rng = random.Random(seed)
    state = game.new_state(seed=seed)
    while not state.is_terminal():
        yield state, state.apply_action(rng.choice(state.legal_actions()))


def _details(game: Game, seed: int, kind: str) -> list[object]:
    return [d for _, event in _random_match(game, seed) for d in event.details if d.kind == kind]


# ------------------------------------------------------------------- the description


@pytest.mark.parametrize("name", game_names())
def test_every_knob_defaults_to_its_ruling_and_is_described(name: str) -> None:
    """A knob cites its ruling and says the published number in its help (EN and RU)."""
    knobs = [o for o in game_info(name).options if o.group == "custom"]
    assert knobs
    for o in knobs:
        assert o.rule and o.rule in o.help.en and o.rule in o.help.ru
        assert f"the published rules say {o.default} ({o.rule})" in o.help.en
        assert f"по правилам {o.default} ({o.rule})" in o.help.ru
        data = o.as_json()
        assert data["group"] == "custom" and data["values"] is None  # a number field, in "Custom rules"
        assert o.minimum is not None and o.maximum is not None and o.minimum <= o.default <= o.maximum


def test_published_defaults() -> None:
    """LC-6: 20, 8, 20; LR-15: 2 and 2; LR-16: 1; LR-17: 10 and 7; LR-18: 4; RG-2: 5; RG-6: 2."""
    assert {k: v for k, v in game_info("lost-cities").defaults().items() if k in ("cost", "bonus_length", "bonus")} \
        == {"cost": 20, "bonus_length": 8, "bonus": 20}
    lr = game_info("lost-ranks").defaults()
    assert (lr["jack_points"], lr["spy_points"], lr["force_bonus"], lr["target"], lr["round_cap"],
            lr["two_player_rounds"]) == (2, 2, 1, 10, 7, 4)
    rg = game_info("rank").defaults()
    assert (rg["hand_size"], rg["pull_back_draws"]) == (5, 2)


@pytest.mark.parametrize("name,options,message", [
    ("lost-cities", {"cost": 61}, "cost must be a whole number from 0 to 60 (LC-6), not 61"),
    ("lost-cities", {"bonus_length": 0}, "bonus_length must be a whole number from 1 to 12 (LC-6), not 0"),
    ("lost-ranks", {"target": 500}, "target must be a whole number from 1 to 100 (LR-17), not 500"),
    ("lost-ranks", {"jack_points": -1}, "jack_points must be a whole number from 0 to 20 (LR-15), not -1"),
    ("lost-ranks", {"players": 2, "target": 20}, "target applies to 4 players only (LR-17): leave it at 10, not 20"),
    ("lost-ranks", {"players": 4, "two_player_rounds": 2},
     "two_player_rounds applies to 2 players only (LR-18): leave it at 4, not 2"),
    ("lost-ranks", {"force_bonus": 3}, "force_bonus counts only with force_strength on (LR-16)"),
    ("lost-ranks", {"longer_game": True, "target": 20}, "longer_game sets the target to 15"),
    ("rank", {"pull_back_draws": 0}, "pull_back_draws must be a whole number from 1 to 10 (RG-6), not 0"),
    ("rank", {"players": 4, "hand_size": 14},
     "hand_size 14 with 4 players deals 56 cards and turns one up: more than the 54 cards of one pack "
     "(RG-1, RG-2); at most 13"),
])
def test_refusals_name_the_knob_and_what_is_allowed(name: str, options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match="^(bad option for [a-z-]+: )?" + message.replace("(", r"\(").replace(")", r"\)")):
        load_game(name, **options)


# ------------------------------------------------------------------- Lost Cities (LC-6)


def test_lc6_cost_scores_a_one_card_expedition_as_value_minus_cost() -> None:
    """LC-6 with cost 10: a lone 7 scores 7 − 10 = −3 (published: −13), in the view too."""
    assert score_cards([6], score_table(cost=10)) == -3 and score_cards([6]) == -13  # kind 6 is Y7
    game = LostCities(cost=10, rounds=1)
    state = game.new_state(seed=4)
    seat = state.current_player()
    play = next(a for a in state.legal_actions() if a % 20 < 10 and a % 10)  # a number card
    state.apply_action(play)
    value, colour = play % 10 + 1, play // 20  # value index v is the card v + 1
    assert state.view(seat)["expedition_scores"][seat][colour] == value - 10
    published = LostCities(rounds=1).new_state(seed=4)
    published.apply_action(play)
    assert published.view(seat)["expedition_scores"][seat][colour] == value - 20


def test_lc6_bonus_length_and_amount() -> None:
    """LC-6 with the bonus from 3 cards and worth 50: 2 3 4 scores (9 − 20) + 50 = 39."""
    table = score_table(bonus_length=3, bonus=50)
    assert score_cards([1, 2, 3], table) == 39 and score_cards([1, 2, 3]) == -11
    assert score_cards([1, 2], table) == -15  # two cards: no bonus
    assert score_cards([0, 1, 2, 3], table) == 2 * (9 - 20) + 50  # the bonus is never multiplied


def _lc6(names: list[str], cost: int, length: int, bonus: int) -> int:
    """LC-6 by hand, from card names ("Yw", "Y7")."""
    if not names:
        return 0
    wagers = sum(1 for n in names if n.endswith("w"))
    total = sum(int(n[1:]) for n in names if not n.endswith("w"))
    return (total - cost) * (1 + wagers) + (bonus if len(names) >= length else 0)


@pytest.mark.parametrize("knobs", [{"cost": 0}, {"cost": 35, "bonus_length": 4, "bonus": 7}])
def test_lc6_round_scores_follow_the_knobs(knobs: dict[str, int]) -> None:
    """The scores at each round's end are LC-6 by the configured numbers."""
    game = LostCities(rounds=2, **knobs)
    args = (knobs.get("cost", 20), knobs.get("bonus_length", 8), knobs.get("bonus", 20))
    for seed in range(3):
        *_, (state, _event) = _random_match(game, seed)
        for summary in state.public_view()["round_summaries"]:
            per = [[_lc6(pile, *args) for pile in side.values()] for side in summary["expeditions"]]
            assert summary["expedition_scores"] == per
            assert summary["scores"] == [sum(p) for p in per]


@pytest.mark.parametrize("game", [LostCities(cost=10), LostRanks(jack_points=3), Rank(players=4, pull_back_draws=3)])
def test_the_kernels_refuse_a_designers_knob(game: Any) -> None:
    """The compiled kernels play the published rules (LC-6, LR-15, RG-6): a changed knob
    is refused by name before a match is played, the published game is not."""
    pytest.importorskip("numba")
    from cardtable import kernels

    policies = ["random"] * game.num_players
    kernels.check(type(game)(**{k: v for k, v in game.config_dict().items()
                                if k not in game.info.custom_rules(game.config_dict())}), policies)
    changed = next(iter(game.info.custom_rules(game.config_dict())))
    with pytest.raises(ValueError, match=f"plays the published rules only, not {changed}="):
        kernels.check(game, policies)


# ------------------------------------------------------------------- Lost Ranks


def test_lr15_jack_points() -> None:
    """LR-15 with 5 a Jack and 0 the Spy: an army scores 0, 5 or 10 a round."""
    seen = set()
    for seed in range(4):
        for d in _details(LostRanks(jack_points=5, spy_points=0), seed, "round_ended"):
            seen.update(d.points)  # type: ignore[attr-defined]
    assert seen <= {0, 5, 10} and seen & {5, 10}


def test_lr15_spy_points() -> None:
    """LR-15 with 0 a Jack and 7 the Spy: one army scores 7 a round, or none (Spy discarded)."""
    rounds = [d.points for seed in range(4)  # type: ignore[attr-defined]
              for d in _details(LostRanks(players=2, jack_points=0, spy_points=7), seed, "round_ended")]
    assert all(sorted(p) in ([0, 0], [0, 7]) for p in rounds) and any(7 in p for p in rounds)


def test_lr16_force_bonus() -> None:
    """LR-16 with a bonus of 4 (soldiers worth 0): each round one army gets 4 or, level, none."""
    game = LostRanks(force_strength=True, force_bonus=4, jack_points=0, spy_points=0)
    rounds = [d.points for seed in range(3) for d in _details(game, seed, "round_ended")]  # type: ignore[attr-defined]
    assert all(sorted(p) in ([0, 0], [0, 4]) for p in rounds) and any(4 in p for p in rounds)


def test_lr17_target() -> None:
    """LR-17 with target 3 (no round cap): the match ends after the first round in which an
    army reaches 3 (tiebreakers on a tie) — never later, as the published 10 would."""
    for seed in range(6):
        totals = [d.totals for d in _details(LostRanks(target=3, round_cap=0), seed, "round_ended")]  # type: ignore[attr-defined]
        due = next(i for i, t in enumerate(totals) if max(t) >= 3)
        tiebreaks = 0 if totals[due][0] != totals[due][1] else len(totals) - due - 1
        assert len(totals) == due + 1 + tiebreaks and tiebreaks <= 10, (seed, totals)
        assert all(t[0] == t[1] for t in totals[due:-1])  # a tiebreaker follows only a tie


def test_lr17_round_cap() -> None:
    """LR-17 with a cap of 2 rounds and an unreachable target: 2 rounds, then tiebreakers."""
    for seed in range(4):
        *_, (state, _e) = _random_match(LostRanks(target=100, round_cap=2), seed)
        result = state.result()
        assert result["rounds"] == 2 + result["tiebreak_rounds"]


def test_lr18_two_player_rounds() -> None:
    """LR-18 with 1 round: a 2-player match is one round, then tiebreakers."""
    for seed in range(4):
        *_, (state, _e) = _random_match(LostRanks(players=2, two_player_rounds=1), seed)
        result = state.result()
        assert result["rounds"] == 1 + result["tiebreak_rounds"]


def test_lr4_phantom_size() -> None:
    """LR-4 with phantom decks of 13: each real hand gets the other 13 of its 26 cards, and
    a round is still 26 tricks (LR-13); an explicit deck follows the same split."""
    game = LostRanks(players=2, phantom_size=13)
    view = game.new_state(seed=7).view(0)
    assert view["hand_sizes"] == [13, 13] and view["phantom_sizes"] == [13, 13]
    assert LostRanks(players=2).new_state(seed=7).view(0)["phantom_sizes"] == [9, 9]
    cards = [c for c in range(53) if c != 18]  # 18 is 7♦, the Trump Card
    hands, phantoms = [cards[0:13], cards[13:26]], [cards[26:39], cards[39:52]]
    deck = make_deck(hands, 18, dealer=LostRanks.draw_setup(0)[0] % 2, phantoms=phantoms)
    state = game.new_state(seed=0, decks=[deck])
    assert sorted(state.view(0)["hand"]) == sorted(FRENCH_NAMES[c] for c in hands[0])
    assert state.view(1)["phantoms"][1] == [FRENCH_NAMES[c] for c in phantoms[1]]
    tricks = [d for _, e in _random_match(game, 2) for d in e.details if d.kind in ("trick_won", "no_winner_trick")]
    assert len(tricks) % 26 == 0


def test_lr4_phantom_size_in_the_tensors() -> None:
    rl = pytest.importorskip("cardtable.rl")
    encoder = rl.encoder_for(LostRanks(players=2, phantom_size=13))
    assert encoder.observation_layout.segment("phantom_mine").shape == (13, 53)
    assert rl.encoder_for(LostRanks(players=2)).observation_layout.segment("phantom_mine").shape == (9, 53)
    state = LostRanks(players=2, phantom_size=13).new_state(seed=1)
    assert encoder.observation(state.view(0)).shape == encoder.observation_shape


# ------------------------------------------------------------------- Ранг


def test_rg2_hand_size() -> None:
    """RG-2 with 7 cards: three players hold 7 each and the stock is 54 − 21 − 1."""
    view = Rank(players=3, hand_size=7).new_state(seed=2).view(0)
    assert view["hand_sizes"] == [7, 7, 7] and len(view["hand"]) == 7 and view["stock"] == 32
    assert view["hand_size"] == 7 and "hand_size" not in Rank(players=3).new_state(seed=2).view(0)


def test_rg6_pull_back_draws() -> None:
    """RG-6 with 3: a pulled-back player draws 3 (fewer only when the stock runs out)."""
    game = Rank(players=3, hand_size=2, pull_back_draws=3)
    counts = []
    for seed in range(10):
        for state, event in _random_match(game, seed):
            for d in event.details:
                if d.kind == "pull_back":
                    counts.append(d.count)  # type: ignore[attr-defined]
                    assert d.count == 3 or state.public_view()["stock"] == 0
    assert 3 in counts


# ------------------------------------------------------------------- conformance and records


CONFORMANCE = [
    ("lost-cities", {"cost": 5, "bonus_length": 5, "bonus": 45, "rounds": 1}),
    ("lost-ranks", {"target": 4, "round_cap": 3, "jack_points": 3, "spy_points": 1,
                    "force_strength": True, "force_bonus": 2}),
    ("lost-ranks", {"players": 2, "two_player_rounds": 2, "jack_points": 1, "spy_points": 4, "phantom_size": 13}),
    ("rank", {"players": 4, "hand_size": 8, "pull_back_draws": 3}),
]


@pytest.mark.parametrize("name,options", CONFORMANCE, ids=[f"{n}-{i}" for i, (n, _) in enumerate(CONFORMANCE)])
def test_conformance_at_non_default_knobs(name: str, options: dict[str, object]) -> None:
    """The shared random-simulation test (record round trip included) with every knob changed."""
    check_game(load_game(name, **options), seeds=range(2))


def test_conformance_covers_every_knob() -> None:
    covered = {(name, key) for name, options in CONFORMANCE for key in options}
    knobs = {(name, o.name) for name in game_names() for o in game_info(name).options if o.group == "custom"}
    assert knobs <= covered


def test_a_saved_record_keeps_the_knobs_and_replays() -> None:
    """A record names a changed knob (and only a changed one) and replays to the same result."""
    game = load_game("lost-cities", rounds=1, cost=12)
    *_, (state, _e) = _random_match(game, 3)
    text = records.dumps(records.record_of(state, players=["a", "b"]))
    assert json.loads(text)["config"] == {"colors": 5, "rounds": 1, "cost": 12}
    replayed = records.replay(records.loads(text))
    assert replayed.game.config == game.config and replayed.result() == state.result()
    assert load_game("lost-cities").config_dict() == {"colors": 5, "rounds": 3}


def test_custom_rules_lists_the_changed_knobs() -> None:
    info = game_info("lost-ranks")
    assert info.custom_rules(load_game("lost-ranks", players=2, spy_points=3).config_dict()) == {"spy_points": 3}
    assert info.custom_rules(load_game("lost-ranks", players=2).config_dict()) == {}
