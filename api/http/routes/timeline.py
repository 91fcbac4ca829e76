"""``POST /v1/timeline``: one purchase across a window of decisive dates (the JSON of `vigueur timeline`)."""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import Response

from api.http import openapi as docs
from api.http.deps import BodyDep, KnownDep, NowDep, TodayDep, known_headers
from api.http.problems import ProblemError
from api.purchase.request import CalculationRequest, json_response
from api.purchase.timeline import parse_timeline_request, timeline_document
from api.purchase.timeline_models import TimelineResponse

router = APIRouter()
ISO_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
EXAMPLE_REQUEST = Path(__file__).resolve().parents[3] / "examples" / "timeline-2015-hybrid.json"


def _example_request() -> dict[str, Any]:
    try:
        found: dict[str, Any] = json.loads(EXAMPLE_REQUEST.read_text(encoding="utf-8"))
    except OSError:  # pragma: no cover - an installed wheel without the examples folder
        return {}
    return found


EXAMPLE_RESPONSE: dict[str, Any] = {
    "window": {"from": "2014-12-20", "until": "2016-01-01", "last_day": "2015-12-31", "default": False,
               "moves": "invoice_date", "order_date": "2014-12-20"},
    "schemes": [{"scheme": "bonus", "segments": [
        {"from": "2015-01-01", "until": "2015-04-01", "last_day": "2015-03-31", "status": "computed",
         "amount": "2475.00", "amount_is_lower_bound": False, "eligible": True,
         "version_id": "decret-2014-1672-art3.2015-01-01",
         "paragraph": "décret n° 2014-1672, art. 3, 1° a), 2e alinéa", "kept_version_id": None,
         "open_clauses": ["decret-2014-1672-art3-1a-transitoire"], "clauses_evaluated": True,
         "provenance": "seed", "claim_deadline": {"months": 6, "citation": "décret n° 2014-1672, art. 9",
                                                  "first": "2015-07-01", "last": "2015-09-30",
                                                  "counted_from": None}},
        {"from": "2015-04-01", "until": "2016-01-01", "last_day": "2015-12-31", "status": "computed",
         "amount": "1500.00", "amount_is_lower_bound": False, "eligible": True,
         "version_id": "decret-2014-1672-art3.2015-01-01", "paragraph": "décret n° 2014-1672, art. 3, 1° a)",
         "kept_version_id": None, "open_clauses": [], "clauses_evaluated": True, "provenance": "seed",
         "claim_deadline": {"months": 6, "citation": "décret n° 2014-1672, art. 9",
                            "first": "2015-10-01", "last": "2016-06-30", "counted_from": None}}]}],
    "advice": [
        {"kind": "keep_until", "scheme": "bonus", "date": "2015-03-31", "until": None, "amount": "2475.00",
         "citation": "décret n° 2014-1672, art. 3, 1° a), 2e alinéa",
         "en": "Invoice on or before 2015-03-31 to keep 2 475 € (décret n° 2014-1672, art. 3, 1° a), 2e alinéa)",
         "fr": "Facturer au plus tard le 2015-03-31 pour conserver 2 475 € (décret n° 2014-1672, art. 3, 1° a), "
         "2e alinéa)"},
        {"kind": "from", "scheme": "bonus", "date": "2015-04-01", "until": None, "amount": "1500.00",
         "citation": "décret n° 2014-1672, art. 3, 1° a)",
         "en": "From 2015-04-01: 1 500 € (décret n° 2014-1672, art. 3, 1° a))",
         "fr": "À partir du 2015-04-01 : 1 500 € (décret n° 2014-1672, art. 3, 1° a))"}],
    "notes": [],
}  # fmt: skip


def _responses() -> dict[int | str, dict[str, Any]]:
    out = {k: v for k, v in docs.responses("CalculationResponse", 404, 413, 415, 422).items() if k != 200}
    out[200] = {
        "model": TimelineResponse,
        "description": "Each scheme's segments over the window, and the advice (English and French).",
        "content": {"application/json": {"example": EXAMPLE_RESPONSE}},
    }
    return out


def _request_body() -> dict[str, Any]:
    body = docs.request_body("calculate")
    body["requestBody"]["description"] = (
        "The purchase or lease: the JSON of `vigueur timeline request.json` (the request of calculate). Its "
        "invoice date (first-rent date for a lease) is what moves along the window: it may be left out."
    )
    content = body["requestBody"]["content"]["application/json"]
    content["schema"] = _timeline_request_schema()
    content["examples"] = {"hybrid-2015": {"summary": "The README's 2015 hybrid", "value": _example_request()}}
    return body


def _timeline_request_schema() -> dict[str, Any]:
    """The request of calculate without its decisive-date rule: the date that moves may be left out."""
    schema = CalculationRequest.model_json_schema(ref_template="#/components/schemas/{model}")
    schema.pop("$defs", None)
    schema.pop("allOf", None)
    schema["title"] = "TimelineRequest"
    for name in ("acquisition_cost", "bonus_ecologique_amount"):
        prop = schema["properties"].get(name)
        if prop is not None and "anyOf" in prop:
            prop["anyOf"] = [{"type": "string", "pattern": r"^[0-9]{1,9}(\.[0-9]{1,2})?$"}, {"type": "null"}]
    return schema


Day = Annotated[str | None, Query(json_schema_extra={"format": "date"})]


@router.post(
    "/v1/timeline",
    tags=["purchase"],
    summary="One purchase across invoice dates: the segments of each aid, and advice",
    responses=_responses(),
    openapi_extra=_request_body(),
)
def calculate_timeline(
    body: BodyDep,
    known: KnownDep,
    now: NowDep,
    today: TodayDep,
    from_: Annotated[
        str | None,
        Query(
            alias="from",
            description="First decisive day (default: the order date, or today in Europe/Paris).",
            examples=["2014-12-20"],
            json_schema_extra={"format": "date"},
        ),
    ] = None,
    until: Annotated[
        str | None,
        Query(
            description="First day after the window, exclusive (default: 18 months after its start, capped at "
            "the catalogue's end).",
            examples=["2016-01-01"],
            json_schema_extra={"format": "date"},
        ),
    ] = None,
    what_if_order: Annotated[
        bool, Query(description="Add the order-date what-ifs (« an order placed before … would keep … »).")
    ] = True,
) -> Response:
    """The answer of ``vigueur timeline``, byte for byte: exact segments ``[from, until)``, advice citing its text."""
    doc = timeline_document(
        known.catalogue,
        parse_timeline_request(body),
        today=today,
        start=_day(from_, "from"),
        until=_day(until, "until"),
        what_if_order=what_if_order,
    )
    return json_response(doc, headers=known_headers(known, now))


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
