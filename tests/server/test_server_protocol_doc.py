"""The protocol document keeps up with the server: every error code the server
can send is in one of its error tables, and its Limits section lists every
:class:`~cardtable.server.room.Settings` field with its default."""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

from cardtable.server.errors import http_code
from cardtable.server.room import Settings

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "src" / "cardtable" / "server"
DOC = (ROOT / "docs" / "server-protocol.md").read_text(encoding="utf-8")

ERROR_MAKERS = ("ProtocolError", "LimitError", "_plain_error")
"""The calls whose first argument is the ``code`` of an error sent to a client."""


def sent_codes() -> dict[str, set[str]]:
    """Every literal error code in the server's sources, with the modules sending it,
    and the codes of the errors Starlette raises itself."""
    codes: dict[str, set[str]] = {}
    for path in sorted(SERVER.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            first = node.args[0]
            if name in ERROR_MAKERS and isinstance(first, ast.Constant) and isinstance(first.value, str):
                codes.setdefault(first.value, set()).add(path.name)
    for status in range(400, 600):
        codes.setdefault(http_code(status), set()).add("errors.py (Starlette)")
    return codes


def table_rows(text: str) -> list[list[str]]:
    return [[cell.strip() for cell in line.strip().strip("|").split("|")]
            for line in text.splitlines() if line.lstrip().startswith("|")]


def documented_codes(text: str) -> set[str]:
    """The codes in the ``code`` column of every table that has one."""
    found: set[str] = set()
    column: int | None = None
    for line in text.splitlines():
        if not line.lstrip().startswith("|"):
            column = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if column is None:
            column = cells.index("code") if "code" in cells else -1
        elif column >= 0 and column < len(cells):
            found.update(re.findall(r"`([a-z_]+)`", cells[column]))
    return found


def section(text: str, title: str) -> str:
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end >= 0 else None]


def test_sent_codes_are_found() -> None:
    codes = sent_codes()  # (the scan itself must see the codes of each layer)
    for code in ("illegal", "busy", "bad_origin", "too_many_connections", "rate_limited", "too_large",
                 "hello_timeout", "bad_json", "bad_name", "not_found", "bad_request"):
        assert code in codes, code


def test_every_error_code_the_server_sends_is_in_an_error_table() -> None:
    listed = documented_codes(DOC)
    missing = {code: sorted(where) for code, where in sent_codes().items() if code not in listed}
    assert not missing, f"error codes sent but not in a table of docs/server-protocol.md: {missing}"


def test_the_limits_section_lists_every_setting_with_its_default() -> None:
    rows = {row[0].strip("`"): row for row in table_rows(section(DOC, "Limits"))[2:]}
    problems: list[str] = []
    for field in dataclasses.fields(Settings):
        if field.name == "clock":  # (a test hook, not a limit)
            continue
        row = rows.get(field.name)
        if row is None:
            problems.append(f"{field.name}: no row")
        elif field.default is not dataclasses.MISSING and row[1] != f"`{field.default!r}`":
            problems.append(f"{field.name}: the default is {field.default!r}, the doc says {row[1]}")
    extra = set(rows) - {f.name for f in dataclasses.fields(Settings)}
    assert not problems and not extra, (problems, extra)
