"""The browser UI: static HTML/CSS/JavaScript served by the match server.

:func:`mount` adds to a FastAPI app (see :func:`cardtable.server.app.create_app`)

* ``/`` — the lobby (new match, open matches, your matches);
* ``/play/{match_id}`` — the table of a match (the invite links' path; the seat
  token travels in the URL fragment, so the server never sees it here);
* ``/replay/{match_id}`` — the replay of a match from a seat's point of view
  (``?seat=N``; the token comes from this browser's storage) or the public one;
* ``/review/{match_id}`` — the review of a finished match: the replay with every hand
  revealed and the move analysis of a seat (``?seat=N``);
* ``/tutorial`` and ``/tutorial/{game}`` — the interactive tutorials (``tutorial.js`` over
  ``/api/tutorials``);
* ``/rules`` and ``/rules/{game}`` — the rules of the games (:mod:`cardtable.web.rules_page`),
  in English or Russian (``?lang=ru``; without it the browser's ``Accept-Language``);
  an unknown game or language is a 404 or 400: an HTML page for a browser (``Accept:
  text/html``), the documented JSON error (``not_found``, ``bad_request``) otherwise;
* ``/signin``, ``/u/{name}`` (a player's profile), ``/leaderboard`` — accounts,
  profiles and ratings;
* ``/static/…`` — the files of ``cardtable/web/static`` (ES modules, no build step).

The pages speak the protocol of ``docs/server-protocol.md`` (``/api/…`` and
``/ws``), which this module leaves alone.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.types import Scope

from cardtable.rules import LANGUAGES, UnknownRules, check_language, check_rules
from cardtable.server.errors import ProtocolError
from cardtable.web.rules_page import missing_rules_page, preferred_language, rules_index_page, rules_page

STATIC_DIR = Path(__file__).resolve().parent / "static"
"""The UI's files (shipped as package data)."""

_NO_CACHE = {"Cache-Control": "no-cache"}
_PAGE_HEADERS = {
    **_NO_CACHE,
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self' ws: wss:; base-uri 'none'; frame-ancestors 'none'; form-action 'none'"
    ),
}


class _RevalidatedStatic(StaticFiles):
    """Static files that browsers revalidate (ETag) instead of caching blindly, so a
    new version of the UI is picked up on the next load."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        response.headers.update(_NO_CACHE)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        return response


def _page() -> FileResponse:
    return FileResponse(STATIC_DIR / "index.html", media_type="text/html", headers=_PAGE_HEADERS)


def _rules_response(request: Request, game: str | None, lang: str | None) -> HTMLResponse:
    """The rules page of ``game`` (None: the index) in the language asked for."""
    chosen = preferred_language(lang, request.headers.get("accept-language"))
    try:
        check_language(chosen)
        if game is not None:
            check_rules(game, chosen)
    except UnknownRules as err:
        status = 404 if chosen in LANGUAGES else 400
        if "text/html" in request.headers.get("accept", ""):
            return HTMLResponse(missing_rules_page(str(err), chosen), status_code=status, headers=_PAGE_HEADERS)
        raise ProtocolError("not_found" if status == 404 else "bad_request", str(err), status=status) from None
    text = rules_index_page(chosen) if game is None else rules_page(game, chosen)
    return HTMLResponse(text, headers=_PAGE_HEADERS)


def mount(app: FastAPI) -> None:
    """Serve the browser UI from ``app``: the lobby at ``/``, tables at
    ``/play/{match_id}`` and the static files under ``/static``.  Calling it
    again on the same app does nothing."""
    if getattr(app.state, "cardtable_web", False):
        return
    app.state.cardtable_web = True
    app.mount("/static", _RevalidatedStatic(directory=STATIC_DIR), name="cardtable-static")

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return _page()

    @app.get("/play/{match_id}", include_in_schema=False)
    async def table_page(match_id: str) -> FileResponse:
        return _page()

    @app.get("/replay/{match_id}", include_in_schema=False)
    async def replay_page(match_id: str) -> FileResponse:
        return _page()

    @app.get("/review/{match_id}", include_in_schema=False)
    async def review_page(match_id: str) -> FileResponse:
        return _page()

    @app.get("/tutorial", include_in_schema=False)
    async def tutorials_page() -> FileResponse:
        return _page()

    @app.get("/tutorial/{game}", include_in_schema=False)
    async def tutorial_page(game: str) -> FileResponse:
        return _page()

    @app.get("/rules", include_in_schema=False)
    async def rules_index(request: Request, lang: str | None = None) -> HTMLResponse:
        return _rules_response(request, None, lang)

    @app.get("/rules/{game}", include_in_schema=False)
    async def rules_of_game(request: Request, game: str, lang: str | None = None) -> HTMLResponse:
        return _rules_response(request, game, lang)

    @app.get("/signin", include_in_schema=False)
    async def signin_page() -> FileResponse:
        return _page()

    @app.get("/leaderboard", include_in_schema=False)
    async def leaderboard_page() -> FileResponse:
        return _page()

    @app.get("/u/{name}", include_in_schema=False)
    async def profile_page(name: str) -> FileResponse:
        return _page()

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        return FileResponse(STATIC_DIR / "favicon.svg", media_type="image/svg+xml", headers=_NO_CACHE)


__all__ = ["STATIC_DIR", "mount"]
