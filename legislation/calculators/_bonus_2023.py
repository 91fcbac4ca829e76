"""Shared rules of the car bonus from 2023-01-01 to 2025-06-30 (a helper, not a calculator).

From décret n° 2022-1761 (in force 2023-01-01) the bonus écologique is a bonus for new **electric or hydrogen
cars** only (history/era-2021-2025.md §1a rows G–J): no plug-in hybrid, nothing above the price ceiling
(47 000 €), a mass « inférieure à 2,4 tonnes », 27 % of the cost capped at an amount that depends on who buys
(natural or legal person) and, for a natural person, on the « revenu fiscal de référence par part »; from
2023-12-16 the model must be on the list of eligible models (score environnemental); from 2024-02-14 only
natural persons (D. 251-1 I as rewritten by décret n° 2024-102, official extract: « attribuée à toute personne
physique majeure »). Where the amounts sit: D. 251-1 II (décret n° 2024-1084, art. 1 amends « Le II de l'article
D. 251-1 … dans la limite de 4 000 euros si le véhicule est acquis ou loué par une personne physique »), read as
in place from 2023-01-01, when décret n° 2022-1761 art. 1 rewrote D. 251-1 to D. 251-9 (progesparc, flotauto;
likely).

No verbatim wording of D. 251-1 II is on file before 2024-12-02: each rule cites the barème line it applies,
never an invented « 1° ». Vans, two- and three-wheelers, M2/N2 and the other categories the 2023–2024 texts
still aided have no amount in the research: they are « not covered », their amount unknown (never 0.00).
"""

from __future__ import annotations

from legislation.calculators.kit import Ctx, R
from legislation.enums import Energy, PersonKind, VehicleCategory

FACTS = (
    "acquisition",
    "buyer.bonus_in_last_three_years",
    "buyer.person_kind",
    "buyer.reference_income_per_share",
    "lease_duration_months",
    "vehicle.acquisition_cost",
    "vehicle.battery_rental_cost",
    "vehicle.category",
    "vehicle.energy",
    "vehicle.mass_kg",
    "vehicle.previously_registered",
)
SCORE_FACTS = ("vehicle.environmental_score_eligible",)
DEMO_FACTS = (
    "buyer.dealer_demonstration",
    "buyer.leases_out_months",
    "vehicle.demonstration",
    "vehicle.first_registration_date",
)

CAR = VehicleCategory.PASSENGER_CAR
ELECTRIC, HYDROGEN = Energy.ELECTRIC, Energy.HYDROGEN
NATURAL = PersonKind.NATURAL_PERSON

D251_1 = "C. énergie, art. D. 251-1"
CARS = "barème: new electric or hydrogen cars"
WHO = "barème: natural and legal persons"
INCOME = "barème: natural persons, by « revenu fiscal de référence par part »"
SCORE = "barème: score environnemental (list of eligible models, arrêté du 14 décembre 2023)"
THREE_YEARS = "barème: one bonus per natural person every three years"

OTHER_CATEGORIES = (
    "a vehicle of category {category}: the research on file gives no amount of this version for it (only new "
    "electric or hydrogen cars, M1): not covered, the amount is not known"
)
THREE_YEARS_READING = (
    "« one bonus per person every 3 years » (history/era-2021-2025.md §1a row G, confirmed): read, with the "
    "notices of décret 2022-1761 (avere-france, caradisiac), as a rule for a natural person — « une personne "
    "physique ne peut bénéficier du bonus qu'une fois tous les trois ans »; the request says whether the buyer "
    "already had it in the three years before (buyer.bonus_in_last_three_years)."
)
ASSUME_D251_1 = (
    "The vehicle and the buyer meet the conditions of D. 251-1 other than those applied here (buyer domiciled or "
    "established in France; never registered before; registered in France in a definitive series; not sold "
    "within the year or the first 6 000 km): the wording of D. 251-1 is not on file for this period."
)


