"""The Lost Ranks kernel against the engine (``pip install 'cardtable[fast]'``).

On 1000 matches per variant (4 players: plain, Force Strength, the longer game; 2
players, Command of Two: plain and the longer game) the
kernel and the engine offer the same legal moves at every step (LR-6 the first lead,
LR-7 following with Jack protection, LR-8/LR-9 the Spy, LR-13/LR-14 the sources and
draw-two), and the same random moves
lead to the same match: hands along the way, tricks won and discarded (LR-10, LR-11),
round scores (LR-15, LR-16), totals, tiebreaks and the outcome (LR-17, LR-19a), and
the same typed events.

The compiled heuristic (:mod:`cardtable.games.lost_ranks.decisions`, the functions
:class:`~cardtable.games.lost_ranks.heuristic.LostRanksHeuristic` calls) chooses what the
Python heuristic chooses at every decision, from the same knowledge: the kernel works out
what the seat to move knows (its hand and phantom deck, what has been played, the voids
shown, LR-7 and LR-20, the opponent's face-up phantom cards, LR-14) from its own state.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

pytest.importorskip("numba", reason="the kernels are the optional extra 'fast' (pip install 'cardtable[fast]')")

import numpy as np  # noqa: E402

from cardtable.agents.base import Observation  # noqa: E402
from cardtable.games.lost_ranks import LostRanks, kernel  # noqa: E402
from cardtable.games.lost_ranks.heuristic import LostRanksHeuristic, knowledge  # noqa: E402
from cardtable.games.lost_ranks.measures import event_measures, final_measures  # noqa: E402
from cardtable.games.lost_ranks.rules import SOLDIERS  # noqa: E402
from cardtable.kernels import play_many  # noqa: E402
from cardtable.lab.measures import count_event_kinds  # noqa: E402
from cardtable.lab.results import open_results  # noqa: E402
from cardtable.lab.runner import run_study  # noqa: E402
from cardtable.lab.stats import wilson_interval  # noqa: E402
from cardtable.lab.study import study_from_dict  # noqa: E402


def _decks(seed: int, rounds: int) -> list[list[int]]:
    """Shuffled decks whose Trump Card is not a Lost Soldier (LR-4)."""
    rng, decks = random.Random(seed), []
    while len(decks) < rounds:
        deck = list(range(53))
        rng.shuffle(deck)
        if not SOLDIERS >> deck[52] & 1:
            decks.append(deck)
    return decks


def _replay(game: LostRanks, seed: int) -> tuple[Counter[str], int]:
    """One engine match with random moves and the kernel alongside it from the same
    decks; returns the engine's typed-event counts and the tiebreak rounds."""
    decks = _decks(seed, kernel.max_rounds_of(game))
    state = game.new_state(seed=seed, decks=decks)
    dealer, red = LostRanks.draw_setup(seed)
    n = game.num_players
    s = kernel.match_for(game, np.array(decks, dtype=np.int64), dealer, red)
    round_scores = np.zeros((kernel.max_rounds_of(game), n), dtype=np.int64)
    events = np.zeros((n, len(kernel.EVENTS)), dtype=np.int64)
    rng, played = random.Random(seed), []
    while not state.is_terminal():
        legal = state.legal_actions()
        assert kernel.legal_actions(s) == legal, (seed, len(state.history))
        assert int(s[kernel.CUR]) == state.current_player()
        if len(state.history) % 5 == 0:
            assert [int(x) for x in s[kernel.HAND: kernel.HAND + n]] == list(state.hand_masks)
            for seat in range(n if n == 2 else 0):
                size = int(s[kernel.PHANTOM_N + seat])
                base = kernel.PHANTOM + 9 * seat
                assert [int(x) for x in s[base: base + size]] == list(state.phantom_cards(seat))
        action = rng.choice(legal)
        played.append(state.apply_action(action))
        kernel.apply_action(s, action, np.array(decks, dtype=np.int64), round_scores, events)
    result = state.result()
    assert kernel.legal_actions(s) == [] and int(s[kernel.CUR]) == -1
    rounds = result["rounds"]
    armies = result["armies"]
    assert round_scores[:rounds].tolist() == [[r[a] for a in armies] for r in result["round_scores"]]
    assert not round_scores[rounds:].any()
    scores = [int(s[kernel.TOTALS + (0 if a == "red" else 1)]) for a in armies]
    assert int(s[kernel.ACTIONS]) == len(state.history)
    counts = {name: int(events[:, e].sum()) for e, name in enumerate(kernel.EVENTS)}
    assert scores == result["scores"] and kernel.row_returns(scores, counts) == result["returns"]
    counted = count_event_kinds(played)
    assert kernel.row_events(rounds, counts) == dict(counted), seed
    assert kernel.match_rounds(counts) == rounds
    details = [d for event in played for d in event.details]
    assert kernel.row_measures(scores, rounds, counts) == {**final_measures(state), **event_measures(details)}
    return counted, result["tiebreak_rounds"]


