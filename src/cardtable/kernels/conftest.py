"""Doctest collection of the compiled kernels only when the extra ``fast`` is installed
(``__init__`` needs neither numba nor numpy and is always collected)."""

import importlib.util

_NEEDS = ("numpy", "numba")

collect_ignore_glob = [] if all(importlib.util.find_spec(m) for m in _NEEDS) else ["[!_]*.py"]
