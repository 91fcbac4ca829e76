"""Shared rules of C. énergie art. D. 251-7 in its 2017 wordings (a helper, not a calculator: ``_`` name).

The wording of décret n° 2016-1980 (in force 2017-01-01) has a 1° (cars and vans, CO2 ≤ 60 g/km) and a
2° (electric two- and three-wheelers and quadricycles ≥ 3 kW); décret n° 2017-196 (in force 2017-02-19)
adds a 3° (the same vehicles below 3 kW). ``bonus_2017_01_01`` and ``bonus_2017_02_19`` call
:func:`calculate`, the second one with the 3°.
"""

from __future__ import annotations

from collections.abc import Callable

from legislation.award import Award
from legislation.calculators.kit import Ctx
from legislation.enums import Energy, VehicleCategory

PARAMETERS = (
    "ev_co2_max", "ev_rate", "ev_cap", "low_co2_min", "low_co2_max", "low_amount",
    "l_min_kw", "l_per_kwh", "l_rate", "l_cap",
)

# The amounts the text can award (caps and flat amounts); the property tests bound every answer by them.
AMOUNT_PARAMETERS = ("ev_cap", "low_amount", "l_cap")

D251_1 = "C. énergie, art. D. 251-1"

# The 1° of D. 251-1 (as replaced by décret 2016-1980, art. 1, verbatim in its notice) puts in its a) the
# « voitures particulières ou … camionnettes » and any « catégorie de véhicules faisant l'objet d'une mesure
# des émissions de dioxyde de carbone en application du règlement (CE) n° 715/2007 »: light M2/N2 vehicles
# are in it when their CO2 is measured under that regulation (assumed, stated in the answer).
FIRST_A_OF_D251_1 = (VehicleCategory.PASSENGER_CAR, VehicleCategory.VAN, VehicleCategory.LIGHT_M2_N2)

SmallLRule = Callable[[Ctx], Award]


def calculate(ctx: Ctx, below_threshold: SmallLRule | None) -> Award:
    """D. 251-7 (2017); ``below_threshold``: the rule under 3 kW, None where the text has none."""
    if (short_lease := ctx.lease_refusal("C. énergie, art. D. 251-1, premier alinéa")) is not None:
        return short_lease
    category = ctx.need(ctx.vehicle.category, "vehicle.category", "1°")
    ctx.assume(
        "The vehicle meets the conditions of D. 251-1 other than those applied here (buyer domiciled or "
        "established in France or a State administration; never registered before; registered in France in "
        "a definitive series; not sold within the periods of its 4°): D. 251-1 in its 2017 wording is not on "
        "file."
    )
    if category in FIRST_A_OF_D251_1:
        return _first(ctx, category)
    if category is VehicleCategory.TWO_THREE_WHEELER:
        return _two_three_wheelers(ctx, below_threshold)
    reason = f"D. 251-7 covers only the vehicles of the 5° and 6° of D. 251-1, not a {category.value}"
    if category is VehicleCategory.ELECTRIC_BICYCLE:
        reason += (" (décret n° 2017-196 created, from 2017-02-19, a separate aid for « cycles à pédalage "
                   "assisté » outside D. 251-7; that text is not on file)")
    return ctx.refuse("", reason)


def _first(ctx: Ctx, category: VehicleCategory) -> Award:
    if category is VehicleCategory.LIGHT_M2_N2:
        ctx.read(
            "light-m2-n2-in-d251-1-1-a",
            "In 2017 the a) of the 1° of D. 251-1 also covers « une catégorie de véhicules faisant l'objet "
            "d'une mesure des émissions de dioxyde de carbone en application du règlement (CE) n° 715/2007 » "
            "(décret 2016-1980, art. 1): a light M2/N2 vehicle is a vehicle of its 5°, hence of D. 251-7, "
            "1°.",
        )
        ctx.assume("The M2/N2 vehicle's CO2 emissions are measured under règlement (CE) n° 715/2007 "
                   "(D. 251-1, 1° a)).")
    co2 = ctx.need(ctx.vehicle.co2_g_per_km, "vehicle.co2_g_per_km", "1°")
    if co2 <= ctx.p("ev_co2_max"):
        cost = ctx.cost_with_battery("1° a)")
        amount = ctx.rate("1° a)", "ev_rate", cost, "cost incl. battery")
        amount = ctx.cap("1° a)", amount, ctx.p("ev_cap"), "« sans être supérieur à 6 000 euros »")
        return ctx.award(amount, "1° a)", f"CO2 {co2} g/km ≤ 20 g/km: 27 % of {cost} €, capped at 6 000 €")
    if ctx.p("low_co2_min") <= co2 <= ctx.p("low_co2_max"):
        ctx.step("1° b)", f"CO2 {co2} g/km between 21 and 60 g/km: a fixed amount", ctx.p("low_amount"))
        return ctx.award(ctx.p("low_amount"), "1° b)", f"CO2 {co2} g/km between 21 and 60 g/km: 1 000 €")
    ctx.step_at(f"{D251_1}, 5°", f"CO2 {co2} g/km > 60 g/km: not a vehicle of the 5° of D. 251-1")
    return ctx.refuse("1°", f"CO2 {co2} g/km: above 60 g/km, neither 1° a) nor 1° b) applies")


def _two_three_wheelers(ctx: Ctx, below_threshold: SmallLRule | None) -> Award:
    energy = ctx.vehicle.energy
    if energy is not None and energy is not Energy.ELECTRIC:
        ctx.step_at(f"{D251_1}, 6°", f"energy {energy.value}: the 6° of D. 251-1 requires electricity (EL)")
        return ctx.refuse("2°", "not a vehicle of the 6° of D. 251-1: it does not use electricity")
    if energy is None:
        ctx.assume("The two- or three-wheeler or quadricycle uses electricity (EL) (D. 251-1, 6°).")
    if ctx.need(ctx.vehicle.uses_lead_battery, "vehicle.uses_lead_battery", "2°"):
        return ctx.refuse("2°", "the vehicle uses a lead battery (« n'utilisent pas de batterie au plomb »)")
    power = ctx.need(ctx.vehicle.net_max_power_kw, "vehicle.net_max_power_kw", "2°")
    if power < ctx.p("l_min_kw"):
        if below_threshold is None:
            return ctx.refuse("2°", f"net maximum power {power} kW < 3 kW: this wording aids only ≥ 3 kW")
        return below_threshold(ctx)
    kwh = ctx.need(ctx.vehicle.battery_energy_kwh, "vehicle.battery_energy_kwh", "2°")
    amount = ctx.per_unit("2°", "l_per_kwh", kwh, "kWh")
    rate_ceiling = ctx.rate("2° a)", "l_rate", ctx.cost_with_battery("2° a)"), "cost incl. battery")
    lower = min(rate_ceiling, ctx.p("l_cap"))
    ctx.step("2° b)", f"the lower of 2° a) {rate_ceiling} € and 2° b) {ctx.p('l_cap')} € is {lower} €", lower)
    amount = ctx.cap("2°", amount, lower, "« le plus faible des deux montants suivants »")
    return ctx.award(amount, "2°", f"electric L vehicle, {power} kW ≥ 3 kW: 250 €/kWh capped at {lower} €")
