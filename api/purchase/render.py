"""Translate a validated request into the domain, run the resolver and calculators, render the answer.

A translation layer only: every decision is in ``legislation``. Every answer is built as its response model
(:mod:`api.purchase.models`) and serialised once by :func:`api.output.as_json` / :func:`api.output.dumps`:
the CLI prints and the API answers the same bytes.
"""

from __future__ import annotations

from dataclasses import fields
from decimal import Decimal
from typing import Any

from api.output import as_json
from api.purchase.models import (
    CalculationResponse,
    ClauseOut,
    ComparedOut,
    NearestOut,
    ReadingOut,
    ResolutionOut,
    ResolveResponse,
    SchemeResultOut,
    SourceOut,
    StepOut,
    VersionClauseOut,
    VersionRefOut,
)
from api.purchase.request import CalculationRequest
from legislation import Buyer, Catalogue, Purchase, Scheme, ScrappedVehicle, Source, Vehicle, Version
from legislation.award import Award, Step
from legislation.enums import KeepMode
from legislation.money import format_euros
from legislation.resolver import ClauseCheck, Resolution, SchemeResult, calculate, kept_version, resolve
from legislation.versions import TransitionalClause

_SOURCE_FIELDS = fields(Source)


def to_purchase(request: CalculationRequest) -> Purchase:
    """The domain purchase a request describes."""
    scrapped = request.scrapped_vehicle
    return Purchase(
        acquisition=request.acquisition,
        order_date=request.order_date,
        invoice_date=request.invoice_date,
        first_rent_date=request.first_rent_date,
        lease_duration_months=request.lease_duration_months,
        vehicle=Vehicle(**request.vehicle.model_dump()),
        buyer=Buyer(**request.buyer.model_dump()),
        scrapped_vehicle=ScrappedVehicle(**scrapped.model_dump()) if scrapped is not None else None,
        bonus_ecologique_amount=request.bonus_ecologique_amount,
        schemes=request_schemes(request),
    )


def request_schemes(request: CalculationRequest) -> tuple[Scheme, ...]:
    """The schemes a request computes, in its order without repeats; both when it names none."""
    return tuple(dict.fromkeys(request.schemes)) if request.schemes else tuple(Scheme)


def calculation_response(catalogue: Catalogue, request: CalculationRequest) -> CalculationResponse:
    """The answer of `calculate`, as its model: one entry per scheme and the total."""
    purchase = to_purchase(request)
    results = [render_result(calculate(catalogue, purchase, scheme)) for scheme in purchase.schemes]
    return CalculationResponse(results=results, **render_total(results))


def calculate_document(catalogue: Catalogue, request: CalculationRequest) -> dict[str, Any]:
    """The JSON document of `calculate`: :func:`calculation_response` in its JSON form."""
    return as_json(calculation_response(catalogue, request))


def render_total(results: list[SchemeResultOut]) -> dict[str, Any]:
    """The sum of the schemes' amounts — null when one of them is not known (never a misleading 0.00), and
    flagged as a lower bound when one of them is."""
    unknown = [r.scheme for r in results if r.amount is None]
    total = sum((Decimal(r.amount) for r in results if r.amount is not None), Decimal("0"))
    return {
        "total_amount": None if unknown else format_euros(total),
        "total_is_lower_bound": not unknown and any(r.amount_is_lower_bound for r in results),
        "total_unknown_for": unknown,
    }


def resolve_response(catalogue: Catalogue, request: CalculationRequest) -> ResolveResponse:
    """The answer of `resolve`, as its model: which version(s) apply, and the clauses examined."""
    purchase = to_purchase(request)
    return ResolveResponse(
        results=[render_resolution(catalogue, resolve(catalogue, purchase, s)) for s in purchase.schemes]
    )


def resolve_document(catalogue: Catalogue, request: CalculationRequest) -> dict[str, Any]:
    """The JSON document of `resolve`: :func:`resolve_response` in its JSON form."""
    return as_json(resolve_response(catalogue, request))


def render_resolution(catalogue: Catalogue, resolution: Resolution) -> ResolutionOut:
    version = resolution.version
    to_compute: list[str] = []
    warnings: list[str] = []
    if version is not None:
        if not resolution.ended:
            to_compute.append(version.id)
        for check in resolution.open_clauses:
            if check.clause.keeps is KeepMode.INLINE:
                continue
            found = kept_version(catalogue, resolution.scheme, check.clause, resolution.decisive_date)
            if found is not None:
                to_compute.append(found.id)
            else:
                warnings.append(
                    f"transitional clause {check.clause.id} is open and keeps "
                    f"{check.clause.kept_version_label or 'an earlier wording'}, which is not on file"
                )
    return ResolutionOut(
        **resolved_fields(resolution),
        status="no_version_on_file" if version is None else "ended" if resolution.ended else "resolved",
        versions_to_compute=to_compute,
        warnings=warnings,
    )


