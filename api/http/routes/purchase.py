"""The v1 endpoints: translate HTTP to the catalogue and the service layer, never decide.

Every catalogue endpoint and ``POST /v1/resolve|calculate`` take ``known_at`` (knowledge time): the answer
is the catalogue as recorded at that instant; the headers ``X-Vigueur-Known-At``,
``X-Vigueur-Catalogue-Load``, ``…-Recorded-At`` and ``…-Tree-Hash`` say which knowledge answered (the bodies
stay the CLI's, byte for byte).
"""

from __future__ import annotations

import re
from datetime import date
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response

from api.audit import receipts
from api.catalogue import documents
from api.catalogue.diff import diff_versions
from api.http import openapi as docs
from api.http import probes
from api.http.caching import NOT_MODIFIED, cached_json
from api.http.deps import BodyDep, KnownDep, LiveDep, NowDep, SessionDep, TodayDep, known_headers
from api.http.problems import ProblemError
from api.http.receipts_token import require_receipt_token
from api.purchase.render import calculate_document, resolve_document
from api.purchase.request import dumps, json_response, parse_request
from legislation import Scheme

router = APIRouter()
ISO_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")

SchemePath = Annotated[
    Scheme,
    Path(
        description="The aid: bonus (« bonus écologique ») or conversion_premium (« prime à la conversion »).",
        examples=["bonus"],
    ),
]
VersionPath = Annotated[
    str,
    Path(
        max_length=200,
        description="A version id: the article and its first day in force.",
        examples=["D251-7.2020-06-01"],
    ),
]


_json = json_response


@router.get(
    "/v1/schemes",
    tags=["catalogue"],
    summary="The schemes and what the catalogue covers",
    responses=docs.responses("SchemesOut", 404, 422),
)
async def list_schemes(known: KnownDep, now: NowDep) -> Response:
    """Each aid with its coverage (first and last day on file) and its declared gaps."""
    catalogue = known.catalogue
    schemes = [documents.scheme_document(catalogue.timeline(s)) for s in Scheme]
    return _json({"schemes": schemes}, headers=known_headers(known, now))


@router.get(
    "/v1/schemes/{scheme}/versions",
    tags=["catalogue"],
    summary="The timeline of a scheme",
    responses=docs.responses("TimelineOut", 404, 422) | NOT_MODIFIED,
)
async def scheme_versions(request: Request, scheme: SchemePath, known: KnownDep, now: NowDep) -> Response:
    """Every version of the scheme's amounts text in date order, and the declared gaps between them."""
    doc = documents.timeline_document(known.catalogue.timeline(scheme))
    return cached_json(request, doc, known_headers(known, now), known.known_at, now)


@router.get(
    "/v1/schemes/{scheme}/in-force",
    tags=["catalogue"],
    summary="The version in force on a date",
    responses=docs.responses("InForceOut", 404, 422),
)
async def in_force(
    scheme: SchemePath,
    known: KnownDep,
    now: NowDep,
    today: TodayDep,
    on: Annotated[
        str | None,
        Query(
            description="A day YYYY-MM-DD; default: today in Europe/Paris.",
            examples=["2020-07-15"],
            json_schema_extra={"format": "date"},
        ),
    ] = None,
) -> Response:
    """The amounts version in force on ``on``, verbatim text and source; 404 names the nearest versions."""
    day = _day(on) if on is not None else today
    timeline = known.catalogue.timeline(scheme)
    doc = documents.in_force_document(timeline, day, on_is_today=on is None)
    if doc is None:
        gone = documents.no_version_problem(timeline, day)
        raise ProblemError(404, gone["title"], type_=gone["type"], detail=gone["detail"], **_extensions(gone))
    return _json(doc, headers=known_headers(known, now))


