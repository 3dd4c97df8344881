"""The message catalog of refusals, one per language, for every front end.

A refusal (:class:`cardtable.protocol.Refusal`) is data: a ``key``, its ``params``
and its ``rule``.  This package turns it into text in the player's language.  The
terminal renders with :func:`render`; the server hands the same catalog to the
browser (``GET /api/i18n``), whose ``i18n.js`` renders with the same rules.

English is the games' own text: each game module keeps one
:class:`~cardtable.protocol.RefusalTable` (key → ruling, English template).  Every
other language is one JSON file here, ``<lang>.json``::

    {
      "terms":    {"hearts": {"nom": "червы", "gen": "червей"}, ...},
      "refusals": {"lost-ranks.must_follow": "нужно ходить в масть: {suit:nom}", ...}
    }

The template format (:func:`cardtable.protocol.render_refusal`):

* ``{name}`` — the parameter as it is: a card name (``Y5``, ``QH``), a number;
  a list of card names is joined with ``", "``;
* ``{name:form}`` — a word parameter (a suit or colour word such as ``hearts``,
  ``yellow``) in one grammatical form, looked up as ``terms[value][form]``; the
  forms a language needs are its own (Russian: ``nom``, ``gen``, ``nom_f``, ``gen_f`` …);
* the ruling id is not part of a template: it is appended as ``" (LC-3)"``
  (and linked to the rules page in the browser).

No refusal states a count, so the refusal format has no plural forms.  Every key of
every game has a template in every language with the same placeholder names
(``tests/test_i18n.py``).

The texts the front ends share beyond refusals are the ``"messages"`` table of each
language's JSON file (``en.json``, ``ru.json``), ICU-style messages with CLDR plural
forms and ``select`` (:mod:`cardtable.i18n.messages`); :func:`catalog` includes them, so
the browser gets them from ``GET /api/i18n`` and formats them the same way
(``web/static/messages.js``).  By key prefix: ``event.<game>.*`` a move as the log says
it (after the mover's name; ``person`` is ``you`` for the reader's own move — "Вы
сходили" — and ``other`` for anyone else, in the present tense, which in Russian names
no gender: "Анна ходит"), ``note.<game>.*`` what follows from it (a trick won, a
pull-back), ``move.<game>.*`` a legal move as the terminal lists it, ``count.*`` counted
phrases, ``match.*`` titles of the log and summaries, ``hint.*`` the search AI's hint,
``game.*`` the games' titles, ``terminal.*`` the terminal's prompts.  Dates are
formatted by :mod:`cardtable.i18n.dates` (Babel) in the terminal and by
``Intl.DateTimeFormat`` in the browser.

>>> from cardtable.protocol import Refusal
>>> from cardtable.games.lost_ranks import REFUSALS
>>> render(REFUSALS("must_follow", suit="hearts"), "ru")
'нужно ходить в масть: червы (LR-7)'
>>> render(REFUSALS("must_follow", suit="hearts"), "en")
'you must follow hearts (LR-7)'
"""

from __future__ import annotations

import functools
import importlib.resources
import json
from collections.abc import Mapping
from typing import Any, Final

from cardtable.i18n.messages import format_message, message, messages, plural_category
from cardtable.protocol import JSON, PROTOCOL_REFUSALS, Refusal, render_refusal
from cardtable.registry import game_class, game_names

__all__ = ["LANGUAGES", "catalog", "format_message", "message", "messages", "plural_category", "render",
           "render_reason"]

LANGUAGES: Final = ("en", "ru")
"""The languages every refusal has a template in; English first (the fallback)."""


@functools.cache
def catalog(lang: str) -> dict[str, Any]:
    """``{"terms": …, "refusals": {key: template}, "messages": {key: message}}`` of
    ``lang`` (what the browser gets).

    An unknown language is a ``ValueError`` naming the known ones.
    """
    if lang not in LANGUAGES:
        raise ValueError(f"no catalog for language {lang!r}; known: {', '.join(LANGUAGES)}")
    if lang == "en":
        refusals = PROTOCOL_REFUSALS.templates()
        for name in game_names():
            refusals.update(game_class(name).refusals.templates())
        return {"terms": {}, "refusals": refusals, "messages": messages("en")}
    text = importlib.resources.files(__name__).joinpath(f"{lang}.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return {"terms": data["terms"], "refusals": data["refusals"], "messages": messages(lang)}


def render(refusal: Refusal, lang: str) -> str:
    """The text of ``refusal`` in ``lang`` (English where ``lang`` has no template)."""
    return render_reason(refusal.key, refusal.params, refusal.rule, lang)


def render_reason(key: str, params: Mapping[str, JSON], rule: str | None, lang: str) -> str:
    """The text of the refusal record ``(key, params, rule)`` in ``lang``."""
    table = catalog(lang)
    template = table["refusals"].get(key)
    if template is None:
        table = catalog("en")
        template = table["refusals"][key]
    return render_refusal(template, params, rule, table["terms"])
