"""The search agents (ISMCTS, levels, hints) and the arena.

Strength is measured by ``cardtable arena`` (docs/strength.md), not here: these
tests check that the search finds a forced win, never reads hidden cards, is
deterministic with an iteration budget, ends within every budget (steps, iterations,
late and early in a round), and that the arena runs end to end.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from cardtable.agents import Observation, make_agent
from cardtable.agents import search as search_module
from cardtable.agents.knowledge import knowledge_for
from cardtable.games.lost_cities.heuristic import STYLES, ViewTable, policy_action, ranked_moves
from cardtable.agents.search import HardAgent, ISMCTSAgent, RootStats, SearchParams, hint, hint_text, search
from cardtable.games.lost_cities import LostCities, first_starter
from cardtable.games.lost_cities.knowledge import LostCitiesKnowledge, OpponentMixture
from cardtable.lab.arena import arena_command, parse_entry
from cardtable.protocol import Game, State
from cardtable.registry import load_game

GAMES = [
    ("lost-cities", {}),
    ("lost-cities", {"colors": 6}),
    ("lost-ranks", {"players": 4}),
    ("lost-ranks", {"players": 2}),
    ("rank", {"players": 4}),
]


def _decision_point(name: str, options: dict[str, object], seed: int, moves: int) -> State:
    """A state after about ``moves`` random moves where the seat to move has a choice."""
    game = load_game(name, **options)
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        legal = state.legal_actions()
        state.apply_action(rng.choice(legal))
    while len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[0])
    return state


# ---------------------------------------------------------------------------
# A forced win: Lost Cities, the last card of the draw pile decides


def _last_draw_position() -> State:
    """Single round.  A (the second player) lays Y2..Y9 (44 points with the 8-card
    bonus), B lays Bw B2..B8 (50) and keeps B9 (68 if laid); everything else is
    discarded.  With one card left in the draw pile A holds Y10: only "play Y10
    (54), then draw deck" wins — any other play loses on points, and a discard-pile
    draw gives B the turn to lay B9."""
    game = LostCities(rounds=1)
    seed = 1
    a = 1 - first_starter(seed)
    a_hand = list(range(1, 9))  # Y2..Y9
    b_hand = [10] + list(range(11, 18))  # Bw B2..B8
    keep = {a: 9, 1 - a: 18}  # Y10, B9
    pile = [18, 9]  # B9 to the starter B, Y10 to A (each one's first draw)
    pile += [0, 0, 0, 10, 10, 19] + [k for c in (2, 3, 4) for k in [10 * c] * 3 + list(range(10 * c + 1, 10 * c + 10))]
    assert len(pile) == 44
    deck = [0] * 16
    for i in range(8):
        deck[2 * i + a] = a_hand[i]
        deck[2 * i + 1 - a] = b_hand[i]
    state = game.new_state(seed=seed, decks=[deck + pile])
    laid = {a: 0, 1 - a: 0}
    drawn: dict[int, list[int]] = {a: [], 1 - a: []}
    for turn in range(43):
        p = state.current_player()
        assert p == (a if turn % 2 else 1 - a)
        if laid[p] < 8:
            kind = (a_hand if p == a else b_hand)[laid[p]]
            state.apply_action(game.play_action(kind))
            laid[p] += 1
        else:
            junk = next(k for k in drawn[p] if k != keep[p])
            drawn[p].remove(junk)
            state.apply_action(game.discard_action(junk))
        drawn[p].append(pile[turn])
        state.apply_action(game.draw_deck_action)
    assert state.current_player() == a and state.view(a)["draw_pile"] == 1
    assert state.view(a)["expedition_scores"][a][0] == 44
    assert state.view(a)["expedition_scores"][1 - a][1] == 50
    return state


def test_forced_win_is_found() -> None:
    state = _last_draw_position()
    game = state.game
    me = state.current_player()
    agent = ISMCTSAgent(game, seed=3, iterations=400, prior=False)
    play = agent.act(Observation.of(state, me))
    assert state.action_to_string(play) == "play Y10"
    state.apply_action(play)
    draw = agent.act(Observation.of(state, me))
    assert state.action_to_string(draw) == "draw deck"
    state.apply_action(draw)
    assert state.is_terminal() and state.returns()[me] == 1.0


def test_forced_win_flat_monte_carlo() -> None:
    state = _last_draw_position()
    stats = search(Observation.of(state), SearchParams(iterations=200, mode="pimc", prior=False), seed=2)
    assert state.action_to_string(stats.choose()) == "play Y10"


def test_forced_win_values() -> None:
    state = _last_draw_position()
    stats = search(Observation.of(state), SearchParams(iterations=400, prior=False), seed=5)
    best, visits, value = stats.ranked()[0]
    assert state.action_to_string(best) == "play Y10"
    assert value > 0.5
    assert all(v < 0 for a, n, v in stats.ranked()[1:] if n)


# ---------------------------------------------------------------------------
# No leak: states that differ only in what the seat cannot see


@pytest.mark.parametrize("name,options", GAMES)
def test_choice_ignores_hidden_cards(name: str, options: dict[str, object]) -> None:
    state = _decision_point(name, options, seed=11, moves=9)
    me = state.current_player()
    twin = state.resample(me, random.Random(99))
    assert twin.view(me) == state.view(me)
    assert str(twin) != str(state)  # the hidden cards differ
    params = SearchParams(iterations=60)
    one = search(Observation.of(state, me), params, seed=4)
    two = search(Observation.of(twin, me), params, seed=4)
    assert one.visits == two.visits
    assert one.value_sums == pytest.approx(two.value_sums)
    a = ISMCTSAgent(state.game, seed=8, iterations=60).act(Observation.of(state, me))
    b = ISMCTSAgent(state.game, seed=8, iterations=60).act(Observation.of(twin, me))
    assert a == b


def test_lost_cities_opponent_hand_swapped() -> None:
    """Explicit decks: the opponent's hand and the draw pile trade cards; same choice."""
    game = LostCities(rounds=1)
    seed = 4
    deck = list(game.deck_for(seed, None, 0))
    me = first_starter(seed)
    other = deck.copy()
    i, j = 2 * 3 + (1 - me), 30  # a card of the opponent's hand and one deep in the draw pile
    other[i], other[j] = other[j], other[i]
    s1 = game.new_state(seed=seed, decks=[deck])
    s2 = game.new_state(seed=seed, decks=[other])
    assert s1.view(me) == s2.view(me) and str(s1) != str(s2)
    choices = {ISMCTSAgent(game, seed=2, iterations=80).act(Observation.of(s, me)) for s in (s1, s2)}
    assert len(choices) == 1


