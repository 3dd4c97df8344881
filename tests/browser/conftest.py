"""Fixtures of the browser tests: one live server and one headless Chromium per module."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")

# the kit sits next to this file (works with any --import-mode)
sys.path.insert(0, str(Path(__file__).resolve().parent))

from browserkit import CHROMIUM, CHROMIUM_ARGS, LiveServer, Tracker  # noqa: E402

if not CHROMIUM.exists():
    pytest.skip(f"browser tests need Debian's Chromium at {CHROMIUM}", allow_module_level=True)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    # Module scope: Playwright's sync API keeps an asyncio loop running in this thread
    # while it is open, which would break later tests that call asyncio.run().
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db: Path = tmp_path_factory.mktemp("browser-db") / "cardtable.db"
    with LiveServer(f"sqlite:///{db}", ai_delay=0.02, takeover_grace=1.0) as srv:
        yield srv


@pytest.fixture()
def tracker(browser: Any) -> Iterator[Tracker]:
    """Fails the test on page errors, console errors and missing translations."""
    tr = Tracker()
    yield tr
    tr.check()
