"""Bonus écologique 2008 → July 2012 — décret n° 2007-1873 du 26 décembre 2007, art. 3 (versions of 2007-12-31 to
2012-01-01: décrets 2007-1873, 2009-66, 2009-1581, 2010-447, 2010-1618, 2011-310, 2011-2055).

The rule is :mod:`legislation.calculators._decret_2007_1873_art3`; in these versions 1° a) is reserved to natural
persons, the State is excluded (art. 1, premier alinéa) and every cap is a share of the acquisition cost.
"""

from __future__ import annotations

from legislation.calculators import _decret_2007_1873_art3 as art3
from legislation.calculators.kit import Ctx, R

FACTS = art3.FACTS
VARIABLE_PARAMETERS = art3.VARIABLE_PARAMETERS
SHAPE = art3.Shape(legal_persons_hybrids=False, state_eligible=False, lease_caps_on_rents=False)


def calculate(ctx: Ctx[R]) -> R:
    return art3.calculate(ctx, SHAPE)
