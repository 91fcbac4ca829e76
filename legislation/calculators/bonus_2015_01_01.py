"""Bonus écologique — décret n° 2014-1672 du 30 décembre 2014, art. 3 (seed 002).

NOR DEVR1428150D, JORF n° 0302 du 31 décembre 2014. In force 2015-01-01 → 2015-12-31 (abrogated by the
codification décret n° 2015-1823 from 2016-01-01). The conditions of art. 1 (version
``decret-2014-1672-art1.2015-01-01``) are applied first, citing art. 1.

Paragraphs: 1° (passenger cars, a du 5° of art. 1): a) hybrids 61–110 g/km, 5 % between 1 000 and 2 000 €,
and its transitional 2e alinéa (8,25 % between 1 650 and 3 300 €); b) other vehicles ≤ 20 g/km 27 % up to
6 300 €, 21–60 g/km 20 % up to 4 000 €, and its transitional 3e alinéa (61–90 g/km: 150 €). 2° (vans and
other vehicles, b du 5°): ≤ 20 g/km 27 % up to 6 300 €, 21–60 g/km 20 % up to 4 000 €.
"""

from __future__ import annotations

from legislation.calculators import _decret_2014_1672_art1 as art1
from legislation.calculators import _decret_2014_1672_art2 as art2
from legislation.calculators.kit import Ctx, R
from legislation.enums import Energy, VehicleCategory

FACTS = (
    "acquisition",
    "buyer.dealer_demonstration",
    "buyer.leases_out_months",
    "lease_duration_months",
    "vehicle.acquisition_cost",
    "vehicle.battery_rental_cost",
    "vehicle.category",
    "vehicle.co2_g_per_km",
    "vehicle.demonstration",
    "vehicle.electric_motor_power_30min_kw",
    "vehicle.energy",
    "vehicle.first_registration_date",
    "vehicle.previously_registered",
)

# Inline branches opened by the two « A titre transitoire » clauses of this version.
HYBRID_BRANCH = "hybrid_8_25_percent"  # 1° a), 2e alinéa
OTHER_BRANCH = "other_61_90_150_euros"  # 1° b), 3e alinéa

CAR = VehicleCategory.PASSENGER_CAR
PETROL_DIESEL_HYBRIDS = (Energy.PETROL_ELECTRIC_HYBRID, Energy.DIESEL_ELECTRIC_HYBRID)
# Energy.is_hybrid, as a tuple: a membership test by identity instead of a property call per row.
HYBRIDS = tuple(e for e in Energy if e.is_hybrid)

WINDOW = (
    "ordered before 2015-01-01 and invoiced (or first rent) on or before 2015-03-31, « dans les trois "
    "mois suivants » the entry into force"
)

# The four « taux × coût, sans être supérieur à » cases: (paragraph, rate, cap, what, award reason — templates).
RateCapped = tuple[str, str, str, str, str]


def _case(paragraph: str, rate: str, cap: str, what: str) -> RateCapped:
    return paragraph, rate, cap, what, what + ": {" + rate + ":%} of the cost, up to {" + cap + ":€}"


CAR_ZERO = _case("1° b)", "car_zero_rate", "car_zero_cap", "passenger car, CO2 {co2} g/km ≤ {car_zero_co2_max} g/km")
CAR_LOW = _case(
    "1° b), 2e alinéa",
    "car_low_rate",
    "car_low_cap",
    "passenger car, CO2 {co2} g/km in {car_low_co2_min}–{car_low_co2_max} g/km",
)
VAN_ZERO = _case(
    "2°", "van_zero_rate", "van_zero_cap", "van or other vehicle, CO2 {co2} g/km ≤ {van_zero_co2_max} g/km"
)
VAN_LOW = _case(
    "2°, 2e alinéa",
    "van_low_rate",
    "van_low_cap",
    "van or other vehicle, CO2 {co2} g/km in {van_low_co2_min}–{van_low_co2_max} g/km",
)


