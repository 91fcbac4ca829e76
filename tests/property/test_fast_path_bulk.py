"""Fast path == explained path on 20 000 seeded purchases aimed at the deep paragraphs of every version.

The Hypothesis test (test_fast_path.py) explores freely and shrinks; this one reaches what free
exploration rarely does: for each compiled version in turn, purchases that pass its conditions (new
car, scrapped diesel car of the right age, owned long enough, destroyed in the window, …) and then sit
on its boundaries (every CO2, price, income and quantity of its text ± one unit, cap ÷ rate ± one
cent, dates a whole number of months from the decisive date ± one day). Seeded: a failure is
reproducible, and the message names the purchase.
"""

from __future__ import annotations

import random
from collections import Counter
from datetime import date, timedelta
from decimal import Decimal
from itertools import product

from api.catalogue.loader import load_catalogue
from legislation import (
    Acquisition,
    Buyer,
    CritAir,
    Energy,
    EuroStandard,
    InvalidDates,
    PersonKind,
    PowerBasis,
    Purchase,
    Role,
    Scheme,
    ScrappedVehicle,
    VanClass,
    Vehicle,
    VehicleCategory,
)
from legislation.dates import add_months
from legislation.fast import Engine, Row, explained_outcome
from legislation.versions import Version

CATALOGUE = load_catalogue()
ENGINE = Engine(CATALOGUE)
CENT, MILLI = Decimal("0.01"), Decimal("0.001")


class Pools:
    """The interesting values of one version: its numbers ± one unit, and cap ÷ rate."""

    def __init__(self, version: Version) -> None:
        texts = [version, *(CATALOGUE.versions[r] for r in version.relies_on)]
        values = [p.value for v in texts for p in v.parameters.values()]
        rates = [x for x in values if 0 < x < 1]
        self.co2 = sorted(
            {
                int(x) + d
                for x in values
                if x == x.to_integral_value() and x <= 300
                for d in (-1, 0, 1)
                if int(x) + d >= 0
            }
        )
        money = {x + d for x in values if x >= 100 for d in (-CENT, 0, CENT)}
        money |= {
            (c / r).quantize(CENT) + d for c in values if c >= 100 for r in rates for d in (-CENT, 0, CENT)
        }
        self.money = sorted(m.quantize(CENT) for m in money if m >= 0)
        self.quantities = sorted(
            {(x + d).quantize(MILLI) for x in values if x <= 300 for d in (-MILLI, 0, MILLI) if x + d >= 0}
        )
        # A text without numbers (the one that ends an aid: role « ended »): ordinary values.
        self.co2 = self.co2 or [0, 20, 50, 130]
        self.money = self.money or [Decimal("10000.00"), Decimal("30000.00"), Decimal("47000.00")]
        self.quantities = self.quantities or [Decimal("1.000"), Decimal("50.000")]


def pick(rng: random.Random, *options: object) -> object:
    return rng.choice(options)


def money(rng: random.Random, pools: Pools, high: int = 90000) -> Decimal:
    if pools.money and rng.random() < 0.6:  # a version without numbers (amounts not known) has no pool
        return rng.choice(pools.money)
    return Decimal(rng.randint(0, high * 100)) / 100


def quantity(rng: random.Random, pools: Pools, high: int = 60) -> Decimal:
    if pools.quantities and rng.random() < 0.6:
        return rng.choice(pools.quantities)
    return Decimal(rng.randint(0, high * 1000)) / 1000


def maybe(rng: random.Random, value: object, missing: float = 0.04) -> object:
    return None if rng.random() < missing else value


def around(rng: random.Random, decisive: date, months: tuple[int, ...]) -> date:
    """A whole number of months from the decisive date, ± one day: where the texts' periods end."""
    return add_months(decisive, rng.choice(months)) + timedelta(days=rng.choice([-1, 0, 1]))


def within(rng: random.Random, first: date, last: date) -> date:
    return first + timedelta(days=rng.randint(0, max(0, (last - first).days)))


def first_registered(rng: random.Random, decisive: date) -> date:
    """The scrapped vehicle's first registration: old, 15 years to the day, or around 1 January 2001."""
    roll = rng.random()
    if roll < 0.45:
        return within(rng, date(1985, 1, 1), date(1999, 12, 31))
    if roll < 0.75:
        return around(rng, decisive, (-15 * 12,))
    if roll < 0.9:
        return date(2001, 1, 1) + timedelta(days=rng.choice([-1, 0, 1]))
    return within(rng, date(2000, 1, 1), decisive)


def owned_since(rng: random.Random, decisive: date) -> date:
    roll = rng.random()
    if roll < 0.45:
        return within(rng, date(1995, 1, 1), decisive - timedelta(days=800))
    if roll < 0.85:
        return around(rng, decisive, (-6, -12))
    return within(rng, decisive - timedelta(days=400), decisive)


