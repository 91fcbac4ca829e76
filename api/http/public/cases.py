"""The contract of the regression-case and batch endpoints, as models (OpenAPI, tests), with examples."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from api.http import examples

_CLOSED = ConfigDict(extra="forbid")

# -- examples ----------------------------------------------------------------------------------------------

CASE_EXAMPLE: dict[str, Any] = {
    "id": "bonus-2020-2-price-at-45000",
    "title": "Electric car at exactly 45 000 €: 2°, 3 000 €",
    "source": {"paragraph": "C. énergie, art. D. 251-7, 2°"},
    "request": {
        "acquisition": "purchase",
        "invoice_date": "2020-07-15",
        "schemes": ["bonus"],
        "vehicle": {
            "category": "passenger_car",
            "energy": "electric",
            "co2_g_per_km": 0,
            "acquisition_cost": "45000.00",
        },
        "buyer": {"person_kind": "natural_person"},
    },
    "expected": {
        "bonus": {
            "amount": "3000.00",
            "eligible": True,
            "version_id": "D251-7.2020-06-01",
            "status": "computed",
        }
    },
    "tolerance": "0",
    "notes": "45 000 is not « inférieur à 45 000 » (1°) but is « compris entre 45 000 et 60 000 » (2°) "
    "→ 3 000.00 €.",
    "file": "tests/regression/bonus_2020_06_01.yaml",
    "line": 120,
    "content_hash": "sha256:5be8f3c0a1d29e4b7f6a2c1d0e9b8a7f6e5d4c3b2a19081726354453627180a9",
    "imported_at": "2025-11-29T17:50:12.345678+00:00",
    "href": "/v1/cases/bonus-2020-2-price-at-45000",
}
CASE_LIST_EXAMPLE: dict[str, Any] = {
    "total": 289,
    "limit": 1,
    "offset": 0,
    "next": "/v1/cases?limit=1&offset=1",
    "cases": [CASE_EXAMPLE],
}
IMPORT_EXAMPLE: dict[str, Any] = {
    "origin": "POST /v1/cases/import (file=tests/regression/bonus_2020_06_01.yaml)",
    "changed": True,
    "import_id": 2,
    "imported_at": "2025-11-29T17:52:40.120301+00:00",
    "counts": {"added": 1, "superseded": 1, "unchanged": 40, "removed": 0},
    "cases": [
        {
            "id": "bonus-2020-2-price-at-45000",
            "change": "superseded",
            "old_hash": "sha256:5be8f3c0a1d29e4b7f6a2c1d0e9b8a7f6e5d4c3b2a19081726354453627180a9",
            "new_hash": "sha256:0c1d2e3f405162738495a6b7c8d9eafb0c1d2e3f405162738495a6b7c8d9eafb",
        },
        {
            "id": "bonus-2020-2-price-at-45000-01",
            "change": "added",
            "old_hash": None,
            "new_hash": "sha256:9a8b7c6d5e4f30211203f4e5d6c7b8a99a8b7c6d5e4f30211203f4e5d6c7b8a9",
        },
    ],
}
RUN_EXAMPLE: dict[str, Any] = {
    "summary": {"cases": 2, "passed": 1, "failed": 1, "errors": 0, "seconds": 0.004},
    "per_version": [{"version_id": "D251-7.2020-06-01", "cases": 2, "passed": 1, "failed": 1, "errors": 0}],
    "cases": [
        {
            "id": "bonus-2020-2-price-at-45000",
            "title": "Electric car at exactly 45 000 €: 2°, 3 000 €",
            "file": "tests/regression/bonus_2020_06_01.yaml",
            "line": 120,
            "paragraph": "C. énergie, art. D. 251-7, 2°",
            "outcome": "passed",
            "error": None,
            "checks": [
                {"scheme": "bonus", "field": "amount", "expected": "3000.00", "got": "3000.00", "ok": True},
                {"scheme": "bonus", "field": "eligible", "expected": True, "got": True, "ok": True},
                {
                    "scheme": "bonus",
                    "field": "version_id",
                    "expected": "D251-7.2020-06-01",
                    "got": "D251-7.2020-06-01",
                    "ok": True,
                },
                {"scheme": "bonus", "field": "status", "expected": "computed", "got": "computed", "ok": True},
            ],
        },
        {
            "id": "bonus-2020-1-price-below-45000",
            "title": "Electric car at 44 999.99 €: 1°, 27 % capped at 7 000 €",
            "file": "tests/regression/bonus_2020_06_01.yaml",
            "line": 98,
            "paragraph": "C. énergie, art. D. 251-7, 1°",
            "outcome": "failed",
            "error": None,
            "checks": [
                {"scheme": "bonus", "field": "amount", "expected": "6000.00", "got": "7000.00", "ok": False},
                {"scheme": "bonus", "field": "eligible", "expected": True, "got": True, "ok": True},
                {
                    "scheme": "bonus",
                    "field": "version_id",
                    "expected": "D251-7.2020-06-01",
                    "got": "D251-7.2020-06-01",
                    "ok": True,
                },
                {"scheme": "bonus", "field": "status", "expected": "computed", "got": "computed", "ok": True},
            ],
            "steps": {
                "bonus": [
                    {
                        "citation": "C. énergie, art. D. 251-7, 1°",
                        "text": "27 % du coût d'acquisition, dans la limite de 7 000 euros",
                        "amount": "7000.00",
                    }
                ]
            },
        },
    ],
}
RUN_FILTERS_EXAMPLES: dict[str, dict[str, Any]] = {
    "everything": {"summary": "Every stored case (an empty body does the same)", "value": {}},
    "one_version": {
        "summary": "The cases expecting a version",
        "value": {"version": "D251-7.2020-06-01"},
    },
    "some_cases": {
        "summary": "Cases by id, from one file",
        "value": {"ids": ["bonus-2020-2-price-at-45000"], "file": "bonus_2020_06_01.yaml"},
    },
}
CASE_FILE_EXAMPLE = """\
cases:
  - id: bonus-2020-2-price-at-45000
    title: "Electric car at exactly 45 000 €: 2°, 3 000 €"
    source: {paragraph: "C. énergie, art. D. 251-7, 2°"}
    request:
      acquisition: purchase
      invoice_date: 2020-07-15
      schemes: [bonus]
      vehicle: {category: passenger_car, energy: electric, co2_g_per_km: 0, acquisition_cost: "45000.00"}
      buyer: {person_kind: natural_person}
    expected:
      bonus: {amount: "3000.00", eligible: true, version_id: D251-7.2020-06-01, status: computed}
    notes: |
      45 000 is not « inférieur à 45 000 » (1°) but is « compris entre 45 000 et 60 000 » (2°) → 3 000.00 €.
