"""Translate a validated request into the domain, run the resolver and calculators, render the answer.

A translation layer only: every decision is in ``legislation``.
"""

from __future__ import annotations

from dataclasses import asdict
from datetime import date
from decimal import Decimal
from typing import Any

from api.purchase.request import CalculationRequest
from legislation import Buyer, Catalogue, Purchase, Scheme, ScrappedVehicle, Source, Vehicle, Version
from legislation.award import Award, Step
from legislation.enums import KeepMode
from legislation.money import format_euros
from legislation.resolver import ClauseCheck, Resolution, SchemeResult, calculate, resolve


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


def calculate_document(catalogue: Catalogue, request: CalculationRequest) -> dict[str, Any]:
    """The JSON document of `calculate`: one entry per scheme and the total."""
    purchase = to_purchase(request)
    results = [render_result(calculate(catalogue, purchase, scheme)) for scheme in purchase.schemes]
    return {"results": results, **render_total(results)}


def render_total(results: list[dict[str, Any]]) -> dict[str, Any]:
    """The sum of the schemes' amounts — null when one of them is not known (never a misleading 0.00), and
    flagged as a lower bound when one of them is."""
    unknown = [r["scheme"] for r in results if r["amount"] is None]
    total = sum((Decimal(r["amount"]) for r in results if r["amount"] is not None), Decimal("0"))
    return {
        "total_amount": None if unknown else format_euros(total),
        "total_is_lower_bound": not unknown and any(r["amount_is_lower_bound"] for r in results),
        "total_unknown_for": unknown,
    }


def resolve_document(catalogue: Catalogue, request: CalculationRequest) -> dict[str, Any]:
    """The JSON document of `resolve`: which version(s) apply, and the clauses examined."""
    purchase = to_purchase(request)
    return {"results": [render_resolution(catalogue, resolve(catalogue, purchase, s)) for s in purchase.schemes]}


def render_resolution(catalogue: Catalogue, resolution: Resolution) -> dict[str, Any]:
    doc = _resolved(resolution)
    version = resolution.version
    to_compute: list[str] = []
    warnings: list[str] = []
    if version is not None:
        to_compute.append(version.id)
        for check in resolution.open_clauses:
            if check.clause.keeps is KeepMode.INLINE:
                continue
            kept = check.clause.kept_version_id
            if check.clause.keeps is KeepMode.IN_FORCE_ON:
                day = check.clause.kept_rules_date(resolution.decisive_date) or resolution.decisive_date
                found = catalogue.timeline(resolution.scheme).find(day)
                kept = found.id if found is not None else None
            if kept is not None and kept in catalogue.versions:
                to_compute.append(kept)
            else:
                warnings.append(
                    f"transitional clause {check.clause.id} is open and keeps "
                    f"{check.clause.kept_version_label or 'an earlier wording'}, which is not on file"
                )
    doc["status"] = "resolved" if version is not None else "no_version_on_file"
    doc["versions_to_compute"] = to_compute
    doc["warnings"] = warnings
    return doc


def render_result(result: SchemeResult) -> dict[str, Any]:
    doc = _resolved(result.resolution)
    award = result.award
    doc.update(
        status=result.status,
        amount=format_euros(result.amount) if result.amount is not None else None,
        amount_is_lower_bound=result.amount_is_lower_bound,
        eligible=award.eligible if award else None,
        reason=award.reason if award else None,
        paragraph=award.paragraph if award else None,
        steps=[_step(s) for s in award.steps] if award else [],
        alternatives=[_step(s) for s in award.alternatives] if award else [],
        assumptions=list(award.assumptions) if award else [],
        readings=[{"id": r.id, "text": r.text} for r in award.readings] if award else [],
        missing_facts=list(award.missing_facts) if award else [],
        compared=[_compared(a) for a in result.compared] if len(result.compared) > 1 else [],
        kept_by=result.kept_by,
        claim_deadline=_iso(result.claim_deadline),
        claim_deadline_citation=result.claim_deadline_citation,
        warnings=list(result.warnings),
    )
    return doc


