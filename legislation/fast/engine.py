"""The compiled fast path: rows to outcomes, identical to the explained path, without its explanations.

For each scheme the engine keeps the versions' start days (bisect, then a day → version cache), and
for each version a *plan*: its kernel (built once from its parameters) and its transitional clauses as
plain dates. A row is resolved exactly as :mod:`legislation.resolver` does (decisive date, version in
force, clauses open on the order date, ``inline`` / ``previous`` / ``more_favourable``), then computed
by the kernel(s). Whatever a kernel does not decide — a version without a kernel, an amount that does
not fit the integer scales, a kernel's ``None`` — goes through the explained path for that row alone,
and is counted in :attr:`Engine.fallbacks`.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from datetime import date, timedelta

from legislation.enums import Acquisition, KeepMode, OrderTest, Scheme
from legislation.fast.kernels import BUILDERS, Builder, Kernel
from legislation.fast.kernels._kit import NotExact
from legislation.fast.row import SCHEME_TUPLES, Row, cents
from legislation.resolver import calculate as explained_calculate
from legislation.resolver import decisive_date
from legislation.timeline import Catalogue
from legislation.versions import TransitionalClause, Version

# (scheme, status, amount in cents, eligible, version_id, paragraph, kept_version_id): what a batch row
# carries. version_id is the version in force (as the JSON answer gives it); kept_version_id the version
# whose award was kept when a transitional clause kept another one, else None.
Outcome = tuple[str, str, int | None, bool | None, str | None, str | None, str | None]

COMPUTED, MISSING_FACTS = "computed", "missing_facts"
NO_VERSION, KEPT_NOT_ON_FILE = "no_version_on_file", "kept_version_not_on_file"
LEASE = Acquisition.LEASE
NO_BRANCHES: frozenset[str] = frozenset()
_CACHE_LIMIT = 200_000  # distinct decisive days remembered per scheme (bounded memory on odd inputs)


@dataclass(slots=True, eq=False)
class ClausePlan:
    """A transitional clause as the fast path tests it (same test as resolver.check_clause)."""

    inclusive: bool  # ordered_on_or_before (≤) rather than ordered_before (<)
    order_limit: date
    decisive_on_or_before: date
    new_vehicles_only: bool
    keeps: KeepMode
    branches: frozenset[str]
    kept: VersionPlan | None  # previous / more_favourable: the kept version's plan (None: not on file)


@dataclass(slots=True, eq=False)
class VersionPlan:
    """One version ready for rows: its kernel (None: explained path only) and its clauses."""

    version: Version
    kernel: Kernel | None
    clauses: tuple[ClausePlan, ...] = field(default=())
    vid: str = ""
    # No clause can be open for a decisive day after ``deadline`` or an order on or after ``order_until``:
    # the common case is told in two comparisons, without testing each clause.
    deadline: date = date.min
    order_until: date = date.min

    def __post_init__(self) -> None:
        self.vid = self.version.id

    # Which clauses are open (a tuple of flags) → the inline branches they open, and the other clauses.
    opened: dict[tuple[bool, ...], tuple[frozenset[str], tuple[ClausePlan, ...]]] = field(
        default_factory=dict
    )

    def open(self, flags: tuple[bool, ...]) -> tuple[frozenset[str], tuple[ClausePlan, ...]]:
        """The branches and kept versions of the clauses ``flags`` open (remembered: a few combinations)."""
        clauses = [c for c, is_open in zip(self.clauses, flags, strict=True) if is_open]
        found = (
            frozenset(b for c in clauses if c.keeps is KeepMode.INLINE for b in c.branches),
            tuple(c for c in clauses if c.keeps is not KeepMode.INLINE),
        )
        self.opened[flags] = found
        return found

    def set_clauses(self, clauses: tuple[ClausePlan, ...]) -> None:
        self.clauses = clauses
        if clauses:
            self.deadline = max(c.decisive_on_or_before for c in clauses)
            self.order_until = max(
                c.order_limit + timedelta(days=1) if c.inclusive else c.order_limit for c in clauses
            )


# The short path of a decisive day for a shared scheme tuple: (each scheme's kernel — None when one has
# none —, the latest clause deadline, the latest order limit of their versions).
ShortPath = tuple[tuple[Kernel, ...] | None, date, date]

# What a decisive day gives for one scheme, unpacked in one go: (the version's kernel, the clauses'
# latest deadline and order limit, the version's plan — None in a gap —, the outcome of a gap).
Dispatch = tuple[Kernel | None, date, date, "VersionPlan | None", Outcome | None]


class SchemePlan:
    """One scheme's timeline, compiled: start ordinals, plans, and a day → dispatch cache."""

    __slots__ = ("scheme", "name", "starts", "plans", "cache", "gap", "gap_kernel")

    def __init__(self, scheme: Scheme, plans: list[VersionPlan]) -> None:
        self.scheme = scheme
        self.name = scheme.value
        self.plans = sorted(plans, key=lambda p: p.version.valid_from)
        self.starts = [p.version.valid_from.toordinal() for p in self.plans]
        self.cache: dict[date, Dispatch] = {}
        self.gap: Dispatch = (
            None,
            date.min,
            date.min,
            None,
            (self.name, NO_VERSION, None, None, None, None, None),
        )
        gap_outcome = self.gap[4]

        def gap_kernel(row: Row, open_branches: frozenset[str]) -> Outcome | None:
            return gap_outcome  # « no version on file »: a kernel too, so that a gap takes the short path

        self.gap_kernel: Kernel = gap_kernel  # type: ignore[assignment]

    def find(self, day: date) -> Dispatch:
        """The dispatch of the version in force on ``day`` (``valid_from <= day < valid_until``) or a gap."""
        i = bisect_right(self.starts, day.toordinal()) - 1
        found = self.gap
        if i >= 0 and self.plans[i].version.is_in_force(day):
            plan = self.plans[i]
            found = (plan.kernel, plan.deadline, plan.order_until, plan, None)
        if len(self.cache) < _CACHE_LIMIT:
            self.cache[day] = found
        return found


