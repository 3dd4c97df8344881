"""One catalog for the terminal and the web: what a match says comes from
``src/cardtable/i18n/{en,ru}.json`` (ICU plural and select), in the second person for
the player ("Вы сходили") and in a gender-neutral form for everyone else.

* the web's game modules hold no sentence of their own (a scan with an allow-list);
* every shared key the web uses exists in both languages, and both languages'
  messages take the same parameters;
* the Russian plural and person forms for 1, 2, 5 and 21 cards;
* the terminal with ``lang="ru"`` plays each game to its end and prints no English
  word of the English catalog (apart from the move notation one may type).
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from cardtable.agents import make_agent
from cardtable.console.play import TerminalMatch
from cardtable.i18n import catalog, message, messages
from cardtable.i18n.messages import closing_brace, branches
from cardtable.registry import load_game

STATIC = Path(__file__).resolve().parent.parent / "src" / "cardtable" / "web" / "static"
GAME_MODULES = sorted((STATIC / "games").glob("*.js"))

STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"|\'((?:[^\'\\\n]|\\.)*)\'|`((?:[^`\\]|\\.)*)`')
SENTENCE = re.compile(r"[A-Za-zА-Яа-яЁё]{2,}[,:;.!?]?\s+[A-Za-zА-Яа-яЁё]{2,}")
"""Two words in a row: a text a reader reads, not a key, a selector or a class name."""

LITERAL_ALLOWED = {
    "draw deck", "draw two",  # move notation the code compares moves with
}
"""String literals of the game modules that are not texts to translate."""


def literals(path: Path) -> list[str]:
    """The string literals of a JavaScript file, comments left out."""
    text = re.sub(r"/\*.*?\*/", "", path.read_text(encoding="utf-8"), flags=re.S)
    text = re.sub(r"(^|\s)//[^\n]*", r"\1", text)
    return [next(g for g in m.groups() if g is not None) for m in STRING.finditer(text)]


@pytest.mark.parametrize("path", GAME_MODULES, ids=lambda p: p.name)
def test_web_game_modules_hold_no_sentence_of_their_own(path: Path) -> None:
    """A sentence in a game module would be shown in one language only: every text
    goes through ``t()``/``tn()`` (the shared catalog or the page's chrome table)."""
    found = [s for s in literals(path) if SENTENCE.search(re.sub(r"\$\{[^}]*\}", " ", s)) and s not in LITERAL_ALLOWED]
    assert not found, f"{path.name}: texts not from the catalog: {found}"


def test_the_scan_finds_a_sentence() -> None:
    """The scan above is not blind: a literal log line is caught."""
    sample = STATIC / "games" / "common.js"
    text = sample.read_text(encoding="utf-8") + '\nconst x = "placed the card";\nconst y = `Вы сходили ${c}`;\n'
    probe = Path(__file__).with_name("_probe_scan.js")
    probe.write_text(text, encoding="utf-8")
    try:
        hits = [s for s in literals(probe) if SENTENCE.search(re.sub(r"\$\{[^}]*\}", " ", s))]
    finally:
        probe.unlink()
    assert "placed the card" in hits and "Вы сходили ${c}" in hits


def shared_keys_used() -> set[str]:
    """Every shared-catalog key (one with a dot) the web passes to ``t``/``tn`` literally."""
    used: set[str] = set()
    for path in [*STATIC.glob("*.js"), *GAME_MODULES]:
        used |= set(re.findall(r"\btn?\(\s*\"([\w-]+(?:\.[\w-]+)+)\"", path.read_text(encoding="utf-8")))
    return used


def test_every_shared_key_of_the_web_is_in_both_languages() -> None:
    used = shared_keys_used()
    assert {"event.rank.play", "note.lost-ranks.trick_won", "match.last_moves", "count.draw_pile"} <= used
    for lang in ("en", "ru"):
        missing = used - set(messages(lang))
        assert not missing, f"{lang}: {sorted(missing)}"


def parameters(template: str) -> set[str]:
    """The parameters of an ICU message: ``{name}``, ``{name, plural, …}``, ``{name, select, …}``
    (branch texts searched too)."""
    found: set[str] = set()
    i = template.find("{")
    while i >= 0:
        end = closing_brace(template, i)
        name, _, rest = template[i + 1:end].partition(",")
        kind, _, body = rest.partition(",")
        found.add(name.strip())
        if kind.strip() in ("plural", "select"):
            for text in branches(body).values():
                found |= parameters(text)
        i = template.find("{", end + 1)
    return found


NOTATION_PAIRS = {"card": "pretty", "letter": "colour"}
"""A move's words: English shows its notation (``card``, ``letter``), Russian may show the
card's picture name or the colour's word instead."""


@pytest.mark.parametrize("key", sorted(messages("en")))
def test_both_languages_take_the_same_parameters(key: str) -> None:
    english, russian = messages("en")[key], messages("ru").get(key)
    assert russian is not None, f"{key} has no Russian text"
    en, ru = parameters(english), parameters(russian)
    if key.startswith("move."):
        en = {NOTATION_PAIRS.get(p, p) for p in en} | en
        ru = {NOTATION_PAIRS.get(p, p) for p in ru}
        assert ru <= en, key
    else:
        assert en - {"person"} <= ru and ru - {"person"} <= en | {"colour"}, key


def test_the_browser_gets_the_same_messages() -> None:
    assert catalog("ru")["messages"]["event.rank.play"] == messages("ru")["event.rank.play"]


# ------------------------------------------------------------------ plural and person
@pytest.mark.parametrize(("n", "cards"), [(1, "1 карту"), (2, "2 карты"), (5, "5 карт"), (21, "21 карту")])
def test_russian_pull_back_in_the_second_person_with_its_plural(n: int, cards: str) -> None:
    """RG-6: the player drawn back into the game is told in the second person plural,
    the count of cards in its CLDR form."""
    you = message("note.rank.pull", "ru", person="you", by_person="other", by="игрок 2", who="вы", n=n)
    assert you == f"игрок 2 может сходить, поэтому вы берёте {cards} и возвращаетесь в игру (RG-6)"
    other = message("note.rank.pull", "ru", person="other", by_person="you", by="вы", who="игрок 1", n=n)
    assert other == f"вы можете сходить, поэтому игрок 1 берёт {cards} и возвращается в игру (RG-6)"


@pytest.mark.parametrize(("n", "pile"), [(1, "1 карта"), (2, "2 карты"), (5, "5 карт"), (21, "21 карта")])
def test_counts_of_cards_in_both_languages(n: int, pile: str) -> None:
    assert message("count.stock", "ru", n=n) == f"В колоде: {pile}"
    assert message("count.stock", "en", n=n) == f"Stock: {n} card{'' if n == 1 else 's'}"


@pytest.mark.parametrize(("key", "you", "other"), [
    ("event.lost-cities.play", "выложили Y7", "выкладывает Y7"),
    ("event.lost-cities.discard", "сбросили Y7", "сбрасывает Y7"),
    ("event.lost-cities.draw_deck", "взяли карту из колоды", "берёт карту из колоды"),
    ("event.rank.play", "сходили Y7", "ходит Y7"),
    ("event.lost-ranks.play", "сыграли Y7", "играет Y7"),
])
def test_russian_moves_say_vy_to_the_player_and_a_neutral_form_of_others(key: str, you: str, other: str) -> None:
    """The player: second person plural past ("Вы сходили"); anyone else: the present
    tense, which in Russian has no gender ("Анна ходит", never "Анна сходил")."""
    params: dict[str, Any] = {"card": "Y7", "anti": "no"}
    assert message(key, "ru", person="you", **params) == you
    assert message(key, "ru", person="other", **params) == other


def test_the_terminal_describes_the_players_own_move_in_the_second_person() -> None:
    from cardtable.games.lost_cities.terminal import describe

    state = load_game("lost-cities").new_state(seed=4)
    me = state.current_player()
    event = state.apply_action(state.parse_action(next(m for m in state.legal_action_strings() if m.startswith("discard"))))
    card = event.text.split()[1]
    assert describe(event, state.view(me), lang="ru") == f"Вы сбросили {card}"
    assert describe(event, state.view(1 - me), lang="ru") == f"Соперник сбрасывает {card}"
    assert describe(event, state.view(me)) == f"You discard {card}"


# ------------------------------------------------------------------ the terminal in Russian
NOTATION = {"play", "discard", "draw", "deck", "pass", "phantom", "two", "help", "moves", "board", "save", "quit",
            "hint", "cardtable", "resume", "lost", "cities", "ranks", "rank"}
"""English words the Russian terminal may print: the move notation and the commands one
types (shown as what to type), the games' own names and the program's name."""


def english_words() -> set[str]:
    words: set[str] = set()
    for text in messages("en").values():
        plain = re.sub(r"\{\s*\w+\s*,\s*(?:plural|select)\s*,", " ", text)  # the ICU syntax
        plain = re.sub(r"[\w=]+\s*\{|\{\w+\}|#", " ", plain)  # branch selectors, placeholders
        words |= {w.lower() for w in re.findall(r"[A-Za-z]{3,}", plain)}
    return words - NOTATION


def play_in_russian(name: str, options: dict[str, Any], seed: int) -> str:
    """A whole match at the terminal in Russian: the human asks for help, the legal
    moves, the board, a hint once, types a wrong key and a wrong move, then always plays
    the first legal move by its notation; the others are random agents."""
    game = load_game(name, **options)
    state = game.new_state(seed=seed)
    agents = {s: make_agent("random", game, seed=s) for s in range(1, game.num_players)}
    out = io.StringIO()
    script = iter(["help", "moves", "board", "zz9", "nonsense", "?"])

    def reply(_: str) -> str:
        return next(script, None) or match.state.legal_action_strings()[0]

    from cardtable.agents.search import hint_facts
    from cardtable.console.play import hint_line

    match = TerminalMatch(state, human=0, agents=agents, players=["you"] + ["random"] * (game.num_players - 1),
                          console=Console(file=out, width=100), input_fn=reply, lang="ru",
                          hint=lambda s: hint_line(hint_facts(s, 0, iterations=30), name, "ru"))
    match.run()
    assert match.state.is_terminal()
    return out.getvalue()


@pytest.mark.parametrize(("name", "options"), [
    ("lost-cities", {"rounds": 1}), ("rank", {"players": 3}), ("lost-ranks", {"players": 2}), ("lost-ranks", {}),
])
def test_the_terminal_in_russian_speaks_no_english(name: str, options: dict[str, Any]) -> None:
    text = play_in_russian(name, options, seed=11)
    assert "Партия окончена" in text and "Совет:" in text and "Введите клавишу" in text
    words = {w.lower() for w in re.findall(r"[A-Za-z]{3,}", text)}
    leaked = words & english_words()
    assert not leaked, f"English words in the Russian terminal ({name}): {sorted(leaked)}"


# ------------------------------------------------------------------ dates
def test_cardtable_replay_prints_the_saved_date_in_the_locales_format(tmp_path: Path) -> None:
    """The record's "saved" stamp, in Russian by CLDR (Babel): "1 дек. 2026 г., 12:50"."""
    from typer.testing import CliRunner

    from cardtable import cli, records

    state = load_game("lost-cities", rounds=1).new_state(seed=2)
    state.apply_action(state.legal_actions()[0])
    record = records.record_of(state, players=["you", "random"])
    record["saved"] = "2026-03-05T09:07:00+00:00"
    path = records.save(tmp_path / "lc.json", record)
    expected = {"ru": message("terminal.saved_on", "ru", date=""), "en": message("terminal.saved_on", "en", date="")}
    for lang, month in (("ru", "мар. 2026"), ("en", "Mar")):
        res = CliRunner().invoke(cli.app, ["replay", str(path), "--lang", lang])
        assert res.exit_code == 0, res.output
        line = next(x for x in res.output.splitlines() if x.startswith(expected[lang]))
        assert month in line and re.search(r"\d{1,2}:07", line), line
    assert "Вы " in CliRunner().invoke(cli.app, ["replay", str(path), "--lang", "ru"]).output
