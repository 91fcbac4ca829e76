"""Rules of C. énergie art. D. 251-7 shared by its 2019 and 2020-01-01 versions (a helper, not a calculator): the two
power thresholds of two- and three-wheelers by measuring instrument, and the aid below them. The 2018 version has
one threshold and no known amount below it (:mod:`legislation.calculators._bonus_2018`)."""

from __future__ import annotations

from legislation.calculators._bonus_2018 import L_BIG, L_SMALL, Below
from legislation.calculators.kit import Ctx, R
from legislation.enums import PowerBasis

REGULATION = PowerBasis.REGULATION_EU_168_2013


def small_two_three_wheelers(ctx: Ctx[R], below: Below) -> R:
    """2019, 2020-01-01: below the threshold, « 20 %, capped 100 € » of the cost."""
    power, limit = below.power, below.limit
    cost = ctx.need(ctx.row.vehicle_acquisition_cost, "vehicle.acquisition_cost", L_SMALL)
    amount = ctx.rate(L_SMALL, "l_small_rate", cost, "cost")
    amount = ctx.cap(L_SMALL, amount, ctx.money("l_small_cap"), "cap")
    return ctx.award(
        amount, L_SMALL, "electric L vehicle, {power:q} kW < {limit:q} kW: {l_small_rate:%} capped at {l_small_cap:€}",
        power=power, limit=limit,
    )


def power_threshold(ctx: Ctx[R], power: int) -> int:
    """« 2 kW (Reg. (UE) 168/2013) or 3 kW (Dir. 2002/24/CE) »: the instrument is asked only between the two."""
    low, high = ctx.qty("l_min_kw_regulation"), ctx.qty("l_min_kw_directive")
    if power >= high or power < low:
        return high if power >= high else low
    basis = ctx.need(ctx.row.vehicle_power_basis, "vehicle.power_basis", L_BIG)
    return low if basis is REGULATION else high