# ---------------------------------------------------------------------------
# Determinism, budgets, levels


@pytest.mark.parametrize("name,options", GAMES)
def test_iteration_budget_is_deterministic(name: str, options: dict[str, object]) -> None:
    state = _decision_point(name, options, seed=5, moves=14)
    obs = Observation.of(state)
    params = SearchParams(iterations=50, mode="ismcts")
    one, two = search(obs, params, seed=1), search(obs, params, seed=1)
    assert one.iterations == two.iterations == 50
    assert one.visits == two.visits
    assert sum(one.visits.values()) == 50
    assert set(one.visits) == set(obs.legal_actions)


@pytest.mark.parametrize("name,options", GAMES[::2])
def test_flat_monte_carlo_is_deterministic(name: str, options: dict[str, object]) -> None:
    state = _decision_point(name, options, seed=6, moves=10)
    obs = Observation.of(state)
    params = SearchParams(iterations=60, mode="pimc")
    one, two = search(obs, params, seed=3), search(obs, params, seed=3)
    assert one.visits == two.visits and one.value_sums == two.value_sums
    assert one.choose() in obs.legal_actions


class TickingClock:
    """Stands in for the ``time`` module of :mod:`cardtable.agents.search`: its
    ``perf_counter`` advances ``tick`` seconds at every reading, so a time budget is
    tested against a clock the test drives, not against the machine's speed."""

    def __init__(self, tick: float) -> None:
        self.tick = tick
        self.now = 0.0

    def perf_counter(self) -> float:
        self.now += self.tick
        return self.now


