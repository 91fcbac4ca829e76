"""The resolver: from a purchase's dates to the version(s) to compute, as design.md says.

1. Decisive date: purchase → invoice date; lease → first-rent date. An order after it is rejected.
2. Version in force: ``valid_from <= decisive < valid_until``, else « no version on file ».
3. Each transitional clause of that version: open iff an order date is given, passes the clause's
   order test, the decisive date is on or before its deadline (and the vehicle is new where the
   clause says so). No order date: clauses are not evaluated, and the answer says so.
4. Delegate: ``inline`` → this version's calculator with the open branches; ``previous`` → the kept
   version's calculator; ``more_favourable`` → both, the higher kept, both shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from legislation.award import Award
from legislation.calculators import get_calculator
from legislation.calculators.kit import Ctx
from legislation.dates import deadline_after_event
from legislation.enums import Acquisition, KeepMode, OrderTest, Scheme
from legislation.errors import InvalidDates, MissingFact
from legislation.facts import Purchase
from legislation.money import ZERO
from legislation.timeline import Catalogue
from legislation.versions import TransitionalClause, Version


@dataclass(frozen=True, slots=True, kw_only=True)
class ClauseCheck:
    """One transitional clause examined for a purchase, and what the test gave."""

    clause: TransitionalClause
    version_id: str
    open: bool | None  # None: not evaluated (no order date, or a fact is missing)
    test: str
    missing_fact: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Resolution:
    """Which version applies to a purchase for one scheme, and why."""

    scheme: Scheme
    decisive_date: date
    decided_by: str  # "invoice_date" | "first_rent_date"
    version: Version | None
    clauses: tuple[ClauseCheck, ...] = ()
    nearest_before: Version | None = None
    nearest_after: Version | None = None
    notes: tuple[str, ...] = ()

    @property
    def open_clauses(self) -> tuple[ClauseCheck, ...]:
        return tuple(c for c in self.clauses if c.open)


@dataclass(frozen=True, slots=True, kw_only=True)
class SchemeResult:
    """A resolution and what its calculator(s) gave."""

    resolution: Resolution
    status: str  # computed | missing_facts | no_version_on_file | kept_version_not_on_file
    award: Award | None = None
    compared: tuple[Award, ...] = ()  # every award computed (more than one under « more_favourable »)
    kept_by: str | None = None  # the clause id that made another version's award the one kept
    claim_deadline: date | None = None
    claim_deadline_citation: str | None = None
    warnings: tuple[str, ...] = ()


def decisive_date(purchase: Purchase) -> tuple[date, str]:
    """The date that picks the version, and the name of the field it came from."""
    if purchase.acquisition is Acquisition.LEASE:
        day, field = purchase.first_rent_date, "first_rent_date"
        missing = "a lease is decided by its first-rent date (« date de versement du premier loyer »)"
    else:
        day, field = purchase.invoice_date, "invoice_date"
        missing = "a purchase is decided by its invoice date (« date de facturation »)"
    if day is None:
        raise InvalidDates(f"{field} is required: {missing}", field)
    order = purchase.order_date
    if order is not None:
        for name in ("invoice_date", "first_rent_date"):
            other = getattr(purchase, name)
            if other is not None and other < order:
                raise InvalidDates(
                    f"{name} {other.isoformat()} is before order_date {order.isoformat()}: "
                    "an invoice or a first rent cannot precede the order or the lease signature",
                    name,
                )
    return day, field


def check_clause(clause: TransitionalClause, version: Version, purchase: Purchase, decisive: date) -> ClauseCheck:
    """Evaluate one clause's window for a purchase."""
    order = purchase.order_date
    if order is None:
        return ClauseCheck(
            clause=clause, version_id=version.id, open=None, test="not evaluated: the request gives no order_date"
        )
    if clause.order_test is OrderTest.ORDERED_BEFORE:
        order_ok, order_words = order < clause.order_limit, f"ordered {order} < {clause.order_limit}"
    else:
        order_ok, order_words = order <= clause.order_limit, f"ordered {order} ≤ {clause.order_limit}"
    deadline_ok = decisive <= clause.decisive_on_or_before
    test = (
        f"{order_words}: {'yes' if order_ok else 'no'}; decisive {decisive} ≤ {clause.decisive_on_or_before}: "
        f"{'yes' if deadline_ok else 'no'}"
    )
    if clause.new_vehicles_only and order_ok and deadline_ok:
        registered = purchase.vehicle.previously_registered
        if registered is None:
            return ClauseCheck(
                clause=clause,
                version_id=version.id,
                open=None,
                test=test + "; new vehicle: unknown",
                missing_fact="vehicle.previously_registered",
            )
        test += f"; new vehicle (never registered before): {'no' if registered else 'yes'}"
        return ClauseCheck(clause=clause, version_id=version.id, open=not registered, test=test)
    return ClauseCheck(clause=clause, version_id=version.id, open=order_ok and deadline_ok, test=test)


