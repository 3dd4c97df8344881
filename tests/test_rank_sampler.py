"""``benchmarks/rank_sampler.py``: the swap chain that measures the bias of Ранг's deal
(RG-9: what a seat may know of the others' hands), and the heuristic-weights runner."""

from __future__ import annotations

import random

import pytest

from benchkit import load_benchmark
from cardtable.agents import Observation, make_agent
from cardtable.games.rank import decisions, rules
from cardtable.games.rank.rules import NUM_KINDS, HandConstraints, RankState
from cardtable.registry import load_game

sampler = load_benchmark("rank_sampler")


def _positions(seed: int) -> list[tuple[RankState, int]]:
    """Positions of one heuristic self-play game (4 players), every tenth decision."""
    game = load_game("rank", players=4)
    state = game.new_state(seed=seed)
    assert isinstance(state, RankState)
    bots = [make_agent("heuristic", game, seed=seed * 10 + s) for s in range(4)]
    out = []
    while not state.is_terminal():
        q = state.current_player()
        legal = state.legal_actions()
        if len(out) < 40 and len(state.history) % 10 == 0:
            out.append((state.clone(), q))
        state.apply_action(legal[0] if len(legal) == 1 else bots[q].act(Observation.of(state, q)))
    return out


def test_the_swap_chain_is_uniform_where_the_sampler_is_not() -> None:
    """Slot A allows kinds 0 and 1, slot B kinds 1 and 2, one card of each kind, the third
    in the stock: of the three deals the constraints allow, A holds kind 0 in two."""
    counts = [1, 1, 1] + [0] * (NUM_KINDS - 3)
    cons = HandConstraints(slots=((0b011,), (0b110,)), some=None)
    chain = sampler.SwapChain(cons, counts, random.Random(7))
    chain.mix(100)
    held = 0
    draws = 20000
    for _ in range(draws):
        chain.mix(12)
        hands, stock = chain.deal()
        assert cons.admits(hands) and len(stock) == 1
        held += hands[0] == [0]
    assert abs(held / draws - 2 / 3) < 0.03


@pytest.mark.parametrize("seed", [3, 4])
def test_the_swap_chain_keeps_every_constraint_and_every_card(seed: int) -> None:
    rng = random.Random(seed)
    for state, me in _positions(seed):
        cons = state.hand_constraints(me)
        counts = sampler.unseen_counts(state, me)
        chain = sampler.SwapChain(cons, counts, rng)
        for _ in range(5):
            chain.mix(4 * len(chain.card))
            hands, stock = chain.deal()
            assert cons.admits(hands)
            dealt = sorted([c for hand in hands for c in hand] + stock)
            assert dealt == sorted(k for k, n in enumerate(counts) for _ in range(n))


def test_chain_deals_replace_the_sampler_for_the_block_only() -> None:
    state, me = _positions(5)[-1]
    with sampler.chain_deals(2.0):
        assert rules.constrained_deal is not sampler.SAMPLER
        for i in range(5):
            world = state.resample(me, random.Random(i))
            cons = state.hand_constraints(me)
            assert cons.admits([world.hand_cards(s) if cons.slots[s] else [] for s in range(4)])
    assert rules.constrained_deal is sampler.SAMPLER


def test_the_default_weights_turn_no_game_and_weights_are_restored() -> None:
    game = load_game("rank", players=4)
    same = sampler.styles(game, {"W_NEXT": decisions.W_NEXT}, 0, 12)
    assert same["turned_better"] == same["turned_worse"] == 0
    assert same["default_losses"] == same["styled_losses"]
    before = decisions.ANTI_NEXT
    assert isinstance(sampler.loses(game, 1, 0, {"ANTI_NEXT": 0.0}), bool)
    assert decisions.ANTI_NEXT == before
    with pytest.raises(SystemExit, match="unknown weights"):
        sampler.StyledHeuristic(game, seed=0, weights={"W_NOPE": 1.0})
