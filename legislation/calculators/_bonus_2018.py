"""Shared rules of C. énergie art. D. 251-7 from 2018-01-01 to 2020-05-31 (a helper, not a calculator).

No verbatim wording of D. 251-7 is on file for its versions of 2018 (décret n° 2017-1851), 2019 (décret
n° 2018-1318) and 2020-01-01 (décret n° 2019-1526): their barèmes come from the research's summaries
(shared/legal/history/era-2017-2020.md §1, rows V3 to V5), graded ``secondary``. The paragraphs of those
wordings are not known, so each rule cites the barème line it applies, never an invented « 1° ». Only the
CO2 ceiling of D. 251-1 5° (« 60 » → « 20 », décret n° 2017-1851 art. 1, verbatim in its JORF notice) is
official.

Rules: electric cars and vans (CO2 ≤ 20 g/km, D. 251-1 5°) at a rate of the cost capped (2018, 2019), or in
price bands with a cap per kind of buyer (2020-01-01); electric two- and three-wheelers and quadricycles at
so much per kWh capped at the lower of a rate of the cost and a sum, and below the power threshold at a rate
capped (2019, 2020) or not known (2018). Light M2/N2 vehicles of D. 251-1 1° c) (2019 on) and cycles: the
research gives no amount (or only a guess): not covered, the amount unknown.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from legislation.calculators._d251_1_new_vehicle import used_vehicle
from legislation.calculators.kit import Ctx, R
from legislation.enums import Energy, VehicleCategory

FACTS = (
    "acquisition",
    "buyer.person_kind",
    "lease_duration_months",
    "vehicle.acquisition_cost",
    "vehicle.battery_energy_kwh",
    "vehicle.battery_rental_cost",
    "vehicle.category",
    "vehicle.co2_g_per_km",
    "vehicle.energy",
    "vehicle.net_max_power_kw",
    "vehicle.power_basis",
    "vehicle.previously_registered",
    "vehicle.uses_lead_battery",
)

CAR, VAN, M2_N2 = VehicleCategory.PASSENGER_CAR, VehicleCategory.VAN, VehicleCategory.LIGHT_M2_N2
L_VEHICLE, BICYCLE = VehicleCategory.TWO_THREE_WHEELER, VehicleCategory.ELECTRIC_BICYCLE
ELECTRIC, HYDROGEN = Energy.ELECTRIC, Energy.HYDROGEN

D251_1 = "C. énergie, art. D. 251-1"
CARS = "barème: electric cars and vans"
L_BIG = "barème: electric two- and three-wheelers and quadricycles at or above the power threshold"
L_SMALL = "barème: electric two- and three-wheelers and quadricycles below the power threshold"

SECONDARY = (
    "The official wording of this version of D. 251-7 is not on file: its barème comes from secondary sources "
    "(shared/legal/history/), each number citing its source and confidence in version.toml. "
    "The answer applies that barème; it cannot quote the article's words."
)
ASSUME_D251_1 = (
    "The vehicle meets the conditions of D. 251-1 other than those applied here (buyer domiciled or established "
    "in France or a State administration; never registered before; registered in France in a definitive "
    "series; not sold within the periods of its 4°): D. 251-1 is not on file for this period."
)
L_ELECTRIC_ONLY = (
    "Two- and three-wheelers and quadricycles are aided only when they use electricity (D. 251-1, 6°, 2017 "
    "wording, not amended by décret 2017-1851 as far as its notice shows): a vehicle whose energy the request "
    "gives as other than electric is refused."
)


def start(ctx: Ctx[R]) -> R | None:
    """The conditions common to every version: the two-year lease, a category, not a cycle, a vehicle never
    registered before (D. 251-1, 2°); a result or None."""
    ctx.read("secondary-barème", SECONDARY)
    if (short_lease := ctx.lease_refusal(D251_1 + ", premier alinéa")) is not None:
        return short_lease
    category = ctx.need(ctx.row.vehicle_category, "vehicle.category", CARS)
    ctx.assume(ASSUME_D251_1)
    if category is BICYCLE:
        return ctx.not_covered(
            "",
            "a cycle is not a vehicle of D. 251-7; the separate aid for « cycles à pédalage assisté » (D. 251-2, "
            "« bonus vélo à assistance électrique » from 2018-02-01) is not on file",
        )
    return used_vehicle(ctx)  # D. 251-1, 2°: never registered before


def category(ctx: Ctx[R]) -> VehicleCategory:
    """The vehicle's category (asked by :func:`start`)."""
    return ctx.need(ctx.row.vehicle_category, "vehicle.category", CARS)


