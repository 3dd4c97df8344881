"""numba, seen from the kernels: typed ``njit`` and the compilation of shared Python functions.

The kernels compile with ``cache=True``: the machine code is written next to the
module (``__pycache__``) or, where that is read-only, to numba's user-wide cache
(``NUMBA_CACHE_DIR`` when set), so only the first call on a machine pays the
compilation.

numba checks a cached function against its own source file only, yet a compiled
function carries everything it calls and every global table it reads frozen inside
it: after an edit of a decision module or an engine alone, a kernel would load its
old machine code.  :func:`njit_keyed` closes that gap by naming the cache entries
after a hash of the modules a kernel depends on (``tests/test_kernel_cache.py`` shows
the stale entry with plain :func:`njit` and the fresh one with :func:`njit_keyed`).
"""

from __future__ import annotations

import hashlib
import types
from pathlib import Path
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar, cast

import numpy as np

try:
    import numba  # type: ignore[import-untyped,import-not-found,unused-ignore]
except ImportError as error:  # pragma: no cover - the kernels are an optional extra
    raise ImportError("the compiled kernels need numba: pip install 'cardtable[fast]'") from error

F = TypeVar("F", bound=Callable[..., Any])


def njit(function: F) -> F:
    """``numba.njit(cache=True)``, keeping the function's type for mypy."""
    return cast(F, numba.njit(cache=True)(function))


def njit_inline(function: F) -> F:
    """:func:`njit` compiled into each caller (``inline="always"``): for the small
    functions of a kernel's inner loop, where a call's reference counting of its array
    arguments costs more than the work."""
    return cast(F, numba.njit(cache=True, inline="always")(function))


def source_key(*modules: types.ModuleType) -> str:
    """A short hash of the source files of ``modules``."""
    digest = hashlib.sha256()
    for module in modules:
        digest.update(Path(str(module.__file__)).read_bytes())
    return digest.hexdigest()[:16]


def njit_keyed(*modules: types.ModuleType, inline: bool = False) -> Callable[[F], F]:
    """:func:`njit` (:func:`njit_inline` with ``inline``) for functions whose compiled
    code depends on ``modules`` too (the functions they call, the tables they read): the
    cache entries are named after :func:`source_key` of those modules, so an edit of any
    of them compiles afresh."""
    key = source_key(*modules)

    def keyed(function: F) -> F:
        function.__qualname__ = f"{function.__qualname__}__{key}"
        return njit_inline(function) if inline else njit(function)

    return keyed


def compile_shared(module: types.ModuleType, names: Iterable[str], tables: Iterable[str],
                   overrides: Mapping[str, Any] | None = None, inline: bool | Iterable[str] = False) -> dict[str, Any]:
    """Compiled twins of the plain functions ``names`` of ``module``, which stays as it is.

    The twins share one copy of the module's globals in which the functions are
    replaced by their compiled versions (so that they call each other compiled), the
    lookup tables ``tables`` (tuples of ints) by int64 arrays and the names of
    ``overrides`` by the compiled functions given there (e.g. a bit trick that Python
    does with ``int.bit_length``); numba freezes all of them at compile time.  With
    ``inline`` the twins are compiled into their callers (:func:`njit_inline`): all of
    them (``True``) or those it names — the ones that take arrays, whose calls cost
    reference counting; inlining everything multiplies the compile time.  Returns that
    namespace: ``compiled["plan"]`` and so on."""
    namespace = dict(vars(module))
    namespace.update(overrides or {})
    for name in tables:
        namespace[name] = np.asarray(namespace[name], dtype=np.int64)
    names = tuple(names)
    inlined = frozenset(() if isinstance(inline, bool) else inline)
    if not inlined <= set(names):
        raise ValueError(f"inline names functions not compiled here: {', '.join(sorted(inlined - set(names)))}")
    for name in names:
        source = namespace[name]
        twin = types.FunctionType(source.__code__, namespace, source.__name__, source.__defaults__)
        twin.__qualname__ = source.__qualname__
        twin.__module__ = source.__module__
        namespace[name] = njit_inline(twin) if inline is True or name in inlined else njit(twin)
    return namespace
