"""Bonus écologique — C. énergie, art. D. 251-7, as amended by décret n° 2017-1851 du 29 décembre 2017.

NOR TRER1733433D, JORF n° 0305 du 31 décembre 2017 (texte n° 47). In force 2018-01-01 → 2018-12-31 (décret
n° 2018-1318 from 2019-01-01). Wording not on file: barème of history/era-2017-2020.md §1 V3 (likely).

Electric cars and vans (D. 251-1 5°: ≤ 20 g/km, official): 27 % of the cost incl. battery lease, capped
6 000 €. Electric L vehicles ≥ 3 kW: 250 €/kWh, capped at the lower of 27 % and 900 €. Below 3 kW: the
cap (200 € or 100 €) was not verified: not covered. Light M2/N2 vehicles are read as in 2017 (D. 251-1 1° a)
unchanged by décret 2017-1851): with the cars.
"""

from __future__ import annotations

from legislation.calculators import _bonus_2018 as rules
from legislation.calculators import _bonus_2018_2019 as one_cap
from legislation.calculators.kit import Ctx, R

FACTS = rules.FACTS


def calculate(ctx: Ctx[R]) -> R:
    if (done := rules.start(ctx)) is not None:
        return done
    category = rules.category(ctx)
    if category is rules.L_VEHICLE:
        found = rules.two_three_wheelers(ctx, _three_kilowatts)
        if not isinstance(found, rules.Below):
            return found
        return ctx.not_covered(
            rules.L_SMALL,
            "electric L vehicle below {l_min_kw} kW: the 2018 barème gives 20 % of the cost, but its cap (200 € "
            "or 100 €) is not verified (history/era-2017-2020.md §1 V3): the amount is not known",
        )
    if category is rules.M2_N2:
        ctx.read(
            "light-m2-n2-in-d251-1-1-a",
            "In 2018 the a) of the 1° of D. 251-1 (décret 2016-1980, not amended by décret 2017-1851) covers any "
            "« catégorie de véhicules faisant l'objet d'une mesure des émissions de dioxyde de carbone en "
            "application du règlement (CE) n° 715/2007 »: a light M2/N2 vehicle is aided as a car.",
        )
    return rules.zero_emission_co2(ctx) or one_cap.capped_rate(ctx)


def _three_kilowatts(ctx: Ctx[R], power: int) -> int:
    """« Two-wheelers ≥ 3 kW »: one threshold, whatever the instrument."""
    return ctx.qty("l_min_kw")
