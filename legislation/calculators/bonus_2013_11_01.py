"""Bonus écologique November 2013 → June 2014 — décret n° 2007-1873, art. 3 (version of 2013-11-01, décret 2013-971).

The rule is :mod:`legislation.calculators._decret_2007_1873_art3` with the shape of August 2012, except that the
cap of a leased vehicle is a share of « la somme des montants des loyers prévus par le contrat de location »
(first rent after 31 October 2013): the request does not give that sum, so such a lease is not covered.
"""

from __future__ import annotations

from legislation.calculators import _decret_2007_1873_art3 as art3
from legislation.calculators.kit import Ctx, R

FACTS = art3.FACTS
VARIABLE_PARAMETERS = art3.VARIABLE_PARAMETERS
SHAPE = art3.Shape(legal_persons_hybrids=True, state_eligible=True, lease_caps_on_rents=True)


def calculate(ctx: Ctx[R]) -> R:
    return art3.calculate(ctx, SHAPE)
