"""Terminal presentation of Lost Cities: the table as one seat sees it.

:func:`render` draws a seat's view (LC-8) with :mod:`rich`: the opponent's
expeditions on top, the discard piles (top card, size, the pile banned this
turn) and the draw-pile count in the middle, the seat's own expeditions below,
then the hand numbered 1..8 and sorted by colour, the phase, the match scores
and a summary of every finished round.  :func:`describe` announces one event
in a line, never naming the card an opponent drew from the deck.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from cardtable.cards import COLOR_LETTERS
from cardtable.games.lost_cities import CardDrawn, RoundEnded
from cardtable.console.keys import KeyScheme
from cardtable.i18n import message
from cardtable.protocol import Event

COLOR_STYLES = {
    "Y": "bold yellow",
    "B": "bold blue",
    "W": "bold white",
    "G": "bold green",
    "R": "bold red",
    "P": "bold magenta",
}
"""Rich style of each expedition colour."""

SEAT_NAMES = {"en": ("You", "Opponent"), "ru": ("Вы", "Соперник")}

_TEXT: dict[str, dict[str, str]] = {
    "en": {
        "title": "Lost Cities — round {round} of {rounds}",
        "colors": "yellow blue white green red purple",
        "you": "You",
        "opp": "Opponent",
        "discards": "Discards",
        "stall": "{n} turn(s) in a row without a draw-pile card (round ends at 100, LC-5)",
        "hand": "Your hand",
        "opp_known": "known (taken from discard piles): {cards}",
        "phase_play": "Your turn — play phase: place a card on an expedition or discard one (LC-3)",
        "phase_draw": "Your turn — draw phase: take the top of the draw pile or of a discard pile (LC-4)",
        "banned": "You may not take from the {color} pile: you discarded onto it this turn (LC-4)",
        "waiting": "Opponent's turn ({phase} phase)",
        "phase_name_play": "play",
        "phase_name_draw": "draw",
        "over": "The match is over",
        "starts_you": "You started this round",
        "starts_opp": "Opponent started this round",
        "scores": "Match: you {you} — opponent {opp}",
        "round_points": "This round so far: you {you} — opponent {opp}",
        "summary": "Finished rounds",
        "round": "Round",
        "total": "Total",
        "last": "Last moves: {moves}",
        "empty": "—",
        "round_end": "Round {n} is over: you {you}, opponent {opp}.",
        "next": "You start round {n}.|Opponent starts round {n}.",
        "match_end": "Match over — you {you}, opponent {opp}: {verdict}",
        "win": "you win!",
        "lose": "you lose.",
        "draw": "a draw.",
    },
    "ru": {
        "title": "Затерянные города — раунд {round} из {rounds}",
        "colors": "жёлтая синяя белая зелёная красная фиолетовая",
        "you": "Вы",
        "opp": "Соперник",
        "discards": "Сброс",
        "stall": "{n} ход(ов) подряд без карты из колоды (раунд кончится на 100, LC-5)",
        "hand": "Ваша рука",
        "opp_known": "известны (взяты из сброса): {cards}",
        "phase_play": "Ваш ход — выложите карту в экспедицию или сбросьте её (LC-3)",
        "phase_draw": "Ваш ход — возьмите карту из колоды или верхнюю из стопки сброса (LC-4)",
        "banned": "Из стопки «{color}» брать нельзя: вы сбросили туда в этот ход (LC-4)",
        "waiting": "Ход соперника ({phase})",
        "phase_name_play": "выкладывает или сбрасывает карту",
        "phase_name_draw": "берёт карту",
        "over": "Партия окончена",
        "starts_you": "Этот раунд начали вы",
        "starts_opp": "Этот раунд начал соперник",
        "scores": "Счёт партии: вы {you} — соперник {opp}",
        "round_points": "В этом раунде: вы {you} — соперник {opp}",
        "summary": "Сыгранные раунды",
        "round": "Раунд",
        "total": "Итого",
        "last": "Последние ходы: {moves}",
        "empty": "—",
        "round_end": "Раунд {n} окончен: вы {you}, соперник {opp}.",
        "next": "Вы начинаете раунд {n}.|Соперник начинает раунд {n}.",
        "match_end": "Партия окончена — вы {you}, соперник {opp}: {verdict}",
        "win": "вы победили!",
        "lose": "вы проиграли.",
        "draw": "ничья.",
    },
}


def _texts(lang: str) -> dict[str, str]:
    return _TEXT.get(lang, _TEXT["en"])


def _color_word(letter: str, lang: str) -> str:
    words = _texts(lang)["colors"].split()
    return words[COLOR_LETTERS.index(letter)]


def card_text(name: str) -> Text:
    """A card's canonical name (``Y7``, ``Rw``) in its expedition's colour."""
    return Text(name, style=COLOR_STYLES.get(name[:1], ""))


def _cards(names: list[str], *, short: bool = False) -> Text:
    out = Text()
    for i, name in enumerate(names):
        if i:
            out.append(" ")
        label = name[1:] if short else name
        out.append(label, style=COLOR_STYLES.get(name[:1], ""))
    return out


def _board(view: dict[str, Any], t: dict[str, str], lang: str) -> Table:
    me = view["player"]
    opp = 1 - me
    letters: list[str] = view["colors"]
    table = Table(show_header=True, header_style="bold", expand=False, pad_edge=False)
    table.add_column("", no_wrap=True)
    for letter in letters:
        table.add_column(Text(_color_word(letter, lang), style=COLOR_STYLES[letter]), justify="center", min_width=9)
    table.add_column("", justify="right")
    scores = view["expedition_scores"]

    def expedition_row(seat: int, label: str) -> list[RenderableType]:
        cells: list[RenderableType] = [Text(label, style="bold")]
        for c, letter in enumerate(letters):
            names = view["expeditions"][seat][letter]
            cell = _cards(names, short=True) if names else Text(t["empty"], style="dim")
            if names:
                cell.append(f"\n({scores[seat][c]:+d})", style="dim")
            cells.append(cell)
        cells.append(Text(f"{sum(scores[seat]):+d}", style="bold"))
        return cells

    table.add_row(*expedition_row(opp, t["opp"]))
    pile_cells: list[RenderableType] = [Text(t["discards"], style="bold")]
    for letter in letters:
        pile = view["discards"][letter]
        if pile:
            cell = card_text(pile[-1])
            cell.append(f" ({len(pile)})", style="dim")
        else:
            cell = Text("·", style="dim")
        if view["banned"] == letter and view["current_player"] == me:
            cell.append(" ✗", style="bold red")
        pile_cells.append(cell)
    pile_cells.append(Text(f"⧉ {view['draw_pile']}", style="bold cyan"))
    table.add_row(*pile_cells, end_section=True)
    table.add_row(*expedition_row(me, t["you"]))
    return table


def _summary(view: dict[str, Any], t: dict[str, str]) -> Table | None:
    summaries = view["round_summaries"]
    if not summaries:
        return None
    me = view["player"]
    letters: list[str] = view["colors"]
    table = Table(title=t["summary"], show_header=True, header_style="bold", pad_edge=False)
    table.add_column(t["round"])
    table.add_column("")
    for letter in letters:
        table.add_column(Text(letter, style=COLOR_STYLES[letter]), justify="right")
    table.add_column(t["total"], justify="right")
    for s in summaries:
        for seat, label in ((me, t["you"]), (1 - me, t["opp"])):
            per = s["expedition_scores"][seat]
            table.add_row(str(s["round"]) if seat == me else "", label, *[str(x) for x in per],
                          Text(str(s["scores"][seat]), style="bold"))
    return table


def render(view: dict[str, Any], *, lang: str = "en") -> RenderableType:
    """The table as the seat of ``view`` sees it."""
    t = _texts(lang)
    me = view["player"]
    opp = 1 - me
    parts: list[RenderableType] = []
    title = Text(t["title"].format(round=view["round"], rounds=view["rounds"]), style="bold underline")
    title.append("   ")
    title.append(t["starts_you"] if view["starter"] == me else t["starts_opp"], style="dim")
    parts.append(title)
    totals = view["scores"]
    line = Text(t["scores"].format(you=totals[me], opp=totals[opp]), style="bold")
    if view["round_scores"]:
        rounds = ", ".join(f"{r[me]}:{r[opp]}" for r in view["round_scores"])
        line.append(f"   ({rounds})", style="dim")
    parts.append(line)
    parts.append(_board(view, t, lang))
    points = view["expedition_scores"]
    parts.append(Text(t["round_points"].format(you=sum(points[me]), opp=sum(points[opp])), style="dim"))
    parts.append(Text(message("count.draw_pile", lang, n=view["draw_pile"])))
    if view["turns_without_deck_draw"] >= 20:
        parts.append(Text(t["stall"].format(n=view["turns_without_deck_draw"]), style="yellow"))
    opp_line = Text(message("count.opponent_hand", lang, n=view["opponent_hand_size"]))
    if view["opponent_known"]:
        opp_line.append("; " + t["opp_known"].format(cards=""))
        opp_line.append_text(_cards(view["opponent_known"]))
    parts.append(opp_line)
    hand = Text(t["hand"] + ": ", style="bold")
    for i, name in enumerate(view["hand"], start=1):
        hand.append(f"{i}:", style="dim")
        hand.append_text(card_text(name))
        hand.append("  ")
    parts.append(hand)
    if view["phase"] == "over":
        parts.append(Text(t["over"], style="bold"))
    elif view["current_player"] == me:
        parts.append(Text(t["phase_play"] if view["phase"] == "play" else t["phase_draw"], style="bold cyan"))
        if view["phase"] == "draw" and view["banned"]:
            parts.append(Text(t["banned"].format(color=_color_word(view["banned"], lang)), style="red"))
    else:
        parts.append(Text(t["waiting"].format(phase=t[f"phase_name_{view['phase']}"]), style="dim"))
    log = view["log"][-4:]
    if log:
        moves = "; ".join(
            move_line(e["action"], e["player"] == me, e.get("card") if e["action"] != "draw deck" else None, lang)
            for e in log
        )
        parts.append(Text(t["last"].format(moves=moves), style="dim"))
    summary = _summary(view, t)
    if summary is not None:
        parts.append(summary)
    return Group(*parts)


def move_line(action: str, you: bool, card: str | None, lang: str) -> str:
    """``"Вы сбросили G8"``, ``"Opponent takes B7 from the blue discard pile"``: one move
    (its notation ``action``; ``card`` the card taken from a discard pile, if known) as the
    shared catalog's ``event.lost-cities.*`` message after the mover's name."""
    t = _texts(lang)
    person = "you" if you else "other"

    def said(key: str, **values: Any) -> str:
        return f"{t['you'] if you else t['opp']} {message(f'event.lost-cities.{key}', lang, person=person, **values)}"

    words = action.split()
    verb, arg = words[0], words[-1]
    if verb in ("play", "discard"):
        return said(verb, card=arg)
    if arg == "deck":
        return said("draw_deck")
    colour = _color_word(arg, lang)
    return said("take", card=card, colour=colour) if card else said("take_top", colour=colour)


def describe(event: Event, view: dict[str, Any], *, lang: str = "en") -> str:
    """One line announcing ``event`` to the seat of ``view`` (the view after the event).

    The move itself is the shared catalog's ``event.lost-cities.*`` message (the one the
    browser's log shows), after the mover's name."""
    t = _texts(lang)
    me = view["player"]
    taken = next((d.card for d in event.details if isinstance(d, CardDrawn)), None)
    line = move_line(event.text, event.player == me, taken, lang)
    if any(isinstance(d, RoundEnded) for d in event.details):
        line += _round_end(view, t)
    return line


def _round_end(view: dict[str, Any], t: dict[str, str]) -> str:
    """The round's result, then who starts the next round or how the match ended."""
    me = view["player"]
    line = ""
    summaries = view["round_summaries"]
    if summaries:
        last = summaries[-1]
        line += ". " + t["round_end"].format(n=last["round"], you=last["scores"][me], opp=last["scores"][1 - me])
    if view["phase"] == "over":
        totals = view["scores"]
        mine, theirs = totals[me], totals[1 - me]
        verdict = t["win"] if mine > theirs else t["lose"] if mine < theirs else t["draw"]
        return line + " " + t["match_end"].format(you=mine, opp=theirs, verdict=verdict)
    person = 0 if view["starter"] == me else 1
    return line + " " + t["next"].split("|")[person].format(n=view["round"])