@pytest.mark.parametrize("mode", ["pimc", "ismcts"])
def test_time_budget_is_respected(mode: str, monkeypatch: pytest.MonkeyPatch) -> None:
    obs = Observation.of(_decision_point("lost-cities", {}, seed=2, moves=6))
    worlds: dict[float, int] = {}
    for tick in (0.01, 0.001):
        monkeypatch.setattr(search_module, "time", TickingClock(tick))
        stats = search(obs, SearchParams(seconds=0.1, mode=mode), seed=0)
        # the clock is read once a world: the search stops at the first reading past its budget
        assert 0.1 <= stats.seconds <= 0.1 + 2 * tick + 1e-9, (tick, stats.seconds)
        assert 1 <= stats.iterations <= 0.1 / tick + 1, (tick, stats.iterations)
        worlds[tick] = stats.iterations
    assert worlds[0.001] > 5 * worlds[0.01], "a slower clock gives the search more worlds"


@pytest.mark.parametrize("name,options", GAMES)
@pytest.mark.parametrize("level", ["easy", "medium", "hard", "ismcts"])
def test_levels_play_legal_moves(name: str, options: dict[str, object], level: str) -> None:
    state = _decision_point(name, options, seed=3, moves=5)
    game = state.game
    extra = {} if level == "easy" else {"iterations": 20}
    agent = make_agent(level, game, seed=1, **extra)
    obs = Observation.of(state)
    assert agent.act(obs) in obs.legal_actions


@pytest.mark.parametrize("colors", [5, 6])
def test_lost_cities_play_outs_are_the_heuristic_bot(colors: int) -> None:
    """The search's play-outs (``rollout_for``: ``bold`` for the searcher, here ``steady`` for
    the opponent, a mixture of one) make the heuristic bot's decisions in each style: one :func:`policy_action`,
    read by the bot through its seat's JSON view (:class:`ViewTable`) and by the play-outs
    through the state's accessors — which agree on every read, at every decision of
    several matches with random moves mixed in."""
    game = LostCities(colors=colors)
    knowledge = LostCitiesKnowledge(game)
    knowledge.mixture = OpponentMixture((("steady", 1.0),))
    play_out = knowledge.rollout_for(0)
    bots = (make_agent("heuristic:style=bold", game, seed=0), make_agent("heuristic", game, seed=0))
    compared = [0, 0]
    for seed in range(4):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            p = state.current_player()
            table = ViewTable(state.view(p))
            reads = ("colors", "phase", "draw_pile_size", "drawable_piles")
            assert [getattr(table, r) for r in reads] == [getattr(state, r) for r in reads]
            assert table.hand_set(p) == state.hand_set(p) and table.known_set(1 - p) == state.known_set(1 - p)
            for seat in (0, 1):
                assert table.expedition_set(seat) == state.expedition_set(seat)
                assert table.hand_size(seat) == state.hand_size(seat)
            assert [table.discard_top(c) for c in range(colors)] == [state.discard_top(c) for c in range(colors)]
            if len(legal) > 1:
                expected = bots[p].act(Observation.of(state))
                assert play_out(state, rng) == expected, (seed, len(state.history))
                compared[p] += 1
                # now and then a random move, so that the positions are not only the bot's own
                state.apply_action(expected if rng.random() > 0.15 else rng.choice(legal))
            else:
                state.apply_action(legal[0])
    assert min(compared) > 400
    me = first_starter(0)
    with pytest.raises(ValueError, match=f"seat {me}'s view does not show seat {1 - me}'s hand"):
        ViewTable(game.new_state(seed=0).view(me)).hand_set(1 - me)
    with pytest.raises(ValueError, match=f"the view is seat {1 - me}'s, but seat {me} is to move"):
        ViewTable(game.new_state(seed=0).view(1 - me))


