"""Prime à la conversion — C. énergie, art. D. 251-8, as amended by décret n° 2019-737 du 16 juillet 2019.

NOR TRER1920290D, JORF n° 0164 du 17 juillet 2019. In force 2019-08-01; the same rules serve the versions of
2020-01-01 (décret n° 2019-1526), 2020-03-05 (décret n° 2020-188, which changes only the thermal CO2 ceiling of
the 3°) and 2020-08-03 (décret n° 2020-955, which restores the thresholds, categories and amounts in force before
décret n° 2020-656). No wording of D. 251-8 is on file for them.

What the sources on file give: the acquired vehicle costs at most 60 000 € TTC, battery included (décret
2019-737 art. 1, D. 251-3 I 1°, official); an electric car or van bought by a natural person whose reference
income per share is at most 13 489 € and who drives more than 30 km to work or more than 12 000 km a year for
work, or whose income per share is at most 6 300 €, gets 80 % of the price, capped at 5 000 € (décret 2020-955
art. 1 and notice, official; history likely for 2019). Every other case (other buyers' amount, thermal cars,
plug-in hybrids, two-wheelers): not covered, the amount unknown.
"""

from __future__ import annotations

from legislation.calculators import _conversion_premium_2018 as rules
from legislation.calculators import _household_income as households
from legislation.calculators.kit import Ctx, R

FACTS = (
    "acquisition",
    "buyer.home_work_distance_km",
    "buyer.person_kind",
    "buyer.professional_km_per_year",
    "buyer.reference_income_per_share",
    "lease_duration_months",
    "scrapped_vehicle",
    "vehicle.acquisition_cost",
    "vehicle.battery_rental_cost",
    "vehicle.category",
    "vehicle.co2_g_per_km",
)

EV = "barème: electric cars and vans, modest households and long commuters"
CEILING = "C. énergie, art. D. 251-3, I, 1° (décret n° 2019-737, art. 1)"
PRICE_READING = (
    "« 80 % du prix d'acquisition »: the price of the vehicle acquired, without a leased battery (the 60 000 € "
    "ceiling of D. 251-3 says « incluant le cas échéant le coût … de la batterie »; the rate's base does not)."
)


def calculate(ctx: Ctx[R]) -> R:
    if (done := rules.start(ctx)) is not None:
        return done
    row = ctx.row
    cost = ctx.cost_with_battery(EV)
    if cost > ctx.money("price_max"):
        ctx.step_at(CEILING, "cost {cost:€} incl. battery > {price_max:€}", cost=cost)
        return ctx.refuse("", "the vehicle acquired costs {cost:€} > {price_max:€} TTC incl. battery "
                          "(D. 251-3 I 1°, décret n° 2019-737)", CEILING, cost=cost)
    category = ctx.need(row.vehicle_category, "vehicle.category", EV)
    if not rules.is_zero_emission(ctx, category):
        return rules.not_known(ctx, "a {category} that is not an electric car or van", category=category)
    if not households.is_modest_or_long_distance(ctx, EV):
        return rules.not_known(ctx, "an electric car or van bought by another buyer than a modest household or "
                               "a long commuter (the « autres cas »)")
    ctx.read("price-without-battery", PRICE_READING)
    price = ctx.need(row.vehicle_acquisition_cost, "vehicle.acquisition_cost", EV)
    amount = ctx.rate(EV, "modest_rate", price, "price")
    amount = ctx.cap(EV, amount, ctx.money("modest_cap"), "« dans la limite de {modest_cap} euros »")
    return ctx.award(amount, EV, "electric car or van, modest household or long commuter: {modest_rate:%} of "
                     "{price:€}, capped at {modest_cap:€}", price=price)
