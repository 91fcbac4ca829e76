"""The paragraphs of C. énergie, art. D. 251-8 shared by its 2021–2022 wordings (a helper, not a calculator).

Written once for the wording of 2021-07-26 (décret n° 2021-977, seed 001; :mod:`conversion_premium_2021_07_26`), whose
1°, 2°, 3°, 4° and 5° also serve the wording of 2021-07-01 (:mod:`conversion_premium_2021_07_01`) and, with other
numbers, that of 2021-12-31: the opening conditions (a lease of two years or more, a vehicle withdrawn for
destruction), 1° (cars with an electric range), 2° (two- and three-wheelers), 3° (Crit'Air 1 under the CO2
ceilings), 4° (21–50 g/km). The vans' 1° bis and the cycles' 4° bis stay in the 2021-07-26 calculator: the wording
of 2021-07-01 does not have them, and a version's compiled form must give every number its functions read.
"""

from __future__ import annotations

from collections.abc import Callable

from legislation.calculators import _conversion_premium_2021 as rules
from legislation.calculators.kit import Candidate, Ctx, R
from legislation.enums import CritAir, Energy, PowerBasis, VehicleCategory
from legislation.errors import MissingFact

# The request paths the 2021–2022 calculators of D. 251-8 read (their ``FACTS``).
FACTS = (
    "acquisition",
    "bonus_ecologique_amount",
    "buyer.home_work_distance_km",
    "buyer.person_kind",
    "buyer.professional_km_per_year",
    "buyer.reference_income_per_share",
    "lease_duration_months",
    "scrapped_vehicle",
    "vehicle.acquisition_cost",
    "vehicle.battery_rental_cost",
    "vehicle.category",
    "vehicle.city_electric_range_km",
    "vehicle.co2_g_per_km",
    "vehicle.critair",
    "vehicle.energy",
    "vehicle.first_registration_date",
    "vehicle.net_max_power_kw",
    "vehicle.new_registration_system",
    "vehicle.power_basis",
    "vehicle.previously_registered",
    "vehicle.uses_lead_battery",
    "vehicle.van_class",
    "vehicle.wheelchair_accessible",
)

CAR, VAN = VehicleCategory.PASSENGER_CAR, VehicleCategory.VAN
L_VEHICLE, BICYCLE = VehicleCategory.TWO_THREE_WHEELER, VehicleCategory.ELECTRIC_BICYCLE
CLASS_1, ELECTRIC_CLASS, ELECTRIC = CritAir.CLASS_1, CritAir.ELECTRIC, Energy.ELECTRIC
REGULATION = PowerBasis.REGULATION_EU_168_2013

# Vehicles the arrêté of R. 318-2 classes « électrique » (4° names that class beside « 1 »).
ZERO_EMISSION = (Energy.ELECTRIC, Energy.HYDROGEN)


def start(ctx: Ctx[R]) -> R | None:
    """What every 2021–2022 wording of D. 251-8 asks first: a lease of two years or more (D. 251-3), the
    vehicle's category, a vehicle withdrawn for destruction; then the D. 251-3 conditions are assumed."""
    if (short_lease := ctx.lease_refusal("C. énergie, art. D. 251-3, premier alinéa")) is not None:
        return short_lease
    ctx.need(ctx.row.vehicle_category, "vehicle.category", "premier alinéa")
    if not ctx.row.scrapped_vehicle:
        ctx.step_at(
            rules.D251_3,
            "the prime à la conversion goes with the withdrawal from circulation, for "
            "destruction, of a vehicle; the request gives no scrapped vehicle",
        )
        return ctx.refuse(
            "premier alinéa",
            "no vehicle withdrawn for destruction: « l'aide prévue à l'article "
            "D. 251-3 » requires one (D. 251-3)",
        )
    ctx.assume(rules.ASSUME_D251_3)
    return None


def not_a_case(ctx: Ctx[R], category: VehicleCategory) -> R:
    return ctx.refuse(
        "premier alinéa",
        "none of « les cas suivants » of D. 251-8 (2021) covers a vehicle of category {category}",
        category=category,
    )


