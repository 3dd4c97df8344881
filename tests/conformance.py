"""The conformance check shared by every game (OpenSpiel's random-simulation test,
Pgx's api_test): random play-outs asserting the protocol's invariants.

Each game's test module calls :func:`check_game` for its variants.

Information (each game's ruling: LC-8, LR-20, RG-9) is checked three ways:

* the public view is contained in every seat's view (:func:`cardtable.protocol.view_contains`:
  a seat's view with some keys left out and some values replaced by ``None``);
* redrawing the cards a seat cannot see (the game's ``resample``, which must draw
  from everything consistent with that seat's view) leaves that seat's view and
  the public view unchanged — this is what catches a view that tells too much —
  and does redraw them: over a match, for every seat, some resampled states differ
  from the true one in what only others see (:class:`RedrawTally`);
* the event of a move is the same in every such redrawn state in which the move
  is legal and leads to the same public view (events are public).

The returns (:func:`_check_returns`) are zero before the end; at the end they lie
between the description's ``min_return`` and ``max_return``, add up to its
``return_sum`` (``Game.info``) and are shared by partners (``Game.teams``).
"""

from __future__ import annotations

import json
import math
import random

from cardtable import records
from cardtable.protocol import TERMINAL, Event, Game, IllegalAction, State, view_contains

REQUIRED_VIEW_KEYS = {"game", "player", "current_player", "round", "scores", "round_scores"}


def check_game(game: Game, *, seeds: range = range(3), resample_every: int = 7, max_actions: int = 20000) -> None:
    """Play ``len(seeds)`` random matches of ``game`` checking every invariant."""
    for seed in seeds:
        _check_playout(game, seed, resample_every, max_actions)


class RedrawTally:
    """How often resampling for each seat changed the hidden state, over one match.

    A resampled state *redraws* if its full state (``str``, with the true seed and
    decks put back, so that only the cards count) differs from the true one; it
    *redraws a hand* if some other seat's view differs.  Not every state hides
    something (a 2-player Lost Ranks opponent whose phantom deck is all face up holds
    exactly the cards nobody else has), so the tally is judged over the match: every
    seat must see a hand redrawn at least once, and at least a quarter of all
    resamples must redraw (the games' seats redraw in about 30 % (2-player Lost Ranks)
    to 100 % (Rank) of them).  A ``resample`` that returned a copy of the state fails both.
    """

    def __init__(self, num_players: int) -> None:
        self.num_players = num_players
        self.resamples = [0] * self.num_players
        self.redraws = [0] * self.num_players
        self.hands_redrawn = [False] * self.num_players

    def count(self, state: State, player: int, resampled: State) -> None:
        self.resamples[player] += 1
        cards_only = resampled.clone()
        cards_only.seed, cards_only.decks = state.seed, state.decks
        self.redraws[player] += str(cards_only) != str(state)
        if not self.hands_redrawn[player]:
            self.hands_redrawn[player] = any(
                resampled.view(q) != state.view(q) for q in range(self.num_players) if q != player)

    def check(self) -> None:
        for p in range(self.num_players):
            assert self.hands_redrawn[p], (
                f"resampling for seat {p} never changed what another seat sees: it does not redraw hidden cards")
        assert 4 * sum(self.redraws) >= sum(self.resamples), (
            f"resampling redrew hidden cards in only {sum(self.redraws)} of {sum(self.resamples)} states")


def _check_playout(game: Game, seed: int, resample_every: int, max_actions: int) -> None:
    rng = random.Random(seed)
    state = game.new_state(seed=seed)
    states: list[State] = []
    tally = RedrawTally(game.num_players)
    step = 0
    while not state.is_terminal():
        assert step < max_actions, "match did not end"
        assert state.returns() == [0.0] * game.num_players, "returns must be zero before the end"
        player = state.current_player()
        assert 0 <= player < game.num_players
        legal = state.legal_actions()
        assert legal, "a non-terminal state must have legal actions"
        assert legal == sorted(set(legal)), "legal actions must be sorted and unique"
        assert all(0 <= a < game.num_distinct_actions for a in legal)
        for a in legal:
            assert state.why_illegal(a) is None
        illegal = [a for a in range(game.num_distinct_actions) if a not in set(legal)]
        for a in rng.sample(illegal, min(3, len(illegal))):
            reason = state.why_illegal(a)
            assert isinstance(reason, str) and reason
            before = str(state)
            try:
                state.apply_action(a)
            except IllegalAction:
                pass
            else:  # pragma: no cover - failure path
                raise AssertionError(f"illegal action {a} was accepted")
            assert str(state) == before, "a refused action must not change the state"
        strings = state.legal_action_strings()
        for a, text in zip(legal, strings):
            assert state.parse_action(text) == a, f"{text!r} does not parse back to {a}"
        _check_views(state)
        round_starts = not states or states[-1].public_view()["round"] != state.public_view()["round"]
        if step % resample_every == 0 or round_starts:
            _check_resample(state, rng, tally)
            _check_clone(state)
        before = state.clone()
        states.append(before)
        action = rng.choice(legal)
        event = state.apply_action(action)
        if step % resample_every == 0 or state.is_terminal() or state.public_view()["round"] != before.public_view()["round"]:
            _check_event_is_public(before, action, event, state, rng)
        step += 1

    assert state.current_player() == TERMINAL and state.legal_actions() == []
    _check_returns(state)
    json.dumps(state.result())
    _check_views(state)
    tally.check()

    # Undo walks back through every recorded state.
    undone = state.clone()
    for expected in reversed(states[-50:]):
        undone.undo_action()
        assert str(undone) == str(expected)
        assert undone.legal_actions() == expected.legal_actions()

    # The record replays to the same result.
    rec = records.record_of(state, players=[f"p{i}" for i in range(game.num_players)])
    text = records.dumps(rec)
    replayed = records.replay(records.loads(text))
    assert replayed.result() == state.result()
    assert replayed.history == state.history


