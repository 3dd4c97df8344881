"""The game protocol every cardtable game implements.

A :class:`Game` is a configured rule set (variant options are keyword-only
data); :meth:`Game.new_state` starts a whole match, deterministically from a
seed or from explicit deck orders.  A :class:`State` is OpenSpiel-like:

* :meth:`State.current_player` — a seat, or :data:`TERMINAL`;
* :meth:`State.legal_actions` — sorted ints in ``range(game.num_distinct_actions)``;
* :meth:`State.why_illegal` — ``None`` or a :class:`Refusal`: a message key, its
  parameters and the ruling it rests on (front ends render it in the player's language);
* :meth:`State.apply_action` / :meth:`State.undo_action` / :meth:`State.clone`;
* :meth:`State.is_terminal` / :meth:`State.returns` / :meth:`State.result`;
* :meth:`State.view` — exactly what one seat may know, as JSON-ready data;
* :meth:`State.public_view` — exactly what everybody may know (a spectator's view),
  contained in every seat's view (:func:`view_contains`);
* :meth:`State.resample` — a state whose hidden information is redrawn
  consistently with one seat's view (for search agents).

A match is exactly ``(game config, seed or decks, action list)``: replaying
the actions on a fresh state reproduces it.  Nothing uses global random state.
"""

from __future__ import annotations

import dataclasses
import random
import string
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final, NamedTuple

from cardtable.description import GameInfo

TERMINAL: Final = -4
"""``current_player()`` of a finished match (OpenSpiel's value)."""

JSON = Any
"""A JSON-serialisable value (dicts, lists, str, int, float, bool, None)."""


@dataclasses.dataclass(frozen=True)
class Refusal:
    """Why an action is illegal, as data: a message ``key``, its ``params`` and its ``rule``.

    ``key`` names one message of one game (``"lost-cities.wager_after_number"``);
    ``params`` are JSON values — card names (``"Y5"``), suit or colour words
    (``"hearts"``, ``"yellow"``), numbers, lists of card names — and ``rule`` is the
    ruling id the refusal rests on (``"LC-3"``), or ``None``.  Front ends render the
    record in the player's language from the catalog of :mod:`cardtable.i18n`;
    :attr:`message` is the English rendering (logs, errors, the command line),
    from the English ``template`` the game keeps for ``key``.

    >>> r = Refusal("demo.held", {"card": "Y5"}, "LC-3", template="you have no {card}")
    >>> r.message
    'you have no Y5 (LC-3)'
    >>> r.to_json()
    {'key': 'demo.held', 'params': {'card': 'Y5'}, 'rule': 'LC-3'}
    """

    key: str
    params: Mapping[str, JSON]
    rule: str | None
    template: str = dataclasses.field(default="", compare=False, repr=False)
    """The English template of ``key`` (``{name}`` placeholders), kept for :attr:`message`."""

    @property
    def message(self) -> str:
        """The English text, with the ruling id in parentheses."""
        return render_refusal(self.template or self.key, self.params, self.rule)

    def to_json(self) -> dict[str, JSON]:
        """``{"key", "params", "rule"}``: what a server sends and a client renders."""
        return {"key": self.key, "params": dict(self.params), "rule": self.rule}

    def __str__(self) -> str:
        return self.message


def render_refusal(template: str, params: Mapping[str, JSON], rule: str | None,
                   terms: Mapping[str, Mapping[str, str]] | None = None) -> str:
    """Fill a refusal ``template`` and append ``" (rule)"``.

    The template format (the catalog's, see :mod:`cardtable.i18n`): ``{name}`` is the
    parameter as it is (a list is joined with ``", "``); ``{name:form}`` is the word
    ``terms[value][form]`` — how a language declines a suit or colour word
    (``{suit:gen}`` → ``"червей"``).  ``{{`` and ``}}`` are literal braces.

    >>> render_refusal("follow {suit:acc}, not {cards}", {"suit": "hearts", "cards": ["7S", "8S"]}, "LR-7",
    ...                {"hearts": {"acc": "червы"}})
    'follow червы, not 7S, 8S (LR-7)'
    """
    out: list[str] = []
    for literal, name, form, _ in string.Formatter().parse(template):
        out.append(literal)
        if name is None:
            continue
        value = params[name]
        if form:
            out.append((terms or {})[str(value)][form])
        elif isinstance(value, list):
            out.append(", ".join(map(str, value)))
        else:
            out.append(str(value))
    text = "".join(out)
    return f"{text} ({rule})" if rule else text


