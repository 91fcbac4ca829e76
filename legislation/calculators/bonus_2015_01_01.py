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

from decimal import Decimal

from legislation.award import Award
from legislation.calculators import _decret_2014_1672_art1 as art1
from legislation.calculators.kit import Ctx
from legislation.enums import Energy, VehicleCategory

PARAMETERS = (
    "hybrid_co2_min",
    "hybrid_co2_max",
    "hybrid_min_electric_kw",
    "hybrid_rate",
    "hybrid_floor",
    "hybrid_cap",
    "transitional_hybrid_co2_min",
    "transitional_hybrid_co2_max",
    "transitional_hybrid_rate",
    "transitional_hybrid_floor",
    "transitional_hybrid_cap",
    "car_zero_co2_max",
    "car_zero_rate",
    "car_zero_cap",
    "car_low_co2_min",
    "car_low_co2_max",
    "car_low_rate",
    "car_low_cap",
    "transitional_other_co2_min",
    "transitional_other_co2_max",
    "transitional_other_amount",
    "van_zero_co2_max",
    "van_zero_rate",
    "van_zero_cap",
    "van_low_co2_min",
    "van_low_co2_max",
    "van_low_rate",
    "van_low_cap",
)

# The amounts it can award at most: each rate is capped, the 150 € is fixed (property tests).
AMOUNT_PARAMETERS = (
    "hybrid_cap", "transitional_hybrid_cap", "car_zero_cap", "car_low_cap", "transitional_other_amount",
    "van_zero_cap", "van_low_cap",
)  # fmt: skip

# Inline branches opened by the two « A titre transitoire » clauses of this version.
HYBRID_BRANCH = "hybrid_8_25_percent"  # 1° a), 2e alinéa
OTHER_BRANCH = "other_61_90_150_euros"  # 1° b), 3e alinéa

PETROL_DIESEL_HYBRIDS = (Energy.PETROL_ELECTRIC_HYBRID, Energy.DIESEL_ELECTRIC_HYBRID)

WINDOW = (
    "ordered before 2015-01-01 and invoiced (or first rent) on or before 2015-03-31, « dans les trois "
    "mois suivants » the entry into force"
)


def calculate(ctx: Ctx) -> Award:
    refusal = art1.refusal(ctx)
    if refusal is not None:
        return refusal
    ctx.assume(
        "The buyer is not excluded by décret n° 2014-1672, art. 2 (a company that buys or leases the vehicle "
        "to lease it out for two years or more; a dealer's demonstration vehicle not sold within a year)."
    )
    ctx.step(
        "",
        "the amount does not depend on the buyer being a natural or a legal person (art. 3 has no "
        "person-dependent cap)",
    )
    co2 = Decimal(ctx.need(ctx.vehicle.co2_g_per_km, "vehicle.co2_g_per_km", "1°"))
    if ctx.vehicle.category is VehicleCategory.PASSENGER_CAR:
        return _passenger_car(ctx, co2)
    return _van_or_other(ctx, co2)


def _passenger_car(ctx: Ctx, co2: Decimal) -> Award:
    """1°: a voiture particulière of the a du 5° of art. 1."""
    if co2 <= ctx.p("car_zero_co2_max"):
        return _rate_capped(
            ctx, "1° b)", "car_zero_rate", "car_zero_cap", f"passenger car, CO2 {co2} g/km ≤ 20"
        )
    if ctx.p("car_low_co2_min") <= co2 <= ctx.p("car_low_co2_max"):
        return _rate_capped(
            ctx,
            "1° b), 2e alinéa",
            "car_low_rate",
            "car_low_cap",
            f"passenger car, CO2 {co2} g/km in 21–60 g/km",
        )
    energy = ctx.need(ctx.vehicle.energy, "vehicle.energy", "1° a)")
    if (
        energy in PETROL_DIESEL_HYBRIDS
        and _in(ctx, co2, "transitional_hybrid")
        and ctx.is_open(HYBRID_BRANCH)
    ):
        return _transitional_hybrid(ctx, co2, energy)
    if energy.is_hybrid and _in(ctx, co2, "hybrid"):
        power = ctx.need(
            ctx.vehicle.electric_motor_power_30min_kw, "vehicle.electric_motor_power_30min_kw", "1° a)"
        )
        if power >= ctx.p("hybrid_min_electric_kw"):
            return _hybrid(ctx, co2, energy, power)
        ctx.step("1° a)", f"electric motor {power} kW over 30 minutes < 10 kW: not a hybrid of 1° a)")
    if _in(ctx, co2, "transitional_other") and ctx.is_open(OTHER_BRANCH):
        return _transitional_other(ctx, co2)
    return ctx.refuse(
        "1°",
        f"{energy.value} passenger car of {co2} g/km: no paragraph of art. 3 fixes an "
        "amount (hybrids 61–110 g/km need a ≥ 10 kW electric motor; 61–90 g/km only in "
        "the transitional window)",
    )


