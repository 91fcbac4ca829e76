"""The line of vans and hydrogen vehicles above the middle band of D. 251-7 on 2021-01-21 (décret 2021-37: « same car
amounts as A », row A « vans or H2 > 60 k€: 3 000 € »), a module of its own: the later versions have no such line.
"""

from __future__ import annotations

from legislation.calculators._bonus_2021 import CARS, HYDROGEN, VAN, above_the_bands, award
from legislation.calculators.kit import Ctx, R
from legislation.enums import VehicleCategory


def van_or_hydrogen(ctx: Ctx[R], category: VehicleCategory, cost: int) -> R:
    """Above 60 000 €: a van or a hydrogen vehicle gets a fixed amount; a battery-electric car nothing."""
    if category is VAN or ctx.row.vehicle_energy is HYDROGEN:
        amount = ctx.money("ev_high_amount")
        ctx.step(CARS, "cost {cost:€} > {ev_mid_price_max:€}, a van or a hydrogen vehicle", amount, cost=cost)
        return award(
            ctx,
            amount,
            CARS,
            "van or hydrogen vehicle, cost {cost:€} > {ev_mid_price_max:€}: {ev_high_amount:€}",
            cost=cost,
        )
    return above_the_bands(ctx, cost)