def test_lost_cities_candidates_start_with_the_bold_heuristic_move() -> None:
    game = LostCities()
    bot = make_agent("heuristic:style=bold", game, seed=0)
    kn = knowledge_for(game)
    for seed in range(4):
        state = _decision_point("lost-cities", {}, seed=seed, moves=8 + 9 * seed)
        obs = Observation.of(state)
        ranked = ranked_moves(state, STYLES["bold"])
        assert ranked[0][1] == bot.act(obs) == policy_action(state, STYLES["bold"]) == kn.prior(obs, seed)
        assert {a for _, a in ranked} <= set(obs.legal_actions)
        shortlist = kn.candidates(obs, random.Random(seed))
        assert shortlist[0] == ranked[0][1] and len(shortlist) == min(len(ranked), 6)
        twin = state.resample(state.current_player(), random.Random(7))
        assert kn.candidates(Observation.of(twin), random.Random(seed)) == shortlist


def test_steps_budget() -> None:
    state = _decision_point("lost-cities", {}, seed=2, moves=12)
    obs = Observation.of(state)
    one = search(obs, SearchParams(steps=3000), seed=4)
    two = search(obs, SearchParams(steps=3000), seed=4)
    assert one.visits == two.visits and one.value_sums == two.value_sums
    assert 3000 <= one.steps < 3000 + 400  # stops after the first world past the budget
    with pytest.raises(ValueError, match="steps"):
        SearchParams(steps=0)
    agent = ISMCTSAgent(state.game, steps=500, mode="ismcts")
    assert agent.params.seconds is None
    assert agent.act(obs) in obs.legal_actions and agent.last is not None and agent.last.steps >= 500


def test_paired_comparison_decides_flat_search() -> None:
    """The flat search compares each move with the heuristic's in the same worlds."""
    stats = RootStats(visits={1: 50, 2: 50}, value_sums={1: 10.0, 2: 12.0},
                      square_sums={1: 40.0, 2: 40.0}, prior=1, keep_z=2.0)
    # unpaired: a lead of 0.04 is far inside the noise of values spread ±0.9
    assert stats.choose(0.0) == 1
    # paired: move 2 gains 0.04 in every world, with a small spread
    stats.paired = {2: [50, 2.0, 50 * (0.04 ** 2) + 49 * 0.0001]}
    assert stats.choose(0.0) == 2
    assert stats.choose(0.05) == 1


def test_options_are_checked() -> None:
    game = load_game("rank")
    with pytest.raises(ValueError, match="takes no options"):
        ISMCTSAgent(game, depth=3)
    with pytest.raises(ValueError, match="rollout"):
        ISMCTSAgent(game, iterations=5, rollout="smart")
    assert HardAgent(game).params.seconds is not None
    assert ISMCTSAgent(game, iterations=10).params.seconds is None


@pytest.mark.parametrize("spec, message", [
    ("hard:cpu=maybe", "cpu must be true or false, not 'maybe'"),
    ("ismcts:steps=abc", "steps must be a whole number or none, not 'abc'"),
    ("ismcts:iterations=2.5", "iterations must be a whole number or none, not 2.5"),
    ("hard:seconds=true", "seconds must be a number or none, not True"),
    ("medium:keep_margin=wide", "keep_margin must be a number or none, not 'wide'"),
    ("hard:jobs=true", "jobs must be a positive whole number, not True"),
    ("easy:noise=abc", "noise must be between 0 and 1, not 'abc'"),
])
def test_an_option_of_the_wrong_kind_is_refused_by_name(spec: str, message: str) -> None:
    """A typo in an agent option's value is an error that names the option and its kind,
    never a comparison's traceback or a value quietly taken as true."""
    with pytest.raises(ValueError) as refused:
        make_agent(spec, load_game("lost-ranks"))
    assert message in str(refused.value)
    assert make_agent("hard:seconds=1:cpu=yes", load_game("lost-ranks")).params.seconds == 1