KEYS = KeyScheme(
    numbered={"play": ("", "hand"), "discard": ("x", "hand")},
    named={"draw deck": "d", **{f"draw {letter}": f"d{letter.lower()}" for letter in COLOR_LETTERS}},
    legend={
        "en": "Keys: 1–{n} play that hand card · x1–x{n} discard it · d draw pile · "
              "dy db dw dg dr dp take the top of that colour's discard pile",
        "ru": "Клавиши: 1–{n} — выложить эту карту · x1–x{n} — сбросить её · d — взять из колоды · "
              "dy db dw dg dr dp — взять верхнюю карту из стопки сброса этого цвета",
    },
)
"""The terminal's keys (:mod:`cardtable.console.keys`): a number always plays that card."""


def move_text(action: str, lang: str) -> str:
    """A legal move's notation (``"draw Y"``) as the terminal lists it in ``lang``: the
    shared catalog's ``move.lost-cities.*`` message (in English, the notation itself)."""
    verb, _, arg = action.partition(" ")
    if verb in ("play", "discard"):
        return message(f"move.lost-cities.{verb}", lang, card=arg)
    if arg == "deck":
        return message("move.lost-cities.draw_deck", lang)
    return message("move.lost-cities.draw_pile", lang, letter=arg, colour=_color_word(arg, lang))
