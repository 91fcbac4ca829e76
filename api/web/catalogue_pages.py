"""The catalogue's pages: the timeline of each scheme (home), a version's page, the diff of two versions.

Each page reads the catalogue through the API's own dependencies (``known_at`` included) and its documents
(:mod:`api.catalogue.documents`, :func:`api.catalogue.diff.diff_versions`, the revisions of
:mod:`api.http.routes.audit`): no second copy of any rule, only the HTML around the same answers.
"""

from __future__ import annotations

import inspect
import json
from datetime import date, timedelta
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from sqlmodel import col, select

from api.catalogue import documents
from api.catalogue.diff import diff_versions, is_same_provision
from api.catalogue.tables import LoadRow
from api.http.deps import KnownAtDep, KnownDep, SessionDep
from api.http.problems import ProblemError
from api.http.routes import audit as audit_routes
from api.web import charts, highlight
from api.web.render import HtmlRoute, Links, page
from legislation import Catalogue, Scheme, Version
from legislation.coverage import HISTORY_FIRST_DAY, HISTORY_LAST_DAY, measure
from legislation.timeline import Timeline

router = APIRouter(route_class=HtmlRoute, include_in_schema=False)
VersionId = Annotated[str, Path(max_length=200)]
DayQuery = Annotated[str | None, Query(max_length=10)]
EXAMPLE_DIFF = ("decret-2014-1672-art3.2015-01-01", "D251-7.2017-01-01")


def parse_day(value: str | None, field: str) -> date | None:
    """A day YYYY-MM-DD of a form, or None when empty; a 422 naming the field otherwise (an HTML error page)."""
    if value is None or not value.strip():
        return None
    try:
        return date.fromisoformat(value.strip()) if len(value.strip()) == 10 else _bad_day(value, field)
    except ValueError:
        return _bad_day(value, field)


def _bad_day(value: str, field: str) -> date:
    raise ProblemError(
        422, "Invalid request", errors=[{"field": field, "message": f"{value!r} is not a day YYYY-MM-DD"}]
    )


def bar_end(catalogue: Catalogue) -> date:
    """The end of the timeline bars: the end of the history measured, or later when a version goes further."""
    end = HISTORY_LAST_DAY + timedelta(days=1)
    for timeline in catalogue.timelines.values():
        for version in timeline.versions:
            end = max(end, version.valid_until or version.valid_from + timedelta(days=1))
        for gap in timeline.gaps:
            end = max(end, gap.end)
    return end


def ended_on(timeline: Timeline) -> date | None:
    """The day a scheme ended, when the catalogue says so (issue 12: the versions of role « ended », the
    timeline's ``endings``); None when it does not (an older catalogue: the page degrades to no end drawn)."""
    endings: Any = getattr(timeline, "endings", ())
    if endings:
        first = min(v.valid_from for v in endings)
        return first if isinstance(first, date) else None
    ended: Any = getattr(timeline, "ended", None)
    if isinstance(ended, date):
        return ended
    start = getattr(ended, "start", None)
    return start if isinstance(start, date) else None


def scheme_bar(timeline: Timeline, first: date, end: date, on: date | None) -> dict[str, Any]:
    """The segments of one scheme's bar (versions by provenance, gaps, nothing on file, ended) and its figures."""
    versions = {v.id: v for v in timeline.versions}
    segments = []
    for seg in documents.segments(timeline):
        spot = charts.position(seg.start, seg.end, first, end)
        if spot is None:
            continue
        version = versions.get(seg.version_id or "")
        kind = version.provenance.value if version is not None else seg.kind
        segments.append({"left": spot[0], "width": spot[1], "kind": kind, "segment": seg, "version": version})
    ended = ended_on(timeline)
    drawn = any(s["kind"] == "ended" for s in segments)
    if ended is not None and not drawn and (spot := charts.position(ended, end, first, end)) is not None:
        segments.append({"left": spot[0], "width": spot[1], "kind": "ended", "segment": None, "version": None})
    coverage = measure(timeline)
    found = timeline.find(on) if on is not None else None
    return {
        "scheme": timeline.scheme.value,
        "name": documents.SCHEME_NAMES[timeline.scheme],
        "segments": segments,
        "versions": timeline.versions,
        "gaps": timeline.gaps,
        "ended": ended,
        "coverage": documents.measured_out(coverage),
        "on_version": found,
        "on_gap": timeline.gap_on(on) if on is not None and found is None else None,
        "marker": charts.position(on, on + timedelta(days=1), first, end) if on is not None else None,
    }


@router.get("/", response_class=HTMLResponse)
async def home(request: Request, known: KnownDep, on: DayQuery = None) -> Response:
    """The timeline of each scheme, the coverage figures, and what applied on a date."""
    catalogue = known.catalogue
    day = parse_day(on, "on")
    first, end = HISTORY_FIRST_DAY, bar_end(catalogue)
    bars = [scheme_bar(catalogue.timeline(s), first, end, day) for s in Scheme]
    years = [(y, charts.position(date(y, 1, 1), date(y + 1, 1, 1), first, end)) for y in range(first.year, end.year)]
    return page(
        request,
        "home.html",
        {"bars": bars, "years": [(y, p) for y, p in years if p], "on": day, "known": known,
         "example_diff": EXAMPLE_DIFF},
    )  # fmt: skip