class Engine:
    """Compiled catalogue. ``outcomes(row)`` gives one :data:`Outcome` per scheme of the row."""

    def __init__(self, catalogue: Catalogue, builders: dict[str, Builder] | None = None) -> None:
        self.catalogue = catalogue
        builders = BUILDERS if builders is None else builders
        plans = {
            vid: VersionPlan(version=v, kernel=_build(v, catalogue, builders))
            for vid, v in catalogue.versions.items()
        }
        for plan in plans.values():
            plan.set_clauses(tuple(_clause_plan(c, plans) for c in plan.version.transitional))
        self.schemes = {
            s: SchemePlan(s, [plans[v.id] for v in catalogue.timeline(s).versions]) for s in Scheme
        }
        self._plans_of = {id(t): (t, tuple(self.schemes[s] for s in t)) for t in SCHEME_TUPLES}
        # For each shared scheme tuple: decisive day → (the kernels of its schemes, or None when one of
        # them has none; the latest clause deadline; the latest order limit) — the short path below.
        self._days: dict[int, tuple[tuple[Scheme, ...], dict[date, ShortPath]]] = {
            id(t): (t, {}) for t in SCHEME_TUPLES
        }
        self.compiled = sorted(vid for vid, p in plans.items() if p.kernel is not None)
        self.fallbacks = 0  # scheme-rows sent to the explained path

    def outcomes(self, row: Row) -> list[Outcome]:
        """Every scheme of the row; :class:`InvalidDates` exactly as the explained path raises it.

        The short path — the usual row: its schemes a shared tuple, every scheme's version on that day
        with a kernel (or none on file), no transitional clause that can be open for its dates — is one
        dictionary look-up and one call per scheme. Anything else, or a kernel that does not decide,
        takes :meth:`resolved`, which tests each scheme's clauses as :mod:`legislation.resolver` does.
        """
        order = row.order_date
        if row.acquisition is LEASE:
            day, other = row.first_rent_date, row.invoice_date
        else:
            day, other = row.invoice_date, row.first_rent_date
        if day is None or (order is not None and (day < order or (other is not None and other < order))):
            decisive_date(row.to_purchase())  # raises the explained path's InvalidDates
        assert day is not None
        schemes = row.schemes
        days = self._days.get(id(schemes))
        if days is not None and days[0] is schemes and row.exact:
            try:
                kernels, deadline, order_until = days[1][day]
            except KeyError:
                kernels, deadline, order_until = self._short_path(schemes, days[1], day)
            if kernels is not None and (order is None or day > deadline or order >= order_until):
                if len(kernels) == 1:  # one scheme (most rows): no loop
                    decided = kernels[0](row, NO_BRANCHES)
                    if decided is not None:
                        return [decided]
                else:
                    results: list[Outcome] = []
                    for kernel in kernels:
                        decided = kernel(row, NO_BRANCHES)
                        if decided is None:
                            break
                        results.append(decided)
                    else:
                        return results
        return self.resolved(row, day)

    def _short_path(self, schemes: tuple[Scheme, ...], days: dict[date, ShortPath], day: date) -> ShortPath:
        kernels: list[Kernel] = []
        deadline = order_until = date.min
        for scheme in schemes:
            plan = self.schemes[scheme]
            kernel, plan_deadline, plan_order_until, version, _ = plan.find(day)
            if version is None:
                kernel = plan.gap_kernel
            elif kernel is None:
                found: ShortPath = (None, date.min, date.min)
                break
            kernels.append(kernel)
            deadline, order_until = max(deadline, plan_deadline), max(order_until, plan_order_until)
        else:
            found = (tuple(kernels), deadline, order_until)
        if len(days) < _CACHE_LIMIT:
            days[day] = found
        return found

    def resolved(self, row: Row, day: date) -> list[Outcome]:
        """Each scheme of the row resolved in turn: clauses tested, kept versions computed, the explained
        path for whatever no kernel decides (``day``: the row's decisive date, already checked)."""
        order = row.order_date
        if not row.exact:  # an amount that does not fit the integer scales: the explained path computes it
            return [self.explained(row, s) for s in row.schemes]
        schemes = row.schemes
        shared = self._plans_of.get(id(schemes))
        plans = (
            shared[1] if shared is not None and shared[0] is schemes else [self.schemes[s] for s in schemes]
        )
        results: list[Outcome] = []
        decided: Outcome | None
        for plan in plans:
            try:
                kernel, deadline, order_until, version, gap = plan.cache[day]
            except KeyError:
                kernel, deadline, order_until, version, gap = plan.find(day)
            if kernel is not None:
                if order is None or day > deadline or order >= order_until:  # no clause can be open
                    decided = kernel(row, NO_BRANCHES)
                else:
                    assert version is not None
                    decided = self._with_clauses(row, version, day, plan.name)
                results.append(decided if decided is not None else self.explained(row, plan.scheme))
            elif version is None:
                results.append(gap)  # type: ignore[arg-type]
            else:
                results.append(self.explained(row, plan.scheme))
        return results

    def _with_clauses(self, row: Row, plan: VersionPlan, day: date, scheme: str) -> Outcome | None:
        """resolver.calculate for a version whose clauses may be open; None: the explained path decides."""
        opened = tuple(_is_open(c, row, day) for c in plan.clauses)
        inline, others = plan.opened.get(opened) or plan.open(opened)
        assert plan.kernel is not None
        decided = plan.kernel(row, inline)
        if decided is None:
            return None
        kept, kept_id, kept_missing = decided, None, False
        for clause in others:
            if clause.kept is None:
                kept_missing = True
                continue
            if clause.kept.kernel is None:
                return None
            previous = clause.kept.kernel(row, NO_BRANCHES)
            if previous is None:
                return None
            if clause.keeps is KeepMode.PREVIOUS or previous[2] > kept[2]:
                kept, kept_id = previous, clause.kept.vid
        status = MISSING_FACTS if kept[1] == MISSING_FACTS else KEPT_NOT_ON_FILE if kept_missing else COMPUTED
        if kept_id is None and status == kept[1]:
            return kept
        return scheme, status, kept[2], kept[3], plan.vid, kept[5], kept_id

    def explained(self, row: Row, scheme: Scheme) -> Outcome:
        """The explained path for one scheme of a row (counted as a fallback)."""
        self.fallbacks += 1
        return explained_outcome(self.catalogue, row, scheme)


