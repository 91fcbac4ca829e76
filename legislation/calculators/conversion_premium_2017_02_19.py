"""Prime à la conversion — C. énergie, art. D. 251-8, wording of décret n° 2017-196 du 16 février 2017.

NOR DEVR1700842D, JORF n° 0042 du 18 février 2017 (texte n° 1); LEGIARTI000034064170. In force
2017-02-19 → 2017-12-31 (décret n° 2017-1851 from 2018-01-01).

Same cases and amounts as the 2017-01-01 wording (:mod:`legislation.calculators._conversion_premium_2017`);
only the opening sentence changes: « est déterminé par l'un ou l'autre des cas suivants ».
"""

from __future__ import annotations

from legislation.calculators import _conversion_premium_2017
from legislation.calculators.kit import Ctx, R

FACTS = _conversion_premium_2017.FACTS

# « l'un ou l'autre des cas suivants »: the cases are alternatives, they do not add up; the text does not
# say which one prevails when a purchase meets both.
WHY_CASES_ALTERNATE = (
    "A new vehicle bought or leased by a natural person whose income tax is nil meets both 1° and 2°. "
    "The amount « est déterminé par l'un ou l'autre des cas suivants »: one case, not both. The text does "
    "not rank them; the buyer may claim under either, so the more favourable is kept and the other is shown."
)


def calculate(ctx: Ctx[R]) -> R:
    return _conversion_premium_2017.calculate(ctx, WHY_CASES_ALTERNATE)
