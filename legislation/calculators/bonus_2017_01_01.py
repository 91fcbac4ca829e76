"""Bonus écologique — C. énergie, art. D. 251-7, wording of décret n° 2016-1980 du 30 décembre 2016.

NOR DEVR1634598D, JORF n° 0304 du 31 décembre 2016 (texte n° 10). In force 2017-01-01 → 2017-02-18; the
next wording (décret n° 2017-196) starts on 2017-02-19. Seed 003, first article.

1° cars and vans of the 5° of D. 251-1: a) ≤ 20 g/km: 27 % of the cost (battery lease included), at most
6 000 €; b) 21–60 g/km: 1 000 €. 2° electric L vehicles of its 6° (no lead battery, ≥ 3 kW): 250 €/kWh,
at most the lower of 27 % of the cost and 1 000 €. Below 3 kW this wording gives nothing, nor does any
text give anything for a cycle (the aid for « cycles à pédalage assisté » starts on 2017-02-19). The rules
are shared with the 2017-02-19 wording in :mod:`legislation.calculators._bonus_2017`.
"""

from __future__ import annotations

from legislation.calculators import _bonus_2017
from legislation.calculators.kit import Ctx, R

FACTS = _bonus_2017.FACTS


def calculate(ctx: Ctx[R]) -> R:
    return _bonus_2017.calculate(ctx, None, cycles_aid_not_on_file=False)
