"""The content hashes of a version, recomputable by anyone from its two files (README, « Auditable hashes »).

``text_hash`` = ``sha256:`` + the SHA-256 of ``text.txt``'s bytes (``sha256sum versions/<id>/text.txt``).

``version_hash`` = ``sha256:`` + the SHA-256 of the RFC 8785 canonical JSON (JCS) of one object:
``text_sha256`` (the hex digest of ``text.txt``) and :data:`HASHED_FIELDS`, each as ``version.toml`` gives it,
dates written ``YYYY-MM-DD``, a key left out of the file given its default (:data:`DEFAULTS`): ``source`` with
every key of :data:`SOURCE_FIELDS` (null when absent), each ``parameters`` entry as ``{value, unit,
paragraph, quote}`` (``value`` a string), each ``transitional`` clause with every key of :data:`CLAUSE_DEFAULTS`.

Hashes recorded before this scheme (SHA-256 of the text, a NUL byte, and Python's ``json.dumps`` of the
dataclass) are still recognised when a stored revision is rebuilt (:func:`legacy_version_hash`): history is
never rewritten; the next ``vigueur load`` records each version again under its new hash, as a new revision.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, fields, is_dataclass
from datetime import date
from decimal import Decimal
from enum import Enum
from typing import Any

import rfc8785

from legislation import Parameter, Source, TransitionalClause, Version
from legislation.enums import DecisiveEvent

HASHED_FIELDS = (
    "id",
    "scheme",
    "role",
    "article",
    "citation",
    "title",
    "valid_from",
    "valid_until",
    "source",
    "provenance",
    "period_confidence",
    "calculator",
    "parameters",
    "transitional",
    "relies_on",
    "claim_deadline_months",
    "claim_deadline_paragraph",
    "notes",
)
DEFAULTS: dict[str, Any] = {
    "scheme": None,
    "valid_until": None,
    "calculator": None,
    "parameters": {},
    "transitional": [],
    "relies_on": [],
    "claim_deadline_months": None,
    "claim_deadline_paragraph": "",
    "notes": "",
}
SOURCE_FIELDS = ("decree", "decree_date", "jorf", "jorf_date", "nor", "eli", "url", "legiarti", "jorftext",
                 "confidence", "notes")  # fmt: skip
CLAUSE_DEFAULTS: dict[str, Any] = {
    "source": None,
    "kept_version_id": None,
    "kept_version_label": "",
    "new_vehicles_only": False,
    "branches": [],
}


def text_hash(text_bytes: bytes) -> str:
    """``sha256:`` and the hex SHA-256 of the verbatim text's bytes (``sha256sum text.txt``)."""
    return "sha256:" + hashlib.sha256(text_bytes).hexdigest()


def hashed_document(version: Version, text_bytes: bytes) -> dict[str, Any]:
    """The object whose canonical JSON is hashed: ``text_sha256`` and every field of :data:`HASHED_FIELDS`,
    written here field by field (this is the contract the README documents, not a serializer's whim)."""
    doc: dict[str, Any] = {
        "id": version.id,
        "scheme": version.scheme.value if version.scheme else None,
        "role": version.role.value,
        "article": version.article,
        "citation": version.citation,
        "title": version.title,
        "valid_from": version.valid_from.isoformat(),
        "valid_until": _iso(version.valid_until),
        "source": source_document(version.source),
        "provenance": version.provenance.value,
        "period_confidence": version.period_confidence,
        "calculator": version.calculator,
        "parameters": {name: _parameter(p) for name, p in version.parameters.items()},
        "transitional": [clause_document(c) for c in version.transitional],
        "relies_on": list(version.relies_on),
        "claim_deadline_months": version.claim_deadline_months,
        "claim_deadline_paragraph": version.claim_deadline_paragraph,
        "notes": version.notes,
    }
    assert tuple(doc) == HASHED_FIELDS
    if version.decisive_event is not DecisiveEvent.INVOICE_OR_FIRST_RENT:  # only when the file gives another
        doc["decisive_event"] = version.decisive_event.value
    doc["text_sha256"] = hashlib.sha256(text_bytes).hexdigest()
    return doc


def source_document(source: Source) -> dict[str, Any]:
    """A source as JSON: its documented fields, dates ISO (also the codec's form)."""
    return {k: _plain(getattr(source, k)) for k in SOURCE_FIELDS}


def clause_document(clause: TransitionalClause) -> dict[str, Any]:
    """A transitional clause as JSON, every field (hashed, and the codec's form: one serialisation of a clause)."""
    return {
        "id": clause.id,
        "keeps": clause.keeps.value,
        "order_test": clause.order_test.value,
        "order_limit": clause.order_limit.isoformat(),
        "decisive_on_or_before": clause.decisive_on_or_before.isoformat(),
        "deadline_basis": clause.deadline_basis.value,
        "deadline_reading": clause.deadline_reading,
        "paragraph": clause.paragraph,
        "wording": clause.wording,
        "source": source_document(clause.source) if clause.source is not None else None,
        "kept_version_id": clause.kept_version_id,
        "kept_version_label": clause.kept_version_label,
        "new_vehicles_only": clause.new_vehicles_only,
        "branches": list(clause.branches),
    } | _clause_extras(clause)


def _clause_extras(clause: TransitionalClause) -> dict[str, Any]:
    """``rules_date``, ``yearly`` and ``category_deadlines`` enter a clause's object only when the file gives them
    (README)."""
    extras: dict[str, Any] = {}
    if clause.rules_date is not None:
        extras["rules_date"] = clause.rules_date.isoformat()
    if clause.yearly:
        extras["yearly"] = True
    if clause.category_deadlines:
        extras["category_deadlines"] = {c.value: d.isoformat() for c, d in clause.category_deadlines}
    return extras


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    return value.isoformat() if isinstance(value, date) else value


def _iso(day: date | None) -> str | None:
    return day.isoformat() if day else None


def version_hash(version: Version, text_bytes: bytes) -> str:
    """``sha256:`` and the hex SHA-256 of the RFC 8785 canonical JSON of :func:`hashed_document`."""
    return "sha256:" + hashlib.sha256(rfc8785.dumps(hashed_document(version, text_bytes))).hexdigest()


def legacy_version_hash(version: Version, text_bytes: bytes) -> str:
    """The hash revisions were recorded with before RFC 8785 (text, NUL, Python's json.dumps of the fields)."""
    meta = {f.name: getattr(version, f.name) for f in fields(version) if f.name not in ("text", "content_hash")}
    digest = hashlib.sha256(text_bytes + b"\0" + json.dumps(meta, sort_keys=True, default=_legacy).encode())
    return "sha256:" + digest.hexdigest()


def _legacy(value: Any) -> Any:
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Parameter) and value.unit is None:  # type: ignore[comparison-overlap]
        # recorded before units (migration 0003): hashed as it was then
        return {k: v for k, v in asdict(value).items() if k != "unit"}
    if is_dataclass(value) and not isinstance(value, type):
        return asdict(value)
    raise TypeError(type(value))


def _parameter(p: Parameter) -> dict[str, Any]:
    """A parameter's hashed fields; ``notion`` only when given, so that the hash of a version without one is
    the hash it always had."""
    doc: dict[str, Any] = {"value": str(p.value), "unit": _plain(p.unit), "paragraph": p.paragraph, "quote": p.quote}
    if p.notion is not None:
        doc["notion"] = p.notion
    return doc
