"""What each recipient may see: seat views, the spectators' public view, and
redaction of free text (move texts, notes, error messages, results).

Every message the server sends is built from these functions only, so the
projection is applied to everything on the wire (boardgame.io #1159).

* A seat's view is the game's own ``state.view(seat)``.
* The public (spectator) view is built by a small per-game function from a
  seat's view with that seat's private fields removed (:data:`PUBLIC_VIEWS`).
  A game without such a function gets only the keys every view has
  (``game``, ``current_player``, ``round``, ``scores``, ``round_scores``).
* Free text is redacted against a view: every whole token that is a card name
  of the game but does not appear as a JSON string in that view (the view
  before or after the move, for a move's log line) becomes ``??``.

The property test ``tests/server/test_leaks.py`` checks the result: no message
to a seat or a spectator names a card that recipient has not been shown.
"""

from __future__ import annotations

import functools
import importlib
import json
import re
from collections.abc import Callable, Iterable
from typing import Any

from cardtable.protocol import JSON, Game, State

Key = int | None
"""A recipient: a seat number, or ``None`` for spectators (the public)."""

TOKEN = re.compile(r"[0-9A-Za-z]+")
HIDDEN = "??"

REQUIRED_KEYS = ("game", "current_player", "round", "scores", "round_scores")


@functools.lru_cache(maxsize=64)
def _card_names(game_name: str, config: str) -> frozenset[str]:
    from cardtable.registry import load_game

    game = load_game(game_name, **json.loads(config))
    names: set[str] = set()
    misses = 0
    card = 0
    while misses < 8 and card < 1024:
        try:
            names.add(game.card_name(card))
            misses = 0
        except (IndexError, ValueError, KeyError):
            misses += 1
        card += 1
    return frozenset(n for n in names if TOKEN.fullmatch(n))


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


def redact_tokens(text: str, cards: frozenset[str], visible: Callable[[str], bool]) -> str:
    """``text`` with every card token for which ``visible(token)`` is false replaced by ``??``."""
    if not text:
        return text

    def sub(m: re.Match[str]) -> str:
        tok = m.group(0)
        if tok not in cards or visible(tok):
            return tok
        return HIDDEN

    return TOKEN.sub(sub, text)


def redact(text: str, cards: frozenset[str], seen: Iterable[str]) -> str:
    """``text`` with every card token not shown in one of the ``seen`` JSON texts
    replaced by ``??``."""
    texts = list(seen)
    return redact_tokens(text, cards, lambda tok: any(f'"{tok}"' in t for t in texts))


def has_card_token(text: str, cards: frozenset[str]) -> bool:
    return any(tok in cards for tok in TOKEN.findall(text))


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


# --- public views ---------------------------------------------------------------
SeatView = Callable[[int], dict[str, JSON]]
"""The view of a seat at the current state (possibly cached); do not mutate it."""
PublicView = Callable[[State, SeatView], dict[str, JSON]]


def _minimal_public(state: State, seat_view: SeatView) -> dict[str, JSON]:
    base = seat_view(0)
    out: dict[str, JSON] = {k: base[k] for k in REQUIRED_KEYS if k in base}
    out["player"] = None
    return out


def _lost_cities_public(state: State, seat_view: SeatView) -> dict[str, JSON]:
    v0 = seat_view(0)
    v1 = seat_view(1)
    out = {k: v for k, v in v0.items() if k not in ("hand", "opponent_hand_size", "opponent_known")}
    out["player"] = None
    out["hand_sizes"] = [v1["opponent_hand_size"], v0["opponent_hand_size"]]
    out["known"] = [v1["opponent_known"], v0["opponent_known"]]
    return out


def _lost_ranks_public(state: State, seat_view: SeatView) -> dict[str, JSON]:
    v = {k: val for k, val in seat_view(0).items() if k not in ("hand", "army", "partner")}
    v["player"] = None
    if "phantoms" in v:
        v["phantoms"] = [
            [card if up else None for card, up in zip(row, ups)]
            for row, ups in zip(v["phantoms"], v["phantom_face_up"])
        ]
    drawn = v.get("drawn")
    if isinstance(drawn, dict):
        drawn = dict(drawn)
        drawn["cards"] = [card if up else None for card, up in zip(drawn["cards"], drawn["face_up"])]
        v["drawn"] = drawn
    return v


def _strip_private_draw(entry: Any, seat: int) -> Any:
    if isinstance(entry, dict) and entry.get("event") == "draw" and entry.get("seat") == seat:
        entry = {k: v for k, v in entry.items() if k != "card"}
    return entry


def _rank_public(state: State, seat_view: SeatView) -> dict[str, JSON]:
    v = {k: val for k, val in seat_view(0).items() if k != "hand"}
    v["player"] = None
    v["log"] = [_strip_private_draw(e, 0) for e in v.get("log") or []]
    v["pull_back"] = _strip_private_draw(v.get("pull_back"), 0)
    return v


PUBLIC_VIEWS: dict[str, PublicView] = {
    "lost-cities": _lost_cities_public,
    "lost-ranks": _lost_ranks_public,
    "rank": _rank_public,
}
"""Game name -> the spectators' view, built from seat views without changing
them.  Remove an entry once the game offers a public view of its own (see the
report: the ``State.view(None)`` proposal)."""


def public_view(state: State, seat_view: SeatView | None = None) -> dict[str, JSON]:
    """What a spectator may see: only public information."""
    fn = PUBLIC_VIEWS.get(state.game.name, _minimal_public)
    return fn(state, seat_view or state.view)


def view_for(state: State, key: Key, seat_view: SeatView | None = None) -> dict[str, JSON]:
    """The view of recipient ``key`` (a seat, or ``None`` for the public)."""
    if key is None:
        return public_view(state, seat_view)
    return state.view(key)