def calculate(ctx: Ctx[R]) -> R:
    refusal = art1.refusal(ctx)
    if refusal is not None:
        return refusal
    if (excluded := art2.exclusion(ctx)) is not None:
        return excluded
    ctx.step(
        "",
        "the amount does not depend on the buyer being a natural or a legal person (art. 3 has no "
        "person-dependent cap)",
    )
    row = ctx.row
    co2 = ctx.need(row.vehicle_co2_g_per_km, "vehicle.co2_g_per_km", "1°")
    if row.vehicle_category is CAR:
        return _passenger_car(ctx, co2)
    return _van_or_other(ctx, co2)


def _passenger_car(ctx: Ctx[R], co2: int) -> R:
    """1°: a voiture particulière of the a du 5° of art. 1."""
    if co2 <= ctx.count("car_zero_co2_max"):
        return _rate_capped(ctx, CAR_ZERO, co2)
    if ctx.count("car_low_co2_min") <= co2 <= ctx.count("car_low_co2_max"):
        return _rate_capped(ctx, CAR_LOW, co2)
    row = ctx.row
    energy = ctx.need(row.vehicle_energy, "vehicle.energy", "1° a)")
    if (
        energy in PETROL_DIESEL_HYBRIDS
        and ctx.count("transitional_hybrid_co2_min") <= co2 <= ctx.count("transitional_hybrid_co2_max")
        and ctx.is_open(HYBRID_BRANCH)
    ):
        return _transitional_hybrid(ctx, co2, energy)
    if energy in HYBRIDS and ctx.count("hybrid_co2_min") <= co2 <= ctx.count("hybrid_co2_max"):
        power = ctx.need(
            row.vehicle_electric_motor_power_30min_kw, "vehicle.electric_motor_power_30min_kw", "1° a)"
        )
        if power >= ctx.qty("hybrid_min_electric_kw"):
            return _hybrid(ctx, co2, energy, power)
        ctx.step(
            "1° a)",
            "electric motor {power:q} kW over 30 minutes < {hybrid_min_electric_kw} kW: not a hybrid of 1° a)",
            power=power,
        )
    if (
        ctx.count("transitional_other_co2_min") <= co2 <= ctx.count("transitional_other_co2_max")
        and ctx.is_open(OTHER_BRANCH)
    ):
        return _transitional_other(ctx, co2)
    return ctx.refuse(
        "1°",
        "{energy} passenger car of {co2} g/km: no paragraph of art. 3 fixes an amount (hybrids "
        "{hybrid_co2_min}–{hybrid_co2_max} g/km need a ≥ {hybrid_min_electric_kw} kW electric motor; "
        "{transitional_other_co2_min}–{transitional_other_co2_max} g/km only in the transitional window)",
        energy=energy,
        co2=co2,
    )


def _hybrid(ctx: Ctx[R], co2: int, energy: Energy, power: int) -> R:
    here = "1° a)"
    ctx.step(
        here,
        "{energy}, electric motor {power:q} kW ≥ {hybrid_min_electric_kw} kW over 30 minutes, CO2 {co2} g/km in "
        "{hybrid_co2_min}–{hybrid_co2_max}",
        energy=energy,
        power=power,
        co2=co2,
    )
    amount = ctx.rate(here, "hybrid_rate", ctx.cost_with_battery(here), "cost incl. battery")
    amount = ctx.floor(here, amount, ctx.money("hybrid_floor"), "« sans être inférieur à {hybrid_floor} euros »")
    amount = ctx.cap(here, amount, ctx.money("hybrid_cap"), "« et supérieur à {hybrid_cap} euros »")
    return ctx.award(
        amount,
        here,
        "hybrid {hybrid_co2_min}–{hybrid_co2_max} g/km: {hybrid_rate:%} of the cost, between {hybrid_floor:€} and "
        "{hybrid_cap:€}",
    )


