"""Shared rules of C. énergie art. D. 251-7 in its 2017 wordings (a helper, not a calculator: ``_`` name).

The wording of décret n° 2016-1980 (in force 2017-01-01) has a 1° (cars and vans, CO2 ≤ 60 g/km) and a
2° (electric two- and three-wheelers and quadricycles ≥ 3 kW); décret n° 2017-196 (in force 2017-02-19)
adds a 3° (the same vehicles below 3 kW) and, outside D. 251-7, an aid for « cycles à pédalage assisté »
that is not on file. ``bonus_2017_01_01`` and ``bonus_2017_02_19`` call :func:`calculate`, the second one
with the 3° and with the cycles' aid not on file.
"""

from __future__ import annotations

from collections.abc import Callable

from legislation.calculators._d251_1_new_vehicle import used_vehicle
from legislation.calculators.kit import Ctx, R
from legislation.enums import Energy, VehicleCategory

# The request paths these rules read (the calculators' FACTS; the 3° of 2017-02-19 reads no other).
FACTS = (
    "acquisition",
    "lease_duration_months",
    "vehicle.acquisition_cost",
    "vehicle.battery_energy_kwh",
    "vehicle.battery_rental_cost",
    "vehicle.category",
    "vehicle.co2_g_per_km",
    "vehicle.energy",
    "vehicle.net_max_power_kw",
    "vehicle.previously_registered",
    "vehicle.uses_lead_battery",
)

D251_1 = "C. énergie, art. D. 251-1"

# The 1° of D. 251-1 (as replaced by décret 2016-1980, art. 1, verbatim in its notice) puts in its a) the
# « voitures particulières ou … camionnettes » and any « catégorie de véhicules faisant l'objet d'une mesure
# des émissions de dioxyde de carbone en application du règlement (CE) n° 715/2007 »: light M2/N2 vehicles
# are in it when their CO2 is measured under that regulation (assumed, stated in the answer).
FIRST_A_OF_D251_1 = (VehicleCategory.PASSENGER_CAR, VehicleCategory.VAN, VehicleCategory.LIGHT_M2_N2)
CAR, VAN, M2_N2 = FIRST_A_OF_D251_1
L_VEHICLE, BICYCLE = VehicleCategory.TWO_THREE_WHEELER, VehicleCategory.ELECTRIC_BICYCLE
ELECTRIC = Energy.ELECTRIC

ASSUME_D251_1 = (
    "The vehicle meets the conditions of D. 251-1 other than those applied here (buyer domiciled or "
    "established in France or a State administration; registered in France in "
    "a definitive series; not sold within the periods of its 4°): D. 251-1 in its 2017 wording is not on "
    "file."
)

NOT_IN_D251_7 = "D. 251-7 covers only the vehicles of the 5° and 6° of D. 251-1, not a {category}"
CYCLES_AID = (
    "décret n° 2017-196 created, from 2017-02-19, a separate aid for « cycles à pédalage assisté » outside "
    "D. 251-7; that text is not on file"
)

SmallLRule = Callable[[Ctx[R]], R]


def calculate(ctx: Ctx[R], below_threshold: SmallLRule[R] | None, *, cycles_aid_not_on_file: bool) -> R:
    """D. 251-7 (2017); ``below_threshold``: the rule under 3 kW, None where the text has none;
    ``cycles_aid_not_on_file``: décret 2017-196's aid for « cycles à pédalage assisté » exists (2017-02-19 on)."""
    if cycles_aid_not_on_file and ctx.row.vehicle_category is BICYCLE:
        # Issue 9: a cycle is outside D. 251-7 but within décret 2017-196's own aid, which is not on file: the
        # answer is « not covered by the text on file », never « not eligible ». Decided before D. 251-1's lease
        # condition, which governs the bonus of D. 251-7, not that separate aid.
        return ctx.not_covered("", NOT_IN_D251_7 + " (" + CYCLES_AID + ")", category=BICYCLE)
    if (short_lease := ctx.lease_refusal("C. énergie, art. D. 251-1, premier alinéa")) is not None:
        return short_lease
    if (used := used_vehicle(ctx)) is not None:
        return used
    category = ctx.need(ctx.row.vehicle_category, "vehicle.category", "1°")
    ctx.assume(ASSUME_D251_1)
    if category is CAR or category is VAN or category is M2_N2:
        return _first(ctx, category)
    if category is L_VEHICLE:
        return _two_three_wheelers(ctx, below_threshold)
    if category is BICYCLE:
        # Before 2017-02-19 there was no aid for cycles at all: a plain refusal, which says when one came.
        return ctx.refuse("", NOT_IN_D251_7 + " (" + CYCLES_AID + ")", category=category)
    return ctx.refuse("", NOT_IN_D251_7, category=category)


