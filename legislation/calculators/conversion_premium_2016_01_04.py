"""Prime à la conversion — C. énergie, art. D. 251-8, as amended by décret n° 2015-1928 du 31 décembre 2015.

NOR DEVR1529559D, JORF n° 0002 du 3 janvier 2016. In force 2016-01-04 → 2016-12-31 (décret n° 2016-1980 from
2017-01-01). Wording not on file. What the sources give: the notice of décret n° 2016-1980 (official) raises the
prime's ceiling « de 3 700 € à 4 000 € » in 2017 and makes vans eligible only then; the ceiling of 3 700 € is the
amount of a new car ≤ 20 g/km in the text codified on 2016-01-01 (décret 2014-1672 art. 4 II 1°, official). So a new
passenger car ≤ 20 g/km gets 3 700 € (likely); a van gets nothing; every other case (21–60 g/km, non-taxable
households, used cars), whose 2016 amounts décret 2015-1928 may have changed, is not covered.
"""

from __future__ import annotations

from legislation.calculators import _conversion_premium_2018 as rules
from legislation.calculators.kit import Ctx, R

FACTS = (
    "acquisition",
    "lease_duration_months",
    "scrapped_vehicle",
    "vehicle.category",
    "vehicle.co2_g_per_km",
    "vehicle.previously_registered",
)

EV = "barème: new passenger cars ≤ 20 g/km"
VAN_READING = (
    "The notice of décret n° 2016-1980 says « les camionnettes deviennent éligibles à la prime à la conversion » "
    "from 2017-01-01: in 2016 a van is not."
)


def calculate(ctx: Ctx[R]) -> R:
    if (done := rules.start(ctx)) is not None:
        return done
    row = ctx.row
    category = ctx.need(row.vehicle_category, "vehicle.category", EV)
    if category is rules.VAN:
        ctx.read("no-van-prime-before-2017", VAN_READING)
        return ctx.refuse("", "a van becomes eligible to the prime à la conversion only on 2017-01-01")
    if category is not rules.CAR:
        return rules.not_known(ctx, "a {category}", category=category)
    co2 = ctx.need(row.vehicle_co2_g_per_km, "vehicle.co2_g_per_km", EV)
    if co2 > ctx.count("ev_co2_max"):
        return rules.not_known(ctx, "a car of {co2} g/km (above {ev_co2_max} g/km)", co2=co2)
    if ctx.need(row.vehicle_previously_registered, "vehicle.previously_registered", EV):
        return rules.not_known(ctx, "a used car (the non-taxable households' case)")
    ctx.step(EV, "new passenger car, CO2 {co2} g/km ≤ {ev_co2_max} g/km", ctx.money("ev_amount"), co2=co2)
    return ctx.award(ctx.money("ev_amount"), EV, "new passenger car ≤ {ev_co2_max} g/km: {ev_amount:€}")
