"""Bonus écologique — C. énergie, art. D. 251-7, as amended by décret n° 2018-1318 du 28 décembre 2018.

NOR TRER1832947D, JORF n° 0302 du 30 décembre 2018 (texte n° 3). In force 2019-01-01 → 2019-12-31 (décret
n° 2019-1526 from 2020-01-01). Wording not on file: barème of history/era-2017-2020.md §1 V4 (likely).

Electric cars and vans (≤ 20 g/km): 27 % of the cost incl. battery lease, capped 6 000 €. Electric L
vehicles at or above 2 kW (règlement (UE) 168/2013) or 3 kW (directive 2002/24/CE): 250 €/kWh, capped at
the lower of 27 % and 900 €; below: 20 %, capped 100 €. Light M2/N2 vehicles of D. 251-1 1° c): amount only
guessed by the research, not covered.
"""

from __future__ import annotations

from legislation.calculators import _bonus_2018 as rules
from legislation.calculators import _bonus_2018_2019 as one_cap
from legislation.calculators import _bonus_2019 as two_kw
from legislation.calculators.kit import Ctx, R

FACTS = rules.FACTS


def calculate(ctx: Ctx[R]) -> R:
    if (done := rules.start(ctx)) is not None:
        return done
    category = rules.category(ctx)
    if category is rules.L_VEHICLE:
        found = rules.two_three_wheelers(ctx, two_kw.power_threshold)
        return two_kw.small_two_three_wheelers(ctx, found) if isinstance(found, rules.Below) else found
    if category is rules.M2_N2:
        return rules.m2_n2_not_known(ctx)
    return rules.zero_emission_co2(ctx) or one_cap.capped_rate(ctx)