def _resolved(resolution: Resolution) -> dict[str, Any]:
    v = resolution.version
    message = None
    if v is None:
        message = (
            f"no version of the {resolution.scheme.value} amounts on file for {resolution.decisive_date.isoformat()}"
        )
    return {
        "scheme": resolution.scheme.value,
        "version_id": v.id if v else None,
        "version_hash": v.content_hash if v else None,
        "citation": v.citation if v else None,
        "title": v.title if v else None,
        "provenance": v.provenance.value if v else None,
        "valid_from": _iso(v.valid_from) if v else None,
        "valid_until": _iso(v.valid_until) if v else None,
        "last_day_in_force": _iso(v.last_day) if v else None,
        "decisive_date": resolution.decisive_date.isoformat(),
        "decided_by": resolution.decided_by,
        "transitional_clauses": [render_clause(c) for c in resolution.clauses],
        "notes": list(resolution.notes),
        "nearest_versions": None
        if v
        else {
            "before": version_ref(resolution.nearest_before),
            "after": version_ref(resolution.nearest_after),
        },
        "message": message,
    }


def render_clause(check: ClauseCheck) -> dict[str, Any]:
    c = check.clause
    return {
        "id": c.id,
        "paragraph": c.paragraph,
        "keeps": c.keeps.value,
        "order_test": c.order_test.value,
        "order_limit": c.order_limit.isoformat(),
        "decisive_on_or_before": c.decisive_on_or_before.isoformat(),
        "deadline_basis": c.deadline_basis.value,
        "deadline_reading": c.deadline_reading,
        "wording": c.wording,
        "kept_version_id": c.kept_version_id,
        "kept_version_label": c.kept_version_label,
        "new_vehicles_only": c.new_vehicles_only,
        "source": render_source(c.source) if c.source else None,
        "rules_date": _iso(c.rules_date),
        "yearly": c.yearly,
        "open": check.open,
        "test": check.test,
        "missing_fact": check.missing_fact,
    }


def render_source(source: Source) -> dict[str, Any]:
    return {k: (_iso(v) if isinstance(v, date) else v) for k, v in asdict(source).items()}


def version_ref(version: Version | None) -> dict[str, Any] | None:
    if version is None:
        return None
    return {
        "version_id": version.id,
        "citation": version.citation,
        "valid_from": version.valid_from.isoformat(),
        "valid_until": _iso(version.valid_until),
    }


def render_version(version: Version, with_text: bool = True) -> dict[str, Any]:
    """A version's metadata (and verbatim text): what `vigueur show` and `GET /v1/versions/{id}` answer."""
    doc: dict[str, Any] = {
        "version_id": version.id,
        "scheme": version.scheme.value if version.scheme else None,
        "role": version.role.value,
        "article": version.article,
        "citation": version.citation,
        "title": version.title,
        "valid_from": version.valid_from.isoformat(),
        "valid_until": _iso(version.valid_until),
        "last_day_in_force": _iso(version.last_day),
        "provenance": version.provenance.value,
        "period_confidence": version.period_confidence,
        "source": render_source(version.source),
        "calculator": version.calculator,
        "relies_on": list(version.relies_on),
        "parameters": {
            n: {"value": str(p.value), "paragraph": p.paragraph, "quote": p.quote}
            for n, p in version.parameters.items()
        },
        "transitional_clauses": [
            render_clause(ClauseCheck(clause=c, version_id=version.id, open=None, test=""))
            for c in version.transitional
        ],
        "claim_deadline_months": version.claim_deadline_months,
        "decisive_event": version.decisive_event.value,
        "notes": version.notes.strip(),
        "version_hash": version.content_hash,
    }
    for clause in doc["transitional_clauses"]:
        for key in ("open", "test", "missing_fact"):
            clause.pop(key)
    if with_text:
        doc["text"] = version.text
    return doc


def _step(step: Step) -> dict[str, Any]:
    return {
        "citation": step.citation,
        "text": step.text,
        "amount": format_euros(step.amount) if step.amount is not None else None,
    }


def _compared(award: Award) -> dict[str, Any]:
    return {
        "version_id": award.version_id,
        "amount": format_euros(award.amount) if award.amount is not None else None,
        "eligible": award.eligible,
        "paragraph": award.paragraph,
        "reason": award.reason,
    }


def _iso(day: date | None) -> str | None:
    return day.isoformat() if day else None
