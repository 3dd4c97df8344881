"""Checks of client input shared by the HTTP and websocket paths: JSON text
(nesting depth, valid Unicode), display names, message ids and match ids.

Every check raises a :class:`~cardtable.server.room.ProtocolError` that says
what was wrong and what is allowed, before anything is changed.

>>> parse_json('{"a": [1, "x"]}', what="the body")
{'a': [1, 'x']}
>>> clean_name("  Ann   Lee ", "seat 0")
'Ann Lee'
>>> clean_name(None, "seat 0")
'seat 0'
"""

from __future__ import annotations

import json
import re
from typing import Any

from cardtable.protocol import JSON
from cardtable.server.errors import ProtocolError

MAX_DEPTH = 32
"""Deepest nesting of arrays and objects accepted in a JSON text."""
MAX_NAME = 40
"""Longest display name, in characters."""
MAX_ID = 64
"""Longest message ``id`` string, in characters."""
MAX_ID_INT = 2**53 - 1
"""Largest magnitude of an integer message ``id`` (exact in every JSON reader)."""
MATCH_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")
"""Match ids are URL-safe base64 (``secrets.token_urlsafe``)."""

_STRING_OR_BRACKET = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')
_JOINER = "\u200d"  # zero-width joiner: part of emoji sequences such as family emoji


def nesting_depth(text: str) -> int:
    """The deepest nesting of ``[`` and ``{`` in ``text``, brackets inside strings
    not counted (``text`` need not be valid JSON).

    >>> nesting_depth('[{"a": "[[["}, [2]]')
    2
    """
    depth = deepest = 0
    for m in _STRING_OR_BRACKET.finditer(text):
        tok = m.group()
        if tok in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif tok in "]}":
            depth -= 1
    return deepest


def _lone_surrogate(value: Any) -> bool:
    """Whether a string (key or value) anywhere in ``value`` is not valid Unicode."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return True
        return False
    if isinstance(value, dict):
        return any(_lone_surrogate(k) or _lone_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_lone_surrogate(v) for v in value)
    return False


def parse_json(raw: str | bytes, *, what: str) -> Any:
    """``raw`` parsed as JSON, or ``bad_json`` if it is not JSON, nests deeper
    than :data:`MAX_DEPTH`, or holds a string that is not valid Unicode (a lone
    surrogate escape such as ``"\\ud800"``).  ``what`` names the input in messages."""
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError:
        raise ProtocolError("bad_json", f"{what} is not valid UTF-8") from None
    if nesting_depth(text) > MAX_DEPTH:
        raise ProtocolError("bad_json", f"{what} nests arrays and objects deeper than {MAX_DEPTH} levels")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_json", f"{what} is not valid JSON") from None
    if _lone_surrogate(data):
        raise ProtocolError("bad_json", f"{what} holds a string that is not valid Unicode (a lone surrogate "
                            "such as \\ud800); send UTF-8 text")
    return data


def _printable(text: str) -> bool:
    return all(ch.isprintable() or ch == _JOINER for ch in text)


def clean_name(value: Any, default: str) -> str:
    """A display name: runs of whitespace become one space, and the rest must be
    printable Unicode of at most :data:`MAX_NAME` characters (``bad_name``
    otherwise).  ``None`` or an all-blank name gives ``default``."""
    if value is None:
        return default
    if not isinstance(value, str):
        raise ProtocolError("bad_message", "a name must be a string")
    name = " ".join(value.split())
    if not _printable(name):
        raise ProtocolError("bad_name", "a name must be printable text: no control characters, no lone "
                            "surrogates, no unassigned code points")
    if len(name) > MAX_NAME:
        raise ProtocolError("bad_name", f"a name is at most {MAX_NAME} characters, not {len(name)}")
    return name or default


def clean_text(value: Any, max_chars: int) -> str:
    """A chat line: runs of whitespace (line breaks too) become one space, and the
    rest must be printable Unicode of 1 to ``max_chars`` characters (``bad_message``
    otherwise).

    >>> clean_text(" gl\\n hf ", 10)
    'gl hf'
    """
    if not isinstance(value, str):
        raise ProtocolError("bad_message", "'text' must be a string")
    text = " ".join(value.split())
    if not text:
        raise ProtocolError("bad_message", "'text' is empty")
    if not _printable(text):
        raise ProtocolError("bad_message", "'text' must be printable text: no control characters, no lone "
                            "surrogates, no unassigned code points")
    if len(text) > max_chars:
        raise ProtocolError("bad_message", f"'text' is at most {max_chars} characters, not {len(text)}")
    return text


def check_id(value: JSON) -> JSON:
    """A message ``id``: a string of at most :data:`MAX_ID` printable characters,
    or an integer of magnitude at most :data:`MAX_ID_INT` (``bad_message`` otherwise)."""
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        if abs(value) <= MAX_ID_INT:
            return value
    elif isinstance(value, str) and len(value) <= MAX_ID and _printable(value):
        return value
    raise ProtocolError("bad_message", f"'id' must be a string of at most {MAX_ID} printable characters, "
                        f"or an integer of at most {MAX_ID_INT} in magnitude")


def is_match_id(value: Any) -> bool:
    """Whether ``value`` can be a match id at all (checked before any lookup)."""
    return isinstance(value, str) and MATCH_ID.fullmatch(value) is not None
