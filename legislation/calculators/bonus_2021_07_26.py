"""Bonus écologique — C. énergie, art. D. 251-7 as amended by décret n° 2021-977 du 23 juillet 2021 (and its 2022
versions: décret n° 2022-960, art. 1, from 2022-07-01; décret du 29 juillet 2022 from 2022-07-31).

JORF du 25 juillet 2021; in force 2021-07-26. Wording on file only for the opening of its 1° (truncated, official:
cars « autres que les camionnettes »); barème of history/era-2021-2025.md §1a rows D, E and F — the row C car
amounts, vans ≤ 20 g/km at 40 % capped 7 000 / 5 000 € at any price; from 2022-07-01 a low price limit of 47 000 €.
Rules: :mod:`legislation.calculators._bonus_2021`.
"""

from __future__ import annotations

from legislation.calculators import _bonus_2021 as rules
from legislation.calculators import _bonus_2021_vans as lines
from legislation.calculators.kit import Ctx, R

FACTS = rules.FACTS


def calculate(ctx: Ctx[R]) -> R:
    return rules.calculate(ctx, None, lines.vans)
