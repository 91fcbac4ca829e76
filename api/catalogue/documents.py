"""The catalogue's documents, one rendering for the API and the CLI: a scheme's coverage, its timeline
summary, the version in force on a day, one version, and the problem of a day with no version on file.

Each is built as its model (:mod:`api.catalogue.models`) and printed or answered in its JSON form
(:func:`api.output.as_json`). ``GET /v1/schemes/{scheme}/versions`` and ``vigueur versions --scheme S``
print :func:`timeline_document`; ``GET /v1/schemes/{scheme}/in-force?on=D`` and ``vigueur versions --scheme S
--on D`` print :func:`in_force_document` or, in a gap, :func:`no_version_problem` (404, with
``declared_gap``); ``GET /v1/versions/{id}`` and ``vigueur show ID`` print :func:`version_document`.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from api.catalogue.hashing import text_hash
from api.catalogue.models import (
    CoverageOut,
    CoverageReportOut,
    DaysInGapsOut,
    DaysInVersionsOut,
    DaysWithNothingOut,
    FactsOut,
    GapOut,
    HoleOut,
    InForceOut,
    MeasuredCoverageOut,
    ParameterOut,
    SchemeOut,
    SegmentOut,
    TimelineOut,
    VersionOut,
    VersionSummaryOut,
)
from api.output import as_json
from api.problem_types import problem, problem_type
from api.purchase.inputs import calculator_facts
from api.purchase.models import NearestOut
from api.purchase.render import render_source, render_version_clause, version_ref
from legislation import Role, Scheme, Version
from legislation.coverage import Coverage, Hole, measure, share
from legislation.resolver import ended_note
from legislation.timeline import Gap, Timeline

SCHEME_NAMES = {Scheme.BONUS: "bonus écologique", Scheme.CONVERSION_PREMIUM: "prime à la conversion"}


def version_fields(version: Version) -> dict[str, Any]:
    """A version's metadata (no text), as the fields of :class:`VersionOut`."""
    return {
        "version_id": version.id,
        "scheme": version.scheme.value if version.scheme else None,
        "role": version.role.value,
        "article": version.article,
        "citation": version.citation,
        "title": version.title,
        "valid_from": version.valid_from,
        "valid_until": version.valid_until,
        "last_day_in_force": version.last_day,
        "provenance": version.provenance.value,
        "period_confidence": version.period_confidence,
        "source": render_source(version.source),
        "calculator": version.calculator,
        "relies_on": list(version.relies_on),
        "parameters": {
            n: ParameterOut(value=str(p.value), paragraph=p.paragraph, quote=p.quote)
            for n, p in version.parameters.items()
        },
        "transitional_clauses": [render_version_clause(c) for c in version.transitional],
        "claim_deadline_months": version.claim_deadline_months,
        "decisive_event": version.decisive_event.value,
        "notes": version.notes.strip(),
        "version_hash": version.content_hash,
    }


def version_out(version: Version) -> VersionOut:
    """The version (metadata, source, verbatim text, hashes) and the facts its calculator reads."""
    resolution = ["acquisition", "invoice_date", "first_rent_date"]
    if version.transitional:
        resolution.append("order_date")
    if any(c.new_vehicles_only for c in version.transitional):
        resolution.append("vehicle.previously_registered")
    return VersionOut(
        **version_fields(version),
        text_hash=text_hash(version.text.encode("utf-8")),
        text=version.text,
        facts=FactsOut(
            resolution=resolution,
            calculator=list(calculator_facts(version.calculator)) if version.calculator else [],
        ),
    )


def version_document(version: Version) -> dict[str, Any]:
    """:func:`version_out` in its JSON form."""
    return as_json(version_out(version))


def version_metadata(version: Version) -> dict[str, Any]:
    """The JSON form of a version's metadata without its text (what a diff compares)."""
    return {
        k: v
        for k, v in version_document(version).items()
        if k not in ("text_hash", "text", "facts")
    }


def scheme_out(timeline: Timeline) -> SchemeOut:
    """A scheme's name, coverage (first and last day on file) and declared gaps."""
    scheme = timeline.scheme.value
    return SchemeOut(
        scheme=scheme,
        name=SCHEME_NAMES[timeline.scheme],
        coverage=coverage(timeline),
        gaps=[gap_out(g) for g in timeline.gaps],
        measured=measured_out(measure(timeline)),
        links={"versions": f"/v1/schemes/{scheme}/versions", "in_force": f"/v1/schemes/{scheme}/in-force"},
    )


def scheme_document(timeline: Timeline) -> dict[str, Any]:
    return as_json(scheme_out(timeline))


def measured_out(coverage: Coverage) -> MeasuredCoverageOut:
    """``vigueur coverage`` for one scheme: days in a version (per provenance grade), in declared gaps, in nothing."""
    total = coverage.days
    return MeasuredCoverageOut(
        scheme=coverage.scheme.value,
        from_=coverage.first_day,
        to=coverage.last_day,
        days=total,
        in_versions=DaysInVersionsOut(
            days=coverage.in_versions,
            share=share(coverage.in_versions, total),
            by_provenance=dict(coverage.by_grade),
        ),
        in_declared_gaps=DaysInGapsOut(days=coverage.in_gaps, share=share(coverage.in_gaps, total)),
        after_the_end=DaysInGapsOut(days=coverage.in_ended, share=share(coverage.in_ended, total)),
        with_nothing=DaysWithNothingOut(
            days=coverage.with_nothing,
            share=share(coverage.with_nothing, total),
            periods=[hole_out(h) for h in coverage.holes],
        ),
        versions_or_gaps_share=share(coverage.in_versions + coverage.in_gaps, total),
        answered_share=share(coverage.in_versions + coverage.in_gaps + coverage.in_ended, total),
    )


