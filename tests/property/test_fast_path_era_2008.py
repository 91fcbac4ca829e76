"""Fast path == explained path on the versions of décret 2007-1873 (2008–2014): seeded purchases and leases around
every CO2 band limit, with order dates that open the carry-over clauses, leases decided by their signature, their
invoice or their first rent, used vehicles, the State, and the exit window of art. 10 II into 2015."""

from __future__ import annotations

import dataclasses
import random
from datetime import date, timedelta

from api.catalogue.loader import load_catalogue
from legislation.enums import Acquisition, Energy, PersonKind, Scheme, VehicleCategory
from legislation.errors import InvalidDates
from legislation.fast.engine import Engine, explained_outcome
from legislation.row import Row

CATALOGUE = load_catalogue()
FIELDS = {f.name for f in dataclasses.fields(Row)}
CO2 = (0, 10, 20, 21, 40, 50, 51, 55, 60, 61, 85, 90, 91, 95, 96, 100, 101, 105, 106, 110, 111, 115, 116, 120, 121,
       125, 126, 130, 131, 135, 136, 140, 141)  # fmt: skip
CATEGORIES = (VehicleCategory.PASSENGER_CAR,) * 6 + (VehicleCategory.VAN, VehicleCategory.TWO_THREE_WHEELER)


def _row(rnd: random.Random) -> Row:
    start = date(2007, 12, 20)
    day = start + timedelta(rnd.randrange((date(2015, 4, 15) - start).days))
    lease = rnd.random() < 0.25
    facts = {
        "acquisition": Acquisition.LEASE if lease else Acquisition.PURCHASE,
        "order_date": day - timedelta(rnd.randrange(0, 200)) if rnd.random() < 0.8 else None,
        "invoice_date": day if (not lease or rnd.random() < 0.8) else None,
        "first_rent_date": day + timedelta(rnd.randrange(0, 30)) if lease else None,
        "lease_duration_months": rnd.choice([None, 12, 24, 36]) if lease else None,
        "schemes": (Scheme.BONUS,),
        "vehicle_category": rnd.choice(CATEGORIES),
        "vehicle_energy": rnd.choice(list(Energy)),
        "vehicle_co2_g_per_km": rnd.choice(CO2),
        "vehicle_acquisition_cost": rnd.choice([1_500_000, 2_000_000, 3_000_000, 5_000_000]),
        "vehicle_previously_registered": rnd.choice([False, False, False, True, None]),
        "buyer_person_kind": rnd.choice([*PersonKind, None]),
    }
    return Row(**{k: v for k, v in facts.items() if k in FIELDS})


def test_fast_equals_explained_on_the_2008_2014_versions() -> None:
    engine, rnd, compared = Engine(CATALOGUE), random.Random(2008), 0
    for _ in range(4000):
        row = _row(rnd)
        try:
            fast = engine.outcomes(row)
        except InvalidDates:
            try:
                explained_outcome(CATALOGUE, row, Scheme.BONUS)
            except InvalidDates:
                continue
            raise AssertionError(f"the fast path refused dates the explained path accepts: {row}") from None
        assert fast == [explained_outcome(CATALOGUE, row, Scheme.BONUS)], row
        compared += 1
    assert compared > 3500