"""
BATCH_REQUEST_EXAMPLE = (
    '{"id": "dossier-1", "acquisition": "purchase", "invoice_date": "2020-07-15", "schemes": ["bonus"], "vehicle": '
    '{"category": "passenger_car", "energy": "electric", "co2_g_per_km": 0, "acquisition_cost": "32000.00"}, "buyer": '
    '{"person_kind": "natural_person"}}\n'
    '{"acquisition": "purchase", "invoice_date": "2020-07-15", "vehicle": {"acquisition_cost": "-1"}}\n'
)
BATCH_RESPONSE_EXAMPLE = (
    '{"line": 1, "id": "dossier-1", "scheme": "bonus", "status": "computed", "amount": "7000.00", "eligible": true, '
    '"version_id": "D251-7.2020-06-01", "paragraph": "C. énergie, art. D. 251-7, 1°", '
    '"kept_version_id": null, '
    '"error": null, "reason": null, "missing_facts": null, "claim_deadline": null, "provenance": "seed"}\n'
    '{"line": 2, "id": null, "scheme": null, "status": "invalid", "amount": null, "eligible": null, '
    '"version_id": null, "paragraph": null, "kept_version_id": null, "error": "vehicle.acquisition_cost: Input should '
    'be greater than or equal to 0", "reason": null, "missing_facts": null, "claim_deadline": null, '
    '"provenance": null}\n'
)

PROBLEM_401: dict[str, Any] = {
    "type": "about:blank",
    "title": "Unauthorized",
    "status": 401,
    "detail": "this endpoint needs « Authorization: Bearer <token> »",
}
PROBLEM_WRITES_OFF: dict[str, Any] = {
    "type": "about:blank",
    "title": "Not Found",
    "status": 404,
    "detail": "write endpoints are off: VIGUEUR_ADMIN_TOKEN is not configured",
}
PROBLEM_UNKNOWN_CASE: dict[str, Any] = {
    "type": "urn:vigueur:problem:unknown-case",
    "title": "Unknown case",
    "status": 404,
    "detail": "no stored case with id 'bonus-2019-x'",
    "errors": [{"field": "ids", "message": "no such case; GET /v1/cases lists them"}],
}
PROBLEM_NO_CASE: dict[str, Any] = {
    "type": "urn:vigueur:problem:no-case",
    "title": "No case to run",
    "status": 404,
    "detail": "no stored case matches the filters "
    "(import cases with `vigueur cases import` or POST /v1/cases/import)",
}
PROBLEM_INVALID_CASE_FILE: dict[str, Any] = {
    "type": "urn:vigueur:problem:invalid-case-file",
    "title": "Invalid case file",
    "status": 422,
    "detail": "bonus_2020_06_01.yaml, case bonus-2020-2-price-at-45000, field expected.bonus.amount: "
    "'3000.001': a non-negative amount to the cent is required",
    "errors": [
        {
            "field": "expected.bonus.amount",
            "message": "'3000.001': a non-negative amount to the cent is required",
        }
    ],
    "file": "bonus_2020_06_01.yaml",
    "case_id": "bonus-2020-2-price-at-45000",
}
PROBLEM_CONFLICT: dict[str, Any] = {
    "type": "urn:vigueur:problem:concurrent-import",
    "title": "Concurrent import",
    "status": 409,
    "detail": "another import recorded the same cases at the same time; nothing was written, retry",
}
PROBLEM_STORED_CASE_INVALID: dict[str, Any] = {
    "type": "urn:vigueur:problem:stored-case-invalid",
    "title": "Stored case no longer valid",
    "status": 409,
    "detail": "tests/regression/bonus_2017.yaml, case bonus-2017-x, field expected.bonus.status: "
    "'computed_v0' is not one of computed, missing_facts, no_version_on_file, kept_version_not_on_file, "
    "not_covered_on_file, ended; "
    "import its case file again",
}
PROBLEM_BATCH_TOO_MANY_ROWS: dict[str, Any] = {
    "type": "urn:vigueur:problem:too-many-rows",
    "title": "Content Too Large",
    "status": 413,
    "detail": "a batch is at most 10000 rows (this one has 10001); split it, or use `vigueur batch`",
    "errors": [{"field": "(body)", "message": "10001 rows, at most 10000"}],
    "rows": 10001,
    "max_rows": 10000,
}
PROBLEM_BATCH_415: dict[str, Any] = {
    "type": "about:blank",
    "title": "Unsupported Media Type",
    "status": 415,
    "detail": "send JSON Lines with « Content-Type: application/x-ndjson » "
    "(or application/jsonl, application/json)",
    "errors": [{"field": "(body)", "message": "content type 'text/csv' is not JSON Lines"}],
}

# -- models ------------------------------------------------------------------------------------------------



CaseStatus = Literal[
    "computed", "missing_facts", "no_version_on_file", "kept_version_not_on_file", "not_covered_on_file", "ended"
]

class CaseSourceOut(BaseModel):
    model_config = _CLOSED
    paragraph: str = Field(description="The paragraph applied, or the published example.")
    url: str | None = None


class ExpectedOut(BaseModel):
    model_config = _CLOSED
    amount: str | None = Field(description="Euros with two decimals; null where the answer has none.")
    eligible: bool | None
    version_id: str | None = Field(
        description="The version in force on the decisive date; null: none on file."
    )
    status: CaseStatus | None = Field(
        None, description="Absent (null) when the case does not say: the status is then not checked."
    )
    kept_by: str | None = None
    missing_facts: list[str] | None = None


class CaseOut(BaseModel):
    """A stored regression case: the content of its case file, where it came from, its hash."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [CASE_EXAMPLE]})
    id: str
    title: str
    source: CaseSourceOut
    request: dict[str, Any] = Field(description="The request of `vigueur calculate` / POST /v1/calculate.")
    expected: dict[str, ExpectedOut] = Field(description="What each scheme the request computes must give.")
    tolerance: str = Field(description="Euros; the amount may differ by at most this.")
    notes: str = Field(description="The arithmetic, from the text.")
    file: str = Field(description="The case file this revision was imported from.")
    line: int
    content_hash: str = Field(description="sha256 of the case's content (file and line excluded).")
    imported_at: datetime = Field(description="When this revision of the case was recorded (UTC).")
    href: str


