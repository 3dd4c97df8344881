"""Terminal presentation of Lost Ranks: the table as one seat sees it (LR-20).

:func:`render` draws a seat's view with :mod:`rich`: the round and the armies' scores,
the battlefield (Trump Card, trump suit, active Lost Soldiers), the current trick with
who led it and who plays what (and, with 2 players, from which source), the last
trick, the soldiers and cards captured by each army, the discards, the seat's hand
sorted by suit and — Command of Two — its phantom deck in order with face-up markers,
the opponent's phantom deck (size and face-up cards) and the two drawn cards during a
draw-two.  Seats are named from the viewer: You / West / Partner / East (4 players),
You / Opponent (2 players).  :func:`describe` announces one event in a line and never
names a hidden card.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from cardtable.cards import parse_french, pretty_french
from cardtable.games.lost_ranks import CardFaceUp, CardPlayed, MatchEnded, NoWinnerTrick, PhantomDrawn, RoundEnded, TrickWon
from cardtable.console.keys import KeyScheme
from cardtable.i18n import message
from cardtable.protocol import Event

SEAT_NAMES = {
    "en": {4: ("You", "West", "Partner", "East"), 2: ("You", "Opponent")},
    "ru": {4: ("Вы", "Запад", "Партнёр", "Восток"), 2: ("Вы", "Соперник")},
}
"""Seat names relative to the viewer (clockwise from the viewer)."""

SUIT_STYLES = ("bold white", "bold red", "bold red", "bold white")
"""Rich style per suit (clubs, diamonds, hearts, spades)."""
SPY_STYLE = "bold magenta"
ARMY_STYLES = {"red": "bold red", "black": "bold white"}

_TEXT: dict[str, dict[str, str]] = {
    "en": {
        "title": "Lost Ranks — round {round}",
        "tiebreak": " (tiebreaker {n})",
        "of": " of {n}",
        "target": "first to {n}",
        "dealer": "dealer: {who}",
        "army": "{army} army",
        "red": "Red",
        "black": "Black",
        "scores": "Scores",
        "this_round": "this round so far",
        "trump": "Trump Card {card} — trump suit {suit}",
        "active": "Active soldiers: {cards}",
        "trick": "Trick {n} of {of}",
        "leads": "{who} leads",
        "leads_you": "you lead",
        "wins_you": "you won it",
        "led": "led suit: {suit}",
        "no_trick": "no card played yet",
        "last": "Last trick: {cards} — {result}",
        "wins": "{who} won it",
        "nobody": "no winner, discarded",
        "captured": "Captured",
        "tricks": "{n} trick(s)",
        "soldiers": "soldiers",
        "cards": "{n} card(s)",
        "discards": "Discarded: {cards}",
        "hand": "Your hand",
        "sizes": "Cards in hand",
        "phantom": "Your phantom deck (top first, ^ = face up)",
        "opp_phantom": "{who}'s phantom deck: {n} card(s)",
        "face_up": "face up: {cards}",
        "drawn_you": "You drew {cards} — choose one to play (the other goes face up to the bottom)",
        "drawn_opp": "{who} drew {cards} from the phantom deck",
        "hidden": "?",
        "your_turn_lead": "Your lead",
        "your_turn_follow": "Your turn to follow",
        "source": "you must play from your {source}",
        "waiting": "Waiting for {who}",
        "over": "The match is over: {result}",
        "won": "{army} wins",
        "draw": "a draw",
        "voids": "Known voids: {list}",
        "hand_src": "hand",
        "phantom_src": "phantom",
        "first_lead": "First lead of the round: {card} (LR-6)",
    },
    "ru": {
        "title": "Пропавшие солдаты — раунд {round}",
        "tiebreak": " (дополнительный {n})",
        "of": " из {n}",
        "target": "до {n} очков",
        "dealer": "сдаёт: {who}",
        "army": "армия: {army}",
        "red": "Красные",
        "black": "Чёрные",
        "scores": "Счёт",
        "this_round": "в этом раунде",
        "trump": "Козырная карта {card} — козырь {suit}",
        "active": "Активные солдаты: {cards}",
        "trick": "Взятка {n} из {of}",
        "leads": "ходит {who}",
        "leads_you": "ваш заход",
        "wins_you": "взяли вы",
        "led": "масть хода: {suit}",
        "no_trick": "карт ещё нет",
        "last": "Прошлая взятка: {cards} — {result}",
        "wins": "взял {who}",
        "nobody": "никто не взял, сброшена",
        "captured": "Взято",
        "tricks": "взяток: {n}",
        "soldiers": "солдаты",
        "cards": "карт: {n}",
        "discards": "Сброшено: {cards}",
        "hand": "Ваша рука",
        "sizes": "Карт на руках",
        "phantom": "Ваша фантомная колода (сверху вниз, ^ — открытая)",
        "opp_phantom": "Фантомная колода ({who}): {n} карт",
        "face_up": "открыты: {cards}",
        "drawn_you": "Вы вытянули {cards} — выберите карту (вторая ляжет открытой вниз колоды)",
        "drawn_opp": "{who} тянет {cards} из фантомной колоды",
        "hidden": "?",
        "your_turn_lead": "Ваш заход",
        "your_turn_follow": "Ваш ход",
        "source": "играйте из: {source}",
        "waiting": "Ждём: {who}",
        "over": "Партия окончена: {result}",
        "won": "победа: {army}",
        "draw": "ничья",
        "voids": "Известно, что нет масти: {list}",
        "hand_src": "руки",
        "phantom_src": "фантома",
        "first_lead": "Первый заход раунда: {card} (LR-6)",
    },
}
_SUITS = {
    "en": {"clubs": "♣ clubs", "diamonds": "♦ diamonds", "hearts": "♥ hearts", "spades": "♠ spades"},
    "ru": {"clubs": "♣ трефы", "diamonds": "♦ бубны", "hearts": "♥ червы", "spades": "♠ пики"},
}


def _t(lang: str) -> dict[str, str]:
    return _TEXT.get(lang, _TEXT["en"])


def _say(view: dict[str, Any], key: str, seat: int, lang: str, **fields: str) -> str:
    """``key`` said of ``seat``: the ``key_you`` form when the seat is the viewer."""
    t = _t(lang)
    if seat == int(view["player"]) and key + "_you" in t:
        return t[key + "_you"].format(**fields)
    return t[key].format(who=seat_name(view, seat, lang), **fields)


def seat_name(view: dict[str, Any], seat: int, lang: str = "en") -> str:
    """The name of ``seat`` as the viewer of ``view`` calls it."""
    n = int(view["players"])
    names = SEAT_NAMES.get(lang, SEAT_NAMES["en"])[n]
    return names[(seat - int(view["player"])) % n]


def card_text(name: str | None, lang: str = "en") -> Text:
    """A card in its suit colour (``10♥``; the Spy as ``Spy``; a hidden card as ``?``)."""
    if name is None:
        return Text(_t(lang)["hidden"], style="dim")
    card = parse_french(name)
    if card == 52:
        return Text(message("card.spy", lang), style=SPY_STYLE)
    return Text(pretty_french(card), style=SUIT_STYLES[card // 13])


def _cards(names: list[Any], lang: str = "en", sep: str = " ") -> Text:
    out = Text()
    for i, name in enumerate(names):
        if i:
            out.append(sep)
        out.append_text(card_text(name, lang))
    return out


def _army(view: dict[str, Any], army: str, lang: str) -> Text:
    t = _t(lang)
    label = t[army]
    seats = [s for s, a in enumerate(view["armies"]) if a == army]
    who = " & ".join(seat_name(view, s, lang) for s in seats)
    return Text(f"{label} ({who})", style=ARMY_STYLES[army])


def _hand(view: dict[str, Any], lang: str) -> Text:
    """The hand sorted by suit, each card numbered as the play loop's quick keys are."""
    out = Text()
    previous = None
    for i, name in enumerate(view["hand"], start=1):
        card = parse_french(name)
        suit = 4 if card == 52 else card // 13
        if previous is not None:
            out.append("   " if suit != previous else " ")
        previous = suit
        out.append(f"{i}:", style="dim")
        out.append_text(card_text(name, lang))
    return out