@pytest.mark.parametrize("options", [{}, {"force_strength": True}, {"longer_game": True},
                                     {"players": 2}, {"players": 2, "longer_game": True}])
def test_lost_ranks_kernel_moves_and_results_are_the_engines(options: dict[str, int]) -> None:
    """Every variant sees tricks nobody wins (LR-11) and tiebreak rounds (LR-17, LR-18)."""
    game = LostRanks(**{"players": 4, **options})
    seen: Counter[str] = Counter()
    tiebreaks = 0
    for seed in range(1000):
        counted, tied = _replay(game, seed)
        seen += counted
        tiebreaks += tied
    assert seen["match_ended"] == 1000 and seen["no_winner_trick"] > 300 and seen["round_started"] > 1000
    assert tiebreaks > 10


def heuristic_replay(game: LostRanks, seed: int) -> tuple[int, Counter[str]]:
    """One engine match of the Python heuristic (a random move instead with chance 0.2),
    the kernel alongside it from the same decks: at every decision with a choice the
    kernel's knowledge of the seat to move is the view's and the compiled heuristic,
    given the same tie-breaking numbers, chooses the Python heuristic's action; the
    results agree.  Returns the decisions compared and the engine's typed-event counts."""
    decks = _decks(seed, kernel.max_rounds_of(game))
    rows = np.array(decks, dtype=np.int64)
    state = game.new_state(seed=seed, decks=decks)
    dealer, red = LostRanks.draw_setup(seed)
    n = game.num_players
    s = kernel.match_for(game, rows, dealer, red)
    round_scores = np.zeros((kernel.max_rounds_of(game), n), dtype=np.int64)
    events = np.zeros((n, len(kernel.EVENTS)), dtype=np.int64)
    agent, rng = LostRanksHeuristic(game, seed=seed), random.Random(seed)
    compared, played = 0, []
    while not state.is_terminal():
        legal = state.legal_actions()
        noise = random.Random()
        noise.setstate(agent.rng.getstate())
        if len(legal) > 1:
            assert kernel.knowledge_of(s) == knowledge(state.view(state.current_player())), (seed, len(state.history))
        expected = agent.act(Observation.of(state))
        assert kernel.heuristic_action(s, [noise.random() for _ in legal]) == expected, (seed, len(state.history))
        compared += len(legal) > 1
        action = expected if rng.random() > 0.2 else rng.choice(legal)
        played.append(state.apply_action(action))
        kernel.apply_action(s, action, rows, round_scores, events)
    result = state.result()
    assert [int(s[kernel.TOTALS + (0 if a == "red" else 1)]) for a in result["armies"]] == result["scores"]
    assert round_scores[:result["rounds"]].tolist() == [[r[a] for a in result["armies"]] for r in result["round_scores"]]
    return compared, count_event_kinds(played)


@pytest.mark.parametrize("options", [{}, {"force_strength": True}, {"players": 2}])
def test_lost_ranks_compiled_heuristic_is_the_python_heuristic(options: dict[str, int]) -> None:
    """On 100 matches per variant (``benchmarks/kernel_heuristic_check.py N`` runs more): the
    same knowledge and the same choice at every decision; the matches see tricks nobody
    wins (LR-11) and, with 2 players, drawn pairs turned face up (LR-14)."""
    game = LostRanks(**{"players": 4, **options})
    compared, seen = 0, Counter[str]()
    for seed in range(100):
        done, counted = heuristic_replay(game, seed)
        compared += done
        seen += counted
    assert compared > 12000 and seen["no_winner_trick"] > 5, (compared, seen)
    assert game.num_players == 4 or seen["card_face_up"] > 1000


