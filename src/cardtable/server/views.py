"""What each recipient may see: seat views, the spectators' public view, and
redaction of free text (error messages, results).

Every message the server sends is built from these functions only, so the
projection is applied to everything on the wire (boardgame.io #1159).

* A seat's view is the game's own ``state.view(seat)``.
* The public (spectator) view is the game's own ``state.public_view()``.
* Move events are public by the protocol (:class:`cardtable.protocol.Event`: every
  card played is public, LC-8, LR-20, RG-9) and are sent to everybody as they are.
* Other free text is redacted against a view: every whole token that is a card name
  of the game but does not appear as a JSON string in that view becomes ``??``.

The property test ``tests/server/test_server_leaks.py`` checks the result: no message
to a seat or a spectator names a card that recipient has not been shown.
"""

from __future__ import annotations

import functools
import importlib
import json
import re
from collections.abc import Iterable
from typing import Any

from cardtable.protocol import JSON, Game, State

Key = int | None
"""A recipient: a seat number, or ``None`` for spectators (the public)."""

TOKEN = re.compile(r"[0-9A-Za-z]+")
HIDDEN = "??"


@functools.lru_cache(maxsize=64)
def _card_names(game_name: str, config: str) -> frozenset[str]:
    from cardtable.registry import load_game

    game = load_game(game_name, **json.loads(config))
    return frozenset(n for n in game.card_names() if TOKEN.fullmatch(n))


def card_names(game: Game) -> frozenset[str]:
    """Every card name of ``game`` (the tokens that redaction looks for)."""
    return _card_names(game.name, json.dumps(game.config_dict(), sort_keys=True))


_orjson: Any
try:  # orjson is several times faster on the views (optional: pip install orjson)
    _orjson = importlib.import_module("orjson")
except ImportError:  # pragma: no cover - depends on the environment
    _orjson = None


def dumps(value: JSON) -> str:
    """Compact JSON text (UTF-8 characters kept)."""
    if _orjson is not None:
        try:
            text: str = _orjson.dumps(value, option=_orjson.OPT_NON_STR_KEYS).decode()
            return text
        except TypeError:
            pass  # e.g. an int too large for orjson: fall back
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def redact(text: str, cards: frozenset[str], seen: Iterable[str]) -> str:
    """``text`` with every card token not shown in one of the ``seen`` JSON texts
    replaced by ``??``."""
    if not text:
        return text
    texts = list(seen)

    def sub(m: re.Match[str]) -> str:
        tok = m.group(0)
        if tok not in cards or any(f'"{tok}"' in t for t in texts):
            return tok
        return HIDDEN

    return TOKEN.sub(sub, text)


def redact_json(value: JSON, cards: frozenset[str], seen: Iterable[str]) -> JSON:
    """Redact every string (keys kept) inside a JSON value."""
    texts = list(seen)
    if isinstance(value, str):
        return redact(value, cards, texts)
    if isinstance(value, list):
        return [redact_json(v, cards, texts) for v in value]
    if isinstance(value, dict):
        return {k: redact_json(v, cards, texts) for k, v in value.items()}
    return value


def view_for(state: State, key: Key) -> dict[str, JSON]:
    """The view of recipient ``key``: a seat's own view, or the public view (``None``)."""
    if key is None:
        return state.public_view()
    return state.view(key)
