"""Bonus écologique — C. énergie, art. D. 251-7, wording of décret n° 2020-656 du 30 mai 2020.

NOR TRER2013154D, JORF du 31 mai 2020. In force 2020-06-01 → 2021-01-20 (the decree said « du 1er juin
au 31 décembre 2020 »; the consolidated text runs until décret n° 2021-37). Seed 000.

Every paragraph 1° to 8° is applied below; the numbers come from the version's parameters, each
quoted from the text.
"""

from __future__ import annotations

from legislation.calculators._d251_1_new_vehicle import used_vehicle
from legislation.calculators.kit import Ctx, R
from legislation.enums import Energy, PowerBasis, VehicleCategory

FACTS = (
    "acquisition",
    "buyer.person_kind",
    "lease_duration_months",
    "vehicle.acquisition_cost",
    "vehicle.battery_energy_kwh",
    "vehicle.battery_rental_cost",
    "vehicle.category",
    "vehicle.city_electric_range_km",
    "vehicle.co2_g_per_km",
    "vehicle.energy",
    "vehicle.first_registration_date",
    "vehicle.net_max_power_kw",
    "vehicle.power_basis",
    "vehicle.previously_registered",
    "vehicle.uses_lead_battery",
)

CAR, VAN, L_VEHICLE, M2_N2 = (
    VehicleCategory.PASSENGER_CAR,
    VehicleCategory.VAN,
    VehicleCategory.TWO_THREE_WHEELER,
    VehicleCategory.LIGHT_M2_N2,
)
HYDROGEN, ELECTRIC, REGULATION = Energy.HYDROGEN, Energy.ELECTRIC, PowerBasis.REGULATION_EU_168_2013

ASSUME_D251_1 = (
    "The vehicle meets the conditions of D. 251-1 other than its 2° (registered in France, its 5°, 6° or 7° as "
    "its category requires): that article is not on file for this period; the request asserts them."
)


def calculate(ctx: Ctx[R]) -> R:
    if (short_lease := ctx.lease_refusal("C. énergie, art. D. 251-1, premier alinéa")) is not None:
        return short_lease
    if (used := used_vehicle(ctx)) is not None:
        return used
    category = ctx.need(ctx.row.vehicle_category, "vehicle.category", "1°")
    ctx.assume(ASSUME_D251_1)
    if category is CAR or category is VAN:
        return _cars_and_vans(ctx, category)
    if category is L_VEHICLE:
        return _two_three_wheelers(ctx)
    if category is M2_N2:
        return _light_m2_n2(ctx)
    return ctx.refuse("", "no paragraph of D. 251-7 (2020) covers a vehicle of category {category}", category=category)


def _cars_and_vans(ctx: Ctx[R], category: VehicleCategory) -> R:
    co2 = ctx.need(ctx.row.vehicle_co2_g_per_km, "vehicle.co2_g_per_km", "1°")
    ctx.step("8°", "CO2 {co2} g/km, taken as the rate deemed to meet article 1007 bis of the CGI (8°)", co2=co2)
    if co2 <= ctx.count("ev_co2_max"):
        return _zero_emission(ctx, category)
    if ctx.count("phev_co2_min") <= co2 <= ctx.count("phev_co2_max"):
        return _plug_in_hybrid(ctx)
    return ctx.refuse(
        "1°, 7°",
        "CO2 {co2} g/km: above {ev_co2_max} g/km (1° to 3°) and outside {phev_co2_min}–{phev_co2_max} g/km (7°)",
        co2=co2,
    )


