"""Conditions of the 2015 aid — décret n° 2014-1672 du 30 décembre 2014, art. 1 (not a calculator).

NOR DEVR1428150D, JORF n° 0302 du 31 décembre 2014. In force 2015-01-01 → 2015-12-31 (version
``decret-2014-1672-art1.2015-01-01``, a text-only conditions version). The 2015 bonus (art. 3) and the
2015 majoration (art. 4, initial wording) apply it; steps and refusals cite art. 1, not the amounts text.

The numbers are that version's ``[parameters]``, each quoted with its paragraph (the loader checks the
words are in its text); the calculators that apply art. 1 list it in ``relies_on`` and read them through
:meth:`Ctx.p_of`.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from typing import TypeVar

from legislation.award import Award
from legislation.calculators.kit import Ctx
from legislation.enums import Acquisition, VehicleCategory
from legislation.errors import MissingFact

T = TypeVar("T")

CITATION = "décret n° 2014-1672, art. 1"

# Opened by the inline clause « decret-2014-1672-art1-5a-transitoire » (5° a), « à titre transitoire »).
TRANSITIONAL_BRANCH = "art1_5a_transitional_90g"

VERSION_ID = "decret-2014-1672-art1.2015-01-01"


def _p(ctx: Ctx, name: str) -> Decimal:
    """A number of art. 1 (its version's parameters: lease_min_months, *_co2_max)."""
    return ctx.p_of(VERSION_ID, name)


NOT_MEASURED = (VehicleCategory.TWO_THREE_WHEELER, VehicleCategory.ELECTRIC_BICYCLE)


def cite(paragraph: str) -> str:
    """« décret n° 2014-1672, art. 1, I, 5° a) »."""
    return f"{CITATION}, {paragraph}"


def need(value: T | None, field: str, paragraph: str) -> T:
    """Like :meth:`Ctx.need`, but the missing fact is cited to art. 1."""
    if value is None:
        raise MissingFact(field, cite(paragraph))
    return value


def refuse(ctx: Ctx, paragraph: str, reason: str) -> Award:
    """A refusal decided by art. 1 (the award cites art. 1, not the calculator's own text)."""
    return replace(ctx.refuse("", reason), paragraph=cite(paragraph))


def refusal(ctx: Ctx) -> Award | None:
    """Apply art. 1, I: a refusal citing the condition not met, or None when the vehicle is eligible."""
    ctx.assume(
        "The buyer or lessee is a person with a domicile or an establishment in France, or an administration "
        "of the State (décret n° 2014-1672, art. 1, I); the request asserts it."
    )
    if (denied := _lease_duration(ctx)) is not None:
        return denied
    category = need(ctx.vehicle.category, "vehicle.category", "I, 1°")
    if category in NOT_MEASURED:
        ctx.read(
            "2015-l-category-not-measured",
            "Art. 1, I, 1° covers passenger cars, vans and any category whose CO2 is measured under "
            "règlement (CE) n° 715/2007; two- and three-wheelers, quadricycles and cycles are type-approved "
            "under other instruments (directive 2002/24/CE, règlement (UE) n° 168/2013), so they are outside "
            "the 2015 aid.",
        )
        return refuse(ctx, "I, 1°", f"a vehicle of category {category.value} is not in the categories of art. 1, I, 1°")
    ctx.step_at(cite("I, 1°"), f"category {category.value}: a category of art. 1, I, 1°")
    if (denied := _new_and_kept(ctx)) is not None:
        return denied
    return _co2_ceiling(ctx, category)


def _lease_duration(ctx: Ctx) -> Award | None:
    if ctx.purchase.acquisition is not Acquisition.LEASE:
        return None
    months = need(ctx.purchase.lease_duration_months, "lease_duration_months", "I")
    if months < _p(ctx, "lease_min_months"):
        return refuse(ctx, "I", f"a lease of {months} months: the aid needs a lease of two years or more")
    ctx.step_at(cite("I"), f"lease of {months} months ≥ two years")
    return None


def _new_and_kept(ctx: Ctx) -> Award | None:
    registered = ctx.vehicle.previously_registered
    if registered:
        return refuse(ctx, "I, 2°", "the vehicle was registered before (France or abroad): art. 1, I, 2° is not met")
    if registered is None:
        ctx.assume("The vehicle was never registered before, in France or abroad (décret n° 2014-1672, art. 1, I, 2°).")
    else:
        ctx.step_at(cite("I, 2°"), "never registered before")
    ctx.assume("The vehicle is registered in France in a definitive series (décret n° 2014-1672, art. 1, I, 3°).")
    ctx.assume(
        "The vehicle will not be sold within six months of its first registration nor before 6 000 km "
        "(décret n° 2014-1672, art. 1, I, 4°; otherwise the aid is repaid, II)."
    )
    return None


def _co2_ceiling(ctx: Ctx, category: VehicleCategory) -> Award | None:
    co2 = need(ctx.vehicle.co2_g_per_km, "vehicle.co2_g_per_km", "I, 5°")
    if category is not VehicleCategory.PASSENGER_CAR:
        if category is VehicleCategory.LIGHT_M2_N2:
            ctx.assume(
                "The vehicle's CO2 is measured under règlement (CE) n° 715/2007 "
                "(décret n° 2014-1672, art. 1, I, 1° and 5° b))."
            )
        if co2 > _p(ctx, "other_vehicle_co2_max"):
            return refuse(
                ctx, "I, 5° b)", f"CO2 {co2} g/km > {_p(ctx, 'other_vehicle_co2_max')} g/km for a van or other vehicle"
            )
        ctx.step_at(cite("I, 5° b)"), f"van or other vehicle, CO2 {co2} g/km ≤ {_p(ctx, 'other_vehicle_co2_max')} g/km")
        return None
    if co2 <= _p(ctx, "other_car_co2_max"):
        ctx.step_at(cite("I, 5° a)"), f"passenger car, CO2 {co2} g/km ≤ {_p(ctx, 'other_car_co2_max')} g/km")
        return None
    if co2 <= _p(ctx, "transitional_co2_max") and ctx.is_open(TRANSITIONAL_BRANCH):
        ctx.step_at(
            cite("I, 5° a)"),
            f"CO2 {co2} g/km ≤ {_p(ctx, 'transitional_co2_max')} g/km: transitional ceiling "
            "(ordered before 2015-01-01, invoiced or first rent in the three months following)",
        )
        return None
    if co2 > _p(ctx, "hybrid_co2_max"):
        return refuse(
            ctx,
            "I, 5° a)",
            f"CO2 {co2} g/km > {_p(ctx, 'hybrid_co2_max')} g/km, the highest ceiling of art. 1, I, 5° a)",
        )
    energy = need(ctx.vehicle.energy, "vehicle.energy", "I, 5° a)")
    if energy.is_hybrid:
        ctx.step_at(
            cite("I, 5° a)"),
            f"{energy.value}, CO2 {co2} g/km ≤ {_p(ctx, 'hybrid_co2_max')} g/km "
            "(electric + petrol, diesel, LPG or CNG)",
        )
        return None
    ceiling = "60 g/km (90 g/km only in the transitional window, which is not open)"
    return refuse(ctx, "I, 5° a)", f"{energy.value} passenger car, CO2 {co2} g/km above its ceiling of {ceiling}")