class CaseListOut(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [CASE_LIST_EXAMPLE]})
    total: int = Field(description="How many current cases match the filters.")
    limit: int
    offset: int
    next: str | None = Field(description="The next page, null on the last one.")
    cases: list[CaseOut]


class CaseChangeOut(BaseModel):
    model_config = _CLOSED
    id: str
    change: Literal["added", "superseded", "unchanged", "removed"]
    old_hash: str | None
    new_hash: str | None


class ImportCountsOut(BaseModel):
    model_config = _CLOSED
    added: int
    superseded: int
    unchanged: int
    removed: int


class ImportOut(BaseModel):
    """What an import recorded: nothing (``changed`` false) when every case was already stored as it is."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [IMPORT_EXAMPLE]})
    origin: str
    changed: bool
    import_id: int | None
    imported_at: datetime | None
    counts: ImportCountsOut
    cases: list[CaseChangeOut]


class CaseRunFilters(BaseModel):
    """Which stored cases to run; every filter given must match; none: every case."""

    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"version": "D251-7.2020-06-01"}]}
    )
    ids: list[str] | None = Field(None, max_length=100_000, description="Case ids (each must be stored).")
    version: str | None = Field(
        None, max_length=200, description="Cases expecting this version id for one of their schemes."
    )
    file: str | None = Field(
        None,
        max_length=1000,
        description="Cases imported from this file (its path, or its end: « bonus_2017.yaml »).",
    )


class RunSummaryOut(BaseModel):
    model_config = _CLOSED
    cases: int
    passed: int
    failed: int
    errors: int
    seconds: float


class VersionCountsOut(BaseModel):
    model_config = _CLOSED
    version_id: str | None = Field(description="null: the cases expecting no version on file.")
    cases: int
    passed: int
    failed: int
    errors: int


class CheckOut(BaseModel):
    model_config = _CLOSED
    scheme: str
    field: str
    expected: Any
    got: Any
    ok: bool


class CaseReportOut(BaseModel):
    model_config = _CLOSED
    id: str
    title: str
    file: str
    line: int
    paragraph: str
    outcome: Literal["passed", "failed", "error"]
    error: str | None
    checks: list[CheckOut]
    steps: dict[str, list[dict[str, Any]]] | None = Field(
        None, description="For a failed case: the answer's steps per scheme, with their citations."
    )


class RunReportOut(BaseModel):
    """The report of `vigueur cases run --json`: totals, counts per version, every case with its checks."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [RUN_EXAMPLE]})
    summary: RunSummaryOut
    per_version: list[VersionCountsOut]
    cases: list[CaseReportOut]