def start(ctx: Ctx[R]) -> R | None:
    """The lease's two years, then the category (only cars are computed), then the car's conditions."""
    if (short := ctx.lease_refusal(D251_1)) is not None:
        return short
    category = ctx.need(ctx.row.vehicle_category, "vehicle.category", CARS)
    if category is not CAR:
        return ctx.not_covered(CARS, OTHER_CATEGORIES, category=category)
    ctx.assume(ASSUME_D251_1)
    energy = ctx.need(ctx.row.vehicle_energy, "vehicle.energy", CARS)
    if energy is not ELECTRIC and energy is not HYDROGEN:
        return ctx.refuse(
            CARS,
            "energy {energy}: only electric or hydrogen cars are aided (no plug-in hybrid, no thermal car)",
            energy=energy,
        )
    cost = ctx.cost_with_battery(CARS)
    if cost > ctx.money("ev_price_max"):
        return ctx.refuse(CARS, "cost {cost:€} incl. battery > {ev_price_max:€}: nothing above it", cost=cost)
    ctx.step(CARS, "cost {cost:€} incl. battery ≤ {ev_price_max:€}", cost=cost)
    mass = ctx.need(ctx.row.vehicle_mass_kg, "vehicle.mass_kg", CARS)
    if mass >= ctx.qty("mass_max"):  # tonnes in thousandths = kilograms
        return ctx.refuse(CARS, "mass {mass} kg: not « inférieure à » {mass_max} t", mass=mass)
    ctx.step(CARS, "mass {mass} kg < {mass_max} t", mass=mass)
    return None


def score(ctx: Ctx[R]) -> R | None:
    """From 2023-12-16: the model must be on the list of eligible models (score environnemental)."""
    if not ctx.need(ctx.row.vehicle_environmental_score_eligible, "vehicle.environmental_score_eligible", SCORE):
        return ctx.refuse(SCORE, "the model is not on the list of eligible models (score environnemental)")
    ctx.step(SCORE, "the model is on the list of eligible models")
    return None


def three_years(ctx: Ctx[R]) -> R | None:
    """2023: a natural person who already had the bonus in the three years before is refused."""
    ctx.read("bonus-2023-three-years", THREE_YEARS_READING)
    if ctx.need(ctx.row.buyer_bonus_in_last_three_years, "buyer.bonus_in_last_three_years", THREE_YEARS):
        return ctx.refuse(THREE_YEARS, "the buyer already had the bonus in the three years before")
    ctx.step(THREE_YEARS, "no bonus in the three years before")
    return None


def capped(ctx: Ctx[R], paragraph: str, cap_name: str, cost: int, who: str) -> R:
    """27 % of the cost incl. battery, capped at the version's ``cap_name``."""
    amount = ctx.rate(paragraph, "ev_rate", cost, "cost incl. battery")
    cap = ctx.money(cap_name)
    amount = ctx.cap(paragraph, amount, cap, "cap: " + who)
    return ctx.award(
        amount, paragraph, "{ev_rate:%} of {cost:€} capped at {cap:€} ({who})", cost=cost, cap=cap, who=who
    )


def income(ctx: Ctx[R]) -> int:
    """The buyer's « revenu fiscal de référence par part » (cents)."""
    return ctx.need(ctx.row.buyer_reference_income_per_share, "buyer.reference_income_per_share", INCOME)


def three_years_not_shown(ctx: Ctx[R]) -> R | None:
    """From 2024-02-14 the research does not say whether « one bonus per person every three years » still held:
    a buyer who had it is « not covered » (amount unknown); otherwise nothing is asked."""
    if ctx.row.buyer_bonus_in_last_three_years:
        return ctx.not_covered(
            THREE_YEARS,
            "the buyer had the bonus in the three years before: whether the 2023 rule (one bonus per natural person "
            "every three years) still applies to this version is not in the sources on file",
        )
    return None


def natural_persons_only(ctx: Ctx[R]) -> R | None:
    """From 2024-02-14, D. 251-1 I: « attribuée à toute personne physique majeure » (official extract)."""
    kind = ctx.need(ctx.row.buyer_person_kind, "buyer.person_kind", WHO)
    if kind is not NATURAL:
        return ctx.refuse(
            WHO,
            "a {kind}: from 2024-02-14 the car bonus of D. 251-1 is for a natural person only (« toute personne "
            "physique majeure »)",
            kind=kind,
        )
    return None

