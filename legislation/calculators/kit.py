"""The toolkit every calculator uses — and the two contexts that run the same calculator.

A calculator is written **once**: a module with ``FACTS`` (the request paths it may read) and
``calculate(ctx)``. It reads the purchase's facts from ``ctx.row`` (a :class:`~legislation.row.Row`:
money in integer cents, kW/kWh/km in thousandths, CO2 and months as plain integers), its version's numbers
through ``ctx.money`` / ``ctx.count`` / ``ctx.qty`` / ``ctx.rate``, and says what it applies with
``ctx.step``, ``ctx.read`` (a reading of an ambiguous text) and ``ctx.assume`` (a condition of a text not
on file, taken as asserted); ``ctx.step_once`` shows a step only the first time, and ``ctx.miss`` keeps why a
case is not met, for ``ctx.refuse_missed`` to list. It ends with ``ctx.award``, ``ctx.refuse``,
``ctx.refuse_missed`` or ``ctx.best``.

The same calculator runs in two contexts:

- :class:`Explain` records every step, reading and assumption, formats the texts (from templates whose
  ``{names}`` are the values the calculator passes and the **version's own parameters**, so a corrected
  parameter corrects the sentence too) and returns an :class:`~legislation.award.Award`;
- :class:`Lean` records nothing and formats nothing: its recording methods return at once, and its results
  are the batch path's outcome tuples. This is the fast path; it is not a second copy of any rule.

Both compute with the same integers, so they cannot disagree on an amount. Rounding is in one place:
:func:`rate_terms` (half up, to the cent, exact in integers).
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal
from functools import lru_cache
from operator import attrgetter, itemgetter
from typing import Any, Generic, TypeVar

from legislation.award import Award, Reading, Step
from legislation.enums import Acquisition, PersonKind
from legislation.errors import CatalogueError, MissingFact
from legislation.row import CENTS, THOUSANDTHS, Row
from legislation.versions import Version

T = TypeVar("T")
R = TypeVar("R")

# « dans le cadre d'un contrat d'une durée supérieure ou égale à deux ans »: the lease condition of every
# conditions article of the period (décret 2014-1672 art. 1 and 4; C. énergie D. 251-1 and D. 251-3, premier
# alinéa, whose 2016-2021 wording is confirmed in shared/legal/history but not on file as a version).
LEASE_MIN_MONTHS = 24

LEASE = Acquisition.LEASE
NATURAL_PERSON = PersonKind.NATURAL_PERSON

# What a batch row carries for one scheme: (scheme, status, amount in cents — None when not known —,
# eligible — None when not decided —, the version in force, the paragraph cited in full, the version whose
# award was kept when a transitional clause kept another one).
Outcome = tuple[str, str, int | None, bool | None, str | None, str | None, str | None]
COMPUTED, MISSING_FACTS, NOT_COVERED = "computed", "missing_facts", "not_covered_on_file"


class NotExact(ValueError):
    """A parameter that no integer of its scale represents exactly."""


def rate_terms(rate: Decimal, unit_scale: int = CENTS) -> tuple[int, int, int]:
    """``round half up (rate × base)`` to the cent, in integers: ``(num * base + half) // den``, base ≥ 0.

    With rate × 100 = n/d and a base counted in 1/unit_scale, the amount in cents is v = n·base/(d·unit_scale),
    and floor(v + ½) = (2·n·base + d·unit_scale) // (2·d·unit_scale) — exactly. This is the one rounding of
    the product: the texts fix rates (« 27 % du coût ») without a rounding rule and the paying agency pays
    in euros and cents, so an amount is rounded to the nearest cent, halves up.
    """
    n, d = (rate * CENTS).as_integer_ratio()
    return 2 * n, d * unit_scale, 2 * d * unit_scale


def scaled(value: Decimal, scale: int) -> int | None:
    """``value × scale`` as an int when it is whole (and not absurdly large); None otherwise."""
    product = value * scale
    if product != product.to_integral_value() or not -(10**18) < product < 10**18:
        return None
    return int(product)


V = TypeVar("V")


class Numbers(dict[str, V]):
    """One scale of a version's numbers; a name the version does not give is a :class:`CatalogueError`
    naming the version and the parameter (the calculator reads a number its ``version.toml`` lacks)."""

    def __init__(self, version: Version, what: str, values: Mapping[str, V]) -> None:
        super().__init__(values)
        self.version, self.what = version, what

    def __missing__(self, name: str) -> V:
        if name in self.version.parameters:
            problem = f"{self.version.parameters[name].value} is not a whole number of {self.what}"
        else:
            problem = "the calculator reads it; version.toml does not give it"
        raise CatalogueError(f"versions/{self.version.id}/version.toml", f"parameters.{name}", problem)


class Params:
    """A version's numbers at the scales of the facts they are compared with, computed once per version."""

    __slots__ = ("version", "money", "qty", "count", "rates", "per_kwh")

    def __init__(self, version: Version) -> None:
        self.version = version
        values = {name: p.value for name, p in version.parameters.items()}
        self.money: Numbers[int] = Numbers(version, "cents", _fitting(values, CENTS))  # euros → cents
        self.qty: Numbers[int] = Numbers(version, "thousandths", _fitting(values, THOUSANDTHS))  # kW, kWh, km
        self.count: Numbers[int] = Numbers(version, "units", _fitting(values, 1))  # g/km, months, years: whole numbers
        self.rates: Numbers[tuple[int, int, int]] = Numbers(
            version, "rates", {n: rate_terms(v) for n, v in values.items()}
        )  # « 27 % du coût »
        self.per_kwh: Numbers[tuple[int, int, int]] = Numbers(
            version, "rates", {n: rate_terms(v, THOUSANDTHS) for n, v in values.items()}
        )


    @staticmethod
    def of(version: Version) -> Params:
        """The numbers of a version, computed once per version object (an explained answer is computed often)."""
        found = _PARAMS.get(id(version))
        if found is None or found.version is not version:
            if len(_PARAMS) >= 4096:
                _PARAMS.clear()
            found = _PARAMS[id(version)] = Params(version)
        return found


