"""Every cardtable game as an OpenSpiel Python game.

Importing this module registers three games with ``pyspiel`` (their parameters are the
variant options)::

    >>> import pyspiel
    >>> import cardtable.rl.openspiel
    >>> game = pyspiel.load_game("python_cardtable_lost_cities(rounds=1)")
    >>> game.num_distinct_actions(), game.information_state_tensor_shape()
    (106, [1616])
    >>> pyspiel.load_game("python_cardtable_rank(players=5)").num_players()
    5

The game types come from the games' descriptions (:mod:`cardtable.description`): the
parameters are each game's options with their defaults, the player range and the return
range are the description's, and ``max_game_length`` is its bound::

    >>> params = pyspiel.load_game("python_cardtable_lost_ranks").get_parameters()
    >>> {k: params[k] for k in ("force_strength", "longer_game", "players", "target", "spy_points")}
    {'force_strength': False, 'longer_game': False, 'players': 4, 'target': 10, 'spy_points': 2}

**Chance.**  A cardtable match deals every round from its seed (a SHA-512-seeded
generator, :func:`cardtable.protocol.round_rng`).  The OpenSpiel game starts with
:data:`SEED_BYTES` = 8 chance nodes of 256 equiprobable outcomes each, which together
choose the 64-bit match seed; the first player decision follows.  So the chance events
are explicit and serialisable, ``history()`` alone replays a match, and every algorithm
that samples or enumerates chance outcomes works unchanged.  2**64 seeds is far more than
the distinct deals a player could tell apart (Lost Cities has ~10**9 opening hands), so
the seed's finiteness tells a player nothing about the hidden cards.  Later rounds are
dealt from the same seed inside the action that ends a round (no chance node there: the
seed already fixed them, and nobody has seen it).

**Observations** come from :mod:`cardtable.rl.encoding` via one seat's view:
``observation_tensor`` / ``information_state_tensor`` (flat, named segments in the
observer's ``dict``), ``observation_string`` (the view without its log, JSON) and
``information_state_string`` (the full view plus the public action history).  Before the
deal every tensor is zero.

**Resampling.**  ``state.resample_from_infostate(player, sampler)`` redraws everything
``player`` cannot see with :meth:`cardtable.protocol.State.resample`, seeded from
``sampler()`` draws; the result has the same history and the same information-state
string for ``player``.  OpenSpiel's IS-MCTS (``open_spiel.python.algorithms.ismcts``) uses
it directly.  A resampled state's hidden cards are not a function of its history, so it
is serialised whole (pickled) rather than as a replay.
"""

from __future__ import annotations

import random
from typing import Any

import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]

from cardtable.protocol import TERMINAL, Game
from cardtable.protocol import State as CtState
from cardtable.registry import game_info, game_names, load_game
from cardtable.rl import encoder_for
from cardtable.rl.encoding import INFORMATION_STATE, OBSERVATION, Encoder, FloatArray

SEED_BYTES = 8
"""Chance nodes at the start: each picks one byte of the 64-bit match seed."""

SHORT_NAMES: dict[str, str] = {name: "python_cardtable_" + name.replace("-", "_") for name in game_names()}
"""The pyspiel name of each cardtable game."""


def max_game_length(game: Game) -> int:
    """An upper bound on player decisions in one match (no chance nodes): the description's."""
    return game.max_game_length()


class _Box:
    """Holds the cardtable game and match state of an OpenSpiel state.

    OpenSpiel clones a Python state by deep-copying its ``__dict__``: this box copies as
    ``State.clone()`` (the game object is shared), and pickles as ``(seed, history)``.
    """

    __slots__ = ("game", "inner", "replayable")

    def __init__(self, game: Game, inner: CtState | None, replayable: bool = True) -> None:
        self.game = game
        self.inner = inner
        self.replayable = replayable

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        return _Box(self.game, None if self.inner is None else self.inner.clone(), self.replayable)

    def __reduce__(self) -> tuple[Any, ...]:
        name, options = self.game.name, self.game.config_dict()
        if self.inner is None:
            return (_rebuild, (name, options, None, []))
        if self.replayable:
            return (_rebuild, (name, options, self.inner.seed, list(self.inner.history)))
        return (_restore_detached, (name, options, *_detach(self.inner)))


