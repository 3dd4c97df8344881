"""The Lost Ranks kernel against the engine (``pip install 'cardtable[fast]'``).

On 1000 matches per variant (4 players: plain, Force Strength, the longer game; 2
players, Command of Two: plain and the longer game) the
kernel and the engine offer the same legal moves at every step (LR-6 the first lead,
LR-7 following with Jack protection, LR-8/LR-9 the Spy, LR-13/LR-14 the sources and
draw-two), and the same random moves
lead to the same match: hands along the way, tricks won and discarded (LR-10, LR-11),
round scores (LR-15, LR-16), totals, tiebreaks and the outcome (LR-17, LR-19a), and
the same typed events.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

pytest.importorskip("numba", reason="the kernels are the optional extra 'fast' (pip install 'cardtable[fast]')")

import numpy as np  # noqa: E402

from cardtable.games.lost_ranks import LostRanks, kernel  # noqa: E402
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


def test_lost_ranks_kernel_refuses_what_it_cannot_play() -> None:
    with pytest.raises(ValueError, match="this Lost Ranks has 2 seats: give one policy per seat, not 4"):
        play_many(LostRanks(players=2), ["random"] * 4, 1, 0)
    with pytest.raises(ValueError, match="plays random moves only"):
        play_many(LostRanks(players=4), "heuristic", 1, 0)


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
