"""The catalogue's documents, one rendering for the API and the CLI: a scheme's coverage, its timeline
summary, the version in force on a day, one version, and the problem of a day with no version on file.

``GET /v1/schemes/{scheme}/versions`` and ``vigueur versions --scheme S`` print :func:`timeline_document`;
``GET /v1/schemes/{scheme}/in-force?on=D`` and ``vigueur versions --scheme S --on D`` print
:func:`in_force_document` or, in a gap, :func:`no_version_problem` (404, with ``declared_gap``);
``GET /v1/versions/{id}`` and ``vigueur show ID`` print :func:`version_document`.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from api.catalogue.hashing import text_hash
from api.problem_types import problem, problem_type
from api.purchase.inputs import calculator_facts
from api.purchase.render import render_version, version_ref
from legislation import Scheme, Version
from legislation.timeline import Gap, Timeline

SCHEME_NAMES = {Scheme.BONUS: "bonus écologique", Scheme.CONVERSION_PREMIUM: "prime à la conversion"}


def version_document(version: Version) -> dict[str, Any]:
    """``render_version`` (metadata, source, verbatim text) and the facts the version's calculator reads."""
    doc = with_text_hash(render_version(version), version)
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


def with_text_hash(doc: dict[str, Any], version: Version) -> dict[str, Any]:
    """``text_hash`` (sha256 of text.txt's bytes) right after ``version_hash``."""
    out: dict[str, Any] = {}
    for key, value in doc.items():
        out[key] = value
        if key == "version_hash":
            out["text_hash"] = text_hash(version.text.encode("utf-8"))
    return out


def scheme_document(timeline: Timeline) -> dict[str, Any]:
    """A scheme's name, coverage (first and last day on file) and declared gaps."""
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
        "gaps": [gap_document(g) for g in timeline.gaps],
        "links": {
            "versions": f"/v1/schemes/{timeline.scheme.value}/versions",
            "in_force": f"/v1/schemes/{timeline.scheme.value}/in-force",
        },
    }


def timeline_document(timeline: Timeline) -> dict[str, Any]:
    """Every version of the scheme's amounts text in date order (a summary each), gaps and segments."""
    head = scheme_document(timeline)
    return {
        "scheme": head["scheme"],
        "name": head["name"],
        "coverage": head["coverage"],
        "versions": [summary(v) for v in timeline.versions],
        "gaps": head["gaps"],
        "timeline": segments(timeline),
    }


def in_force_document(timeline: Timeline, day: date, *, on_is_today: bool) -> dict[str, Any] | None:
    """The version in force on ``day`` with its text; None when no version is on file then."""
    version = timeline.find(day)
    if version is None:
        return None
    return {
        "scheme": timeline.scheme.value,
        "on": day.isoformat(),
        "on_is_today": on_is_today,
        "version": version_document(version),
    }


def summary(v: Version) -> dict[str, Any]:
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


def segments(timeline: Timeline) -> list[dict[str, Any]]:
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
            {"kind": kind, "start": start.isoformat(), "end": _iso(end), "version_id": version_id, "reason": reason}
        )
    return out


def gap_document(g: Gap) -> dict[str, Any]:
    last = date.fromordinal(g.end.toordinal() - 1)
    return {"start": g.start.isoformat(), "end": g.end.isoformat(), "last_day": last.isoformat(), "reason": g.reason}


def no_version_problem(timeline: Timeline, day: date) -> dict[str, Any]:
    """The 404 problem of a day with no version on file: the declared gap it falls in, the nearest versions."""
    before, after = timeline.nearest(day)
    gap = timeline.gap_on(day)
    detail = f"no version of the {timeline.scheme.value} amounts on file for {day.isoformat()}"
    if gap is not None:
        detail += f" (declared gap: {gap.reason})"
    return problem(
        404,
        "No version on file",
        type_=problem_type("no-version-on-file"),
        detail=detail,
        scheme=timeline.scheme.value,
        on=day.isoformat(),
        declared_gap=gap_document(gap) if gap else None,
        nearest_versions={"before": version_ref(before), "after": version_ref(after)},
    )


def _iso(day: date | None) -> str | None:
    return day.isoformat() if day else None
