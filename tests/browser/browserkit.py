"""Kit of the browser tests: a live server (the FastAPI app plus the web UI) in a
thread, Chromium through Playwright, and the check that no page ever shows a card
its player has not been shown."""

from __future__ import annotations

import asyncio
import json
import os
import re
import threading
import time
from pathlib import Path
from typing import Any

from cardtable.web import mount
from srvkit import CEILING, ServerThread

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = Path(os.environ.get("CARDTABLE_SCREENSHOTS") or ROOT / "artifacts" / "screenshots")
"""Where the tests leave their screenshots (``$CARDTABLE_SCREENSHOTS`` overrides it)."""
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}

TOKEN = re.compile(r"[0-9A-Za-z]+")


class LiveServer(ServerThread):
    """``with LiveServer(db_url) as srv:`` — the app with the UI mounted, on 127.0.0.1,
    served on an event loop of our own so tests can run coroutines on it."""

    def __init__(self, db_url: str, **options: Any) -> None:
        super().__init__(db_url, **options)
        mount(self.app)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self.server.serve(sockets=[self.sock]))

    def __enter__(self) -> LiveServer:
        super().__enter__()
        return self

    def create(self, game: str, config: dict[str, Any], seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
        r = self.http.post("/api/matches", json={"game": game, "config": config, "seats": seats, **extra})
        assert r.status_code == 201, r.text
        data: dict[str, Any] = r.json()
        return data

    def snapshot(self, match_id: str) -> tuple[int, list[dict[str, Any]], list[str], bool]:
        """The true state of a match, read on the server's loop under the match lock:
        ``(seq, seat views, seat view JSON texts, finished)``."""
        seq, views, texts, finished, _ = self.truth(match_id)
        return seq, views, texts, finished

    def truth(self, match_id: str) -> tuple[int, list[dict[str, Any]], list[str], bool, list[str]]:
        """:meth:`snapshot` plus the legal moves (texts) of the seat to move.  The
        texts list has one more entry than there are seats: the public view."""

        async def op() -> tuple[int, list[dict[str, Any]], list[str], bool, list[str]]:
            room = await self.app.state.rooms.get(match_id)
            async with room.lock:
                n = room.game.num_players
                texts = [room.view(s)[1] for s in range(n)] + [room.view(None)[1]]
                legal = [] if room.finished else [
                    room.state.action_to_string(a) for a in room.state.legal_actions()]
                return room.seq, [json.loads(x) for x in texts[:n]], texts, room.finished, legal

        return asyncio.run_coroutine_threadsafe(op(), self.loop).result(CEILING)

    def replay_steps(self, match_id: str, seat: int | None) -> list[dict[str, Any]]:
        """The match so far as ``seat`` (None: the public) saw it: the server's replay steps."""

        async def op() -> list[dict[str, Any]]:
            room = await self.app.state.rooms.get(match_id)
            steps: list[dict[str, Any]] = await asyncio.to_thread(room.replay_steps, seat)
            return steps

        return asyncio.run_coroutine_threadsafe(op(), self.loop).result(CEILING)

    def ever_shown(self, match_id: str, seat: int | None) -> set[str]:
        """Every card shown to ``seat`` (None: the public) in any state of the match so far."""
        out: set[str] = set()
        for step in self.replay_steps(match_id, seat):
            out |= shown_cards(json.dumps(step["view"]))
        return out


def secret_cards(views: list[dict[str, Any]], texts: list[str], seat: int | None) -> set[str]:
    """Cards other seats hold (hands, hidden phantom cards, a private drawn pair) that
    ``seat``'s view does not show (``seat`` None: a spectator, nothing private is shown)."""
    hidden: set[str] = set()
    for other, v in enumerate(views):
        if other == seat:
            continue
        cards = list(v.get("hand") or [])
        phantoms = v.get("phantoms")
        if phantoms:
            ups = v["phantom_face_up"][other]
            cards += [c for c, up in zip(phantoms[other], ups) if c and not up]
        drawn = v.get("drawn")
        if isinstance(drawn, dict) and drawn.get("player") == other:
            cards += [c for c, up in zip(drawn["cards"], drawn["face_up"]) if c and not up]
        hidden.update(cards)
    mine = texts[seat] if seat is not None else texts[len(views)] if len(texts) > len(views) else ""
    return {c for c in hidden if f'"{c}"' not in mine}


def shown_cards(text: str) -> set[str]:
    """Every card name that appears as a JSON string in a view text."""
    return {m for m in re.findall(r'"([0-9A-Za-z]{2,3})"', text)}


PAGE_CARDS_JS = """() => {
  const out = {board: [], history: [], html: document.documentElement.outerHTML};
  for (const e of document.querySelectorAll('[data-card]')) {
    (e.closest('[data-history]') ? out.history : out.board).push(e.dataset.card);
  }
  return out;
}"""


class LeakChecker:
    """After every step: the page shows no card face of another seat.

    * every card face on the board (outside ``[data-history]`` parts such as the
      move log) is in the seat's *current* view;
    * every card face in the history parts was shown to the seat at some point;
    * no card that another seat holds unseen appears anywhere in the page's HTML
      as a whole word (attributes and text), unless the seat was shown it before.
    """

    def __init__(self, server: LiveServer, match_id: str, seat: int | None) -> None:
        self.server = server
        self.match_id = match_id
        self.seat = seat
        # what was shown before this checker started (a page that joins mid-match)
        self.ever: set[str] = server.ever_shown(match_id, seat)
        self.checks = 0

    def check(self, page: Any, timeout: float = CEILING) -> int:
        deadline = time.monotonic() + timeout
        while True:
            seq, views, texts, _ = self.server.snapshot(self.match_id)
            page_seq = page.evaluate("() => document.body.dataset.seq")
            if page_seq == str(seq):
                found = page.evaluate(PAGE_CARDS_JS)
                seq2, views2, texts2, _ = self.server.snapshot(self.match_id)
                if seq2 == seq:
                    break
            if time.monotonic() > deadline:
                raise AssertionError(f"the page shows seq {page_seq}, the server is at {seq}")
            time.sleep(0.03)
        mine = texts[self.seat] if self.seat is not None else texts[len(views)]
        now = shown_cards(mine)
        self.ever |= now
        bad_board = sorted(set(found["board"]) - now)
        assert not bad_board, f"seq {seq}: the board shows {bad_board}, not in seat {self.seat}'s view"
        bad_history = sorted(set(found["history"]) - self.ever)
        assert not bad_history, f"seq {seq}: the log shows {bad_history}, never shown to seat {self.seat}"
        secret = secret_cards(views, texts, self.seat) - self.ever
        html = found["html"]
        words = set(TOKEN.findall(html))
        leaked = sorted(secret & words)
        assert not leaked, f"seq {seq}: the page contains hidden cards {leaked} of other seats"
        self.checks += 1
        return seq


def wait_seq(page: Any, seq: int, timeout: float = CEILING * 1000) -> None:
    try:
        page.wait_for_function(f"() => Number(document.body.dataset.seq) >= {seq}", timeout=timeout)
    except Exception as err:
        state = page.evaluate("() => ({...document.body.dataset})")
        raise AssertionError(f"the page did not reach seq {seq}: {state}") from err


SETTLED_JS = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
"""Resolves once the page has laid itself out and painted at least once since now."""


def screenshot(page: Any, name: str, size: dict[str, int]) -> Path:
    """A full-page PNG of ``page`` at ``size``: ``SCREENSHOTS/<name>.png`` (an absolute
    ``name`` is used as it is)."""
    path = Path(f"{name}.png") if name.startswith("/") else SCREENSHOTS / f"{name}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size(size)
    page.evaluate(SETTLED_JS)
    page.screenshot(path=str(path), full_page=True, animations="disabled")
    return path


class Tracker:
    """Console errors, page errors and missing translations of the pages opened
    (the UI warns on the console when a text is missing in the page's language,
    so this is caught even for pages closed before the test ends)."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.pages: list[Any] = []

    def _console(self, msg: Any) -> None:
        if msg.type == "error" or (msg.type == "warning" and msg.text.startswith("cardtable: missing translation")):
            self.errors.append(f"console: {msg.text}")

    def watch(self, page: Any) -> Any:
        page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        page.on("console", self._console)
        page.set_default_timeout(CEILING * 1000)
        self.pages.append(page)
        return page

    def check(self) -> None:
        assert not self.errors, self.errors
        for page in self.pages:
            if page.is_closed():
                continue
            missing = page.evaluate("() => [...(window.__cardtableMissing || [])]")
            assert not missing, f"missing translations: {missing}"
