"""Ранг: the search's inference from the others' plays since their last unseen card.

A seat's hand changes only by its plays and by the cards it draws (RG-5) or takes back
(RG-6); after its last such card its hand at a past move is its hand now plus what it
played since.  The heuristic
must explain its own play on the true hands; sampled worlds (RG-9's constraints only)
sometimes do not, and the search then prefers the worlds that do.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from cardtable.agents import Observation, make_agent
from cardtable.agents.knowledge import knowledge_for
from cardtable.cards import FRENCH_NAMES
from cardtable.games.rank import Rank, RankState
from cardtable.games.rank.heuristic import rank_counts, rank_of_kind, would_play
from cardtable.games.rank.inference import PlayLog
from cardtable.games.rank.knowledge import RankKnowledge

missed_plays = RankKnowledge.missed_plays


def _endgame(players: int, seeds: range, seat: int = 0) -> Iterator[RankState]:
    """Heuristic self-play: the states where ``seat`` chooses among several moves after
    the stock ran out (the play goes on from the true state)."""
    game = Rank(players=players)
    for seed in seeds:
        state = game.new_state(seed=seed)
        bots = [make_agent("heuristic", game, seed=seed * 10 + s) for s in range(players)]
        while not state.is_terminal():
            q = state.current_player()
            if q == seat and state.view(seat)["stock"] == 0 and len(state.legal_actions()) > 1:
                yield state
            state.apply_action(bots[q].act(Observation.of(state, q)))


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_the_heuristic_explains_its_own_endgame_play(players: int) -> None:
    """RG-5, RG-6: on the true hands every play since the seat's last unseen card is one
    the heuristic makes (its tied best moves count as its choice) — with the public facts
    of then (stock, hand sizes, seats in the game) rebuilt from the view."""
    looked = plays = 0
    for state in _endgame(players, range(25)):
        log = PlayLog.of(state.view(0))
        assert missed_plays(log, state) == 0, (state.seed, len(state.history))
        looked += 1
        plays += len(log.plays)
    assert looked >= 10 and plays >= 30


def test_sampled_worlds_are_told_apart_by_the_play() -> None:
    """With four players the view's constraints (RG-9) leave hands the heuristic would
    not have played from: some sampled worlds miss plays, and the weighted draw of the
    search's knowledge finds fewer such worlds than ``resample`` alone."""
    kn = knowledge_for(Rank(players=4))
    assert isinstance(kn, RankKnowledge) and kn.infer_draws > 1
    plain = weighted = worlds = 0
    for i, state in enumerate(_endgame(4, range(30))):
        obs = Observation.of(state, 0)
        log = PlayLog.of(obs.view)
        rng = random.Random(i)
        for _ in range(10):
            plain += missed_plays(log, obs.sample_state(rng)) > 0
            world = kn.sample_world(obs, rng)
            assert isinstance(world, RankState)
            assert world.view(0) == obs.view  # still a world of the observation (RG-9)
            weighted += missed_plays(log, world) > 0
            worlds += 1
    assert plain > worlds // 20
    assert weighted < plain / 2


def _expected_plays(view: dict[str, Any]) -> list[int]:
    """The log indices of the plays the log should hold, found forwards: another seat's,
    holding cards now, after its last unplayed draw or pull-back, not a drawn card's
    forced play (RG-5, RG-6)."""
    entries = view["log"]
    last_unseen: dict[int, int] = {}
    for i, e in enumerate(entries):
        if e["event"] == "pull-back" or (e["event"] == "draw" and not e["played"]):
            last_unseen[e["seat"]] = i
    return [i for i, e in enumerate(entries)
            if e["event"] == "play" and e["seat"] != view["player"] and view["hand_sizes"][e["seat"]] > 0
            and i > last_unseen.get(e["seat"], 0)
            and not (entries[i - 1]["event"] == "draw" and entries[i - 1]["played"])]


def test_the_plays_asked_are_those_since_each_seats_last_unseen_card() -> None:
    """RG-5, RG-6: a seat's plays are asked back to its last unplayed draw or pull-back,
    not before; never the viewer's own, a seat's out of cards, nor a drawn card's forced
    play (no choice).  Once the stock is out they reach back before it ran out."""
    game = Rank(players=4)
    before_stock_out = while_stock = 0
    for seed in range(30):
        state = game.new_state(seed=seed)
        bots = [make_agent("heuristic", game, seed=s) for s in range(4)]
        while not state.is_terminal():
            view = state.view(1)
            log = PlayLog.of(view)
            assert [len(play.view["log"]) for play in log.plays] == _expected_plays(view)
            for play in log.plays:
                entry = view["log"][len(play.view["log"])]
                assert (entry["seat"], entry["card"]) == (play.seat, FRENCH_NAMES[play.card])
                assert play.view["pile"][-1] == view["pile"][len(play.view["pile"]) - 1]
                before_stock_out += view["stock"] == 0 and play.view["stock"] > 0
                while_stock += view["stock"] > 0
            q = state.current_player()
            state.apply_action(bots[q].act(Observation.of(state, q)))
    assert before_stock_out > 0  # plays made before the stock ran out were asked
    assert while_stock > 0  # a turn in progress is seen while the stock lasts


def test_a_hand_that_could_not_make_the_play_is_a_miss() -> None:
    """A hand without the played rank (or, outside Anti-Rank, with a higher RG-4 tier
    only) explains nothing: the heuristic would not have made the play."""
    for state in _endgame(4, range(10)):
        log = PlayLog.of(state.view(0))
        if not log.plays:
            continue
        play = log.plays[0]
        then = rank_counts(state.hand_cards(play.seat) + list(play.since))
        rank = rank_of_kind(play.card)
        assert would_play(play.view, play.seat, then, rank)
        without = list(then)
        without[rank] = 0  # the played card never held
        assert not would_play(play.view, play.seat, without, rank)
        return
    pytest.fail("no endgame play found")
