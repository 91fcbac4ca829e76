"""The amount timeline of one purchase: the exact segments of decisive dates over which each answer is constant.

Where the answer can change is read from the data, never found by sampling days (:func:`breakpoints`):

- every version's start and end (amounts, the conditions texts they rely on, the management texts that set
  the claim deadline) and every declared gap;
- every transitional clause's deadline (the day after ``decisive_on_or_before``);
- every date a calculator module fixes in code (a module-level ``date`` of :mod:`legislation.calculators`, e.g.
  « factures entre le 4 décembre 2008 et le 31 décembre 2009 »), and the day after it;
- every date-dependent condition of the calculators. They compare the decisive date (or the invoice date)
  with a date of the purchase's facts moved by a period of the texts — « en circulation depuis au moins
  quinze ans », « acquis depuis au moins un an », « dans les six mois suivant la facturation », a first
  registration « il y a moins de six mois ». For each fact date and each period on file (parameters in
  months, years or days, the claim-deadline months), the days on which such a comparison flips are
  computed exactly, month-end clamping included (:func:`flips`).

Each candidate segment is then evaluated once, by the batch engine (the calculators in their lean context),
and neighbouring segments with the same answer are merged. Pure: the window is an argument (no clock).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from datetime import date, timedelta
from decimal import Decimal
from functools import cache

from legislation.calculators.kit import LEASE_MIN_MONTHS, Outcome
from legislation.dates import add_months, deadline_after_event
from legislation.enums import Acquisition, ParameterUnit, Provenance, Scheme
from legislation.errors import InvalidDates
from legislation.facts import Purchase
from legislation.fast.engine import Engine
from legislation.fast.stored import FormStore
from legislation.resolver import KEPT_NOT_ON_FILE, as_row, clause_opens, decisive_day, version_for
from legislation.row import Row, from_scaled
from legislation.timeline import Catalogue

DAY = timedelta(days=1)
WINDOW_MONTHS = 18  # the default window: from the order date (or today) to 18 months later
# add_months(x, j) is non-decreasing in x and moves a day by at most 3 days from its exact inverse (month-end
# clamping: 31 → 28): the flip of « add_months(x, j) ≤ F » lies within this many days of add_months(F, −j).
_CLAMP_REACH = 4


@dataclass(frozen=True, slots=True, kw_only=True)
class Segment:
    """Decisive dates ``[start, until)`` over which one scheme's answer is the same."""

    scheme: Scheme
    start: date
    until: date  # exclusive
    status: str  # the resolver's statuses: computed, missing_facts, no_version_on_file, …
    amount: Decimal | None  # None: not known (see status)
    amount_is_lower_bound: bool
    eligible: bool | None
    version_id: str | None  # the version in force
    paragraph: str | None  # the paragraph that decided, cited in full
    kept_version_id: str | None  # the version whose amount an open clause kept, if another
    open_clauses: tuple[str, ...]  # ids of the transitional clauses open over the segment
    clauses_evaluated: bool  # False: the purchase gives no order date, clauses are not evaluated
    provenance: Provenance | None  # of the version whose amount is given
    claim_deadline_months: int | None  # « dans les N mois suivant » the decisive date
    claim_deadline_citation: str | None
    # The decisive date when it does not move with the window: a lease of décret 2007-1873 (initial wording) is
    # decided by the signature of its contract (the request's order_date), so its claim deadline counts from it.
    fixed_decisive_date: date | None = None

    @property
    def last_day(self) -> date:
        return self.until - DAY

    @property
    def claim_deadlines(self) -> tuple[date, date] | None:
        """The claim deadline for the first and for the last decisive day of the segment."""
        if self.claim_deadline_months is None:
            return None
        months = self.claim_deadline_months
        if self.fixed_decisive_date is not None:
            fixed = deadline_after_event(self.fixed_decisive_date, months)
            return fixed, fixed
        return deadline_after_event(self.start, months), deadline_after_event(self.last_day, months)

    def same_answer(self, other: Segment) -> bool:
        """Everything but the dates is equal."""
        return _answer(self) == _answer(other)


def _answer(s: Segment) -> tuple[object, ...]:
    return (
        s.scheme, s.status, s.amount, s.amount_is_lower_bound, s.eligible, s.version_id, s.paragraph,
        s.kept_version_id, s.open_clauses, s.clauses_evaluated, s.provenance, s.claim_deadline_months,
        s.claim_deadline_citation, s.fixed_decisive_date,
    )  # fmt: skip


@dataclass(frozen=True, slots=True, kw_only=True)
class PurchaseTimeline:
    """Each scheme's segments over a window of decisive dates ``[start, until)``."""

    start: date
    until: date
    decided_by: str  # invoice_date | first_rent_date: the date that moves along the window
    order_date: date | None
    segments: dict[Scheme, tuple[Segment, ...]]
    notes: tuple[str, ...] = ()


def catalogue_end(catalogue: Catalogue) -> date | None:
    """The first day after everything on file (versions and declared gaps); None when a version is open."""
    ends: list[date] = []
    for timeline in catalogue.timelines.values():
        for version in timeline.versions:
            if version.valid_until is None:
                return None
            ends.append(version.valid_until)
        ends.extend(g.end for g in timeline.gaps)
    return max(ends, default=None)


