"""A game in one place (issue #13, item 6): everything that is one game's sits in its
package ``cardtable.games.<module>``; the generic front ends name no game.

The check reads every ``.py`` and ``.js`` file of ``src/cardtable`` outside the game's
package and reports the ones that *name* the game in code: its modules
(``lost_cities``, ``cardtable.agents.rank``), its classes (``LostCities…``,
``Rank…``) or its registry name as a string (``"lost-cities"``, ``"rank"``).  Docstrings
(and JS comments) are prose and do not count; a doctest that loads a game by name is
an example, not a branch.  Allowed, each with its reason, in :data:`ALLOWED`; the web's
JS files that still name games are :data:`KNOWN_JS` — that list may only shrink.
"""

from __future__ import annotations

import ast
import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

import cardtable
from cardtable.registry import (
    ROLES, encoder_class, game_class, game_names, game_part, games_with, heuristic_class, kernel_for,
    knowledge_class, terminal_renderer,
)

SRC = Path(cardtable.__file__).parent

GAMES: dict[str, tuple[str, str]] = {
    "lost-cities": ("lost_cities", "LostCities"),
    "lost-ranks": ("lost_ranks", "LostRanks"),
    "rank": ("rank", "Rank"),
}
"""Game → (its module name, the prefix of its class names)."""

ALLOWED: dict[str, str] = {
    "registry.py": "the one table of the games: name → package",
}
"""Files outside every game's package that may name games, and why."""

KNOWN_JS: dict[str, set[str]] = {"lost-cities": set(), "lost-ranks": set(), "rank": set()}
"""The web's shared JS files that still branch on a game: none since the web helper
(webcore) moved those branches into ``web/static/games/<module>.js`` (loaded by name,
``games/index.js``); this list may only shrink."""


def _docstring_ids(tree: ast.Module) -> set[int]:
    """The string constants of ``tree`` that are docstrings (of a module, class or
    function, or the attribute docstring after an assignment)."""
    found: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for before, stmt in zip([None, *body], body):
            is_doc = (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
                      and isinstance(stmt.value.value, str))
            if is_doc and (before is None or isinstance(before, (ast.Assign, ast.AnnAssign))):
                found.add(id(stmt.value))
    return found


_GAME_HOMES = frozenset({"games", "agents", "knowledge", "console", "rl", "kernels", "lab"})
"""The packages under which a module named after a game was (or is) that game's."""


def _names_game(name: str, module: str, prefix: str) -> bool:
    """Does the identifier or dotted module path ``name`` name the game?"""
    parts = name.split(".")
    if module == "rank":  # "rank" is also a card's rank: only a game module's path counts
        in_path = parts[0] == "cardtable" and any(
            part == module and parent in _GAME_HOMES for parent, part in zip(parts, parts[1:]))
    else:
        in_path = any(module in part for part in parts)
    return in_path or any(re.match(prefix + r"(?![a-z])", part) for part in parts)


def python_mentions(text: str, game: str) -> set[str]:
    """What the Python source ``text`` says that names ``game`` (outside docstrings)."""
    module, prefix = GAMES[game]
    tree = ast.parse(text)
    docs = _docstring_ids(tree)
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.update(f"from {node.module} import {a.name}" for a in node.names
                         if _names_game(f"{node.module}.{a.name}", module, prefix))
        elif isinstance(node, ast.Import):
            found.update(f"import {a.name}" for a in node.names if _names_game(a.name, module, prefix))
        elif isinstance(node, ast.Name) and _names_game(node.id, module, prefix):
            found.add(node.id)
        elif isinstance(node, ast.Attribute) and _names_game(node.attr, module, prefix):
            found.add("." + node.attr)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and _names_game(
                node.name, module, prefix):
            found.add("def " + node.name)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            words = re.findall(r"[\w.:-]+", node.value)
            if (node.value == game or node.value.startswith(game + ".")  # a name or a message key
                    or any((module != "rank" and (game in w or module in w))
                           or _names_game(w.partition(":")[0], module, prefix) for w in words)):
                found.add(repr(node.value)[:60])
    return found


