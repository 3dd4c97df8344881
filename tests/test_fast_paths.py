"""The engines' fast paths against their general rule paths, on many random positions.

The play-outs of the search run through hand-tuned code: per-kind apply paths that
precompute the next state's legal actions (as a tuple or a mask), and lookup tables in
``legal_actions``.  Each engine also has a general path that derives the same from the
rules alone; here both are run on every legal action of every position of random
matches, and must give the same event, the same state and the same legal actions.

* **Lost Ranks**: ``apply_action``'s fast paths (a hand card, a drawn card, a trick
  that ends inside a round) against ``_apply_any``, the general path that also takes a
  round's last play (LR-8 … LR-14), and the precomputed legal actions (``_la``, ``_lm``
  and the byte tables) against ``_legal_mask`` (LR-8, LR-9, LR-13, LR-14).  The draw of
  two phantom cards (LR-14) has only one path and is checked by its rulings' tests;
  undoing either path must restore the position.
* **Ранг**: the legal moves ``apply_action`` leaves (RG-4's tiers inlined after a play
  and after a draw, a playable draw that must be played, RG-5) against the same rules
  put together from the general helpers ``_rg4`` and ``_stuck`` (RG-4, RG-5, RG-8), and
  the cached ``legal_actions`` against the mask.  (Ранг's ``why_illegal`` reads the same
  mask, so the refusal rules are no independent check here.)
* **Lost Cities**: ``legal_actions`` (per-colour lookup tables) and ``apply_action``'s own
  checks against the refusal rules of ``why_illegal`` (LC-3, LC-4), which work on the hand
  and the piles directly, over the whole action space.

This file reaches into private members on purpose: the general path is an internal
of the engine, and this test is what keeps the two from drifting apart.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardtable.cards import JOKER
from cardtable.cards import bit_list as kinds_of
from cardtable.games.rank import rules as rank
from cardtable.games.lost_cities import LostCities
from cardtable.games.lost_ranks import DRAW, LostRanks, LostRanksState
from cardtable.games.lost_ranks.rules import _action_list
from cardtable.protocol import IllegalAction


def _position(state: LostRanksState) -> tuple[Any, ...]:
    """Everything a Lost Ranks state is, but its undo stack and its cached legal actions."""
    return state._snapshot(), tuple(state.history)


def _general_legal(state: LostRanksState) -> list[int]:
    return sorted(_action_list(state._legal_mask(), state._led))


def _check_position(state: LostRanksState) -> int:
    """Apply every legal action of ``state`` through both paths; the number checked."""
    legal = state.legal_actions()
    assert sorted(legal) == _general_legal(state)
    before = _position(state)
    checked = 0
    for action in legal:
        if action == DRAW and len(state.phantom_cards(state.current_player())) >= 2:
            continue  # drawing two has only the fast path
        fast, general = state.clone(), state.clone()
        fast_event = fast.apply_action(action)
        general_event = general._apply_any(action)
        assert fast_event == general_event, (state.history, action)
        assert _position(fast) == _position(general), (state.history, action)
        assert fast.legal_actions() == general.legal_actions() == _general_legal(fast), (state.history, action)
        for copy in (fast, general):
            copy.undo_action()
            assert _position(copy) == before, (state.history, action)
        checked += 1
    return checked


@pytest.mark.parametrize("options", [
    {"players": 4}, {"players": 2}, {"players": 4, "force_strength": True}, {"players": 2, "longer_game": True},
])
def test_lost_ranks_fast_paths_match_the_general_path(options: dict[str, Any]) -> None:
    game = LostRanks(**options)
    rng = random.Random(13)
    checked = 0
    for seed in range(6):
        state = game.new_state(seed=seed)
        while not state.is_terminal():
            checked += _check_position(state)
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 1000


def _rank_rules_mask(state: rank.RankState) -> int:
    """The legal moves of a Ранг position from the general rule helpers."""
    cur = state._cur
    top = state._pile[-1]
    pres = state._pres[cur]
    if state._anti:
        return pres  # RG-8: any one card
    last = state._log[-1]
    if last[1] == rank.L_DRAW and last[2] == cur and last[4] and last[0] == len(state.history):
        return 1 << last[3] if top != JOKER else pres  # RG-5: the playable draw is played
    return rank._rg4(pres, top) or state._stuck(cur, top, declare=False)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 8])
def test_rank_fast_legal_moves_match_the_rules(players: int) -> None:
    game = rank.Rank(players=players)
    rng = random.Random(5)
    checked = 0
    for seed in range(25):
        state = game.new_state(seed=seed)
        while not state.is_terminal():
            assert state._mask == _rank_rules_mask(state), (seed, state.history)
            legal = state.legal_actions()
            assert legal == kinds_of(state._mask), (seed, state.history)
            state.apply_action(rng.choice(legal))
            checked += 1
    assert checked > 500


@pytest.mark.parametrize("colors", [5, 6])
def test_lost_cities_tables_and_apply_checks_match_the_refusal_rules(colors: int) -> None:
    game = LostCities(colors=colors)
    rng = random.Random(11)
    actions = range(game.num_distinct_actions)
    for seed in range(2):
        state = game.new_state(seed=seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            assert legal == [a for a in actions if state.why_illegal(a) is None], (seed, state.history)
            for a in actions:
                copy = state.clone()
                if a in legal:
                    copy.apply_action(a)
                else:
                    with pytest.raises(IllegalAction):
                        copy.apply_action(a)
            state.apply_action(rng.choice(legal))
