"""Every error of the API as an RFC 9457 problem document (``application/problem+json``), mapped in one place.

Invalid input → 422 naming the field; unknown version or no version on file → 404; database unreachable
or catalogue not loaded → 503. Anything else is a bug: logged with its traceback, answered 500.
The 422 of an invalid request is byte for byte the document ``vigueur resolve|calculate`` prints.
"""

from __future__ import annotations

import logging
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from sqlalchemy import exc as sa_exc
from starlette.exceptions import HTTPException as StarletteHTTPException

from api.audit.receipts import UnknownReceipt
from api.catalogue.diff import DifferentArticles
from api.catalogue.store import CatalogueNotLoaded, NothingKnownThen, StoreIntegrityError
from api.http.openapi_contract import STORAGE_FULL_DETAIL, STORAGE_FULL_TYPE
from api.http.storage_errors import BODY_NOT_JSON, BODY_NOT_PARSED, allowed_methods, is_storage_full
from api.problem_types import problem, problem_type
from api.purchase.request import RequestError, dumps
from legislation.errors import InvalidDates, InvalidFacts, UnknownVersion

MEDIA_TYPE = "application/problem+json"
log = logging.getLogger("vigueur.api")


class ProblemError(Exception):
    """Raised by a route to answer with a problem document."""

    def __init__(
        self,
        status: int,
        title: str,
        *,
        type_: str = "about:blank",
        detail: str | None = None,
        errors: list[dict[str, str]] | None = None,
        headers: dict[str, str] | None = None,
        **extensions: Any,
    ) -> None:
        super().__init__(detail or title)
        self.document = problem(status, title, type_=type_, detail=detail, errors=errors, **extensions)
        self.status = status
        self.headers = headers


def problem_response(doc: dict[str, Any], headers: dict[str, str] | None = None) -> Response:
    return Response(dumps(doc), status_code=doc["status"], media_type=MEDIA_TYPE, headers=headers)


def install(app: FastAPI) -> None:
    """Register the handlers that turn every exception into a problem document."""
    app.add_exception_handler(ProblemError, _problem_error)
    app.add_exception_handler(RequestError, _request_error)
    app.add_exception_handler(InvalidFacts, _invalid_dates)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(UnknownVersion, _unknown_version)
    app.add_exception_handler(DifferentArticles, _different_articles)
    app.add_exception_handler(CatalogueNotLoaded, _not_loaded)
    app.add_exception_handler(NothingKnownThen, _nothing_known_then)
    app.add_exception_handler(UnknownReceipt, _unknown_receipt)
    app.add_exception_handler(StoreIntegrityError, _store_integrity)
    for kind in (
        sa_exc.OperationalError,
        sa_exc.InterfaceError,
        sa_exc.TimeoutError,
        sa_exc.DisconnectionError,
    ):
        app.add_exception_handler(kind, _database_unavailable)
    app.add_exception_handler(Exception, _bug)


async def _problem_error(_: Request, exc: Exception) -> Response:
    assert isinstance(exc, ProblemError)
    return problem_response(exc.document, exc.headers)


async def _request_error(_: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestError)
    return problem_response(problem(422, "Invalid request", errors=exc.errors))


async def _invalid_dates(_: Request, exc: Exception) -> Response:
    assert isinstance(exc, InvalidFacts)
    return problem_response(
        problem(
            422,
            "Invalid dates" if isinstance(exc, InvalidDates) else "Invalid facts",
            errors=[{"field": exc.field or "", "message": str(exc)}],
        )
    )


async def _validation_error(_: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestValidationError)
    errors = [{"field": _field(e.get("loc", ())), "message": str(e.get("msg", "invalid"))} for e in exc.errors()]
    return problem_response(problem(422, "Invalid request", errors=errors))


