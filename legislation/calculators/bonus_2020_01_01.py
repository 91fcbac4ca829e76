"""Bonus écologique — C. énergie, art. D. 251-7, as amended by décret n° 2019-1526 du 30 décembre 2019.

JORF du 31 décembre 2019. In force 2020-01-01 → 2020-05-31 (décret n° 2020-656 from 2020-06-01). Wording not
on file: barème of history/era-2017-2020.md §1 V5 (confirmed from the notice summaries).

Electric cars and vans (≤ 20 g/km): cost below 45 000 € TTC (battery included): 27 %, capped 6 000 € for a
natural person, 3 000 € for a legal person; 45 000–60 000 €: 3 000 €; above 60 000 €: nothing, except vans
and hydrogen vehicles: 3 000 €. Electric L vehicles as in 2019. Light M2/N2 vehicles: not covered.
"""

from __future__ import annotations

from legislation.calculators import _bonus_2018 as rules
from legislation.calculators import _bonus_2019 as two_kw
from legislation.calculators.kit import Ctx, R
from legislation.enums import VehicleCategory

FACTS = rules.FACTS
CARS = rules.CARS

BANDS_READING = (
    "The barème's bands (« < 45 000 € », « 45 000–60 000 € », « > 60 000 € », history/era-2017-2020.md §1 V5) "
    "are read as in the 2020-06-01 wording on file: below 45 000 € the rate; from 45 000 € to 60 000 € "
    "inclusive the fixed amount; above 60 000 € only vans and hydrogen vehicles."
)


def calculate(ctx: Ctx[R]) -> R:
    if (done := rules.start(ctx)) is not None:
        return done
    category = rules.category(ctx)
    if category is rules.L_VEHICLE:
        found = rules.two_three_wheelers(ctx, two_kw.power_threshold)
        return two_kw.small_two_three_wheelers(ctx, found) if isinstance(found, rules.Below) else found
    if category is rules.M2_N2:
        return rules.m2_n2_not_known(ctx)
    return rules.zero_emission_co2(ctx) or _price_bands(ctx, category)


def _price_bands(ctx: Ctx[R], category: VehicleCategory) -> R:
    cost = ctx.cost_with_battery(CARS)
    ctx.read("2020-01-bands", BANDS_READING)
    if cost < ctx.money("ev_low_price_limit"):
        amount = ctx.rate(CARS, "ev_rate", cost, "cost incl. battery")
        legal = ctx.is_legal_person_for_caps(CARS)
        cap = ctx.money("ev_cap_legal") if legal else ctx.money("ev_cap_natural")
        who = "legal person" if legal else "natural person"
        amount = ctx.cap(CARS, amount, cap, "cap for a " + who)
        return ctx.award(
            amount, CARS, "cost {cost:€} < {ev_low_price_limit:€}: {ev_rate:%} capped at {cap:€} ({who})",
            cost=cost, cap=cap, who=who,
        )
    if cost <= ctx.money("ev_mid_price_max"):
        return ctx.award(
            ctx.money("ev_mid_amount"), CARS,
            "cost {cost:€} between {ev_low_price_limit:€} and {ev_mid_price_max:€}: {ev_mid_amount:€}", cost=cost,
        )
    energy = ctx.row.vehicle_energy
    if category is rules.VAN or energy is rules.HYDROGEN:
        return ctx.award(
            ctx.money("ev_high_amount"), CARS,
            "van or hydrogen vehicle, cost {cost:€} > {ev_mid_price_max:€}: {ev_high_amount:€}", cost=cost,
        )
    ctx.need(energy, "vehicle.energy", CARS)
    return ctx.refuse(
        CARS, "cost {cost:€} > {ev_mid_price_max:€}: only vans and hydrogen vehicles are aided", cost=cost
    )