class RefusalTable:
    """One game's refusal messages: ``key → (rule, English template)``, in one place.

    Calling the table makes a :class:`Refusal`: ``refuse("held", card="Y5")``.  Keys are
    given short and stored with the game's prefix (``"lost-cities.held"``).
    """

    def __init__(self, prefix: str, messages: Mapping[str, tuple[str | None, str]]) -> None:
        self.prefix = prefix
        self.messages: dict[str, tuple[str | None, str]] = {f"{prefix}.{k}": v for k, v in messages.items()}

    def __call__(self, key: str, /, **params: JSON) -> Refusal:
        full = f"{self.prefix}.{key}"
        rule, template = self.messages[full]
        return Refusal(full, params, rule, template)

    def templates(self) -> dict[str, str]:
        """``key → English template`` (the English catalog of this game)."""
        return {key: template for key, (_, template) in self.messages.items()}


PROTOCOL_REFUSALS: Final = RefusalTable("protocol", {
    "match_over": (None, "the match is over: no more moves"),
    "not_a_move": (None, "{text} is not a move of {game}; legal now: {legal}"),
    "not_legal": (None, "{action} is not legal now"),
})
"""Refusals every game shares (:meth:`State.parse_action`)."""


class IllegalAction(ValueError):
    """An action that the rules forbid (or that cannot be read) in this state.

    ``refusal`` is the :class:`Refusal` record when there is one (``str(err)`` is then
    its English message); ``rule`` is the ruling id the refusal rests on (``"LC-4"``).
    """

    def __init__(self, reason: Refusal | str, rule: str | None = None) -> None:
        super().__init__(str(reason))
        self.refusal = reason if isinstance(reason, Refusal) else None
        self.rule = self.refusal.rule if self.refusal is not None else rule


@dataclasses.dataclass(frozen=True, slots=True)
class EventDetail:
    """One fact of an :class:`Event`, as data: a frozen dataclass per kind of fact.

    Each game defines its own subclasses (documented in its module and, per game, in
    ``docs/server-protocol.md``); ``kind`` names the fact in snake case
    (``"card_played"``, ``"trick_won"``).  Seats are ints; cards are their canonical
    names (``"AH"``, ``"Y7"``), so a record is JSON-ready as it is.  Front ends render
    these records, never the English :attr:`Event.note`.

    >>> @dataclasses.dataclass(frozen=True, slots=True)
    ... class Shown(EventDetail):
    ...     kind: ClassVar[str] = "shown"
    ...     seat: int
    ...     cards: tuple[str, ...]
    >>> Shown(1, ("AH", "10S")).to_json()
    {'kind': 'shown', 'seat': 1, 'cards': ['AH', '10S']}
    """

    kind: ClassVar[str] = "detail"

    def to_json(self) -> dict[str, JSON]:
        """``{"kind": …, <fields>}``; tuples become lists."""
        out: dict[str, JSON] = {"kind": self.kind}
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            out[field.name] = list(value) if isinstance(value, tuple) else value
        return out


def details_json(details: Sequence[EventDetail]) -> list[dict[str, JSON]]:
    """The records of an event as JSON-ready dicts (what the server sends)."""
    return [detail.to_json() for detail in details]


class Event(NamedTuple):
    """What one applied action did: a small immutable record for logs and UIs.

    An event is **public**: its text, note and details say only what every seat and
    every spectator sees happen (the game's Information ruling — every card played is
    public, LC-8, LR-20, RG-9), so front ends show it to all unredacted.  A game must
    not name a hidden card in an event (a card drawn from a face-down stock is a
    :class:`EventDetail` field set to ``None``; the drawer learns it from its own
    view); ``tests/conformance.py`` checks that the event of a move does not change
    when the cards some seat cannot see are redrawn.
    """

    player: int
    action: int
    text: str
    """The action in the game's notation, e.g. ``"play Y7"``."""
    note: str = ""
    """Consequences in English, for logs and traces: ``"round 1 ends"`` … (never parsed:
    front ends render :attr:`details`)."""
    details: tuple[EventDetail, ...] = ()
    """What happened, as typed records (:class:`EventDetail`), in order."""


def round_rng(seed: int, round_index: int) -> random.Random:
    """The private random source for dealing round ``round_index`` of match ``seed``.

    String seeds are hashed with SHA-512 by :mod:`random`, so this is stable
    across processes and Python runs and independent of the global state.
    """
    return random.Random(f"cardtable:{seed}:{round_index}")


