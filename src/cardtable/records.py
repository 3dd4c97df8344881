"""Saved games: a small JSON document that replays a match exactly.

A record holds the game name, its options, the seed (or explicit decks), the
players' names, every move in the game's notation and, once finished, the
result::

    {"format": "cardtable-record", "version": 1, "game": "lost-cities",
     "config": {"colors": 5, "rounds": 3}, "seed": 7, "decks": null,
     "players": ["you", "heuristic"], "moves": ["play Y7", "draw deck", ...],
     "result": {...}}

:func:`replay` rebuilds the state and refuses a malformed or illegal record
with a :class:`RecordError` naming the first bad field or move.
"""

from __future__ import annotations

import datetime as _dt
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cardtable.protocol import JSON, IllegalAction, State
from cardtable.registry import load_game

FORMAT = "cardtable-record"
VERSION = 1


class RecordError(ValueError):
    """A record that cannot be read or replayed; the message says where and why."""


def record_of(
    state: State,
    *,
    players: Sequence[str],
) -> dict[str, JSON]:
    """The record of ``state`` (a match in progress or finished)."""
    game = state.game
    moves = _move_strings(state)
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": game.name,
        "config": game.config_dict(),
        "seed": state.seed,
        "decks": None if state.decks is None else [[game.card_name(c) for c in deck] for deck in state.decks],
        "players": list(players),
        "moves": moves,
        "result": state.result() if state.is_terminal() else None,
        "saved": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
    }


def _move_strings(state: State) -> list[str]:
    """The move texts of ``state.history``, each formatted in its own position."""
    fresh = state.game.new_state(seed=state.seed, decks=state.decks)
    texts = []
    for action in state.history:
        texts.append(fresh.action_to_string(action))
        fresh.apply_action(action)
    return texts


def dumps(record: dict[str, JSON]) -> str:
    """The record as JSON text: one key per line, moves compact."""
    return json.dumps(record, ensure_ascii=False, indent=1) + "\n"


def loads(text: str) -> dict[str, JSON]:
    """Parse record JSON; :class:`RecordError` if it is not a JSON object."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise RecordError(f"not valid JSON (line {err.lineno}, column {err.colno}): {err.msg}") from None
    if not isinstance(data, dict):
        raise RecordError("a record must be a JSON object with keys game, config, seed, moves …")
    return data


def save(path: str | Path, record: dict[str, JSON]) -> Path:
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(dumps(record), encoding="utf-8")
    return p


def load(path: str | Path) -> dict[str, JSON]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise RecordError(f"cannot read {path}: {err.strerror or err}") from None
    return loads(text)


def new_state_of(record: dict[str, JSON]) -> State:
    """The starting state a record describes (no moves applied)."""
    if record.get("format", FORMAT) != FORMAT:
        raise RecordError(f"field 'format' must be {FORMAT!r}, not {record.get('format')!r}")
    if record.get("version", VERSION) != VERSION:
        raise RecordError(f"unsupported record version {record.get('version')!r} (this cardtable reads {VERSION})")
    name = _field(record, "game", str)
    config = record.get("config") or {}
    if not isinstance(config, dict):
        raise RecordError("field 'config' must be an object of game options")
    try:
        game = load_game(name, **config)
    except ValueError as err:
        raise RecordError(f"field 'game'/'config': {err}") from None
    seed = _field(record, "seed", int)
    decks_field: Any = record.get("decks")
    decks = None
    if decks_field is not None:
        if not isinstance(decks_field, list) or not all(isinstance(d, list) for d in decks_field):
            raise RecordError("field 'decks' must be a list of decks, each a list of card names")
        try:
            decks = [[game.parse_card(str(c)) for c in d] for d in decks_field]
        except ValueError as err:
            raise RecordError(f"field 'decks': {err}") from None
    try:
        return game.new_state(seed=seed, decks=decks)
    except ValueError as err:
        raise RecordError(f"field 'decks': {err}") from None


def replay(record: dict[str, JSON], *, upto: int | None = None) -> State:
    """Replay a record's moves (the first ``upto`` of them, or all).

    Checks that a finished record's stored result matches the replayed one.
    """
    state = new_state_of(record)
    moves = _field(record, "moves", list)
    for number, text in enumerate(moves[:upto], start=1):
        if not isinstance(text, str):
            raise RecordError(f"move {number}: {text!r} is not a move string")
        if state.is_terminal():
            raise RecordError(f"move {number} ({text!r}): the match was already over")
        try:
            state.apply_action(state.parse_action(text))
        except IllegalAction as err:
            raise RecordError(f"move {number} ({text!r}): {err}") from None
    stored = record.get("result")
    if upto is None and stored is not None:
        if not state.is_terminal():
            raise RecordError("field 'result' is set but the moves do not finish the match")
        if stored != state.result():
            raise RecordError(f"field 'result' does not match the replay: stored {stored}, replayed {state.result()}")
    return state


def _field(record: dict[str, JSON], key: str, kind: type) -> Any:
    if key not in record:
        raise RecordError(f"field {key!r} is missing")
    value = record[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecordError(f"field {key!r} must be {kind.__name__}, not {type(value).__name__}")
    return value
