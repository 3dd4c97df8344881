"""Command-line flags for the games' options, generated from their descriptions.

Every option of every game (:mod:`cardtable.description`) becomes one flag of the commands
that set up a game (``play``, ``simulate``, ``arena``): ``--colors``, ``--players``/``-p``,
``--force-strength``, ``--longer`` …  An option several games share (``players``) is one
flag whose help tells each game's meaning.  :func:`with_game_options` adds the flags to a
typer command and hands the command what was given as ``game_options``.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, Optional

import typer

from cardtable.description import GameInfo, OptionInfo
from cardtable.registry import game_info, game_names


def _infos() -> list[GameInfo]:
    return [game_info(name) for name in game_names()]


def game_argument() -> Any:
    """The ``GAME`` argument: one of the registered names."""
    names = game_names()
    return typer.Argument(..., metavar="GAME", help=f"Game: {', '.join(names[:-1])} or {names[-1]}.", show_default=False)


def option_values(option: OptionInfo) -> str:
    """`` (5 or 6, default 5)`` — what a valued flag takes; nothing for a switch."""
    return "" if option.type is bool else f" ({option.allowed()}, default {option.default})"


def _flag_help(described: list[tuple[GameInfo, OptionInfo]]) -> str:
    parts = []
    for info, option in described:
        parts.append(f"{info.title.en}{option_values(option)}: {option.help.en}")
    return "  ".join(parts)


def _flag(name: str, described: list[tuple[GameInfo, OptionInfo]]) -> inspect.Parameter:
    """The typer parameter of option ``name`` (as the games that have it describe it)."""
    options = [option for _, option in described]
    names = list(dict.fromkeys(n for option in options for n in (option.flag, *option.flags)))
    help_text = _flag_help(described)
    if options[0].type is bool:
        if any(option.default for option in options):
            names = ["--no-" + n.removeprefix("--") for n in names if n.startswith("--")]
        default = typer.Option(False, *names, help=help_text, show_default=False, metavar="")
        return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=bool)
    default = typer.Option(None, *names, help=help_text, show_default=False, metavar="N")
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=Optional[int])


def game_flags() -> list[inspect.Parameter]:
    """One typer parameter per option name over every game, in order of first appearance."""
    described: dict[str, list[tuple[GameInfo, OptionInfo]]] = {}
    for info in _infos():
        for option in info.options:
            described.setdefault(option.name, []).append((info, option))
    return [_flag(name, pairs) for name, pairs in described.items()]


def given_options(info: GameInfo, given: dict[str, Any]) -> dict[str, Any]:
    """The game options set on the command line (``None`` and unset switches left out).

    A flag given for a game that has no such option is a ``ValueError`` naming the
    game's own flags.
    """
    options: dict[str, Any] = {}
    for name, value in given.items():
        if value is None or value is False:
            continue
        try:
            option = info.option(name)
        except KeyError:
            flags = ", ".join(o.flag for o in info.options) or "none"
            raise ValueError(f"--{name.replace('_', '-')} does not apply to {info.name}; its options are: {flags}") from None
        options[name] = (not option.default) if option.type is bool else value
    return options


def with_game_options(command: Callable[..., None]) -> Callable[..., None]:
    """``command`` with a flag for every game option in place of its ``game_options``
    parameter; it is called with ``game_options={option: value or None}``."""
    signature = inspect.signature(command)
    flags = game_flags()
    parameters: list[inspect.Parameter] = []
    for parameter in signature.parameters.values():
        if parameter.name == "game_options":
            parameters.extend(flags)
        else:
            parameters.append(parameter.replace(kind=inspect.Parameter.KEYWORD_ONLY))
    flag_names = [flag.name for flag in flags]

    @functools.wraps(command)
    def run(**kwargs: Any) -> None:
        given = {name: kwargs.pop(name) for name in flag_names}
        command(**kwargs, game_options=given)

    hints = {k: v for k, v in inspect.get_annotations(command, eval_str=True).items() if k != "game_options"}
    run.__annotations__ = {**hints, **{flag.name: flag.annotation for flag in flags}}
    run.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
    return run
