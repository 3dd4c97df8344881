"""The terminal's move keys keep one meaning for a whole match (issue #14.2)."""

from __future__ import annotations

import io
import random
from collections import defaultdict

import pytest
from rich.console import Console

from cardtable.console.keys import hand_cards
from cardtable.console.play import TerminalMatch
from cardtable.registry import load_game

GAMES = [("lost-cities", {"rounds": 1}), ("lost-ranks", {"players": 2}), ("lost-ranks", {}), ("rank", {"players": 3})]


def _match(name: str, options: dict[str, object], seed: int) -> TerminalMatch:
    game = load_game(name, **options)
    state = game.new_state(seed=seed)
    console = Console(file=io.StringIO(), width=80)
    return TerminalMatch(state, human=0, agents={}, players=["you"] * game.num_players, console=console)


@pytest.mark.parametrize("name,options", GAMES)
def test_a_bare_number_always_plays_that_hand_card(name: str, options: dict[str, object]) -> None:
    """Over whole matches, each key resolves to one kind of move (its verb), a bare
    number always to "play" of the hand card shown at that position, and a named key
    (``d``, ``dy``, ``p``) always to the same move."""
    kinds: dict[str, set[str]] = defaultdict(set)
    named: dict[str, set[str]] = defaultdict(set)
    decisions = 0
    for seed in range(3):
        match = _match(name, options, seed)
        rng = random.Random(seed)
        state = match.state
        while not state.is_terminal():
            seat = state.current_player()
            if seat != 0:
                state.apply_action(rng.choice(state.legal_actions()))
                continue
            hand = hand_cards(state.view(0))
            choices = match._choices()
            for key, action, text in choices:
                assert action in state.legal_actions()
                verb = text.split()[0]
                digits = key.lstrip("abcdefghijklmnopqrstuvwxyz")
                prefix = key[: len(key) - len(digits)]
                kinds[prefix if digits else key].add(verb)
                if digits and not prefix:
                    assert text == f"play {hand[int(digits) - 1]}", (key, text, hand)
                if not digits:
                    named[key].add(text)
            decisions += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert decisions > 20
    assert kinds[""] == {"play"}
    for key, verbs in kinds.items():
        assert len(verbs) == 1, (key, verbs)
    for key, texts in named.items():
        assert len(texts) == 1, (key, texts)


def test_an_unplayable_number_is_refused_with_the_reason() -> None:
    """``N`` for a hand card that cannot be played says why (the rule) and plays nothing."""
    state = load_game("lost-cities", rounds=1).new_state(seed=5)
    rng = random.Random(5)
    bad: list[int] = []
    while not bad:
        assert not state.is_terminal(), "no turn with an unplayable card"
        if state.current_player() == 0 and state.view(0)["phase"] == "play":
            hand = hand_cards(state.view(0))
            legal = set(state.legal_action_strings())
            bad = [i for i, card in enumerate(hand, start=1) if f"play {card}" not in legal]
            if bad:
                break
        state.apply_action(rng.choice(state.legal_actions()))
    moves = len(state.history)
    replies = iter([str(bad[0]), "quit"])
    out = io.StringIO()
    match = TerminalMatch(state, human=0, agents={}, players=["you", "ai"], console=Console(file=out, width=80),
                          input_fn=lambda _: next(replies))
    match.run()
    text = out.getvalue()
    assert f"{bad[0]} = play {hand[bad[0] - 1]}:" in text and "(LC-" in text
    assert len(state.history) == moves
