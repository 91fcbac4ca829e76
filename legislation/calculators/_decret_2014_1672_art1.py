"""Conditions of the 2015 aid — décret n° 2014-1672 du 30 décembre 2014, art. 1 (not a calculator).

NOR DEVR1428150D, JORF n° 0302 du 31 décembre 2014. In force 2015-01-01 → 2015-12-31 (version
``decret-2014-1672-art1.2015-01-01``, a text-only conditions version). The 2015 bonus (art. 3) and the
2015 majoration (art. 4, initial wording) apply it; steps and refusals cite art. 1, not the amounts text.

The numbers are that version's ``[parameters]``, each quoted with its paragraph (the loader checks the
words are in its text); the calculators that apply art. 1 list it in ``relies_on`` and read them through
``ctx.of(VERSION_ID)``. They are not parameters of the calling version, so the templates below receive them
as values. Art. 1 reads the request paths ``acquisition``, ``lease_duration_months``, ``vehicle.category``,
``vehicle.previously_registered``, ``vehicle.co2_g_per_km`` and ``vehicle.energy``: a calculator that applies
it declares them in its ``FACTS``.
"""

from __future__ import annotations

from legislation.calculators import _decret_2014_1672_art2 as art2
from legislation.calculators.kit import Ctx, R
from legislation.enums import Acquisition, Energy, VehicleCategory

CITATION = "décret n° 2014-1672, art. 1"

# Opened by the inline clause « decret-2014-1672-art1-5a-transitoire » (5° a), « à titre transitoire »).
TRANSITIONAL_BRANCH = "art1_5a_transitional_90g"

VERSION_ID = "decret-2014-1672-art1.2015-01-01"

NOT_MEASURED = (VehicleCategory.TWO_THREE_WHEELER, VehicleCategory.ELECTRIC_BICYCLE)
CAR, M2_N2, LEASE = VehicleCategory.PASSENGER_CAR, VehicleCategory.LIGHT_M2_N2, Acquisition.LEASE
# Energy.is_hybrid, as a tuple: a membership test by identity instead of a property call per row.
HYBRIDS = tuple(e for e in Energy if e.is_hybrid)


def cite(paragraph: str) -> str:
    """« décret n° 2014-1672, art. 1, I, 5° a) »."""
    return f"{CITATION}, {paragraph}"


# The paragraphs of art. 1 cited, in full (built once, not per row).
P_I, P_I_1, P_I_2, P_I_5, P_I_5A, P_I_5B = (cite(p) for p in ("I", "I, 1°", "I, 2°", "I, 5°", "I, 5° a)", "I, 5° b)"))

ASSUME_BENEFICIARY = (
    "The buyer or lessee is a person with a domicile or an establishment in France, or an administration "
    "of the State (décret n° 2014-1672, art. 1, I); the request asserts it."
)
L_NOT_MEASURED = (
    "Art. 1, I, 1° covers passenger cars, vans and any category whose CO2 is measured under "
    "règlement (CE) n° 715/2007; two- and three-wheelers, quadricycles and cycles are type-approved "
    "under other instruments (directive 2002/24/CE, règlement (UE) n° 168/2013), so they are outside "
    "the 2015 aid."
)
ASSUME_NEVER_REGISTERED = (
    "The vehicle was never registered before, in France or abroad (décret n° 2014-1672, art. 1, I, 2°)."
)
ASSUME_DEFINITIVE_SERIES = (
    "The vehicle is registered in France in a definitive series (décret n° 2014-1672, art. 1, I, 3°)."
)
ASSUME_NOT_RESOLD = (
    "The vehicle will not be sold within six months of its first registration nor before 6 000 km "
    "(décret n° 2014-1672, art. 1, I, 4°; otherwise the aid is repaid, II)."
)
ASSUME_M2_N2_MEASURED = (
    "The vehicle's CO2 is measured under règlement (CE) n° 715/2007 (décret n° 2014-1672, art. 1, I, 1° and 5° b))."
)


def refusal(ctx: Ctx[R]) -> R | None:
    """Apply art. 1, I: a refusal citing the condition not met, or None when the vehicle is eligible."""
    ctx.assume(ASSUME_BENEFICIARY)
    if (denied := _lease_duration(ctx)) is not None:
        return denied
    category = ctx.need(ctx.row.vehicle_category, "vehicle.category", "I, 1°", citation=P_I_1)
    if category in NOT_MEASURED:
        ctx.read("2015-l-category-not-measured", L_NOT_MEASURED)
        return ctx.refuse(
            "", "a vehicle of category {category} is not in the categories of art. 1, I, 1°", P_I_1, category=category
        )
    ctx.step_at(P_I_1, "category {category}: a category of art. 1, I, 1°", category=category)
    if (denied := _new_and_kept(ctx)) is not None:
        return denied
    return _co2_ceiling(ctx, category)


