"""Prime à la conversion — C. énergie, art. D. 251-8, as rewritten by décret n° 2022-1761 du 30 décembre 2022.

NOR ENER2236413D, JORF n° 0303 du 31 décembre 2022. In force 2023-01-01 → 2024-02-13 (décret n° 2024-102 rewrote
D. 251-8 as anti-abuse rules from 2024-02-14; the prime moved to other articles). No wording of this version is on
file: graded ``secondary``. What the research gives (history/era-2021-2025.md §1b row h, likely; the official notice
of décret 2022-1761 agrees: « il augmente le montant maximal de la prime à la conversion … pour les ménages des deux
premiers déciles de revenus et les ménages des cinq premiers déciles de revenus gros rouleurs ; il supprime la prime à
la conversion … pour les ménages des deux derniers déciles de revenus »):

- only for a natural person whose RFR/part is at most 22 983 €: above it, refused;
- an electric car or van costing at most 47 000 €: 80 % of the price capped at 6 000 € for a household whose RFR/part
  is at most 6 358 €, or at most 14 089 € and « gros rouleur » (home–work distance over 30 km, or more than 12 000
  professional km a year — the definition of the earlier wordings, likely carried over);
- every other case (the other households' amount, « 2 500 €? » in the research, a guess; thermal cars, two-wheelers,
  cycles, legal persons, hydrogen): not covered, the amount unknown.
"""

from __future__ import annotations

from legislation.calculators import _household_income as households
from legislation.calculators.kit import Ctx, R
from legislation.enums import Energy, PersonKind, VehicleCategory

FACTS = (
    "acquisition",
    "buyer.home_work_distance_km",
    "buyer.person_kind",
    "buyer.professional_km_per_year",
    "buyer.reference_income_per_share",
    "lease_duration_months",
    "scrapped_vehicle",
    "vehicle.acquisition_cost",
    "vehicle.category",
    "vehicle.energy",
)

CAR, VAN = VehicleCategory.PASSENGER_CAR, VehicleCategory.VAN
NATURAL_PERSON = PersonKind.NATURAL_PERSON
PRIME = "C. énergie, art. D. 251-3 / D. 251-8 (2023 wording not on file)"
EV = "barème 2023: electric cars and vans"
CEILING = "barème 2023: households (RFR/part)"

READING_GROS_ROULEUR = (
    "« gros rouleurs » (the notice of décret 2022-1761; history row h: « or ≤ 14 089 € for gros rouleurs »): read as "
    "the earlier wordings define them — a home–work distance over 30 km or more than 12 000 km a year driven for work "
    "with one's own vehicle (D. 251-8 of 2021-07-26; notice of décret 2020-955). The 2023 wording is not on file."
)
READING_PRICE = (
    "« price ≤ 47 k€ » (history row h) is the ceiling of the vehicle acquired, as for the bonus of the same decree "
    "(row G: « price ≤ 47 000 € »); above it the prime is refused. The rate's base is the same price."
)


def calculate(ctx: Ctx[R]) -> R:
    row = ctx.row
    if (short_lease := ctx.lease_refusal(PRIME)) is not None:
        return short_lease
    category = ctx.need(row.vehicle_category, "vehicle.category", EV)
    if not row.scrapped_vehicle:
        ctx.step_at(PRIME, "the prime à la conversion goes with the withdrawal from circulation, for destruction, of "
                    "a vehicle; the request gives no scrapped vehicle")
        return ctx.refuse("", "no vehicle withdrawn for destruction: the prime à la conversion requires one")
    ctx.assume("The scrapped vehicle and the buyer meet the conditions of the prime's conditions article in 2023 "
               "(kind and age of the scrapped vehicle, ownership, destruction): not on file; the request asserts them.")
    kind = ctx.need(row.buyer_person_kind, "buyer.person_kind", CEILING)
    if kind is not NATURAL_PERSON:
        return ctx.not_covered("", "a buyer who is not a natural person: the 2023 amounts for legal persons and the "
                               "State are not in the sources on file")
    income = ctx.need(row.buyer_reference_income_per_share, "buyer.reference_income_per_share", CEILING)
    if income > ctx.money("income_ceiling"):
        ctx.step(CEILING, "reference income per share {income:€} > {income_ceiling:€}", income=income)
        return ctx.refuse(CEILING, "from 2023 the prime is « supprimée … pour les ménages des deux derniers déciles de "
                          "revenus »: reference income per share {income:€} > {income_ceiling:€}", income=income)
    ctx.step(CEILING, "reference income per share {income:€} ≤ {income_ceiling:€}", income=income)
    if (category is not CAR and category is not VAN) or row.vehicle_energy is not Energy.ELECTRIC:
        energy = row.vehicle_energy.value if row.vehicle_energy is not None else "energy not given"
        return ctx.not_covered("", "a {category} ({energy}): the 2023 amounts of the cases other than an electric "
                               "car or van are not in the sources on file", category=category, energy=energy)
    ctx.read("price-ceiling-47000", READING_PRICE)
    price = ctx.need(row.vehicle_acquisition_cost, "vehicle.acquisition_cost", EV)
    if price > ctx.money("price_max"):
        ctx.step(EV, "price {price:€} > {price_max:€}", price=price)
        return ctx.refuse(EV, "an electric car or van of {price:€} > {price_max:€}: above the ceiling", price=price)
    ctx.read("gros-rouleur-30-km-or-12000-km", READING_GROS_ROULEUR)
    if not households.is_modest_or_long_distance(ctx, EV):
        return ctx.not_covered("", "an electric car or van bought by a household with a reference income per share "
                               "above {income_very_low_max:€} that is not a « gros rouleur » at or below "
                               "{income_max:€}: its 2023 amount is not in the sources on file")
    amount = ctx.rate(EV, "ev_rate", price, "price")
    amount = ctx.cap(EV, amount, ctx.money("ev_cap"), "cap")
    return ctx.award(amount, EV, "electric car or van, very modest household or gros rouleur: {ev_rate:%} of the "
                     "price {price:€}, capped at {ev_cap:€}", price=price)