_PARAMS: dict[int, Params] = {}  # by the version object's identity; each entry keeps its version alive


def _fitting(values: Mapping[str, Decimal], scale: int) -> dict[str, int]:
    found = {}
    for name, value in values.items():
        if (s := scaled(value, scale)) is not None:
            found[name] = s
    return found


@dataclass(frozen=True, slots=True, kw_only=True)
class Candidate:
    """An amount (cents) one paragraph would give; :meth:`Ctx.best` keeps the highest."""

    amount: int
    paragraph: str
    reason: str  # a template (see :class:`Explain`)
    values: Mapping[str, Any] | None = None
    citation: str | None = None  # the full citation when another text gives this amount (a cumulation rule)


class Ctx(Generic[R]):
    """What a calculator sees: the row, the decisive date, the open transitional branches, the numbers.

    The rules themselves (``need``, the money rules, the lease condition…) are here once; the two
    subclasses only differ in what they record and in the shape of their result.
    """

    __slots__ = ("version", "params", "relied", "row", "decisive_date", "open_branches", "scheme", "vid")

    def __init__(self, version: Version, relied: Mapping[str, Version] | None = None) -> None:
        self.version = version
        self.params = Params.of(version)
        self.relied = {vid: Params.of(v) for vid, v in (relied or {}).items()}
        self.scheme = version.scheme.value if version.scheme is not None else ""
        self.vid = version.id
        self.row: Row = Row(acquisition=Acquisition.PURCHASE)
        self.decisive_date = date.min
        self.open_branches: frozenset[str] = frozenset()

    def start(self, row: Row, decisive_date: date, open_branches: frozenset[str]) -> None:
        """Point the context at one row (a :class:`Lean` context is reused from row to row)."""
        self.row = row
        self.decisive_date = decisive_date
        self.open_branches = open_branches

    # -- facts and numbers ------------------------------------------------------------------------

    def cite(self, paragraph: str) -> str:
        """« C. énergie, art. D. 251-7, 1° »."""
        return f"{self.version.citation}, {paragraph}" if paragraph else self.version.citation

    def need(self, value: T | None, field: str, paragraph: str, citation: str | None = None) -> T:
        """The fact's value, or a :class:`MissingFact` naming the field and the paragraph that asks for it
        (``citation``: the full citation of another text that asks for it, e.g. a conditions article)."""
        if value is None:
            raise MissingFact(field, citation or self.cite(paragraph))
        return value

    def money(self, name: str) -> int:
        """A price, amount or cap of the version, in cents."""
        return self.params.money[name]

    def qty(self, name: str) -> int:
        """A power, energy or distance of the version, in thousandths (kW, kWh, km)."""
        return self.params.qty[name]

    def count(self, name: str) -> int:
        """A whole number of the version: g/km, months, years."""
        return self.params.count[name]

    def of(self, version_id: str) -> Params:
        """The numbers of a text this version relies on (``relies_on``), e.g. its conditions article."""
        return self.relied[version_id]

    def is_open(self, branch: str) -> bool:
        """Whether an inline transitional branch of this version is open for the purchase."""
        return branch in self.open_branches

    # -- money rules --------------------------------------------------------------------------------

    def cost_with_battery(self, paragraph: str) -> int:
        """« coût d'acquisition toutes taxes comprises, augmenté le cas échéant du coût de la batterie si
        celle-ci est prise en location » (cents)."""
        row = self.row
        return self.need(row.vehicle_acquisition_cost, "vehicle.acquisition_cost", paragraph) + (
            row.vehicle_battery_rental_cost
        )

    def rate(self, paragraph: str, rate: str, base: int, base_label: str) -> int:
        """``rate`` × ``base`` (cents), rounded half up to the cent."""
        n, h, d = self.params.rates[rate]
        return (n * base + h) // d

    def per_unit(self, paragraph: str, per_unit: str, quantity: int, unit: str) -> int:
        """``per_unit`` euros for each ``unit`` of a quantity in thousandths (« 250 euros par kilowattheure »)."""
        n, h, d = self.params.per_kwh[per_unit]
        return (n * quantity + h) // d

    def cap(self, paragraph: str, amount: int, cap: int, label: str) -> int:
        """« dans la limite de X euros » / « sans être supérieur à X euros »: the lower of the two."""
        return cap if amount > cap else amount

    def floor(self, paragraph: str, amount: int, floor: int, label: str) -> int:
        """« sans être inférieur à X euros »: the higher of the two."""
        return floor if amount < floor else amount

    def is_short_lease(self) -> bool:
        """A lease the request says lasts less than two years (an unknown duration is not)."""
        row = self.row
        months = row.lease_duration_months
        return row.acquisition is LEASE and months is not None and months < LEASE_MIN_MONTHS

    def lease_refusal(self, citation: str) -> R | None:
        """The two-year lease condition of a conditions article not on file (``citation``): a lease the request
        says is shorter is refused; a lease whose duration is not given is assumed to last two years or more."""
        if self.row.acquisition is not LEASE:
            return None
        months = self.row.lease_duration_months
        if months is None:
            self.assume(
                f"The lease lasts two years or more ({citation}: « dans le cadre d'un contrat d'une durée "
                "supérieure ou égale à deux ans »); the request does not give its duration."
            )
            return None
        if months < LEASE_MIN_MONTHS:
            self.step_at(
                citation, "a lease of {months} months: the aid needs a lease of two years or more", months=months
            )
            return self.refuse(
                "",
                "a lease of {months} months is shorter than the two years {citation} requires",
                citation,
                months=months,
                citation=citation,
            )
        self.step_at(citation, "lease of {months} months ≥ two years ({citation})", months=months, citation=citation)
        return None

    def is_legal_person_for_caps(self, paragraph: str) -> bool:
        """Natural versus legal person for a cap; the State counts as a legal person (reading stated)."""
        kind = self.need(self.row.buyer_person_kind, "buyer.person_kind", paragraph)
        if kind is PersonKind.STATE_ADMINISTRATION:
            self.read(
                "state-is-legal-person",
                "An « administration de l'Etat » is eligible (D. 251-1) but the text only sets caps for a "
                "« personne physique » or a « personne morale »; the State is a legal person of public law, "
                "so the legal-person cap applies.",
            )
            return True
        return kind is PersonKind.LEGAL_PERSON

    # -- what the two contexts do differently -------------------------------------------------------

    def step(self, paragraph: str, text: str, amount: int | None = None, /, **values: Any) -> None:
        """A rule applied, citing its paragraph of this version (``text``: a template)."""

    def step_at(self, citation: str, text: str, amount: int | None = None, /, **values: Any) -> None:
        """A step that applies another text (e.g. the conditions article): the full citation is given."""

    def assume(self, text: str) -> None:
        """A condition of a text not on file, taken as asserted by the request."""

    def read(self, reading_id: str, text: str) -> None:
        """The reading chosen where a text is ambiguous."""

    def step_once(self, paragraph: str, text: str, /, **values: Any) -> None:
        """A step shown only the first time the calculation reaches it (a fact two paragraphs read)."""

    def miss(self, template: str, /, **values: Any) -> None:
        """Why one case of a paragraph is not met: kept for :meth:`refuse_missed`, which lists them."""

    def refuse_missed(self, paragraph: str) -> R:
        """The refusal when none of the cases examined is met, its reason the :meth:`miss` recorded (the lean
        contexts record none: their refusal has no reason)."""
        return self.refuse(paragraph, "")

    def award(self, amount: int, paragraph: str, reason: str, /, **values: Any) -> R:
        raise NotImplementedError

    def award_at(self, citation: str, amount: int, reason: str, /, **values: Any) -> R:
        """An award another text gives (full ``citation``): the aid kept where two aids cannot be cumulated."""
        raise NotImplementedError

    def refuse(self, paragraph: str, reason: str, citation_override: str | None = None, /, **values: Any) -> R:
        raise NotImplementedError

    def not_covered(self, paragraph: str, reason: str, /, **values: Any) -> R:
        """The text on file does not cover the vehicle, but a text not on file may: the amount is not known."""
        raise NotImplementedError

    def best(self, candidates: list[Candidate], why: str) -> R:
        """Keep the highest of several paragraphs the purchase meets (the first of equals); show the others."""
        kept = candidates[0]
        for other in candidates[1:]:
            if other.amount > kept.amount:
                kept = other
        return self._kept(kept)

    def _kept(self, kept: Candidate) -> R:
        if kept.citation is not None:
            return self.award_at(kept.citation, kept.amount, kept.reason, **(kept.values or {}))
        return self.award(kept.amount, kept.paragraph, kept.reason, **(kept.values or {}))

    def reworded(self, result: R, prefix: str) -> R:
        """The same result, its reason preceded by ``prefix`` (how an article applying another words it)."""
        return result