_JS_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)


def js_mentions(text: str, game: str) -> set[str]:
    """What the JS source ``text`` says that names ``game`` (outside comments)."""
    module, _ = GAMES[game]
    code = _JS_COMMENT.sub("", text)
    patterns = [rf"[\"'`]{re.escape(game)}[\"'`]", rf"\bgames/{module}\b", rf"\b{module}\.js\b"]
    if module == "rank":
        patterns.append(r"\btitle_rank\b")
    else:
        patterns += [re.escape(game), rf"\b{module}\b"]
    return {m.group(0) for pattern in patterns for m in re.finditer(pattern, code)}


def offenders(root: Path, game: str) -> dict[str, set[str]]:
    """File (relative to ``root``) → what it says that names ``game``, for every
    ``.py``/``.js`` file outside the game's package and its web module."""
    module, _ = GAMES[game]
    own = {f"games/{module}", f"web/static/games/{module}.js"}
    found: dict[str, set[str]] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.suffix not in (".py", ".js") or any(rel == o or rel.startswith(o + "/") for o in own):
            continue
        text = path.read_text(encoding="utf-8")
        said = python_mentions(text, game) if path.suffix == ".py" else js_mentions(text, game)
        if said:
            found[rel] = said
    return found


@pytest.mark.parametrize("game", sorted(GAMES))
def test_no_python_file_outside_the_package_names_the_game(game: str) -> None:
    found = {f: s for f, s in offenders(SRC, game).items() if f.endswith(".py") and f not in ALLOWED}
    assert not found, f"files outside games/{GAMES[game][0]}/ name {game} (ask the registry for the part):\n" + \
        "\n".join(f"{f}: {sorted(s)}" for f, s in found.items())


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_js_files_naming_the_game_only_shrink(game: str) -> None:
    found = {f for f in offenders(SRC, game) if f.endswith(".js")}
    assert found <= KNOWN_JS[game], f"new JS files name {game}: {sorted(found - KNOWN_JS[game])}"


def test_the_check_sees_each_way_of_naming_a_game(tmp_path: Path) -> None:
    """Not vacuous: each way of naming a game is reported; prose, a card's rank and the
    game's own package are not."""
    (tmp_path / "games" / "rank").mkdir(parents=True)
    (tmp_path / "games" / "rank" / "rules.py").write_text("class Rank:\n    name = 'rank'\n")
    (tmp_path / "front.py").write_text(
        '"""Plays Lost Cities and Ранг: load_game("rank")."""\n'
        "from cardtable.games.lost_cities.heuristic import LostCitiesHeuristic\n"
        "from cardtable.cards import rank\n"
        "def verdict(game, card):\n"
        "    if game.name == 'rank':\n"
        "        return rank(card)\n"
        "    return 'lost-ranks.held'\n")
    (tmp_path / "table.js").write_text('// lost-cities in a comment\nif (g === "lost-ranks") {}\n')
    assert offenders(tmp_path, "rank") == {"front.py": {"'rank'"}}
    assert offenders(tmp_path, "lost-cities") == {"front.py": {
        "from cardtable.games.lost_cities.heuristic import LostCitiesHeuristic"}}
    assert offenders(tmp_path, "lost-ranks") == {"front.py": {"'lost-ranks.held'"},
                                                  "table.js": {'"lost-ranks"', "lost-ranks"}}