def zero_emission_co2(ctx: Ctx[R]) -> R | None:
    """D. 251-1 5° (« 20 » grammes since décret 2017-1851): above it, no bonus; None when the vehicle is within."""
    co2 = ctx.need(ctx.row.vehicle_co2_g_per_km, "vehicle.co2_g_per_km", CARS)
    if co2 <= ctx.count("ev_co2_max"):
        return None
    ctx.step_at(D251_1 + ", 5°", "CO2 {co2} g/km > {ev_co2_max} g/km: not a vehicle of the 5° of D. 251-1", co2=co2)
    return ctx.refuse(
        "",
        "CO2 {co2} g/km: D. 251-1 5° (« 60 » replaced by « 20 », décret n° 2017-1851 art. 1) aids only vehicles "
        "at or below {ev_co2_max} g/km — plug-in hybrids get no bonus from 2018-01-01",
        D251_1 + ", 5°",
        co2=co2,
    )


@dataclass(frozen=True, slots=True)
class Below:
    """An L vehicle below the power threshold: its power and the threshold (thousandths of kW)."""

    power: int
    limit: int


def two_three_wheelers(ctx: Ctx[R], threshold: Callable[[Ctx[R], int], int]) -> R | Below:
    """The common start of the L rules; :class:`Below` when under the threshold, else the result (a result may
    itself be a tuple — the lean context's outcome —, hence the marker class).

    ``threshold``: the version's power threshold for this power (thousandths of kW).
    """
    row = ctx.row
    energy = row.vehicle_energy
    if energy is not None and energy is not ELECTRIC:
        ctx.read("l-vehicle-electric-only", L_ELECTRIC_ONLY)
        return ctx.refuse("", "a {energy} two- or three-wheeler or quadricycle is not electric", energy=energy)
    if energy is None:
        ctx.assume("The two- or three-wheeler or quadricycle uses electricity (EL) (D. 251-1, 6°).")
    if ctx.need(row.vehicle_uses_lead_battery, "vehicle.uses_lead_battery", L_BIG):
        return ctx.refuse(L_BIG, "the vehicle uses a lead battery: no bonus")
    power = ctx.need(row.vehicle_net_max_power_kw, "vehicle.net_max_power_kw", L_BIG)
    limit = threshold(ctx, power)
    if power < limit:
        return Below(power, limit)
    kwh = ctx.need(row.vehicle_battery_energy_kwh, "vehicle.battery_energy_kwh", L_BIG)
    amount = ctx.per_unit(L_BIG, "l_per_kwh", kwh, "kWh")
    ceiling = ctx.rate(L_BIG, "l_rate", ctx.cost_with_battery(L_BIG), "cost incl. battery")
    l_cap = ctx.money("l_cap")
    lower = ceiling if ceiling < l_cap else l_cap
    ctx.step(L_BIG, "the lower of {ceiling:€} and {l_cap:€} is {lower:€}", lower, ceiling=ceiling, lower=lower)
    amount = ctx.cap(L_BIG, amount, lower, "the lower of the two amounts")
    return ctx.award(
        amount, L_BIG, "electric L vehicle, {power:q} kW ≥ {limit:q} kW: {l_per_kwh} €/kWh capped at {lower:€}",
        power=power, limit=limit, lower=lower,
    )


def m2_n2_not_known(ctx: Ctx[R]) -> R:
    """D. 251-1 1° c) vehicles (2019 on): the research only guesses their amount (27 %, 4 000 €)."""
    return ctx.not_covered(
        "",
        "light M2/N2 vehicles (D. 251-1 1° c), confirmed from 2019-01-01): the research gives their amount only "
        "as a guess (27 %, capped 4 000 €; history/era-2017-2020.md §1 V4), so the amount is not known",
    )
