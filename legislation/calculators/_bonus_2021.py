"""Shared rules of C. énergie art. D. 251-7 from 2021-01-21 to 2022-12-31 (a helper, not a calculator).

No full verbatim wording of D. 251-7 is on file for its versions of 2021-01-21 (décret n° 2021-37), 2021-07-01
(décret n° 2020-1526, art. 2), 2021-07-26 (décret n° 2021-977; only the opening of its 1° is on file, truncated),
2022-07-01 (décret n° 2022-960, art. 1) and 2022-07-31 (décret du 29 juillet 2022): their barèmes come from the
research (shared/legal/history/era-2021-2025.md §1a, rows B to F), graded ``secondary``. Each rule cites the barème
line it applies, never an invented « 1° ».

Rules (the versions differ in their numbers and in three switches, see :func:`calculate`):

- electric or hydrogen cars and vans (CO2 ≤ 20 g/km): below the low price limit, a rate of the cost (battery
  lease included) capped per kind of buyer; up to 60 000 € inclusive, a fixed amount; above, vans and hydrogen
  vehicles only (2021-01-21), or not known (from 2021-07-01, the research gives no amount above 60 000 €);
- from 2021-07-26 (décret 2021-977), vans « autres que » in the car bands: a rate capped per kind of buyer, at
  any price;
- plug-in hybrids (21–50 g/km, ≤ 50 000 €, city electric range > 50 km): a fixed amount;
- electric two- and three-wheelers and quadricycles: so much per kWh capped at the lower of a rate of the cost
  and a sum, at or above the power threshold; below it, a rate capped;
- heavy vehicles (décret 2021-37, « jusqu'au 31 décembre 2022 »): N2/N3 and M2/M3 electric or hydrogen, a rate
  of the cost capped per category group;
- the « outre-mer » majoration (décret 2021-37): + 1 000 € on the bonus for a new vehicle when the buyer is
  domiciled or established overseas.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from legislation.calculators._d251_1_new_vehicle import used_vehicle
from legislation.calculators.kit import Ctx, R
from legislation.enums import Energy, PowerBasis, VehicleCategory

FACTS = (
    "acquisition",
    "buyer.overseas",
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

CAR, VAN, LIGHT_M2_N2 = VehicleCategory.PASSENGER_CAR, VehicleCategory.VAN, VehicleCategory.LIGHT_M2_N2
L_VEHICLE, BICYCLE = VehicleCategory.TWO_THREE_WHEELER, VehicleCategory.ELECTRIC_BICYCLE
M2, M3, N2, N3 = VehicleCategory.M2, VehicleCategory.M3, VehicleCategory.N2, VehicleCategory.N3
ELECTRIC, HYDROGEN = Energy.ELECTRIC, Energy.HYDROGEN
REGULATION = PowerBasis.REGULATION_EU_168_2013

D251_1 = "C. énergie, art. D. 251-1"
CARS = "barème: electric and hydrogen cars and vans"
VANS = "barème: electric and hydrogen vans"
PHEV = "barème: plug-in hybrids"
L_BIG = "barème: electric two- and three-wheelers and quadricycles at or above the power threshold"
L_SMALL = "barème: electric two- and three-wheelers and quadricycles below the power threshold"
HEAVY = "barème: heavy vehicles N2/N3 and M2/M3 (décret n° 2021-37)"
OVERSEAS = "barème: outre-mer majoration (décret n° 2021-37)"

# A version's own lines, passed by its calculator module (each in a module of its own, so that a version whose
# barème has no such line never compiles a rule that names numbers it does not give):
# ``high``: vans and hydrogen vehicles above the middle band (2021-01-21: _bonus_2021_high); None: not known;
# ``vans``: vans at any price (from 2021-07-26: _bonus_2021_vans); None: vans follow the car bands.
HighLine = Callable[[Ctx[R], VehicleCategory, int], R]
VanLine = Callable[[Ctx[R]], R]

SECONDARY = (
    "The official wording of this version of D. 251-7 is not on file: its barème comes from secondary sources "
    "(shared/legal/history/era-2021-2025.md), each number citing its source and confidence in version.toml. "
    "The answer applies that barème; it cannot quote the article's words."
)
ASSUME_D251_1 = (
    "The vehicle meets the conditions of D. 251-1 other than those applied here (buyer of full age domiciled, or "
    "established, in France, or a State administration; registered in France in a definitive series; not sold "
    "within the periods of its 4°): only the opening of D. 251-1 and its 1° a) to c) are on file for this period."
)
L_ELECTRIC_ONLY = (
    "Two- and three-wheelers and quadricycles are aided only when they use electricity (D. 251-1, 6°, 2017 "
    "wording; the 2021–2022 wording is not on file): a vehicle whose energy the request gives as other than "
    "electric is refused."
)
HEAVY_ENERGY = (
    "Heavy vehicles (N2/N3, M2/M3) are aided when they use « l'électricité, l'hydrogène ou une combinaison des deux "
    "comme source exclusive d'énergie » (décret 2021-37 as reported by its notice and the press, history/"
    "era-2021-2025.md §2: likely): a vehicle whose energy the request gives as anything else is refused."
)
LIGHT_M2_N2_GONE = (
    "from 2021-01-21 D. 251-1 1° c) names the categories « N2 ou N3 » (décret n° 2021-37; official extract) and the "
    "light M2/N2 vehicles with a weight derogation of 2019–2021 are no longer a category of their own: give the "
    "vehicle's category as m2 or n2 (or van, for an N1)"
)
PHEV_CEILING_WITHOUT_BATTERY = (
    "Plug-in hybrids: the ceiling « ≤ 50 k€ » is applied to the acquisition cost without a leased battery, as the "
    "2020-06-01 wording on file (D. 251-7, 7°) does, which does not add « incluant le cas échéant le coût "
    "d'acquisition ou de location de la batterie » to its ceiling."
)
OVERSEAS_ASSUME = (
    "The vehicle is used in the overseas territory within six months of its acquisition (condition of the "
    "outre-mer majoration reported by the press for décret n° 2021-37; not on file)."
)
OVERSEAS_READING = (
    "The + 1 000 € is added to any amount of D. 251-7 for a new vehicle (décret 2021-37's notice: « aux "
    "bénéficiaires du bonus pour les véhicules neufs qui sont domiciliés en outre-mer, sans limitation de durée », "
    "as reported by ma-veille-juridique; likely), not to the bonus for a used vehicle (D. 251-1-1)."
)


def calculate(ctx: Ctx[R], high: HighLine[R] | None, vans: VanLine[R] | None) -> R:
    """The barème of a 2021–2022 version.

    ``high``: the line of vans and hydrogen vehicles above the middle band (None: the research gives no amount);
    ``vans``: the line of vans at any price (None: vans follow the car bands).
    """
    ctx.read("secondary-barème", SECONDARY)
    if (short_lease := ctx.lease_refusal(D251_1 + ", premier alinéa")) is not None:
        return short_lease
    category = ctx.need(ctx.row.vehicle_category, "vehicle.category", CARS)
    ctx.assume(ASSUME_D251_1)
    if category is BICYCLE:
        return ctx.not_covered(
            "",
            "a cycle is not a vehicle of D. 251-7; the separate aid for « cycles à pédalage assisté » is not on file",
        )
    if (used := used_vehicle(ctx)) is not None:  # D. 251-1, 2°; D. 251-1-1 for a used electric vehicle
        return used
    if category is CAR or category is VAN:
        co2 = ctx.need(ctx.row.vehicle_co2_g_per_km, "vehicle.co2_g_per_km", CARS)
        if co2 <= ctx.count("ev_co2_max"):
            if vans is not None and category is VAN:
                return vans(ctx)
            return _price_bands(ctx, category, high)
        if ctx.count("phev_co2_min") <= co2 <= ctx.count("phev_co2_max"):
            return _plug_in_hybrid(ctx)
        return ctx.refuse(
            "",
            "CO2 {co2} g/km: above {ev_co2_max} g/km and outside {phev_co2_min}–{phev_co2_max} g/km",
            co2=co2,
        )
    if category is L_VEHICLE:
        return _two_three_wheelers(ctx)
    if category is N2 or category is N3 or category is M2 or category is M3:
        return _heavy(ctx, category)
    if category is LIGHT_M2_N2:
        return ctx.not_covered("", LIGHT_M2_N2_GONE)
    return ctx.refuse("", "no line of the barème covers a vehicle of category {category}", category=category)


def award(ctx: Ctx[R], amount: int, paragraph: str, reason: str, /, **values: Any) -> R:
    """The amount of D. 251-7 for a new vehicle, with the outre-mer majoration (décret 2021-37) when due."""
    overseas = ctx.need(ctx.row.buyer_overseas, "buyer.overseas", OVERSEAS)
    if overseas:
        ctx.read("overseas-majoration", OVERSEAS_READING)
        ctx.assume(OVERSEAS_ASSUME)
        majoration = ctx.money("overseas_amount")
        ctx.step(OVERSEAS, "buyer domiciled or established overseas: + {overseas_amount:€}", majoration)
        return ctx.award(amount + majoration, paragraph, reason + "; + {overseas_amount:€} (outre-mer)", **values)
    ctx.step(OVERSEAS, "buyer not domiciled or established overseas: no majoration")
    return ctx.award(amount, paragraph, reason, **values)


def _price_bands(ctx: Ctx[R], category: VehicleCategory, high: HighLine[R] | None) -> R:
    cost = ctx.cost_with_battery(CARS)
    if cost < ctx.money("ev_low_price_limit"):
        amount = ctx.rate(CARS, "ev_rate", cost, "cost incl. battery")
        legal = ctx.is_legal_person_for_caps(CARS)
        cap = ctx.money("ev_cap_legal") if legal else ctx.money("ev_cap_natural")
        who = "legal person" if legal else "natural person"
        amount = ctx.cap(CARS, amount, cap, "cap for a " + who)
        return award(
            ctx,
            amount,
            CARS,
            "cost {cost:€} < {ev_low_price_limit:€}: {ev_rate:%} capped at {cap:€} ({who})",
            cost=cost,
            cap=cap,
            who=who,
        )
    if cost <= ctx.money("ev_mid_price_max"):
        amount = ctx.money("ev_mid_amount")
        ctx.step(CARS, "cost {cost:€} from {ev_low_price_limit:€} to {ev_mid_price_max:€} inclusive", amount, cost=cost)
        return award(
            ctx,
            amount,
            CARS,
            "cost {cost:€} from {ev_low_price_limit:€} to {ev_mid_price_max:€}: {ev_mid_amount:€}",
            cost=cost,
        )
    if high is not None:
        return high(ctx, category, cost)
    energy = ctx.row.vehicle_energy
    if category is VAN or energy is HYDROGEN:
        return ctx.not_covered(
            CARS,
            "a van or hydrogen vehicle costing {cost:€} > {ev_mid_price_max:€}: the research gives no amount "
            "above {ev_mid_price_max:€} for this version (3 000 € until 2021-06-30; the notice of décret "
            "2020-1526 lowers « les montants » by 1 000 € without a table), so the amount is not known",
            cost=cost,
        )
    return above_the_bands(ctx, cost)


def above_the_bands(ctx: Ctx[R], cost: int) -> R:
    """A battery-electric passenger car above the middle band: no line of the barème."""
    ctx.need(ctx.row.vehicle_energy, "vehicle.energy", CARS)
    return ctx.refuse(
        CARS, "cost {cost:€} > {ev_mid_price_max:€}: only vans and hydrogen vehicles are aided", cost=cost
    )


def _plug_in_hybrid(ctx: Ctx[R]) -> R:
    row = ctx.row
    cost = ctx.need(row.vehicle_acquisition_cost, "vehicle.acquisition_cost", PHEV)
    if row.vehicle_battery_rental_cost:
        ctx.read("phev-ceiling-without-battery", PHEV_CEILING_WITHOUT_BATTERY)
    if cost > ctx.money("phev_price_max"):
        return ctx.refuse(PHEV, "{phev_co2_min}–{phev_co2_max} g/km but cost {cost:€} > {phev_price_max:€}", cost=cost)
    city_range = ctx.need(row.vehicle_city_electric_range_km, "vehicle.city_electric_range_km", PHEV)
    if city_range <= ctx.qty("phev_range_min"):
        return ctx.refuse(
            PHEV,
            "{phev_co2_min}–{phev_co2_max} g/km but city electric range {city_range:q} km is not above "
            "{phev_range_min} km",
            city_range=city_range,
        )
    amount = ctx.money("phev_amount")
    ctx.step(
        PHEV,
        "{phev_co2_min}–{phev_co2_max} g/km, cost {cost:€} ≤ {phev_price_max:€}, range {city_range:q} km",
        amount,
        cost=cost,
        city_range=city_range,
    )
    return award(
        ctx,
        amount,
        PHEV,
        "plug-in hybrid {phev_co2_min}–{phev_co2_max} g/km, ≤ {phev_price_max:€}, range > "
        "{phev_range_min} km: {phev_amount:€}",
    )


def _two_three_wheelers(ctx: Ctx[R]) -> R:
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
    low, high = ctx.qty("l_min_kw_regulation"), ctx.qty("l_min_kw_directive")
    if power >= high or power < low:
        limit = high if power >= high else low
    else:
        basis = ctx.need(row.vehicle_power_basis, "vehicle.power_basis", L_BIG)
        limit = low if basis is REGULATION else high
    if power >= limit:
        kwh = ctx.need(row.vehicle_battery_energy_kwh, "vehicle.battery_energy_kwh", L_BIG)
        amount = ctx.per_unit(L_BIG, "l_per_kwh", kwh, "kWh")
        ceiling = ctx.rate(L_BIG, "l_rate", ctx.cost_with_battery(L_BIG), "cost incl. battery")
        l_cap = ctx.money("l_cap")
        lower = ceiling if ceiling < l_cap else l_cap
        ctx.step(L_BIG, "the lower of {ceiling:€} and {l_cap:€} is {lower:€}", lower, ceiling=ceiling, lower=lower)
        amount = ctx.cap(L_BIG, amount, lower, "the lower of the two amounts")
        return award(
            ctx,
            amount,
            L_BIG,
            "electric L vehicle, {power:q} kW ≥ {limit:q} kW: {l_per_kwh} €/kWh capped at {lower:€}",
            power=power,
            limit=limit,
            lower=lower,
        )
    cost = ctx.need(row.vehicle_acquisition_cost, "vehicle.acquisition_cost", L_SMALL)
    amount = ctx.rate(L_SMALL, "l_small_rate", cost, "cost")
    amount = ctx.cap(L_SMALL, amount, ctx.money("l_small_cap"), "cap")
    return award(
        ctx,
        amount,
        L_SMALL,
        "electric L vehicle, {power:q} kW < {limit:q} kW: {l_small_rate:%} capped at {l_small_cap:€}",
        power=power,
        limit=limit,
    )


def _heavy(ctx: Ctx[R], category: VehicleCategory) -> R:
    energy = ctx.need(ctx.row.vehicle_energy, "vehicle.energy", HEAVY)
    if energy is not ELECTRIC and energy is not HYDROGEN:
        ctx.read("heavy-vehicle-energy", HEAVY_ENERGY)
        return ctx.refuse(
            HEAVY,
            "a {energy} vehicle of category {category}: only electricity and/or hydrogen are aided",
            energy=energy,
            category=category,
        )
    cost = ctx.cost_with_battery(HEAVY)
    amount = ctx.rate(HEAVY, "heavy_rate", cost, "cost incl. battery")
    goods = category is N2 or category is N3
    cap = ctx.money("heavy_cap_n2_n3") if goods else ctx.money("heavy_cap_m2_m3")
    group = "N2/N3" if goods else "M2/M3"
    amount = ctx.cap(HEAVY, amount, cap, "cap for " + group)
    return award(
        ctx,
        amount,
        HEAVY,
        "{energy} vehicle of category {category} ({group}), cost {cost:€}: {heavy_rate:%} capped at {cap:€}",
        energy=energy,
        category=category,
        group=group,
        cost=cost,
        cap=cap,
    )