def test_leaf_option_picks_who_plays_the_play_outs(monkeypatch: pytest.MonkeyPatch) -> None:
    """``hard:leaf=NAME``: that policy plays the play-outs of that agent only (the game's
    shared knowledge keeps its default — Ранг's is the heuristic where the kernel runs it);
    a game without the choice says which it has."""
    from cardtable.kernels import available

    assert knowledge_for(load_game("rank", players=4)).leaf_policy == ("heuristic" if available() else "rollout")
    for name, options in (("rank", {"players": 4}), ("lost-ranks", {"players": 4})):
        game = load_game(name, **options)
        default = knowledge_for(game).leaf_policy
        other = "rollout" if default == "heuristic" else "heuristic"
        agent = make_agent(f"hard:leaf={other}", game)
        assert agent.knowledge.leaf_policy == other
        assert knowledge_for(game).leaf_policy == default
        assert make_agent(f"hard:leaf={other}", game).knowledge is agent.knowledge
        assert make_agent(f"hard:leaf={default}", game).knowledge is knowledge_for(game)
    with pytest.raises(ValueError, match="can be played by 'rollout', not 'heuristic'"):
        make_agent("hard:leaf=heuristic", load_game("lost-cities"))
    state = _decision_point("rank", {"players": 4}, seed=3, moves=6)
    agent = ISMCTSAgent(state.game, seed=1, iterations=12, leaf="heuristic", kernel=False)
    asked = []
    original = type(agent.knowledge).prior
    monkeypatch.setattr(type(agent.knowledge), "prior",
                        lambda self, obs, seed: asked.append(obs.player) or original(self, obs, seed))
    obs = Observation.of(state)
    assert agent.act(obs) in obs.legal_actions
    assert len(asked) > 12  # the Python play-outs asked the bot for their moves


def test_random_rollouts_and_root_parallelism() -> None:
    state = _decision_point("rank", {"players": 3}, seed=7, moves=4)
    agent = ISMCTSAgent(state.game, seed=1, iterations=20, rollout="random", mode="ismcts", jobs=2)
    try:
        obs = Observation.of(state)
        assert agent.act(obs) in obs.legal_actions
        assert agent.last is not None and agent.last.iterations == 40
    finally:
        agent.close()


# ---------------------------------------------------------------------------
# Hints


def test_hint_text() -> None:
    state = _decision_point("lost-cities", {}, seed=9, moves=4)
    me = state.current_player()
    text = hint(state, me, iterations=60)
    assert text.startswith("Suggested: ")
    assert "est. win" in text and "%" in text and "next best:" in text
    names = set(state.legal_action_strings())
    suggested = text[len("Suggested: "):].split(" — ")[0]
    assert suggested in names


def test_hint_text_function_and_forced_move() -> None:
    state = _decision_point("rank", {"players": 4}, seed=1, moves=3)
    assert hint_text(state, state.current_player()).startswith("Suggested: ")
    waiting = (state.current_player() + 1) % 4
    assert "not your turn" in hint_text(state, waiting)


# ---------------------------------------------------------------------------
# The arena (a smoke run; strength is measured with the command itself)


def test_parse_entry() -> None:
    assert parse_entry("hard:iterations=50:rollout=random") == ("hard", {"iterations": 50, "rollout": "random"})
    with pytest.raises(ValueError):
        parse_entry("hard:iterations")


def _arena_app() -> typer.Typer:
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    app.command()(arena_command)
    return app


@pytest.mark.parametrize("jobs", [1, 2])
def test_arena_smoke(tmp_path: Path, jobs: int) -> None:
    out = tmp_path / "arena.json"
    result = CliRunner().invoke(_arena_app(), [
        "rank", "--players", "3", "--agents", "ismcts:iterations=10,heuristic", "--games", "2",
        "--jobs", str(jobs), "--seed", "3", "--json", str(out),
    ])
    assert result.exit_code == 0, result.output
    assert "decision times" in result.output and "win %" in result.output
    data = json.loads(out.read_text())
    assert data["matches"] == 2 and data["game"] == "rank"
    assert [e["agent"] for e in data["entries"]] == ["ismcts:iterations=10", "heuristic"]
    assert all(e["decision_ms"]["count"] > 0 for e in data["entries"])
    assert data["command"]["games"] == 2


