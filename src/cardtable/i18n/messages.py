"""The front ends' shared texts: ICU-style messages with plural forms, per language.

A message is a template with ``{name}`` placeholders and plural choices in ICU syntax::

    "{n, plural, one {# карта} few {# карты} many {# карт} other {# карты}}"

The branch is chosen by the CLDR plural category of the number ``n`` in the message's
language (:func:`plural_category`); ``#`` in the branch stands for the number and a
branch may hold further ``{name}`` placeholders.  ``=0`` style exact branches are
accepted as well.  ICU ``select`` chooses a branch by a word parameter, ``other`` when
no branch has its value — the events say "Вы сходили" to the player themselves and
"Анна ходит" to everyone else through it::

    "{person, select, you {сходили {card}} other {ходит {card}}}"
  The messages of a language are the ``"messages"`` table of its JSON
file beside this module (``en.json``, ``ru.json``); the server hands the same table to
the browser (``GET /api/i18n``), whose ``Intl.PluralRules`` applies the same CLDR rules.

>>> format_message("{n, plural, one {# card} other {# cards}}", "en", n=1)
'1 card'
>>> format_message("{n, plural, one {# карта} few {# карты} many {# карт} other {# карты}}", "ru", n=22)
'22 карты'
>>> format_message("{person, select, you {сходили {card}} other {ходит {card}}}", "ru", person="you", card="7♥")
'сходили 7♥'
>>> message("count.draw_pile", "ru", n=5)
'Колода: 5 карт'
"""

from __future__ import annotations

import functools
import importlib.resources
import json
from typing import Any, Final

LANGUAGES: Final = ("en", "ru")


def plural_category(n: int, lang: str) -> str:
    """The CLDR plural category of the whole number ``n`` in ``lang``.

    English: ``one`` for 1, else ``other``.  Russian (CLDR, integers): ``one`` when n
    ends in 1 but not 11; ``few`` when it ends in 2–4 but not 12–14; ``many`` otherwise.

    >>> [plural_category(k, "ru") for k in (1, 2, 5, 11, 12, 21, 24, 100)]
    ['one', 'few', 'many', 'many', 'many', 'one', 'few', 'many']
    """
    n = abs(int(n))
    if lang == "ru":
        if n % 10 == 1 and n % 100 != 11:
            return "one"
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return "few"
        return "many"
    return "one" if n == 1 else "other"


def closing_brace(text: str, start: int) -> int:
    """The index of the ``}`` closing the ``{`` at ``start``."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    raise ValueError(f"unbalanced braces in message {text!r}")


def branches(body: str) -> dict[str, str]:
    """``selector → text`` of the branches of a plural or select body (``one {…} other {…}``).

    >>> branches(" you {сходили} other {ходит}")
    {'you': 'сходили', 'other': 'ходит'}
    """
    found: dict[str, str] = {}
    i = 0
    while i < len(body):
        if body[i].isspace():
            i += 1
            continue
        brace = body.index("{", i)
        selector = body[i:brace].strip()
        end = closing_brace(body, brace)
        found[selector] = body[brace + 1:end]
        i = end + 1
    if "other" not in found:
        raise ValueError(f"a plural or select needs an 'other' branch: {body!r}")
    return found


def _plural(body: str, value: int, lang: str, params: dict[str, Any]) -> str:
    table = branches(body)
    chosen = table.get(f"={value}") or table.get(plural_category(value, lang)) or table["other"]
    return format_message(chosen.replace("#", str(value)), lang, **params)


def _select(body: str, value: Any, lang: str, params: dict[str, Any]) -> str:
    table = branches(body)
    return format_message(table.get(str(value), table["other"]), lang, **params)


def format_message(template: str, lang: str, **params: Any) -> str:
    """``template`` with its placeholders filled and plural choices made for ``lang``."""
    out: list[str] = []
    i = 0
    while i < len(template):
        if template[i] != "{":
            out.append(template[i])
            i += 1
            continue
        end = closing_brace(template, i)
        inner = template[i + 1:end]
        name, _, rest = inner.partition(",")
        kind, _, body = rest.partition(",")
        if kind.strip() == "plural":
            out.append(_plural(body, int(params[name.strip()]), lang, params))
        elif kind.strip() == "select":
            out.append(_select(body, params[name.strip()], lang, params))
        else:
            out.append(str(params[inner.strip()]))
        i = end + 1
    return "".join(out)


@functools.cache
def messages(lang: str) -> dict[str, str]:
    """The message table of ``lang`` (English where ``lang`` has no file)."""
    if lang not in LANGUAGES:
        lang = "en"
    text = importlib.resources.files(__package__).joinpath(f"{lang}.json").read_text(encoding="utf-8")
    table: dict[str, str] = json.loads(text).get("messages", {})
    return table


def message(key: str, lang: str, **params: Any) -> str:
    """The message ``key`` in ``lang`` (falling back to English), formatted."""
    template = messages(lang).get(key)
    if template is None:
        template = messages("en")[key]
    return format_message(template, lang, **params)