def _price(ctx: Ctx[R], paragraph: str) -> int:
    ctx.read("rate-on-price-then-cap", rules.READING_RATE_ON_PRICE)
    return ctx.need(ctx.row.vehicle_acquisition_cost, "vehicle.acquisition_cost", paragraph)


def rate_capped(ctx: Ctx[R], paragraph: str, rate: str, cap: str) -> int:
    amount = ctx.rate(paragraph, rate, _price(ctx, paragraph), "acquisition price")
    return ctx.cap(paragraph, amount, ctx.money(cap), "cap")


def has_range(ctx: Ctx[R], paragraph: str) -> bool:
    city_range = rules.city_electric_range(ctx, paragraph)
    if city_range <= ctx.qty("electric_range_min"):
        ctx.miss(
            paragraph + ": city electric range {city_range:q} km is not above {electric_range_min} km",
            city_range=city_range,
        )
        return False
    ctx.step(paragraph, "city electric range {city_range:q} km > {electric_range_min} km", city_range=city_range)
    return True


def electric_car(ctx: Ctx[R]) -> list[Candidate]:
    """1°: cars other than vans, of the 5° of D. 251-1, ≤ 60 000 € with the battery, range > 50 km."""
    cost = ctx.cost_with_battery("1°")
    if cost > ctx.money("c1_price_max"):  # known: the range is not asked
        ctx.miss("1°: cost incl. battery {cost_with_battery:€} > {c1_price_max:€}", cost_with_battery=cost)
        return []
    if not has_range(ctx, "1°"):
        return []
    ctx.assume(rules.ASSUME_D251_1_5)
    ctx.step("1°", "car of the 5° of D. 251-1, cost incl. battery {cost:€} ≤ {c1_price_max:€}", cost=cost)
    ctx.read("other-cases-residual", rules.READING_OTHER_CASES)
    if rules.is_modest_or_long_distance(ctx, "1° a)"):
        amount = rate_capped(ctx, "1° a)", "c1_rate", "c1_cap")
        return [
            Candidate(amount=amount, paragraph="1° a)", reason="1° a): {c1_rate:%} of the price, capped at {c1_cap:€}")
        ]
    other = ctx.money("c1_other_amount")
    ctx.step("1° b)", "the buyer does not meet the conditions of 1° a): « autres cas »", other)
    return [Candidate(amount=other, paragraph="1° b)", reason="1° b): {c1_other_amount:€} in the other cases")]


def _co2(ctx: Ctx[R], paragraph: str) -> int:
    co2 = ctx.need(ctx.row.vehicle_co2_g_per_km, "vehicle.co2_g_per_km", paragraph)
    ctx.step_once(  # shown once, whether 3° or 4° reads it first
        "5°, 1re phrase",
        "CO2 {co2} g/km, the emissions deemed to meet CGI art. 1007 bis after the 1011 bis abatement",
        co2=co2,
    )
    return co2


def _critair(ctx: Ctx[R], paragraph: str) -> CritAir:
    """The class under the arrêté of R. 318-2; not given for an electric or hydrogen car: « électrique »."""
    critair = ctx.row.vehicle_critair
    if critair is None and ctx.row.vehicle_energy in ZERO_EMISSION:
        ctx.assume(rules.ASSUME_CRITAIR_ELECTRIC)
        return ELECTRIC_CLASS
    return ctx.need(critair, "vehicle.critair", paragraph)


