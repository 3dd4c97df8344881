"""Ratings (openskill Plackett–Luce): teams, ranks, repeated AI levels, and the
``cardtable ratings`` landmarks from a tiny iteration-budgeted arena."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import create_engine
from typer.testing import CliRunner

from cardtable.cli import app
from cardtable.registry import load_game
from cardtable.server import ratings
from cardtable.server.landmarks import arena_ratings
from cardtable.server.store import make_engine, metadata, rating_history_table, ratings_table


def memory_db():  # type: ignore[no-untyped-def]
    engine = create_engine("sqlite://")
    metadata.create_all(engine, tables=[ratings_table, rating_history_table])
    return engine


def test_partners_move_together_and_winners_go_up() -> None:
    engine = memory_db()
    with engine.begin() as conn:
        players = ["user:1", "ai:hard", "user:2", "ai:easy"]  # Lost Ranks: seats 0+2 against 1+3
        out = ratings.rate(conn, "lost-ranks", 4, players, [[0, 2], [1, 3]], [1, 0], "m1")
        by = {r.player: r for r in out}
        assert by["ai:hard"].mu > 25 and by["ai:easy"].mu > 25
        assert by["user:1"].mu < 25 and by["user:2"].mu < 25
        assert by["user:1"].mu == by["user:2"].mu  # equal partners, equal change
        history = ratings.history(conn, "user:1")
        assert [h["match"] for h in history] == ["m1"]


def test_multi_player_ranks_follow_the_finishing_order() -> None:
    engine = memory_db()
    with engine.begin() as conn:  # Ранг, four players: seat 2 out first, seat 3 stays in Rank
        ranks = ratings.team_ranks([[0], [1], [2], [3]], [0.0, 0.0, 0.0, -1.0], [2, 0, 1, 3])
        out = {r.player: r.mu for r in ratings.rate(conn, "rank", 4, ["user:1", "user:2", "user:3", "user:4"],
                                                    [[0], [1], [2], [3]], ranks, None)}
        assert out["user:3"] > out["user:1"] > out["user:2"] > out["user:4"]


def test_an_ai_level_in_several_seats_is_rated_once_per_match() -> None:
    engine = memory_db()
    with engine.begin() as conn:
        out = ratings.rate(conn, "rank", 3, ["user:1", "ai:hard", "ai:hard"], [[0], [1], [2]], [0, 1, 2], None)
        assert sorted(r.player for r in out) == ["ai:hard", "user:1"]
        assert ratings.read_rating(conn, "rank", 3, "ai:hard").games == 1  # type: ignore[union-attr]


def test_guest_seats_or_no_account_leave_a_match_unrated() -> None:
    from cardtable.server.store import SeatRow

    guest = SeatRow(0, "human", "g", None, "t", True)
    user = SeatRow(0, "human", "u", None, "t", True, user_id=3)
    bot = SeatRow(1, "ai", "b", "hard", None, True)
    assert ratings.rated_players([user, bot]) == ["user:3", "ai:hard"]
    assert ratings.rated_players([guest, bot]) is None
    assert ratings.rated_players([bot, bot]) is None
    assert ratings.rated_players([user, SeatRow(1, "human", "u", None, "t", True, user_id=3)]) is None


def test_arena_landmarks_rank_a_search_level_above_random() -> None:
    game = load_game("lost-cities", rounds=1)
    found = arena_ratings(game, ["random", "medium"], games=4, iterations=70)
    assert [r.player for r in found] == ["ai:medium", "ai:random"]
    assert all(r.games == 4 for r in found)


def test_the_ratings_command_prints_and_stores_the_levels(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'lm.db'}"
    args = ["ratings", "lost-cities", "--rounds", "1", "--levels", "random,easy", "--games", "2", "--db", db]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "AI: random" in result.output and "AI: easy" in result.output and "±" in result.output
    assert "Stored 2 new AI ratings" in result.output
    again = CliRunner().invoke(app, args)
    assert "all were rated already" in again.output, again.output
    engine = make_engine(db)
    try:
        with engine.connect() as conn:
            assert ratings.read_rating(conn, "lost-cities", 2, "ai:easy") is not None
    finally:
        engine.dispose()
    bad = CliRunner().invoke(app, ["ratings", "lost-cities", "--levels", "random,random"])
    assert bad.exit_code != 0 and "two different levels" in bad.output
    bad = CliRunner().invoke(app, ["ratings", "lost-cities", "--levels", "random,grandmaster"])
    assert bad.exit_code != 0
