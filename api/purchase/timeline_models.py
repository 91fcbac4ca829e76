"""The JSON contract of `vigueur timeline` / `POST /v1/timeline` (documented in `vigueur schema` and OpenAPI)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class WindowOut(_Out):
    from_: str = Field(alias="from", description="First decisive day of the window (ISO date).")
    until: str = Field(description="First day after the window (exclusive).")
    last_day: str = Field(description="Last decisive day of the window.")
    default: bool = Field(
        description="True when the window is the default one: from the order date (or today) "
        "to 18 months later, capped at the catalogue's end."
    )
    moves: str = Field(
        description="The date that moves along the window: invoice_date (« date de facturation ») "
        "of a purchase, first_rent_date (« date de versement du premier loyer ») of a lease."
    )
    order_date: str | None = Field(description="The order date of the request (« date de commande »), if any.")


class ClaimDeadlineOut(_Out):
    months: int = Field(description="« dans les N mois suivant » the decisive date.")
    citation: str = Field(description="The management text that sets it.")
    first: str = Field(description="The claim deadline for the segment's first day.")
    last: str = Field(description="The claim deadline for the segment's last day.")
    counted_from: str | None = Field(
        default=None,
        description="The fixed date the deadline counts from when it does not move with the window: a lease "
        "decided by the signature of its contract (décret 2007-1873 art. 10 I 2°, initial wording), the request's "
        "order_date; first and last are then equal. Null: counted from each decisive date of the segment.",
    )


class TimelineSegmentOut(_Out):
    from_: str = Field(alias="from", description="First decisive day of the segment.")
    until: str = Field(description="First day after it (exclusive).")
    last_day: str
    status: str = Field(
        description="computed | missing_facts | no_version_on_file | kept_version_not_on_file | "
        "not_covered_on_file | ended (as in `calculate`)."
    )
    amount: str | None = Field(description="Euros, two decimals; null when not known.")
    amount_is_lower_bound: bool = Field(description="True when a « more favourable » clause keeps a version not on "
                                        "file: the amount is the version in force's, a lower bound.")
    eligible: bool | None
    version_id: str | None = Field(description="The version in force over the segment.")
    paragraph: str | None = Field(description="The paragraph that decided, cited in full.")
    kept_version_id: str | None = Field(description="The version whose amount an open transitional clause kept.")
    open_clauses: list[str] = Field(description="The transitional clauses open over the whole segment.")
    clauses_evaluated: bool = Field(description="False when the request gives no order date.")
    provenance: str | None = Field(description="official | seed | secondary: of the version whose amount is given.")
    claim_deadline: ClaimDeadlineOut | None = Field(description="The claim deadline (« dans les N mois suivant »); "
                                                   "null when no management text is on file for the segment.")


class SchemeSegmentsOut(_Out):
    scheme: str
    segments: list[TimelineSegmentOut] = Field(description="Contiguous, half-open, each with a different answer.")


class AdviceOut(_Out):
    kind: str = Field(description="keep_until | from | order_before | ends_for_orders.")
    scheme: str
    date: str = Field(
        description="Last day to invoice (keep_until), first day of a change (from), the order "
        "limit (order_before), the first order day no longer kept (ends_for_orders)."
    )
    until: str | None = Field(description="Order what-ifs: the last decisive day the earlier order keeps the amount.")
    amount: str | None = Field(description="Euros, two decimals: the amount the advice is about.")
    citation: str = Field(description="The paragraph that gives the amount (and the clause, for a kept version).")
    en: str = Field(description="The advice in English, citing its text.")
    fr: str = Field(description="The advice in French (« Facturer au plus tard le … »), citing its text.")


class TimelineResponse(_Out):
    """One purchase across a window of decisive dates: the exact segments of each scheme, and advice."""

    window: WindowOut = Field(description="The decisive dates covered, [from, until).")
    schemes: list[SchemeSegmentsOut] = Field(description="One entry per scheme of the request.")
    advice: list[AdviceOut] = Field(description="What to do by when, in English and French, each citing its text.")
    notes: list[str] = Field(description="How the window was read (a start moved to the order date, clauses "
                             "not evaluated without an order date).")