def _zero_emission(ctx: Ctx[R], category: VehicleCategory) -> R:
    cost = ctx.cost_with_battery("1°")
    if cost < ctx.money("ev_low_price_limit"):
        amount = ctx.rate("1°", "ev_rate", cost, "cost incl. battery")
        legal = ctx.is_legal_person_for_caps("1°")
        cap = ctx.money("ev_cap_legal") if legal else ctx.money("ev_cap_natural")
        who = "legal person" if legal else "natural person"
        amount = ctx.cap("1°", amount, cap, "cap for a " + who)
        return ctx.award(
            amount,
            "1°",
            "≤ {ev_co2_max} g/km and cost {cost:€} < {ev_low_price_limit:€}: {ev_rate:%} capped at {cap:€} ({who})",
            cost=cost,
            cap=cap,
            who=who,
        )
    if cost <= ctx.money("ev_mid_price_max"):
        ctx.step(
            "2°",
            "cost {cost:€} between {ev_low_price_limit:€} and {ev_mid_price_max:€} inclusive",
            ctx.money("ev_mid_amount"),
            cost=cost,
        )
        return ctx.award(
            ctx.money("ev_mid_amount"),
            "2°",
            "≤ {ev_co2_max} g/km and cost {cost:€} in [{ev_low_price_limit:€}, {ev_mid_price_max:€}]",
            cost=cost,
        )
    energy = ctx.row.vehicle_energy
    if category is VAN or energy is HYDROGEN:
        ctx.step(
            "3°",
            "cost {cost:€} > {ev_mid_price_max:€} and the vehicle is a van or uses hydrogen",
            ctx.money("ev_high_amount"),
            cost=cost,
        )
        return ctx.award(
            ctx.money("ev_high_amount"),
            "3°",
            "van or hydrogen vehicle, ≤ {ev_co2_max} g/km, cost {cost:€} > {ev_mid_price_max:€}",
            cost=cost,
        )
    if energy is None:
        ctx.need(energy, "vehicle.energy", "3°")
    return ctx.refuse(
        "3°", "cost {cost:€} > {ev_mid_price_max:€}: only vans and hydrogen vehicles are aided above it", cost=cost
    )


# 7° bounds « le coût d'acquisition … toutes taxes comprises » without the words « incluant le cas échéant le
# coût d'acquisition ou de location de la batterie » that 1°, 2° and 3° of the same article add to the same
# phrase: a leased battery is not counted in the 50 000 € ceiling (as the 5° keeps it out of its rate's base).
PHEV_CEILING_WITHOUT_BATTERY = (
    "7°: « dont le coût d'acquisition est inférieur ou égal à 50 000 euros toutes taxes comprises » does not "
    "add « incluant le cas échéant le coût d'acquisition ou de location de la batterie », which 1°, 2° and "
    "3° write out for their price bands: the cost of a leased battery is left out of the 50 000 € ceiling."
)


def _plug_in_hybrid(ctx: Ctx[R]) -> R:
    row = ctx.row
    cost = ctx.need(row.vehicle_acquisition_cost, "vehicle.acquisition_cost", "7°")
    if row.vehicle_battery_rental_cost:
        ctx.read("2020-7-ceiling-without-battery", PHEV_CEILING_WITHOUT_BATTERY)
    if cost > ctx.money("phev_price_max"):
        return ctx.refuse("7°", "{phev_co2_min}–{phev_co2_max} g/km but cost {cost:€} > {phev_price_max:€}", cost=cost)
    city_range = ctx.need(row.vehicle_city_electric_range_km, "vehicle.city_electric_range_km", "7°")
    if city_range <= ctx.qty("phev_range_min"):
        return ctx.refuse(
            "7°",
            "{phev_co2_min}–{phev_co2_max} g/km but city electric range {city_range:q} km is not above "
            "{phev_range_min} km",
            city_range=city_range,
        )
    ctx.step(
        "7°",
        "{phev_co2_min}–{phev_co2_max} g/km, cost {cost:€} ≤ {phev_price_max:€}, city electric range "
        "{city_range:q} km > {phev_range_min} km",
        ctx.money("phev_amount"),
        cost=cost,
        city_range=city_range,
    )
    return ctx.award(
        ctx.money("phev_amount"),
        "7°",
        "plug-in hybrid {phev_co2_min}–{phev_co2_max} g/km, ≤ {phev_price_max:€}, range > {phev_range_min} km",
    )


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


