"""Doctest collection of ``cardtable.rl`` only when its optional extra is installed."""

import importlib.util

_NEEDS = ("numpy", "gymnasium", "pettingzoo", "pyspiel")

collect_ignore_glob = [] if all(importlib.util.find_spec(m) for m in _NEEDS) else ["*.py"]
