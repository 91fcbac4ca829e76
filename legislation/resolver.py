"""The resolver: from a purchase's dates to the version(s) to compute, as design.md says.

1. Decisive date: purchase → invoice date; lease → first-rent date. An order after it is rejected. A version
   whose text names another event (``Version.decisive_event``: décret 2007-1873 — the invoice for a lease too,
   or the acquisition / the lease's signature) is picked by that event's date (:func:`version_for`).
2. Version in force: ``valid_from <= decisive < valid_until``, else « no version on file ».
3. Each transitional clause of that version: open iff an order date is given, passes the clause's
   order test, the decisive date is on or before its deadline (and the vehicle is new where the
   clause says so). No order date: clauses are not evaluated, and the answer says so.
4. Delegate: ``inline`` → this version's calculator with the open branches; ``previous`` → the kept
   version's calculator; ``more_favourable`` → both, the higher kept, both shown; ``in_force_on`` → the version
   in force on the clause's date D (31 December of « l'année considérée » for a yearly clause), computed as of D.

The date, clause and keep rules (:func:`decisive_day`, :func:`clause_opens`, :func:`keep`) are written
here once; the batch engine (:mod:`legislation.fast.engine`) calls them too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import TypeVar

from legislation.award import Award
from legislation.calculators import get_calculator
from legislation.calculators.kit import Explain
from legislation.dates import deadline_after_event
from legislation.enums import Acquisition, DecisiveEvent, KeepMode, OrderTest, Provenance, Role, Scheme, VehicleCategory
from legislation.errors import InvalidDates, MissingFact
from legislation.facts import Purchase
from legislation.row import Row
from legislation.timeline import Catalogue, Timeline
from legislation.versions import TransitionalClause, Version

X = TypeVar("X")

# Statuses of a scheme's answer. Only « computed » carries an amount that is exactly what is due.
COMPUTED = "computed"
MISSING_FACTS = "missing_facts"  # the amount is not known: a fact the text needs is not given
NO_VERSION = "no_version_on_file"  # the amount is not known: no version of the text on file for the date
KEPT_NOT_ON_FILE = "kept_version_not_on_file"  # an open clause keeps a version not on file (see SchemeResult)
NOT_COVERED = "not_covered_on_file"  # the text on file does not cover this vehicle; a text not on file might
# The aid has ended: a text of role « ended » is in force for the decisive date and none of its transitional
# clauses keeps an earlier wording for the purchase. No amount (null, never 0.00): the answer names the text that
# ended the aid (its version id, citation and source) and the day from which it did (its valid_from).
ENDED = "ended"


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
    version: Version | None  # the amounts version in force, or the text that ended the aid (``ended``)
    clauses: tuple[ClauseCheck, ...] = ()
    nearest_before: Version | None = None
    nearest_after: Version | None = None
    notes: tuple[str, ...] = ()

    @property
    def open_clauses(self) -> tuple[ClauseCheck, ...]:
        return tuple(c for c in self.clauses if c.open)

    @property
    def ended(self) -> bool:
        """The decisive date falls after the end of the aid: ``version`` is the text that ended it."""
        return self.version is not None and self.version.role is Role.ENDED

    @property
    def message(self) -> str | None:
        """What the answer says when no calculator can run: no version on file for the decisive date, or the aid
        ended (:func:`ended_note`); None otherwise."""
        if self.version is None:
            return f"no version of the {self.scheme.value} amounts on file for {self.decisive_date.isoformat()}"
        return ended_note(self.version) if self.ended else None


@dataclass(frozen=True, slots=True, kw_only=True)
class SchemeResult:
    """A resolution and what its calculator(s) gave.

    ``amount`` is what is due when ``status`` is « computed »; None whenever it is not known. Under
    « kept_version_not_on_file » a « more favourable » clause keeps a version not on file: the amount is the
    version in force's, a **lower bound** (``amount_is_lower_bound``); a clause that keeps a version not on
    file outright leaves the amount unknown (None).
    """

    resolution: Resolution
    # computed | missing_facts | no_version_on_file | kept_version_not_on_file | not_covered_on_file | ended
    status: str
    award: Award | None = None
    compared: tuple[Award, ...] = ()  # every award computed (more than one under « more_favourable »)
    kept_by: str | None = None  # the clause id that made another version's award the one kept
    claim_deadline: date | None = None
    claim_deadline_citation: str | None = None
    warnings: tuple[str, ...] = ()
    amount_is_lower_bound: bool = False

    @property
    def amount(self) -> Decimal | None:
        """The amount the answer states (a lower bound when ``amount_is_lower_bound``), or None: not known."""
        if self.award is None or self.status in (MISSING_FACTS, NO_VERSION, NOT_COVERED, ENDED):
            return None
        if self.status == KEPT_NOT_ON_FILE and not self.amount_is_lower_bound:
            return None
        return self.award.amount


def as_row(purchase: Purchase | Row) -> Row:
    """The flat facts the calculators read; :class:`InvalidFacts` for an amount with more decimals than the
    contract allows (the calculators count exactly in cents and thousandths)."""
    row = purchase if isinstance(purchase, Row) else Row.from_purchase(purchase)
    row.check_exact()
    return row


def decisive_day(row: Row) -> tuple[date, str]:
    """The date that picks the version, and the name of the field it came from (design.md, resolver 1)."""
    if row.acquisition is Acquisition.LEASE:
        day, field = row.first_rent_date, "first_rent_date"
        missing = "a lease is decided by its first-rent date (« date de versement du premier loyer »)"
    else:
        day, field = row.invoice_date, "invoice_date"
        missing = "a purchase is decided by its invoice date (« date de facturation »)"
    if day is None:
        raise InvalidDates(f"{field} is required: {missing}", field)
    order = row.order_date
    if order is not None:
        for name, other in (("invoice_date", row.invoice_date), ("first_rent_date", row.first_rent_date)):
            if other is not None and other < order:
                raise InvalidDates(
                    f"{name} {other.isoformat()} is before order_date {order.isoformat()}: "
                    "an invoice or a first rent cannot precede the order or the lease signature",
                    name,
                )
    return day, field


# Which fact gives each decisive event (design.md, resolver 1): (purchase, lease), with the words of the texts.
EVENT_FIELDS: dict[DecisiveEvent, tuple[str, str]] = {
    DecisiveEvent.INVOICE_OR_FIRST_RENT: ("invoice_date", "first_rent_date"),
    DecisiveEvent.INVOICE: ("invoice_date", "invoice_date"),
    DecisiveEvent.ACQUISITION_OR_LEASE_SIGNATURE: ("invoice_date", "order_date"),
}
EVENT_WORDS: dict[DecisiveEvent, str] = {
    DecisiveEvent.INVOICE_OR_FIRST_RENT: (
        "« date de facturation » or, for a lease, « date de versement du premier loyer »"
    ),
    DecisiveEvent.INVOICE: (
        "« date de facturation » (« Année de facturation »), for a lease too: the vehicle's invoice"
    ),
    DecisiveEvent.ACQUISITION_OR_LEASE_SIGNATURE: (
        "« date de son acquisition ou de sa prise en location »: a purchase by its invoice (the acquisition "
        "« réalisée », art. 10 I; décret 2009-66 art. 11 « acquisitions … faisant l'objet d'une facturation »), "
        "a lease by the signature of its contract (art. 10 I 2°), the request's order_date"
    ),
}


def event_day(row: Row, event: DecisiveEvent) -> tuple[date | None, str]:
    """The date of ``event`` for the row (None when the request does not give it) and the field it comes from."""
    field = EVENT_FIELDS[event][1 if row.acquisition is Acquisition.LEASE else 0]
    day: date | None = getattr(row, field)
    return day, field


def version_for(timeline: Timeline, row: Row) -> tuple[Version | None, date, str]:
    """The version in force for the row, its decisive date and the field that gave it.

    Each version is picked by its own decisive event (``Version.decisive_event``): a version is a candidate when
    the row's date of that event falls in its period. When several are (a lease signed in December 2008 and
    invoiced in January 2009), the later text prevails — it claims the purchases it names (décret 2009-66
    art. 11: its rules apply to the acquisitions and leases « faisant l'objet d'une facturation à compter de
    [son] entrée en vigueur »). None: no candidate; the default decisive date is returned (the request's
    ``decisive_day``).
    """
    default, default_field = decisive_day(row)
    if not timeline.events_differ:
        return timeline.find(default), default, default_field
    best: tuple[Version, date, str] | None = None
    for event in timeline.events:
        day, field = event_day(row, event)
        if day is None:
            continue
        version = timeline.find(day)
        later = version is not None and (best is None or version.valid_from > best[0].valid_from)
        if version is not None and later and version.decisive_event is event:
            best = (version, day, field)
    if best is not None:
        return best
    version = timeline.find(default)
    if version is not None and version.decisive_event is not DecisiveEvent.INVOICE_OR_FIRST_RENT:
        field = EVENT_FIELDS[version.decisive_event][1 if row.acquisition is Acquisition.LEASE else 0]
        raise InvalidDates(
            f"{field} is required: {version.citation} (version {version.id}) is decided by "
            f"{EVENT_WORDS[version.decisive_event]}",
            field,
        )
    return None, default, default_field


def decisive_date(purchase: Purchase) -> tuple[date, str]:
    """:func:`decisive_day` of a purchase."""
    return decisive_day(as_row(purchase))


def order_passes(clause: TransitionalClause, order: date) -> bool:
    """The clause's order test against its (first) order limit: « commandés avant le … » (<) or « au plus tard
    le … » (≤). A yearly clause's limit for a given decisive date is :meth:`TransitionalClause.limits`."""
    if clause.order_test is OrderTest.ORDERED_BEFORE:
        return order < clause.order_limit
    return order <= clause.order_limit