def render(view: dict[str, Any], *, lang: str = "en") -> RenderableType:
    """The table as the seat of ``view`` sees it."""
    t = _t(lang)
    suits = _SUITS.get(lang, _SUITS["en"])
    me = int(view["player"])
    n = int(view["players"])
    parts: list[RenderableType] = [_title(view, lang), _scores(view, lang)]

    battle = Text("")
    battle.append(t["trump"].split("{card}")[0])
    battle.append_text(card_text(view["trump_card"], lang))
    battle.append(t["trump"].split("{card}")[1].format(suit=suits[view["trump_suit"]]), style="bold")
    battle.append("   ")
    battle.append(t["active"].split("{cards}")[0])
    battle.append_text(_cards(view["active_soldiers"], lang))
    parts.append(battle)

    if view["phase"] != "over":
        parts.append(_trick_table(view, lang))
    last = view["last_trick"]
    if last and view["trick"] == []:
        cards = Text()
        for i, e in enumerate(last["trick"]):
            if i:
                cards.append(", ")
            cards.append(seat_name(view, e["seat"], lang) + " ")
            cards.append_text(card_text(e["card"], lang))
        result = t["nobody"] if last["winner"] is None else _say(view, "wins", last["winner"], lang)
        line = Text(t["last"].split("{cards}")[0], style="dim")
        line.append_text(cards)
        line.append(t["last"].split("{cards}")[1].format(result=result), style="dim")
        parts.append(line)

    parts.append(_captures(view, lang))
    if view["discards"]:
        line = Text(t["discards"].split("{cards}")[0], style="dim")
        line.append_text(_cards(view["discards"], lang))
        parts.append(line)

    sizes = ", ".join(f"{seat_name(view, s, lang)} {k}" for s, k in enumerate(view["hand_sizes"]) if s != me)
    parts.append(Text(f"{t['sizes']}: {sizes}", style="dim"))
    voids = [
        f"{seat_name(view, s, lang)} {' '.join(suits[w].split()[0] for w in v)}"
        for s, v in enumerate(view["voids"])
        if v and s != me
    ]
    if voids:
        parts.append(Text(t["voids"].format(list="; ".join(voids)), style="dim"))

    if n == 2:
        parts.extend(_phantoms(view, lang))

    hand = Text(t["hand"] + ": ", style="bold")
    hand.append_text(_hand(view, lang))
    parts.append(hand)

    parts.append(_turn_line(view, lang))
    return Group(*parts)