def crit_air_1(ctx: Ctx[R]) -> list[Candidate]:
    """3°: cars and vans classed « 1 », ≤ 50 000 €, under the 132/137 g (104/109 g) ceilings."""
    cost = ctx.need(ctx.row.vehicle_acquisition_cost, "vehicle.acquisition_cost", "3°")
    if cost > ctx.money("c3_price_max"):  # known: no other fact of 3° is asked
        ctx.miss("3°: cost {cost:€} > {c3_price_max:€}", cost=cost)
        return []
    if not _all_met(ctx, _classed_1, _low_income_household, _under_co2_ceiling):
        return []
    amount = ctx.cap("3° a)", ctx.money("c3_low_income_amount"), cost, "limit: the acquisition cost TTC")
    candidates = [
        Candidate(
            amount=amount, paragraph="3° a)", reason="3° a): {c3_low_income_amount:€} within the acquisition cost"
        )
    ]
    if rules.is_modest_or_long_distance(ctx, "3° b)"):
        amount = rate_capped(ctx, "3° b)", "c3_rate", "c3_cap")
        candidates.append(
            Candidate(amount=amount, paragraph="3° b)", reason="3° b): {c3_rate:%} of the price, capped at {c3_cap:€}")
        )
    return candidates


def _classed_1(ctx: Ctx[R]) -> bool:
    if (critair := _critair(ctx, "3°")) is not CLASS_1:
        ctx.miss("3°: classed « {critair} », not « 1 »", critair=critair)
        return False
    return True


def _low_income_household(ctx: Ctx[R]) -> bool:
    if not rules.is_low_income(ctx, "3° a)"):
        ctx.miss("3°: a) and b) both require a natural person with a reference income per share ≤ {income_max:€}")
        return False
    return True


def _under_co2_ceiling(ctx: Ctx[R]) -> bool:
    if not rules.meets_co2_ceiling(ctx, _co2(ctx, "3°")):
        ctx.miss("3°: CO2 above the ceiling for this vehicle")
        return False
    return True


def _all_met(ctx: Ctx[R], *conditions: Callable[[Ctx[R]], bool]) -> bool:
    """Whether every condition of a paragraph is met; a fact missing for one is asked only if no other fails.

    A purchase that another condition already excludes is not asked for the facts of the first ones (an
    electric van is not asked its buyer's income to be kept out of the 3°)."""
    pending: MissingFact | None = None
    try:
        for condition in conditions:
            try:
                if not condition(ctx):
                    return False
            except MissingFact as missing:
                pending = pending or missing
        if pending is not None:
            raise pending
        return True
    finally:
        # the frame let go of the fact: its traceback holds this frame (a reference cycle that kept the callers'
        # frames, and what they hold, until the cyclic collector came by)
        del pending


def plug_in(ctx: Ctx[R]) -> list[Candidate]:
    """4°: cars and vans of 21–50 g/km classed « électrique » or « 1 », ≤ 50 000 €."""
    co2 = _co2(ctx, "4°")
    if not ctx.count("c4_co2_min") <= co2 <= ctx.count("c4_co2_max"):
        ctx.miss("4°: CO2 {co2} g/km is not between {c4_co2_min} and {c4_co2_max} g/km", co2=co2)
        return []
    cost = ctx.need(ctx.row.vehicle_acquisition_cost, "vehicle.acquisition_cost", "4°")
    if cost > ctx.money("c4_price_max"):
        ctx.miss("4°: cost {cost:€} > {c4_price_max:€}", cost=cost)
        return []
    critair = _critair(ctx, "4°")
    if critair is not ELECTRIC_CLASS and critair is not CLASS_1:
        ctx.miss("4°: classed « {critair} », neither « électrique » nor « 1 »", critair=critair)
        return []
    ctx.step(
        "4°",
        "CO2 {co2} g/km in [{c4_co2_min}, {c4_co2_max}], classed « {critair} », cost {cost:€} ≤ {c4_price_max:€}",
        co2=co2,
        critair=critair,
        cost=cost,
    )
    ctx.read("other-cases-residual", rules.READING_OTHER_CASES)
    if rules.is_modest_or_long_distance(ctx, "4° a)"):
        amount = rate_capped(ctx, "4° a)", "c4_rate", "c4_cap")
        return [
            Candidate(amount=amount, paragraph="4° a)", reason="4° a): {c4_rate:%} of the price, capped at {c4_cap:€}")
        ]
    other = ctx.money("c4_other_amount")
    ctx.step("4° b)", "the buyer does not meet the conditions of 4° a): « autres cas »", other)
    return [Candidate(amount=other, paragraph="4° b)", reason="4° b): {c4_other_amount:€} in the other cases")]