class BatchRecordOut(BaseModel):
    """One line of the batch answer: one result per scheme of an input row, or the row's error."""

    model_config = _CLOSED
    line: int = Field(description="The line of the input (1 = first line of the body).")
    id: str | None = Field(description="The request's « id » (a string or an integer), copied; null when none.")
    scheme: Literal["bonus", "conversion_premium"] | None = Field(description="null for an invalid row.")
    status: str = Field(
        description="computed, missing_facts, no_version_on_file, kept_version_not_on_file, not_covered_on_file, "
        "ended, or invalid."
    )
    amount: str | None
    eligible: bool | None
    version_id: str | None
    paragraph: str | None = Field(description="The paragraph that gave the amount.")
    kept_version_id: str | None = Field(description="The version a transitional clause kept, if any.")
    error: str | None = Field(description="Why the row is invalid (field: reason); null otherwise.")
    reason: str | None = Field(
        description="No version on file, the aid ended: the explained answer's message and warnings (the reasons "
        "of other results: `vigueur batch --reasons`)."
    )
    missing_facts: str | None = Field(description="Null here (`vigueur batch --reasons` names the facts missing).")
    claim_deadline: str | None = Field(description="The last day to claim the aid (YYYY-MM-DD), as explained.")
    provenance: str | None = Field(
        description="The grade of the version in force (official, seed, derived, secondary), then of a kept version "
        "and of a secondary text relied on."
    )


PROBLEM_EXAMPLES = (
    PROBLEM_401,
    PROBLEM_WRITES_OFF,
    PROBLEM_UNKNOWN_CASE,
    PROBLEM_NO_CASE,
    PROBLEM_INVALID_CASE_FILE,
    PROBLEM_CONFLICT,
    PROBLEM_STORED_CASE_INVALID,
    PROBLEM_BATCH_TOO_MANY_ROWS,
    PROBLEM_BATCH_415,
    examples.load("problem_422"),
    examples.load("problem_503"),
)
