"""Bonus écologique August 2012 → October 2013 and from June 2014 — décret n° 2007-1873, art. 3 (versions of
2012-08-01, décret 2012-925; 2013-01-01, décret 2012-1545; 2014-06-30, décret 2014-723).

The rule is :mod:`legislation.calculators._decret_2007_1873_art3`; from August 2012 the hybrids of 1° a) are
also those « facturés à des personnes morales après le 31 juillet 2012 », and the State is eligible (art. 1 in
its wording of 2013-11-01: « Les administrations de l'Etat ne sont éligibles qu'aux aides attribuées aux
véhicules facturés après le 31 juillet 2012 »). From 2014-06-30 (décret 2014-723) the caps of a lease are a
share of the acquisition cost again, as for a purchase.
"""

from __future__ import annotations

from legislation.calculators import _decret_2007_1873_art3 as art3
from legislation.calculators.kit import Ctx, R

FACTS = art3.FACTS
VARIABLE_PARAMETERS = art3.VARIABLE_PARAMETERS
SHAPE = art3.Shape(legal_persons_hybrids=True, state_eligible=True, lease_caps_on_rents=False)


def calculate(ctx: Ctx[R]) -> R:
    return art3.calculate(ctx, SHAPE)