def _two_three_wheelers(ctx: Ctx[R]) -> R:
    row = ctx.row
    energy = row.vehicle_energy
    if energy is not None and energy is not ELECTRIC:
        ctx.read("l-vehicle-electric-only", L_ELECTRIC_ONLY)
        ctx.step_at("C. énergie, art. D. 251-1, 6°", "energy {energy}: the 6° requires electricity", energy=energy)
        return ctx.refuse(
            "4°, 5°",
            "a {energy} two- or three-wheeler or quadricycle is not a vehicle of the 6° of D. 251-1 (electric): "
            "neither 4° nor 5° applies",
            energy=energy,
        )
    if ctx.need(row.vehicle_uses_lead_battery, "vehicle.uses_lead_battery", "4°"):
        return ctx.refuse("4°", "the vehicle uses a lead battery: neither 4° nor 5° applies")
    power = ctx.need(row.vehicle_net_max_power_kw, "vehicle.net_max_power_kw", "4°")
    threshold = _power_threshold(ctx, power)
    if power >= threshold:
        kwh = ctx.need(row.vehicle_battery_energy_kwh, "vehicle.battery_energy_kwh", "4°")
        amount = ctx.per_unit("4°", "l_per_kwh", kwh, "kWh")
        ceiling = ctx.rate("4° a)", "l_rate", ctx.cost_with_battery("4° a)"), "cost incl. battery")
        l_cap = ctx.money("l_cap")
        lower = ceiling if ceiling < l_cap else l_cap
        ctx.step(
            "4° b)",
            "the lower of 4° a) {ceiling:€} and 4° b) {l_cap:€} is {lower:€}",
            lower,
            ceiling=ceiling,
            lower=lower,
        )
        amount = ctx.cap("4°", amount, lower, "the lower of the two amounts")
        return ctx.award(
            amount,
            "4°",
            "electric L vehicle, {power:q} kW ≥ {threshold:q} kW: {l_per_kwh} €/kWh capped at {lower:€}",
            power=power,
            threshold=threshold,
            lower=lower,
        )
    cost = ctx.need(row.vehicle_acquisition_cost, "vehicle.acquisition_cost", "5°")
    amount = ctx.rate("5°", "l_small_rate", cost, "cost")
    amount = ctx.cap("5°", amount, ctx.money("l_small_cap"), "cap")
    return ctx.award(
        amount,
        "5°",
        "electric L vehicle, {power:q} kW < {threshold:q} kW: {l_small_rate:%} capped at {l_small_cap:€}",
        power=power,
        threshold=threshold,
    )


def _power_threshold(ctx: Ctx[R], power: int) -> int:
    """« 2 kilowatts en application du règlement (UE) 168/2013 ou … 3 kilowatts en application de la directive
    2002/24/CE »: the instrument is asked only when the power lies between the two thresholds."""
    low, high = ctx.qty("l_min_kw_regulation"), ctx.qty("l_min_kw_directive")
    if power >= high or power < low:
        ctx.step(
            "4°, 5°",
            "net maximum power {power:q} kW is {side} thresholds ({low:q} kW under règlement (UE) 168/2013, "
            "{high:q} kW under directive 2002/24/CE): the instrument does not matter",
            power=power,
            side="≥ both" if power >= high else "< both",
            low=low,
            high=high,
        )
        return high if power >= high else low
    basis = ctx.need(ctx.row.vehicle_power_basis, "vehicle.power_basis", "4°")
    return low if basis is REGULATION else high


def _light_m2_n2(ctx: Ctx[R]) -> R:
    amount = ctx.rate("6°", "m2n2_rate", ctx.cost_with_battery("6°"), "cost incl. battery")
    amount = ctx.cap("6°", amount, ctx.money("m2n2_cap"), "cap")
    return ctx.award(
        amount, "6°", "vehicle of the 7° of D. 251-1 (M2/N2 ≤ 3,5 t): {m2n2_rate:%} capped at {m2n2_cap:€}"
    )
