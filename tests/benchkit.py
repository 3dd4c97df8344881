"""Benchmarks under test: the scripts in ``benchmarks/`` are not a package, so tests load
them by file name (``load_benchmark("open_points")``)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def load_benchmark(name: str) -> ModuleType:
    """The module of ``benchmarks/<name>.py``, registered as ``name`` (the scripts import
    each other by that name) and with the folder on ``sys.path``."""
    if str(BENCHMARKS) not in sys.path:
        sys.path.append(str(BENCHMARKS))
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def record_lookahead_depths(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The look-ahead depth of every Command of Two play-out batch from now on (the Lost
    Ranks kernel's ``lookahead_playouts`` wrapped until ``monkeypatch`` is undone)."""
    from cardtable.games.lost_ranks import kernel

    depths: list[int] = []
    plain = kernel.lookahead_playouts

    def counted(state: Any, seed: int, n: int, me: int, depth: int = 1) -> Any:
        depths.append(depth)
        return plain(state, seed, n, me, depth)

    monkeypatch.setattr(kernel, "lookahead_playouts", counted)
    return depths