class Game(ABC):
    """A configured rule set.  Subclasses set the class attributes below."""

    info: ClassVar[GameInfo]
    """The game's one description: titles, players, options (:mod:`cardtable.description`)."""
    name: ClassVar[str]
    """Registry name, e.g. ``"lost-cities"`` (``info.name``)."""
    title: ClassVar[str]
    """Human title, e.g. ``"Lost Cities"`` (``info.title.en``)."""
    refusals: ClassVar[RefusalTable]
    """Every reason a move of this game is refused, with its ruling and English text."""

    config: Any
    """A frozen, keyword-only dataclass of the variant options."""
    num_players: int
    num_distinct_actions: int
    """Size of the fixed action space."""
    num_card_kinds: int
    """Card ids are ``0 … num_card_kinds - 1`` (a card that comes several times, like
    a Lost Cities wager or a Ранг joker, is one id)."""

    def config_dict(self) -> dict[str, JSON]:
        """The options as plain data (what a record stores).  A designer's knob
        (``group="custom"``) is left out at its published value, so the records of
        the published game stay as they were."""
        custom = {o.name: o.default for o in self.info.options if o.group == "custom"}
        return {k: v for k, v in dataclasses.asdict(self.config).items() if k not in custom or v != custom[k]}

    def teams(self) -> list[list[int]]:
        """Seats that share one result (partnerships); every seat alone by default.

        Statistics count a team once per match: partners are one sample, not two.
        """
        return self.info.teams(self.config, self.num_players)

    def max_game_length(self) -> int:
        """A proven upper bound on the player decisions in one match of this configuration."""
        return self.info.max_game_length(self.config)

    @abstractmethod
    def new_state(self, *, seed: int = 0, decks: Sequence[Sequence[int]] | None = None) -> State:
        """A new match.  ``decks[i]`` (card ids in dealing order) fixes round ``i``'s
        deal; rounds without a given deck are shuffled from ``seed``."""

    @abstractmethod
    def action_name(self, action: int) -> str:
        """Context-free name of an action id (a fixed table)."""

    @abstractmethod
    def card_name(self, card: int) -> str:
        """Canonical name of a card id."""

    @abstractmethod
    def parse_card(self, text: str) -> int:
        """Card id from its name; ``ValueError`` with a readable message if it is not one."""

    def card_names(self) -> tuple[str, ...]:
        """The name of every card id, in id order (what the description lists).

        >>> from cardtable.registry import load_game
        >>> load_game("lost-cities").card_names()[:3]
        ('Yw', 'Y2', 'Y3')
        """
        return tuple(self.card_name(card) for card in range(self.num_card_kinds))

    def action_names(self) -> tuple[str, ...]:
        """The context-free name of every action id, in id order (the fixed action space).

        >>> from cardtable.registry import load_game
        >>> len(load_game("rank").action_names()) == load_game("rank").num_distinct_actions
        True
        """
        return tuple(self.action_name(action) for action in range(self.num_distinct_actions))

    def parse_action_name(self, text: str) -> int:
        """Action id from its context-free name (case and spaces are forgiven)."""
        table = self._action_lookup()
        key = " ".join(text.split()).upper()
        if key in table:
            return table[key]
        raise IllegalAction(f"{text.strip()!r} is not a move of {self.title}")

    def _action_lookup(self) -> Mapping[str, int]:
        cached: dict[str, int] | None = self.__dict__.get("_lookup")
        if cached is None:
            cached = {self.action_name(a).upper(): a for a in range(self.num_distinct_actions)}
            self.__dict__["_lookup"] = cached
        return cached

    def __repr__(self) -> str:
        options = ", ".join(f"{k}={v!r}" for k, v in self.config_dict().items())
        return f"{type(self).__name__}({options})"