def _title(view: dict[str, Any], lang: str) -> Text:
    """The round (of how many), the tiebreak, the target and the dealer."""
    t = _t(lang)
    title = Text(t["title"].format(round=view["round"]), style="bold underline")
    if view["max_rounds"] and int(view["players"]) == 2:
        title.append(t["of"].format(n=view["max_rounds"]), style="bold underline")
    if view["tiebreak_round"]:
        title.append(t["tiebreak"].format(n=view["tiebreak_round"]), style="bold yellow")
    title.append("   ")
    if view["target"]:
        title.append(t["target"].format(n=view["target"]) + " · ", style="dim")
    title.append(t["dealer"].format(who=seat_name(view, int(view["dealer"]), lang)), style="dim")
    return title


def _scores(view: dict[str, Any], lang: str) -> Table:
    """Each army's match score, this round's points and its past rounds."""
    t = _t(lang)
    scores = Table.grid(padding=(0, 2))
    scores.add_column()
    scores.add_column(justify="right")
    scores.add_column(justify="right")
    for army in ("red", "black"):
        past = " ".join(str(r) for r in _army_rounds(view, army))
        scores.add_row(
            _army(view, army, lang),
            Text(str(view["army_scores"][army]), style="bold"),
            Text(f"+{view['round_points'][army]} {t['this_round']}" + (f"   [{past}]" if past else ""), style="dim"),
        )
    return scores


def _captures(view: dict[str, Any], lang: str) -> Table:
    """Each army's tricks, captured cards and captured soldiers."""
    t = _t(lang)
    cap = Table(show_header=True, header_style="bold", pad_edge=False, box=None, padding=(0, 2))
    cap.add_column(t["captured"])
    cap.add_column("")
    cap.add_column(t["soldiers"])
    for army in ("red", "black"):
        pile = view["captured"][army]
        soldiers = [c for c in pile if c == "JK" or c.startswith("J")]
        cap.add_row(
            _army(view, army, lang),
            Text(f"{t['tricks'].format(n=view['tricks_won'][army])}, {t['cards'].format(n=len(pile))}", style="dim"),
            _cards(soldiers, lang) if soldiers else Text("—", style="dim"),
        )
    return cap