def _lease_duration(ctx: Ctx[R]) -> R | None:
    row = ctx.row
    if row.acquisition is not LEASE:
        return None
    months = ctx.need(row.lease_duration_months, "lease_duration_months", "I", citation=P_I)
    # « deux ans »: the wording every lease condition of the period uses (kit.Ctx.lease_refusal), whose
    # words the texts quote; lease_min_months is the same two years in months.
    if months < ctx.of(VERSION_ID).count["lease_min_months"]:
        return ctx.refuse(
            "", "a lease of {months} months: the aid needs a lease of two years or more", P_I, months=months
        )
    ctx.step_at(P_I, "lease of {months} months ≥ two years", months=months)
    return None


def _new_and_kept(ctx: Ctx[R]) -> R | None:
    registered = ctx.row.vehicle_previously_registered
    if ctx.row.vehicle_demonstration:
        # A demonstration vehicle was registered by the dealer: art. 2, 2e alinéa « Toutefois » decides.
        registered = not art2.is_demonstration_sold_within_a_year(ctx)
        if not registered:
            ctx.assume(ASSUME_DEFINITIVE_SERIES)
            ctx.assume(ASSUME_NOT_RESOLD)
            return None
    if registered:
        return ctx.refuse(
            "", "the vehicle was registered before (France or abroad): art. 1, I, 2° is not met", P_I_2
        )
    if registered is None:
        ctx.assume(ASSUME_NEVER_REGISTERED)
    else:
        ctx.step_at(P_I_2, "never registered before")
    ctx.assume(ASSUME_DEFINITIVE_SERIES)
    ctx.assume(ASSUME_NOT_RESOLD)
    return None


def _co2_ceiling(ctx: Ctx[R], category: VehicleCategory) -> R | None:
    row = ctx.row
    co2 = ctx.need(row.vehicle_co2_g_per_km, "vehicle.co2_g_per_km", "I, 5°", citation=P_I_5)
    numbers = ctx.of(VERSION_ID).count
    if category is not CAR:
        if category is M2_N2:
            ctx.assume(ASSUME_M2_N2_MEASURED)
        ceiling = numbers["other_vehicle_co2_max"]
        if co2 > ceiling:
            return ctx.refuse(
                "", "CO2 {co2} g/km > {ceiling} g/km for a van or other vehicle", P_I_5B, co2=co2, ceiling=ceiling
            )
        ctx.step_at(P_I_5B, "van or other vehicle, CO2 {co2} g/km ≤ {ceiling} g/km", co2=co2, ceiling=ceiling)
        return None
    car_max = numbers["other_car_co2_max"]
    if co2 <= car_max:
        ctx.step_at(P_I_5A, "passenger car, CO2 {co2} g/km ≤ {ceiling} g/km", co2=co2, ceiling=car_max)
        return None
    transitional_max = numbers["transitional_co2_max"]
    if co2 <= transitional_max and ctx.is_open(TRANSITIONAL_BRANCH):
        ctx.step_at(
            P_I_5A,
            "CO2 {co2} g/km ≤ {ceiling} g/km: transitional ceiling "
            "(ordered before 2015-01-01, invoiced or first rent in the three months following)",
            co2=co2,
            ceiling=transitional_max,
        )
        return None
    hybrid_max = numbers["hybrid_co2_max"]
    if co2 > hybrid_max:
        return ctx.refuse(
            "", "CO2 {co2} g/km > {ceiling} g/km, the highest ceiling of art. 1, I, 5° a)", P_I_5A,
            co2=co2, ceiling=hybrid_max,
        )
    energy = ctx.need(row.vehicle_energy, "vehicle.energy", "I, 5° a)", citation=P_I_5A)
    if energy in HYBRIDS:
        ctx.step_at(
            P_I_5A,
            "{energy}, CO2 {co2} g/km ≤ {ceiling} g/km (electric + petrol, diesel, LPG or CNG)",
            energy=energy,
            co2=co2,
            ceiling=hybrid_max,
        )
        return None
    return ctx.refuse(
        "",
        "{energy} passenger car, CO2 {co2} g/km above its ceiling of {ceiling} g/km ({transitional} g/km only in "
        "the transitional window, which is not open)",
        P_I_5A,
        energy=energy,
        co2=co2,
        ceiling=car_max,
        transitional=transitional_max,
    )
