"""Prime à la conversion — C. énergie, art. D. 251-8, wording of décret n° 2016-1980 du 30 décembre 2016.

NOR DEVR1634598D, JORF n° 0304 du 31 décembre 2016 (texte n° 10). In force 2017-01-01 → 2017-02-18; the
next wording (décret n° 2017-196) starts on 2017-02-19. Seed 003, second article.

The rules are shared with the 2017-02-19 wording in :mod:`legislation.calculators._conversion_premium_2017`.
"""

from __future__ import annotations

from legislation.calculators import _conversion_premium_2017
from legislation.calculators.kit import Ctx, R

FACTS = _conversion_premium_2017.FACTS

# Open reading (shared/legal/seeds.md): a new vehicle bought by a household whose income tax is nil meets
# both 1° and 2°. « est fixé comme suit » does not say whether they add up; the official sources say they
# do not, and the more favourable is kept.
WHY_CASES_ALTERNATE = (
    "A new vehicle bought or leased by a natural person whose income tax is nil meets both 1° and 2°. "
    "The two cases do not add up: the notice of décret 2016-1980 gives the prime a ceiling (« celui de la "
    "prime à la conversion est augmenté de 3 700 € à 4 000 € ») that 1° a) alone reaches, and décret "
    "2017-196 rewrote the opening sentence as « déterminé par l'un ou l'autre des cas suivants ». The text "
    "does not rank the cases; the buyer may claim under either, so the more favourable is kept and the "
    "other is shown."
)


def calculate(ctx: Ctx[R]) -> R:
    return _conversion_premium_2017.calculate(ctx, WHY_CASES_ALTERNATE)