def _turn_line(view: dict[str, Any], lang: str) -> Text:
    """The result, or whose turn it is (and for the seat of ``view``, what it must play)."""
    t = _t(lang)
    if view["phase"] == "over":
        result = t["won"].format(army=t[view["winner"]]) if view["winner"] else t["draw"]
        return Text(t["over"].format(result=result), style="bold")
    if view["current_player"] == int(view["player"]):
        line = Text(t["your_turn_lead"] if view["phase"] == "lead" else t["your_turn_follow"], style="bold cyan")
        if view["first_lead"]:
            line.append("  " + t["first_lead"].split("{card}")[0], style="cyan")
            line.append_text(card_text(view["first_lead"], lang))
            line.append(t["first_lead"].split("{card}")[1], style="cyan")
        if int(view["players"]) == 2 and view["phase"] == "follow":
            src = _required_source(view)
            line.append("  (" + t["source"].format(source=t[src + "_src"]) + ")", style="cyan")
        return line
    return Text(t["waiting"].format(who=seat_name(view, int(view["current_player"]), lang)), style="dim")


def _army_rounds(view: dict[str, Any], army: str) -> list[int]:
    seat = view["armies"].index(army)
    return [r[seat] for r in view["round_scores"]]


def _required_source(view: dict[str, Any]) -> str:
    me = int(view["player"])
    want = "phantom" if view["lead_source"] == "hand" else "hand"
    if want == "hand" and view["hand_sizes"][me] == 0:
        return "phantom"
    if want == "phantom" and view["phantom_sizes"][me] == 0:
        return "hand"
    return want


def _trick_table(view: dict[str, Any], lang: str) -> RenderableType:
    t = _t(lang)
    suits = _SUITS.get(lang, _SUITS["en"])
    n = int(view["players"])
    head = Text(t["trick"].format(n=view["trick_number"], of=view["tricks_per_round"]), style="bold")
    trick = view["trick"]
    if trick:
        head.append("  · " + _say(view, "leads", trick[0]["seat"], lang), style="dim")
        if view["led_suit"]:
            head.append("  · " + t["led"].format(suit=suits[view["led_suit"]]), style="dim")
    else:
        head.append("  · " + _say(view, "leads", int(view["leader"]), lang), style="dim")
    table = Table.grid(padding=(0, 2))
    for _ in range(len(trick) or 1):
        table.add_column()
    if trick:
        names = []
        played = []
        for e in trick:
            label = seat_name(view, e["seat"], lang)
            if n == 2:
                label += f" ({t[e['source'] + '_src']})"
            names.append(Text(label, style="dim"))
            played.append(card_text(e["card"], lang))
        table.add_row(*names)
        table.add_row(*played)
    else:
        table.add_row(Text(t["no_trick"], style="dim"))
    return Group(head, table)


def _phantoms(view: dict[str, Any], lang: str) -> list[RenderableType]:
    t = _t(lang)
    me = int(view["player"])
    opp = 1 - me
    out: list[RenderableType] = []
    mine = Text(t["phantom"] + ": ", style="bold")
    for i, (name, up) in enumerate(zip(view["phantoms"][me], view["phantom_face_up"][me])):
        if i:
            mine.append(" ")
        mine.append_text(card_text(name, lang))
        if up:
            mine.append("^", style="yellow")
    if not view["phantoms"][me]:
        mine.append("—", style="dim")
    out.append(mine)
    theirs = Text(t["opp_phantom"].format(who=seat_name(view, opp, lang), n=view["phantom_sizes"][opp]))
    ups = [(i + 1, name) for i, (name, up) in enumerate(zip(view["phantoms"][opp], view["phantom_face_up"][opp])) if up]
    if ups:
        theirs.append("; " + t["face_up"].split("{cards}")[0])
        for k, (pos, name) in enumerate(ups):
            if k:
                theirs.append(" ")
            theirs.append(f"#{pos} ", style="dim")
            theirs.append_text(card_text(name, lang))
    out.append(theirs)
    drawn = view["drawn"]
    if drawn:
        pair = _cards(drawn["cards"], lang, sep=" + ")
        if drawn["player"] == me:
            pair = Text(" + ").join(Text.assemble((f"p{i}:", "dim"), card_text(name, lang))
                                    for i, name in enumerate(drawn["cards"], start=1))
            line = Text(t["drawn_you"].split("{cards}")[0], style="bold yellow")
            line.append_text(pair)
            line.append(t["drawn_you"].split("{cards}")[1], style="bold yellow")
        else:
            line = Text(t["drawn_opp"].split("{cards}")[0].format(who=seat_name(view, drawn["player"], lang)))
            line.append_text(pair)
            line.append(t["drawn_opp"].split("{cards}")[1])
        out.append(line)
    return out