class Lean(Ctx[Outcome]):
    """The fast context: no step, no reading, no text formatted; results are batch outcome tuples."""

    __slots__ = ()

    def award(self, amount: int, paragraph: str, reason: str, /, **values: Any) -> Outcome:
        return self.scheme, COMPUTED, amount, True, self.vid, self.cite(paragraph), None

    def award_at(self, citation: str, amount: int, reason: str, /, **values: Any) -> Outcome:
        return self.scheme, COMPUTED, amount, True, self.vid, citation, None

    def refuse(self, paragraph: str, reason: str, citation_override: str | None = None, /, **values: Any) -> Outcome:
        return self.scheme, COMPUTED, 0, False, self.vid, citation_override or self.cite(paragraph), None

    def not_covered(self, paragraph: str, reason: str, /, **values: Any) -> Outcome:
        return self.scheme, NOT_COVERED, None, None, self.vid, self.cite(paragraph), None

    def missing(self, missing: MissingFact) -> Outcome:
        """The « missing facts » outcome: the amount is not known."""
        return self.scheme, MISSING_FACTS, None, None, self.vid, missing.paragraph, None


# The facts every calculator may read without declaring them: how the purchase was made and its dates.
ALWAYS_READABLE = frozenset({"acquisition", "order_date", "invoice_date", "first_rent_date", "schemes"})