def two_three_wheeler(ctx: Ctx[R]) -> R:
    """2°: new L vehicles of the 6° of D. 251-1, no lead battery, net power ≥ 2 kW (≥ 3 kW under 2002/24)."""
    row = ctx.row
    energy = row.vehicle_energy
    if energy is not None and energy is not ELECTRIC:
        ctx.read("l-vehicle-electric-only", rules.READING_L_ELECTRIC_ONLY)
        ctx.step_at(rules.D251_1 + ", 6°", "energy {energy}: the 6° requires electricity", energy=energy)
        return ctx.refuse(
            "2°",
            "a {energy} two- or three-wheeler or quadricycle does not correspond to the 6° of D. 251-1 (electric)",
            energy=energy,
        )
    ctx.assume(rules.ASSUME_D251_1_6)
    if ctx.need(row.vehicle_previously_registered, "vehicle.previously_registered", "2°"):
        return ctx.refuse("2°", "the vehicle has already been registered: 2° requires a first registration")
    if ctx.need(row.vehicle_uses_lead_battery, "vehicle.uses_lead_battery", "2°"):
        return ctx.refuse("2°", "the vehicle uses a lead battery")
    power = ctx.need(row.vehicle_net_max_power_kw, "vehicle.net_max_power_kw", "2°")
    threshold, measured = _power_threshold(ctx, power)
    if power < threshold:
        return ctx.refuse(
            "2°", "net maximum power {power:q} kW < {threshold:q} kW ({measured})",
            power=power, threshold=threshold, measured=measured,
        )
    ctx.step(
        "2°", "new, no lead battery, net maximum power {power:q} kW ≥ {threshold:q} kW ({measured})",
        power=power, threshold=threshold, measured=measured,
    )
    if rules.is_low_income(ctx, "2° a)"):
        return _two_three_wheeler_low_income(ctx)
    ctx.read("other-cases-residual", rules.READING_OTHER_CASES)
    other = ctx.money("l_other_amount")
    ctx.step("2° b)", "the buyer does not meet the conditions of 2° a): « autres cas »", other)
    return ctx.award(other, "2° b)", "2° b): {l_other_amount:€} in the other cases")


def _power_threshold(ctx: Ctx[R], power: int) -> tuple[int, str]:
    """« 2 kilowatts en application du règlement (UE) 168/2013 ou … 3 kilowatts en application de la
    directive 2002/24/CE »: the instrument is asked only when the power lies between the two."""
    low, high = ctx.qty("l_min_kw_regulation"), ctx.qty("l_min_kw_directive")
    if power >= high:
        return high, "≥ both thresholds: the instrument of measure does not matter"
    if power < low:
        return low, "< both thresholds: the instrument of measure does not matter"
    basis = ctx.need(ctx.row.vehicle_power_basis, "vehicle.power_basis", "2°")
    return (low if basis is REGULATION else high), basis.value


def _two_three_wheeler_low_income(ctx: Ctx[R]) -> R:
    ctx.read("2a-cap-cost-minus-bonus", rules.READING_CAP_COST_MINUS_BONUS)
    cost = ctx.need(ctx.row.vehicle_acquisition_cost, "vehicle.acquisition_cost", "2° a)")
    bonus = ctx.need(ctx.row.bonus_ecologique_amount, "bonus_ecologique_amount", "2° a)")
    limit = max(cost - bonus, 0)
    ctx.step("2° a)", "limit: cost TTC {cost:€} − bonus écologique {bonus:€} = {limit:€}", limit,
             cost=cost, bonus=bonus, limit=limit)
    amount = ctx.cap("2° a)", ctx.money("l_low_income_amount"), limit, "limit: cost minus bonus")
    return ctx.award(
        amount, "2° a)", "2° a): {l_low_income_amount:€} within the acquisition cost minus the bonus écologique"
    )
