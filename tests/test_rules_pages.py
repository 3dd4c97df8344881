"""The rules pages: the rule texts as served by the server (``/rules/{game}``) and printed
by ``cardtable rules``, with their card pictures.

The ruling ids are the ones ``tests/test_rulings.py`` reads from the rule files (its
parsing is reused, not repeated): every ruling must land on its anchor on the page, in
both languages, and be printed by the terminal command.
"""

from __future__ import annotations

import fnmatch
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardtable.cli import app as cli_app
from cardtable.rules import rules_text
from cardtable.rules.pictures import Picture, card_text, parse_picture, pictures_in
from test_rulings import GAMES, LANGUAGES, ROOT, defined_rulings, rules_file

LANG_CODES = {"": "en", ".ru": "ru"}
CASES = [(game, suffix) for game in sorted(GAMES) for suffix in LANGUAGES]
CASE_IDS = [f"{game}-{LANG_CODES[suffix]}" for game, suffix in CASES]


def pictures(game: str, lang: str) -> list[Picture]:
    return [parse_picture(body, game) for body in pictures_in(rules_text(game, lang))]


def cards_of(picture: Picture) -> list[list[tuple[str, bool]]]:
    return [[(card.name, card.marked) for card in row.cards] for row in picture.rows]


# ---------------------------------------------------------------------------- the pictures


@pytest.mark.parametrize("game", sorted(GAMES))
def test_both_languages_draw_the_same_pictures(game: str) -> None:
    english, russian = pictures(game, "en"), pictures(game, "ru")
    assert english, f"{game}: the rules have no card picture"
    assert [cards_of(p) for p in english] == [cards_of(p) for p in russian]


def test_lc6_the_expedition_pictures_score_what_their_notes_say() -> None:
    """Each row of a Lost Cities picture whose note ends in "= N" is an expedition scored
    by LC-6's formula; the note's total must be that score."""
    checked = 0
    for lang in ("en", "ru"):
        for picture in pictures("lost-cities", lang):
            for row in picture.rows:
                total = re.search(r"= (−?\d+)$", row.note)
                if total is None:
                    continue
                values = [card.name[1:] for card in row.cards]
                wagers = values.count("w")
                numbers = [int(v) for v in values if v != "w"]
                score = (sum(numbers) - 20) * (1 + wagers) + (20 if len(values) >= 8 else 0)
                assert int(total.group(1).replace("−", "-")) == score, row
                checked += 1
    assert checked >= 6


def test_a_picture_with_a_wrong_card_is_refused_naming_its_line() -> None:
    with pytest.raises(ValueError, match=r"line 2: 'Q' is not a card"):
        parse_picture("Seat 0: QH\nSeat 1: Q", "lost-ranks")


