"""No function of ``src/cardtable`` is longer than 80 lines, unless it says why it must stay whole.

How a function is measured, on the syntax tree of every module of the package:

* its length runs from the ``def`` line (decorators not counted) to the last line of its
  body, blank lines and comments included, *minus* the lines of its docstring: a long
  explanation is never a reason to split a function;
* a nested function (a route inside an app factory, a closure) counts towards the
  function that holds it and is measured on its own as well;
* a function may stay longer than the limit when a comment ``# whole: <reason>`` stands
  between its ``def`` line and its first statement after the docstring, with a non-empty
  reason (for a hot loop: what splitting it was measured to cost).
"""

from __future__ import annotations

import ast
from pathlib import Path

import cardtable

LIMIT = 80
MARKER = "# whole:"


def _first_statement(node: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.stmt | None:
    """The first statement after the docstring (``None`` if the body is only a docstring)."""
    body = node.body
    if ast.get_docstring(node, clean=False) is not None:
        body = body[1:]
    return body[0] if body else None


def _docstring_lines(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    if ast.get_docstring(node, clean=False) is None:
        return 0
    doc = node.body[0]
    assert doc.end_lineno is not None
    return doc.end_lineno - doc.lineno + 1


def _marked_whole(node: ast.FunctionDef | ast.AsyncFunctionDef, lines: list[str]) -> bool:
    first = _first_statement(node)
    end = first.lineno if first is not None else node.lineno + 1
    for text in lines[node.lineno - 1:end - 1]:
        text = text.strip()
        if text.startswith(MARKER) and text[len(MARKER):].strip():
            return True
    return False


def function_length(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """Lines from ``def`` to the end of the body, less the docstring's (see the module docstring)."""
    assert node.end_lineno is not None
    return node.end_lineno - node.lineno + 1 - _docstring_lines(node)


def long_functions(root: Path, limit: int = LIMIT) -> list[str]:
    """``path:line: name (N lines)`` for every function under ``root`` over ``limit`` lines
    that does not carry the ``# whole:`` marker."""
    found: list[str] = []
    for path in sorted(root.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        for node in ast.walk(ast.parse(source, filename=str(path))):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            length = function_length(node)
            if length > limit and not _marked_whole(node, lines):
                found.append(f"{path.relative_to(root.parent)}:{node.lineno}: {node.name} ({length} lines)")
    return found


def test_no_function_is_longer_than_the_limit() -> None:
    root = Path(cardtable.__file__).parent
    offenders = long_functions(root)
    assert not offenders, f"functions over {LIMIT} lines without a '{MARKER} <reason>' comment:\n" + "\n".join(offenders)


def test_the_checker_measures_and_honours_the_marker(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    body = "".join(f"    x{i} = {i}\n" for i in range(LIMIT))
    doc = '    """A docstring\n\n    of several lines\n    is not counted."""\n'
    (package / "short.py").write_text(f"def fits():\n{doc}{body[:-len('    x79 = 79')-1]}\n", encoding="utf-8")
    (package / "long.py").write_text(f"def too_long():\n{doc}{body}", encoding="utf-8")
    (package / "marked.py").write_text(
        f"def kept_whole():\n{doc}    # whole: splitting it costs 9 % of the play-out speed\n{body}", encoding="utf-8")
    (package / "empty_reason.py").write_text(f"def bare_marker():\n    # whole:\n{body}", encoding="utf-8")
    (package / "nested.py").write_text(
        f"def outer():\n    def inner():\n        pass\n{body}    return inner\n", encoding="utf-8")
    assert sorted(long_functions(package)) == [
        "pkg/empty_reason.py:1: bare_marker (82 lines)",
        "pkg/long.py:1: too_long (81 lines)",
        "pkg/nested.py:1: outer (84 lines)",
    ]
