"""Bonus écologique — C. énergie, art. D. 251-7, wording of décret n° 2017-196 du 16 février 2017.

NOR DEVR1700842D, JORF n° 0042 du 18 février 2017 (texte n° 1); LEGIARTI000034064095. In force
2017-02-19 → 2017-12-31 (décret n° 2017-1851 from 2018-01-01).

The 1° and 2° of the 2017-01-01 wording, unchanged (:mod:`legislation.calculators._bonus_2017`), plus
the 3°: electric L vehicles with no lead battery below 3 kW: 20 % of the cost, at most 200 €. The same
decree created an aid for « cycles à pédalage assisté » outside D. 251-7, not on file: a cycle is
answered « not covered by the text on file », its amount unknown.
"""

from __future__ import annotations

from legislation.calculators import _bonus_2017
from legislation.calculators.kit import Ctx, R

FACTS = _bonus_2017.FACTS


def calculate(ctx: Ctx[R]) -> R:
    return _bonus_2017.calculate(ctx, _below_three_kilowatts, cycles_aid_not_on_file=True)


def _below_three_kilowatts(ctx: Ctx[R]) -> R:
    # « 20 % du coût d'acquisition toutes taxes comprises »: unlike 1° a) and 2° a), the 3° does not add a
    # leased battery to the base.
    cost = ctx.need(ctx.row.vehicle_acquisition_cost, "vehicle.acquisition_cost", "3°")
    amount = ctx.rate("3°", "l_small_rate", cost, "cost")
    amount = ctx.cap("3°", amount, ctx.money("l_small_cap"), "« sans être supérieur à {l_small_cap} euros »")
    return ctx.award(
        amount, "3°", "electric L vehicle below {l_min_kw} kW, no lead battery: {l_small_rate:%} capped at "
        "{l_small_cap:€}",
    )
