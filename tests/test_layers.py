"""Module boundaries of ``src/cardtable``: no module reads another module's private names.

The rule, checked on the syntax tree of every module of the package:

* ``obj._name`` (any use: read, write, delete) where ``obj`` is not the bare name
  ``self`` or ``cls`` is allowed only if the module itself *defines* ``_name``: as a
  function, method or class, by an assignment to ``_name`` or to ``something._name``,
  or in a ``__slots__`` string.  A game may thus reach into another instance of its
  own classes (``clone``, ``resample``), but the search, the bots, the RL adapters
  and the front ends read a state only through its public accessors;
* ``getattr``/``setattr``/``hasattr``/``delattr`` with a literal ``"_name"`` fall
  under the same rule (they are the same read, hidden from the type checker);
* ``from module import _name`` is never allowed (import the public name instead);
  ``import x as _x`` merely names a public module privately and is fine.

Dunder names (``__slots__``, ``__code__``) are not private.  ``self._x`` and
``cls._x`` are exempt even when ``_x`` comes from a base class in another module:
a subclass is part of its base's implementation.
"""

from __future__ import annotations

import ast
from pathlib import Path

import cardtable

_ACCESSORS = {"getattr", "setattr", "hasattr", "delattr"}


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _defined_here(tree: ast.Module) -> set[str]:
    """The private names a module defines (see the module docstring)."""
    own: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            own.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for sub in ast.walk(target):
                    if isinstance(sub, ast.Name):
                        own.add(sub.id)
                    elif isinstance(sub, ast.Attribute) and isinstance(sub.ctx, ast.Store):
                        own.add(sub.attr)
                if isinstance(target, ast.Name) and target.id == "__slots__" and node.value is not None:
                    own.update(c.value for c in ast.walk(node.value)
                               if isinstance(c, ast.Constant) and isinstance(c.value, str))
    return {name for name in own if _private(name)}


def foreign_private_reads(root: Path) -> list[str]:
    """``path:line: what`` for every breach of the rule under ``root``."""
    found: list[tuple[str, int, str]] = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        own = _defined_here(tree)
        where = path.relative_to(root.parent)
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and _private(node.attr) and node.attr not in own:
                if not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                    found.append((str(where), node.lineno, ast.unparse(node)))
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _ACCESSORS
                  and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)
                  and isinstance(node.args[1].value, str) and _private(node.args[1].value)
                  and node.args[1].value not in own):
                found.append((str(where), node.lineno, ast.unparse(node)))
            elif isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if _private(alias.name):
                        found.append((str(where), node.lineno, f"from {node.module} import {alias.name}"))
    return [f"{path}:{line}: {what}" for path, line, what in sorted(found)]


def test_no_module_reads_another_modules_private_names() -> None:
    root = Path(cardtable.__file__).parent
    found = foreign_private_reads(root)
    assert not found, "private names read across modules (add a public accessor):\n" + "\n".join(found)


def test_the_rule_sees_each_kind_of_breach(tmp_path: Path) -> None:
    """The checker is not vacuous: each breach it exists for is reported, the allowed
    forms are not."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "owner.py").write_text(
        "class Box:\n"
        "    __slots__ = ('_slot',)\n"
        "    def __init__(self):\n"
        "        self._kept = 1\n"
        "    def copy(self, other):\n"
        "        other._kept = self._kept\n"
        "        return other._slot\n"
        "def _helper():\n"
        "    return 0\n",
        encoding="utf-8",
    )
    (package / "reader.py").write_text(
        "import datetime as _dt\n"
        "from owner import _helper\n"
        "def peek(box):\n"
        "    return box._kept, getattr(box, '_slot'), box.__class__, _dt\n",
        encoding="utf-8",
    )
    found = foreign_private_reads(package)
    assert found == [
        "pkg/reader.py:2: from owner import _helper",
        "pkg/reader.py:4: box._kept",
        "pkg/reader.py:4: getattr(box, '_slot')",
    ]


# --- the layers of a game package ------------------------------------------------------

CORE = ("cardtable.cards", "cardtable.description", "cardtable.gameflags", "cardtable.protocol")
"""The core a game's engine may build on (besides the standard library)."""

