"""Décret n° 2014-1672, art. 1 (2015 conditions) for the kernels of the texts that apply it (art. 3, art. 4).

Mirrors :func:`legislation.calculators._decret_2014_1672_art1.refusal`: the numbers are art. 1's own
parameters (read through the calling version's ``relies_on``), the refusals cite art. 1.
"""

from __future__ import annotations

from collections.abc import Callable

from legislation.calculators import _decret_2014_1672_art1 as art1
from legislation.enums import Acquisition, Energy, VehicleCategory
from legislation.fast.kernels._kit import Decided, Params
from legislation.fast.row import Row

ELIGIBLE: Decided = ("", "", 0, True, "", "", None)  # marker: art. 1 is met (compared by identity)
Check = Callable[[Row, frozenset[str]], Decided]

CAR, LEASE = VehicleCategory.PASSENGER_CAR, Acquisition.LEASE
NOT_MEASURED = art1.NOT_MEASURED


# Energy.is_hybrid, as a tuple: a membership test by identity instead of a property call per row.
HYBRIDS = tuple(e for e in Energy if e.is_hybrid)


def build_check(p: Params) -> Check:
    """Art. 1, I for the version of ``p``: ELIGIBLE, or its refusal or missing fact citing art. 1."""
    a = p.of(art1.VERSION_ID)
    lease_min, hybrid_max = a.count("lease_min_months"), a.count("hybrid_co2_max")
    car_max, transitional_max = a.count("other_car_co2_max"), a.count("transitional_co2_max")
    other_max, branch = a.count("other_vehicle_co2_max"), art1.TRANSITIONAL_BRANCH
    s, v = p.scheme, p.version.id

    def refusal(paragraph: str) -> Decided:
        return s, "computed", 0, False, v, art1.cite(paragraph), None

    short_lease, not_measured, registered = refusal("I"), refusal("I, 1°"), refusal("I, 2°")
    over_a, over_b = refusal("I, 5° a)"), refusal("I, 5° b)")
    need = {x: p.missing("", art1.cite(x)) for x in ("I", "I, 1°", "I, 5°", "I, 5° a)")}  # asked by art. 1

    def check(row: Row, open_branches: frozenset[str]) -> Decided:
        if row.acquisition is LEASE:
            months = row.lease_duration_months
            if months is None:
                return need["I"]
            if months < lease_min:
                return short_lease
        category = row.vehicle_category
        if category is None:
            return need["I, 1°"]
        if category in NOT_MEASURED:
            return not_measured
        if row.vehicle_previously_registered:
            return registered
        co2 = row.vehicle_co2_g_per_km
        if co2 is None:
            return need["I, 5°"]
        if category is not CAR:
            return over_b if co2 > other_max else ELIGIBLE
        if co2 <= car_max or (co2 <= transitional_max and branch in open_branches):
            return ELIGIBLE
        if co2 > hybrid_max:
            return over_a
        energy = row.vehicle_energy
        if energy is None:
            return need["I, 5° a)"]
        return ELIGIBLE if energy in HYBRIDS else over_a

    return check
