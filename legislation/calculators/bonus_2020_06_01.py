"""Bonus écologique — C. énergie, art. D. 251-7, wording of décret n° 2020-656 du 30 mai 2020.

NOR TRER2013154D, JORF du 31 mai 2020. In force 2020-06-01 → 2021-01-20 (the decree said « du 1er juin
au 31 décembre 2020 »; the consolidated text runs until décret n° 2021-37). Seed 000.

Every paragraph 1° to 8° is applied below; the numbers come from the version's parameters, each
quoted from the text.
"""

from __future__ import annotations

from decimal import Decimal

from legislation.award import Award
from legislation.calculators.kit import Ctx
from legislation.enums import Energy, PowerBasis, VehicleCategory

PARAMETERS = (
    "ev_co2_max",
    "ev_low_price_limit",
    "ev_rate",
    "ev_cap_natural",
    "ev_cap_legal",
    "ev_mid_price_max",
    "ev_mid_amount",
    "ev_high_amount",
    "l_min_kw_regulation",
    "l_min_kw_directive",
    "l_per_kwh",
    "l_rate",
    "l_cap",
    "l_small_rate",
    "l_small_cap",
    "m2n2_rate",
    "m2n2_cap",
    "phev_co2_min",
    "phev_co2_max",
    "phev_price_max",
    "phev_range_min",
    "phev_amount",
)

# The parameters that are amounts the text can award (caps and flat amounts): the highest is the most
# this version can give, which the property tests check every answer against.
AMOUNT_PARAMETERS = (
    "ev_cap_natural",
    "ev_cap_legal",
    "ev_mid_amount",
    "ev_high_amount",
    "l_cap",
    "l_small_cap",
    "m2n2_cap",
    "phev_amount",
)

CARS_AND_VANS = (VehicleCategory.PASSENGER_CAR, VehicleCategory.VAN)


def calculate(ctx: Ctx) -> Award:
    if (short_lease := ctx.lease_refusal("C. énergie, art. D. 251-1, premier alinéa")) is not None:
        return short_lease
    category = ctx.need(ctx.vehicle.category, "vehicle.category", "1°")
    ctx.assume(
        "The vehicle meets the conditions of D. 251-1 (new, registered in France, its 5°, 6° or 7° as its "
        "category requires): that article is not on file for this period; the request asserts them."
    )
    if category in CARS_AND_VANS:
        return _cars_and_vans(ctx, category)
    if category is VehicleCategory.TWO_THREE_WHEELER:
        return _two_three_wheelers(ctx)
    if category is VehicleCategory.LIGHT_M2_N2:
        return _light_m2_n2(ctx)
    return ctx.refuse("", f"no paragraph of D. 251-7 (2020) covers a vehicle of category {category.value}")


def _cars_and_vans(ctx: Ctx, category: VehicleCategory) -> Award:
    co2 = ctx.need(ctx.vehicle.co2_g_per_km, "vehicle.co2_g_per_km", "1°")
    ctx.step("8°", f"CO2 {co2} g/km, taken as the rate deemed to meet article 1007 bis of the CGI (8°)")
    if co2 <= ctx.p("ev_co2_max"):
        return _zero_emission(ctx, category)
    if ctx.p("phev_co2_min") <= co2 <= ctx.p("phev_co2_max"):
        return _plug_in_hybrid(ctx)
    return ctx.refuse("1°, 7°", f"CO2 {co2} g/km: above 20 g/km (1° to 3°) and outside 21–50 g/km (7°)")


def _zero_emission(ctx: Ctx, category: VehicleCategory) -> Award:
    cost = ctx.cost_with_battery("1°")
    if cost < ctx.p("ev_low_price_limit"):
        amount = ctx.rate("1°", "ev_rate", cost, "cost incl. battery")
        legal = ctx.is_legal_person_for_caps("1°")
        cap = ctx.p("ev_cap_legal") if legal else ctx.p("ev_cap_natural")
        who = "legal person" if legal else "natural person"
        amount = ctx.cap("1°", amount, cap, f"cap for a {who}")
        return ctx.award(amount, "1°", f"≤ 20 g/km and cost {cost} € < 45 000 €: 27 % capped at {cap} € ({who})")
    if cost <= ctx.p("ev_mid_price_max"):
        ctx.step("2°", f"cost {cost} € between 45 000 € and 60 000 € inclusive", ctx.p("ev_mid_amount"))
        return ctx.award(ctx.p("ev_mid_amount"), "2°", f"≤ 20 g/km and cost {cost} € in [45 000, 60 000] €")
    energy = ctx.vehicle.energy
    if category is VehicleCategory.VAN or energy is Energy.HYDROGEN:
        ctx.step("3°", f"cost {cost} € > 60 000 € and the vehicle is a van or uses hydrogen", ctx.p("ev_high_amount"))
        return ctx.award(ctx.p("ev_high_amount"), "3°", f"van or hydrogen vehicle, ≤ 20 g/km, cost {cost} € > 60 000 €")
    if energy is None:
        ctx.need(energy, "vehicle.energy", "3°")
    return ctx.refuse("3°", f"cost {cost} € > 60 000 €: only vans and hydrogen vehicles are aided above 60 000 €")


# 7° bounds « le coût d'acquisition … toutes taxes comprises » without the words « incluant le cas échéant le
# coût d'acquisition ou de location de la batterie » that 1°, 2° and 3° of the same article add to the same
# phrase: a leased battery is not counted in the 50 000 € ceiling (as the 5° keeps it out of its rate's base).
PHEV_CEILING_WITHOUT_BATTERY = (
    "7°: « dont le coût d'acquisition est inférieur ou égal à 50 000 euros toutes taxes comprises » does not "
    "add « incluant le cas échéant le coût d'acquisition ou de location de la batterie », which 1°, 2° and "
    "3° write out for their price bands: the cost of a leased battery is left out of the 50 000 € ceiling."
)


