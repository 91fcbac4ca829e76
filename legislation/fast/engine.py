"""The fast path: rows to outcomes, identical to the explained path, without its explanations.

There is no second copy of any rule here. Each version's calculator — the one the explained path runs — is
run in the :class:`~legislation.calculators.kit.Lean` context, which records nothing and returns an outcome
tuple, in its **compiled** form: the same source rewritten with the version's numbers by
:mod:`legislation.fast.compile` (generated at start-up, or read from a store of what an earlier process generated
from the same sources and numbers; never written by hand; a calculator the compiler does
not handle runs as written, reported in :attr:`Engine.compiled_forms` and :attr:`Engine.compile_errors`).
The clause and keep rules are :mod:`legislation.resolver`'s own (:func:`clause_opens`, :func:`keep`,
:func:`outcome_status`). What the engine adds is only speed: the versions' start days (bisect, then a
day → version cache), a short path for the usual row (no clause can be open for its dates), and one reused
context per version. A row whose amounts do not fit the integer scales is computed by the explained path
for that row alone, counted in :attr:`Engine.fallbacks`.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta

from legislation.calculators import get_calculator
from legislation.calculators.kit import Lean, Outcome
from legislation.enums import Acquisition, DecisiveEvent, KeepMode, Role, Scheme
from legislation.errors import MissingFact
from legislation.fast.stored import FormStore
from legislation.resolver import (
    ENDED,
    KEPT_NOT_ON_FILE,
    MISSING_FACTS,
    NO_VERSION,
    NOT_COVERED,
    REPLACING,
    clause_opens,
    decisive_day,
    keep,
    outcome_status,
    version_for,
)
from legislation.resolver import calculate as explained_calculate
from legislation.row import SCHEME_TUPLES, Row, cents
from legislation.timeline import Catalogue
from legislation.versions import TransitionalClause, Version

# A version's calculator for the engine: (row, open inline branches, decisive date) → its outcome.
Kernel = Callable[[Row, frozenset[str], date], Outcome]

LEASE = Acquisition.LEASE
NO_BRANCHES: frozenset[str] = frozenset()
_CACHE_LIMIT = 200_000  # distinct decisive days remembered per scheme (bounded memory on odd inputs)


def lean_kernel(version: Version, catalogue: Catalogue) -> Kernel:
    """The version's calculator run in one reused :class:`Lean` context (a batch runs in one thread)."""
    ctx = Lean(version, {ref: catalogue.versions[ref] for ref in version.relies_on})
    calculate = get_calculator(version.calculator or "").calculate
    start, missing = ctx.start, ctx.missing

    def kernel(row: Row, open_branches: frozenset[str], day: date) -> Outcome:
        start(row, day, open_branches)
        try:
            return calculate(ctx)  # type: ignore[no-any-return]
        except MissingFact as fact:
            return missing(fact)

    return kernel


def ended_kernel(version: Version) -> Kernel:
    """The text that ended the aid (role « ended »): « ended », no amount, the ending text's id — what
    :func:`legislation.resolver.calculate` answers when none of its clauses is open."""
    outcome: Outcome = (version.scheme.value if version.scheme else "", ENDED, None, None, version.id, None, None)

    def kernel(row: Row, open_branches: frozenset[str], day: date) -> Outcome:
        return outcome

    return kernel


@dataclass(slots=True, eq=False)
class VersionPlan:
    """One version ready for rows: its lean kernel and its transitional clauses with their kept plans."""

    version: Version
    kernel: Kernel
    clauses: tuple[tuple[TransitionalClause, VersionPlan | None], ...] = field(default=())
    vid: str = ""
    scheme_name: str = ""
    inline: tuple[frozenset[str] | None, ...] = field(default=())  # each clause's branches when it keeps inline
    # No clause can be open for a decisive day after ``deadline`` or an order on or after ``order_until``:
    # the common case is told in two comparisons, without testing each clause.
    deadline: date = date.min
    order_until: date = date.min
    scheme_plan: SchemePlan | None = None  # its scheme's timeline (an « in force on D » clause looks D up there)

    def __post_init__(self) -> None:
        self.vid = self.version.id
        self.scheme_name = self.version.scheme.value if self.version.scheme else ""  # an enum's value: slow to read

    def set_clauses(self, clauses: tuple[tuple[TransitionalClause, VersionPlan | None], ...]) -> None:
        self.clauses = clauses
        self.inline = tuple(frozenset(c.branches) if c.keeps is KeepMode.INLINE else None for c, _ in clauses)
        if any(c.yearly for c, _ in clauses):  # a clause that repeats every year: always tested
            self.deadline, self.order_until = date.max, date.max
        elif clauses:
            self.deadline = max(c.latest_deadline for c, _ in clauses)
            self.order_until = max(c.order_limit + timedelta(days=1) for c, _ in clauses)


