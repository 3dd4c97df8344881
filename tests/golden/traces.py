"""Golden playthrough traces (OpenSpiel style): fixed-seed random games written
out move by move — the full state, the view of the seat to move, the legal moves, the chosen move — and
diffed by ``tests/test_golden.py``.

Regenerate on purpose after a deliberate rules or view change::

    python tests/golden/traces.py
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from cardtable.registry import load_game

HERE = Path(__file__).parent

# (file stem, game, options, seed, most actions written)
TRACES: list[tuple[str, str, dict[str, object], int, int]] = [
    ("lost-cities-5", "lost-cities", {"rounds": 1}, 1, 80),
    ("lost-cities-6", "lost-cities", {"colors": 6, "rounds": 1}, 2, 80),
    ("lost-ranks-4p", "lost-ranks", {"players": 4}, 1, 80),
    ("lost-ranks-2p", "lost-ranks", {"players": 2}, 1, 80),
    ("rank-3p", "rank", {"players": 3}, 1, 80),
    ("rank-6p", "rank", {"players": 6}, 2, 80),
]


def trace(game_name: str, options: dict[str, object], seed: int, limit: int) -> str:
    """The trace text of one random play-out (moves chosen by ``random.Random(seed)``)."""
    game = load_game(game_name, **options)
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    lines = [f"game {game_name} {json.dumps(game.config_dict(), sort_keys=True)} seed {seed}"]
    step = 0
    while not state.is_terminal() and step < limit:
        lines.append(f"--- step {step}")
        lines.append(f"state {str(state)!r}")
        seat = state.current_player()
        lines.append(f"view {seat} {json.dumps(state.view(seat), sort_keys=True, ensure_ascii=False)}")
        legal = state.legal_actions()
        lines.append(f"player {state.current_player()} legal {legal}")
        lines.append("moves " + " | ".join(state.legal_action_strings()))
        action = rng.choice(legal)
        event = state.apply_action(action)
        lines.append(f"apply {action} {event.text!r} note {event.note!r}")
        step += 1
    if state.is_terminal():
        lines.append(f"result {json.dumps(state.result(), sort_keys=True)}")
    else:
        lines.append(f"stopped after {step} actions")
    return "\n".join(lines) + "\n"


def path_of(stem: str) -> Path:
    return HERE / f"{stem}.trace"


def main(argv: list[str]) -> int:
    only = set(argv)
    for stem, name, options, seed, limit in TRACES:
        if only and stem not in only:
            continue
        path_of(stem).write_text(trace(name, options, seed, limit), encoding="utf-8")
        print(f"wrote {path_of(stem)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