def hole_out(hole: Hole) -> HoleOut:
    """Days with neither a version nor a declared gap, and the versions an answer for them names."""
    return HoleOut(
        start=hole.start,
        end=hole.end,
        last_day=hole.last_day,
        days=hole.days,
        nearest_versions=NearestOut(before=version_ref(hole.nearest_before), after=version_ref(hole.nearest_after)),
    )


def coverage_document(coverage: Coverage) -> dict[str, Any]:
    """:func:`measured_out` in its JSON form."""
    return as_json(measured_out(coverage))


def coverage_report(coverages: list[Coverage]) -> dict[str, Any]:
    """``vigueur coverage``: one measure per scheme."""
    return as_json(CoverageReportOut(schemes=[measured_out(c) for c in coverages]))


def coverage(timeline: Timeline) -> CoverageOut:
    versions = timeline.versions
    last = versions[-1] if versions else None
    return CoverageOut(
        first_day=timeline.first_day,
        last_day=timeline.last_day,
        open_ended=last is not None and last.valid_until is None,
        versions=len(versions),
    )


def timeline_out(timeline: Timeline) -> TimelineOut:
    """Every version of the scheme's amounts text in date order (a summary each), gaps and segments."""
    return TimelineOut(
        scheme=timeline.scheme.value,
        name=SCHEME_NAMES[timeline.scheme],
        coverage=coverage(timeline),
        versions=[summary(v) for v in timeline.versions],
        gaps=[gap_out(g) for g in timeline.gaps],
        timeline=segments(timeline),
    )


def timeline_document(timeline: Timeline) -> dict[str, Any]:
    return as_json(timeline_out(timeline))


def in_force_document(timeline: Timeline, day: date, *, on_is_today: bool) -> dict[str, Any] | None:
    """The version in force on ``day`` with its text, or the text that ended the aid by then (status « ended »);
    None when no version is on file then."""
    version = timeline.answered_on(day)
    if version is None:
        return None
    ended = version.role is Role.ENDED
    return as_json(
        InForceOut(
            scheme=timeline.scheme.value,
            on=day,
            on_is_today=on_is_today,
            status="ended" if ended else "in_force",
            message=ended_note(version) if ended else None,
            version=version_out(version),
        )
    )


def summary(v: Version) -> VersionSummaryOut:
    return VersionSummaryOut(
        version_id=v.id,
        citation=v.citation,
        title=v.title,
        valid_from=v.valid_from,
        valid_until=v.valid_until,
        last_day_in_force=v.last_day,
        provenance=v.provenance.value,
        period_confidence=v.period_confidence,
        calculator=v.calculator,
        source_decree=v.source.decree,
        version_hash=v.content_hash,
        href=f"/v1/versions/{v.id}",
    )


def segments(timeline: Timeline) -> list[SegmentOut]:
    """Versions and gaps in order; a hole neither covers (before the first version) is « not_on_file »."""
    items: list[tuple[date, date | None, str, str | None, str | None]]
    items = [(v.valid_from, v.valid_until, "version", v.id, None) for v in timeline.versions]
    items += [(g.start, g.end, "gap", None, g.reason) for g in timeline.gaps]
    items += [(v.valid_from, v.valid_until, "ended", v.id, ended_note(v)) for v in timeline.endings]
    out: list[SegmentOut] = []
    for start, end, kind, version_id, reason in sorted(items, key=lambda i: i[0]):
        previous_end = out[-1].end if out else None
        if previous_end is not None and previous_end < start:
            reason_hole = "no version and no declared gap"
            out.append(
                SegmentOut(kind="not_on_file", start=previous_end, end=start, version_id=None, reason=reason_hole)
            )
        out.append(SegmentOut(kind=kind, start=start, end=end, version_id=version_id, reason=reason))
    return out


def gap_out(g: Gap) -> GapOut:
    return GapOut(start=g.start, end=g.end, last_day=date.fromordinal(g.end.toordinal() - 1), reason=g.reason)


def no_version_problem(timeline: Timeline, day: date) -> dict[str, Any]:
    """The 404 problem of a day with no version on file: the declared gap it falls in, the nearest versions."""
    before, after = timeline.nearest(day)
    gap = timeline.gap_on(day)
    detail = f"no version of the {timeline.scheme.value} amounts on file for {day.isoformat()}"
    if gap is not None:
        detail += f" (declared gap: {gap.reason})"
    refs = {"before": version_ref(before), "after": version_ref(after)}
    return problem(
        404,
        "No version on file",
        type_=problem_type("no-version-on-file"),
        detail=detail,
        scheme=timeline.scheme.value,
        on=day.isoformat(),
        declared_gap=as_json(gap_out(gap)) if gap else None,
        nearest_versions={k: as_json(v) if v else None for k, v in refs.items()},
    )
