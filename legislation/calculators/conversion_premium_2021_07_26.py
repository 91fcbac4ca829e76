"""Prime à la conversion — C. énergie, art. D. 251-8, wording of décret n° 2021-977 du 23 juillet 2021.

JORF du 25 juillet 2021 (NOR not found). LEGIARTI000043857272. In force 2021-07-26 → 2021-12-30; décret
n° 2021-1866 replaced it on 2021-12-31 (132 g → 127 g, 104 g → 99 g). Seed 001.

Every paragraph is applied: 1° a) b) (cars of the 5° of D. 251-1), 1° bis a) b) c) (vans by class), 2° a) b)
(two- and three-wheelers, quadricycles), 3° a) b) (cars and vans classed « 1 »), 4° a) b) (21–50 g/km),
4° bis (pedal-assisted cycles) and 5° (how CO2 is read, and the lower ceilings of 3°). The numbers come
from the version's parameters, each quoted from the text. D. 251-3 (who gets the prime, which vehicle is
scrapped) and D. 251-1 are not on file for 2021: their conditions are listed as assumptions.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from legislation.award import Award
from legislation.calculators import _conversion_premium_2021 as rules
from legislation.calculators.kit import Candidate, Ctx
from legislation.enums import CritAir, Energy, PowerBasis, VanClass, VehicleCategory
from legislation.errors import MissingFact
from legislation.money import ZERO

# fmt: off
PARAMETERS = (
    "c1_price_max", "electric_range_min", "c1_rate", "c1_cap", "c1_other_amount",  # 1°
    "income_max", "income_very_low_max", "commute_km_min", "professional_km_min",  # households
    "van_rate", "van_cap_class_i", "van_cap_class_ii", "van_cap_class_iii",  # 1° bis
    "l_min_kw_regulation", "l_min_kw_directive", "l_low_income_amount", "l_other_amount",  # 2°
    "c3_price_max", "c3_co2_new_max", "c3_recent_months", "c3_co2_other_max",  # 3°
    "c3_low_income_amount", "c3_rate", "c3_cap",  # 3° a) and b)
    "c4_price_max", "c4_co2_min", "c4_co2_max", "c4_rate", "c4_cap", "c4_other_amount",  # 4°
    "ebike_rate", "ebike_cap",  # 4° bis
    "c3_co2_other_max_lowered", "c3_co2_new_max_lowered",  # 5°
)
# The amounts and caps the text can award: the highest bounds every answer (property tests).
AMOUNT_PARAMETERS = (
    "c1_cap", "c1_other_amount", "van_cap_class_i", "van_cap_class_ii", "van_cap_class_iii",
    "l_low_income_amount", "l_other_amount", "c3_low_income_amount", "c3_cap", "c4_cap", "c4_other_amount",
    "ebike_cap",
)
# fmt: on
AMOUNT_PARAMETERS = (
    "c1_cap",
    "c1_other_amount",
    "van_cap_class_i",
    "van_cap_class_ii",
    "van_cap_class_iii",
    "l_low_income_amount",
    "l_other_amount",
    "c3_low_income_amount",
    "c3_cap",
    "c4_cap",
    "c4_other_amount",
    "ebike_cap",
)

# Vehicles the arrêté of R. 318-2 classes « électrique » (4° names that class beside « 1 »).
ZERO_EMISSION = (Energy.ELECTRIC, Energy.HYDROGEN)

VAN_CLASSES = {
    VanClass.I: ("1° bis a)", "van_cap_class_i"),
    VanClass.II: ("1° bis b)", "van_cap_class_ii"),
    VanClass.III: ("1° bis c)", "van_cap_class_iii"),
}


def calculate(ctx: Ctx) -> Award:
    if (short_lease := ctx.lease_refusal("C. énergie, art. D. 251-3, premier alinéa")) is not None:
        return short_lease
    category = ctx.need(ctx.vehicle.category, "vehicle.category", "premier alinéa")
    if ctx.purchase.scrapped_vehicle is None:
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
    if category in (VehicleCategory.PASSENGER_CAR, VehicleCategory.VAN):
        return _cars_and_vans(ctx, category)
    if category is VehicleCategory.TWO_THREE_WHEELER:
        return _two_three_wheeler(ctx)
    if category is VehicleCategory.ELECTRIC_BICYCLE:
        return _electric_bicycle(ctx)
    return ctx.refuse(
        "premier alinéa",
        f"none of « les cas suivants » of D. 251-8 (2021) covers a vehicle of category {category.value}",
    )


def _cars_and_vans(ctx: Ctx, category: VehicleCategory) -> Award:
    misses: list[str] = []
    if category is VehicleCategory.VAN:
        candidates, examined = _electric_van(ctx, misses), "1° bis, 3° et 4°"
    else:
        candidates, examined = _electric_car(ctx, misses), "1°, 3° et 4°"
    candidates += _crit_air_1(ctx, misses)
    candidates += _plug_in(ctx, misses)
    if not candidates:
        return ctx.refuse(examined, "; ".join(misses))
    return ctx.best(candidates, rules.WHY_MOST_FAVOURABLE)


def _price(ctx: Ctx, paragraph: str) -> Decimal:
    ctx.read("rate-on-price-then-cap", rules.READING_RATE_ON_PRICE)
    return ctx.need(ctx.vehicle.acquisition_cost, "vehicle.acquisition_cost", paragraph)


def _rate_capped(ctx: Ctx, paragraph: str, rate: str, cap: str) -> Decimal:
    amount = ctx.rate(paragraph, rate, _price(ctx, paragraph), "acquisition price")
    return ctx.cap(paragraph, amount, ctx.p(cap), "cap")


def _has_range(ctx: Ctx, paragraph: str, misses: list[str]) -> bool:
    city_range, minimum = rules.city_electric_range(ctx, paragraph), ctx.p("electric_range_min")
    if city_range <= minimum:
        misses.append(f"{paragraph}: city electric range {city_range} km is not above {minimum} km")
        return False
    ctx.step(paragraph, f"city electric range {city_range} km > {minimum} km")
    return True


def _electric_car(ctx: Ctx, misses: list[str]) -> list[Candidate]:
    """1°: cars other than vans, of the 5° of D. 251-1, ≤ 60 000 € with the battery, range > 50 km."""
    cost, limit = ctx.cost_with_battery("1°"), ctx.p("c1_price_max")

    def price() -> bool:
        if cost > limit:
            misses.append(f"1°: cost incl. battery {cost} € > {limit} €")
            return False
        return True

    if not _all_met(price, lambda: _has_range(ctx, "1°", misses)):
        return []
    ctx.assume(rules.ASSUME_D251_1_5)
    ctx.step("1°", f"car of the 5° of D. 251-1, cost incl. battery {cost} € ≤ {limit} €")
    ctx.read("other-cases-residual", rules.READING_OTHER_CASES)
    if rules.is_modest_or_long_distance(ctx, "1° a)"):
        amount = _rate_capped(ctx, "1° a)", "c1_rate", "c1_cap")
        return [
            Candidate(amount=amount, paragraph="1° a)", reason="1° a): 80 % of the price, capped at 5 000 €")
        ]
    ctx.step(
        "1° b)", "the buyer does not meet the conditions of 1° a): « autres cas »", ctx.p("c1_other_amount")
    )
    return [
        Candidate(
            amount=ctx.p("c1_other_amount"), paragraph="1° b)", reason="1° b): 2 500 € in the other cases"
        )
    ]


def _electric_van(ctx: Ctx, misses: list[str]) -> list[Candidate]:
    """1° bis: vans of the 5° of D. 251-1, range > 50 km: 40 % of the price capped by class."""
    if not _has_range(ctx, "1° bis", misses):
        return []
    ctx.assume(rules.ASSUME_D251_1_5)
    van_class = ctx.need(ctx.vehicle.van_class, "vehicle.van_class", "1° bis")
    paragraph, cap = VAN_CLASSES[van_class]
    ctx.step(paragraph, f"van of class {van_class.value} (règlement (CE) n° 715/2007, annex 1)")
    amount = _rate_capped(ctx, paragraph, "van_rate", cap)
    return [
        Candidate(
            amount=amount,
            paragraph=paragraph,
            reason=f"{paragraph}: class {van_class.value} van, 40 % of the price capped at {ctx.p(cap)} €",
        )
    ]


def _co2(ctx: Ctx, paragraph: str) -> int:
    co2 = ctx.need(ctx.vehicle.co2_g_per_km, "vehicle.co2_g_per_km", paragraph)
    text = f"CO2 {co2} g/km, the emissions deemed to meet CGI art. 1007 bis after the 1011 bis abatement"
    if all(s.text != text for s in ctx.steps):
        ctx.step("5°, 1re phrase", text)
    return co2


def _critair(ctx: Ctx, paragraph: str) -> CritAir:
    """The class under the arrêté of R. 318-2; not given for an electric or hydrogen car: « électrique »."""
    critair = ctx.vehicle.critair
    if critair is None and ctx.vehicle.energy in ZERO_EMISSION:
        ctx.assume(rules.ASSUME_CRITAIR_ELECTRIC)
        return CritAir.ELECTRIC
    return ctx.need(critair, "vehicle.critair", paragraph)


def _crit_air_1(ctx: Ctx, misses: list[str]) -> list[Candidate]:
    """3°: cars and vans classed « 1 », ≤ 50 000 €, under the 132/137 g (104/109 g) ceilings."""
    cost = ctx.need(ctx.vehicle.acquisition_cost, "vehicle.acquisition_cost", "3°")

    def price() -> bool:
        if cost > (limit := ctx.p("c3_price_max")):
            misses.append(f"3°: cost {cost} € > {limit} €")
            return False
        return True

    def household() -> bool:
        if not rules.is_low_income(ctx, "3° a)"):
            misses.append(
                "3°: a) and b) both require a natural person with a reference income per share ≤ 13 489 €"
            )
            return False
        return True

    def classed_1() -> bool:
        if (critair := _critair(ctx, "3°")) is not CritAir.CLASS_1:
            misses.append(f"3°: classed « {critair.value} », not « 1 »")
            return False
        return True

    def co2_ceiling() -> bool:
        if not rules.meets_co2_ceiling(ctx, _co2(ctx, "3°")):
            misses.append("3°: CO2 above the ceiling for this vehicle")
            return False
        return True

    if not _all_met(price, classed_1, household, co2_ceiling):
        return []
    amount = ctx.cap("3° a)", ctx.p("c3_low_income_amount"), cost, "limit: the acquisition cost TTC")
    found = [Candidate(amount=amount, paragraph="3° a)", reason="3° a): 1 500 € within the acquisition cost")]
    if rules.is_modest_or_long_distance(ctx, "3° b)"):
        amount = _rate_capped(ctx, "3° b)", "c3_rate", "c3_cap")
        found.append(
            Candidate(amount=amount, paragraph="3° b)", reason="3° b): 80 % of the price, capped at 3 000 €")
        )
    return found


def _all_met(*conditions: Callable[[], bool]) -> bool:
    """Whether every condition of a paragraph is met; a fact missing for one is asked only if no other fails.

    A purchase that another condition already excludes is not asked for the facts of the first ones (an
    electric van is not asked its buyer's income to be kept out of the 3°)."""
    pending: MissingFact | None = None
    for condition in conditions:
        try:
            if not condition():
                return False
        except MissingFact as missing:
            pending = pending or missing
    if pending is not None:
        raise pending
    return True


def _plug_in(ctx: Ctx, misses: list[str]) -> list[Candidate]:
    """4°: cars and vans of 21–50 g/km classed « électrique » or « 1 », ≤ 50 000 €."""
    co2, low, high = _co2(ctx, "4°"), ctx.p("c4_co2_min"), ctx.p("c4_co2_max")
    if not low <= co2 <= high:
        misses.append(f"4°: CO2 {co2} g/km is not between {low} and {high} g/km")
        return []
    cost, limit = (
        ctx.need(ctx.vehicle.acquisition_cost, "vehicle.acquisition_cost", "4°"),
        ctx.p("c4_price_max"),
    )
    if cost > limit:
        misses.append(f"4°: cost {cost} € > {limit} €")
        return []
    critair = _critair(ctx, "4°")
    if critair not in (CritAir.ELECTRIC, CritAir.CLASS_1):
        misses.append(f"4°: classed « {critair.value} », neither « électrique » nor « 1 »")
        return []
    ctx.step(
        "4°", f"CO2 {co2} g/km in [{low}, {high}], classed « {critair.value} », cost {cost} € ≤ {limit} €"
    )
    ctx.read("other-cases-residual", rules.READING_OTHER_CASES)
    if rules.is_modest_or_long_distance(ctx, "4° a)"):
        amount = _rate_capped(ctx, "4° a)", "c4_rate", "c4_cap")
        return [
            Candidate(amount=amount, paragraph="4° a)", reason="4° a): 80 % of the price, capped at 3 000 €")
        ]
    ctx.step(
        "4° b)", "the buyer does not meet the conditions of 4° a): « autres cas »", ctx.p("c4_other_amount")
    )
    return [
        Candidate(
            amount=ctx.p("c4_other_amount"), paragraph="4° b)", reason="4° b): 1 500 € in the other cases"
        )
    ]


def _two_three_wheeler(ctx: Ctx) -> Award:
    """2°: new L vehicles of the 6° of D. 251-1, no lead battery, net power ≥ 2 kW (≥ 3 kW under 2002/24)."""
    energy = ctx.vehicle.energy
    if energy is not None and energy is not Energy.ELECTRIC:
        ctx.read("l-vehicle-electric-only", rules.READING_L_ELECTRIC_ONLY)
        ctx.step_at(f"{rules.D251_1}, 6°", f"energy {energy.value}: the 6° requires electricity")
        return ctx.refuse(
            "2°",
            f"a {energy.value} two- or three-wheeler or quadricycle does not correspond "
            "to the 6° of D. 251-1 (electric)",
        )
    ctx.assume(rules.ASSUME_D251_1_6)
    if ctx.need(ctx.vehicle.previously_registered, "vehicle.previously_registered", "2°"):
        return ctx.refuse("2°", "the vehicle has already been registered: 2° requires a first registration")
    if ctx.need(ctx.vehicle.uses_lead_battery, "vehicle.uses_lead_battery", "2°"):
        return ctx.refuse("2°", "the vehicle uses a lead battery")
    power = ctx.need(ctx.vehicle.net_max_power_kw, "vehicle.net_max_power_kw", "2°")
    threshold, measured = _power_threshold(ctx, power)
    if power < threshold:
        return ctx.refuse("2°", f"net maximum power {power} kW < {threshold} kW ({measured})")
    ctx.step("2°", f"new, no lead battery, net maximum power {power} kW ≥ {threshold} kW ({measured})")
    if rules.is_low_income(ctx, "2° a)"):
        return _two_three_wheeler_low_income(ctx)
    ctx.read("other-cases-residual", rules.READING_OTHER_CASES)
    ctx.step(
        "2° b)", "the buyer does not meet the conditions of 2° a): « autres cas »", ctx.p("l_other_amount")
    )
    return ctx.award(ctx.p("l_other_amount"), "2° b)", "2° b): 100 € in the other cases")


def _power_threshold(ctx: Ctx, power: Decimal) -> tuple[Decimal, str]:
    """« 2 kilowatts en application du règlement (UE) 168/2013 ou … 3 kilowatts en application de la
    directive 2002/24/CE »: the instrument is asked only when the power lies between the two."""
    low, high = ctx.p("l_min_kw_regulation"), ctx.p("l_min_kw_directive")
    if power >= high:
        return high, "≥ both thresholds: the instrument of measure does not matter"
    if power < low:
        return low, "< both thresholds: the instrument of measure does not matter"
    basis = ctx.need(ctx.vehicle.power_basis, "vehicle.power_basis", "2°")
    regulation = basis is PowerBasis.REGULATION_EU_168_2013
    return (low if regulation else high), basis.value


def _two_three_wheeler_low_income(ctx: Ctx) -> Award:
    ctx.read("2a-cap-cost-minus-bonus", rules.READING_CAP_COST_MINUS_BONUS)
    cost = ctx.need(ctx.vehicle.acquisition_cost, "vehicle.acquisition_cost", "2° a)")
    bonus = ctx.need(ctx.purchase.bonus_ecologique_amount, "bonus_ecologique_amount", "2° a)")
    limit = max(cost - bonus, ZERO)
    ctx.step("2° a)", f"limit: cost TTC {cost} € − bonus écologique {bonus} € = {limit} €", limit)
    amount = ctx.cap("2° a)", ctx.p("l_low_income_amount"), limit, "limit: cost minus bonus")
    return ctx.award(amount, "2° a)", "2° a): 1 100 € within the acquisition cost minus the bonus écologique")


def _electric_bicycle(ctx: Ctx) -> Award:
    """4° bis: 40 % of the acquisition cost, capped at 1 500 €, whoever the beneficiary."""
    ctx.assume(rules.ASSUME_EBIKE)
    cost = ctx.need(ctx.vehicle.acquisition_cost, "vehicle.acquisition_cost", "4° bis")
    amount = ctx.rate("4° bis", "ebike_rate", cost, "acquisition cost")
    amount = ctx.cap("4° bis", amount, ctx.p("ebike_cap"), "cap")
    return ctx.award(amount, "4° bis", "4° bis: pedal-assisted cycle, 40 % of the cost capped at 1 500 €")