def clause_opens(
    clause: TransitionalClause,
    order: date,
    decisive: date,
    previously_registered: bool | None,
    category: VehicleCategory | None = None,
) -> bool | None:
    """Whether the clause's window is open (None: it would be, but whether the vehicle is new — or, for a
    deadline that depends on the vehicle's category, its category — is not known)."""
    limits = clause.limits(decisive)
    if limits is None:
        return False
    limit, deadline = limits
    passes = order < limit if clause.order_test is OrderTest.ORDERED_BEFORE else order <= limit
    if not passes:
        return False
    if clause.category_deadlines:
        own = clause.deadline_for(category)
        if own is None:  # the category is not given: open only if every deadline is met, closed if none is
            if decisive > clause.latest_deadline:
                return False
            if decisive > min(clause.deadlines):
                return None
        elif decisive > own:
            return False
    elif decisive > deadline:
        return False
    if clause.new_vehicles_only:
        return None if previously_registered is None else not previously_registered
    return True


def check_clause(clause: TransitionalClause, version: Version, row: Row | Purchase, decisive: date) -> ClauseCheck:
    """Evaluate one clause's window for a purchase, with the test in words."""
    facts = as_row(row)
    order = facts.order_date
    if order is None:
        return ClauseCheck(
            clause=clause, version_id=version.id, open=None, test="not evaluated: the request gives no order_date"
        )
    limits = clause.limits(decisive)
    if limits is None:
        return ClauseCheck(
            clause=clause,
            version_id=version.id,
            open=False,
            test=(
                f"repeats every year from {clause.order_limit.year}: no occurrence for a decisive date in "
                f"{decisive.year}"
            ),
        )
    limit, deadline = limits
    sign = "<" if clause.order_test is OrderTest.ORDERED_BEFORE else "≤"
    order_ok = order < limit if clause.order_test is OrderTest.ORDERED_BEFORE else order <= limit
    category = facts.vehicle_category
    own = clause.deadline_for(category) if clause.category_deadlines else deadline
    category_unknown = own is None and min(clause.deadlines) < decisive <= clause.latest_deadline
    deadline = own if own is not None else deadline
    deadline_ok = decisive <= deadline if not category_unknown else True
    test = (
        f"ordered {order} {sign} {limit}: {'yes' if order_ok else 'no'}; decisive {decisive} ≤ "
        f"{deadline}: {'yes' if deadline_ok else 'no'}"
    )
    if clause.category_deadlines:
        groups = ", ".join(f"{c.value} → {d}" for c, d in clause.category_deadlines)
        test += (
            f" (the deadline depends on the vehicle's category: {groups}, {clause.decisive_on_or_before} otherwise; "
            + (f"category {category.value})" if category is not None else "category not given)")
        )
        if category_unknown:
            test = test.replace(f"{deadline}: yes", f"{deadline}: only for the categories with a later deadline")
    if clause.yearly:
        test += f" (the clause repeats every year; « l'année considérée » = {limit.year})"
    is_open = clause_opens(clause, order, decisive, facts.vehicle_previously_registered, category)
    if is_open is None and category_unknown and order_ok:
        return ClauseCheck(
            clause=clause,
            version_id=version.id,
            open=None,
            test=test + "; vehicle category: unknown",
            missing_fact="vehicle.category",
        )
    if is_open and clause.keeps is KeepMode.IN_FORCE_ON:
        test += f"; keeps the rules of an invoice dated {clause.kept_rules_date(decisive)}"
    if clause.new_vehicles_only and order_ok and deadline_ok:
        if is_open is None:
            return ClauseCheck(
                clause=clause,
                version_id=version.id,
                open=None,
                test=test + "; new vehicle: unknown",
                missing_fact="vehicle.previously_registered",
            )
        test += f"; new vehicle (never registered before): {'yes' if is_open else 'no'}"
    return ClauseCheck(clause=clause, version_id=version.id, open=is_open, test=test)


