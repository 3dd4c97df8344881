"""The refusal catalog: every key in every language, rendered from game refusals."""

from __future__ import annotations

import random
import re
import string
from pathlib import Path

import pytest

from cardtable.cards import COLOR_WORDS, SUIT_WORDS
from cardtable.i18n import LANGUAGES, catalog, render
from cardtable.protocol import PROTOCOL_REFUSALS, Refusal
from cardtable.registry import game_class, game_names, load_game

SRC = Path(__file__).resolve().parent.parent / "src" / "cardtable"

WORD_PARAMS = {"suit": SUIT_WORDS, "colour": COLOR_WORDS}
"""The values a word parameter (``{name:form}``) takes."""


def placeholders(template: str) -> dict[str, str]:
    """``name → form`` of every placeholder (form ``""`` for a plain one)."""
    return {name: form or "" for _, name, form, _ in string.Formatter().parse(template) if name is not None}


def all_keys() -> set[str]:
    keys = set(PROTOCOL_REFUSALS.messages)
    for name in game_names():
        keys |= set(game_class(name).refusals.messages)
    return keys


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_refusal_key_has_a_template_with_the_same_placeholders(lang: str) -> None:
    english = catalog("en")["refusals"]
    table = catalog(lang)["refusals"]
    assert set(table) == all_keys() == set(english)
    for key, template in table.items():
        assert set(placeholders(template)) == set(placeholders(english[key])), key


@pytest.mark.parametrize("lang", LANGUAGES)
def test_word_placeholders_have_their_form_for_every_word(lang: str) -> None:
    terms = catalog(lang)["terms"]
    used = 0
    for key, template in catalog(lang)["refusals"].items():
        for name, form in placeholders(template).items():
            if form:
                used += 1
                assert name in WORD_PARAMS, f"{key}: {name!r} is not a word parameter"
                for word in WORD_PARAMS[name]:
                    assert form in terms[word], f"{lang}: {word!r} lacks the form {form!r} ({key})"
    assert used if lang == "ru" else not used


def illegal_samples(game_name: str, options: dict[str, object]) -> list[Refusal]:
    """Refusals met along a random match (a few illegal actions per state)."""
    rng = random.Random(7)
    game = load_game(game_name, **options)
    state = game.new_state(seed=3)
    found: list[Refusal] = []
    for _ in range(150):
        if state.is_terminal():
            break
        legal = set(state.legal_actions())
        for a in rng.sample([a for a in range(game.num_distinct_actions) if a not in legal], 5):
            reason = state.why_illegal(a)
            assert reason is not None
            found.append(reason)
        state.apply_action(rng.choice(sorted(legal)))
    return found


@pytest.mark.parametrize(("game_name", "options"), [
    ("lost-cities", {}), ("lost-ranks", {}), ("lost-ranks", {"players": 2}), ("rank", {"players": 3}),
])
def test_refusals_of_a_match_render_in_every_language(game_name: str, options: dict[str, object]) -> None:
    seen = illegal_samples(game_name, options)
    assert len({r.key for r in seen}) >= 3
    for refusal in seen:
        english, russian = render(refusal, "en"), render(refusal, "ru")
        assert english == refusal.message and "{" not in russian
        assert russian != english and re.search("[а-яё]", russian), russian
        if refusal.rule:
            assert english.endswith(f" ({refusal.rule})") and russian.endswith(f" ({refusal.rule})")


def test_lost_cities_wager_after_a_number_card_says_so_in_both_languages() -> None:
    """LC-3: a wager may be placed only while the expedition holds no number card."""
    from tests.test_lost_cities import act, make_deck, seed_starting

    deck = make_deck("Yw Yw Y5 B4 Bw G2 G3 G4", "R2 R3 R4 R5 R6 R7 R8 R9")
    state = load_game("lost-cities").new_state(seed=seed_starting(0), decks=[deck])
    act(state, "play Y5")
    act(state, "draw deck")
    act(state, "discard R2")
    act(state, "draw deck")
    refusal = state.why_illegal(state.game.parse_action_name("play Yw"))
    assert refusal == Refusal("lost-cities.wager_after_number", {"colour": "yellow", "top": "Y5"}, "LC-3")
    assert render(refusal, "en") == (
        "a wager may be placed only before any number card: your yellow expedition already holds Y5 (LC-3)"
    )
    assert render(refusal, "ru") == (
        "пари можно выложить только до первой числовой карты: в вашей жёлтой экспедиции уже лежит Y5 (LC-3)"
    )


def test_unknown_language_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="known: en, ru"):
        catalog("de")


RULE_TEXT_PARSING = re.compile(
    r"_rule_id|_rule_of|_RULE_RE|_RULE_PREFIXES"
    r"|startswith\(\s*\(?[\"'](?:LC|LR|RG)-"
    r"|(?:LC|LR|RG)-\\d"
)
"""What reading a ruling id back out of a message looks like (Python or JavaScript)."""


def test_nothing_parses_rule_ids_out_of_text() -> None:
    offenders = []
    for path in sorted(SRC.rglob("*")):
        if path.suffix in (".py", ".js") and RULE_TEXT_PARSING.search(path.read_text(encoding="utf-8")):
            offenders.append(str(path.relative_to(SRC)))
    assert offenders == []


def test_every_message_has_both_languages_and_ru_plurals_are_cldr() -> None:
    """The shared messages (``cardtable.i18n.messages``): the same keys in en and ru, and
    Russian counted phrases take the CLDR one/few/many forms (#13.8)."""
    from cardtable.i18n import message, messages

    assert set(messages("en")) == set(messages("ru"))
    assert [message("count.draw_pile", "ru", n=n) for n in (1, 3, 5, 11, 21, 44)] == [
        "Колода: 1 карта", "Колода: 3 карты", "Колода: 5 карт", "Колода: 11 карт", "Колода: 21 карта",
        "Колода: 44 карты"]
    assert message("count.draw_pile", "en", n=1) == "Draw pile: 1 card"
    assert catalog("ru")["messages"]["count.cards"].startswith("{n, plural,")
