"""Ранг: the search's inference from the others' plays once the stock is out.

After the stock is empty nobody draws (RG-5) and a pull-back cannot happen (RG-6), so a
seat's hand at a past move is its hand now plus what it played since.  The heuristic
must explain its own play on the true hands; sampled worlds (RG-9's constraints only)
sometimes do not, and the search then prefers the worlds that do.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from cardtable.agents import Observation, make_agent
from cardtable.agents.knowledge import knowledge_for
from cardtable.games.rank import Rank, RankState
from cardtable.games.rank.heuristic import rank_counts, rank_of_kind, would_play
from cardtable.games.rank.inference import EndgameLog
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
    """RG-5, RG-6: on the true hands every play since the stock ran out is one the
    heuristic makes (its tied best moves count as its choice)."""
    looked = plays = 0
    for state in _endgame(players, range(25)):
        log = EndgameLog.of(state.view(0))
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
        log = EndgameLog.of(obs.view)
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


def test_no_plays_while_the_stock_lasts_nor_own_nor_forced_ones() -> None:
    """Before the stock is out hands change by unseen draws: nothing is replayed.  The
    viewer's own plays are not asked, nor the forced play of the card that emptied the
    stock when it could be played (RG-5: no choice)."""
    game = Rank(players=4)
    forced = 0
    for seed in range(40):
        state = game.new_state(seed=seed)
        bots = [make_agent("heuristic", game, seed=s) for s in range(4)]
        while not state.is_terminal():
            view = state.view(1)
            log = EndgameLog.of(view)
            if view["stock"]:
                assert log.plays == ()
            for play in log.plays:
                assert play.seat != 1
                before = play.view["log"][-1]
                assert not (before["event"] == "draw" and before["played"])
            q = state.current_player()
            state.apply_action(bots[q].act(Observation.of(state, q)))
        entries = state.view(1)["log"]
        draws = [i for i, e in enumerate(entries) if e["event"] == "draw"]
        last = entries[draws[-1]] if draws else None
        forced += bool(last and last["played"] and last["seat"] != 1 and state.view(1)["stock"] == 0)
    assert forced > 0  # the case was met


def test_a_hand_that_could_not_make_the_play_is_a_miss() -> None:
    """A hand without the played rank (or, outside Anti-Rank, with a higher RG-4 tier
    only) explains nothing: the heuristic would not have made the play."""
    for state in _endgame(4, range(10)):
        log = EndgameLog.of(state.view(0))
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
