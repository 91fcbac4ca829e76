"""Prime à la conversion — C. énergie, art. D. 251-8, wording of décret n° 2020-656 du 30 mai 2020.

NOR TRER2013154D, JORF du 31 mai 2020. « en vigueur du 1er juin au 31 décembre 2020 »; replaced on 2020-08-03 by
décret n° 2020-955 (once the 200 000 primes of the plan were reached). No wording on file: barème of
history/era-2017-2020.md §2 (likely): a household whose reference income per share is at most 18 000 € gets
5 000 € for an electric car or a plug-in hybrid (all-electric range above 50 km), 3 000 € for a thermal car.
Computed here: the electric car or van of such a household; everything else (thermal cars, whose conditions
are not known; plug-in hybrids, whose CO2 band is not known; other buyers): not covered.
"""

from __future__ import annotations

from legislation.calculators import _conversion_premium_2018 as rules
from legislation.calculators.kit import Ctx, R

FACTS = (
    "acquisition",
    "buyer.person_kind",
    "buyer.reference_income_per_share",
    "lease_duration_months",
    "scrapped_vehicle",
    "vehicle.category",
    "vehicle.co2_g_per_km",
)

EV = "barème: electric cars and vans, households with an income per share ≤ 18 000 €"


def calculate(ctx: Ctx[R]) -> R:
    if (done := rules.start(ctx)) is not None:
        return done
    row = ctx.row
    category = ctx.need(row.vehicle_category, "vehicle.category", EV)
    if not rules.is_zero_emission(ctx, category):
        return rules.not_known(ctx, "a {category} that is not an electric car or van (thermal car 3 000 € and "
                               "plug-in hybrid 5 000 € per the research, their conditions not known)",
                               category=category)
    if not rules.is_natural_person(ctx, EV):
        return rules.not_known(ctx, "a buyer other than a household")
    income = ctx.need(row.buyer_reference_income_per_share, "buyer.reference_income_per_share", EV)
    if income > ctx.money("income_max"):
        ctx.step(EV, "reference income per share {income:€} > {income_max:€}", income=income)
        return rules.not_known(ctx, "a household whose income per share is above {income_max:€}")
    ctx.step(EV, "household, reference income per share {income:€} ≤ {income_max:€}", ctx.money("ev_amount"),
             income=income)
    return ctx.award(ctx.money("ev_amount"), EV, "electric car or van, household with an income per share ≤ "
                     "{income_max:€}: {ev_amount:€}")
