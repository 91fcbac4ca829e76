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

from legislation.calculators import _conversion_premium_2021 as rules
from legislation.calculators import _d251_8_2021 as paragraphs
from legislation.calculators._d251_8_2021 import (
    BICYCLE,
    CAR,
    L_VEHICLE,
    VAN,
    crit_air_1,
    electric_car,
    has_range,
    not_a_case,
    plug_in,
    rate_capped,
    start,
    two_three_wheeler,
)
from legislation.calculators.kit import Candidate, Ctx, R
from legislation.enums import VanClass, VehicleCategory

FACTS = paragraphs.FACTS

VAN_CLASSES = {
    VanClass.I: ("1° bis a)", "van_cap_class_i"),
    VanClass.II: ("1° bis b)", "van_cap_class_ii"),
    VanClass.III: ("1° bis c)", "van_cap_class_iii"),
}


def calculate(ctx: Ctx[R]) -> R:
    if (refused := start(ctx)) is not None:
        return refused
    category = ctx.need(ctx.row.vehicle_category, "vehicle.category", "premier alinéa")
    if category is CAR or category is VAN:
        return _cars_and_vans(ctx, category)
    if category is L_VEHICLE:
        return two_three_wheeler(ctx)
    if category is BICYCLE:
        return _electric_bicycle(ctx)
    return not_a_case(ctx, category)


def _cars_and_vans(ctx: Ctx[R], category: VehicleCategory) -> R:
    """1° or 1° bis, 3° and 4°, the most favourable kept; when none is met, each reason why (``ctx.miss``)."""
    if category is VAN:
        candidates, examined = _electric_van(ctx), "1° bis, 3° et 4°"
    else:
        candidates, examined = electric_car(ctx), "1°, 3° et 4°"
    candidates += crit_air_1(ctx)
    candidates += plug_in(ctx)
    if not candidates:
        return ctx.refuse_missed(examined)
    return ctx.best(candidates, rules.WHY_MOST_FAVOURABLE)


def _electric_van(ctx: Ctx[R]) -> list[Candidate]:
    """1° bis: vans of the 5° of D. 251-1, range > 50 km: 40 % of the price capped by class."""
    if not has_range(ctx, "1° bis"):
        return []
    ctx.assume(rules.ASSUME_D251_1_5)
    van_class = ctx.need(ctx.row.vehicle_van_class, "vehicle.van_class", "1° bis")
    paragraph, cap = VAN_CLASSES[van_class]
    ctx.step(paragraph, "van of class {van_class} (règlement (CE) n° 715/2007, annex 1)", van_class=van_class)
    amount = rate_capped(ctx, paragraph, "van_rate", cap)
    return [
        Candidate(
            amount=amount,
            paragraph=paragraph,
            reason=paragraph + ": class {van_class} van, {van_rate:%} of the price capped at {" + cap + ":€}",
            values={"van_class": van_class},
        )
    ]


def _electric_bicycle(ctx: Ctx[R]) -> R:
    """4° bis: 40 % of the acquisition cost, capped at 1 500 €, whoever the beneficiary."""
    ctx.assume(rules.ASSUME_EBIKE)
    cost = ctx.need(ctx.row.vehicle_acquisition_cost, "vehicle.acquisition_cost", "4° bis")
    amount = ctx.rate("4° bis", "ebike_rate", cost, "acquisition cost")
    amount = ctx.cap("4° bis", amount, ctx.money("ebike_cap"), "cap")
    return ctx.award(
        amount, "4° bis", "4° bis: pedal-assisted cycle, {ebike_rate:%} of the cost capped at {ebike_cap:€}"
    )
