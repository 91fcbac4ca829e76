"""Bonus écologique — C. énergie, art. D. 251-7 as amended by décret n° 2021-37 du 19 janvier 2021.

NOR TRER2035997D, JORF du 20 janvier 2021; in force 2021-01-21 → 2021-06-30 (décret n° 2020-1526, art. 2 from
2021-07-01). Wording not on file: barème of history/era-2021-2025.md §1a row B (confirmed) — the car amounts of
2020-06-01 (7 000 / 5 000 / 3 000 / 3 000 / 2 000 €), heavy vehicles N2/N3 and M2/M3 at 40 % capped 50 000 / 30 000 €,
and + 1 000 € overseas. Rules: :mod:`legislation.calculators._bonus_2021`.
"""

from __future__ import annotations

from legislation.calculators import _bonus_2021 as rules
from legislation.calculators import _bonus_2021_high as high
from legislation.calculators.kit import Ctx, R

FACTS = rules.FACTS


def calculate(ctx: Ctx[R]) -> R:
    return rules.calculate(ctx, high.van_or_hydrogen, None)