# What a decisive day gives for one scheme: (the version's kernel, the clauses' latest deadline and order
# limit, the version's plan — None in a gap).
Dispatch = tuple[Kernel, date, date, "VersionPlan | None"]

# The short path of a decisive day for a shared scheme tuple: (the first scheme's kernel, the second's or None,
# every scheme's kernel, the order date from which no clause of their versions can be open that day —
# date.min when the day is past every clause's deadline — and each scheme's dispatch, for the other rows).
# Schemes are one or two: no loop for them.
ShortPath = tuple[Kernel, "Kernel | None", tuple[Kernel, ...], date, tuple[Dispatch, ...]]


class SchemePlan:
    """One scheme's timeline, compiled: start ordinals, plans, and a day → dispatch cache."""

    __slots__ = ("scheme", "name", "starts", "plans", "cache", "gap")

    def __init__(self, scheme: Scheme, plans: list[VersionPlan]) -> None:
        self.scheme = scheme
        self.name = scheme.value
        self.plans = sorted(plans, key=lambda p: p.version.valid_from)
        self.starts = [p.version.valid_from.toordinal() for p in self.plans]
        self.cache: dict[date, Dispatch] = {}
        gap_outcome: Outcome = (self.name, NO_VERSION, None, None, None, None, None)

        def gap_kernel(row: Row, open_branches: frozenset[str], day: date) -> Outcome:
            return gap_outcome  # « no version on file »: a kernel too, so that a gap takes the short path

        self.gap: Dispatch = (gap_kernel, date.min, date.min, None)

    def find(self, day: date) -> Dispatch:
        """The dispatch of the version in force on ``day`` (``valid_from <= day < valid_until``) or a gap."""
        i = bisect_right(self.starts, day.toordinal()) - 1
        found = self.gap
        if i >= 0 and self.plans[i].version.is_in_force(day):
            plan = self.plans[i]
            found = (plan.kernel, plan.deadline, plan.order_until, plan)
        if len(self.cache) < _CACHE_LIMIT:
            self.cache[day] = found
        return found


