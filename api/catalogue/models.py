"""The catalogue's documents as models — the one rendering of `vigueur versions|show` and of
``GET /v1/schemes…``, ``/v1/versions/{id}``: :mod:`api.catalogue.documents` builds them, the CLI prints and
the API answers their JSON form (:func:`api.output.as_json`)."""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from api.purchase.models import NearestOut, SourceOut, VersionClauseOut

_CLOSED = ConfigDict(extra="forbid")
SchemeName = Literal["bonus", "conversion_premium"]


class GapOut(BaseModel):
    model_config = _CLOSED
    start: date = Field(description="First day with no version on file.")
    end: date = Field(description="First day covered again (exclusive end).")
    last_day: date
    reason: str


class CoverageOut(BaseModel):
    model_config = _CLOSED
    first_day: date | None = Field(description="First day of the earliest version on file.")
    last_day: date | None = Field(description="Last day of the latest version; null when it is still open.")
    open_ended: bool = Field(
        description="True when the latest version has no end (still in force or end unknown)."
    )
    versions: int


SHARE = "Percentage of the period, one decimal, rounded down (« 99.9 » never hides a missing day)."


class DaysInVersionsOut(BaseModel):
    model_config = _CLOSED
    days: int = Field(description="Days in force of a version of the scheme's amounts text.")
    share: str = Field(description=SHARE)
    by_provenance: dict[str, int] = Field(
        description="Those days per provenance grade of the version in force: official, seed, derived, secondary."
    )


class DaysInGapsOut(BaseModel):
    model_config = _CLOSED
    days: int = Field(description="Days in a declared gap (answered « no version on file », with its reason).")
    share: str = Field(description=SHARE)


class HoleOut(BaseModel):
    model_config = _CLOSED
    start: date = Field(description="First day with neither a version nor a declared gap.")
    end: date = Field(description="First day answered again (exclusive end).")
    last_day: date = Field(description="Last day of the period.")
    days: int = Field(description="Its length in days.")
    nearest_versions: NearestOut = Field(
        description="The versions an answer for a day of this period names (« no version on file »)."
    )


class DaysWithNothingOut(BaseModel):
    model_config = _CLOSED
    days: int = Field(description="Days with neither a version nor a declared gap.")
    share: str = Field(description=SHARE)
    periods: list[HoleOut] = Field(description="Those days as periods, each with its nearest versions.")