def test_arena_rejects_unknown_agent(tmp_path: Path) -> None:
    result = CliRunner().invoke(_arena_app(), ["rank", "--agents", "grandmaster,heuristic", "--games", "1",
                                               "--json", str(tmp_path / "x.json")])
    assert result.exit_code == 2


def test_lost_cities_heuristic_styles() -> None:
    game = LostCities()
    with pytest.raises(ValueError, match="unknown style 'wild'; choose from: steady, bold, cautious, eager, hasty"):
        make_agent("heuristic:style=wild", game)
    assert make_agent("heuristic", game).style == STYLES["steady"]  # type: ignore[attr-defined]


@pytest.mark.slow
def test_lost_cities_bold_style_beats_the_baseline() -> None:
    """The search's own play-out style is the stronger one (docs/strength.md: 63 % of
    2000 matches); here 100 deals played from both seats, a regression guard."""
    game = LostCities()
    won = 0.0
    for seed in range(100):
        for me in (0, 1):
            state = game.new_state(seed=seed)
            styles = (STYLES["bold"], STYLES["steady"]) if me == 0 else (STYLES["steady"], STYLES["bold"])
            while not state.is_terminal():
                legal = state.legal_actions()
                state.apply_action(legal[0] if len(legal) == 1 else policy_action(state, styles[state.current_player()]))
            a, b = state.scores()[me], state.scores()[1 - me]
            won += 1.0 if a > b else 0.5 if a == b else 0.0
    assert won / 200 >= 0.55


# ---------------------------------------------------------------------------
# Every budget ends (issue #16): late and early positions of each game, each search

BUDGET_GAMES = [
    ("lost-cities", {}),
    ("lost-ranks", {"players": 4}),
    ("lost-ranks", {"players": 2}),
    ("rank", {"players": 4}),
]
STEP_BUDGET = 2000


def _step_budget(options: dict[str, object]) -> int:
    """:data:`STEP_BUDGET`, four times that in Command of Two, where a play-out with the
    look-ahead plays every candidate of the seat's first decision to the round's end (one
    early leaf: about 2000 moves)."""
    return 4 * STEP_BUDGET if options.get("players") == 2 else STEP_BUDGET
ITERATION_BUDGET = 150


def _late_position(name: str, options: dict[str, object], seed: int, left: int) -> State:
    """The last decision (two legal actions or more) at least ``left`` actions before the
    cut-off of the round (Ранг: the game), in a round played by the search's play-out
    policy: few cards left, where the tree soon holds every line to the cut-off."""
    state = load_game(name, **options).new_state(seed=seed)
    kn = knowledge_for(state.game)
    policy, rng, root_round = kn.rollout_for(0), random.Random(seed), kn.round_of(state)
    line: list[State] = []
    while not kn.cutoff(state, root_round):
        line.append(state.clone())
        state.apply_action(policy(state, rng))
    return next(s for s in reversed(line[: len(line) - left + 1]) if len(s.legal_actions()) > 1)


def _position(name: str, options: dict[str, object], stage: str) -> State:
    if stage == "early":
        return _decision_point(name, options, seed=21, moves=3)
    return _late_position(name, options, seed=21, left=int(stage.removeprefix("late-")))


