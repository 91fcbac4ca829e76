"""Bonus écologique — C. énergie, art. D. 251-7 as codified by décret n° 2015-1823 (2016-01-01 → 2016-01-03).

The codified wording is not on file; its content is décret n° 2014-1672 art. 3, which it codified (history: « codified
copy », likely). The rules are those of :mod:`legislation.calculators.bonus_2015_01_01`, run as they are: this module
only registers them under their own key, because the codified version gives the 2015 numbers **without** those of
the two « A titre transitoire » alinéas (spent on 2015-03-31, before the code existed), and versions of one key give
the same parameters. No clause of this version can open those branches.
"""

from __future__ import annotations

from legislation.calculators import bonus_2015_01_01

FACTS = bonus_2015_01_01.FACTS
calculate = bonus_2015_01_01.calculate