class Engine:
    """The catalogue ready for rows. ``outcomes(row)`` gives one :data:`Outcome` per scheme of the row."""

    def __init__(self, catalogue: Catalogue, store: FormStore | None = None, *, lazy: bool = False) -> None:
        """``store``: where compiled forms are kept between processes (:mod:`legislation.fast.stored`); None:
        each version's calculator is compiled in this process. ``lazy``: each version's kernel compiled at its first
        call, not here (``vigueur batch``: its columns replay recorded paths, and its processes call a few kernels,
        for the rows the columns leave to this engine — measured on 1 000 000 rows: 4 of 54; compiling them all was
        ~65 ms of the set-up every worker waits for); :attr:`compiled_forms` then names those compiled so far."""
        self.catalogue = catalogue
        # How each version's calculator runs: « compiled » (its source rewritten with the version's numbers,
        # legislation.fast.compile) or « lean » (as written, in the Lean context) when it does not compile.
        self.compiled_forms: dict[str, str] = {}
        self.compile_errors: dict[str, str] = {}
        make = self._lazy_kernel if lazy else self._kernel
        plans = {
            vid: VersionPlan(version=v, kernel=make(v, catalogue, store))
            for vid, v in catalogue.versions.items()
            if v.calculator is not None
        }
        plans.update(
            (vid, VersionPlan(version=v, kernel=ended_kernel(v)))
            for vid, v in catalogue.versions.items()
            if v.role is Role.ENDED
        )
        for plan in plans.values():
            plan.set_clauses(tuple((c, plans.get(c.kept_version_id or "")) for c in plan.version.transitional))
        self.schemes = {
            s: SchemePlan(s, [plans[v.id] for t in (catalogue.timeline(s),) for v in (*t.versions, *t.endings)])
            for s in Scheme
        }
        for scheme_plan in self.schemes.values():
            for version_plan in scheme_plan.plans:
                version_plan.scheme_plan = scheme_plan
        self._plans_of = {id(t): (t, tuple(self.schemes[s] for s in t)) for t in SCHEME_TUPLES}
        # For each shared scheme tuple, by its id: decisive day → the short path below. The shared tuples live as
        # long as the process, so a row's tuple with one of their ids is that very tuple.
        self._days: dict[int, dict[date, ShortPath]] = {id(t): {} for t in SCHEME_TUPLES}
        self.compiled = sorted(plans)
        # Schemes whose versions are not all decided by the invoice / first rent (décret 2007-1873): a lease's
        # decisive date then depends on the version (resolver.version_for), so such rows take that rule.
        self.eventful = frozenset(s for s in Scheme if catalogue.timeline(s).events_differ)
        # A lease none of whose dates falls before the end of those versions cannot be claimed by one of them.
        self.eventful_until = max(
            (
                v.valid_until or date.max
                for s in self.eventful
                for v in catalogue.timeline(s).versions
                if v.decisive_event is not DecisiveEvent.INVOICE_OR_FIRST_RENT
            ),
            default=date.min,
        )
        self.fallbacks = 0  # scheme-rows sent to the explained path: none since the calculators run lean

    def _kernel(self, version: Version, catalogue: Catalogue, store: FormStore | None) -> Kernel:
        """The version's compiled kernel; its lean kernel when its calculator does not compile (reported)."""
        # Imported here, not at the top: ``python -m legislation.fast.compile`` must not find it imported.
        from legislation.fast import compile as compiler

        try:
            kernel = compiler.compiled_kernel(version, catalogue, store)
        except Exception as exc:  # noqa: BLE001 - any failure of the compiler leaves the calculator as written
            self.compiled_forms[version.id] = "lean"
            self.compile_errors[version.id] = f"{type(exc).__name__}: {exc}"
            return lean_kernel(version, catalogue)
        self.compiled_forms[version.id] = "compiled"
        return kernel

    def _lazy_kernel(self, version: Version, catalogue: Catalogue, store: FormStore | None) -> Kernel:
        """:meth:`_kernel`, made at the first call (then kept: the same kernel whatever called first)."""
        made: list[Kernel] = []

        def kernel(row: Row, open_branches: frozenset[str], day: date) -> Outcome:
            if not made:
                made.append(self._kernel(version, catalogue, store))
            return made[0](row, open_branches, day)

        return kernel

    def outcomes(self, row: Row) -> list[Outcome]:
        """Every scheme of the row; :class:`InvalidDates` exactly as the explained path raises it.

        The short path — the usual row: its schemes a shared tuple, no transitional clause that can be open
        for its dates — is one dictionary look-up and one call per scheme. Anything else takes
        :meth:`resolved`, which tests each scheme's clauses with the resolver's rules.
        """
        order = row.order_date
        if row.acquisition is LEASE:
            day, other = row.first_rent_date, row.invoice_date
        else:
            day, other = row.invoice_date, row.first_rent_date
        if day is None or (order is not None and (day < order or (other is not None and other < order))):
            decisive_day(row)  # raises the resolver's InvalidDates
        assert day is not None
        if not row.exact:
            row.check_exact()  # an amount with more decimals than the contract allows: InvalidFacts
        schemes = row.schemes
        if row.acquisition is LEASE and self.eventful and _dated_before(row, self.eventful_until):
            return self.resolved(row, day)
        try:
            first, second, kernels, order_until, dispatches = self._days[id(schemes)][day]
        except KeyError:
            days = self._days.get(id(schemes))
            if days is None:  # not a shared scheme tuple
                return self.resolved(row, day)
            first, second, kernels, order_until, dispatches = self._short_path(schemes, days, day)
        if order is None or order >= order_until:
            if second is None:  # one scheme (most rows)
                return [first(row, NO_BRANCHES, day)]
            if len(kernels) == 2:
                return [first(row, NO_BRANCHES, day), second(row, NO_BRANCHES, day)]
            return [kernel(row, NO_BRANCHES, day) for kernel in kernels]
        if second is None:  # an order date that may open a clause: each scheme's clauses tested
            return [self._dispatched(row, day, order, dispatches[0])]
        return [self._dispatched(row, day, order, dispatch) for dispatch in dispatches]

    def _short_path(self, schemes: tuple[Scheme, ...], days: dict[date, ShortPath], day: date) -> ShortPath:
        dispatches = tuple(self.schemes[scheme].find(day) for scheme in schemes)
        kernels = tuple(d[0] for d in dispatches)
        deadline = max(d[1] for d in dispatches)
        order_until = max(d[2] for d in dispatches)
        if day > deadline:
            order_until = date.min  # past every clause's deadline: none opens, whatever the order
        found = (kernels[0], kernels[1] if len(kernels) > 1 else None, kernels, order_until, dispatches)
        if len(days) < _CACHE_LIMIT:
            days[day] = found
        return found

    def resolved(self, row: Row, day: date) -> list[Outcome]:
        """Each scheme of the row resolved in turn, clauses tested (``day``: its decisive date, checked)."""
        order = row.order_date
        schemes = row.schemes
        shared = self._plans_of.get(id(schemes))
        plans = shared[1] if shared is not None and shared[0] is schemes else [self.schemes[s] for s in schemes]
        results: list[Outcome] = []
        eventful = row.acquisition is LEASE and self.eventful and _dated_before(row, self.eventful_until)
        for plan in plans:
            scheme_day = day
            if eventful and plan.scheme in self.eventful:
                scheme_day = version_for(self.catalogue.timeline(plan.scheme), row)[1]
            try:
                kernel, deadline, order_until, version = plan.cache[scheme_day]
            except KeyError:
                kernel, deadline, order_until, version = plan.find(scheme_day)
            if version is None or order is None or scheme_day > deadline or order >= order_until:
                results.append(kernel(row, NO_BRANCHES, scheme_day))  # no clause can be open
            else:
                results.append(self._with_clauses(row, version, scheme_day, order))
        return results

    def _dispatched(self, row: Row, day: date, order: date, dispatch: Dispatch) -> Outcome:
        """One scheme of a row whose order date may open a clause (``dispatch``: its version on ``day``)."""
        kernel, deadline, order_until, plan = dispatch
        if plan is None or day > deadline or order >= order_until:
            return kernel(row, NO_BRANCHES, day)  # no clause of this scheme's version can be open
        return self._with_clauses(row, plan, day, order)

    def _with_clauses(self, row: Row, plan: VersionPlan, day: date, order: date) -> Outcome:
        """resolver.calculate for a version whose clauses may be open, with the resolver's rules."""
        registered = row.vehicle_previously_registered
        clauses = plan.clauses
        if len(clauses) == 1:  # one clause (most versions that have any): no loop
            clause, kept = clauses[0]
            if not clause_opens(clause, order, day, registered, row.vehicle_category):
                return plan.kernel(row, NO_BRANCHES, day)
            branches = plan.inline[0]
            if branches is not None:
                return plan.kernel(row, branches, day)
            current = plan.kernel(row, NO_BRANCHES, day)
            others = [_kept(clause, kept, row, day, plan)]
        else:
            category = row.vehicle_category
            opened = [i for i, (c, _) in enumerate(clauses) if clause_opens(c, order, day, registered, category)]
            inline = frozenset(b for i in opened if (branches := plan.inline[i]) is not None for b in branches)
            current = plan.kernel(row, inline, day)
            others = [
                _kept(clause, kept, row, day, plan)
                for clause, kept in (clauses[i] for i in opened)
                if clause.keeps is not KeepMode.INLINE
            ]
        if not others:
            return current
        kept_outcome, kept_by, not_on_file = keep(current, others, _amount)
        status = outcome_status(kept_outcome[1] == MISSING_FACTS, kept_outcome[1] == NOT_COVERED, not_on_file)
        amount = kept_outcome[2]
        if status == KEPT_NOT_ON_FILE and not_on_file in REPLACING:
            amount = None  # the version due is not on file: its amount is not known
        kept_id = kept_outcome[4] if kept_by is not None else None
        return (
            plan.scheme_name,
            status,
            amount,
            kept_outcome[3],
            plan.vid,
            (kept_outcome[5]),
            kept_id,
        )

    def explained(self, row: Row, scheme: Scheme) -> Outcome:
        """The explained path for one scheme of a row (counted as a fallback)."""
        self.fallbacks += 1
        return explained_outcome(self.catalogue, row, scheme)


