"""Bonus écologique — C. énergie, art. D. 251-7, as amended by décret n° 2015-1928 du 31 décembre 2015.

NOR DEVR1529559D, JORF n° 0002 du 3 janvier 2016. In force 2016-01-04 → 2016-12-31 (décret n° 2016-1980 from
2017-01-01). Wording not on file: barème of history/era-2007-2016.md §3 C1/C2 (press, likely), corroborated by the
notice of décret 2016-1980 (official: the cap falls « de 6 300 € à 6 000 € » in 2017, and non-rechargeable hybrids
of 60–110 g/km « ne sont plus éligibles »). D. 251-1 5° in its 2016 wording (official extract, likely the
2016-01-04 wording): ≤ 110 g/km for a car combining electricity with petrol, LPG or natural gas, ≤ 60 g/km for
another type.

Cars and vans ≤ 20 g/km: 27 % of the cost incl. battery lease, capped 6 300 €; 21–60 g/km: 1 000 €; petrol, LPG or
natural-gas hybrid cars of 61–110 g/km: 750 €. Two- and three-wheelers and cycles: no aid of D. 251-7 before 2017.
"""

from __future__ import annotations

from legislation.calculators._d251_1_new_vehicle import used_vehicle
from legislation.calculators.kit import Ctx, R
from legislation.enums import Energy, VehicleCategory

FACTS = (
    "acquisition",
    "lease_duration_months",
    "vehicle.acquisition_cost",
    "vehicle.battery_rental_cost",
    "vehicle.category",
    "vehicle.co2_g_per_km",
    "vehicle.energy",
    "vehicle.previously_registered",
)

EV, LOW, HYBRID = (
    "barème: ≤ 20 g/km",
    "barème: 21–60 g/km",
    "barème: petrol, LPG or natural-gas hybrid cars of 61–110 g/km",
)
D251_1_5 = "C. énergie, art. D. 251-1, 5° (2016)"
CAR, L_VEHICLE = VehicleCategory.PASSENGER_CAR, VehicleCategory.TWO_THREE_WHEELER
BICYCLE = VehicleCategory.ELECTRIC_BICYCLE
SECONDARY = (
    "The official wording of this version of D. 251-7 is not on file: its barème comes from secondary sources "
    "(shared/legal/history/era-2007-2016.md §3 C1/C2), each number citing its source and confidence in "
    "version.toml. The answer applies that barème; it cannot quote the article's words."
)
ASSUME_D251_1 = (
    "The vehicle meets the conditions of D. 251-1 other than those applied here (buyer domiciled or established "
    "in France or a State administration; never registered before; registered in France in a definitive series; "
    "not sold within six months or before 6 000 km): D. 251-1 of 2016 is on file only as an extract."
)
HYBRIDS = (Energy.PETROL_ELECTRIC_HYBRID, Energy.LPG_ELECTRIC_HYBRID, Energy.CNG_ELECTRIC_HYBRID)
DIESEL_READING = (
    "The press summary says « any diesel-fuelled vehicle excluded »; D. 251-1 5° (official extract, 2016) excludes "
    "diesel only from the 61–110 g/km hybrid band (it names hybrids « à l'essence, au gaz de pétrole liquéfié ou au "
    "gaz naturel ») and admits « un autre type de véhicule » up to 60 g/km: the official words are followed."
)
L_READING = (
    "Two- and three-wheelers and quadricycles enter D. 251-1 and D. 251-7 only with décret n° 2016-1980 (2017-01-01; "
    "its notice: « le décret prévoit une aide analogue au bonus écologique pour … les véhicules à moteur à deux ou "
    "trois roues »): in 2016 D. 251-1 1° covers cars, vans and vehicles whose CO2 is measured under règlement (CE) "
    "n° 715/2007."
)


def calculate(ctx: Ctx[R]) -> R:
    ctx.read("secondary-barème", SECONDARY)
    if (short_lease := ctx.lease_refusal("C. énergie, art. D. 251-1, premier alinéa")) is not None:
        return short_lease
    if (used := used_vehicle(ctx)) is not None:  # D. 251-1, 2° (2016 codified text): never registered before
        return used
    category = ctx.need(ctx.row.vehicle_category, "vehicle.category", EV)
    ctx.assume(ASSUME_D251_1)
    if category is L_VEHICLE or category is BICYCLE:
        ctx.read("no-l-vehicle-aid-before-2017", L_READING)
        return ctx.refuse("", "a {category} is not a vehicle of D. 251-1 1° in 2016", category=category)
    co2 = ctx.need(ctx.row.vehicle_co2_g_per_km, "vehicle.co2_g_per_km", EV)
    if co2 <= ctx.count("ev_co2_max"):
        cost = ctx.cost_with_battery(EV)
        amount = ctx.rate(EV, "ev_rate", cost, "cost incl. battery")
        amount = ctx.cap(EV, amount, ctx.money("ev_cap"), "cap")
        return ctx.award(
            amount, EV, "CO2 {co2} g/km: {ev_rate:%} of {cost:€}, capped at {ev_cap:€}", co2=co2, cost=cost
        )
    if co2 <= ctx.count("low_co2_max"):
        if ctx.row.vehicle_energy in (Energy.DIESEL, Energy.DIESEL_ELECTRIC_HYBRID):
            ctx.read("2016-diesel-up-to-60-g", DIESEL_READING)
        ctx.step(LOW, "CO2 {co2} g/km in {low_co2_min}–{low_co2_max} g/km", ctx.money("low_amount"), co2=co2)
        return ctx.award(ctx.money("low_amount"), LOW, "CO2 {co2} g/km: {low_amount:€}", co2=co2)
    return _hybrid(ctx, category, co2)


def _hybrid(ctx: Ctx[R], category: VehicleCategory, co2: int) -> R:
    if co2 > ctx.count("hybrid_co2_max"):
        return ctx.refuse("", "CO2 {co2} g/km > {hybrid_co2_max} g/km: not a vehicle of D. 251-1 5°", D251_1_5, co2=co2)
    if category is not CAR:
        return ctx.not_covered(
            "", "a {category} of {co2} g/km: the 6° of D. 251-1 (2016), which sets the ceiling of vehicles other than "
            "cars, is cut off in the extract on file", category=category, co2=co2,
        )
    energy = ctx.need(ctx.row.vehicle_energy, "vehicle.energy", HYBRID)
    if energy not in HYBRIDS:
        if energy is Energy.DIESEL_ELECTRIC_HYBRID:
            ctx.read("2016-diesel-up-to-60-g", DIESEL_READING)
        return ctx.refuse("", "a {energy} car of {co2} g/km: D. 251-1 5° admits 61–110 g/km only for hybrids « à "
                          "l'essence, au gaz de pétrole liquéfié ou au gaz naturel »", D251_1_5, energy=energy, co2=co2)
    ctx.assume("The hybrid meets any further condition of the 2016 hybrid band (e.g. the electric motor's power, "
               "10 kW over 30 minutes in 2015): D. 251-7 of 2016 is not on file.")
    ctx.step(HYBRID, "{energy}, CO2 {co2} g/km in {hybrid_co2_min}–{hybrid_co2_max} g/km", ctx.money("hybrid_amount"),
             energy=energy, co2=co2)
    return ctx.award(ctx.money("hybrid_amount"), HYBRID, "hybrid car of {co2} g/km: {hybrid_amount:€}", co2=co2)