def explained_outcome(catalogue: Catalogue, row: Row, scheme: Scheme) -> Outcome:
    """What the explained path (resolver + calculator with every step) gives, as an :data:`Outcome`."""
    result = explained_calculate(catalogue, row.to_purchase(), scheme)
    version = result.resolution.version
    award = result.award
    if version is None or award is None:
        return scheme.value, result.status, None, None, None, None, None
    kept_id = award.version_id if result.kept_by is not None else None
    return (
        scheme.value,
        result.status,
        cents(award.amount),
        award.eligible,
        version.id,
        award.paragraph,
        kept_id,
    )


def _build(version: Version, catalogue: Catalogue, builders: dict[str, Builder]) -> Kernel | None:
    """The version's kernel; None when it has none, or when a number of its text does not fit the integers."""
    builder = builders.get(version.calculator or "")
    if builder is None:
        return None
    try:
        return builder(version, {ref: catalogue.versions[ref] for ref in version.relies_on})
    except NotExact:
        return None


def _clause_plan(clause: TransitionalClause, plans: dict[str, VersionPlan]) -> ClausePlan:
    return ClausePlan(
        inclusive=clause.order_test is OrderTest.ORDERED_ON_OR_BEFORE,
        order_limit=clause.order_limit,
        decisive_on_or_before=clause.decisive_on_or_before,
        new_vehicles_only=clause.new_vehicles_only,
        keeps=clause.keeps,
        branches=frozenset(clause.branches),
        kept=plans.get(clause.kept_version_id) if clause.kept_version_id else None,
    )


def _is_open(clause: ClausePlan, row: Row, day: date) -> bool:
    """resolver.check_clause: order test, deadline, and « never registered » where the clause says so."""
    order = row.order_date
    assert order is not None
    order_ok = order <= clause.order_limit if clause.inclusive else order < clause.order_limit
    if not order_ok or day > clause.decisive_on_or_before:
        return False
    return row.vehicle_previously_registered is False if clause.new_vehicles_only else True