def describe(event: Event, view: dict[str, Any], *, lang: str = "en") -> str:
    """One line announcing ``event`` to the viewer of ``view`` (the view after the event),
    from its typed details: the shared catalog's ``event.lost-ranks.*`` and
    ``note.lost-ranks.*`` messages, the ones the browser's log shows."""
    me = int(view["player"])

    def said(key: str, seat: int, **fields: str) -> str:
        return message(key, lang, person="you" if seat == me else "other", who=seat_name(view, seat, lang), **fields)

    parts: list[str] = []
    for d in event.details:
        if isinstance(d, CardPlayed):
            key = "play" if d.source == "hand" else "play_phantom"
            parts.append(f"{seat_name(view, d.seat, lang)} {said(f'event.lost-ranks.{key}', d.seat, card=_plain(d.card, lang))}")
        elif isinstance(d, PhantomDrawn):
            parts.append(f"{seat_name(view, d.seat, lang)} {said('event.lost-ranks.draw_two', d.seat)}")
        elif isinstance(d, CardFaceUp):
            parts.append(message("note.lost-ranks.face_up", lang, card=_plain(d.card, lang)))
        elif isinstance(d, TrickWon):
            parts.append(said("note.lost-ranks.trick_won", d.seat))
        elif isinstance(d, NoWinnerTrick):
            parts.append(message("note.lost-ranks.no_winner", lang))
        elif isinstance(d, RoundEnded):
            parts.append(message("note.lost-ranks.round_over", lang, n=d.round, red=d.points[0], black=d.points[1]))
        elif isinstance(d, MatchEnded):
            parts.append(message("note.lost-ranks.match_won", lang, army=d.winner) if d.winner
                         else message("note.lost-ranks.match_draw", lang))
    return " — ".join(parts)


def _plain(name: str, lang: str = "en") -> str:
    card = parse_french(name)
    if card == 52:
        return "Шпиона" if lang == "ru" else "the Spy"
    return pretty_french(card)


def _drawn_cards(view: Mapping[str, Any]) -> list[str]:
    drawn = view.get("drawn")
    if not drawn or drawn.get("player") != view.get("player"):
        return []
    return [str(card) for card in drawn["cards"]]


KEYS = KeyScheme(
    numbered={"play": ("", "hand"), "phantom": ("p", "drawn")},
    named={"draw two": "d"},
    sources={"drawn": _drawn_cards},
    legend={
        "en": "Keys: 1–{n} play that hand card · d draw two from your phantom deck · "
              "p1 p2 play that drawn card",
        "ru": "Клавиши: 1–{n} — сыграть эту карту из руки · d — взять две из фантомной колоды · "
              "p1 p2 — сыграть эту взятую карту",
    },
)
"""The terminal's keys (:mod:`cardtable.console.keys`): a number always plays that hand card."""


def move_text(action: str, lang: str) -> str:
    """A legal move's notation (``"phantom 5H"``) as the terminal lists it in ``lang``: the
    shared catalog's ``move.lost-ranks.*`` message (in English, the notation itself)."""
    verb, _, arg = action.partition(" ")
    if verb in ("play", "phantom"):
        return message(f"move.lost-ranks.{verb}", lang, card=arg, pretty=_plain(arg, lang))
    return message("move.lost-ranks.draw_two", lang)