def _hybrid(ctx: Ctx, co2: Decimal, energy: Energy, power: Decimal) -> Award:
    here = "1° a)"
    ctx.step(
        here, f"{energy.value}, electric motor {power} kW ≥ 10 kW over 30 minutes, CO2 {co2} g/km in 61–110"
    )
    amount = ctx.rate(here, "hybrid_rate", ctx.cost_with_battery(here), "cost incl. battery")
    amount = ctx.floor(here, amount, ctx.p("hybrid_floor"), "« sans être inférieur à 1 000 euros »")
    amount = ctx.cap(here, amount, ctx.p("hybrid_cap"), "« et supérieur à 2 000 euros »")
    return ctx.award(amount, here, "hybrid 61–110 g/km: 5 % of the cost, between 1 000 € and 2 000 €")


def _transitional_hybrid(ctx: Ctx, co2: Decimal, energy: Energy) -> Award:
    # Reading: the transitional alinéa names petrol and diesel hybrids 61–110 g/km and does not repeat the
    # 10 kW / 30 min criterion of the 1st alinéa. The notice says that criterion is new in 2015 (to exclude
    # mild hybrids) and the alinéa keeps the 2014 amounts, whose hybrid rows had no power criterion and no
    # LPG/CNG hybrids: the criterion is not required here, and LPG/CNG hybrids stay under the 1st alinéa.
    ctx.read(
        "2015-transitional-hybrid-no-10kw",
        "The transitional 8,25 % alinéa (1° a), 2e alinéa) defines its own vehicles — electric + petrol or "
        "diesel hybrids of 61–110 g/km — without the 10 kW / 30 min electric-motor criterion of the 1st "
        "alinéa. The decree's notice presents that criterion as new in 2015 and the alinéa keeps the 2014 "
        "amounts (8,25 %, 1 650 €, 3 300 €), whose hybrid rows (décret 2007-1873, art. 3) had no power "
        "criterion: the criterion is not applied here. LPG/CNG hybrids, not named, stay under the 1st "
        "alinéa.",
    )
    here = "1° a), 2e alinéa"
    ctx.read("2015-transitional-window", f"{here} applies: {WINDOW}.")
    ctx.step(here, f"{energy.value}, CO2 {co2} g/km in 61–110 g/km, {WINDOW}")
    amount = ctx.rate(here, "transitional_hybrid_rate", ctx.cost_with_battery(here), "cost incl. battery")
    amount = ctx.floor(
        here, amount, ctx.p("transitional_hybrid_floor"), "« sans être inférieur à 1 650 euros »"
    )
    amount = ctx.cap(here, amount, ctx.p("transitional_hybrid_cap"), "« et supérieur à 3 300 euros »")
    return ctx.award(
        amount, here, "transitional hybrid regime: 8,25 % of the cost, between 1 650 € and 3 300 €"
    )


def _transitional_other(ctx: Ctx, co2: Decimal) -> Award:
    here, amount = "1° b), 3e alinéa", ctx.p("transitional_other_amount")
    ctx.read("2015-transitional-window", f"{here} applies: {WINDOW}.")
    ctx.step(here, f"CO2 {co2} g/km in 61–90 g/km, {WINDOW}", amount)
    return ctx.award(
        amount, here, f"transitional 150 € for a passenger car of {co2} g/km ordered before 2015"
    )


def _van_or_other(ctx: Ctx, co2: Decimal) -> Award:
    """2°: a camionnette or other vehicle of the b du 5° of art. 1 (art. 1 already limited it to 60 g/km)."""
    if co2 <= ctx.p("van_zero_co2_max"):
        return _rate_capped(
            ctx, "2°", "van_zero_rate", "van_zero_cap", f"van or other vehicle, CO2 {co2} g/km ≤ 20"
        )
    if ctx.p("van_low_co2_min") <= co2 <= ctx.p("van_low_co2_max"):
        return _rate_capped(
            ctx,
            "2°, 2e alinéa",
            "van_low_rate",
            "van_low_cap",
            f"van or other vehicle, CO2 {co2} g/km in 21–60 g/km",
        )
    # Unreachable: art. 1, I, 5° b) refuses a van above 60 g/km before art. 3 is applied.
    return ctx.refuse("2°", f"van or other vehicle of {co2} g/km: above 60 g/km")  # pragma: no cover


def _rate_capped(ctx: Ctx, paragraph: str, rate: str, cap: str, what: str) -> Award:
    ctx.step(paragraph, what)
    amount = ctx.rate(paragraph, rate, ctx.cost_with_battery(paragraph), "cost incl. battery")
    amount = ctx.cap(paragraph, amount, ctx.p(cap), "« sans être supérieur à »")
    pct = (ctx.p(rate) * 100).normalize()
    return ctx.award(amount, paragraph, f"{what}: {pct:f} % of the cost, up to {ctx.p(cap)} €")


def _in(ctx: Ctx, co2: Decimal, prefix: str) -> bool:
    """« compris entre X et Y grammes »: both bounds included."""
    return ctx.p(f"{prefix}_co2_min") <= co2 <= ctx.p(f"{prefix}_co2_max")
