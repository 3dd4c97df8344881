"""Ratings (``openskill``'s Plackett–Luce model) per game and player count.

A rated player is an account (``user:<id>``) or an AI level (``ai:<agent>``,
shown as ``AI: hard``), so one person can climb against the bots.  A match is
rated when its creator asked for it (``"rated": true``) and, at its end, every
seat is bound to an account or played by an AI, no account holds two seats and at
least one account plays.  Teams are the game's teams (Lost Ranks partnerships);
ranks come from the finishing order where the result has one (Ранг's ``order``),
from the returns otherwise (equal returns share a rank).

A rating is shown on an Elo-like scale, :func:`display`: 1500 at openskill's
starting μ = 25 and :data:`SCALE` points per unit of μ (β = 25/6 of skill apart
is then 200 points, Elo's 76 % edge); its interval is ±2σ on the same scale.  A
rating whose σ is above :data:`PROVISIONAL_SIGMA` is provisional.

>>> display(25.0)
1500
>>> team_ranks([[0], [1]], [1.0, -1.0], None)
[0, 1]
>>> team_ranks([[0], [1], [2], [3]], [0.0, 0.0, 0.0, -1.0], [2, 0, 1, 3])
[1, 2, 0, 3]
>>> team_ranks([[0, 2], [1, 3]], [-1.0, 1.0, -1.0, 1.0], None)
[1, 0]
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import Connection, desc, insert, select, update

from cardtable.server.store import SeatRow, rating_history_table, ratings_table, users_table

SCALE = 48.0
"""Display points per unit of μ."""
PROVISIONAL_SIGMA = 4.0
"""σ above which a rating is marked provisional (it starts at 25/3 ≈ 8.3)."""
MODEL = PlackettLuce()


def display(mu: float) -> int:
    """μ on the Elo-like display scale."""
    return round(1500 + SCALE * (mu - MODEL.mu))


def interval(sigma: float) -> int:
    """Half-width of the ±2σ interval on the display scale."""
    return round(2 * SCALE * sigma)


def ai_player(agent: str) -> str:
    return f"ai:{agent}"


def user_player(user_id: int) -> str:
    return f"user:{user_id}"


def team_ranks(teams: Sequence[Sequence[int]], returns: Sequence[float], order: Sequence[int] | None) -> list[int]:
    """Each team's rank (0 best): by its best member's place in ``order`` (seats in
    finishing order) if given, else by return (ties share the better rank)."""
    if order:
        place = {seat: i for i, seat in enumerate(order)}
        best = [min(place.get(s, len(order)) for s in team) for team in teams]
        return [sorted(best).index(b) for b in best]
    value = [returns[team[0]] for team in teams]
    return [sum(v > mine for v in value) for mine in value]


def rated_players(seats: Sequence[SeatRow]) -> list[str] | None:
    """Each seat's rated player, or ``None`` if the match cannot be rated (a guest
    seat, an account in two seats, or no account at all)."""
    players: list[str] = []
    for s in seats:
        if s.user_id is not None:
            players.append(user_player(s.user_id))
        elif s.kind == "ai" and s.agent:
            players.append(ai_player(s.agent))
        else:
            return None
    users = [p for p in players if p.startswith("user:")]
    if not users or len(set(users)) != len(users):
        return None
    return players


@dataclass
class Rating:
    player: str
    mu: float
    sigma: float
    games: int

    def as_json(self) -> dict[str, Any]:
        return {"player": self.player, "rating": display(self.mu), "interval": interval(self.sigma),
                "mu": round(self.mu, 3), "sigma": round(self.sigma, 3), "games": self.games,
                "provisional": self.sigma > PROVISIONAL_SIGMA}


def read_rating(conn: Connection, game: str, players: int, player: str) -> Rating | None:
    """``player``'s rating, locked for the transaction's update where the database can
    (PostgreSQL's ``FOR UPDATE``; SQLite's writer holds the whole database anyway)."""
    t = ratings_table.c
    row = conn.execute(select(t.mu, t.sigma, t.games)
                       .where(t.game == game, t.players == players, t.player == player)
                       .with_for_update()).first()
    return None if row is None else Rating(player, float(row[0]), float(row[1]), int(row[2]))


def write_rating(conn: Connection, game: str, players: int, rating: Rating, *, match_id: str | None,
                 existed: bool) -> None:
    """Store ``rating`` and add it to the player's history."""
    t = ratings_table.c
    now = time.time()
    values = dict(mu=rating.mu, sigma=rating.sigma, games=rating.games, updated=now)
    if existed:
        conn.execute(update(ratings_table).where(t.game == game, t.players == players, t.player == rating.player)
                     .values(**values))
    else:
        conn.execute(insert(ratings_table).values(game=game, players=players, player=rating.player, **values))
    conn.execute(insert(rating_history_table).values(match_id=match_id, game=game, players=players,
                                                     player=rating.player, mu=rating.mu, sigma=rating.sigma,
                                                     ts=now))