def default_window(catalogue: Catalogue, order_date: date | None, today: date) -> tuple[date, date]:
    """From the order date (or ``today``) to 18 months later, capped at the catalogue's end when it is later."""
    start = order_date or today
    until = add_months(start, WINDOW_MONTHS)
    end = catalogue_end(catalogue)
    if end is not None and start < end < until:
        until = end
    return start, until


_ENGINES: dict[int, tuple[Catalogue, Engine]] = {}


def engine_for(catalogue: Catalogue, store: FormStore | None = None) -> Engine:
    """The batch engine of a catalogue, built once (a few catalogues are remembered; ``store``: where its compiled
    calculators are kept between processes, see :mod:`legislation.fast.stored`)."""
    found = _ENGINES.get(id(catalogue))
    if found is not None and found[0] is catalogue:
        return found[1]
    if len(_ENGINES) >= 4:
        _ENGINES.clear()
    engine = Engine(catalogue, store)
    _ENGINES[id(catalogue)] = (catalogue, engine)
    return engine


def amount_timeline(
    catalogue: Catalogue,
    purchase: Purchase | Row,
    start: date,
    until: date,
    engine: Engine | None = None,
) -> PurchaseTimeline:
    """The segments of each scheme of ``purchase`` over the decisive dates ``[start, until)``.

    The decisive date (invoice date of a purchase, first-rent date of a lease) moves; every other fact stays.
    A window starting before the order date starts at the order date (an invoice cannot precede the order).
    """
    row = as_row(purchase)
    decided_by = "first_rent_date" if row.acquisition is Acquisition.LEASE else "invoice_date"
    notes: list[str] = []
    if row.order_date is not None and start < row.order_date:
        notes.append(f"the window starts at the order date {row.order_date}: a decisive date cannot precede it")
        start = row.order_date
    if until <= start:
        raise InvalidDates(f"the window [{start}, {until}) is empty: until must be after from", "until")
    base = _on(replace(row, source=None), start)
    decisive_day(base)  # the other dates are checked once (an invoice of a lease before its order…)
    if row.order_date is None:
        notes.append("no order_date given: transitional clauses are not evaluated")
    engine = engine or engine_for(catalogue)
    points = [start, *(p for p in breakpoints(catalogue, base) if start < p < until), until]
    raw: dict[Scheme, list[Segment]] = {s: [] for s in base.schemes}
    for first, after in zip(points, points[1:], strict=False):
        day_row = _on(base, first)
        for scheme, outcome in zip(base.schemes, engine.outcomes(day_row), strict=True):
            segment = _segment(catalogue, scheme, outcome, day_row, first, after)
            _append_merged(raw[scheme], segment)
    return PurchaseTimeline(
        start=start,
        until=until,
        decided_by=decided_by,
        order_date=row.order_date,
        segments={s: tuple(v) for s, v in raw.items()},
        notes=tuple(notes),
    )


def _on(row: Row, day: date) -> Row:
    """The row with its decisive date moved to ``day`` (a lease: its first rent, and its invoice too, which decides
    a lease from 2009-01-21 to 2014-06-29 — décret 2007-1873, art. 3, « Année de facturation »)."""
    if row.acquisition is Acquisition.LEASE:
        return replace(row, first_rent_date=day, invoice_date=day)
    return replace(row, invoice_date=day)


def _append_merged(segments: list[Segment], segment: Segment) -> None:
    if segments and segments[-1].same_answer(segment):
        segments[-1] = replace(segments[-1], until=segment.until)
    else:
        segments.append(segment)


def _segment(catalogue: Catalogue, scheme: Scheme, outcome: Outcome, row: Row, first: date, after: date) -> Segment:
    """One candidate segment from the engine's outcome on its first day."""
    _, status, cents, eligible, version_id, paragraph, kept_id = outcome
    version = catalogue.versions.get(version_id or "")
    opened: tuple[str, ...] = ()
    if version is not None and row.order_date is not None:
        registered = row.vehicle_previously_registered
        category = row.vehicle_category
        opened = tuple(
            c.id for c in version.transitional if clause_opens(c, row.order_date, first, registered, category) is True
        )
    paying = catalogue.versions.get(kept_id or version_id or "")
    # The claim deadline counts from the decisive date the resolver uses, which is not always the moving one
    # (a lease decided by its signature, décret 2007-1873 art. 10 I 2° in its initial wording).
    _, decisive, field = version_for(catalogue.timeline(scheme), row)
    claim = catalogue.claim_deadline_text(scheme, decisive)
    return Segment(
        scheme=scheme,
        start=first,
        until=after,
        status=status,
        amount=None if cents is None else from_scaled(cents, 100),
        amount_is_lower_bound=status == KEPT_NOT_ON_FILE and cents is not None,
        eligible=eligible,
        version_id=version_id,
        paragraph=paragraph,
        kept_version_id=kept_id,
        open_clauses=opened,
        clauses_evaluated=row.order_date is not None,
        provenance=paying.provenance if paying is not None else None,
        claim_deadline_months=claim.claim_deadline_months if claim is not None else None,
        claim_deadline_citation=(
            f"{claim.citation}, {claim.claim_deadline_paragraph}".rstrip(", ") if claim is not None else None
        ),
        fixed_decisive_date=decisive if field == "order_date" else None,
    )