class State(ABC):
    """One match in progress (all its rounds)."""

    game: Game
    seed: int
    decks: list[list[int]] | None
    """The explicit deck orders the match was started from, or ``None`` (seeded)."""
    history: list[int]
    """Every action applied so far, in order."""

    # --- whose turn -------------------------------------------------------
    @abstractmethod
    def current_player(self) -> int:
        """The seat to act, or :data:`TERMINAL`."""

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    # --- actions ------------------------------------------------------------
    @abstractmethod
    def legal_actions(self) -> list[int]:
        """Legal action ids, sorted ascending; empty when terminal."""

    @abstractmethod
    def why_illegal(self, action: int) -> Refusal | None:
        """``None`` if ``action`` is legal, else the :class:`Refusal` saying why (with its ruling id)."""

    def is_legal(self, action: int) -> bool:
        return self.why_illegal(action) is None

    @abstractmethod
    def apply_action(self, action: int) -> Event:
        """Apply a legal action; raise :class:`IllegalAction` (state unchanged) otherwise."""

    @abstractmethod
    def undo_action(self) -> None:
        """Take back the last applied action."""

    @abstractmethod
    def clone(self) -> State:
        """An independent copy (undo history included)."""

    def action_to_string(self, action: int) -> str:
        """The action in the game's notation (``"play Y7"``)."""
        return self.game.action_name(action)

    def legal_action_strings(self) -> list[str]:
        return [self.action_to_string(a) for a in self.legal_actions()]

    def parse_action(self, text: str) -> int:
        """Read a move in the game's notation and check it is legal now.

        Raises :class:`IllegalAction` saying what was wrong and what is allowed.
        """
        if self.is_terminal():
            raise IllegalAction(PROTOCOL_REFUSALS("match_over"))
        try:
            action = self.game.parse_action_name(text)
        except IllegalAction:
            raise IllegalAction(PROTOCOL_REFUSALS(
                "not_a_move", text=repr(text.strip()), game=self.game.title, legal=self.legal_action_strings()
            )) from None
        reason = self.why_illegal(action)
        if reason is not None:
            raise IllegalAction(reason)
        return action

    # --- outcome ------------------------------------------------------------
    @abstractmethod
    def returns(self) -> list[float]:
        """Per-seat returns: the match outcome when terminal, zeros before."""

    @abstractmethod
    def result(self) -> dict[str, JSON]:
        """Outcome as data for records and reports (returns, scores, winner …)."""

    # --- information ----------------------------------------------------------
    @abstractmethod
    def view(self, player: int) -> dict[str, JSON]:
        """Everything ``player`` may know now (and nothing more), JSON-ready.

        Always has the keys ``game``, ``player``, ``current_player``,
        ``round`` (1-based), ``scores`` (running match totals per seat) and
        ``round_scores`` (list of per-round score lists so far).
        """

    @abstractmethod
    def public_view(self) -> dict[str, JSON]:
        """Everything every seat (and any spectator) may know now, JSON-ready.

        Has the same always-present keys as :meth:`view`, with ``player`` ``None``.
        It is contained in every seat's view (:func:`view_contains`): a seat's view
        with some keys left out and some values replaced by ``None``.
        """

    @abstractmethod
    def resample(self, player: int, rng: random.Random) -> State:
        """A state that ``player`` cannot tell from this one, with every hidden
        card (and future deal) redrawn at random from what is consistent with
        ``player``'s information.  ``player``'s view is unchanged."""

    def __str__(self) -> str:
        """The full true state (debugging and golden traces only: never shown to a player)."""
        return repr(self)


def view_contains(seat_view: JSON, public: JSON) -> bool:
    """Whether ``public`` shows nothing that ``seat_view`` does not (the containment
    of :meth:`State.public_view` in every :meth:`State.view`).

    ``public`` must be ``seat_view`` with some information taken out: a ``None``
    stands for any value (hidden); a dict may leave keys out but every key it has
    must be in ``seat_view`` with a contained value; a list has the same length with
    every item contained; anything else is equal, of the same type.  The top-level
    ``player`` key (a seat, or ``None`` in the public view) is not compared.

    >>> view_contains({"player": 0, "hand": ["AS"], "pile": ["7H", "KD"]},
    ...               {"player": None, "pile": ["7H", None]})
    True
    >>> view_contains({"player": 0, "pile": ["7H"]}, {"player": None, "pile": ["7H", "KD"]})
    False
    """
    return _contains(seat_view, public, top=True)


def _contains(whole: JSON, part: JSON, *, top: bool = False) -> bool:
    if part is None:
        return True
    if isinstance(part, dict):
        return isinstance(whole, dict) and all(
            (top and key == "player") or (key in whole and _contains(whole[key], value)) for key, value in part.items()
        )
    if isinstance(part, list):
        return isinstance(whole, list) and len(whole) == len(part) and all(map(_contains, whole, part))
    return type(whole) is type(part) and bool(whole == part)