@router.get(
    "/v1/versions/{version_id}",
    tags=["catalogue"],
    summary="One version: text, source, clauses, hash, facts",
    responses=docs.responses("VersionOut", 404, 422) | NOT_MODIFIED,
)
async def get_version(request: Request, version_id: VersionPath, known: KnownDep, now: NowDep) -> Response:
    """A version's verbatim text, source, provenance, transitional clauses, hash and the facts it reads."""
    doc = documents.version_document(known.catalogue.get(version_id))
    return cached_json(request, doc, known_headers(known, now), known.known_at, now)


@router.get(
    "/v1/versions/{a}/diff/{b}",
    tags=["catalogue"],
    summary="What changed between two versions of an article",
    responses=docs.responses("DiffOut", 404, 422) | NOT_MODIFIED,
)
async def diff(request: Request, a: VersionPath, b: VersionPath, known: KnownDep, now: NowDep) -> Response:
    """A unified diff, a word-level diff (« 7 000 » → « 6 000 »), the numbers and metadata that changed."""
    catalogue = known.catalogue
    doc = diff_versions(catalogue.get(a), catalogue.get(b))
    return cached_json(request, doc, known_headers(known, now), known.known_at, now)


@router.post(
    "/v1/resolve",
    tags=["purchase"],
    summary="Which version applies to a purchase or lease",
    responses=docs.responses("ResolveResponse", 404, 413, 415, 422),
    openapi_extra=docs.request_body("resolve"),
)
async def resolve(body: BodyDep, known: KnownDep, now: NowDep) -> Response:
    """The same answer as ``vigueur resolve``, byte for byte: decisive date, version, transitional clauses."""
    return _json(resolve_document(known.catalogue, parse_request(body)), headers=known_headers(known, now))


@router.post(
    "/v1/calculate",
    tags=["purchase"],
    summary="Compute the aid(s) for a purchase or lease",
    responses=docs.responses("CalculationResponse", 401, 404, 413, 415, 422) | docs.receipt_created(),
    openapi_extra=docs.request_body("calculate"),
    dependencies=[Depends(require_receipt_token)],
)
async def calculate(
    body: BodyDep,
    known: KnownDep,
    now: NowDep,
    session: SessionDep,
    receipt: Annotated[
        bool,
        Query(
            description="true: keep a receipt (request, response, the revisions used, the knowledge "
            "instant); the answer is 201 with the same body, its id in the header X-Vigueur-Receipt and "
            "its address in Location.",
        ),
    ] = False,
) -> Response:
    """The answer of ``vigueur calculate``, byte for byte: amount, version, paragraphs, steps, deadline."""
    text = dumps(calculate_document(known.catalogue, parse_request(body)))
    headers = known_headers(known, now)
    if not receipt:
        return Response(text, media_type="application/json", headers=headers)
    kept = await run_in_threadpool(receipts.record, session, known, body, text, now=now)
    headers |= {"X-Vigueur-Receipt": kept.receipt_id, "Location": f"/v1/receipts/{kept.receipt_id}"}
    return Response(text, status_code=201, media_type="application/json", headers=headers)


@router.get(
    "/healthz",
    tags=["operations"],
    summary="The process is up",
    responses=docs.responses("HealthOut", db=False),
)
async def healthz() -> Response:
    """Liveness: the process answers (the database is not asked)."""
    return _json({"status": "ok"})


@router.get(
    "/readyz",
    tags=["operations"],
    summary="The database answers and holds a catalogue",
    responses=docs.responses("ReadyOut"),
)
async def readyz(session: SessionDep, latest: LiveDep) -> Response:
    """Readiness: the database answers (within 2 s) and holds a catalogue; which database, which load."""
    return _json(await probes.readiness(session, latest))


def _extensions(doc: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in doc.items() if k not in ("type", "title", "status", "detail")}


def _day(value: str) -> date:
    try:
        if ISO_DAY.match(value):
            return date.fromisoformat(value)
    except ValueError:
        pass
    raise ProblemError(
        422, "Invalid request", errors=[{"field": "on", "message": f"{value!r} is not a day YYYY-MM-DD"}]
    )