def resolve(catalogue: Catalogue, purchase: Purchase, scheme: Scheme) -> Resolution:
    """Pick the version of ``scheme`` for ``purchase`` and examine its transitional clauses."""
    decisive, decided_by = decisive_date(purchase)
    timeline = catalogue.timeline(scheme)
    version = timeline.find(decisive)
    if version is None:
        before, after = timeline.nearest(decisive)
        gap = timeline.gap_on(decisive)
        return Resolution(
            scheme=scheme,
            decisive_date=decisive,
            decided_by=decided_by,
            version=None,
            nearest_before=before,
            nearest_after=after,
            notes=(f"declared gap: {gap.reason}",) if gap else (),
        )
    checks = tuple(check_clause(c, version, purchase, decisive) for c in version.transitional)
    notes: tuple[str, ...] = ()
    if version.transitional and purchase.order_date is None:
        notes = ("no order_date given: the transitional clauses of this version were not evaluated",)
    return Resolution(
        scheme=scheme, decisive_date=decisive, decided_by=decided_by, version=version, clauses=checks, notes=notes
    )


def run_calculator(
    version: Version,
    purchase: Purchase,
    decisive: date,
    open_branches: frozenset[str],
    catalogue: Catalogue | None = None,
) -> Award:
    """Run one version's calculator (with the texts it relies on); a missing fact becomes an award naming it."""
    relied = {ref: catalogue.versions[ref] for ref in version.relies_on} if catalogue is not None else {}
    ctx = Ctx(version, purchase, decisive, open_branches, relied)
    try:
        award: Award = get_calculator(version.calculator or "").calculate(ctx)
        return award
    except MissingFact as missing:
        return Award(
            version_id=version.id,
            amount=ZERO,
            eligible=None,
            reason=str(missing),
            paragraph=missing.paragraph,
            steps=tuple(ctx.steps),
            assumptions=tuple(ctx.assumptions),
            readings=tuple(ctx.readings),
            missing_facts=(missing.field or "",),
        )


def calculate(catalogue: Catalogue, purchase: Purchase, scheme: Scheme) -> SchemeResult:
    """Resolve, then compute with the version(s) the resolution designates."""
    resolution = resolve(catalogue, purchase, scheme)
    version = resolution.version
    if version is None:
        return SchemeResult(resolution=resolution, status="no_version_on_file")
    inline = frozenset(
        b for c in resolution.open_clauses if c.clause.keeps is KeepMode.INLINE for b in c.clause.branches
    )
    current = run_calculator(version, purchase, resolution.decisive_date, inline, catalogue)
    compared = [current]
    kept, kept_by, warnings, kept_missing = current, None, [], False
    for check in resolution.open_clauses:
        clause = check.clause
        if clause.keeps is KeepMode.INLINE:
            continue
        other = catalogue.versions.get(clause.kept_version_id or "")
        if other is None:
            kept_missing = True
            warnings.append(
                f"transitional clause {clause.id} ({clause.paragraph}) is open and keeps "
                f"{clause.kept_version_label or 'an earlier wording'}, which is not on file: "
                + (
                    "the amount shown is the version in force's, a lower bound of what is due"
                    if clause.keeps is KeepMode.MORE_FAVOURABLE
                    else "the amount due cannot be computed"
                )
            )
            continue
        previous = run_calculator(other, purchase, resolution.decisive_date, frozenset(), catalogue)
        compared.append(previous)
        if clause.keeps is KeepMode.PREVIOUS or previous.amount > kept.amount:
            kept, kept_by = previous, clause.id
    status = "missing_facts" if kept.missing_facts else ("kept_version_not_on_file" if kept_missing else "computed")
    deadline_text = catalogue.claim_deadline_text(scheme, resolution.decisive_date)
    deadline = citation = None
    if deadline_text is not None and deadline_text.claim_deadline_months is not None:
        deadline = deadline_after_event(resolution.decisive_date, deadline_text.claim_deadline_months)
        citation = f"{deadline_text.citation}, {deadline_text.claim_deadline_paragraph}".rstrip(", ")
    else:
        warnings.append(f"no claim-deadline text on file for {resolution.decisive_date.isoformat()}")
    return SchemeResult(
        resolution=resolution,
        status=status,
        award=kept,
        compared=tuple(compared),
        kept_by=kept_by,
        claim_deadline=deadline,
        claim_deadline_citation=citation,
        warnings=tuple(warnings),
    )


__all__ = ["ClauseCheck", "Resolution", "SchemeResult", "calculate", "decisive_date", "resolve"]