def _check_returns(state: State) -> None:
    """The returns of a finished match: one float per seat between the description's
    ``min_return`` and ``max_return``, adding up to its ``return_sum`` (LC-7, LR-17,
    LR-18, LR-19a, RG-7), equal for partners, and the ``returns`` of the result."""
    game, info = state.game, state.game.info
    returns = state.returns()
    assert len(returns) == game.num_players and all(isinstance(r, float) for r in returns)
    assert all(info.min_return <= r <= info.max_return for r in returns), (
        f"returns {returns} outside {info.min_return} … {info.max_return}")
    assert math.isclose(sum(returns), info.return_sum, abs_tol=1e-9), (
        f"returns {returns} add up to {sum(returns)}, not {info.return_sum}")
    for team in game.teams():
        assert len({returns[seat] for seat in team}) == 1, f"partners {team} have different returns {returns}"
    assert state.result()["returns"] == returns


def _check_views(state: State) -> None:
    """Every seat's view and the public view have the protocol keys, are JSON, and the
    public view is contained in every seat's view (LC-8, LR-20, RG-9)."""
    public = state.public_view()
    assert REQUIRED_VIEW_KEYS <= public.keys()
    assert public["player"] is None and public["current_player"] == state.current_player()
    json.dumps(public)
    for p in range(state.game.num_players):
        view = state.view(p)
        assert REQUIRED_VIEW_KEYS <= view.keys()
        assert view["player"] == p and view["current_player"] == state.current_player()
        json.dumps(view)
        assert view_contains(view, public), f"the public view shows what seat {p} does not see"


def _check_event_is_public(before: State, action: int, event: Event, after: State, rng: random.Random) -> None:
    """Events name only public information (LC-8, LR-20, RG-9): for every seat, in a
    state that seat cannot tell from ``before`` where ``action`` is legal and leads to
    the same public view, the event is the same.  (The redrawn state keeps the match's
    seed and decks, so that a round ending deals the next round alike.)"""
    public_after = after.public_view()
    for p in range(before.game.num_players):
        other = before.resample(p, random.Random(rng.getrandbits(32)))
        other.seed, other.decks = before.seed, before.decks
        if not other.is_legal(action):
            continue
        other_event = other.apply_action(action)
        if other.public_view() == public_after:
            assert other_event == event, f"the event {event} depends on cards seat {p} cannot see"


def _check_clone(state: State) -> None:
    copy = state.clone()
    assert str(copy) == str(state)
    assert copy.history == state.history
    action = copy.legal_actions()[0]
    copy.apply_action(action)
    copy.undo_action()
    assert str(copy) == str(state)
    copy.apply_action(action)
    assert len(state.history) + 1 == len(copy.history), "clone must be independent"


def _check_resample(state: State, rng: random.Random, tally: RedrawTally) -> None:
    """Resampling keeps each player's view, the public view and legal actions; two
    states with the same view resample identically (LC-8, LR-20, RG-9); ``tally``
    counts whether it redrew what the player cannot see."""
    for p in range(state.game.num_players):
        view = state.view(p)
        seed = rng.getrandbits(32)
        first = state.resample(p, random.Random(seed))
        tally.count(state, p, first)
        assert first.view(p) == view, "resampling changed what the player sees (a view tells more than it may)"
        assert first.public_view() == state.public_view(), "the public view depends on hidden cards"
        if state.current_player() == p:
            assert first.legal_actions() == state.legal_actions()
        # Leak test: a state that differs only in what p cannot see gives p the same
        # view, and resampling it with the same seed gives the same state.
        again = first.resample(p, random.Random(seed))
        twice = state.resample(p, random.Random(seed))
        assert str(again) == str(twice), "resampling depends on hidden information"
        # The resampled state plays on.
        probe = first.clone()
        probe.apply_action(probe.legal_actions()[0])