def test_the_registry_knows_each_game_package() -> None:
    assert sorted(GAMES) == game_names()
    for game, (module, prefix) in GAMES.items():
        assert game_class(game).__module__ == f"cardtable.games.{module}.rules"
        assert game_class(game).__name__ == prefix
        assert game_class(game).info.name == game


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_game_has_its_parts(game: str) -> None:
    heuristic, knowledge, encoder = heuristic_class(game), knowledge_class(game), encoder_class(game)
    assert heuristic is not None and heuristic.__module__ == f"cardtable.games.{GAMES[game][0]}.heuristic"
    assert knowledge is not None and knowledge.__module__ == f"cardtable.games.{GAMES[game][0]}.knowledge"
    assert encoder is not None and encoder.__module__ == f"cardtable.games.{GAMES[game][0]}.tensor"
    renderer = terminal_renderer(game)
    assert callable(renderer.render) and callable(renderer.describe) and renderer.KEYS is not None
    assert game_part(game, "measures") is not None and game_part(game, "pictures") is not None


def test_a_missing_part_is_none_and_a_bad_name_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardtable import registry

    monkeypatch.setitem(registry._GAMES, "bare", ("cardtable.rules", "Bare"))  # a package with no game parts
    assert kernel_for("bare") is None and game_part("bare", "tensor") is None
    monkeypatch.delitem(registry._GAMES, "bare")
    assert games_with("kernel") == ["lost-cities", "lost-ranks", "rank"]
    with pytest.raises(ValueError, match="unknown game part 'sound'; the parts are: rules, heuristic"):
        game_part("rank", "sound")
    with pytest.raises(ValueError, match="unknown game 'chess'; known games: lost-cities, lost-ranks, rank"):
        game_part("chess", "rules")
    assert "kernel" in ROLES


def test_importing_a_game_loads_only_its_engine() -> None:
    """``import cardtable.games.<module>`` loads the engine and the core, none of the
    game's other parts, front ends or heavy libraries."""
    heavy = ("numpy", "numba", "rich", "typer", "fastapi", "cardtable.agents", "cardtable.console",
             "cardtable.rl", "cardtable.kernels", "cardtable.lab", "cardtable.server", "cardtable.web")
    parts = [f"cardtable.games.{module}.{role}" for module, _ in GAMES.values() for role in ROLES if role != "rules"]
    code = ("import sys\n"
            + "".join(f"import cardtable.games.{module}\n" for module, _ in GAMES.values())
            + f"print(sorted(m for m in sys.modules if m in {parts!r} or m.split('.')[0] in {heavy!r}"
            + f" or any(m == h or m.startswith(h + '.') for h in {heavy!r})))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(SRC.parent)})
    assert out.stdout.strip() == "[]", out.stdout


@pytest.mark.parametrize("seat_result", ["loses", "is out"])
def test_the_terminal_says_a_rank_verdict_from_the_games_renderer(seat_result: str) -> None:
    """Ранг's verdict comes from its renderer's ``VERDICTS`` (RG-7: one player stays in
    Rank and loses, the others are out), the other games' from the generic ones."""
    import io
    import random

    from rich.console import Console

    from cardtable.console.play import TerminalMatch
    from cardtable.registry import load_game

    state = load_game("rank", players=3).new_state(seed=7)
    rng = random.Random(7)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    loser = state.result()["returns"].index(-1)
    human = loser if seat_result == "loses" else (loser + 1) % 3
    out = io.StringIO()
    match = TerminalMatch(state, human=human, agents={}, players=["you", "ai", "ai"],
                          console=Console(file=out, width=100))
    match._final()
    expected = "You stay in Rank — you lose." if seat_result == "loses" else "You are out of Rank"
    assert expected in out.getvalue()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_package_re_exports_every_public_name_of_its_engine(game: str) -> None:
    """``from cardtable.games.<g> import X`` works for every public top-level name of the
    engine, so a name an engine gains is not only reachable through ``.rules``."""
    package = GAMES[game][0]
    tree = ast.parse((SRC / "games" / package / "rules.py").read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    exported = set(importlib.import_module(f"cardtable.games.{package}").__all__)
    assert {n for n in names if not n.startswith("_")} - exported == set()