def breakpoints(catalogue: Catalogue, row: Row) -> list[date]:
    """Every day on which an answer for ``row`` may differ from the day before, sorted (a superset)."""
    points: set[date] = set()
    for version in catalogue.versions.values():
        points.add(version.valid_from)
        if version.valid_until is not None:
            points.add(version.valid_until)
        for clause in version.transitional:
            points.update(deadline + DAY for deadline in clause.deadlines)
            if clause.yearly:  # a clause that repeats every year: each year's deadline, over its version's period
                last = (version.valid_until or date(9998, 1, 1)).year + 1
                for year in range(clause.decisive_on_or_before.year, min(last, 9998) + 1):
                    points.add(clause.decisive_on_or_before.replace(year=year) + DAY)
                    points.add(date(year, 1, 1))  # the occurrence changes with the decisive year (limits())
    for timeline in catalogue.timelines.values():
        points.update(p for g in timeline.gaps for p in (g.start, g.end))
    points.update(p for day in calculator_dates() for p in (day, day + DAY))
    months, days, years = periods(catalogue)
    points.update(date(y, 1, 1) for y in years if 1 <= y <= 9999)
    for fact in fact_dates(row):
        points.update(fact + timedelta(days=d) for d in (0, 1))
        for k in months:
            points.update(flips(fact, k, add_months))
            points.update(flips(fact, -k, add_months))
        for n in days:
            points.update(flips(fact, n, _add_days))
            points.update(flips(fact, -n, _add_days))
    return sorted(points)


@cache
def calculator_dates() -> frozenset[date]:
    """The dates the calculators fix in code: module-level ``date`` values (alone or in a tuple) of every module of
    :mod:`legislation.calculators` (all imported with the registry)."""
    found: set[date] = set()
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith("legislation.calculators"):
            continue
        for value in vars(module).values():
            for item in value if isinstance(value, tuple) else (value,):
                if type(item) is date:
                    found.add(item)
    return frozenset(found)


def periods(catalogue: Catalogue) -> tuple[frozenset[int], frozenset[int], frozenset[int]]:
    """The periods of the texts on file: months (years as 12 months), days, and calendar years."""
    months: set[int] = {LEASE_MIN_MONTHS}
    days: set[int] = set()
    years: set[int] = set()
    for version in catalogue.versions.values():
        if version.claim_deadline_months is not None:
            months.add(version.claim_deadline_months)
        for parameter in version.parameters.values():
            whole = int(parameter.value)
            if parameter.value != whole:
                continue
            if parameter.unit is ParameterUnit.MONTH:
                months.add(whole)
            elif parameter.unit is ParameterUnit.YEAR:
                months.add(12 * whole)
            elif parameter.unit is ParameterUnit.DAY:
                days.add(whole)
            elif parameter.unit is ParameterUnit.CALENDAR_YEAR:
                years.add(whole)
    return frozenset(months), frozenset(days), frozenset(years)


def fact_dates(row: Row) -> Iterator[date]:
    """The dates of the purchase's facts (the decisive date itself excepted: it is what moves)."""
    moving = "first_rent_date" if row.acquisition is Acquisition.LEASE else "invoice_date"
    for name in (
        "order_date", "invoice_date", "first_rent_date", "vehicle_first_registration_date",
        "scrapped_first_registration_date", "scrapped_owned_since", "scrapped_destruction_date",
    ):  # fmt: skip
        value = getattr(row, name)
        if value is not None and name != moving:
            yield value


def _add_days(day: date, n: int) -> date:
    return day + timedelta(days=n)


def flips(fact: date, k: int, add: Callable[[date, int], date]) -> set[date]:
    """The decisive days ``x`` at which a comparison between ``x`` and ``fact`` shifted by ``k`` can flip.

    Covers both forms a text takes: the decisive date against the fact moved (« x < add(fact, k) »: flips at
    ``add(fact, k)`` and the day after) and the decisive date moved against the fact (« add(x, −k) ≤ fact »:
    flips where the first ``x`` whose shift passes or reaches ``fact`` lies: ``add`` is non-decreasing and clamps a
    month end by at most 3 days, so every day near ``add(fact, −k)`` where ``add(x, k)`` changes is kept).
    """
    found: set[date] = set()
    try:
        moved = add(fact, k)
    except (OverflowError, ValueError):
        return found
    found.update((moved, moved + DAY))
    try:
        near = add(fact, -k) - timedelta(days=_CLAMP_REACH)
    except (OverflowError, ValueError):
        return found
    previous = None
    for step in range(2 * _CLAMP_REACH + 2):
        x = near + timedelta(days=step)
        value = add(x, k)
        if previous is not None and value != previous:
            found.add(x)
        previous = value
    return found
