"""Regression cases over HTTP: list the stored corpus, import case files (admin), run the corpus.

``POST /v1/cases/run`` answers the report of ``vigueur cases run --json`` for the stored cases, run
against the catalogue the API serves; an auditor's tool can check the catalogue without the repository.
Importing is a write: it needs the admin bearer token (``VIGUEUR_ADMIN_TOKEN``) and is off (404)
when no token is configured.
"""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Body, Depends, Path, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel
from sqlalchemy import exc as sa_exc

from api.cases.files import NO_VERSION, CaseFileError
from api.cases.store import (
    UnknownCases,
    case_out,
    import_cases,
    parse_case_text,
    run_report,
    select_rows,
)
from api.http import examples
from api.http.auth import AdminDep
from api.http.deps import CatalogueDep, SessionDep
from api.http.problems import ProblemError, problem_type
from api.http.public import cases as docs
from api.purchase.request import json_response

router = APIRouter()

CASE_FILE_TYPES = ("application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml", "application/json")
MAX_CASE_FILE_BYTES = 8_000_000  # a case file of the corpus is under 100 kB
PAGE_SIZE = 100
MAX_PAGE_SIZE = 1000
_CONTENT_KEYS = ("id", "title", "source", "request", "expected", "tolerance", "notes")

CaseIdPath = Annotated[str, Path(max_length=200, description="A case id.", examples=["bonus-2020-2-price-at-45000"])]


def problem_answer(description: str, example: dict[str, Any]) -> dict[str, Any]:
    return {
        "description": description,
        "content": {
            "application/problem+json": {
                "schema": {"$ref": "#/components/schemas/Problem"},
                "example": example,
            }
        },
    }


def success(model: type[BaseModel], description: str, example: dict[str, Any]) -> dict[str, Any]:
    return {"model": model, "description": description, "content": {"application/json": {"example": example}}}


COMMON: dict[int | str, dict[str, Any]] = {
    503: problem_answer("The database does not answer, or holds no catalogue yet.", examples.load("problem_503")),
    500: problem_answer("A bug of vigueur (never caused by the request); logged.", examples.load("problem_500")),
}
INVALID_QUERY = problem_answer("A query parameter is invalid (named by « field »).", examples.load("problem_422"))


_json = json_response


@router.get(
    "/v1/cases",
    tags=["cases"],
    summary="The stored regression cases",
    responses={
        200: success(docs.CaseListOut, "A page of the current cases, in corpus order.", docs.CASE_LIST_EXAMPLE),
        422: INVALID_QUERY,
        **COMMON,
    },
)
def list_cases(
    session: SessionDep,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE_SIZE, description="Cases per page.")] = PAGE_SIZE,
    offset: Annotated[int, Query(ge=0, description="Cases skipped.")] = 0,
    file: Annotated[
        str | None,
        Query(max_length=1000, description="Only the cases imported from this file (its path or its end)."),
    ] = None,
    version: Annotated[
        str | None,
        Query(
            max_length=200,
            description=f"Only the cases expecting this version id (« {NO_VERSION} »: no version on file).",
        ),
    ] = None,
) -> Response:
    """The current revision of each stored case (content, file of origin, hash, import instant), paginated."""
    rows = select_rows(session, version=version, file=file)
    page = rows[offset : offset + limit]
    following = None
    if offset + limit < len(rows):
        query = {"limit": limit, "offset": offset + limit, "file": file, "version": version}
        following = "/v1/cases?" + urlencode({k: v for k, v in query.items() if v is not None})
    return _json(
        {
            "total": len(rows),
            "limit": limit,
            "offset": offset,
            "next": following,
            "cases": [case_out(r) for r in page],
        }
    )


@router.get(
    "/v1/cases/{case_id}",
    tags=["cases"],
    summary="One stored regression case",
    responses={
        200: success(docs.CaseOut, "The current revision of the case.", docs.CASE_EXAMPLE),
        404: problem_answer("No stored case has this id.", docs.PROBLEM_UNKNOWN_CASE),
        422: INVALID_QUERY,
        **COMMON,
    },
)
def get_case(case_id: CaseIdPath, session: SessionDep) -> Response:
    """The case as its file states it, with where it was imported from, its content hash and when."""
    try:
        rows = select_rows(session, ids=[case_id])
    except UnknownCases as exc:
        raise _unknown(exc, "case_id") from None
    return _json(case_out(rows[0]))


async def case_file_body(request: Request) -> str:
    """The raw case file sent (YAML, or JSON ``{"cases": [...]}``), at most ``MAX_CASE_FILE_BYTES``."""
    media_type = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if media_type not in CASE_FILE_TYPES:
        raise ProblemError(
            415,
            "Unsupported Media Type",
            detail="send a case file with « Content-Type: application/yaml » (or application/json)",
            errors=[{"field": "(body)", "message": f"content type {media_type or '(none)'!r} is not a case file"}],
        )
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_CASE_FILE_BYTES:
        raise _too_large()
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_CASE_FILE_BYTES:
            raise _too_large()
    try:
        return bytes(body).decode("utf-8")
    except UnicodeDecodeError:
        raise ProblemError(
            422,
            "Invalid case file",
            type_=problem_type("invalid-case-file"),
            errors=[{"field": "(body)", "message": "not UTF-8"}],
        ) from None


def _too_large() -> ProblemError:
    return ProblemError(
        413,
        "Content Too Large",
        detail=f"a case file is at most {MAX_CASE_FILE_BYTES} bytes",
        errors=[{"field": "(body)", "message": "too large"}],
    )


