"""Refusals and failures in the one documented shape.

Every error the server sends, over HTTP or the websocket, is a JSON object
``{"type": "error", "code": …, "message": …}`` (plus ``rule`` and ``reason`` — the
:class:`~cardtable.protocol.Refusal` record — for an illegal move, and ``seq`` and
``id`` on the websocket; see ``docs/server-protocol.md``).  :class:`ProtocolError`
is a refusal; :func:`install_error_handlers` turns everything else an HTTP
request can end in — FastAPI's validation errors, unknown routes, wrong
methods, and unexpected exceptions — into that shape too.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cardtable.protocol import JSON, Refusal

log = logging.getLogger("cardtable.server")


class ProtocolError(Exception):
    """A refused request: ``code`` is the typed reason, ``message`` says why (in English).

    ``refusal`` is the game's record of an illegal move: its ``rule`` is sent as
    ``rule`` and the record (``key``, ``params``) as ``reason``, for clients to render
    in their player's language.
    """

    def __init__(self, code: str, message: str | Refusal, *, status: int = 400) -> None:
        super().__init__(str(message))
        self.code = code
        self.message = str(message)
        self.refusal = message if isinstance(message, Refusal) else None
        self.rule = self.refusal.rule if self.refusal is not None else None
        self.status = status


def error_body(err: ProtocolError) -> dict[str, JSON]:
    """The HTTP body of a refusal."""
    body: dict[str, JSON] = {"type": "error", "code": err.code, "message": err.message}
    if err.refusal is not None:
        if err.refusal.rule is not None:
            body["rule"] = err.refusal.rule
        body["reason"] = reason_body(err.refusal)
    return body


def reason_body(refusal: Refusal) -> dict[str, JSON]:
    """The ``reason`` of an ``illegal`` error: the refusal's ``key`` and ``params``."""
    return {"key": refusal.key, "params": dict(refusal.params)}


HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 413: "too_large"}
"""The ``code`` of an HTTP error that Starlette raises itself (by its status)."""


def http_code(status: int) -> str:
    """The ``code`` of an HTTP error of ``status`` that Starlette raises itself."""
    return HTTP_CODES.get(status, "internal" if status >= 500 else "bad_request")

INTERNAL = ProtocolError("internal", "the server could not handle this request; the error is logged", status=500)


def _field(loc: Any) -> str:
    parts = [str(p) for p in loc if p not in ("path", "query", "body", "header")] if isinstance(loc, (list, tuple)) \
        else [str(loc)]
    return ".".join(parts) or "the request"


def _respond(err: ProtocolError, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse(error_body(err), status_code=err.status, headers=headers)


class _CatchUnexpected:
    """ASGI middleware: an HTTP request that fails with an unexpected exception
    gets the generic ``internal`` error, and the traceback is logged once (it is
    not passed on to the server, which would log it again as plain text)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        except Exception:  # noqa: BLE001 - every failure becomes a typed answer
            log.exception("%s %s failed", scope.get("method"), scope.get("path"))
            if not started:
                await _respond(INTERNAL)(scope, receive, send)


def install_error_handlers(app: FastAPI) -> None:
    """Make every HTTP error of ``app`` a documented error body."""

    async def protocol_error(_request: Request, err: Exception) -> JSONResponse:
        assert isinstance(err, ProtocolError)
        return _respond(err)

    async def validation_error(_request: Request, err: Exception) -> JSONResponse:
        assert isinstance(err, RequestValidationError)
        problems = [f"{_field(e.get('loc'))}: {e.get('msg', 'invalid')}" for e in err.errors()[:5]]
        return _respond(ProtocolError("bad_message", "; ".join(problems) or "the request is malformed"))

    async def http_error(request: Request, err: Exception) -> JSONResponse:
        assert isinstance(err, StarletteHTTPException)
        code = http_code(err.status_code)
        if err.status_code == 404:
            message = f"no such endpoint: {request.method} {request.url.path}"
        elif err.status_code == 405:
            message = f"{request.method} is not allowed on {request.url.path}"
        else:
            message = str(err.detail)
        return _respond(ProtocolError(code, message, status=err.status_code), dict(err.headers or {}))

    app.add_exception_handler(ProtocolError, protocol_error)
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_middleware(_CatchUnexpected)
