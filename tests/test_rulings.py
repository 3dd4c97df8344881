"""The rule texts in ``src/cardtable/rules/`` and the ruling ids cited by the code and the tests.

``src/cardtable/rules/<game>.md`` (English) and ``src/cardtable/rules/<game>.ru.md`` (Russian) are the
authoritative rules.  Each ruling is a third-level heading that starts with its id, under an
anchor named after the id in lower case (the form documented in ``src/cardtable/rules/README.md``).
These tests keep the three sides in step:

* both languages of a game define exactly the same ids, each once, under its anchor;
* every id cited anywhere in ``src/`` and ``tests/`` is a ruling of ``src/cardtable/rules/``;
* every ruling is cited by at least one test module (``tests/**/test_*.py``), either in a
  test's name, where the hyphen is dropped (``test_lr19a_…``), or in its text (a docstring,
  a comment, an expected refusal).

This module is left out of both scans so that nothing written here counts as a citation.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "src" / "cardtable" / "rules"
GAMES = {"lost-cities": "LC", "lost-ranks": "LR", "rank": "RG"}
LANGUAGES = ("", ".ru")  # lost-cities.md, lost-cities.ru.md
PREFIXES = "|".join(GAMES.values())

RULING_ID = re.compile(rf"\b(?:{PREFIXES})-\d+[a-z]?\b")
TEST_NAME_ID = re.compile(rf"\btest_({PREFIXES.lower()})(\d+[a-z]?)(?=_|\b)", re.IGNORECASE)
HEADING = re.compile(rf"^###\s+((?:{PREFIXES})-\d+[a-z]?)\b")
ANCHOR = re.compile(r'^<a id="([^"]+)"></a>$')
SCANNED_SUFFIXES = {".py", ".js", ".html", ".css", ".md", ".txt", ".trace", ".json", ".toml"}
THIS_FILE = Path(__file__).resolve()


def rules_file(game: str, language: str) -> Path:
    return RULES / f"{game}{language}.md"


def defined_rulings(path: Path) -> tuple[list[str], list[str]]:
    """The ruling ids a rules file defines, in order, and the problems with their headings."""
    ids: list[str] = []
    problems: list[str] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines, 1):
        heading = HEADING.match(line)
        if heading is None:
            continue
        ruling = heading.group(1)
        anchor = ANCHOR.match(lines[number - 2]) if number >= 2 else None
        if anchor is None or anchor.group(1) != ruling.lower():
            problems.append(f'{path.name}:{number}: {ruling} lacks the anchor <a id="{ruling.lower()}"></a> above it')
        if ruling in ids:
            problems.append(f"{path.name}:{number}: {ruling} is defined twice")
        ids.append(ruling)
    return ids, problems


def all_rulings() -> set[str]:
    return {r for game in GAMES for language in LANGUAGES for r in defined_rulings(rules_file(game, language))[0]}


def scanned_files(folder: Path, pattern: str = "*") -> list[Path]:
    """Text files under ``folder`` (caches and this module left out)."""
    return sorted(
        p
        for p in folder.rglob(pattern)
        if p.is_file() and p.suffix in SCANNED_SUFFIXES and "__pycache__" not in p.parts and p.resolve() != THIS_FILE
    )


def normalise(prefix: str, number: str) -> str:
    """``lr``, ``19a`` → ``LR-19a``."""
    return f"{prefix.upper()}-{number.lower()}"


def citations_in_text(text: str) -> set[str]:
    """Ids written out (``LC-4``) and ids in test names (``test_lc4_…``)."""
    cited = set(RULING_ID.findall(text))
    cited |= {normalise(prefix, number) for prefix, number in TEST_NAME_ID.findall(text)}
    return cited


def relative(path: Path) -> str:
    return str(path.relative_to(ROOT))


# ---------------------------------------------------------------------------- the rule texts


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_game_has_english_and_russian_rules_with_the_same_ids(game: str) -> None:
    english, english_problems = defined_rulings(rules_file(game, ""))
    russian, russian_problems = defined_rulings(rules_file(game, ".ru"))
    assert not english_problems + russian_problems, "\n".join(english_problems + russian_problems)
    assert english, f"{rules_file(game, '').name} defines no ruling"
    wrong_game = [r for r in english + russian if not r.startswith(GAMES[game] + "-")]
    assert not wrong_game, f"{game}: rulings of another game: {wrong_game}"
    only_english = sorted(set(english) - set(russian))
    only_russian = sorted(set(russian) - set(english))
    assert not only_english and not only_russian, (
        f"{game}: only in {game}.md: {only_english}; only in {game}.ru.md: {only_russian}"
    )
    assert english == russian, f"{game}: the two languages list the rulings in a different order"


def test_the_rules_index_links_every_rules_file() -> None:
    index = (RULES / "README.md").read_text(encoding="utf-8")
    missing = [f"{game}{language}.md" for game in GAMES for language in LANGUAGES if f"({game}{language}.md)" not in index]
    assert not missing, f"src/cardtable/rules/README.md does not link {missing}"


# ---------------------------------------------------------------------------- citations


def test_every_cited_ruling_exists_in_docs_rules() -> None:
    known = all_rulings()
    unknown: dict[str, list[str]] = defaultdict(list)
    for path in scanned_files(ROOT / "src") + scanned_files(ROOT / "tests"):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for ruling in sorted(citations_in_text(line) - known):
                unknown[ruling].append(f"{relative(path)}:{number}")
    assert not unknown, "rulings cited but not defined in src/cardtable/rules/:\n" + "\n".join(
        f"  {ruling}: {', '.join(places)}" for ruling, places in sorted(unknown.items())
    )


def test_every_ruling_is_cited_by_a_test() -> None:
    tested: set[str] = set()
    for path in scanned_files(ROOT / "tests", "test_*.py"):
        tested |= citations_in_text(path.read_text(encoding="utf-8"))
    untested: dict[str, list[str]] = defaultdict(list)
    for game in GAMES:
        path = rules_file(game, "")
        for ruling in defined_rulings(path)[0]:
            if ruling not in tested:
                untested[relative(path)].append(ruling)
    assert not untested, "rulings no test under tests/ cites (test_<id>_… or the id in a test module):\n" + "\n".join(
        f"  {file}: {', '.join(rulings)}" for file, rulings in sorted(untested.items())
    )


def test_citation_forms_are_normalised() -> None:
    text = "def test_lr19a_safeguards(): ...  # see RG-6; test_LC4_upper and LR-7b"
    assert citations_in_text(text) == {"LR-19a", "RG-6", "LC-4", "LR-7b"}
    assert citations_in_text("test_lost_cities; ALC-4; LC-4xy; LC-; test_lc") == set()
