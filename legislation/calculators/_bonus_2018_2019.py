"""The electric cars' rule of C. énergie art. D. 251-7 in 2018 and 2019 (a helper, not a calculator): one rate and
one cap for every buyer (the 2020-01-01 version has price bands and caps by kind of buyer instead)."""

from __future__ import annotations

from legislation.calculators._bonus_2018 import CARS
from legislation.calculators.kit import Ctx, R


def capped_rate(ctx: Ctx[R]) -> R:
    """2018, 2019: « 27 % of the cost incl. battery lease, capped 6 000 € », for every buyer."""
    cost = ctx.cost_with_battery(CARS)
    amount = ctx.rate(CARS, "ev_rate", cost, "cost incl. battery")
    amount = ctx.cap(CARS, amount, ctx.money("ev_cap"), "cap")
    return ctx.award(amount, CARS, "CO2 ≤ {ev_co2_max} g/km: {ev_rate:%} of {cost:€}, capped at {ev_cap:€}", cost=cost)