def _plug_in_hybrid(ctx: Ctx) -> Award:
    cost = ctx.need(ctx.vehicle.acquisition_cost, "vehicle.acquisition_cost", "7°")
    if ctx.vehicle.battery_rental_cost:
        ctx.read("2020-7-ceiling-without-battery", PHEV_CEILING_WITHOUT_BATTERY)
    if cost > ctx.p("phev_price_max"):
        return ctx.refuse("7°", f"21–50 g/km but cost {cost} € > 50 000 €")
    city_range = ctx.need(ctx.vehicle.city_electric_range_km, "vehicle.city_electric_range_km", "7°")
    if city_range <= ctx.p("phev_range_min"):
        return ctx.refuse("7°", f"21–50 g/km but city electric range {city_range} km is not above 50 km")
    ctx.step(
        "7°", f"21–50 g/km, cost {cost} € ≤ 50 000 €, city electric range {city_range} km > 50 km", ctx.p("phev_amount")
    )
    return ctx.award(ctx.p("phev_amount"), "7°", "plug-in hybrid 21–50 g/km, ≤ 50 000 €, range > 50 km")


# « véhicules mentionnés au 6° de l'article D. 251-1 »: that 6° is not on file for 2020; in its 2017 wording
# (reconstructed in history/era-2017-2020.md, not amended since as far as the history shows) it is the
# two- or three-wheeler or quadricycle that « utilise l'électricité (EL) comme source d'énergie », and 4°
# and 5° themselves (lead battery, « énergie de la batterie ») presuppose an electric vehicle.
L_ELECTRIC_ONLY = (
    "4° and 5° cover the « véhicules mentionnés au 6° de l'article D. 251-1 »: two- and three-wheelers "
    "and quadricycles using electricity (EL) as their energy (D. 251-1, 6°, 2017 wording; the 2020 "
    "wording is not on file). A vehicle whose energy the request gives as other than electric is not "
    "one of them."
)


def _two_three_wheelers(ctx: Ctx) -> Award:
    energy = ctx.vehicle.energy
    if energy is not None and energy is not Energy.ELECTRIC:
        ctx.read("l-vehicle-electric-only", L_ELECTRIC_ONLY)
        ctx.step_at("C. énergie, art. D. 251-1, 6°", f"energy {energy.value}: the 6° requires electricity")
        return ctx.refuse(
            "4°, 5°",
            f"a {energy.value} two- or three-wheeler or quadricycle is not a vehicle "
            "of the 6° of D. 251-1 (electric): neither 4° nor 5° applies",
        )
    lead = ctx.need(ctx.vehicle.uses_lead_battery, "vehicle.uses_lead_battery", "4°")
    if lead:
        return ctx.refuse("4°", "the vehicle uses a lead battery: neither 4° nor 5° applies")
    power = ctx.need(ctx.vehicle.net_max_power_kw, "vehicle.net_max_power_kw", "4°")
    threshold = _power_threshold(ctx, power)
    if power >= threshold:
        kwh = ctx.need(ctx.vehicle.battery_energy_kwh, "vehicle.battery_energy_kwh", "4°")
        amount = ctx.per_unit("4°", "l_per_kwh", kwh, "kWh")
        ceiling = ctx.rate("4° a)", "l_rate", ctx.cost_with_battery("4° a)"), "cost incl. battery")
        lower = min(ceiling, ctx.p("l_cap"))
        ctx.step("4° b)", f"the lower of 4° a) {ceiling} € and 4° b) {ctx.p('l_cap')} € is {lower} €", lower)
        amount = ctx.cap("4°", amount, lower, "the lower of the two amounts")
        return ctx.award(
            amount, "4°", f"electric L vehicle, {power} kW ≥ {threshold} kW: 250 €/kWh capped at {lower} €"
        )
    cost = ctx.need(ctx.vehicle.acquisition_cost, "vehicle.acquisition_cost", "5°")
    amount = ctx.rate("5°", "l_small_rate", cost, "cost")
    amount = ctx.cap("5°", amount, ctx.p("l_small_cap"), "cap")
    return ctx.award(amount, "5°", f"electric L vehicle, {power} kW < {threshold} kW: 20 % capped at 100 €")


def _power_threshold(ctx: Ctx, power: Decimal) -> Decimal:
    """« 2 kilowatts en application du règlement (UE) 168/2013 ou … 3 kilowatts en application de la directive
    2002/24/CE »: the instrument is asked only when the power lies between the two thresholds."""
    low, high = ctx.p("l_min_kw_regulation"), ctx.p("l_min_kw_directive")
    if power >= high or power < low:
        side = "≥ both" if power >= high else "< both"
        ctx.step(
            "4°, 5°",
            f"net maximum power {power} kW is {side} thresholds ({low} kW under "
            f"règlement (UE) 168/2013, {high} kW under directive 2002/24/CE): "
            "the instrument does not matter",
        )
        return high if power >= high else low
    basis = ctx.need(ctx.vehicle.power_basis, "vehicle.power_basis", "4°")
    return low if basis is PowerBasis.REGULATION_EU_168_2013 else high


def _light_m2_n2(ctx: Ctx) -> Award:
    cost = ctx.cost_with_battery("6°")
    amount = ctx.rate("6°", "m2n2_rate", cost, "cost incl. battery")
    amount = ctx.cap("6°", amount, ctx.p("m2n2_cap"), "cap")
    return ctx.award(amount, "6°", "vehicle of the 7° of D. 251-1 (M2/N2 ≤ 3,5 t): 27 % capped at 4 000 €")
