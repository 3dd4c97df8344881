import sys
from pathlib import Path

# Test helper modules (conformance, srvkit, browserkit, golden) are imported by name.
_HERE = Path(__file__).parent
for _folder in (_HERE, _HERE / "server", _HERE / "browser"):
    sys.path.insert(0, str(_folder))

import pytest  # noqa: E402

SERVING = ("server", "browser")
"""Test folders whose servers search AI moves and hints within answer ceilings."""


@pytest.fixture(scope="session", autouse=True)
def _kernels_compiled_before_any_server(request: pytest.FixtureRequest) -> None:
    """Compile the kernels (numba, ``cardtable kernels``' steps) before a server's first
    search: a fresh clone's empty cache would otherwise make a hint wait for the compiler
    inside its answer's time limit (seen under load).  Loaded from the cache when warm."""
    if any(item.path.parent.name in SERVING for item in request.session.items):
        from cardtable.kernels.warm import warm

        warm()
