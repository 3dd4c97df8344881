import sys
from pathlib import Path

# Test helper modules (conformance, srvkit, browserkit, golden) are imported by name.
_HERE = Path(__file__).parent
for _folder in (_HERE, _HERE / "server", _HERE / "browser"):
    sys.path.insert(0, str(_folder))
