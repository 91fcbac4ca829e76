"""The toolkit every calculator uses: facts with their field path, cited steps, rates, caps, floors.

A calculator is a module with ``PARAMETERS`` (the names it reads from its version's data) and
``calculate(ctx) -> Award``. It reads facts through :meth:`Ctx.need`, so a missing fact becomes an
answer that names it, and records each rule it applies with :meth:`Ctx.step`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal
from typing import TypeVar

from legislation.award import Award, Reading, Step
from legislation.enums import Acquisition, PersonKind
from legislation.errors import MissingFact
from legislation.facts import Purchase
from legislation.money import ZERO, round_cents
from legislation.versions import Version

T = TypeVar("T")

# « dans le cadre d'un contrat d'une durée supérieure ou égale à deux ans »: the lease condition of every
# conditions article of the period (décret 2014-1672 art. 1 and 4; C. énergie D. 251-1 and D. 251-3, premier
# alinéa, whose 2016-2021 wording is confirmed in shared/legal/history but not on file as a version).
LEASE_MIN_MONTHS = 24


@dataclass(frozen=True, slots=True, kw_only=True)
class Candidate:
    """An amount one paragraph would give; calculators compare candidates when several apply."""

    amount: Decimal
    paragraph: str
    reason: str


class Ctx:
    """The explained evaluation of one version's barème for one purchase."""

    __slots__ = (
        "version",
        "purchase",
        "vehicle",
        "buyer",
        "decisive_date",
        "open_branches",
        "relied",
        "steps",
        "assumptions",
        "readings",
        "alternatives",
    )

    def __init__(
        self,
        version: Version,
        purchase: Purchase,
        decisive_date: date,
        open_branches: frozenset[str],
        relied: Mapping[str, Version] | None = None,
    ) -> None:
        self.version = version
        self.relied: Mapping[str, Version] = relied or {}
        self.purchase = purchase
        self.vehicle = purchase.vehicle
        self.buyer = purchase.buyer
        self.decisive_date = decisive_date
        self.open_branches = open_branches
        self.steps: list[Step] = []
        self.assumptions: list[str] = []
        self.readings: list[Reading] = []
        self.alternatives: list[Step] = []

    def cite(self, paragraph: str) -> str:
        """« C. énergie, art. D. 251-7, 1° »."""
        return f"{self.version.citation}, {paragraph}" if paragraph else self.version.citation

    def need(self, value: T | None, field: str, paragraph: str) -> T:
        """The fact's value, or a :class:`MissingFact` naming the field and the paragraph."""
        if value is None:
            raise MissingFact(field, self.cite(paragraph))
        return value

    def p(self, name: str) -> Decimal:
        """A parameter of the version (an amount, rate or threshold of its text)."""
        return self.version.parameters[name].value

    def p_of(self, version_id: str, name: str) -> Decimal:
        """A parameter of a text this version relies on (``relies_on``), e.g. the conditions article."""
        return self.relied[version_id].parameters[name].value

    def step(self, paragraph: str, text: str, amount: Decimal | None = None) -> None:
        self.steps.append(Step(citation=self.cite(paragraph), text=text, amount=amount))

    def step_at(self, citation: str, text: str, amount: Decimal | None = None) -> None:
        """A step that applies another text (e.g. the conditions article): the full citation is given."""
        self.steps.append(Step(citation=citation, text=text, amount=amount))

    def assume(self, text: str) -> None:
        if text not in self.assumptions:
            self.assumptions.append(text)

    def read(self, reading_id: str, text: str) -> None:
        if all(r.id != reading_id for r in self.readings):
            self.readings.append(Reading(id=reading_id, text=text))

    def is_open(self, branch: str) -> bool:
        """Whether an inline transitional branch of this version is open for the purchase."""
        return branch in self.open_branches

    def lease_refusal(self, citation: str) -> Award | None:
        """The two-year lease condition of a conditions article not on file (``citation``): a lease the request
        says is shorter is refused; a lease whose duration is not given is assumed to last two years or more."""
        if self.purchase.acquisition is not Acquisition.LEASE:
            return None
        months = self.purchase.lease_duration_months
        if months is None:
            self.assume(
                f"The lease lasts two years or more ({citation}: « dans le cadre d'un contrat d'une durée "
                "supérieure ou égale à deux ans »); the request does not give its duration."
            )
            return None
        if months < LEASE_MIN_MONTHS:
            self.step_at(citation, f"a lease of {months} months: the aid needs a lease of two years or more")
            refused = self.refuse("", f"a lease of {months} months is shorter than the two years {citation} requires")
            return replace(refused, paragraph=citation)
        self.step_at(citation, f"lease of {months} months ≥ two years ({citation})")
        return None

    # -- money rules -------------------------------------------------------------------------

    def cost_with_battery(self, paragraph: str) -> Decimal:
        """« coût d'acquisition toutes taxes comprises, augmenté le cas échéant du coût de la batterie
        si celle-ci est prise en location »."""
        cost = self.need(self.vehicle.acquisition_cost, "vehicle.acquisition_cost", paragraph)
        return cost + self.vehicle.battery_rental_cost

    def rate(self, paragraph: str, rate: str, base: Decimal, base_label: str) -> Decimal:
        """``rate`` × ``base``, recorded as a step."""
        amount = round_cents(self.p(rate) * base)
        self.step(paragraph, f"{_pct(self.p(rate))} × {base_label} {base} € = {amount} €", amount)
        return amount

    def per_unit(self, paragraph: str, per_unit: str, quantity: Decimal, unit: str) -> Decimal:
        """``per_unit`` euros for each ``unit`` (« 250 euros par kilowattheure »), recorded as a step."""
        amount = round_cents(self.p(per_unit) * quantity)
        self.step(paragraph, f"{self.p(per_unit)} € per {unit} × {quantity} {unit} = {amount} €", amount)
        return amount

    def cap(self, paragraph: str, amount: Decimal, cap: Decimal, label: str) -> Decimal:
        """« dans la limite de X euros » / « sans être supérieur à X euros »: the lower of the two."""
        if amount > cap:
            self.step(paragraph, f"{label}: {amount} € > {cap} €, the cap applies", cap)
            return cap
        self.step(paragraph, f"{label}: {amount} € ≤ {cap} €, the cap does not bind", amount)
        return amount

    def floor(self, paragraph: str, amount: Decimal, floor: Decimal, label: str) -> Decimal:
        """« sans être inférieur à X euros »: the higher of the two."""
        if amount < floor:
            self.step(paragraph, f"{label}: {amount} € < {floor} €, the floor applies", floor)
            return floor
        self.step(paragraph, f"{label}: {amount} € ≥ {floor} €, the floor does not bind", amount)
        return amount

    def is_legal_person_for_caps(self, paragraph: str) -> bool:
        """Natural versus legal person for a cap; the State counts as a legal person (reading stated)."""
        kind = self.need(self.buyer.person_kind, "buyer.person_kind", paragraph)
        if kind is PersonKind.STATE_ADMINISTRATION:
            self.read(
                "state-is-legal-person",
                "An « administration de l'Etat » is eligible (D. 251-1) but the text only sets caps for a "
                "« personne physique » or a « personne morale »; the State is a legal person of public law, "
                "so the legal-person cap applies.",
            )
            return True
        return kind is PersonKind.LEGAL_PERSON

    # -- results -----------------------------------------------------------------------------

    def award(self, amount: Decimal, paragraph: str, reason: str) -> Award:
        return self._result(round_cents(amount), True, paragraph, reason)

    def refuse(self, paragraph: str, reason: str) -> Award:
        return self._result(ZERO, False, paragraph, reason)

    def best(self, candidates: list[Candidate], why: str) -> Award:
        """Keep the highest of several paragraphs the purchase meets; show the others."""
        kept = max(candidates, key=lambda c: c.amount)
        for other in candidates:
            if other is not kept:
                self.alternatives.append(
                    Step(citation=self.cite(other.paragraph), text=other.reason, amount=other.amount)
                )
        if len(candidates) > 1:
            self.read("alternative-cases-most-favourable", why)
        return self.award(kept.amount, kept.paragraph, kept.reason)

    def _result(self, amount: Decimal, eligible: bool, paragraph: str, reason: str) -> Award:
        return Award(
            version_id=self.version.id,
            amount=amount,
            eligible=eligible,
            reason=reason,
            paragraph=self.cite(paragraph),
            steps=tuple(self.steps),
            assumptions=tuple(self.assumptions),
            readings=tuple(self.readings),
            alternatives=tuple(self.alternatives),
        )


def _pct(rate: Decimal) -> str:
    return f"{(rate * 100).normalize():f} %"