class MeasuredCoverageOut(BaseModel):
    """``vigueur coverage`` for one scheme: every day of the period counted once, in days."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    scheme: SchemeName
    from_: date = Field(alias="from", description="First day of the period measured.")
    to: date = Field(description="Last day of the period measured (inclusive).")
    days: int = Field(description="Days in the period.")
    in_versions: DaysInVersionsOut = Field(description="Days covered by a version.")
    in_declared_gaps: DaysInGapsOut = Field(description="Days in declared gaps.")
    after_the_end: DaysInGapsOut = Field(
        description="Days after the end of the aid: a text that ended it (role « ended ») is in force; answered "
        "« ended », naming that text."
    )
    with_nothing: DaysWithNothingOut = Field(description="Days with nothing on file.")
    versions_or_gaps_share: str = Field(description="Share of the days in a version or a declared gap. " + SHARE)
    answered_share: str = Field(
        description="Share of the days in a version, a declared gap or after the end of the aid. " + SHARE
    )


class CoverageReportOut(BaseModel):
    model_config = _CLOSED
    schemes: list[MeasuredCoverageOut] = Field(description="One measure per scheme.")


class SchemeOut(BaseModel):
    model_config = _CLOSED
    scheme: SchemeName
    name: str = Field(description="The French name of the aid.")
    coverage: CoverageOut
    gaps: list[GapOut] = Field(
        description="Declared periods with no version on file (answered as such, never bridged)."
    )
    measured: MeasuredCoverageOut = Field(
        description="Coverage measured in days, 2008-01-01 → 2025-06-30: per provenance grade, gaps, after the end, "
        "nothing."
    )
    links: dict[str, str]


class SchemesOut(BaseModel):
    model_config = _CLOSED
    schemes: list[SchemeOut]


class VersionSummaryOut(BaseModel):
    model_config = _CLOSED
    version_id: str
    citation: str
    title: str
    valid_from: date
    valid_until: date | None = Field(
        description="Exclusive end: the first day no longer in force; null = open."
    )
    last_day_in_force: date | None
    provenance: Literal["official", "seed", "derived", "secondary"]
    period_confidence: str
    calculator: str | None
    source_decree: str
    version_hash: str
    href: str


class SegmentOut(BaseModel):
    model_config = _CLOSED
    kind: Literal["version", "gap", "not_on_file", "ended"] = Field(
        description="version: an amounts version; gap: a declared gap; not_on_file: neither; ended: the text that "
        "ended the aid is in force (no amount from its start, except what its clauses keep)."
    )
    start: date
    end: date | None
    version_id: str | None
    reason: str | None


class TimelineOut(BaseModel):
    model_config = _CLOSED
    scheme: SchemeName
    name: str
    coverage: CoverageOut
    versions: list[VersionSummaryOut]
    gaps: list[GapOut]
    timeline: list[SegmentOut] = Field(
        description="Versions and declared gaps in date order, from the first day on file."
    )


class ParameterOut(BaseModel):
    model_config = _CLOSED
    value: str = Field(description="A decimal written as a string (euros, rate, g/km…).")
    paragraph: str
    quote: str = Field(description="The words of the text that fix it (verbatim).")


class FactsOut(BaseModel):
    model_config = _CLOSED
    resolution: list[str] = Field(
        description=(
            "Request fields the resolver reads: acquisition, invoice_date (a purchase) or first_rent_date "
            "(a lease); "
            "order_date when the version has transitional clauses."
        )
    )
    calculator: list[str] = Field(
        description=(
            "Request fields this version's calculator may read, depending on the vehicle and the paragraph "
            "that applies."
        )
    )


class VersionOut(BaseModel):
    model_config = _CLOSED
    version_id: str
    scheme: SchemeName | None
    role: Literal["amounts", "conditions", "management", "transitional", "ended"] = Field(
        description="What the text does: fixes the amounts, sets conditions, organises the management, is "
        "transitional, or ends the aid (« ended »: from valid_from no amount is due except what its clauses keep)."
    )
    article: str
    citation: str
    title: str
    valid_from: date
    valid_until: date | None
    last_day_in_force: date | None
    provenance: Literal["official", "seed", "derived", "secondary"]
    period_confidence: str
    source: SourceOut
    calculator: str | None
    relies_on: list[str]
    parameters: dict[str, ParameterOut]
    transitional_clauses: list[VersionClauseOut]
    claim_deadline_months: int | None
    decisive_event: Literal["invoice_or_first_rent", "invoice", "acquisition_or_lease_signature"] = Field(
        default="invoice_or_first_rent",
        description="Which date picks this version, as its text words it: the invoice or a lease's first rent; the "
        "invoice, for a lease too; or the acquisition (invoice) or a lease's signature (order_date).",
    )
    notes: str
    version_hash: str = Field(
        description="sha256 of the RFC 8785 canonical JSON of the documented fields and text_sha256 "
        "(README, « Auditable hashes »)."
    )
    text_hash: str = Field(description="sha256 of text.txt's bytes: `sha256sum versions/<id>/text.txt`.")
    text: str = Field(description="The verbatim wording of the version.")
    facts: FactsOut


class InForceOut(BaseModel):
    model_config = _CLOSED
    scheme: SchemeName
    on: date
    on_is_today: bool = Field(description="True when no date was given: today in Europe/Paris.")
    status: Literal["in_force", "ended"] = Field(
        default="in_force",
        description="in_force: ``version`` is the amounts version in force on the day; ended: the aid had ended by "
        "then and ``version`` is the text that ended it (from its valid_from; its transitional clauses say which "
        "orders still keep the earlier wording).",
    )
    message: str | None = Field(
        default=None, description="ended: which text ended the aid, from when, and what replaced it (a note only)."
    )
    version: VersionOut
