"""The response contract of `calculate` and `resolve`, as models: :mod:`api.purchase.render` builds them,
the CLI prints and the API answers their JSON form (:func:`api.output.as_json`), and they give the OpenAPI
document and `vigueur schema` their JSON Schema. Nothing else builds these answers."""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

_CLOSED = ConfigDict(extra="forbid")

Status = Literal[
    "computed", "missing_facts", "no_version_on_file", "kept_version_not_on_file", "not_covered_on_file", "ended"
]


class StepOut(BaseModel):
    model_config = _CLOSED
    citation: str = Field(description="The paragraph applied: « C. énergie, art. D. 251-7, 1° ».")
    text: str
    amount: str | None = Field(description="Euros, as a string with two decimals.")


class ReadingOut(BaseModel):
    model_config = _CLOSED
    id: str
    text: str = Field(description="The interpretation of an ambiguous text that the calculation applied, and why.")


class SourceOut(BaseModel):
    model_config = _CLOSED
    decree: str
    decree_date: date | None
    jorf: str | None
    jorf_date: date | None
    nor: str | None
    eli: str | None
    url: str | None
    legiarti: str | None
    jorftext: str | None
    confidence: str
    notes: str


class VersionClauseOut(BaseModel):
    """A transitional clause as the catalogue holds it (data, not prose)."""

    model_config = _CLOSED
    id: str
    paragraph: str
    keeps: Literal["inline", "previous", "more_favourable", "in_force_on"]
    order_test: Literal["ordered_before", "ordered_on_or_before"]
    order_limit: date
    decisive_on_or_before: date
    deadline_basis: Literal["explicit", "computed"]
    deadline_reading: str
    wording: str
    kept_version_id: str | None
    kept_version_label: str
    new_vehicles_only: bool
    source: SourceOut | None
    rules_date: date | None = Field(
        default=None,
        description="in_force_on: the date D whose version is kept (« … facturation au plus tard le D »), computed "
        "as of D; previous / more_favourable: the kept version named by a date (« dans leur rédaction en vigueur au "
        "D »), computed for the purchase's own decisive date.",
    )
    category_deadlines: dict[str, date] = Field(
        default_factory=dict,
        description="A deadline that depends on the vehicle's category (« a) Le 31 décembre 2023 si le véhicule "
        "appartient aux catégories M2, M3, N2 ou N3 »): category → last decisive date; decisive_on_or_before is the "
        "deadline « dans les autres cas ».",
    )
    yearly: bool = Field(
        default=False,
        description="The clause repeats every year (« … d'une année considérée … de l'année suivante »); order_limit "
        "and decisive_on_or_before are its first occurrence.",
    )


class ClauseOut(VersionClauseOut):
    """A transitional clause examined for one purchase, with the test it passed or failed."""

    open: bool | None = Field(
        description="true/false once evaluated; null when not evaluated (no order date, missing fact)."
    )
    test: str
    missing_fact: str | None


class VersionRefOut(BaseModel):
    model_config = _CLOSED
    version_id: str
    citation: str
    valid_from: date
    valid_until: date | None = Field(
        description="First day no longer in force (exclusive end); null = open or not known."
    )


class NearestOut(BaseModel):
    model_config = _CLOSED
    before: VersionRefOut | None
    after: VersionRefOut | None


class ComparedOut(BaseModel):
    model_config = _CLOSED
    version_id: str
    amount: str | None = Field(description="Euros, two decimals; null when that version's amount is not known.")
    eligible: bool | None
    paragraph: str
    reason: str


class _Resolved(BaseModel):
    model_config = _CLOSED
    scheme: Literal["bonus", "conversion_premium"]
    version_id: str | None
    version_hash: str | None = Field(description="Content hash of the version's text and metadata (sha256).")
    citation: str | None
    title: str | None
    provenance: Literal["official", "seed", "derived", "secondary"] | None
    valid_from: date | None
    valid_until: date | None = Field(description="Exclusive end of the version's period (first day not in force).")
    last_day_in_force: date | None
    decisive_date: date
    decided_by: Literal["invoice_date", "first_rent_date", "order_date"] = Field(
        description="The field that gave the decisive date, as the version's text words it (order_date: a lease's "
        "signature, « prise en location », under décret 2007-1873's initial wording)."
    )
    transitional_clauses: list[ClauseOut]
    notes: list[str]
    nearest_versions: NearestOut | None
    message: str | None


class SchemeResultOut(_Resolved):
    status: Status = Field(
        description="computed: the amount due; missing_facts: a fact the text needs is not given (amount null); "
        "no_version_on_file: no version of the text on file for the decisive date (amount null); "
        "kept_version_not_on_file: an open transitional clause keeps a version not on file (amount a lower "
        "bound under « more favourable », else null); not_covered_on_file: the text on file does not cover the "
        "vehicle while a text not on file may (amount null, never « not eligible »); ended: the aid had ended by the "
        "decisive date and no transitional clause of the text that ended it keeps an earlier wording (amount null; "
        "version_id, citation and valid_from name that text and the day it took effect)."
    )
    amount: str | None = Field(
        description="Euros, string with two decimals; null whenever the amount is not known (never 0.00)."
    )
    amount_is_lower_bound: bool = Field(
        description="True when the amount is only a lower bound of what is due (kept_version_not_on_file)."
    )
    eligible: bool | None
    reason: str | None
    paragraph: str | None = Field(description="The paragraph that decided the amount or the refusal.")
    steps: list[StepOut]
    alternatives: list[StepOut] = Field(description="Other paragraphs the purchase met, not kept (and why).")
    assumptions: list[str] = Field(description="Conditions in texts not on file that the request is taken to assert.")
    readings: list[ReadingOut]
    missing_facts: list[str] = Field(description="Request fields the text needs and the request did not give.")
    compared: list[ComparedOut] = Field(
        description="Every version computed (several under a « more favourable » clause)."
    )
    kept_by: str | None = Field(description="The transitional clause that made another version's amount the one kept.")
    claim_deadline: date | None = Field(description="Last day to file the claim (« demande d'aide »).")
    claim_deadline_citation: str | None
    warnings: list[str]


class CalculationResponse(BaseModel):
    model_config = _CLOSED
    results: list[SchemeResultOut]
    total_amount: str | None = Field(
        description="Sum of the schemes' amounts, euros; null when one of them is not known (total_unknown_for)."
    )
    total_is_lower_bound: bool = Field(description="True when one of the amounts summed is only a lower bound.")
    total_unknown_for: list[str] = Field(description="The schemes whose amount is not known, so neither is the total.")


class ResolutionOut(_Resolved):
    status: Literal["resolved", "no_version_on_file", "ended"]
    versions_to_compute: list[str] = Field(description="The version(s) whose calculator the resolution designates.")
    warnings: list[str]


class ResolveResponse(BaseModel):
    model_config = _CLOSED
    results: list[ResolutionOut]
