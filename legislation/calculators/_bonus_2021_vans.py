"""The line of vans at any price of D. 251-7 from 2021-07-26 (décret 2021-977: « autres que les camionnettes » in
its 1°, official extract; row D « vans ≤ 20 g at any price: 40 % capped at 7 000 € (natural) / 5 000 € (legal) »),
a module of its own: the earlier versions have no such line.
"""

from __future__ import annotations

from legislation.calculators._bonus_2021 import VANS, award
from legislation.calculators.kit import Ctx, R


def vans(ctx: Ctx[R]) -> R:
    """Vans (CO2 ≤ 20 g/km) at a rate of the cost capped per kind of buyer, at any price."""
    cost = ctx.cost_with_battery(VANS)
    amount = ctx.rate(VANS, "van_rate", cost, "cost incl. battery")
    legal = ctx.is_legal_person_for_caps(VANS)
    cap = ctx.money("van_cap_legal") if legal else ctx.money("van_cap_natural")
    who = "legal person" if legal else "natural person"
    amount = ctx.cap(VANS, amount, cap, "cap for a " + who)
    return award(
        ctx,
        amount,
        VANS,
        "van ≤ {ev_co2_max} g/km, cost {cost:€} (any price): {van_rate:%} capped at {cap:€} ({who})",
        cost=cost,
        cap=cap,
        who=who,
    )