def test_lost_ranks_play_many_is_consistent_and_reproducible() -> None:
    game = LostRanks(players=4)
    out = play_many(game, "random", 300, seed=2)
    assert out.scores.shape == (300, 4) and np.array_equal(out.round_scores.sum(axis=1), out.scores)
    assert np.array_equal(out.events[:, :, kernel.PLAYED_EV].sum(axis=1), out.actions)
    assert (out.actions % 52 == 0).all() and (out.events[:, :, kernel.MATCH_END_EV].sum(axis=1) == 1).all()
    won = out.events[:, 0, kernel.RED_EV] + out.events[:, 0, kernel.BLACK_EV]
    assert np.array_equal(won == 0, out.scores[:, 0] == out.scores[:, 1])
    again = play_many(game, "random", 300, seed=2)
    assert np.array_equal(again.scores, out.scores) and np.array_equal(again.events, out.events)
    assert not np.array_equal(play_many(game, "random", 300, seed=3).actions, out.actions)
    for players in (4, 2):
        game = LostRanks(players=players)
        seats = ("heuristic", "random") * (players // 2)
        mixed = play_many(game, seats, 300, seed=4)
        assert np.array_equal(mixed.round_scores.sum(axis=1), mixed.scores)
        assert np.array_equal(play_many(game, seats, 300, seed=4).scores, mixed.scores)
        won = mixed.events[:, 0, kernel.SEAT0_EV].mean()
        assert won > 0.6, won  # the heuristic's army (seat 0's) beats the random one
        both = play_many(game, "heuristic", 300, seed=4)
        assert np.array_equal(both.events[:, :, [kernel.PLAYED_EV, kernel.DRAW_EV]].sum(axis=(1, 2)), both.actions)


def test_lost_ranks_kernel_refuses_what_it_cannot_play() -> None:
    with pytest.raises(ValueError, match="this Lost Ranks has 2 seats: give one policy per seat, not 4"):
        play_many(LostRanks(players=2), ["random"] * 4, 1, 0)
    with pytest.raises(ValueError, match="the Lost Ranks heuristic has no styles, not bold"):
        play_many(LostRanks(players=4), "heuristic", 1, 0, styles=["bold"] * 4)


def test_a_lost_ranks_kernel_study_agrees_with_the_python_engine(tmp_path: Path) -> None:
    """The same study of random play on both lab engines: the red army's win rates have
    overlapping 95 % intervals (LR-3 deals the colours), the rows have the same events
    and measures, and the rows really differ."""
    spec = {"game": "lost-ranks", "seed": 5, "matches": 300, "lineups": [{"agents": ["random", "random"]}]}
    rows = {}
    for engine in ("python", "kernel"):
        study = study_from_dict({**spec, "engine": engine})
        with open_results(tmp_path / f"{engine}.sqlite", study) as store:
            run_study(study, store)
            rows[engine] = store.rows()
    assert {k for r in rows["kernel"] for k in r["events"]} == {k for r in rows["python"] for k in r["events"]}
    assert [sorted(r["measures"]) for r in rows["kernel"]] == [sorted(r["measures"]) for r in rows["python"]]
    assert [r["scores"] for r in rows["kernel"]] != [r["scores"] for r in rows["python"]]
    assert all(r["rounds"] == r["measures"]["rounds"] for r in rows["kernel"])
    red = {engine: int(sum(r["measures"]["red_army_won"] for r in rs)) for engine, rs in rows.items()}
    (plo, phi), (klo, khi) = wilson_interval(red["python"], 300), wilson_interval(red["kernel"], 300)
    assert plo <= khi and klo <= phi, red


@pytest.mark.parametrize("players", [4, 2])
def test_a_lost_ranks_heuristic_study_agrees_with_the_python_engine(tmp_path: Path, players: int) -> None:
    """A heuristic army against a random one on both lab engines: the heuristic's win
    rates have overlapping 95 % intervals, the rows have the same events and measures,
    and the rows really differ."""
    spec = {"game": "lost-ranks", "seed": 9, "matches": 200, "options": {"players": players},
            "lineups": [{"agents": ["heuristic", "random"]}]}
    rows = {}
    for engine in ("python", "kernel"):
        study = study_from_dict({**spec, "engine": engine})
        with open_results(tmp_path / f"{engine}.sqlite", study) as store:
            run_study(study, store)
            rows[engine] = store.rows()
    assert [r["seating"] for r in rows["kernel"]] == [r["seating"] for r in rows["python"]]
    assert {k for r in rows["kernel"] for k in r["events"]} == {k for r in rows["python"] for k in r["events"]}
    assert [sorted(r["measures"]) for r in rows["kernel"]] == [sorted(r["measures"]) for r in rows["python"]]
    assert [r["scores"] for r in rows["kernel"]] != [r["scores"] for r in rows["python"]]
    wins = {engine: sum(r["returns"][r["seating"].index(0)] > 0 for r in rs) for engine, rs in rows.items()}
    (plo, phi), (klo, khi) = wilson_interval(wins["python"], 200), wilson_interval(wins["kernel"], 200)
    assert plo <= khi and klo <= phi, wins
    assert min(wins.values()) > 100  # the heuristic wins most matches on both engines
