"""Terminal presentation of Ранг (Rank): the table as one seat sees it (RG-9).

:func:`render` draws a seat's view with :mod:`rich`: the top card and the end of
the pile, the stock count, who holds how many cards (and who is out, in what
order), the chain of plays in the current turn, a pull-back decided at the start
of this turn (RG-6) and Anti-Rank (RG-8) announced in words, then the seat's hand
sorted by rank and numbered, the cards it may play now marked.  :func:`describe`
announces one event in a line, never naming a card another player drew.
``lang="ru"`` gives the whole interface in Russian.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cardtable.cards import FRENCH_PRETTY, parse_french
from cardtable.games.rank import playable
from cardtable.console.keys import KeyScheme
from cardtable.i18n import message
from cardtable.protocol import Event

SUIT_STYLES = ("bold", "bold red", "bold red", "bold")
"""Rich style by suit index (clubs, diamonds, hearts, spades); the joker is magenta."""
JOKER_STYLE = "bold magenta"
PILE_SHOWN = 12

_TEXT: dict[str, dict[str, str]] = {
    "en": {
        "title": "Ранг (Rank) — {n} players, {packs} — round 1",
        "packs1": "one pack of 54",
        "packs2": "two packs of 54",
        "top": "Top card",
        "pile": "Pile ({n}): ",
        "stock": "Stock: {n}",
        "players": "Players",
        "seat": "Seat",
        "cards": "Cards",
        "status": "Status",
        "in": "in the game",
        "out": "out ({place})",
        "moving": "to move",
        "dealer": "dealer",
        "loser": "stays in Rank — loses",
        "chain": "{who}'s turn so far: ",
        "chain/you": "Your turn so far: ",
        "chain_none": "{who}'s turn: no plays yet",
        "chain_none/you": "Your turn: no plays yet",
        "drew": " (drew {n})",
        "hand": "Your hand ({n})",
        "hand_empty": "Your hand is empty",
        "mark": "▲ = may be played now (RG-4)",
        "pull_back": "{who} played their last card; {by} could play, so {who_lc} drew {cards} and is back in the game (RG-6)",
        "pull_back/you": "You played your last card; {by} could play, so you drew {cards} and are back in the game (RG-6)",
        "pull_back/by_you": "{who} played their last card; you could play, so {who_lc} drew {cards} and is back in the game (RG-6)",
        "pull_out": "{who} played their last card; {by} could not play, so {who_lc} is out (RG-6)",
        "pull_out/you": "You played your last card; {by} could not play, so you are out (RG-6)",
        "pull_out/by_you": "{who} played their last card; you could not play, so {who_lc} is out (RG-6)",
        "anti": "ANTI-RANK declared by {who_lc}: nobody could play — play any one card, then the turn passes (RG-8)",
        "over": "Game over: {who} stays in Rank. Out in order: {order}",
        "scores": "Scores: {scores}",
        "you": "You",
        "you_lc": "you",
        "seat_name": "Seat {s}",
        "seat_lc": "seat {s}",
        "turn": "{who} to move",
        "turn/you": "your move",
    },
    "ru": {
        "title": "Ранг — игроков: {n}, {packs} — раунд 1",
        "packs1": "одна колода из 54 карт",
        "packs2": "две колоды по 54 карты",
        "top": "Верхняя карта",
        "pile": "Куча сброса ({n}): ",
        "stock": "В колоде: {n}",
        "players": "Игроки",
        "seat": "Игрок",
        "cards": "Карт",
        "status": "Положение",
        "in": "в игре",
        "out": "вышел ({place})",
        "moving": "ходит",
        "dealer": "сдатчик",
        "loser": "остался в Ранге — проиграл",
        "chain": "{who} сбросил за этот ход: ",
        "chain/you": "Вы сбросили за этот ход: ",
        "chain_none": "{who} ещё ничего не сбросил за этот ход",
        "chain_none/you": "Вы ещё ничего не сбросили за этот ход",
        "drew": " (взято из колоды: {n})",
        "hand": "Ваши карты ({n})",
        "hand_empty": "У вас нет карт",
        "mark": "▲ = можно положить сейчас (RG-4)",
        "pull_back": "{who} сбросил последнюю карту; {by_lc} смог сходить, поэтому {who_lc} берёт {cards} и возвращается в игру (RG-6)",
        "pull_back/you": "Вы сбросили последнюю карту; {by_lc} смог сходить, поэтому вы берёте {cards} и возвращаетесь в игру (RG-6)",
        "pull_back/by_you": "{who} сбросил последнюю карту; вы смогли сходить, поэтому {who_lc} берёт {cards} и возвращается в игру (RG-6)",
        "pull_out": "{who} сбросил последнюю карту; {by_lc} не смог сходить, поэтому {who_lc} выходит из игры (RG-6)",
        "pull_out/you": "Вы сбросили последнюю карту; {by_lc} не смог сходить, поэтому вы выходите из игры (RG-6)",
        "pull_out/by_you": "{who} сбросил последнюю карту; вы не смогли сходить, поэтому {who_lc} выходит из игры (RG-6)",
        "anti": "АНТИ-РАНГ объявил {who_lc}: никто не мог сходить — кладите любую карту, затем ход переходит (RG-8)",
        "anti/you": "АНТИ-РАНГ объявили вы: никто не мог сходить — кладите любую карту, затем ход переходит (RG-8)",
        "over": "Игра окончена: {who} — остаётся в Ранге. Порядок выхода: {order}",
        "scores": "Очки: {scores}",
        "you": "Вы",
        "you_lc": "вы",
        "seat_name": "Игрок {s}",
        "seat_lc": "игрок {s}",
        "turn": "ходит {who_lc}",
        "turn/you": "ваш ход",
    },
}


def _say(t: dict[str, str], key: str, *, you: bool = False, by_you: bool = False, **kw: Any) -> str:
    """The template ``key`` in the right person: ``/you`` when the subject is the viewer,
    ``/by_you`` when the other party is."""
    if you and key + "/you" in t:
        key += "/you"
    elif by_you and key + "/by_you" in t:
        key += "/by_you"
    return t[key].format(**kw)


def _n_cards(n: int, lang: str) -> str:
    """``3 cards`` / ``3 карты``: a count of cards in the accusative with its plural form."""
    return message("count.cards", lang, n=n)


def _t(lang: str) -> dict[str, str]:
    return _TEXT.get(lang, _TEXT["en"])


def _who(seat: int, viewer: int, lang: str, *, lower: bool = False) -> str:
    t = _t(lang)
    if seat == viewer:
        return t["you_lc" if lower else "you"]
    return t["seat_lc" if lower else "seat_name"].format(s=seat)


def _place(n: int, lang: str) -> str:
    if lang == "ru":
        return f"{n}-м"
    return f"{n}{'th' if 10 <= n % 100 < 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def card_text(name: str) -> Text:
    """A card name (``"10H"``, ``"JK"``) as coloured text with its suit symbol."""
    card = parse_french(name)
    style = JOKER_STYLE if card == 52 else SUIT_STYLES[card // 13]
    return Text(FRENCH_PRETTY[card], style=style)


def _cards_line(names: list[str], sep: str = " ") -> Text:
    out = Text()
    for i, name in enumerate(names):
        if i:
            out.append(sep)
        out.append_text(card_text(name))
    return out


def render(view: dict[str, Any], *, lang: str = "en") -> RenderableType:
    """The table as ``view["player"]`` sees it."""
    t = _t(lang)
    me = int(view["player"])
    n = int(view["players"])
    cur = int(view["current_player"])
    parts: list[RenderableType] = []

    top = Text(f"{t['top']}: ", style="bold")
    top.append_text(card_text(view["top"]))
    top.append("    ")
    top.append(t["stock"].format(n=view["stock"]), style="cyan")
    parts.append(top)
    pile = list(view["pile"])
    shown = pile[-PILE_SHOWN:]
    line = Text(t["pile"].format(n=len(pile)), style="dim")
    if len(pile) > len(shown):
        line.append("… ")
    line.append_text(_cards_line(shown))
    parts.append(line)

    parts.append(_seats(view, lang))

    pull = view.get("pull_back")
    if pull:
        who = int(pull["seat"])
        by = int(pull["by"]) if pull.get("by") is not None else cur
        key = "pull_back" if pull["event"] == "pull-back" else "pull_out"
        parts.append(Text(_say(
            t, key, you=who == me, by_you=by == me, who=_who(who, me, lang), who_lc=_who(who, me, lang, lower=True),
            by=_who(by, me, lang), by_lc=_who(by, me, lang, lower=True),
            cards=_n_cards(int(pull.get("cards", 0)), lang)), style="yellow"))
    anti = view["anti_rank"]
    if anti["active"]:
        by = int(anti["declared_by"])
        parts.append(Text(_say(t, "anti", you=by == me, who=_who(by, me, lang), who_lc=_who(by, me, lang, lower=True)),
                          style="bold magenta"))

    turn = view.get("turn")
    if turn:
        mover = int(turn["seat"])
        if turn["plays"]:
            chain = Text(_say(t, "chain", you=mover == me, who=_who(mover, me, lang)), style="bold")
            chain.append_text(_cards_line(list(turn["plays"]), " → "))
        else:
            chain = Text(_say(t, "chain_none", you=mover == me, who=_who(mover, me, lang)), style="dim")
        if turn.get("drew"):
            chain.append(t["drew"].format(n=turn["drew"]), style="dim")
        parts.append(chain)
    else:
        loser = view.get("loser")
        order = ", ".join(_who(s, me, lang) for s in view["finished"])
        parts.append(Text(t["over"].format(who=_who(int(loser), me, lang) if loser is not None else "?", order=order),
                          style="bold"))
        parts.append(Text(t["scores"].format(scores=view["scores"])))

    parts.extend(_hand_lines(view, lang))
    return Panel(Group(*parts), title=t["title"].format(n=n, packs=t["packs1" if view["packs"] == 1 else "packs2"]))


def _seats(view: dict[str, Any], lang: str) -> Table:
    """Every seat: its cards, whether it is out (and in which place), to move, the dealer."""
    t = _t(lang)
    me = int(view["player"])
    n = int(view["players"])
    cur = int(view["current_player"])
    table = Table(title=t["players"], show_edge=False, pad_edge=False)
    table.add_column(t["seat"])
    table.add_column(t["cards"], justify="right")
    table.add_column(t["status"])
    finished = list(view["finished"])
    for s in range(n):
        status: list[str] = []
        if s in finished:
            status.append(t["out"].format(place=_place(finished.index(s) + 1, lang)))
        elif view.get("loser") == s:
            status.append(t["loser"])
        else:
            status.append(t["in"])
        if s == cur:
            status.append(t["moving"])
        if s == view["dealer"]:
            status.append(t["dealer"])
        name = _who(s, me, lang)
        style = "bold green" if s == cur else ("dim" if s in finished else "")
        table.add_row(Text(name, style=style), str(view["hand_sizes"][s]), ", ".join(status))
    return table


def _hand_lines(view: dict[str, Any], lang: str) -> list[RenderableType]:
    """The hand of the seat of ``view``, its playable cards marked when it is to move."""
    t = _t(lang)
    me = int(view["player"])
    cur = int(view["current_player"])
    hand = list(view["hand"])
    if hand:
        kinds = [parse_french(c) for c in hand]
        ok: set[int] = set()
        if cur == me:
            ok = set(kinds) if view["anti_rank"]["active"] else set(playable(kinds, parse_french(view["top"])))
        line = Text(t["hand"].format(n=len(hand)) + ": ", style="bold")
        for i, (name, kind) in enumerate(zip(hand, kinds), start=1):
            line.append(f" {i}:", style="dim")
            line.append_text(card_text(name))
            if kind in ok:
                line.append("▲", style="bold green")
        return [line, Text(t["mark"], style="dim")] if ok else [line]
    return [Text(t["hand_empty"], style="dim")]


def describe(event: Event, view: dict[str, Any], *, lang: str = "en") -> str:
    """One line announcing ``event`` to ``view["player"]`` (``view`` is after the event):
    each log entry of the move as the shared catalog's ``event.rank.*`` / ``note.rank.*``
    message (the ones the browser's log shows), the move's own entries after the mover."""
    t = _t(lang)
    me = int(view["player"])
    lines = [_entry_line(e, me, lang) for e in view["log"] if e["move"] == view["moves"]]
    lines = [line for line in lines if line]
    if not lines:
        lines.append(f"{_who(event.player, me, lang)}: {event.text}")
    cur = view["current_player"]
    if isinstance(cur, int) and cur >= 0 and cur != event.player:
        lines.append(_say(t, "turn", you=cur == me, who=_who(cur, me, lang), who_lc=_who(cur, me, lang, lower=True)))
    line = "; ".join(lines)
    return line[:1].upper() + line[1:]


_MOVES = {"play": "event.rank.play", "draw": "event.rank.drew", "pass": "event.rank.pass"}
_NOTES = {"pull-back": "note.rank.pull", "out": "note.rank.out", "anti-rank": "note.rank.anti",
          "anti-rank over": "note.rank.anti_over", "loses": "note.rank.lose"}


def _entry_line(entry: dict[str, Any], me: int, lang: str) -> str:
    """One log entry of Ранг's view (``{"event": "play", "seat": 2, ...}``) in words."""
    kind = entry["event"]
    seat = int(entry["seat"])
    by = entry.get("by")
    params: dict[str, Any] = {
        "person": "you" if seat == me else "other", "who": _who(seat, me, lang, lower=True),
        "by_person": "stock" if by is None else "you" if int(by) == me else "other",
        "by": "" if by is None else _who(int(by), me, lang, lower=True),
        "anti": "yes" if entry.get("anti_rank") else "no", "playable": "yes" if entry.get("played") else "no",
        "n": int(entry.get("cards", 0)), "place": entry.get("place", ""),
    }
    if kind in _NOTES:
        return message(_NOTES[kind], lang, **params)
    if kind not in _MOVES:
        return ""
    key = _MOVES[kind]
    if kind == "draw" and "card" in entry:
        key, params["card"] = "event.rank.drew_card", FRENCH_PRETTY[parse_french(entry["card"])]
    elif kind == "play":
        params["card"] = FRENCH_PRETTY[parse_french(entry["card"])]
    return f"{_who(seat, me, lang)} {message(key, lang, **params)}"


KEYS = KeyScheme(
    numbered={"play": ("", "hand")},
    named={"draw": "d", "pass": "p"},
    legend={
        "en": "Keys: 1–{n} play that card · d draw from the stock · p pass",
        "ru": "Клавиши: 1–{n} — положить эту карту · d — взять из колоды · p — пас",
    },
)
"""The terminal's keys (:mod:`cardtable.console.keys`): a number always plays that card."""

VERDICTS = ("rank_out", "rank_lose", "rank_out")
"""The final verdict (:data:`cardtable.console.play.VERDICTS`): nobody wins Ранг — one
player stays in Rank and loses, every other player is out (RG-7)."""

def move_text(action: str, lang: str) -> str:
    """A legal move's notation (``"play 10H"``) as the terminal lists it in ``lang``: the
    shared catalog's ``move.rank.*`` message (in English, the notation itself)."""
    verb, _, arg = action.partition(" ")
    if verb == "play":
        return message("move.rank.play", lang, card=arg, pretty=FRENCH_PRETTY[parse_french(arg)])
    return message(f"move.rank.{verb}", lang)