class DeclaredFacts:
    """A row that lets a calculator read only the facts its ``FACTS`` declares (the explaining context uses it,
    so that every explained answer proves the declaration; the lean context reads the row itself).

    :func:`declared_facts` makes one subclass per declaration, a tuple of the declared facts only: reading one is an
    attribute read (its place in the tuple); reading another — a tuple's own ``count`` or ``index`` included — ends
    in :meth:`__getattr__`, which names it."""

    __slots__ = ()
    calculator = ""

    def __getattr__(self, name: str) -> Any:
        raise UndeclaredFact(f"calculator {self.calculator} reads {name}, which its FACTS does not declare")


class _Undeclared:
    """A tuple's own attribute on a row of declared facts, read as any undeclared fact: :class:`UndeclaredFact`."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        if instance is None:
            return self
        return DeclaredFacts.__getattr__(instance, self.name)


@lru_cache(maxsize=256)
def declared_facts(allowed: frozenset[str], calculator: str) -> tuple[type[DeclaredFacts], Callable[[Row], Any]]:
    """The class of the rows a calculator with these declared facts sees, and the reading of those facts off a row
    (one call: their values in the class's order). The class is a tuple of the facts, each read by its place, not a
    slotted object set one attribute at a time (measured with ``timeit``, a declaration of 12 facts, three of them
    read: 1.01 -> 0.54 µs a row; every result ``vigueur batch --reasons`` explains is restricted so)."""
    names = tuple(sorted(allowed))
    namespace: dict[str, Any] = {"__slots__": (), "calculator": calculator}
    namespace.update((own, _Undeclared()) for own in ("count", "index"))
    namespace.update((name, property(itemgetter(i))) for i, name in enumerate(names))
    kind = type("DeclaredFacts", (tuple, DeclaredFacts), namespace)
    read = attrgetter(*names)
    return kind, (read if len(names) > 1 else lambda row: (read(row),))


def restrict(row: Row, allowed: frozenset[str], calculator: str) -> DeclaredFacts:
    """The row's declared facts, as the explaining context hands them to the calculator."""
    kind, read = declared_facts(allowed, calculator)
    return tuple.__new__(kind, read(row))  # type: ignore[type-var]


class UndeclaredFact(AttributeError):
    """A calculator read a fact its ``FACTS`` does not declare (a bug of the calculator, never of the request)."""


class Explain(Ctx[Award]):
    """The explaining context: every step cited, every reading and assumption kept, an :class:`Award`."""

    __slots__ = ("steps", "assumptions", "readings", "alternatives", "allowed", "misses", "missed")

    def __init__(
        self, version: Version, relied: Mapping[str, Version] | None = None, facts: tuple[str, ...] | None = None
    ) -> None:
        super().__init__(version, relied)
        self.allowed = None if facts is None else readable(facts)
        self.steps: list[Step] = []
        self.assumptions: list[str] = []
        self.readings: list[Reading] = []
        self.alternatives: list[Step] = []
        self.misses: list[str] = []  # the templates of :meth:`miss`, in order, and their values
        self.missed: dict[str, Any] = {}

    def start(self, row: Row, decisive_date: date, open_branches: frozenset[str]) -> None:
        super().start(row, decisive_date, open_branches)
        if self.allowed is not None:
            self.row = restrict(row, self.allowed, self.version.calculator or "")  # type: ignore[assignment]

    def text(self, template: str, values: Mapping[str, Any]) -> str:
        """A template filled with the calculator's values and the version's parameters (see :class:`Texts`)."""
        return Texts(self).format(template, **values)

    def step(self, paragraph: str, text: str, amount: int | None = None, /, **values: Any) -> None:
        self.step_at(self.cite(paragraph), text, amount, **values)

    def step_at(self, citation: str, text: str, amount: int | None = None, /, **values: Any) -> None:
        self.steps.append(Step(citation=citation, text=self.text(text, values), amount=_euros(amount)))

    def assume(self, text: str) -> None:
        if text not in self.assumptions:
            self.assumptions.append(text)

    def read(self, reading_id: str, text: str) -> None:
        if all(r.id != reading_id for r in self.readings):
            self.readings.append(Reading(id=reading_id, text=text))

    def step_once(self, paragraph: str, text: str, /, **values: Any) -> None:
        step = Step(citation=self.cite(paragraph), text=self.text(text, values), amount=None)
        if step not in self.steps:
            self.steps.append(step)

    def miss(self, template: str, /, **values: Any) -> None:
        self.misses.append(template)
        self.missed.update(values)

    def refuse_missed(self, paragraph: str) -> Award:
        return self.refuse(paragraph, "; ".join(self.misses), **self.missed)

    def rate(self, paragraph: str, rate: str, base: int, base_label: str) -> int:
        amount = super().rate(paragraph, rate, base, base_label)
        self.step(
            paragraph, "{" + rate + ":%} × " + base_label + " {base:€} = {amount:€}", amount, base=base, amount=amount
        )
        return amount

    def per_unit(self, paragraph: str, per_unit: str, quantity: int, unit: str) -> int:
        amount = super().per_unit(paragraph, per_unit, quantity, unit)
        self.step(
            paragraph,
            "{" + per_unit + "} € per " + unit + " × {quantity:q} " + unit + " = {amount:€}",
            amount,
            quantity=quantity,
            amount=amount,
        )
        return amount

    def cap(self, paragraph: str, amount: int, cap: int, label: str) -> int:
        if amount > cap:
            self.step(paragraph, label + ": {amount:€} > {cap:€}, the cap applies", cap, amount=amount, cap=cap)
            return cap
        self.step(paragraph, label + ": {amount:€} ≤ {cap:€}, the cap does not bind", amount, amount=amount, cap=cap)
        return amount

    def floor(self, paragraph: str, amount: int, floor: int, label: str) -> int:
        if amount < floor:
            self.step(
                paragraph, label + ": {amount:€} < {floor:€}, the floor applies", floor, amount=amount, floor=floor
            )
            return floor
        self.step(
            paragraph, label + ": {amount:€} ≥ {floor:€}, the floor does not bind", amount, amount=amount, floor=floor
        )
        return amount

    def best(self, candidates: list[Candidate], why: str) -> Award:
        kept = candidates[0]
        for other in candidates[1:]:
            if other.amount > kept.amount:
                kept = other
        for other in candidates:
            if other is not kept:
                self.alternatives.append(
                    Step(
                        citation=other.citation or self.cite(other.paragraph),
                        text=self.text(other.reason, other.values or {}),
                        amount=_euros(other.amount),
                    )
                )
        if len(candidates) > 1:
            self.read("alternative-cases-most-favourable", why)
        return self._kept(kept)

    def award(self, amount: int, paragraph: str, reason: str, /, **values: Any) -> Award:
        return self.result(_euros(amount), True, self.cite(paragraph), self.text(reason, values))

    def award_at(self, citation: str, amount: int, reason: str, /, **values: Any) -> Award:
        return self.result(_euros(amount), True, citation, self.text(reason, values))

    def refuse(self, paragraph: str, reason: str, citation_override: str | None = None, /, **values: Any) -> Award:
        return self.result(Decimal("0.00"), False, citation_override or self.cite(paragraph), self.text(reason, values))

    def not_covered(self, paragraph: str, reason: str, /, **values: Any) -> Award:
        return self.result(None, None, self.cite(paragraph), self.text(reason, values), not_covered=True)

    def missing(self, missing: MissingFact) -> Award:
        """The award of a calculation a missing fact stopped: the amount is not known."""
        return Award(
            version_id=self.version.id,
            amount=None,
            eligible=None,
            reason=str(missing),
            paragraph=missing.paragraph,
            steps=tuple(self.steps),
            assumptions=tuple(self.assumptions),
            readings=tuple(self.readings),
            missing_facts=(missing.field or "",),
        )

    def reworded(self, result: Award, prefix: str) -> Award:
        return replace(result, reason=f"{prefix}{result.reason}")

    def result(
        self, amount: Decimal | None, eligible: bool | None, citation: str, reason: str, *, not_covered: bool = False
    ) -> Award:
        return Award(
            version_id=self.version.id,
            amount=amount,
            eligible=eligible,
            reason=reason,
            paragraph=citation,
            steps=tuple(self.steps),
            assumptions=tuple(self.assumptions),
            readings=tuple(self.readings),
            alternatives=tuple(self.alternatives),
            not_covered=not_covered,
        )


@lru_cache(maxsize=256)
def readable(facts: tuple[str, ...]) -> frozenset[str]:
    """The row fields a calculator declaring ``facts`` may read."""
    return ALWAYS_READABLE | {row_field(f) for f in facts}


def row_field(path: str) -> str:
    """``vehicle.acquisition_cost`` → ``vehicle_acquisition_cost``; ``scrapped_vehicle.energy`` →
    ``scrapped_energy``; ``scrapped_vehicle`` (whether there is one) stays as it is."""
    if path.startswith("scrapped_vehicle."):
        return "scrapped_" + path.split(".", 1)[1]
    return path.replace(".", "_")


def _euros(cents: int | None) -> Decimal | None:
    return None if cents is None else Decimal(cents).scaleb(-2)


_FORMATTER = string.Formatter()


@lru_cache(maxsize=8192)
def parsed(template: str) -> tuple[tuple[str, str | None, str], ...]:
    """A template cut once into (literal text, field name or None, format spec)."""
    return tuple((literal, name, spec or "") for literal, name, spec, _ in _FORMATTER.parse(template))


class Texts:
    """Fills a step's or a reason's template: ``{name}`` is a value the calculator passed, or else a parameter
    of the version, so that a sentence always shows the number actually used.

    Format specs: ``€`` money (a value in cents, or a parameter in euros) as « 7 000 € » / « 5 400.27 € »;
    ``%`` a rate parameter as « 27 % »; ``q`` a quantity in thousandths (kW, kWh, km) as « 2.5 ».
    """

    __slots__ = ("ctx",)

    def __init__(self, ctx: Ctx[Any]) -> None:
        self.ctx = ctx

    def format(self, template: str, /, **values: Any) -> str:
        out: list[str] = []
        for literal, name, spec in parsed(template):
            out.append(literal)
            if name is not None:
                out.append(self.format_field(self.get_value(name, (), values), spec))
        return "".join(out)

    def get_value(self, key: str, args: Any, kwargs: Mapping[str, Any]) -> Any:
        if key in kwargs:
            return kwargs[key]
        parameters = self.ctx.version.parameters
        if key in parameters:
            return parameters[key].value
        raise KeyError(f"template field {key!r}: neither a value passed nor a parameter of {self.ctx.version.id}")

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec == "€":
            euros = Decimal(value).scaleb(-2) if isinstance(value, int) else Decimal(value)
            return f"{_grouped(euros)} €"
        if format_spec == "%":
            return f"{_plain(Decimal(value) * 100)} %"
        if format_spec == "q":
            return _plain(Decimal(value).scaleb(-3) if isinstance(value, int) else Decimal(value))
        if isinstance(value, Decimal):
            return _grouped(value) if value >= 1000 else _plain(value)
        if isinstance(getattr(value, "value", None), str):
            return str(value.value)  # an enum: its code name
        return format(value, format_spec)


def _plain(value: Decimal) -> str:
    text = f"{value.normalize():f}"
    return text


def _grouped(value: Decimal) -> str:
    """« 7 000 », « 5 400.27 »: thousands grouped by a space, cents only when there are some."""
    whole = value == value.to_integral_value()
    text = f"{value:,.0f}" if whole else f"{value:,.2f}"
    return text.replace(",", " ")


__all__ = [
    "COMPUTED",
    "Candidate",
    "Ctx",
    "Explain",
    "LEASE_MIN_MONTHS",
    "Lean",
    "MISSING_FACTS",
    "NotExact",
    "Outcome",
    "Params",
    "rate_terms",
]