def _first(ctx: Ctx[R], category: VehicleCategory) -> R:
    if category is M2_N2:
        ctx.read(
            "light-m2-n2-in-d251-1-1-a",
            "In 2017 the a) of the 1° of D. 251-1 also covers « une catégorie de véhicules faisant l'objet "
            "d'une mesure des émissions de dioxyde de carbone en application du règlement (CE) n° 715/2007 » "
            "(décret 2016-1980, art. 1): a light M2/N2 vehicle is a vehicle of its 5°, hence of D. 251-7, "
            "1°.",
        )
        ctx.assume("The M2/N2 vehicle's CO2 emissions are measured under règlement (CE) n° 715/2007 "
                   "(D. 251-1, 1° a)).")
    co2 = ctx.need(ctx.row.vehicle_co2_g_per_km, "vehicle.co2_g_per_km", "1°")
    if co2 <= ctx.count("ev_co2_max"):
        cost = ctx.cost_with_battery("1° a)")
        amount = ctx.rate("1° a)", "ev_rate", cost, "cost incl. battery")
        amount = ctx.cap("1° a)", amount, ctx.money("ev_cap"), "« sans être supérieur à {ev_cap} euros »")
        return ctx.award(
            amount, "1° a)", "CO2 {co2} g/km ≤ {ev_co2_max} g/km: {ev_rate:%} of {cost:€}, capped at {ev_cap:€}",
            co2=co2, cost=cost,
        )
    if ctx.count("low_co2_min") <= co2 <= ctx.count("low_co2_max"):
        ctx.step("1° b)", "CO2 {co2} g/km between {low_co2_min} and {low_co2_max} g/km: a fixed amount",
                 ctx.money("low_amount"), co2=co2)
        return ctx.award(ctx.money("low_amount"), "1° b)",
                         "CO2 {co2} g/km between {low_co2_min} and {low_co2_max} g/km: {low_amount:€}", co2=co2)
    ctx.step_at(D251_1 + ", 5°", "CO2 {co2} g/km > {low_co2_max} g/km: not a vehicle of the 5° of D. 251-1", co2=co2)
    return ctx.refuse("1°", "CO2 {co2} g/km: above {low_co2_max} g/km, neither 1° a) nor 1° b) applies", co2=co2)


def _two_three_wheelers(ctx: Ctx[R], below_threshold: SmallLRule[R] | None) -> R:
    row = ctx.row
    energy = row.vehicle_energy
    if energy is not None and energy is not ELECTRIC:
        ctx.step_at(D251_1 + ", 6°", "energy {energy}: the 6° of D. 251-1 requires electricity (EL)", energy=energy)
        return ctx.refuse("2°", "not a vehicle of the 6° of D. 251-1: it does not use electricity")
    if energy is None:
        ctx.assume("The two- or three-wheeler or quadricycle uses electricity (EL) (D. 251-1, 6°).")
    if ctx.need(row.vehicle_uses_lead_battery, "vehicle.uses_lead_battery", "2°"):
        return ctx.refuse("2°", "the vehicle uses a lead battery (« n'utilisent pas de batterie au plomb »)")
    power = ctx.need(row.vehicle_net_max_power_kw, "vehicle.net_max_power_kw", "2°")
    if power < ctx.qty("l_min_kw"):
        if below_threshold is None:
            return ctx.refuse(
                "2°", "net maximum power {power:q} kW < {l_min_kw} kW: this wording aids only ≥ {l_min_kw} kW",
                power=power,
            )
        return below_threshold(ctx)
    kwh = ctx.need(row.vehicle_battery_energy_kwh, "vehicle.battery_energy_kwh", "2°")
    amount = ctx.per_unit("2°", "l_per_kwh", kwh, "kWh")
    rate_ceiling = ctx.rate("2° a)", "l_rate", ctx.cost_with_battery("2° a)"), "cost incl. battery")
    l_cap = ctx.money("l_cap")
    lower = rate_ceiling if rate_ceiling < l_cap else l_cap
    ctx.step("2° b)", "the lower of 2° a) {rate_ceiling:€} and 2° b) {l_cap:€} is {lower:€}", lower,
             rate_ceiling=rate_ceiling, lower=lower)
    amount = ctx.cap("2°", amount, lower, "« le plus faible des deux montants suivants »")
    return ctx.award(
        amount, "2°", "electric L vehicle, {power:q} kW ≥ {l_min_kw} kW: {l_per_kwh} €/kWh capped at {lower:€}",
        power=power, lower=lower,
    )