def render_result(result: SchemeResult) -> SchemeResultOut:
    award = result.award
    return SchemeResultOut(
        **resolved_fields(result.resolution),
        status=result.status,
        amount=_euros(result.amount),
        amount_is_lower_bound=result.amount_is_lower_bound,
        eligible=award.eligible if award else None,
        reason=award.reason if award else None,
        paragraph=award.paragraph if award else None,
        steps=[_step(s) for s in award.steps] if award else [],
        alternatives=[_step(s) for s in award.alternatives] if award else [],
        assumptions=list(award.assumptions) if award else [],
        readings=[ReadingOut(id=r.id, text=r.text) for r in award.readings] if award else [],
        missing_facts=list(award.missing_facts) if award else [],
        compared=[_compared(a) for a in result.compared] if len(result.compared) > 1 else [],
        kept_by=result.kept_by,
        claim_deadline=result.claim_deadline,
        claim_deadline_citation=result.claim_deadline_citation,
        warnings=list(result.warnings),
    )


def resolved_fields(resolution: Resolution) -> dict[str, Any]:
    """The fields every resolved answer shares (:class:`api.purchase.models.ResolvedOut`)."""
    v = resolution.version
    return {
        "scheme": resolution.scheme.value,
        "version_id": v.id if v else None,
        "version_hash": v.content_hash if v else None,
        "citation": v.citation if v else None,
        "title": v.title if v else None,
        "provenance": v.provenance.value if v else None,
        "valid_from": v.valid_from if v else None,
        "valid_until": v.valid_until if v else None,
        "last_day_in_force": v.last_day if v else None,
        "decisive_date": resolution.decisive_date,
        "decided_by": resolution.decided_by,
        "transitional_clauses": [render_clause(c) for c in resolution.clauses],
        "notes": list(resolution.notes),
        "nearest_versions": None
        if v
        else NearestOut(before=version_ref(resolution.nearest_before), after=version_ref(resolution.nearest_after)),
        "message": resolution.message,
    }


def _clause_fields(c: TransitionalClause) -> dict[str, Any]:
    return {
        "id": c.id,
        "paragraph": c.paragraph,
        "keeps": c.keeps.value,
        "order_test": c.order_test.value,
        "order_limit": c.order_limit,
        "decisive_on_or_before": c.decisive_on_or_before,
        "deadline_basis": c.deadline_basis.value,
        "deadline_reading": c.deadline_reading,
        "wording": c.wording,
        "kept_version_id": c.kept_version_id,
        "kept_version_label": c.kept_version_label,
        "new_vehicles_only": c.new_vehicles_only,
        "source": render_source(c.source) if c.source else None,
        "rules_date": c.rules_date,
        "yearly": c.yearly,
        "category_deadlines": {k.value: d for k, d in c.category_deadlines},
    }


def render_clause(check: ClauseCheck) -> ClauseOut:
    """A transitional clause examined for one purchase, with the test it passed or failed."""
    return ClauseOut(**_clause_fields(check.clause), open=check.open, test=check.test, missing_fact=check.missing_fact)


def render_version_clause(clause: TransitionalClause) -> VersionClauseOut:
    """A transitional clause as the catalogue holds it."""
    return VersionClauseOut(**_clause_fields(clause))


def render_source(source: Source) -> SourceOut:
    # A Source's fields are plain values (no nested dataclass): read them as they are; dataclasses.asdict's
    # recursive deep copy cost ~100 µs a source, a third of a calculation's rendering (issue 15).
    return SourceOut(**{f.name: getattr(source, f.name) for f in _SOURCE_FIELDS})


def version_ref(version: Version | None) -> VersionRefOut | None:
    if version is None:
        return None
    return VersionRefOut(
        version_id=version.id,
        citation=version.citation,
        valid_from=version.valid_from,
        valid_until=version.valid_until,
    )


def _step(step: Step) -> StepOut:
    return StepOut(citation=step.citation, text=step.text, amount=_euros(step.amount))


def _compared(award: Award) -> ComparedOut:
    return ComparedOut(
        version_id=award.version_id,
        amount=_euros(award.amount),
        eligible=award.eligible,
        paragraph=award.paragraph,
        reason=award.reason,
    )


def _euros(amount: Decimal | None) -> str | None:
    return format_euros(amount) if amount is not None else None
