"""Property test: no message to any seat or spectator ever names a card that
recipient may not see — across random games with bad moves, hints, syncs,
replays, reconnects and spectators coming and going.

What a recipient "may see" is derived from the games' own views, independently
of the server's projection code:

* seat ``s`` after move ``k`` knows every card token shown in ``view(s)`` at any
  move ``j <= k`` (cards once seen stay known);
* a spectator knows the tokens shown to *every* seat at some move ``j <= k``
  (what is on the table for all to see).

Every server message carries the ``seq`` it was built at; all its card tokens
(whole tokens: ``7C`` is not found inside ``17C``) must be known to its
recipient at that seq.  The cards held by other seats that the recipient never
saw are checked explicitly too, and so is the match's secret seed.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from srvkit import ServerThread, WsClient, join

from cardtable.registry import load_game
from cardtable.server.views import card_names

TOKEN = re.compile(r"[0-9A-Za-z]+")
EXAMPLES = int(os.environ.get("CARDTABLE_LEAK_EXAMPLES", "6"))

VARIANTS = [
    ("lost-cities", {"rounds": 1}),
    ("lost-ranks", {"players": 4}),
    ("lost-ranks", {"players": 2}),
    ("rank", {"players": 3}),
    ("rank", {"players": 6}),
]
IDS = ["lost-cities", "lost-ranks-4", "lost-ranks-2", "rank-3", "rank-6"]

ACTIONS = ["move"] * 12 + ["bad_move", "bad_text", "wrong_seat", "stale", "hint", "sync", "replay",
                           "reconnect", "spectate", "unspectate"]


def tokens(text: str) -> set[str]:
    return set(TOKEN.findall(text))


class Table:
    def __init__(self, server: ServerThread, game: str, config: dict[str, Any], seed: int) -> None:
        self.server = server
        # A fixed seed keeps hypothesis's replays deterministic; it is large so that
        # finding it in a message cannot be a coincidence.
        created = server.create(game, config, hints=True, seed=seed)
        self.id: str = created["match"]
        self.tokens = {s["seat"]: s["token"] for s in created["seats"]}
        self.n = len(self.tokens)
        self.seats: dict[int, WsClient] = {s: join(server, self.id, t) for s, t in self.tokens.items()}
        self.spectators: list[WsClient] = [join(server, self.id)]
        self.all: list[tuple[int | None, WsClient]] = [(s, c) for s, c in self.seats.items()]
        self.all += [(None, c) for c in self.spectators]

    @property
    def seq(self) -> int:
        return next(iter(self.seats.values())).seq

    def connected(self) -> list[WsClient]:
        return list(self.seats.values()) + self.spectators

    def sync_all(self, seq: int) -> None:
        for c in self.connected():
            c.wait_seq(seq)

    def close(self) -> None:
        for _, c in self.all:
            c.close()


def step(table: Table, action: str, data: st.DataObject) -> None:
    view = table.seats[0].view
    assert view is not None
    cur = view["current_player"]
    seq = table.seq
    over = cur < 0
    if action == "move" and not over:
        mover = table.seats[cur]
        choice = data.draw(st.sampled_from(mover.legal))
        as_text = data.draw(st.booleans())
        mover.send({"type": "move", "seq": seq, **({"move": choice["move"]} if as_text else {"action": choice["action"]})})
        table.sync_all(seq + 1)
    elif action == "bad_move":
        who = table.seats[data.draw(st.integers(0, table.n - 1))]
        reply = who.request({"type": "move", "seq": seq, "action": data.draw(st.integers(-5, 400))},
                            lambda m: m["type"] in ("error", "ack"))
        if reply["type"] == "ack":  # a random action id may well be legal
            table.sync_all(reply["seq"])
    elif action == "bad_text":
        who = table.seats[data.draw(st.integers(0, table.n - 1))]
        verb = data.draw(st.sampled_from(["play", "discard", "draw", "lead", "take", ""]))
        card = data.draw(st.sampled_from(sorted(card_names(load_game(view["game"])))))
        who.send({"type": "move", "seq": seq, "move": f"{verb} {card}"})
        reply = who.wait(lambda m: m["type"] in ("error", "ack"))
        if reply["type"] == "ack":
            table.sync_all(reply["seq"])
    elif action == "wrong_seat" and not over:
        other = (cur + 1) % table.n
        table.seats[other].request({"type": "move", "seq": seq, "action": 0}, "error")
    elif action == "stale" and not over and seq > 0:
        mover = table.seats[cur]
        mover.request({"type": "move", "seq": seq - 1, "action": mover.legal[0]["action"]}, "error")
    elif action == "hint" and not over:
        table.seats[cur].request({"type": "hint"}, "hint")
    elif action == "sync":
        who = data.draw(st.sampled_from(table.connected()))
        who.request({"type": "sync"}, "state")
    elif action == "replay":
        who = data.draw(st.sampled_from(table.connected()))
        who.request({"type": "replay"}, "replay")
    elif action == "reconnect":
        seat = data.draw(st.integers(0, table.n - 1))
        table.seats[seat].close()
        fresh = join(table.server, table.id, table.tokens[seat])
        table.seats[seat] = fresh
        table.all.append((seat, fresh))
    elif action == "spectate" and len(table.spectators) < 3:
        c = join(table.server, table.id)
        table.spectators.append(c)
        table.all.append((None, c))
    elif action == "unspectate" and table.spectators:
        table.spectators.pop(0).close()


def check_no_leaks(table: Table) -> int:
    room = table.server.rooms.rooms[table.id]
    game = room.game
    history = list(room.state.history)
    seed = room.row.seed
    cards = card_names(game)
    state = game.new_state(seed=seed)
    n = game.num_players
    known: list[list[set[str]]] = [[] for _ in range(n)]
    public: list[set[str]] = []
    hands: list[list[set[str]]] = [[] for _ in range(n)]
    for k in range(len(history) + 1):
        shown = [tokens(json.dumps(state.view(s))) & cards for s in range(n)]
        for s in range(n):
            known[s].append((known[s][-1] if k else set()) | shown[s])
            hands[s].append(set(state.view(s)["hand"]))
        common = set.intersection(*shown)
        public.append((public[-1] if k else set()) | common)
        if k < len(history):
            state.apply_action(history[k])
    checked = 0
    for key, client in table.all:
        client.close()
        for raw in client.raw:
            msg = json.loads(raw)
            seq = msg.get("seq")
            assert isinstance(seq, int), raw[:200]
            text = raw.replace(table.id, "")
            found = tokens(text)
            assert str(seed) not in found, "the secret seed was sent"
            seen = found & cards
            allowed = public[seq] if key is None else known[key][seq]
            hidden_hands = set().union(*(hands[q][seq] for q in range(n) if q != key)) - allowed
            assert not seen & hidden_hands, f"{key} was sent cards in others' hands: {seen & hidden_hands} in {raw[:300]}"
            assert seen <= allowed, f"recipient {key} was sent unseen cards {seen - allowed} in {raw[:300]}"
            if key is None:
                assert "hand" not in msg.get("view", {})
            checked += 1
    return checked


@pytest.mark.parametrize("game,config", VARIANTS, ids=IDS)
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.data_too_large])
@given(data=st.data())
def test_no_message_leaks_a_hidden_card(server: ServerThread, game: str, config: dict[str, Any],
                                        data: st.DataObject) -> None:
    table = Table(server, game, config, data.draw(st.integers(10**12, 2**61), label="seed"))
    try:
        steps = data.draw(st.integers(5, 120), label="steps")
        for _ in range(steps):
            step(table, data.draw(st.sampled_from(ACTIONS)), data)
            view = table.seats[0].view
            if view is not None and view["current_player"] < 0 and data.draw(st.booleans()):
                break
    finally:
        checked = check_no_leaks(table)
    assert checked > table.n


def test_a_finished_match_leaks_nothing(server: ServerThread) -> None:
    """One match played to the end (the end-of-match messages and results)."""
    import random

    table = Table(server, "lost-cities", {"rounds": 1}, 987654321987)
    rng = random.Random(5)
    try:
        while True:
            view = table.seats[0].view
            assert view is not None
            cur = view["current_player"]
            if cur < 0:
                break
            mover = table.seats[cur]
            seq = table.seq
            mover.send({"type": "move", "seq": seq, "action": rng.choice(mover.legal)["action"]})
            table.sync_all(seq + 1)
        for c in table.connected():
            c.request({"type": "replay"}, "replay")
    finally:
        check_no_leaks(table)
