"""The rules of the games: the authoritative texts, one Markdown file per game and language.

The files sit next to this module (``lost-ranks.md``, ``lost-ranks.ru.md`` …) and ship
with the package as package data, so every install — editable, wheel or sdist — can
show them: the server's rules pages (:mod:`cardtable.web.rules_page`) and
``cardtable rules GAME`` read them through :func:`rules_text`.  Their format (ruling
headings and anchors, card pictures) is documented in ``README.md`` here.

>>> rules_title("lost-ranks", "ru")
'Пропавшие солдаты (Lost Ranks)'
>>> rules_text("chess")
Traceback (most recent call last):
...
cardtable.rules.UnknownRules: no rules for game 'chess'; the games are lost-cities, lost-ranks, rank
>>> rules_text("rank", "de")
Traceback (most recent call last):
...
cardtable.rules.UnknownRules: no rules in language 'de'; the languages are en, ru
"""

from __future__ import annotations

import importlib.resources

from cardtable.i18n import LANGUAGES
from cardtable.registry import game_names


class UnknownRules(ValueError):
    """A game or a language that has no rule text; the message names the known ones."""


def rules_games() -> list[str]:
    """The games that have rules: every registered game, sorted."""
    return game_names()


def rules_file_name(game: str, lang: str = "en") -> str:
    """``lost-ranks.md`` (English) or ``lost-ranks.ru.md`` — the file of a game's rules."""
    check_rules(game, lang)
    return f"{game}.md" if lang == "en" else f"{game}.{lang}.md"


def check_rules(game: str, lang: str = "en") -> None:
    """Raise :class:`UnknownRules` unless ``game`` and ``lang`` have a rule text."""
    if game not in rules_games():
        raise UnknownRules(f"no rules for game {game!r}; the games are {', '.join(rules_games())}")
    check_language(lang)


def check_language(lang: str) -> None:
    """Raise :class:`UnknownRules` unless the rules are written in ``lang``."""
    if lang not in LANGUAGES:
        raise UnknownRules(f"no rules in language {lang!r}; the languages are {', '.join(LANGUAGES)}")


def rules_text(game: str, lang: str = "en") -> str:
    """The Markdown text of ``game``'s rules in ``lang`` (``en`` or ``ru``)."""
    name = rules_file_name(game, lang)
    return importlib.resources.files(__name__).joinpath(name).read_text(encoding="utf-8")


def rules_title(game: str, lang: str = "en") -> str:
    """The first heading of the rule text (the game's name as the text spells it)."""
    for line in rules_text(game, lang).splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return game


__all__ = ["LANGUAGES", "UnknownRules", "check_language", "check_rules", "rules_file_name", "rules_games", "rules_text", "rules_title"]