def test_the_rule_texts_ship_as_package_data() -> None:
    """A wheel carries what ``package-data`` names: every rule file must match it."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["cardtable"]
    package = ROOT / "src" / "cardtable"
    for game, suffix in CASES:
        name = str(rules_file(game, suffix).relative_to(package))
        assert any(fnmatch.fnmatch(name, p) for p in patterns), f"{name} is not package data"


# ---------------------------------------------------------------------------- the server


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    """An HTTP client of a live server with the web UI mounted."""
    pytest.importorskip("fastapi")
    from browserkit import LiveServer

    with LiveServer(f"sqlite:///{tmp_path_factory.mktemp('rules') / 'db.sqlite'}") as server:
        yield server.http


@pytest.mark.parametrize(("game", "suffix"), CASES, ids=CASE_IDS)
def test_the_page_of_each_game_has_every_ruling_anchor(client: object, game: str, suffix: str) -> None:
    lang = LANG_CODES[suffix]
    r = client.get(f"/rules/{game}?lang={lang}")  # type: ignore[attr-defined]
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    page = r.text
    assert f'<html lang="{lang}">' in page
    rulings, problems = defined_rulings(rules_file(game, suffix))
    assert rulings and not problems
    for ruling in rulings:
        anchor = ruling.lower()
        assert re.search(rf'<h3 id="{anchor}">{re.escape(ruling)}\b', page), f"{ruling} has no heading #{anchor}"
        assert f'href="#{anchor}"' in page, f"{ruling} is missing from the contents"
    assert page.count(' id="') == len(set(re.findall(r' id="([^"]+)"', page))), "an id is used twice"


@pytest.mark.parametrize(("game", "suffix"), CASES, ids=CASE_IDS)
def test_the_pictures_are_drawn_as_card_elements(client: object, game: str, suffix: str) -> None:
    lang = LANG_CODES[suffix]
    page = client.get(f"/rules/{game}?lang={lang}").text  # type: ignore[attr-defined]
    drawn = re.findall(r'<figure class="cards-picture">(.*?)</figure>', page, re.DOTALL)
    expected = pictures(game, lang)
    assert len(drawn) == len(expected)
    for figure, picture in zip(drawn, expected):
        cards = re.findall(r'<span class="rules-card" data-card="([^"]+)"( data-marked="true")?>([^<]*)</span>', figure)
        assert [(name, bool(mark)) for name, mark, _ in cards] == [c for row in cards_of(picture) for c in row]
        assert [text for _, _, text in cards] == [card_text(c.__class__(c.name), game) for row in picture.rows
                                                 for c in row.cards]
    assert "language-cards" not in page and "```cards" not in page


def test_links_between_rule_files_become_links_between_pages(client: object) -> None:
    page = client.get("/rules/lost-ranks?lang=en").text  # type: ignore[attr-defined]
    assert 'href="/rules/lost-ranks?lang=ru"' in page
    assert 'href="lost-ranks.ru.md"' not in page


def test_the_language_follows_accept_language_when_not_asked(client: object) -> None:
    ru = client.get("/rules/rank", headers={"Accept-Language": "ru-RU,ru;q=0.9,en;q=0.5"})  # type: ignore[attr-defined]
    en = client.get("/rules/rank", headers={"Accept-Language": "de-DE,de"})  # type: ignore[attr-defined]
    assert '<html lang="ru">' in ru.text and "Ваш ход" in ru.text
    assert '<html lang="en">' in en.text and "Your turn" in en.text


def test_the_index_links_every_game_in_both_languages(client: object) -> None:
    page = client.get("/rules?lang=en").text  # type: ignore[attr-defined]
    for game in GAMES:
        assert f'href="/rules/{game}?lang=en"' in page and f'href="/rules/{game}?lang=ru"' in page


def test_an_unknown_game_is_a_404_in_the_documented_error_shape(client: object) -> None:
    r = client.get("/rules/chess", headers={"Accept": "application/json"})  # type: ignore[attr-defined]
    assert r.status_code == 404
    body = r.json()
    assert body["type"] == "error" and body["code"] == "not_found"
    assert "'chess'" in body["message"] and all(game in body["message"] for game in GAMES)


def test_an_unknown_game_is_a_404_page_for_a_browser(client: object) -> None:
    r = client.get("/rules/chess?lang=ru", headers={"Accept": "text/html,*/*"})  # type: ignore[attr-defined]
    assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")
    assert "'chess'" in r.text and 'href="/rules/lost-ranks?lang=ru"' in r.text


def test_an_unknown_language_is_a_400(client: object) -> None:
    r = client.get("/rules/rank?lang=de")  # type: ignore[attr-defined]
    assert r.status_code == 400
    assert r.json()["code"] == "bad_request" and "'de'" in r.json()["message"]


# ---------------------------------------------------------------------------- the terminal


@pytest.mark.parametrize(("game", "suffix"), CASES, ids=CASE_IDS)
def test_cardtable_rules_prints_every_ruling_and_the_pictures(game: str, suffix: str) -> None:
    lang = LANG_CODES[suffix]
    result = CliRunner().invoke(cli_app, ["rules", game, "--lang", lang], terminal_width=100)
    assert result.exit_code == 0, result.output
    for ruling in defined_rulings(rules_file(game, suffix))[0]:
        assert re.search(rf"\b{re.escape(ruling)}\b", result.output), ruling
    for picture in pictures(game, lang):
        for row in picture.rows:
            assert " ".join(card_text(card, game) for card in row.cards) in result.output
    assert "```" not in result.output and "<a id=" not in result.output


def test_cardtable_rules_lists_the_games() -> None:
    result = CliRunner().invoke(cli_app, ["rules"], terminal_width=120)
    assert result.exit_code == 0
    assert all(f"cardtable rules {game}" in result.output for game in GAMES)


@pytest.mark.parametrize(("args", "says"), [
    (["rules", "chess"], "no rules for game 'chess'; the games are lost-cities, lost-ranks, rank"),
    (["rules", "rank", "--lang", "de"], "no rules in language 'de'; the languages are en, ru"),
])
def test_cardtable_rules_refuses_an_unknown_game_or_language(args: list[str], says: str) -> None:
    result = CliRunner().invoke(cli_app, args, terminal_width=200)
    assert result.exit_code == 2
    assert says in result.output


def test_rules_files_are_where_the_test_of_rulings_reads_them() -> None:
    assert Path(rules_file("rank", "")).read_text(encoding="utf-8") == rules_text("rank", "en")
