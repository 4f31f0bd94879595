"""The API's errors: `ApiError` and the one JSON shape every error answer has, `{"error": {"code", "message", ...}}`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..reports.api import RequestError


class ApiError(HTTPException):
    """An API error: answered as {"error": {"code", "message", ...}} with its status."""

    def __init__(
        self, status: int, code: str, message: str, headers: dict[str, str] | None = None, **extra: Any
    ) -> None:
        super().__init__(status, message, headers)
        self.code = code
        self.extra = extra


def error(status: int, code: str, message: str, headers: Mapping[str, str] | None = None, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message, **extra}}, status_code=status, headers=headers)


def internal_error() -> JSONResponse:
    return error(500, "internal-error", "the server failed on this request; the error has been logged")


async def on_http_error(request: Request, exc: Exception) -> Response:
    if isinstance(exc, ApiError):
        return error(exc.status_code, exc.code, exc.detail, exc.headers, **exc.extra)
    if isinstance(exc, HTTPException):
        return error(exc.status_code, "http-error", exc.detail, exc.headers)
    raise exc  # pragma: no cover


async def on_refused(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestError)
    return error(exc.status, exc.code, exc.message, None, **exc.extra)
