"""Golden playthrough traces (OpenSpiel's playthroughs): fixed-seed random matches
written out move by move, from the deal to the result, and diffed by
``tests/test_golden.py``.

A trace is one line per item.  The header names the game, its options and the seed;
then every step has

* ``state`` — the full true state (``str(state)``, quoted on one line);
* ``view <seat>`` for every seat, then ``public`` — what each seat, and a spectator, sees;
* ``player <seat> legal [...]`` and ``moves ...`` — the legal actions and their names;
* ``apply <action> ...`` — the chosen action and its event (:func:`event_line`).

After the last move come the final views, ``returns [...]`` and ``result {...}``.

**Views are written as changes** (:func:`view_change`): a view line holds only the
top-level keys whose value differs from that seat's (or the public) view on the
line before, a list that only grew as ``"key+": [new items]``, and a key that went
away as ``"key-": null``; the first view line of each seat is the whole view.  Every
view of every step is thus determined by the trace, and a change in any of them
shows in the diff — but the logs, which every view repeats in full and which grow
with every move, are written once per item instead of once per step: whole views
would make a 1-round Lost Cities trace 5 MB and a 6-player Rank trace 10 MB; as
changes every file stays under 1 MB.

Moves are ``random.Random(seed).choice`` of the legal actions, so a trace is a
function of the game's rules alone.  Regenerate on purpose after a deliberate
rules or view change::

    PYTHONPATH=src python tests/golden/traces.py [stem ...]
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from cardtable.protocol import Event, State
from cardtable.registry import load_game

HERE = Path(__file__).parent
MAX_ACTIONS = 20000
"""A trace longer than this means the match does not end: an error, not a trace."""

# (file stem, game, options, seed)
TRACES: list[tuple[str, str, dict[str, object], int]] = [
    ("lost-cities-5", "lost-cities", {"rounds": 1}, 1),
    ("lost-cities-6", "lost-cities", {"colors": 6, "rounds": 1}, 2),
    ("lost-ranks-4p", "lost-ranks", {"players": 4}, 1),
    ("lost-ranks-2p", "lost-ranks", {"players": 2}, 1),
    ("rank-3p", "rank", {"players": 3}, 1),
    ("rank-6p", "rank", {"players": 6}, 2),
]


def event_line(action: int, event: Event) -> str:
    """The trace line of one applied action and the event it produced."""
    return f"apply {action} {event.text!r} note {event.note!r}"


def view_change(before: dict[str, Any] | None, after: dict[str, Any]) -> dict[str, Any]:
    """The top-level keys of ``after`` that are not as in ``before`` (all of them if
    ``before`` is ``None``): a list that only grew gives ``key+`` and its new items, a
    key that went away gives ``key-``.

    >>> view_change({"log": [1], "turn": 0, "drawn": "AS"}, {"log": [1, 2], "turn": 1})
    {'log+': [2], 'turn': 1, 'drawn-': None}
    >>> view_change(None, {"turn": 0})
    {'turn': 0}
    """
    if before is None:
        return dict(after)
    change: dict[str, Any] = {}
    for key, value in after.items():
        if key in before and before[key] == value:
            continue
        old = before.get(key)
        if isinstance(old, list) and isinstance(value, list) and len(old) < len(value) and value[: len(old)] == old:
            change[f"{key}+"] = value[len(old):]
        else:
            change[key] = value
    for key in sorted(before.keys() - after.keys()):
        change[f"{key}-"] = None
    return change


def _dump(data: object) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False)


class _ViewWriter:
    """Writes every seat's view and the public view as changes since the last ones."""

    def __init__(self, num_players: int) -> None:
        self.last: list[dict[str, Any] | None] = [None] * (num_players + 1)

    def lines(self, state: State) -> list[str]:
        views = [state.view(p) for p in range(state.game.num_players)] + [state.public_view()]
        out = []
        for index, view in enumerate(views):
            label = "public" if index == len(views) - 1 else f"view {index}"
            out.append(f"{label} {_dump(view_change(self.last[index], view))}")
            self.last[index] = view
        return out


def trace(game_name: str, options: dict[str, object], seed: int) -> str:
    """The trace text of one whole random match (moves chosen by ``random.Random(seed)``)."""
    game = load_game(game_name, **options)
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    views = _ViewWriter(game.num_players)
    lines = [f"game {game_name} {_dump(game.config_dict())} seed {seed}"]
    step = 0
    while not state.is_terminal():
        if step >= MAX_ACTIONS:
            raise RuntimeError(f"{game_name} seed {seed} did not end in {MAX_ACTIONS} actions")
        lines.append(f"--- step {step}")
        lines.append(f"state {str(state)!r}")
        lines.extend(views.lines(state))
        legal = state.legal_actions()
        lines.append(f"player {state.current_player()} legal {legal}")
        lines.append("moves " + " | ".join(state.legal_action_strings()))
        action = rng.choice(legal)
        lines.append(event_line(action, state.apply_action(action)))
        step += 1
    lines.append(f"--- end after {step} actions")
    lines.append(f"state {str(state)!r}")
    lines.extend(views.lines(state))
    lines.append(f"returns {state.returns()}")
    lines.append(f"result {_dump(state.result())}")
    return "\n".join(lines) + "\n"


def path_of(stem: str) -> Path:
    return HERE / f"{stem}.trace"


def main(argv: list[str]) -> int:
    only = set(argv)
    for stem, name, options, seed in TRACES:
        if only and stem not in only:
            continue
        path_of(stem).write_text(trace(name, options, seed), encoding="utf-8")
        print(f"wrote {path_of(stem)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