# Clauses whose kept result replaces the version in force's (« previous », « in force on D »).
REPLACING = (KeepMode.PREVIOUS, KeepMode.IN_FORCE_ON)


def keep(
    current: X, kept: Iterable[tuple[TransitionalClause, X | None]], amount: Callable[[X], object]
) -> tuple[X, str | None, KeepMode | None]:
    """Design.md, resolver 4: which result is due among the version in force's and those the open clauses keep.

    ``kept``: each open « previous » / « more favourable » clause with its kept version's result (None: that
    version is not on file). ``previous`` keeps the other version's result; ``more_favourable`` the higher
    amount (the version in force's on a tie) — and when either amount is not known (a missing fact), the
    unknown one, since the higher cannot be told. Returns the result kept, the id of the clause that kept
    another version's result, and the mode of a clause whose kept version is not on file (None: none).
    """
    chosen, kept_by, not_on_file = current, None, None
    for clause, other in kept:
        replaces = clause.keeps in REPLACING
        if other is None:
            if not_on_file is not KeepMode.PREVIOUS:
                not_on_file = KeepMode.PREVIOUS if replaces else clause.keeps
            continue
        if replaces:
            chosen, kept_by = other, clause.id
            continue
        ours, theirs = amount(chosen), amount(other)
        if ours is not None and (theirs is None or theirs > ours):  # type: ignore[operator]
            chosen, kept_by = other, clause.id
    return chosen, kept_by, not_on_file