def destroyed(rng: random.Random, decisive: date) -> date:
    roll = rng.random()
    if roll < 0.45:
        return within(rng, decisive - timedelta(days=150), decisive + timedelta(days=150))
    if roll < 0.9:
        return around(rng, decisive, (-6, 0, 6))
    return within(rng, decisive - timedelta(days=800), decisive + timedelta(days=800))


def vehicle_registered(rng: random.Random, decisive: date) -> date:
    """A used vehicle's first registration (the « depuis moins de six mois » of 2021)."""
    if rng.random() < 0.5:
        return around(rng, decisive, (-6,))
    return within(rng, decisive - timedelta(days=1100), decisive)


def decisive_day(rng: random.Random, version: Version) -> date:
    last = version.last_day or version.valid_from + timedelta(days=365)
    marks = [version.valid_from, last] + [c.decisive_on_or_before for c in version.transitional]
    if rng.random() < 0.3:
        return rng.choice(marks) + timedelta(days=rng.choice([-1, 0, 1]))
    return version.valid_from + timedelta(days=rng.randint(0, (last - version.valid_from).days))


def purchase(rng: random.Random, version: Version, pools: Pools) -> Purchase:
    decisive = decisive_day(rng, version)
    lease = rng.random() < 0.25
    marks = [c.order_limit for c in version.transitional] or [version.valid_from]
    order = pick(
        rng,
        None,
        decisive - timedelta(days=rng.randint(0, 150)),
        rng.choice(marks) + timedelta(days=rng.choice([-1, 0, 1])),
    )
    if order is not None and order > decisive:  # type: ignore[operator]
        order = decisive
    category = pick(
        rng,
        VehicleCategory.PASSENGER_CAR,
        VehicleCategory.PASSENGER_CAR,
        VehicleCategory.VAN,
        *VehicleCategory,
    )
    vehicle = Vehicle(
        category=maybe(rng, category),
        energy=maybe(rng, rng.choice(list(Energy))),  # type: ignore[arg-type]
        co2_g_per_km=maybe(rng, rng.choice(pools.co2) if pools.co2 and rng.random() < 0.7 else rng.randint(0, 200)),  # type: ignore[arg-type]
        acquisition_cost=maybe(rng, money(rng, pools)),  # type: ignore[arg-type]
        battery_rental_cost=money(rng, pools, 9000) if rng.random() < 0.2 else Decimal("0"),
        electric_motor_power_30min_kw=maybe(rng, quantity(rng, pools)),  # type: ignore[arg-type]
        net_max_power_kw=maybe(rng, quantity(rng, pools, 10)),  # type: ignore[arg-type]
        power_basis=maybe(rng, rng.choice(list(PowerBasis))),  # type: ignore[arg-type]
        uses_lead_battery=maybe(rng, rng.random() < 0.15),  # type: ignore[arg-type]
        battery_energy_kwh=maybe(rng, quantity(rng, pools, 20)),  # type: ignore[arg-type]
        city_electric_range_km=maybe(rng, quantity(rng, pools, 400), 0.15),  # type: ignore[arg-type]
        euro_standard=maybe(rng, rng.choice(list(EuroStandard))),  # type: ignore[arg-type]
        critair=maybe(rng, pick(rng, CritAir.CLASS_1, CritAir.ELECTRIC, *CritAir)),  # type: ignore[arg-type]
        van_class=maybe(rng, rng.choice(list(VanClass))),  # type: ignore[arg-type]
        previously_registered=maybe(rng, rng.random() < 0.3, 0.1),  # type: ignore[arg-type]
        first_registration_date=vehicle_registered(rng, decisive) if rng.random() < 0.4 else None,
        new_registration_system=maybe(rng, rng.random() < 0.85, 0.1),  # type: ignore[arg-type]
        wheelchair_accessible=maybe(rng, rng.random() < 0.15, 0.1),  # type: ignore[arg-type]
    )
    buyer = Buyer(
        person_kind=maybe(rng, pick(rng, PersonKind.NATURAL_PERSON, PersonKind.NATURAL_PERSON, *PersonKind)),  # type: ignore[arg-type]
        reference_income_per_share=maybe(rng, money(rng, pools, 40000)),  # type: ignore[arg-type]
        income_tax_nil=maybe(rng, rng.random() < 0.5),  # type: ignore[arg-type]
        overseas=maybe(rng, rng.random() < 0.2),  # type: ignore[arg-type]
        home_work_distance_km=maybe(rng, quantity(rng, pools, 80), 0.2),  # type: ignore[arg-type]
        professional_km_per_year=maybe(
            rng,
            quantity(rng, pools, 30000)
            if rng.random() < 0.5
            else Decimal(rng.choice(["12000", "12000.001", "11999.999"])),
            0.2,
        ),  # type: ignore[arg-type]
    )
    scrapped = None
    if rng.random() < 0.8:
        scrapped = ScrappedVehicle(
            energy=maybe(rng, pick(rng, Energy.DIESEL, Energy.DIESEL, *Energy)),  # type: ignore[arg-type]
            category=maybe(
                rng, pick(rng, VehicleCategory.PASSENGER_CAR, VehicleCategory.PASSENGER_CAR, *VehicleCategory)
            ),  # type: ignore[arg-type]
            first_registration_date=maybe(rng, first_registered(rng, decisive)),  # type: ignore[arg-type]
            owned_since=maybe(rng, owned_since(rng, decisive)),  # type: ignore[arg-type]
            destruction_date=maybe(rng, destroyed(rng, decisive)),  # type: ignore[arg-type]
        )
    return Purchase(
        acquisition=Acquisition.LEASE if lease else Acquisition.PURCHASE,
        order_date=order,  # type: ignore[arg-type]
        invoice_date=decisive if not lease or rng.random() < 0.3 else None,
        first_rent_date=decisive if lease else None,
        lease_duration_months=maybe(rng, rng.choice([12, 23, 24, 25, 36]), 0.1),  # type: ignore[arg-type]
        vehicle=vehicle,
        buyer=buyer,
        scrapped_vehicle=scrapped,
        bonus_ecologique_amount=maybe(rng, money(rng, pools, 8000), 0.3),  # type: ignore[arg-type]
        schemes=(version.scheme,) if version.scheme else tuple(Scheme),
    )


