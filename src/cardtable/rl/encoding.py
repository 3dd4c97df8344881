"""Tensor encodings of a seat's view: layouts, the :class:`Encoder` base and helpers.

An encoder turns **one seat's view** (``State.view(player)``, the JSON dict of exactly
what that seat may know) into fixed-shape ``float32`` numpy arrays.  It never reads the
state's internals, so an encoding cannot leak what the view hides; the only other input
is the legal-action mask, which is what the seat to move is told anyway.

Two forms per game:

* **observation** — the current situation (hands, tables, piles, counts, scores);
* **information state** — the observation followed by *history planes*: a fixed-size
  summary of the public record of the current round (who played, discarded, took or
  drew what, in which order) — the perfect-recall features a learner needs.

Tensors are flat (``shape == (size,)``); :class:`Layout` names every segment, its
shape and offset (``encoder.observation_layout.describe()`` prints the table that
``docs/rl.md`` reproduces).  Seats are always *relative* to the observer: index 0 is the
observer, 1 the next seat clockwise, and so on.  Every value lies in ``[-1, 1]``
(counts and scores are scaled and clipped).

Strings: ``observation_string`` is the view as canonical JSON without its public log;
``information_state_string`` is the whole view plus the match's action history (every
action id of these games is public: LC-8, RG-9, LR-20): perfect recall of the public
record plus what the seat privately holds (and, in Ранг, its own drawn cards).
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from cardtable.protocol import Game, State

FloatArray = npt.NDArray[np.float32]
MaskArray = npt.NDArray[np.int8]
View = dict[str, Any]

OBSERVATION = "observation"
INFORMATION_STATE = "information_state"
KINDS = (OBSERVATION, INFORMATION_STATE)


@dataclass(frozen=True)
class Segment:
    """One named block of a flat tensor."""

    name: str
    shape: tuple[int, ...]
    offset: int
    doc: str
    size: int


class Layout:
    """An ordered list of named segments making one flat ``float32`` tensor."""

    def __init__(self, segments: Iterable[tuple[str, tuple[int, ...], str]] = ()) -> None:
        self.segments: list[Segment] = []
        self.size = 0
        for name, shape, doc in segments:
            self.add(name, shape, doc)

    def add(self, name: str, shape: tuple[int, ...], doc: str) -> Segment:
        if any(s.name == name for s in self.segments):
            raise ValueError(f"duplicate segment {name!r}")
        size = 1
        for d in shape:
            size *= int(d)
        seg = Segment(name, tuple(shape), self.size, doc, size)
        self.segments.append(seg)
        self.size += seg.size
        return seg

    def extended(self, more: Iterable[tuple[str, tuple[int, ...], str]]) -> Layout:
        """A new layout: these segments, then ``more``."""
        out = Layout((s.name, s.shape, s.doc) for s in self.segments)
        for name, shape, doc in more:
            out.add(name, shape, doc)
        return out

    @property
    def shape(self) -> tuple[int]:
        return (self.size,)

    def zeros(self) -> FloatArray:
        return np.zeros(self.size, dtype=np.float32)

    def views(self, flat: FloatArray) -> dict[str, FloatArray]:
        """Named, reshaped views into ``flat`` (writing to them writes ``flat``)."""
        return {s.name: flat[s.offset:s.offset + s.size].reshape(s.shape) if len(s.shape) > 1
                else flat[s.offset:s.offset + s.size] for s in self.segments}

    def segment(self, name: str) -> Segment:
        for s in self.segments:
            if s.name == name:
                return s
        raise KeyError(name)

    def describe(self, first: int = 0) -> str:
        """A Markdown table of the segments (from the ``first``-th one)."""
        rows = ["| offset | segment | shape | meaning |", "| ---: | --- | --- | --- |"]
        for s in self.segments[first:]:
            shape = "×".join(str(d) for d in s.shape)
            rows.append(f"| {s.offset} | `{s.name}` | {shape} | {s.doc} |")
        rows.append(f"| {self.size} | | | total |")
        return "\n".join(rows)


def clip(x: float) -> float:
    """``x`` clipped to ``[-1, 1]``."""
    return -1.0 if x < -1.0 else 1.0 if x > 1.0 else float(x)


def one_hot(arr: FloatArray, index: int | None) -> None:
    if index is not None and 0 <= index < arr.shape[0]:
        arr[index] = 1.0


class Encoder(ABC):
    """Encodes one game variant's views.  Build with :func:`cardtable.rl.encoder_for`."""

    game: Game
    observation_layout: Layout
    information_state_layout: Layout

    def __init__(self, game: Game) -> None:
        self.game = game
        self.num_actions = game.num_distinct_actions
        self.num_players = game.num_players

    # --- shapes -------------------------------------------------------------
    @property
    def observation_shape(self) -> tuple[int]:
        return self.observation_layout.shape

    @property
    def information_state_shape(self) -> tuple[int]:
        return self.information_state_layout.shape

    def layout(self, kind: str = OBSERVATION) -> Layout:
        if kind == OBSERVATION:
            return self.observation_layout
        if kind == INFORMATION_STATE:
            return self.information_state_layout
        raise ValueError(f"kind must be one of {KINDS}, not {kind!r}")

    # --- tensors ------------------------------------------------------------
    def observation(self, view: View) -> FloatArray:
        """The observation tensor of ``view``."""
        out = self.observation_layout.zeros()
        self.fill(out, view, OBSERVATION)
        return out

    def information_state(self, view: View) -> FloatArray:
        """The information-state tensor of ``view`` (observation + history planes)."""
        out = self.information_state_layout.zeros()
        self.fill(out, view, INFORMATION_STATE)
        return out

    def encode(self, view: View, kind: str = OBSERVATION) -> FloatArray:
        return self.observation(view) if kind == OBSERVATION else self.information_state(view)

    def fill(self, out: FloatArray, view: View, kind: str = OBSERVATION) -> None:
        """Write the encoding of ``view`` into the zeroed array ``out``."""
        layout = self.layout(kind)
        views = layout.views(out)
        self._observation(views, view)
        if kind == INFORMATION_STATE:
            self._history(views, view)
        np.clip(out, -1.0, 1.0, out=out)

    @abstractmethod
    def _observation(self, t: dict[str, FloatArray], view: View) -> None:
        """Fill the observation segments."""

    @abstractmethod
    def _history(self, t: dict[str, FloatArray], view: View) -> None:
        """Fill the history segments of the information state."""

    # --- strings ------------------------------------------------------------
    def observation_string(self, view: View) -> str:
        """The view without its public log, as canonical JSON."""
        trimmed = {k: v for k, v in view.items() if k != "log"}
        return json.dumps(trimmed, sort_keys=True, ensure_ascii=False, separators=(",", ":"))

    def information_state_string(self, view: View, history: Sequence[int]) -> str:
        """The full view plus every action of the match so far (all public)."""
        body = json.dumps(view, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return body + "\nhistory " + " ".join(str(a) for a in history)

    # --- masks --------------------------------------------------------------
    def action_mask(self, state: State, player: int) -> MaskArray:
        """1 for each legal action of ``player`` (all 0 when it is not its turn)."""
        mask = np.zeros(self.num_actions, dtype=np.int8)
        if not state.is_terminal() and state.current_player() == player:
            mask[state.legal_actions()] = 1
        return mask

    # --- helpers ------------------------------------------------------------
    def relative(self, view: View, seat: int) -> int:
        """Seat index relative to the observer (0 = observer, 1 = next clockwise …)."""
        return (seat - int(view["player"])) % self.num_players

    def describe(self) -> str:
        """Markdown documentation of both layouts."""
        return (f"Observation {self.observation_shape}:\n\n{self.observation_layout.describe()}\n\n"
                f"Information state {self.information_state_shape} (the observation, then):\n\n"
                + self.information_state_layout.describe(len(self.observation_layout.segments)))