def resolve(catalogue: Catalogue, purchase: Purchase | Row, scheme: Scheme) -> Resolution:
    """Pick the version of ``scheme`` for ``purchase`` and examine its transitional clauses."""
    row = as_row(purchase)
    timeline = catalogue.timeline(scheme)
    version, decisive, decided_by = version_for(timeline, row)
    if version is None:
        version = timeline.ended_on(decisive)
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
    checks = tuple(check_clause(c, version, row, decisive) for c in version.transitional)
    notes: tuple[str, ...] = ()
    if version.role is Role.ENDED:
        notes = (ended_note(version),)
    if version.transitional and row.order_date is None:
        notes += ("no order_date given: the transitional clauses of this version were not evaluated",)
    return Resolution(
        scheme=scheme, decisive_date=decisive, decided_by=decided_by, version=version, clauses=checks, notes=notes
    )


def ended_note(version: Version) -> str:
    """What an answer after the end of the aid says: which text ended it, from when, and what replaced it."""
    scheme = version.scheme.value if version.scheme else "the"
    return (
        f"the {scheme} aid ended on {version.valid_from.isoformat()} ({version.source.decree}; version {version.id}, "
        f"graded {version.provenance.value}): {version.title}"
    )


def _ended_warning(version: Version | None) -> tuple[str, ...]:
    """The text that ended an aid, graded « secondary », never answers without saying so."""
    if version is None or version.provenance is not Provenance.SECONDARY:
        return ()
    return (
        f"{version.id} is graded secondary: the wording that ends the aid is not on file; its date and effect come "
        "from the sources its notes and clauses cite (each with its confidence)",
    )


