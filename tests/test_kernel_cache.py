"""numba's on-disk cache and the modules a kernel depends on (``cardtable.kernels.jit``).

numba checks a cached function against its own source file only: after an edit of a
module whose function it calls, plain ``njit(cache=True)`` loads the old machine code.
The kernels use :func:`~cardtable.kernels.jit.njit_keyed`, whose cache entries are
named after the sources the kernel depends on, so the same edit compiles afresh.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numba", reason="the kernels are the optional extra 'fast' (pip install 'cardtable[fast]')")

import cardtable  # noqa: E402

KERNEL = '''
from cardtable.kernels.jit import compile_shared, njit, njit_keyed
import dep
value = compile_shared(dep, ("value",), ())["value"]

@njit
def plain() -> int:
    return value()

@njit_keyed(dep)
def keyed() -> int:
    return value()

print(plain(), keyed())
'''


def _run(folder: Path) -> str:
    src = str(Path(cardtable.__file__).parent.parent)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([src, str(folder)]))
    env.pop("NUMBA_CACHE_DIR", None)  # the cache next to the modules, in ``folder``
    done = subprocess.run([sys.executable, str(folder / "kernel.py")], env=env, capture_output=True, text=True,
                          check=True, timeout=600)
    return done.stdout.strip()


def test_an_edited_dependency_is_stale_with_njit_and_fresh_with_njit_keyed(tmp_path: Path) -> None:
    dep = tmp_path / "dep.py"
    dep.write_text("def value() -> int:\n    return 1\n")
    (tmp_path / "kernel.py").write_text(KERNEL)
    assert _run(tmp_path) == "1 1"
    dep.write_text("def value() -> int:\n    return 2\n")
    assert _run(tmp_path) == "1 2"  # plain njit: the cached caller still holds the old dep.value
    cached = sorted(p.name for p in (tmp_path / "__pycache__").iterdir() if p.suffix == ".nbi")
    assert sum(name.startswith("kernel.keyed__") for name in cached) == 2  # one entry per source of dep.py
    assert sum(name.startswith("kernel.plain-") for name in cached) == 1


def test_compile_shared_inlines_the_twins_it_is_told_to() -> None:
    from cardtable.games.lost_ranks import decisions
    from cardtable.kernels.jit import compile_shared

    some = compile_shared(decisions, ("later", "bit_count"), (), inline=("later",))
    assert some["later"].targetoptions.get("inline") == "always"
    assert some["bit_count"].targetoptions.get("inline") is None
    assert some["later"](1, 2, 4) == decisions.later(1, 2, 4) == 0
    every = compile_shared(decisions, ("later",), (), inline=True)
    assert every["later"].targetoptions.get("inline") == "always"
    assert not hasattr(decisions.later, "targetoptions")  # the module itself stays plain Python
    with pytest.raises(ValueError, match="lateer"):
        compile_shared(decisions, ("later",), (), inline=("lateer",))
