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

from fastapi import APIRouter, Path, Query
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response

from api import openapi_docs as docs
from api import probes, receipts
from api.contract import dumps, json_response, parse_request
from api.deps import BodyDep, KnownDep, LiveDep, NowDep, SessionDep, TodayDep, known_headers
from api.diff import diff_versions
from api.facts import calculator_facts
from api.problems import ProblemError, problem_type
from api.service import calculate_document, render_version, resolve_document, version_ref
from legislation import Scheme, Version
from legislation.timeline import Gap, Timeline

router = APIRouter()
ISO_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
SCHEME_NAMES = {Scheme.BONUS: "bonus écologique", Scheme.CONVERSION_PREMIUM: "prime à la conversion"}

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
    schemes = [_scheme(catalogue.timeline(s)) for s in Scheme]
    return _json({"schemes": schemes}, headers=known_headers(known, now))


@router.get(
    "/v1/schemes/{scheme}/versions",
    tags=["catalogue"],
    summary="The timeline of a scheme",
    responses=docs.responses("TimelineOut", 404, 422),
)
async def scheme_versions(scheme: SchemePath, known: KnownDep, now: NowDep) -> Response:
    """Every version of the scheme's amounts text in date order, and the declared gaps between them."""
    timeline = known.catalogue.timeline(scheme)
    head = _scheme(timeline)
    return _json(
        {
            "scheme": head["scheme"],
            "name": head["name"],
            "coverage": head["coverage"],
            "versions": [_summary(v) for v in timeline.versions],
            "gaps": head["gaps"],
            "timeline": _segments(timeline),
        },
        headers=known_headers(known, now),
    )


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
    version = timeline.find(day)
    if version is None:
        raise _no_version(timeline, day)
    return _json(
        {
            "scheme": scheme.value,
            "on": day.isoformat(),
            "on_is_today": on is None,
            "version": version_document(version),
        },
        headers=known_headers(known, now),
    )


@router.get(
    "/v1/versions/{version_id}",
    tags=["catalogue"],
    summary="One version: text, source, clauses, hash, facts",
    responses=docs.responses("VersionOut", 404, 422),
)
async def get_version(version_id: VersionPath, known: KnownDep, now: NowDep) -> Response:
    """A version's verbatim text, source, provenance, transitional clauses, hash and the facts it reads."""
    return _json(version_document(known.catalogue.get(version_id)), headers=known_headers(known, now))


@router.get(
    "/v1/versions/{a}/diff/{b}",
    tags=["catalogue"],
    summary="What changed between two versions of an article",
    responses=docs.responses("DiffOut", 404, 422),
)
async def diff(a: VersionPath, b: VersionPath, known: KnownDep, now: NowDep) -> Response:
    """A unified diff, a word-level diff (« 7 000 » → « 6 000 »), the numbers and metadata that changed."""
    catalogue = known.catalogue
    return _json(diff_versions(catalogue.get(a), catalogue.get(b)), headers=known_headers(known, now))


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
    responses=docs.responses("CalculationResponse", 404, 413, 415, 422) | docs.receipt_created(),
    openapi_extra=docs.request_body("calculate"),
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


# -- documents -------------------------------------------------------------------------------------


def version_document(version: Version) -> dict[str, Any]:
    """``render_version`` (what ``vigueur show`` prints) and the facts the version's calculator reads."""
    doc = render_version(version)
    resolution = ["acquisition", "invoice_date", "first_rent_date"]
    if version.transitional:
        resolution.append("order_date")
    if any(c.new_vehicles_only for c in version.transitional):
        resolution.append("vehicle.previously_registered")
    doc["facts"] = {
        "resolution": resolution,
        "calculator": list(calculator_facts(version.calculator)) if version.calculator else [],
    }
    return doc


def _scheme(timeline: Timeline) -> dict[str, Any]:
    versions = timeline.versions
    last = versions[-1] if versions else None
    return {
        "scheme": timeline.scheme.value,
        "name": SCHEME_NAMES[timeline.scheme],
        "coverage": {
            "first_day": _iso(timeline.first_day),
            "last_day": _iso(timeline.last_day),
            "open_ended": last is not None and last.valid_until is None,
            "versions": len(versions),
        },
        "gaps": [_gap(g) for g in timeline.gaps],
        "links": {
            "versions": f"/v1/schemes/{timeline.scheme.value}/versions",
            "in_force": f"/v1/schemes/{timeline.scheme.value}/in-force",
        },
    }


def _summary(v: Version) -> dict[str, Any]:
    return {
        "version_id": v.id,
        "citation": v.citation,
        "title": v.title,
        "valid_from": v.valid_from.isoformat(),
        "valid_until": _iso(v.valid_until),
        "last_day_in_force": _iso(v.last_day),
        "provenance": v.provenance.value,
        "period_confidence": v.period_confidence,
        "calculator": v.calculator,
        "source_decree": v.source.decree,
        "version_hash": v.content_hash,
        "href": f"/v1/versions/{v.id}",
    }


def _segments(timeline: Timeline) -> list[dict[str, Any]]:
    """Versions and gaps in order; a hole neither covers (before the first version) is « not_on_file »."""
    items: list[tuple[date, date | None, str, str | None, str | None]]
    items = [(v.valid_from, v.valid_until, "version", v.id, None) for v in timeline.versions]
    items += [(g.start, g.end, "gap", None, g.reason) for g in timeline.gaps]
    out: list[dict[str, Any]] = []
    for start, end, kind, version_id, reason in sorted(items, key=lambda i: i[0]):
        previous_end = out[-1]["end"] if out else None
        if previous_end is not None and previous_end < start.isoformat():
            out.append(
                {
                    "kind": "not_on_file",
                    "start": previous_end,
                    "end": start.isoformat(),
                    "version_id": None,
                    "reason": "no version and no declared gap",
                }
            )
        out.append(
            {
                "kind": kind,
                "start": start.isoformat(),
                "end": _iso(end),
                "version_id": version_id,
                "reason": reason,
            }
        )
    return out


def _gap(g: Gap) -> dict[str, Any]:
    last = date.fromordinal(g.end.toordinal() - 1)
    return {
        "start": g.start.isoformat(),
        "end": g.end.isoformat(),
        "last_day": last.isoformat(),
        "reason": g.reason,
    }


def _no_version(timeline: Timeline, day: date) -> ProblemError:
    before, after = timeline.nearest(day)
    gap = timeline.gap_on(day)
    detail = f"no version of the {timeline.scheme.value} amounts on file for {day.isoformat()}"
    if gap is not None:
        detail += f" (declared gap: {gap.reason})"
    return ProblemError(
        404,
        "No version on file",
        type_=problem_type("no-version-on-file"),
        detail=detail,
        scheme=timeline.scheme.value,
        on=day.isoformat(),
        declared_gap=_gap(gap) if gap else None,
        nearest_versions={"before": version_ref(before), "after": version_ref(after)},
    )


def _day(value: str) -> date:
    try:
        if ISO_DAY.match(value):
            return date.fromisoformat(value)
    except ValueError:
        pass
    raise ProblemError(
        422, "Invalid request", errors=[{"field": "on", "message": f"{value!r} is not a day YYYY-MM-DD"}]
    )


def _iso(day: date | None) -> str | None:
    return day.isoformat() if day else None
