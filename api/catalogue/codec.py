"""A :class:`legislation.Version` as plain JSON and back, exactly (same content hash as the file loader).

The store keeps a version as rows; each row group is built from, and rebuilt into, these JSON pieces.
Decimals travel as strings (``"0.27"`` stays ``"0.27"``, never ``0.270``), dates as ISO strings,
enums as their values.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal
from typing import Any

from api.catalogue.hashing import clause_document, source_document
from api.catalogue.loader import with_hash
from legislation import Source, Version
from legislation.enums import (
    DeadlineBasis,
    DecisiveEvent,
    KeepMode,
    OrderTest,
    ParameterUnit,
    Provenance,
    Role,
    Scheme,
    VehicleCategory,
)
from legislation.timeline import Gap
from legislation.versions import Parameter, TransitionalClause

Json = dict[str, Any]

SOURCE_DATES = ("decree_date", "jorf_date")
SOURCE_FIELDS = (
    "decree",
    "decree_date",
    "jorf",
    "jorf_date",
    "nor",
    "eli",
    "url",
    "legiarti",
    "jorftext",
    "confidence",
    "notes",
)


def source_to_json(source: Source) -> Json:
    return source_document(source)


def source_from_json(doc: Json) -> Source:
    fields: dict[str, Any] = {
        k: (_day(doc[k]) if k in SOURCE_DATES else doc[k]) for k in SOURCE_FIELDS if k in doc
    }
    return Source(**fields)


def parameter_to_json(parameter: Parameter) -> Json:
    doc = {
        "value": str(parameter.value),
        "paragraph": parameter.paragraph,
        "quote": parameter.quote,
        "unit": parameter.unit.value if parameter.unit is not None else None,
    }
    if parameter.notion is not None:  # only when given: the documents of versions without one are unchanged
        doc["notion"] = parameter.notion
    return doc


def parameter_from_json(name: str, doc: Json) -> Parameter:
    # A revision recorded before units (migration 0003) has none: rebuilt as recorded, so its hash still verifies.
    unit = ParameterUnit(doc["unit"]) if doc.get("unit") else None
    return Parameter(
        name=name,
        value=Decimal(doc["value"]),
        paragraph=doc["paragraph"],
        quote=doc["quote"],
        unit=unit,  # type: ignore[arg-type]
        notion=doc.get("notion"),
    )


def clause_to_json(clause: TransitionalClause) -> Json:
    return clause_document(clause)


def clause_from_json(doc: Json) -> TransitionalClause:
    return TransitionalClause(
        id=doc["id"],
        keeps=KeepMode(doc["keeps"]),
        order_test=OrderTest(doc["order_test"]),
        order_limit=date.fromisoformat(doc["order_limit"]),
        decisive_on_or_before=date.fromisoformat(doc["decisive_on_or_before"]),
        deadline_basis=DeadlineBasis(doc["deadline_basis"]),
        deadline_reading=doc["deadline_reading"],
        paragraph=doc["paragraph"],
        wording=doc["wording"],
        source=source_from_json(doc["source"]) if doc.get("source") is not None else None,
        kept_version_id=doc.get("kept_version_id"),
        kept_version_label=doc.get("kept_version_label", ""),
        new_vehicles_only=bool(doc.get("new_vehicles_only", False)),
        branches=tuple(doc.get("branches", ())),
        rules_date=_day(doc.get("rules_date")),
        yearly=bool(doc.get("yearly", False)),
        category_deadlines=tuple(
            (VehicleCategory(c), date.fromisoformat(d)) for c, d in (doc.get("category_deadlines") or {}).items()
        ),
    )


def version_to_json(version: Version) -> Json:
    """Every field of the version, the verbatim text and the content hash included."""
    return {
        "id": version.id,
        "scheme": version.scheme.value if version.scheme else None,
        "role": version.role.value,
        "article": version.article,
        "citation": version.citation,
        "title": version.title,
        "valid_from": version.valid_from.isoformat(),
        "valid_until": _iso(version.valid_until),
        "text": version.text,
        "source": source_to_json(version.source),
        "provenance": version.provenance.value,
        "period_confidence": version.period_confidence,
        "calculator": version.calculator,
        "parameters": {name: parameter_to_json(p) for name, p in version.parameters.items()},
        "transitional": [clause_to_json(c) for c in version.transitional],
        "relies_on": list(version.relies_on),
        "claim_deadline_months": version.claim_deadline_months,
        "claim_deadline_paragraph": version.claim_deadline_paragraph,
        "notes": version.notes,
        "decisive_event": version.decisive_event.value,
        "content_hash": version.content_hash,
    }


def version_from_json(doc: Json) -> Version:
    """The version a :func:`version_to_json` document describes, with its content hash recomputed."""
    version = Version(
        id=doc["id"],
        scheme=Scheme(doc["scheme"]) if doc.get("scheme") else None,
        role=Role(doc["role"]),
        article=doc["article"],
        citation=doc["citation"],
        title=doc["title"],
        valid_from=date.fromisoformat(doc["valid_from"]),
        valid_until=_day(doc.get("valid_until")),
        text=doc["text"],
        source=source_from_json(doc["source"]),
        provenance=Provenance(doc["provenance"]),
        period_confidence=doc["period_confidence"],
        calculator=doc.get("calculator"),
        parameters={name: parameter_from_json(name, p) for name, p in doc.get("parameters", {}).items()},
        transitional=tuple(clause_from_json(c) for c in doc.get("transitional", ())),
        relies_on=tuple(doc.get("relies_on", ())),
        claim_deadline_months=doc.get("claim_deadline_months"),
        claim_deadline_paragraph=doc.get("claim_deadline_paragraph", ""),
        notes=doc.get("notes", ""),
        decisive_event=DecisiveEvent(doc.get("decisive_event", DecisiveEvent.INVOICE_OR_FIRST_RENT.value)),
    )
    return rehash(version)


def rehash(version: Version) -> Version:
    """The version with the content hash the file loader gives it (text as UTF-8 bytes, then metadata)."""
    # The loader hashes text.txt's bytes; the text was decoded from them as UTF-8: encoding gives them back.
    return with_hash(replace(version, content_hash=""), version.text.encode("utf-8"))


def gap_to_json(gap: Gap) -> Json:
    return {
        "scheme": gap.scheme.value,
        "start": gap.start.isoformat(),
        "end": gap.end.isoformat(),
        "reason": gap.reason,
    }


def gap_from_json(doc: Json) -> Gap:
    return Gap(
        scheme=Scheme(doc["scheme"]),
        start=date.fromisoformat(doc["start"]),
        end=date.fromisoformat(doc["end"]),
        reason=doc["reason"],
    )


def _iso(day: date | None) -> str | None:
    return day.isoformat() if day is not None else None


def _day(value: str | None) -> date | None:
    return date.fromisoformat(value) if value else None
