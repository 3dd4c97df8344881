"""The browser's generic front ends know no game (issue #13, item 6): a game is named
only in its own module, ``web/static/games/<game>.js``, which ``games/index.js`` loads
by the name the server gives (GET /api/games, whose descriptions carry the titles)."""

from __future__ import annotations

import re
from pathlib import Path

from cardtable.registry import game_names

STATIC = Path(__file__).resolve().parents[1] / "src" / "cardtable" / "web" / "static"
GENERIC = sorted(p for p in STATIC.rglob("*.js") if p.parent.name not in {"games", "vendor"})


def game_mentions(text: str) -> list[str]:
    """The game names (as string literals or module files) and game-title keys in ``text``."""
    found: list[str] = []
    for name in game_names():
        module = name.replace("-", "_")
        pattern = rf"""["'`]{re.escape(name)}["'`]|\b{re.escape(module)}\.js\b|title_{re.escape(name)}"""
        found += re.findall(pattern, text)
    return found


def test_the_check_finds_a_game_named_in_a_front_end() -> None:
    text = 'import x from "./games/lost_cities.js";\nconst GAMES = { "lost-ranks": y, rank: z };\nf("rank")'
    assert game_mentions(text) == ["lost_cities.js", '"lost-ranks"', '"rank"']


def test_no_generic_front_end_names_a_game() -> None:
    assert GENERIC, f"no JavaScript found under {STATIC}"
    offenders = {p.relative_to(STATIC).as_posix(): hits for p in GENERIC if (hits := game_mentions(p.read_text("utf-8")))}
    assert offenders == {}


def test_every_game_has_its_front_end_module() -> None:
    for name in game_names():
        assert (STATIC / "games" / f"{name.replace('-', '_')}.js").is_file(), name