def kept_version(catalogue: Catalogue, scheme: Scheme, clause: TransitionalClause, decisive: date) -> Version | None:
    """The version an open « previous », « more favourable » or « in force on D » clause keeps (None: not on file):
    named by its id, or by a date (the scheme's amounts version in force on it)."""
    day = clause.kept_day(decisive)
    if day is not None:
        return catalogue.timeline(scheme).find(day)
    return catalogue.versions.get(clause.kept_version_id or "")


def run_calculator(
    version: Version,
    purchase: Purchase | Row,
    decisive: date,
    open_branches: frozenset[str],
    catalogue: Catalogue | None = None,
) -> Award:
    """Run one version's calculator (with the texts it relies on) in the explaining context; a missing fact
    becomes an award naming it, with no amount."""
    row = as_row(purchase)
    relied = {ref: catalogue.versions[ref] for ref in version.relies_on} if catalogue is not None else {}
    calculator = get_calculator(version.calculator or "")
    ctx = Explain(version, relied, calculator.FACTS)
    ctx.start(row, decisive, open_branches)
    try:
        return calculator.calculate(ctx)  # type: ignore[no-any-return]
    except MissingFact as missing:
        return ctx.missing(missing)


def calculate(catalogue: Catalogue, purchase: Purchase | Row, scheme: Scheme) -> SchemeResult:
    """Resolve, then compute with the version(s) the resolution designates."""
    row = as_row(purchase)
    resolution = resolve(catalogue, row, scheme)
    version = resolution.version
    if version is None:
        return SchemeResult(resolution=resolution, status=NO_VERSION)
    inline = frozenset(
        b for c in resolution.open_clauses if c.clause.keeps is KeepMode.INLINE for b in c.clause.branches
    )
    if resolution.ended:
        return _after_the_end(catalogue, row, scheme, resolution)
    current = run_calculator(version, row, resolution.decisive_date, inline, catalogue)
    compared, warnings = [current], []
    others: list[tuple[TransitionalClause, Award | None]] = []
    for check in resolution.open_clauses:
        clause = check.clause
        if clause.keeps is KeepMode.INLINE:
            continue
        day = clause.computed_as_of(resolution.decisive_date)
        other = kept_version(catalogue, scheme, clause, resolution.decisive_date)
        if other is None:
            warnings.append(_not_on_file_warning(clause))
            others.append((clause, None))
            continue
        previous = run_calculator(other, row, day, frozenset(), catalogue)
        compared.append(previous)
        others.append((clause, previous))
    kept, kept_by, not_on_file = keep(current, others, lambda a: a.amount)
    warnings.extend(_secondary_warning(catalogue.versions.get(kept.version_id)))
    warnings.extend(relied_secondary_warnings(catalogue, kept))
    status = outcome_status(kept.missing_facts != (), kept.not_covered, not_on_file)
    deadline, citation = claim_deadline_for(catalogue, scheme, resolution.decisive_date, warnings)
    return SchemeResult(
        resolution=resolution,
        status=status,
        award=kept,
        compared=tuple(compared),
        kept_by=kept_by,
        claim_deadline=deadline,
        claim_deadline_citation=citation,
        warnings=tuple(warnings),
        amount_is_lower_bound=status == KEPT_NOT_ON_FILE and not_on_file is KeepMode.MORE_FAVOURABLE,
    )


