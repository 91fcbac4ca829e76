"""Corrections of the generated OpenAPI document, so that it says what the API does (checked by
schemathesis in tests/reliability):

* a money or quantity field of the request is a string of ASCII digits with its bounds (a pattern drawn
  from the field's ``max_digits`` and ``decimal_places``), not « number or string » without bound (a JSON
  number with the same digits is still read, as before, for hand-written requests);
* a ``known_at`` later than now is refused (422), and said so;
* the 404 « nothing known then » (``known_at`` before the first load) has a schema of its own, offered
  beside the route's other 404 (``NoVersionProblem`` forbids its two extra members);
* 507 « storage full » is documented on the routes that write (a receipt, a correction, a case import).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Any, get_args, get_origin

from pydantic import BaseModel

NOTHING_KNOWN_THEN = "NothingKnownThenProblem"
FUTURE_KNOWN_AT = " An instant later than now is refused (422: the catalogue cannot say what it will know)."
STORAGE_FULL_TYPE = "urn:vigueur:problem:storage-full"
STORAGE_FULL_DETAIL = "the database's disk is full: nothing was written; retry once an operator made room"
WRITES = {("post", "/v1/calculate"), ("post", "/v1/admin/versions"), ("post", "/v1/cases/import")}


def refine(schema: dict[str, Any], models: tuple[type[BaseModel], ...]) -> None:
    """Apply every correction to ``schema`` (the document being built), in place."""
    components = schema["components"]["schemas"]
    for model in models:
        _decimal_patterns(components.get(model.__name__, {}), model)
    components[NOTHING_KNOWN_THEN] = _nothing_known_then()
    for path, operations in schema.get("paths", {}).items():
        for method, operation in operations.items():
            _known_at(operation)
            if any(p.get("name") == "known_at" for p in operation.get("parameters", [])):
                _nothing_known_then_404(operation)
            if (method, path) in WRITES:
                operation["responses"]["507"] = _storage_full()


def decimal_pattern(field: Any) -> str | None:
    """``^[0-9]{1,12}(\\.[0-9]{1,2})?$`` for a Decimal field of max_digits 14 and decimal_places 2; None for a
    field that is not a Decimal."""
    digits = places = None
    for item in _constraints(field):
        digits = getattr(item, "max_digits", None) or digits
        places = getattr(item, "decimal_places", None) or places
    if digits is None or places is None:
        return None
    return rf"^[0-9]{{1,{digits - places}}}(\.[0-9]{{1,{places}}})?$"


def _constraints(field: Any) -> list[Any]:
    """The field's constraints, also those of an ``Annotated`` inside ``X | None``."""
    found = list(field.metadata)
    for arg in get_args(field.annotation):
        if get_origin(arg) is Annotated and get_args(arg)[0] is Decimal:
            for info in arg.__metadata__:
                found += list(getattr(info, "metadata", [info]))
    if field.annotation is not Decimal and not any(
        get_origin(a) is Annotated and get_args(a)[0] is Decimal for a in get_args(field.annotation)
    ):
        return []
    return found


def _decimal_patterns(component: dict[str, Any], model: type[BaseModel]) -> None:
    for name, field in model.model_fields.items():
        pattern = decimal_pattern(field)
        prop = component.get("properties", {}).get(name)
        if pattern is None or prop is None:
            continue
        text = {"type": "string", "pattern": pattern}
        nullable = any(v.get("type") == "null" for v in prop.get("anyOf", []))
        for key in ("anyOf", "type", "minimum", "maximum", "exclusiveMinimum"):
            prop.pop(key, None)
        prop.update({"anyOf": [text, {"type": "null"}]} if nullable else text)
        if prop.get("default") is not None:
            prop["default"] = str(prop["default"])


def _known_at(operation: dict[str, Any]) -> None:
    for parameter in operation.get("parameters", []):
        if parameter.get("name") == "known_at" and FUTURE_KNOWN_AT not in parameter.get("description", ""):
            parameter["description"] = parameter.get("description", "") + FUTURE_KNOWN_AT
            parameter["schema"]["description"] = parameter["description"]


def _nothing_known_then_404(operation: dict[str, Any]) -> None:
    answer = operation["responses"].get("404")
    if answer is None:
        return
    content = answer["content"]["application/problem+json"]
    current = content["schema"]
    content["schema"] = {"anyOf": [current, {"$ref": f"#/components/schemas/{NOTHING_KNOWN_THEN}"}]}


def _nothing_known_then() -> dict[str, Any]:
    text = {"type": "string"}
    return {
        "title": NOTHING_KNOWN_THEN,
        "description": "404 with known_at before the first load of the catalogue: nothing was known then.",
        "type": "object",
        "additionalProperties": False,
        "required": ["type", "title", "status", "detail", "errors", "known_at", "first_recorded_at"],
        "properties": {
            "type": {"const": "urn:vigueur:problem:nothing-known-then"},
            "title": text,
            "status": {"const": 404},
            "detail": text,
            "errors": {"type": "array", "items": {"$ref": "#/components/schemas/FieldError"}},
            "known_at": text | {"format": "date-time"},
            "first_recorded_at": text | {"format": "date-time"},
        },
    }


def _storage_full() -> dict[str, Any]:
    return {
        "description": "The database's disk is full: nothing was written; retry once an operator made room.",
        "content": {
            "application/problem+json": {
                "schema": {"$ref": "#/components/schemas/Problem"},
                "example": {
                    "type": STORAGE_FULL_TYPE,
                    "title": "Storage full",
                    "status": 507,
                    "detail": STORAGE_FULL_DETAIL,
                },
            }
        },
    }