def _field(loc: Any) -> str:
    parts = [str(p) for p in loc]
    if parts and parts[0] in ("path", "query", "header", "body", "cookie"):
        parts = parts[1:]
    return ".".join(parts) or "(request)"


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StarletteHTTPException)
    if exc.status_code == 400 and exc.detail == BODY_NOT_PARSED:  # FastAPI's own reading of a JSON body
        return problem_response(problem(422, "Invalid request", errors=[BODY_NOT_JSON]))
    headers = dict(exc.headers or {})
    if exc.status_code == 405:
        headers["Allow"] = allowed_methods(request)
    title = HTTPStatus(exc.status_code).phrase if exc.status_code in HTTPStatus._value2member_map_ else "Error"
    detail = exc.detail if isinstance(exc.detail, str) and exc.detail != title else None
    return problem_response(problem(exc.status_code, title, detail=detail), headers)


async def _unknown_version(_: Request, exc: Exception) -> Response:
    assert isinstance(exc, UnknownVersion)
    return problem_response(
        problem(
            404,
            "Unknown version",
            type_=problem_type("unknown-version"),
            detail=f"no version with id {exc.version_id!r} on file",
            errors=[
                {
                    "field": "version_id",
                    "message": "no such version; GET /v1/versions lists every version on file",
                }
            ],
        )
    )


async def _different_articles(_: Request, exc: Exception) -> Response:
    assert isinstance(exc, DifferentArticles)
    return problem_response(
        problem(
            422,
            "Not versions of the same article",
            type_=problem_type("different-articles"),
            detail=str(exc),
            errors=[
                {
                    "field": "b",
                    "message": f"{exc.b.id} is a version of {exc.b.article}, not of {exc.a.article}",
                }
            ],
        )
    )


async def _not_loaded(_: Request, exc: Exception) -> Response:
    return problem_response(
        problem(
            503,
            "Catalogue not loaded",
            type_=problem_type("catalogue-not-loaded"),
            detail="the database holds no catalogue yet: run `vigueur load` (or start with `vigueur serve`)",
        ),
        {"Retry-After": "30"},
    )


async def _nothing_known_then(_: Request, exc: Exception) -> Response:
    assert isinstance(exc, NothingKnownThen)
    return problem_response(
        problem(
            404,
            "Nothing known then",
            type_=problem_type("nothing-known-then"),
            detail=str(exc),
            errors=[
                {
                    "field": "known_at",
                    "message": "before the first load of the catalogue: it held no version then",
                }
            ],
            known_at=exc.known_at.isoformat(),
            first_recorded_at=exc.first_recorded_at.isoformat(),
        )
    )


async def _unknown_receipt(_: Request, exc: Exception) -> Response:
    assert isinstance(exc, UnknownReceipt)
    return problem_response(
        problem(
            404,
            "Unknown receipt",
            type_=problem_type("unknown-receipt"),
            detail=f"no receipt with id {exc.receipt_id!r}",
            errors=[{"field": "receipt_id", "message": "no such receipt"}],
        )
    )


async def _store_integrity(request: Request, exc: Exception) -> Response:
    log.error("store integrity check failed on %s %s: %s", request.method, request.url.path, exc)
    return problem_response(
        problem(
            500,
            "Store integrity check failed",
            type_=problem_type("store-integrity"),
            detail=f"rows of the catalogue no longer rebuild into what was recorded: {exc}",
        )
    )


async def _database_unavailable(request: Request, exc: Exception) -> Response:
    if is_storage_full(exc):
        log.error("storage full on %s %s: %s", request.method, request.url.path, str(exc).splitlines()[0])
        return problem_response(
            problem(507, "Storage full", type_=STORAGE_FULL_TYPE, detail=STORAGE_FULL_DETAIL),
            {"Retry-After": "60"},
        )
    log.warning("database unavailable: %s", str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
    return problem_response(
        problem(
            503,
            "Database unavailable",
            type_=problem_type("database-unavailable"),
            detail="the catalogue database does not answer; the request was not processed, retry later",
        ),
        {"Retry-After": "5"},
    )


async def _bug(request: Request, exc: Exception) -> Response:
    log.error("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
    return problem_response(
        problem(
            500,
            "Internal Server Error",
            type_=problem_type("bug"),
            detail="an unexpected error; it was logged. This is a bug of vigueur, not of the request",
        )
    )