def _after_the_end(catalogue: Catalogue, row: Row, scheme: Scheme, resolution: Resolution) -> SchemeResult:
    """The decisive date falls after the end of the aid: « ended » (no amount), unless an open clause of the
    ending text keeps an earlier wording for the purchase — then that wording is computed, and it is due
    (« previous » / « in force on D »: whatever its amount; « more favourable »: compared with no aid at all,
    the kept wording is the more favourable whenever it gives anything, so it is kept too)."""
    warnings: list[str] = []
    for check in resolution.open_clauses:
        clause = check.clause
        if clause.keeps is KeepMode.INLINE:
            continue
        other = kept_version(catalogue, scheme, clause, resolution.decisive_date)
        if other is None:
            warnings.append(_not_on_file_warning(clause, ended=True))
            warnings.extend(_ended_warning(resolution.version))
            return SchemeResult(resolution=resolution, status=KEPT_NOT_ON_FILE, warnings=tuple(warnings))
        kept = run_calculator(other, row, clause.computed_as_of(resolution.decisive_date), frozenset(), catalogue)
        warnings.extend(_secondary_warning(other))
        warnings.extend(_ended_warning(resolution.version))  # the ending text's own grade, said too
        status = outcome_status(kept.missing_facts != (), kept.not_covered, None)
        deadline, citation = claim_deadline_for(catalogue, scheme, resolution.decisive_date, warnings)
        return SchemeResult(
            resolution=resolution,
            status=status,
            award=kept,
            compared=(kept,),
            kept_by=clause.id,
            claim_deadline=deadline,
            claim_deadline_citation=citation,
            warnings=tuple(warnings),
        )
    return SchemeResult(resolution=resolution, status=ENDED, warnings=_ended_warning(resolution.version))


def outcome_status(missing: bool, not_covered: bool, not_on_file: KeepMode | None) -> str:
    """The status of a scheme's answer from what its calculators gave (shared with the batch engine)."""
    if missing:
        return MISSING_FACTS
    if not_on_file is not None:
        return KEPT_NOT_ON_FILE
    return NOT_COVERED if not_covered else COMPUTED


def _secondary_warning(version: Version | None) -> tuple[str, ...]:
    """A version graded « secondary » never answers without saying so (issue 12)."""
    if version is None or version.provenance is not Provenance.SECONDARY:
        return ()
    return (
        f"{version.id} is graded secondary: the official wording of {version.citation.split(' (')[0]} in force "
        f"{version.valid_from.isoformat()} → {(version.last_day or version.valid_from).isoformat()} is not on file; "
        "the amount applies a barème known from secondary sources (each number's source and confidence are in "
        "the version's parameters), and what those sources do not give is answered as not known",
    )


def relied_secondary_warnings(catalogue: Catalogue, award: Award) -> tuple[str, ...]:
    """A text the version relies on that decided the award (its citation is the award's), graded « secondary »: its
    grade is said too — e.g. D. 251-1-1, the bonus for a used vehicle, applied by the seed wording of D. 251-7."""
    version = catalogue.versions.get(award.version_id)
    if version is None:
        return ()
    return tuple(
        warning
        for ref in version.relies_on
        if award.paragraph.startswith(catalogue.versions[ref].citation)
        for warning in _secondary_warning(catalogue.versions[ref])
    )


def _not_on_file_warning(clause: TransitionalClause, *, ended: bool = False) -> str:
    return (
        f"transitional clause {clause.id} ({clause.paragraph}) is open and keeps "
        f"{clause.kept_version_label or 'an earlier wording'}, which is not on file: "
        + (
            "the amount shown is the version in force's, a lower bound of what is due"
            if clause.keeps is KeepMode.MORE_FAVOURABLE and not ended
            else "the amount due cannot be computed"
        )
    )


def claim_deadline_for(
    catalogue: Catalogue, scheme: Scheme, decisive: date, warnings: list[str]
) -> tuple[date | None, str | None]:
    text = catalogue.claim_deadline_text(scheme, decisive)
    if text is None or text.claim_deadline_months is None:
        warnings.append(f"no claim-deadline text on file for {decisive.isoformat()}")
        return None, None
    citation = f"{text.citation}, {text.claim_deadline_paragraph}".rstrip(", ")
    return deadline_after_event(decisive, text.claim_deadline_months), citation


__all__ = [
    "ENDED",
    "ClauseCheck",
    "Resolution",
    "SchemeResult",
    "calculate",
    "check_clause",
    "clause_opens",
    "decisive_date",
    "decisive_day",
    "event_day",
    "keep",
    "kept_version",
    "resolve",
    "version_for",
]
