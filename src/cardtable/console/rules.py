"""``cardtable rules [GAME] [--lang ru]``: the rules of a game in the terminal.

The rule text (:mod:`cardtable.rules`) is rendered by rich's Markdown, its card
pictures written as card names (:func:`cardtable.rules.pictures.terminal_markdown`);
on a terminal it goes through rich's pager, piped it is printed as it is.  Without a
game the command lists the games and their rules' titles.
"""

from __future__ import annotations

from typing import Optional

import typer
from rich.markdown import Markdown
from rich.table import Table

from cardtable.rules import LANGUAGES, UnknownRules, check_rules, rules_games, rules_text, rules_title
from cardtable.rules.pictures import terminal_markdown


def rules_command(
    game: Optional[str] = typer.Argument(None, help=f"The game: {', '.join(rules_games())} (none: list them)."),
    lang: str = typer.Option("en", "--lang", help="Language of the rules: en or ru."),
) -> None:
    """Show the rules of a game (every ruling with its id, e.g. LR-7), or list the games."""
    from cardtable.cli import console, fail

    try:
        if game is None:
            check_rules(rules_games()[0], lang)
        else:
            check_rules(game, lang)
    except UnknownRules as err:
        raise fail(str(err)) from None
    if game is None:
        console.print(games_table(lang))
        return
    rendered = Markdown(terminal_markdown(rules_text(game, lang), game), hyperlinks=False)
    if console.is_terminal:
        with console.pager(styles=True):
            console.print(rendered)
    else:
        console.print(rendered)


def games_table(lang: str) -> Table:
    """The games, the titles of their rules and the commands that show them."""
    table = Table(title="Rules" if lang == "en" else "Правила")
    table.add_column("game")
    for code in LANGUAGES:
        table.add_column(code)
    table.add_column("command", no_wrap=True)
    for game in rules_games():
        table.add_row(game, *(rules_title(game, code) for code in LANGUAGES), f"cardtable rules {game}")
    return table


__all__ = ["games_table", "rules_command"]