def _detach(inner: CtState) -> tuple[type[CtState], dict[str, Any], dict[str, str | None]]:
    """The fields of a match state, with references to its game (or the game's own tables)
    replaced by names, so that a resampled state pickles small."""
    game = inner.game
    shared: dict[int, str | None] = {id(game): None}
    for key, value in vars(game).items():
        shared.setdefault(id(value), key)
    names: list[str] = []
    for cls in type(inner).__mro__:
        slots = cls.__dict__.get("__slots__", ())
        names.extend([slots] if isinstance(slots, str) else list(slots))
    fields: dict[str, Any] = {}
    refs: dict[str, str | None] = {}
    for name in names:
        if name in ("__dict__", "__weakref__") or not hasattr(inner, name):
            continue
        value = getattr(inner, name)
        if id(value) in shared:
            refs[name] = shared[id(value)]
        else:
            fields[name] = value
    if hasattr(inner, "__dict__"):
        for name, value in vars(inner).items():
            if id(value) in shared:
                refs[name] = shared[id(value)]
            else:
                fields[name] = value
    return type(inner), fields, refs


def _restore_detached(name: str, options: dict[str, Any], cls: type[CtState], fields: dict[str, Any],
                      refs: dict[str, str | None]) -> _Box:
    game = _cardtable_game(name, options)
    inner = object.__new__(cls)
    for key, value in fields.items():
        object.__setattr__(inner, key, value)
    for key, attr in refs.items():
        object.__setattr__(inner, key, game if attr is None else getattr(game, attr))
    return _Box(game, inner, replayable=False)


def _rebuild(name: str, options: dict[str, Any], seed: int | None, history: list[int]) -> _Box:
    game = _cardtable_game(name, options)
    if seed is None:
        return _Box(game, None)
    state = game.new_state(seed=seed)
    for a in history:
        state.apply_action(a)
    return _Box(game, state)


_GAME_CACHE: dict[tuple[str, tuple[tuple[str, Any], ...]], Game] = {}


def _cardtable_game(name: str, options: dict[str, Any]) -> Game:
    key = (name, tuple(sorted(options.items())))
    game = _GAME_CACHE.get(key)
    if game is None:
        game = _GAME_CACHE[key] = load_game(name, **options)
    return game


def _game_type(name: str) -> Any:
    """The pyspiel ``GameType`` of a game, from its description."""
    info = game_info(name)
    constant_sum = info.return_sum != 0
    return pyspiel.GameType(
        short_name=SHORT_NAMES[name],
        long_name=f"cardtable {info.title.en}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(pyspiel.GameType.Utility.CONSTANT_SUM if constant_sum else pyspiel.GameType.Utility.ZERO_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=info.defaults(),
    )


class CardtableGame(pyspiel.Game):  # type: ignore[misc]
    """An OpenSpiel game wrapping one cardtable game variant."""

    name: str

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        described = game_info(self.name)
        options = {**described.defaults(), **(params or {})}
        game = _cardtable_game(self.name, options)
        self.ct_game = game
        self.encoder: Encoder = encoder_for(game)
        info = pyspiel.GameInfo(
            num_distinct_actions=game.num_distinct_actions,
            max_chance_outcomes=256,
            num_players=game.num_players,
            min_utility=described.min_return,
            max_utility=described.max_return,
            utility_sum=described.return_sum,
            max_game_length=game.max_game_length(),
        )
        super().__init__(_TYPES[self.name], info, options)

    def new_initial_state(self) -> CardtableState:
        return CardtableState(self)

    def max_chance_nodes_in_history(self) -> int:
        return SEED_BYTES

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> CardtableObserver:
        return CardtableObserver(self, iig_obs_type, params)


