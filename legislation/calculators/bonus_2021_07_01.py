"""Bonus écologique — C. énergie, art. D. 251-7 as amended by décret n° 2020-1526 du 7 décembre 2020, art. 2.

In force 2021-07-01 → 2021-07-25 (décret n° 2021-977 from 2021-07-26). Wording not on file: barème of
history/era-2021-2025.md §1a row C (confirmed) — 27 % capped 6 000 / 4 000 € below 45 000 €, 2 000 € to 60 000 €,
plug-in hybrids 1 000 €; above 60 000 € (vans, hydrogen vehicles) no amount in the research: not known. Heavy
vehicles and the outre-mer majoration as from 2021-01-21. Rules: :mod:`legislation.calculators._bonus_2021`.
"""

from __future__ import annotations

from legislation.calculators import _bonus_2021 as rules
from legislation.calculators.kit import Ctx, R

FACTS = rules.FACTS


def calculate(ctx: Ctx[R]) -> R:
    return rules.calculate(ctx, None, None)
