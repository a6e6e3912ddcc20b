"""API errors: every error answer is an :class:`~bangarena.service.models.ErrorBody` — a code
and a precise reason — and never carries what the caller may not know. Validation errors are
``invalid_request`` (told apart from ``illegal_move``, the other 422); an unexpected exception is
a bare ``internal`` 500 whose details stay in the server's log."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from .models import ErrorBody

log = logging.getLogger("bangarena.service")

ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody, "description": text}
    for code, text in {
        400: "bad request (a malformed header)",
        401: "missing or unknown token",
        403: "a token of another seat or match, or a role that may not do this",
        404: "unknown match",
        413: "body too large",
        422: "invalid request (or, for moves, an illegal move id)",
        429: "too many waits or streams open for this token",
        503: "the store cannot be used now",
    }.items()
}
"""The error answers every route may give (documented in the OpenAPI spec)."""


class ApiError(Exception):
    """An error answer: ``status``, ``error`` code, ``reason``, and extra ErrorBody fields."""

    def __init__(self, status: int, error: str, reason: str, **extra: Any) -> None:
        super().__init__(reason)
        self.status = status
        self.error = error
        self.reason = reason
        self.extra = extra

    def response(self) -> JSONResponse:
        body = ErrorBody(error=self.error, reason=self.reason, **self.extra)
        headers = {"WWW-Authenticate": "Bearer"} if self.status == 401 else None
        return JSONResponse(
            body.model_dump(mode="json", exclude_none=True), self.status, headers=headers
        )


def error_response(status: int, error: str, reason: str, **extra: Any) -> JSONResponse:
    return ApiError(status, error, reason, **extra).response()


def _where(loc: tuple[Any, ...]) -> str:
    return ".".join(str(x) for x in loc) or "request"


async def _api_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiError)
    return exc.response()


async def _validation(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = list(exc.errors())
    # The caller's own input is not echoed back (it may be large); where and what is enough.
    detail = [
        {"loc": [str(x) for x in e.get("loc", ())], "msg": str(e.get("msg", ""))[:300],
         "type": str(e.get("type", ""))}
        for e in errors[:20]
    ]  # fmt: skip
    reason = "; ".join(f"{_where(tuple(e['loc']))}: {e['msg']}" for e in detail[:5])
    return error_response(422, "invalid_request", reason[:1000] or "invalid request", detail=detail)


async def _http(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
    reason = exc.detail if isinstance(exc.detail, str) else "request refused"
    resp = error_response(exc.status_code, code, reason)
    if exc.headers:
        resp.headers.update(exc.headers)
    return resp


async def internal_error(_request: Request, exc: Exception) -> JSONResponse:
    """The answer to an unexpected exception: logged here, a bare 500 to the caller."""
    log.error("internal error: %s", type(exc).__name__, exc_info=exc)
    return error_response(500, "internal", "internal error (logged on the server)")


def install_error_handlers(app: FastAPI) -> None:
    """Every error of ``app`` answered as an ErrorBody."""
    app.add_exception_handler(ApiError, _api_error)
    app.add_exception_handler(RequestValidationError, _validation)
    app.add_exception_handler(StarletteHTTPException, _http)
    app.add_exception_handler(Exception, internal_error)


__all__ = [
    "ERROR_RESPONSES",
    "ApiError",
    "error_response",
    "install_error_handlers",
    "internal_error",
]