def test_fast_path_equals_explained_path_on_the_deep_paragraphs() -> None:
    rng = random.Random(20240607)
    versions = [v for v in CATALOGUE.versions.values() if v.role is Role.AMOUNTS]
    pools = {v.id: Pools(v) for v in versions}
    decided: Counter[str] = Counter()
    paragraphs: Counter[str] = Counter()
    for _ in range(max(20000, 1100 * len(versions))):  # each version decided > 500 times, however many are on file
        version = rng.choice(versions)
        p = purchase(rng, version, pools[version.id])
        row = Row.from_purchase(p)
        before = ENGINE.fallbacks
        try:
            fast = ENGINE.outcomes(row)
        except InvalidDates:
            continue
        explained = [explained_outcome(CATALOGUE, row, s) for s in p.schemes]
        assert fast == explained, p
        if ENGINE.fallbacks == before and fast[0][4] == version.id:
            decided[version.id] += 1
            paragraphs[f"{version.id} {fast[0][5]} {fast[0][3]}"] += 1
    assert ENGINE.fallbacks == 0
    for version in versions:  # every version was decided by its own calculator, many times
        assert decided[version.id] > 500, (version.id, decided)


def test_fast_path_equals_explained_path_on_every_combination_of_the_2021_ceiling_facts() -> None:
    """3° of D. 251-8 (2021): which registration fact is asked, when, depends on every other one; all of
    them given, absent or either way, the CO2 on and around each of its four ceilings."""
    version = next(
        (v for v in CATALOGUE.versions.values() if v.calculator == "conversion_premium_2021_07_26"), None
    )
    assert version is not None
    decisive = version.valid_from + timedelta(days=60)
    ceilings = [int(version.parameters[n].value) for n in version.parameters if n.startswith("c3_co2_")]
    checked = 0
    for co2 in sorted({c + d for c in ceilings for d in (-1, 0, 1)}):
        for registered, first, standard, wheelchair in product(
            (None, False, True),
            (None, add_months(decisive, -6), add_months(decisive, -6) + timedelta(days=1)),
            (None, False, True),
            (None, False, True),
        ):
            purchase = Purchase(
                acquisition=Acquisition.PURCHASE,
                invoice_date=decisive,
                schemes=(Scheme.CONVERSION_PREMIUM,),
                vehicle=Vehicle(
                    category=VehicleCategory.PASSENGER_CAR,
                    energy=Energy.PETROL,
                    co2_g_per_km=co2,
                    acquisition_cost=Decimal("20000"),
                    critair=CritAir.CLASS_1,
                    previously_registered=registered,
                    first_registration_date=first,
                    new_registration_system=standard,
                    wheelchair_accessible=wheelchair,
                ),
                buyer=Buyer(
                    person_kind=PersonKind.NATURAL_PERSON, reference_income_per_share=Decimal("5000")
                ),
                scrapped_vehicle=ScrappedVehicle(
                    energy=Energy.DIESEL, category=VehicleCategory.PASSENGER_CAR
                ),
            )
            row = Row.from_purchase(purchase)
            assert ENGINE.outcomes(row) == [explained_outcome(CATALOGUE, row, Scheme.CONVERSION_PREMIUM)], (
                purchase
            )
            checked += 1
    assert checked > 500