def rate(conn: Connection, game: str, players: int, seat_players: Sequence[str], teams: Sequence[Sequence[int]],
         ranks: Sequence[int], match_id: str | None) -> list[Rating]:
    """Update the ratings of ``seat_players`` (by seat) after one match whose
    ``teams`` (seat lists) finished at ``ranks``; returns the new ratings.  An AI
    level in several seats (three ``hard`` bots in one Ранг match) moves by the mean
    of its seats' updates and counts the match once."""
    before: dict[str, Rating | None] = {p: read_rating(conn, game, players, p) for p in seat_players}
    model_teams = [[_model_rating(before[seat_players[s]], seat_players[s]) for s in team] for team in teams]
    updated = MODEL.rate(model_teams, ranks=[float(r) for r in ranks])
    seen: dict[str, list[tuple[float, float]]] = {}
    for team, new_team in zip(teams, updated):
        for seat, new in zip(team, new_team):
            seen.setdefault(seat_players[seat], []).append((float(new.mu), float(new.sigma)))
    out: list[Rating] = []
    for player, values in seen.items():
        old = before[player]
        mu = sum(v[0] for v in values) / len(values)
        sigma = sum(v[1] for v in values) / len(values)
        rating = Rating(player, mu, sigma, (old.games if old else 0) + 1)
        write_rating(conn, game, players, rating, match_id=match_id, existed=old is not None)
        out.append(rating)
    return out


def _model_rating(rating: Rating | None, name: str) -> Any:
    if rating is None:
        return MODEL.rating(name=name)
    return MODEL.rating(mu=rating.mu, sigma=rating.sigma, name=name)


def finish_update(match_id: str, game: str, seats: Sequence[SeatRow], teams: Sequence[Sequence[int]],
                  result: dict[str, Any]) -> Callable[[Connection], None] | None:
    """The rating update of a finished rated match, to run in the transaction that
    stores its end (``None`` when the match cannot be rated: :func:`rated_players`)."""
    seat_players = rated_players(seats)
    if seat_players is None:
        return None
    returns = [float(r) for r in result.get("returns", [])]
    order = result.get("order") if isinstance(result.get("order"), list) else None
    ranks = team_ranks(teams, returns, order)

    def op(conn: Connection) -> None:
        rate(conn, game, len(seats), seat_players, teams, ranks, match_id)

    return op


def names_of(conn: Connection, players: Sequence[str]) -> dict[str, str]:
    """Display names of rated players: account names, ``AI: <level>``."""
    ids = [int(p.split(":", 1)[1]) for p in players if p.startswith("user:")]
    names = {p: f"AI: {p.split(':', 1)[1]}" for p in players if p.startswith("ai:")}
    if ids:
        for uid, name in conn.execute(select(users_table.c.id, users_table.c.name)
                                      .where(users_table.c.id.in_(ids))):
            names[user_player(int(uid))] = str(name)
    return names


def leaderboard(conn: Connection, game: str, players: int, limit: int) -> list[dict[str, Any]]:
    """The top ``limit`` ratings of ``game`` at ``players`` seats, best μ first,
    AI levels among them (``"ai": true``)."""
    t = ratings_table.c
    rows = conn.execute(select(t.player, t.mu, t.sigma, t.games).where(t.game == game, t.players == players)
                        .order_by(desc(t.mu)).limit(limit)).all()
    ratings = [Rating(str(r[0]), float(r[1]), float(r[2]), int(r[3])) for r in rows]
    names = names_of(conn, [r.player for r in ratings])
    return [{**r.as_json(), "name": names.get(r.player, r.player), "ai": r.player.startswith("ai:")}
            for r in ratings]


def history(conn: Connection, player: str, limit: int = 500) -> list[dict[str, Any]]:
    """``player``'s ratings after each rated match, oldest first, per game and player count."""
    t = rating_history_table.c
    rows = conn.execute(select(t.game, t.players, t.match_id, t.mu, t.sigma, t.ts).where(t.player == player)
                        .order_by(desc(t.id)).limit(limit)).all()
    return [{"game": r[0], "players": int(r[1]), "match": r[2], "rating": display(float(r[3])),
             "interval": interval(float(r[4])), "ts": float(r[5])} for r in reversed(rows)]


def current(conn: Connection, player: str) -> list[dict[str, Any]]:
    """``player``'s current ratings, one per game and player count."""
    t = ratings_table.c
    rows = conn.execute(select(t.game, t.players, t.mu, t.sigma, t.games).where(t.player == player)
                        .order_by(t.game, t.players)).all()
    return [{"game": r[0], "players": int(r[1]), **Rating(player, float(r[2]), float(r[3]), int(r[4])).as_json()}
            for r in rows]