def neighbours(catalogue: Catalogue, version: Version) -> tuple[Version | None, Version | None]:
    """The versions of the same provision just before and after: the same article, else (a codification) the
    scheme's timeline of the same role."""
    same = sorted((v for v in catalogue.versions.values() if v.article == version.article), key=lambda v: v.valid_from)
    if version.scheme is not None and len(same) <= 1:
        same = sorted(
            (v for v in catalogue.versions.values() if is_same_provision(v, version)), key=lambda v: v.valid_from
        )
    i = same.index(version) if version in same else -1
    before = same[i - 1] if i > 0 else None
    after = same[i + 1] if 0 <= i < len(same) - 1 else None
    return before, after


async def revisions_of(request: Request, version_id: str, session: Any, known: Any, known_at: Any) -> Any:
    """The revisions of ``GET /v1/versions/{id}/revisions``, from the route itself (one implementation); kept per
    load: a revision is recorded by a load, so the answer changes only when another load is the knowledge."""
    key = (version_id, known.load_id, known_at)
    kept: dict[Any, Any] = request.app.state.__dict__.setdefault("web_revisions", {})
    if key not in kept:
        answer = audit_routes.revisions(version_id, session, known_at)
        if inspect.isawaitable(answer):
            answer = await answer
        if len(kept) > 512:
            kept.clear()
        kept[key] = json.loads(bytes(answer.body))["revisions"]
    return kept[key]


DIFFS: dict[tuple[str, str, str, str], dict[str, Any]] = {}


def diff_of(a: Version, b: Version) -> dict[str, Any]:
    """:func:`api.catalogue.diff.diff_versions`, kept by the two versions' content hashes (a pure function of them)."""
    key = (a.id, a.content_hash, b.id, b.content_hash)
    if key not in DIFFS:
        if len(DIFFS) > 256:
            DIFFS.clear()
        DIFFS[key] = diff_versions(a, b)
    return DIFFS[key]


def loads(session: Any) -> list[LoadRow]:
    """Every catalogue load, latest first: the instants a ``known_at`` can choose."""
    return list(session.exec(select(LoadRow).order_by(col(LoadRow.recorded_at).desc())).all())


@router.get("/versions/{version_id}", response_class=HTMLResponse)
async def version_page(
    request: Request,
    version_id: VersionId,
    known: KnownDep,
    known_at: KnownAtDep,
    session: SessionDep,
    p: Annotated[str | None, Query(max_length=200, description="A paragraph to highlight")] = None,
) -> Response:
    """A version: its text with the parameters' quotes highlighted, source, clauses, neighbours, revisions."""
    catalogue = known.catalogue
    version = catalogue.get(version_id)
    doc = documents.version_document(version)
    before, after = neighbours(catalogue, version)
    deadline = None
    if version.claim_deadline_months is None and version.scheme is not None:
        deadline = catalogue.claim_deadline_text(version.scheme, version.valid_from)
    return page(
        request,
        "version.html",
        {
            "version": version,
            "doc": doc,
            "runs": highlight.runs(version, p),
            "cited": p,
            "before": before,
            "after": after,
            "deadline_text": deadline,
            "revisions": await revisions_of(request, version_id, session, known, known_at),
            "loads": loads(session),
            "known": known,
            "known_at": known_at,
            "relies_on": [catalogue.versions.get(r) for r in version.relies_on],
        },
    )


@router.get("/diff", response_class=HTMLResponse)
async def diff_form(
    request: Request,
    known: KnownDep,
    a: Annotated[str | None, Query(max_length=200)] = None,
    b: Annotated[str | None, Query(max_length=200)] = None,
) -> Response:
    """Pick two versions of the same provision; with both, the stable address of their diff."""
    if a and b:
        return RedirectResponse(Links(request)(f"/versions/{quote(a)}/diff/{quote(b)}"), status_code=303)
    return page(request, "diff.html", {"diff": None, **_choices(known.catalogue, EXAMPLE_DIFF[0], EXAMPLE_DIFF[1])})


def _choices(catalogue: Catalogue, a: str, b: str) -> dict[str, Any]:
    groups: dict[str, list[Version]] = {}
    for version in sorted(catalogue.versions.values(), key=lambda v: (v.article, v.valid_from)):
        groups.setdefault(version.article, []).append(version)
    return {"groups": groups, "a": a, "b": b}


@router.get("/versions/{a}/diff/{b}", response_class=HTMLResponse)
async def diff_page(request: Request, a: VersionId, b: VersionId, known: KnownDep) -> Response:
    """Two versions side by side, word-level changes highlighted, the numbers that changed."""
    catalogue = known.catalogue
    first, second = catalogue.get(a), catalogue.get(b)
    doc = diff_of(first, second)
    return page(
        request,
        "diff.html",
        {"diff": doc, "first": first, "second": second, "known": known, **_choices(catalogue, a, b)},
    )
