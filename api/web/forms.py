"""The calculator's form, built from the request schema (:class:`api.purchase.request.CalculationRequest`).

A field is named by its request path (``vehicle.co2_g_per_km``) in the page's query string, so a filled form is
a stable URL an auditor can cite. The query is turned back into the request's JSON and validated by the one
parser of the API and the CLI (:func:`api.purchase.request.parse_request`): the same errors, naming the same
fields. Only the facts that the versions of the chosen dates read are asked (``FACTS`` of their calculators,
:func:`api.purchase.inputs.calculator_facts`), and any fact already given is kept on the form.
"""

from __future__ import annotations

import json
import re
import types
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from enum import Enum
from typing import Any, Union, get_args, get_origin

from pydantic import BaseModel
from starlette.datastructures import QueryParams

from api.purchase.request import BuyerIn, CalculationRequest, RequestError, ScrappedVehicleIn, VehicleIn

GROUPS: dict[str, type[BaseModel]] = {"vehicle": VehicleIn, "buyer": BuyerIn, "scrapped_vehicle": ScrappedVehicleIn}
DATES_STEP = ("acquisition", "order_date", "invoice_date", "first_rent_date")
TERM = re.compile(r"«\s*([^»]+?)\s*»")
# The README's request (examples/request of the 2015 hybrid): the calculator's example, one click from home.
README_REQUEST: dict[str, Any] = {
    "acquisition": "purchase",
    "order_date": "2014-12-20",
    "invoice_date": "2015-03-31",
    "vehicle": {"category": "passenger_car", "energy": "petrol_electric_hybrid", "co2_g_per_km": 95,
                "acquisition_cost": "30000.00", "electric_motor_power_30min_kw": "15"},
    "buyer": {"person_kind": "natural_person"},
    "schemes": ["bonus"],
}  # fmt: skip
NOT_FACTS = frozenset({"lang", "known_at", "from", "until", "what_if_order", "receipts_token"})


@dataclass(frozen=True, slots=True, kw_only=True)
class FormField:
    path: str  # the request path, also the input's name
    kind: str  # enum | bool | date | integer | decimal | schemes
    choices: tuple[str, ...]
    term: str  # the French legal term the schema's description quotes
    description: str
    required: bool


def _unwrap(annotation: Any) -> Any:
    if get_origin(annotation) in (Union, types.UnionType):
        args = [a for a in get_args(annotation) if a is not type(None)]
        return _unwrap(args[0]) if len(args) == 1 else annotation
    if get_origin(annotation) is not None and get_origin(annotation) is not list:
        args = get_args(annotation)
        return _unwrap(args[0]) if args else annotation
    return annotation


def _kind(annotation: Any) -> tuple[str, tuple[str, ...]]:
    base = _unwrap(annotation)
    if get_origin(base) is list:
        return "schemes", tuple(m.value for m in get_args(base)[0])
    if isinstance(base, type) and issubclass(base, Enum):
        return "enum", tuple(m.value for m in base)
    if base is bool:
        return "bool", ("true", "false")
    if base is date:
        return "date", ()
    if base is int:
        return "integer", ()
    if base is Decimal:
        return "decimal", ()
    raise TypeError(f"no form input for {annotation!r}")  # pragma: no cover - the request schema uses these only


def _field(path: str, model: type[BaseModel], name: str) -> FormField:
    info = model.model_fields[name]
    description = info.description or ""
    term = TERM.search(description)
    kind, choices = _kind(info.annotation)
    return FormField(
        path=path,
        kind=kind,
        choices=choices,
        term=term.group(1) if term else "",
        description=description,
        required=info.is_required(),
    )


def all_fields() -> list[FormField]:
    """Every field of the request, top level first, then the vehicle, the buyer, the scrapped vehicle."""
    out = [_field(n, CalculationRequest, n) for n in CalculationRequest.model_fields if n not in GROUPS]
    for group, model in GROUPS.items():
        out += [_field(f"{group}.{n}", model, n) for n in model.model_fields]
    return out


FIELDS = all_fields()
BY_PATH = {f.path: f for f in FIELDS}


def given(query: QueryParams) -> dict[str, list[str]]:
    """The form's non-empty values by request path (unknown names are ignored by the form, refused by the parser)."""
    out: dict[str, list[str]] = {}
    for key, value in query.multi_items():
        if key in NOT_FACTS or not value.strip():
            continue
        out.setdefault(key, []).append(value.strip())
    return out


def to_request_json(values: dict[str, list[str]]) -> str:
    """The request's JSON text for the values of the form; a value of the wrong kind is a RequestError naming it."""
    doc: dict[str, Any] = {}
    errors: list[dict[str, str]] = []
    for path, items in values.items():
        spec = BY_PATH.get(path)
        value: Any = items if spec is None or spec.kind == "schemes" else items[-1]
        if spec is not None and spec.kind == "integer":
            if not re.fullmatch(r"-?\d{1,9}", value):
                errors.append({"field": path, "message": f"{value!r} is not a whole number"})
                continue
            value = int(value)
        elif spec is not None and spec.kind == "bool":
            if value not in ("true", "false"):
                errors.append({"field": path, "message": f"{value!r} is not true or false"})
                continue
            value = value == "true"
        elif spec is not None and spec.kind == "decimal":
            value = value.replace(",", ".").replace(" ", "").replace("\u202f", "").replace("\u00a0", "")
        head, _, tail = path.partition(".")
        if tail:
            doc.setdefault(head, {})[tail] = value
        else:
            doc[head] = value
    if errors:
        raise RequestError(errors)
    return json.dumps(doc, ensure_ascii=False)


def from_request(request: dict[str, Any]) -> list[tuple[str, str]]:
    """The form's query items for a request's JSON (a case's or a receipt's): the calculator filled in."""
    items: list[tuple[str, str]] = []
    for key, value in request.items():
        if isinstance(value, dict):
            items += [(f"{key}.{k}", _text(v)) for k, v in value.items() if v is not None]
        elif isinstance(value, list):
            items += [(key, _text(v)) for v in value]
        elif value is not None:
            items.append((key, _text(value)))
    return items


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def needed_paths(facts: set[str], values: dict[str, list[str]]) -> list[FormField]:
    """The facts to ask after the dates: those the versions read, and any already given; in schema order."""
    wanted = facts | set(values)
    return [f for f in FIELDS if f.path not in DATES_STEP and f.path != "schemes" and f.path in wanted]


def dates_fields() -> list[FormField]:
    return [BY_PATH[p] for p in (*DATES_STEP, "schemes")]
