"""Typed event details (issue #13, item 1): every event of a played match carries
records that agree with the state, serialise to JSON and back, and no front end reads
the English note."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from cardtable.protocol import Event, State
from cardtable.registry import load_game

SRC = Path(__file__).resolve().parents[1] / "src" / "cardtable"
KIND = re.compile(r"[a-z]+(_[a-z]+)*")


def played(name: str, seed: int, **options: Any) -> list[tuple[Event, State]]:
    """Every event of a random match with a clone of the state right after it."""
    state = load_game(name, **options).new_state(seed=seed)
    rng = random.Random(seed)
    out = []
    while not state.is_terminal():
        out.append((state.apply_action(rng.choice(state.legal_actions())), state.clone()))
    return out


def kinds(event: Event) -> list[str]:
    return [d.kind for d in event.details]


@pytest.mark.parametrize("name,options", [("lost-cities", {"rounds": 2}), ("lost-ranks", {"players": 2}),
                                          ("lost-ranks", {"players": 4}), ("rank", {"players": 5})])
def test_details_are_json_records_with_a_kind(name: str, options: dict[str, Any]) -> None:
    for event, _ in played(name, 3, **options):
        assert event.details, event
        for detail in event.details:
            data = detail.to_json()
            assert KIND.fullmatch(data["kind"]) and data["kind"] == detail.kind
            assert json.loads(json.dumps(data)) == data
            fields = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items() if k != "kind"}
            assert type(detail)(**fields) == detail  # the JSON names every field


@pytest.mark.parametrize("seed", range(3))
def test_lost_cities_details_agree_with_the_state(seed: int) -> None:
    """LC-3, LC-4: the card played or taken; LC-6, LC-7: the round's and match's scores."""
    for event, state in played("lost-cities", seed, rounds=2):
        view = state.public_view()
        first = event.details[0]
        assert first.seat == event.player  # type: ignore[attr-defined]
        if event.text.startswith(("play ", "discard ")):
            assert first.kind == "card_played" and first.card == event.text.split()[1]  # type: ignore[attr-defined]
        else:
            assert first.kind == "card_drawn"
            assert (first.card is None) == (event.text == "draw deck")  # type: ignore[attr-defined]
        for detail in event.details:
            if detail.kind == "round_ended":
                assert list(detail.scores) == state.result()["round_scores"][detail.round - 1]  # type: ignore[attr-defined]
            if detail.kind == "match_ended":
                assert list(detail.totals) == state.result()["scores"]  # type: ignore[attr-defined]
                assert detail.winner == state.result()["winner"]  # type: ignore[attr-defined]
            if detail.kind == "round_started":
                assert view["round"] == detail.round  # type: ignore[attr-defined]


@pytest.mark.parametrize("players", [2, 4])
def test_lost_ranks_details_agree_with_the_state(players: int) -> None:
    """LR-10/LR-11: the trick's winner and cards; LR-15..LR-18: round points and the winner."""
    recent: list[str] = []
    for event, state in played("lost-ranks", 5, players=players):
        view = state.public_view()
        recent += [d.card for d in event.details if d.kind == "card_played"]  # type: ignore[attr-defined]
        for detail in event.details:
            if detail.kind in ("trick_won", "no_winner_trick"):
                last = view["last_trick"] if not state.is_terminal() or view.get("last_trick") else None
                if last is not None and view["trick_number"] > 1:
                    assert [x["card"] for x in last["trick"]] == recent[-players:]
                    assert last["winner"] == (detail.seat if detail.kind == "trick_won" else None)  # type: ignore[attr-defined]
            if detail.kind == "round_ended":
                points = state.result()["round_scores"][detail.round - 1]
                assert detail.points == (points["red"], points["black"])  # type: ignore[attr-defined]
            if detail.kind == "match_ended":
                assert detail.winner == state.result()["winner"]  # type: ignore[attr-defined]


def test_rank_details_agree_with_the_state() -> None:
    """RG-6: who is out and in which place; RG-7: the loser."""
    outs: list[int] = []
    for event, state in played("rank", 2, players=4):
        for detail in event.details:
            if detail.kind == "player_out":
                outs.append(detail.seat)  # type: ignore[attr-defined]
                assert detail.place == len(outs)  # type: ignore[attr-defined]
            if detail.kind == "match_ended":
                assert detail.loser == state.result()["loser"]  # type: ignore[attr-defined]
    assert outs == state.result()["order"][:len(outs)]


NOTE_READ = re.compile(r"\w\.note\b(?![\"-])")  # `e.note`, `event.note`; not a CSS class "span.note"


def test_no_front_end_reads_the_english_note() -> None:
    """Front ends render the details; the note is for logs and traces only."""
    files = [*(SRC / "web" / "static").rglob("*.js"), *(SRC / "console").glob("*.py")]
    offenders = [f"{path.name}:{n}" for path in files
                 for n, line in enumerate(path.read_text().splitlines(), 1) if NOTE_READ.search(line)]
    assert offenders == []