@router.post(
    "/v1/cases/import",
    tags=["cases"],
    summary="Import a case file (admin)",
    status_code=201,
    responses={
        200: success(docs.ImportOut, "Every case was already stored as it is: nothing written.", docs.IMPORT_EXAMPLE),
        201: success(docs.ImportOut, "Cases added, superseded or removed: one import recorded.", docs.IMPORT_EXAMPLE),
        401: problem_answer("No bearer token, or not the admin token.", docs.PROBLEM_401),
        404: problem_answer("Write endpoints are off: VIGUEUR_ADMIN_TOKEN is not configured.", docs.PROBLEM_WRITES_OFF),
        409: problem_answer("Another import wrote the same cases at the same time; retry.", docs.PROBLEM_CONFLICT),
        413: problem_answer(f"The body is larger than {MAX_CASE_FILE_BYTES} bytes.", examples.load("problem_413")),
        415: problem_answer("The body is not sent as YAML or JSON.", examples.load("problem_415")),
        422: problem_answer(
            "The case file is invalid (the problem names the case and the field); nothing was written.",
            docs.PROBLEM_INVALID_CASE_FILE,
        ),
        **COMMON,
    },
    openapi_extra={
        "requestBody": {
            "required": True,
            "description": "One case file, in the format of `tests/regression/*.yaml` (YAML, or the same as "
            'JSON: {"cases": [...]}); parsed by the strict parser of `vigueur cases run`.',
            "content": {
                "application/yaml": {"schema": {"type": "string"}, "example": docs.CASE_FILE_EXAMPLE},
                "application/json": {
                    "schema": {
                        "type": "object",
                        "required": ["cases"],
                        "properties": {"cases": {"type": "array"}},
                    },
                    "example": {"cases": [{k: v for k, v in docs.CASE_EXAMPLE.items() if k in _CONTENT_KEYS}]},
                },
            },
        }
    },
)
def import_case_file(
    _admin: AdminDep,
    text: Annotated[str, Depends(case_file_body)],
    session: SessionDep,
    file: Annotated[
        str | None,
        Query(
            max_length=1000,
            description="The file name recorded as the cases' origin (default « (request) »).",
        ),
    ] = None,
    prune: Annotated[
        bool,
        Query(description="Retire the stored cases that are not in this file (the file is the whole corpus)."),
    ] = False,
) -> Response:
    """Idempotent: a new case id is added, a changed case supersedes its old row (never updated), an unchanged
    case writes nothing; an import that changes nothing records nothing (200)."""
    name = file or "(request)"
    try:
        cases = parse_case_text(text, name)
    except CaseFileError as exc:
        raise ProblemError(
            422,
            "Invalid case file",
            type_=problem_type("invalid-case-file"),
            detail=str(exc),
            errors=[{"field": exc.field or "(body)", "message": exc.message}],
            file=exc.file,
            case_id=exc.case_id,
        ) from None
    origin = f"POST /v1/cases/import (file={name})" + (" prune" if prune else "")
    try:
        report = import_cases(session, cases, origin, prune=prune)
        session.commit()
    except sa_exc.IntegrityError:
        session.rollback()
        raise ProblemError(
            409,
            "Concurrent import",
            type_=problem_type("concurrent-import"),
            detail="another import recorded the same cases at the same time; nothing was written, retry",
        ) from None
    return _json(report.to_json(), 201 if report.changed else 200)


@router.post(
    "/v1/cases/run",
    tags=["cases"],
    summary="Run the stored cases against the catalogue",
    responses={
        200: success(
            docs.RunReportOut,
            "The report of `vigueur cases run --json`; a failed case is a 200 answer, « failed » counted.",
            docs.RUN_EXAMPLE,
        ),
        404: problem_answer("A case id asked for is not stored, or no stored case matches.", docs.PROBLEM_NO_CASE),
        409: problem_answer(
            "A stored case is refused by the parser of this release: import its case file again.",
            docs.PROBLEM_STORED_CASE_INVALID,
        ),
        422: problem_answer("The filters are invalid (named by « field »).", examples.load("problem_422")),
        **COMMON,
    },
)
def run_cases(
    session: SessionDep,
    catalogue: CatalogueDep,
    filters: Annotated[
        docs.CaseRunFilters | None,
        Body(openapi_examples=docs.RUN_FILTERS_EXAMPLES, description="Filters; an empty body runs every case."),
    ] = None,
) -> Response:
    """Each selected case computed by the catalogue the API serves and compared with what it expects:
    totals, passed / failed / errors per version, every check, and the steps of each failure."""
    wanted = filters or docs.CaseRunFilters(ids=None, version=None, file=None)
    try:
        rows = select_rows(session, ids=wanted.ids, version=wanted.version, file=wanted.file)
    except UnknownCases as exc:
        raise _unknown(exc, "ids") from None
    if not rows:
        raise ProblemError(
            404,
            "No case to run",
            type_=problem_type("no-case"),
            detail="no stored case matches the filters "
            "(import cases with `vigueur cases import` or POST /v1/cases/import)",
        )
    try:
        return _json(run_report(catalogue, rows))
    except CaseFileError as exc:  # a case stored by an older parser that this one refuses
        raise ProblemError(
            409,
            "Stored case no longer valid",
            type_=problem_type("stored-case-invalid"),
            detail=f"{exc}; import its case file again",
        ) from None


def _unknown(exc: UnknownCases, field: str) -> ProblemError:
    listed = ", ".join(repr(i) for i in exc.ids[:20]) + (" …" if len(exc.ids) > 20 else "")
    return ProblemError(
        404,
        "Unknown case",
        type_=problem_type("unknown-case"),
        detail=f"no stored case with id {listed}",
        errors=[{"field": field, "message": "no such case; GET /v1/cases lists them"}],
    )