ROLE_LAYERS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # role: (cardtable modules it may import besides the core, third-party packages)
    "__init__": ((), ()),
    "rules": ((), ()),
    "pictures": ((), ()),
    "measures": ((), ()),
    "decisions": ((), ()),
    "rollout": ((), ()),
    "inference": ((), ()),
    "heuristic": (("cardtable.agents",), ()),
    "knowledge": (("cardtable.agents", "cardtable.kernels"), ("numpy",)),
    "terminal": (("cardtable.console", "cardtable.i18n"), ("rich",)),
    "tensor": (("cardtable.rl.encoding",), ("numpy",)),
    "kernel": (("cardtable.kernels",), ("numpy", "numba")),
}
"""What each module of ``cardtable.games.<game>`` may import, by its role: the engine
and its data (and the plain functions compiled by the kernel: the heuristic's
``decisions``, the search's play-out policy ``rollout``, the round log the search's
inference replays, ``inference``) only the standard library and the core; the heuristic and the knowledge
the agents' layer (the knowledge also its game's kernel, for the search's play-outs, only
where the optional extra is installed); the terminal renderer the console; the tensor encoder the RL
encoding; the kernel the kernels (numba)."""

OWN_PARTS: dict[str, tuple[str, ...]] = {
    "heuristic": ("decisions",), "knowledge": ("heuristic", "decisions", "kernel", "rollout", "inference"),
    "kernel": ("heuristic", "decisions", "rollout", "inference"), "decisions": ("rollout",),
}
"""The game's own parts a part may import besides the engine (``rules``, the package); the
heuristic's ``decisions`` share plain functions with the play-out policy (Lost Ranks' trick
key), both compiled by the kernel."""


def _imports(tree: ast.Module) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names  # a part by name
                         if node.module.startswith("cardtable.games.") and alias.name in ROLE_LAYERS)
    return found


def _within(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def game_layer_breaches(games: Path) -> list[str]:
    """``game/module: import`` for every import of a game package's module its role
    does not allow (:data:`ROLE_LAYERS`), and every module whose role is unknown."""
    import sys

    found: list[str] = []
    for path in sorted(games.glob("*/*.py")):
        package, role = path.parent.name, path.stem
        where = f"{package}/{path.name}"
        if role not in ROLE_LAYERS:
            found.append(f"{where}: no such role (the roles: {', '.join(ROLE_LAYERS)})")
            continue
        extra, third_party = ROLE_LAYERS[role]
        own = f"cardtable.games.{package}"
        allowed_own = (f"{own}.rules", *(f"{own}.{p}" for p in OWN_PARTS.get(role, ())))
        for module in sorted(_imports(ast.parse(path.read_text(encoding="utf-8")))):
            top = module.split(".")[0]
            if top in sys.stdlib_module_names or top == "__future__" or _within(module, CORE + extra):
                continue
            if module == own or _within(module, allowed_own) or (top != "cardtable" and top in third_party):
                continue
            found.append(f"{where}: {module}")
    return found


def test_each_game_module_imports_only_its_roles_layer() -> None:
    games = Path(cardtable.__file__).parent / "games"
    found = game_layer_breaches(games)
    assert not found, "imports across a game part's layer:\n" + "\n".join(found)


def test_the_layer_rule_sees_a_breach(tmp_path: Path) -> None:
    """Not vacuous: an engine importing an agent, a renderer importing the tensor
    encoder and a heuristic importing rich are reported; the allowed imports are not."""
    game = tmp_path / "toy"
    game.mkdir()
    (game / "rules.py").write_text("import random\nfrom cardtable.protocol import Game\n"
                                   "from cardtable.agents.base import Agent\n")
    (game / "terminal.py").write_text("from rich.text import Text\nfrom cardtable.games.toy import rules\n"
                                      "from cardtable.games.toy import tensor\n")
    (game / "heuristic.py").write_text("import rich\nfrom cardtable.agents.base import Agent\n")
    (game / "sound.py").write_text("")
    assert game_layer_breaches(tmp_path) == [
        "toy/heuristic.py: rich",
        "toy/rules.py: cardtable.agents.base",
        "toy/sound.py: no such role (the roles: " + ", ".join(ROLE_LAYERS) + ")",
        "toy/terminal.py: cardtable.games.toy.tensor",
    ]
