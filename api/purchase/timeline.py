"""The document of `vigueur timeline` and `POST /v1/timeline`: one purchase across a window of decisive dates.

Translates :mod:`legislation.segments` and :mod:`legislation.advice` to JSON (and to a compact text for
``--explain``); decides nothing. The request is the one of `vigueur calculate`; its decisive date (invoice or
first-rent date) is what moves along the window, so it may be left out.
"""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal
from typing import Any

from pydantic import BaseModel

from api.kernel_cache import form_store
from api.purchase.render import to_purchase
from api.purchase.request import BuyerIn, CalculationRequest, RequestError, ScrappedVehicleIn, VehicleIn, parse_request
from legislation import Catalogue
from legislation.advice import Advice, order_what_ifs, timeline_advice
from legislation.errors import InvalidDates
from legislation.segments import PurchaseTimeline, Segment, amount_timeline, default_window, engine_for

AMOUNT_FIELDS: dict[str, type[BaseModel]] = {"": CalculationRequest, "vehicle.": VehicleIn, "buyer.": BuyerIn,
                                             "scrapped_vehicle.": ScrappedVehicleIn}  # fmt: skip


def _decimal_fields(model: type[BaseModel]) -> set[str]:
    return {name for name, field in model.model_fields.items() if Decimal in _types(field.annotation)}


def _types(annotation: Any) -> tuple[Any, ...]:
    return (annotation, *getattr(annotation, "__args__", ()), *(a for x in getattr(annotation, "__args__", ())
                                                                for a in getattr(x, "__args__", ())))  # fmt: skip


def parse_timeline_request(raw: str | bytes) -> CalculationRequest:
    """The request of calculate, its amounts and quantities written as strings (the documented contract: a JSON
    number there is refused, 422 naming the field — `calculate` still reads one, for hand-written requests)."""
    request = parse_request(raw)
    body = json.loads(raw)
    errors = []
    for prefix, model in AMOUNT_FIELDS.items():
        part = body if not prefix else body.get(prefix[:-1])
        if not isinstance(part, dict):
            continue
        for name in sorted(_decimal_fields(model)):
            if isinstance(part.get(name), int | float) and not isinstance(part.get(name), bool):
                message = f'write the number as a string of digits: "{part[name]}" (the request contract)'
                errors.append({"field": prefix + name, "message": message})
    if errors:
        raise RequestError(errors)
    return request


def timeline_document(
    catalogue: Catalogue,
    request: CalculationRequest,
    *,
    today: date,
    start: date | None = None,
    until: date | None = None,
    what_if_order: bool = True,
) -> dict[str, Any]:
    """Segments per scheme, then advice; ``today`` is the window's default start when no order date is given."""
    purchase = to_purchase(request)
    default_start, default_until = default_window(catalogue, purchase.order_date, start or today)
    first = start or default_start
    last = until or default_until
    if until is None and start is not None:
        last = default_window(catalogue, None, first)[1]
    if last <= first:
        raise InvalidDates(f"until {last} must be after from {first}", "until")
    timeline = amount_timeline(catalogue, purchase, first, last, engine_for(catalogue, form_store()))
    advice = timeline_advice(timeline)
    if what_if_order:
        advice += order_what_ifs(catalogue, purchase, timeline)
    return render_timeline(timeline, advice, defaulted=start is None and until is None)


def render_timeline(timeline: PurchaseTimeline, advice: list[Advice], *, defaulted: bool) -> dict[str, Any]:
    return {
        "window": {
            "from": timeline.start.isoformat(),
            "until": timeline.until.isoformat(),
            "last_day": date.fromordinal(timeline.until.toordinal() - 1).isoformat(),
            "default": defaulted,
            "moves": timeline.decided_by,
            "order_date": timeline.order_date.isoformat() if timeline.order_date else None,
        },
        "schemes": [
            {"scheme": scheme.value, "segments": [render_segment(s) for s in segments]}
            for scheme, segments in timeline.segments.items()
        ],
        "advice": [render_advice(a) for a in advice],
        "notes": list(timeline.notes),
    }


def render_segment(segment: Segment) -> dict[str, Any]:
    deadlines = segment.claim_deadlines
    return {
        "from": segment.start.isoformat(),
        "until": segment.until.isoformat(),
        "last_day": segment.last_day.isoformat(),
        "status": segment.status,
        "amount": None if segment.amount is None else f"{segment.amount:.2f}",
        "amount_is_lower_bound": segment.amount_is_lower_bound,
        "eligible": segment.eligible,
        "version_id": segment.version_id,
        "paragraph": segment.paragraph,
        "kept_version_id": segment.kept_version_id,
        "open_clauses": list(segment.open_clauses),
        "clauses_evaluated": segment.clauses_evaluated,
        "provenance": segment.provenance.value if segment.provenance else None,
        "claim_deadline": None
        if deadlines is None
        else {
            "months": segment.claim_deadline_months,
            "citation": segment.claim_deadline_citation,
            "first": deadlines[0].isoformat(),
            "last": deadlines[1].isoformat(),
            # a lease decided by its signature (décret 2007-1873, initial wording): the deadline counts from the
            # signature (order_date), the same on every day of the segment; null: from each decisive date
            "counted_from": None if segment.fixed_decisive_date is None else segment.fixed_decisive_date.isoformat(),
        },
    }


def render_advice(advice: Advice) -> dict[str, Any]:
    return {
        "kind": advice.kind,
        "scheme": advice.scheme.value,
        "date": advice.day.isoformat(),
        "until": advice.until.isoformat() if advice.until else None,
        "amount": None if advice.amount is None else f"{advice.amount:.2f}",
        "citation": advice.citation,
        "en": advice.en,
        "fr": advice.fr,
    }


def explain_timeline(doc: dict[str, Any]) -> str:
    """The compact text of ``--explain``: one line per segment, then the advice in both languages."""
    window = doc["window"]
    lines = [f"{window['moves']} from {window['from']} to {window['last_day']} (order_date {window['order_date']})"]
    for scheme in doc["schemes"]:
        lines.append(f"\n{scheme['scheme']}")
        for s in scheme["segments"]:
            amount = s["amount"] if s["amount"] is not None else s["status"]
            bound = " (lower bound)" if s["amount_is_lower_bound"] else ""
            clauses = f"  clauses open: {', '.join(s['open_clauses'])}" if s["open_clauses"] else ""
            where = f"{s['version_id']} · {s['paragraph']}" if s["version_id"] else "no version on file"
            lines.append(f"  {s['from']} → {s['last_day']}  {amount:>10}{bound}  {where}{clauses}")
    if doc["advice"]:
        lines.append("\nadvice / conseils")
        for a in doc["advice"]:
            lines.append(f"  {a['en']}\n    {a['fr']}")
    lines.extend(f"\nnote: {n}" for n in doc["notes"])
    return "\n".join(lines) + "\n"