def _cap_evaluations(game: Game, cap: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail once the searches of ``game`` evaluate more than ``cap`` states (one per tree
    iteration, one per flat play-out): a search that cannot end fails the test instead
    of blocking it."""
    kn = knowledge_for(game)
    evaluate = kn.evaluate
    calls = [0]

    def counted(state: State) -> list[float]:
        calls[0] += 1
        assert calls[0] <= cap, f"{calls[0]} evaluations within a budget of {cap}: the search does not end"
        return evaluate(state)

    monkeypatch.setattr(kn, "evaluate", counted)


def _capped_search(obs: Observation, params: SearchParams, cap: int, monkeypatch: pytest.MonkeyPatch) -> RootStats:
    """``search`` with at most ``cap`` evaluations (:func:`_cap_evaluations`)."""
    _cap_evaluations(obs.game, cap, monkeypatch)
    try:
        return search(obs, params, seed=7)
    finally:
        monkeypatch.undo()


STAGES = ["late-2", "late-8", "early"]


@pytest.mark.parametrize("name,options", BUDGET_GAMES)
@pytest.mark.parametrize("stage", STAGES)
def test_tree_search_steps_budget_ends(name: str, options: dict[str, object], stage: str,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Steps count the tree's actions too: the search stops at the first iteration after
    which the budget is spent, also where no play-out is left (issue #16)."""
    obs, budget = Observation.of(_position(name, options, stage)), _step_budget(options)
    stats = _capped_search(obs, SearchParams(steps=budget, mode="ismcts"), budget, monkeypatch)
    assert stats.choose() in obs.legal_actions
    assert budget <= stats.steps and stats.iterations * 3 <= stats.steps  # set-up and one root action each
    same = search(obs, SearchParams(iterations=stats.iterations, mode="ismcts"), seed=7)
    assert (same.steps, same.visits) == (stats.steps, stats.visits)
    assert stats.iterations > 1
    one_less = search(obs, SearchParams(iterations=stats.iterations - 1, mode="ismcts"), seed=7)
    assert one_less.steps < budget


@pytest.mark.parametrize("name,options", BUDGET_GAMES)
@pytest.mark.parametrize("stage", STAGES)
def test_flat_search_steps_budget_ends(name: str, options: dict[str, object], stage: str,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    obs, budget = Observation.of(_position(name, options, stage)), _step_budget(options)
    stats = _capped_search(obs, SearchParams(steps=budget, mode="pimc"), budget, monkeypatch)
    assert stats.choose() in obs.legal_actions
    per_world = stats.steps / stats.iterations
    assert stats.steps < budget + 3 * per_world  # it stops within about one world of the budget


@pytest.mark.parametrize("name,options", BUDGET_GAMES)
@pytest.mark.parametrize("stage", STAGES)
@pytest.mark.parametrize("mode", ["ismcts", "pimc"])
def test_iterations_budget_ends(name: str, options: dict[str, object], stage: str, mode: str,
                                monkeypatch: pytest.MonkeyPatch) -> None:
    obs = Observation.of(_position(name, options, stage))
    cap = ITERATION_BUDGET + len(obs.legal_actions) + 1  # flat: the last world plays every candidate
    stats = _capped_search(obs, SearchParams(iterations=ITERATION_BUDGET, mode=mode), cap, monkeypatch)
    assert stats.choose() in obs.legal_actions
    played = sum(stats.visits.values())
    if mode == "ismcts":
        assert stats.iterations == played == ITERATION_BUDGET
    else:  # where the game races (Lost Cities), a clearly best prior ends the search sooner
        assert played < cap
        assert played >= ITERATION_BUDGET or getattr(knowledge_for(obs.game), "race_z", None) is not None


def test_hard_steps_budget_ends_late_in_a_lost_ranks_round(monkeypatch: pytest.MonkeyPatch) -> None:
    """The report of issue #16: ``hard:steps=25000``, two cards left in each hand."""
    state = _late_position("lost-ranks", {"players": 4}, seed=3, left=8)
    obs = Observation.of(state)
    agent = make_agent("hard:steps=25000", state.game, seed=1)
    assert isinstance(agent, HardAgent) and agent.params.seconds is None
    _cap_evaluations(state.game, 25000, monkeypatch)
    assert agent.act(obs) in obs.legal_actions
    assert agent.last is not None and 25000 <= agent.last.steps


def test_single_legal_action_is_not_searched() -> None:
    state = _decision_point("lost-ranks", {"players": 4}, seed=2, moves=0)
    while len(state.legal_actions()) != 1:
        state.apply_action(state.legal_actions()[0])
    obs = Observation.of(state)
    for mode in ("ismcts", "pimc"):
        stats = search(obs, SearchParams(steps=100, mode=mode), seed=1)
        assert (stats.iterations, stats.steps) == (0, 0)
        assert stats.choose() == obs.legal_actions[0]
    waiting = Observation.of(state, (state.current_player() + 1) % 4)
    with pytest.raises(ValueError, match="no legal action"):
        search(waiting, SearchParams(iterations=5), seed=1)