class CardtableState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state: :data:`SEED_BYTES` chance nodes, then the cardtable match."""

    def __init__(self, game: CardtableGame) -> None:
        super().__init__(game)
        self._seed: list[int] = []
        self._box = _Box(game.ct_game, None)

    # --- access ---------------------------------------------------------------
    @property
    def cardtable_state(self) -> CtState | None:
        """The wrapped cardtable match (``None`` before the deal)."""
        return self._box.inner

    def _inner(self) -> CtState:
        inner = self._box.inner
        if inner is None:
            raise pyspiel.SpielError("the match is not dealt yet (chance node)")
        return inner

    # --- OpenSpiel API ----------------------------------------------------------
    def current_player(self) -> int:
        inner = self._box.inner
        if inner is None:
            return int(pyspiel.PlayerId.CHANCE)
        p = inner.current_player()
        return int(pyspiel.PlayerId.TERMINAL) if p == TERMINAL else p

    def _legal_actions(self, player: int) -> list[int]:
        return self._inner().legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(b, 1.0 / 256) for b in range(256)]

    def _apply_action(self, action: int) -> None:
        inner = self._box.inner
        if inner is None:
            self._seed.append(int(action))
            if len(self._seed) == SEED_BYTES:
                seed = int.from_bytes(bytes(self._seed), "little")
                self._box = _Box(self._box.game, self._box.game.new_state(seed=seed))
            return
        inner.apply_action(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed byte {len(self._seed)}: {action}"
        return self._box.game.action_name(action)

    def is_terminal(self) -> bool:
        inner = self._box.inner
        return inner is not None and inner.is_terminal()

    def returns(self) -> list[float]:
        inner = self._box.inner
        if inner is None:
            return [0.0] * self._box.game.num_players
        return [float(x) for x in inner.returns()]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CardtableState:
        """A state ``player_id`` cannot tell from this one, hidden cards redrawn.

        ``probability_sampler()`` (OpenSpiel's uniform sampler, or any callable returning
        floats in [0, 1)) seeds the redraw.
        """
        bits = 0
        for _ in range(3):
            bits = (bits << 21) ^ int(float(probability_sampler()) * (1 << 21))
        rng = random.Random(bits)
        new: CardtableState = self.clone()
        inner = self._box.inner
        if inner is None:
            new._seed = [rng.randrange(256) for _ in self._seed]
            return new
        new._box = _Box(self._box.game, inner.resample(player_id, rng), replayable=False)
        new._seed = [rng.randrange(256) for _ in range(SEED_BYTES)]
        return new

    def __str__(self) -> str:
        inner = self._box.inner
        if inner is None:
            return f"dealing: {len(self._seed)} of {SEED_BYTES} seed bytes chosen"
        return str(inner)


class CardtableObserver:
    """OpenSpiel Python observer: tensors and strings from one seat's view.

    Supports the default observation type (current observation) and perfect recall
    (information state), both with the observer's private information and the public
    information.
    """

    def __init__(self, game: CardtableGame, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        if iig_obs_type is not None and (
            not iig_obs_type.public_info or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError("cardtable observers give one player's view: public info with that player's "
                             "private info (PrivateInfoType.SINGLE_PLAYER)")
        self.kind = INFORMATION_STATE if perfect_recall else OBSERVATION
        self.encoder = game.encoder
        layout = self.encoder.layout(self.kind)
        self.tensor: FloatArray = layout.zeros()
        self.dict: dict[str, FloatArray] = layout.views(self.tensor)

    def set_from(self, state: CardtableState, player: int) -> None:
        self.tensor.fill(0.0)
        inner = state.cardtable_state
        if inner is not None:
            self.encoder.fill(self.tensor, inner.view(player), self.kind)

    def string_from(self, state: CardtableState, player: int) -> str:
        inner = state.cardtable_state
        if inner is None:
            return f"player {player}: the deal has not happened"
        view = inner.view(player)
        if self.kind == OBSERVATION:
            return self.encoder.observation_string(view)
        return self.encoder.information_state_string(view, inner.history)


def _game_class(name: str) -> type[CardtableGame]:
    cls_name = "Cardtable" + "".join(w.capitalize() for w in name.split("-")) + "Game"
    return type(cls_name, (CardtableGame,), {"name": name})


_TYPES: dict[str, Any] = {}
_CLASSES: dict[str, type[CardtableGame]] = {}


def register() -> None:
    """Register the three games with pyspiel (idempotent; done on import)."""
    known = set(pyspiel.registered_names())
    for name, short in SHORT_NAMES.items():
        if name not in _TYPES:
            _TYPES[name] = _game_type(name)
            _CLASSES[name] = _game_class(name)
        if short not in known:
            pyspiel.register_game(_TYPES[name], _CLASSES[name])


def load(name: str, **options: Any) -> Any:
    """``pyspiel.load_game`` of cardtable game ``name`` with variant ``options``."""
    if name not in SHORT_NAMES:
        raise ValueError(f"unknown game {name!r}; known: {', '.join(sorted(SHORT_NAMES))}")
    load_game(name, **options)  # validate with cardtable's messages
    return pyspiel.load_game(SHORT_NAMES[name], dict(options))


register()

__all__ = ["SEED_BYTES", "SHORT_NAMES", "CardtableGame", "CardtableObserver", "CardtableState", "load",
           "max_game_length", "register"]
