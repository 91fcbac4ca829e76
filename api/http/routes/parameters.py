"""``GET /v1/parameters``, ``/v1/parameters/{name}``, ``/v1/versions`` and ``/v1/articles/{article}/versions``:
a parameter's history across versions, and every version of every article. Translate, never decide."""

from __future__ import annotations

import re
from datetime import date
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response

from api.catalogue.parameters import articles, history_document, parameters_document, versions_document
from api.http import openapi as docs
from api.http.caching import NOT_MODIFIED, cached_json
from api.http.deps import KnownDep, NowDep, known_headers
from api.http.problems import ProblemError
from api.purchase.request import json_response
from legislation import Provenance, Role, Scheme
from legislation.parameters import parameter_history

router = APIRouter()
ISO_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
SchemeQuery = Annotated[
    Scheme | None, Query(description="Only the versions of this aid (and the texts shared by both).")
]


def _ok(description: str, example: dict[str, Any], *statuses: int) -> dict[int | str, dict[str, Any]]:
    # 404 always: known_at before the first load is « nothing known then », on every catalogue endpoint
    out = {k: v for k, v in docs.responses("VersionOut", 404, *statuses, 422).items() if k != 200}
    out[200] = {"description": description, "content": {"application/json": {"example": example}}}
    return out


EV_CAP = {
    "name": "ev_cap_natural",
    "notion": "ev_cap.natural_person",
    "scheme": "bonus",
    "values": [
        {"notion": "ev_cap", "parameter": "ev_cap", "value": "6000", "unit": "euro", "valid_from": "2017-01-01",
         "valid_until": "2017-02-19", "version_id": "D251-7.2017-01-01", "scheme": "bonus",
         "citation": "C. énergie, art. D. 251-7", "paragraph": "1° a)", "quote": "sans être supérieur à 6 000 euros",
         "provenance": "official", "changed": True, "decree": "Décret n° 2016-1980 du 30 décembre 2016 …",
         "decree_date": "2016-12-30", "href": "/v1/versions/D251-7.2017-01-01"},
    ],
    "notes": ["from 2020-06-01 (D251-7.2020-06-01, Décret n° 2020-656 …) the text splits ev_cap into "
              "ev_cap.natural_person = ev_cap_natural"],
}  # fmt: skip


@router.get(
    "/v1/parameters",
    tags=["catalogue"],
    summary="Every parameter (notion) on file",
    responses=_ok(
        "Each notion: the names it has had, its schemes, units and period on file.",
        {
            "parameters": [
                {
                    "name": "ev_cap",
                    "names": ["car_zero_cap", "ev_cap"],
                    "schemes": ["bonus"],
                    "units": ["euro"],
                    "versions": 3,
                    "valid_from": "2015-01-01",
                    "valid_until": "2018-01-01",
                    "href": "/v1/parameters/ev_cap",
                }
            ]
        },
    ),
)
async def list_parameters(known: KnownDep, now: NowDep, scheme: SchemeQuery = None) -> Response:
    """The parameters of every version, grouped by notion (the same number of the law under different names)."""
    return json_response(parameters_document(known.catalogue, scheme), headers=known_headers(known, now))


@router.get(
    "/v1/parameters/{name}",
    tags=["catalogue"],
    summary="A parameter's value across every version",
    responses=_ok(
        "The value in each version on file: unit, period, version, paragraph, quote, provenance, decree.", EV_CAP, 404
    ),
)
async def get_parameter(
    name: Annotated[
        str, Path(max_length=200, description="A notion or a parameter name.", examples=["ev_cap_natural"])
    ],
    known: KnownDep,
    now: NowDep,
    scheme: SchemeQuery = None,
) -> Response:
    """The history of one notion; a parameter name gives the history of its notion (where a text split or merged
    it, the notes say so)."""
    history = parameter_history(known.catalogue, name, scheme)
    if history is None:
        raise ProblemError(
            404, "Unknown parameter", detail=f"no parameter or notion {name!r} on file",
            errors=[{"field": "name", "message": "no such parameter; GET /v1/parameters lists them"}],
        )  # fmt: skip
    return json_response(history_document(history, scheme), headers=known_headers(known, now))


VERSIONS_EXAMPLE = {
    "filters": {"scheme": "bonus", "article": None, "role": None, "provenance": None, "on": "2015-03-31"},
    "versions": [{"article": "decret-2014-1672-art3", "scheme": "bonus", "role": "amounts",
                  "version_id": "decret-2014-1672-art3.2015-01-01", "citation": "décret n° 2014-1672, art. 3",
                  "title": "…", "valid_from": "2015-01-01", "valid_until": "2016-01-01",
                  "last_day_in_force": "2015-12-31", "provenance": "seed", "period_confidence": "confirmed",
                  "calculator": "bonus_2015_01_01", "source_decree": "Décret n° 2014-1672 du 30 décembre 2014 …",
                  "version_hash": "…", "href": "/v1/versions/decret-2014-1672-art3.2015-01-01"}],
}  # fmt: skip


@router.get(
    "/v1/versions",
    tags=["catalogue"],
    summary="Every version of every article",
    responses=_ok("The versions that pass every filter, by article then date.", VERSIONS_EXAMPLE) | NOT_MODIFIED,
)
async def list_all_versions(
    request: Request,
    known: KnownDep,
    now: NowDep,
    scheme: Annotated[Scheme | None, Query(description="Only this aid's texts.")] = None,
    article: Annotated[str | None, Query(max_length=200, examples=["D251-7"])] = None,
    role: Annotated[Role | None, Query(description="amounts | conditions | management | transitional")] = None,
    provenance: Annotated[Provenance | None, Query()] = None,
    on: Annotated[
        str | None,
        Query(description="Only the versions in force on this day (YYYY-MM-DD).", json_schema_extra={"format": "date"}),
    ] = None,
) -> Response:
    """Amounts, conditions, management and transitional texts alike (the scheme timelines list amounts only)."""
    doc = versions_document(
        known.catalogue, scheme=scheme, article=article, role=role, provenance=provenance, on=_day(on, "on")
    )
    return cached_json(request, doc, known_headers(known, now), known.known_at, now)


@router.get(
    "/v1/articles/{article}/versions",
    tags=["catalogue"],
    summary="Every version of one article",
    responses=_ok("The article's versions in date order.", VERSIONS_EXAMPLE | {"filters": {"article": "D251-7"}}, 404)
    | NOT_MODIFIED,
)
async def list_article_versions(
    request: Request, article: Annotated[str, Path(max_length=200, examples=["D251-7"])], known: KnownDep, now: NowDep
) -> Response:
    """The wordings of one text, oldest first (``GET /v1/versions/{a}/diff/{b}`` compares two of them)."""
    catalogue = known.catalogue
    if article not in articles(catalogue):
        raise ProblemError(
            404, "Unknown article", detail=f"no article {article!r} on file",
            errors=[{"field": "article", "message": "no such article; GET /v1/versions lists every version"}],
        )  # fmt: skip
    doc = versions_document(catalogue, article=article)
    return cached_json(request, doc, known_headers(known, now), known.known_at, now)


def _day(value: str | None, field: str) -> date | None:
    if value is None:
        return None
    try:
        if ISO_DAY.match(value):
            return date.fromisoformat(value)
    except ValueError:
        pass
    raise ProblemError(
        422, "Invalid request", errors=[{"field": field, "message": f"{value!r} is not a day YYYY-MM-DD"}]
    )