def _dated_before(row: Row, until: date) -> bool:
    """Whether one of the row's dates (first rent, invoice, order) falls before ``until``."""
    return any(d is not None and d < until for d in (row.first_rent_date, row.invoice_date, row.order_date))


def _kept(
    clause: TransitionalClause, kept: VersionPlan | None, row: Row, day: date, plan: VersionPlan
) -> tuple[TransitionalClause, Outcome | None]:
    """The outcome an open « previous », « more favourable » or « in force on D » clause keeps (None: not on file),
    with the resolver's rules (:func:`legislation.resolver.kept_version`): the kept version named by its id, or
    by a date — the scheme's amounts version in force on it."""
    kept_day = clause.kept_day(day)
    if kept_day is not None and plan.scheme_plan is not None:
        found = plan.scheme_plan.find(kept_day)[3]
        kept = found if found is not None and found.version.role is not Role.ENDED else None
    return clause, kept.kernel(row, NO_BRANCHES, clause.computed_as_of(day)) if kept is not None else None


def _amount(outcome: Outcome) -> int | None:
    return outcome[2]


def explained_outcome(catalogue: Catalogue, row: Row, scheme: Scheme) -> Outcome:
    """What the explained path (resolver + calculator with every step) gives, as an :data:`Outcome`."""
    result = explained_calculate(catalogue, row, scheme)
    version = result.resolution.version
    award = result.award
    if version is None:
        return scheme.value, result.status, None, None, None, None, None
    if award is None:  # after the end of the aid: the ending text's id, no amount
        return scheme.value, result.status, None, None, version.id, None, None
    kept_id = award.version_id if result.kept_by is not None else None
    amount = result.amount
    return (
        scheme.value,
        result.status,
        None if amount is None else cents(amount),
        award.eligible,
        version.id,
        award.paragraph,
        kept_id,
    )