# Reading: the transitional alinéa names petrol and diesel hybrids 61–110 g/km and does not repeat the
# 10 kW / 30 min criterion of the 1st alinéa. The notice says that criterion is new in 2015 (to exclude
# mild hybrids) and the alinéa keeps the 2014 amounts, whose hybrid rows had no power criterion and no
# LPG/CNG hybrids: the criterion is not required here, and LPG/CNG hybrids stay under the 1st alinéa.
TRANSITIONAL_HYBRID_NO_10KW = (
    "The transitional 8,25 % alinéa (1° a), 2e alinéa) defines its own vehicles — electric + petrol or "
    "diesel hybrids of 61–110 g/km — without the 10 kW / 30 min electric-motor criterion of the 1st "
    "alinéa. The decree's notice presents that criterion as new in 2015 and the alinéa keeps the 2014 "
    "amounts (8,25 %, 1 650 €, 3 300 €), whose hybrid rows (décret 2007-1873, art. 3) had no power "
    "criterion: the criterion is not applied here. LPG/CNG hybrids, not named, stay under the 1st "
    "alinéa."
)
TRANSITIONAL_HYBRID = "1° a), 2e alinéa"
TRANSITIONAL_OTHER = "1° b), 3e alinéa"
TRANSITIONAL_HYBRID_WINDOW = f"{TRANSITIONAL_HYBRID} applies: {WINDOW}."
TRANSITIONAL_OTHER_WINDOW = f"{TRANSITIONAL_OTHER} applies: {WINDOW}."


def _transitional_hybrid(ctx: Ctx[R], co2: int, energy: Energy) -> R:
    ctx.read("2015-transitional-hybrid-no-10kw", TRANSITIONAL_HYBRID_NO_10KW)
    here = TRANSITIONAL_HYBRID
    ctx.read("2015-transitional-window", TRANSITIONAL_HYBRID_WINDOW)
    ctx.step(
        here,
        "{energy}, CO2 {co2} g/km in {transitional_hybrid_co2_min}–{transitional_hybrid_co2_max} g/km, " + WINDOW,
        energy=energy,
        co2=co2,
    )
    amount = ctx.rate(here, "transitional_hybrid_rate", ctx.cost_with_battery(here), "cost incl. battery")
    amount = ctx.floor(
        here,
        amount,
        ctx.money("transitional_hybrid_floor"),
        "« sans être inférieur à {transitional_hybrid_floor} euros »",
    )
    amount = ctx.cap(
        here, amount, ctx.money("transitional_hybrid_cap"), "« et supérieur à {transitional_hybrid_cap} euros »"
    )
    return ctx.award(
        amount,
        here,
        "transitional hybrid regime: {transitional_hybrid_rate:%} of the cost, between {transitional_hybrid_floor:€} "
        "and {transitional_hybrid_cap:€}",
    )


def _transitional_other(ctx: Ctx[R], co2: int) -> R:
    here, amount = TRANSITIONAL_OTHER, ctx.money("transitional_other_amount")
    ctx.read("2015-transitional-window", TRANSITIONAL_OTHER_WINDOW)
    ctx.step(
        here, "CO2 {co2} g/km in {transitional_other_co2_min}–{transitional_other_co2_max} g/km, " + WINDOW, amount,
        co2=co2,
    )
    return ctx.award(
        amount,
        here,
        "transitional {transitional_other_amount:€} for a passenger car of {co2} g/km ordered before 2015",
        co2=co2,
    )


def _van_or_other(ctx: Ctx[R], co2: int) -> R:
    """2°: a camionnette or other vehicle of the b du 5° of art. 1 (art. 1 already limited it to 60 g/km)."""
    if co2 <= ctx.count("van_zero_co2_max"):
        return _rate_capped(ctx, VAN_ZERO, co2)
    if ctx.count("van_low_co2_min") <= co2 <= ctx.count("van_low_co2_max"):
        return _rate_capped(ctx, VAN_LOW, co2)
    # Unreachable: art. 1, I, 5° b) refuses a van above 60 g/km before art. 3 is applied.
    return ctx.refuse(  # pragma: no cover
        "2°", "van or other vehicle of {co2} g/km: above {van_low_co2_max} g/km", co2=co2
    )


def _rate_capped(ctx: Ctx[R], case: RateCapped, co2: int) -> R:
    paragraph, rate, cap, what, reason = case
    ctx.step(paragraph, what, co2=co2)
    amount = ctx.rate(paragraph, rate, ctx.cost_with_battery(paragraph), "cost incl. battery")
    amount = ctx.cap(paragraph, amount, ctx.money(cap), "« sans être supérieur à »")
    return ctx.award(amount, paragraph, reason, co2=co2)
