"""The fast path gives exactly what the explained path gives, for every version and every gap.

For generated purchases (all categories, CO2 0–200 g/km, prices and quantities at and around every number
of every version on file, persons, incomes, dates on and around every start, end and transitional
deadline, and in the gaps), the outcome of each scheme — status, amount, eligible, version in force,
paragraph, kept version — from :class:`legislation.fast.Engine` equals the one from
:func:`legislation.resolver.calculate`. Both run the same calculators (in the lean and the explaining
context); what this proves is the engine's own plumbing — its day caches, its short path, clauses opened
with the resolver's rules, the keep / more-favourable choice, the statuses — and that the lean context
never falls back to the explained path.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from datetime import date, timedelta
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.catalogue.loader import load_catalogue
from legislation import (
    Acquisition,
    Buyer,
    CritAir,
    Energy,
    EuroStandard,
    PersonKind,
    PowerBasis,
    Purchase,
    Scheme,
    ScrappedVehicle,
    VanClass,
    Vehicle,
    VehicleCategory,
)
from legislation.dates import add_months
from legislation.errors import InvalidFacts
from legislation.fast import Engine, Outcome, Row, explained_outcome
from legislation.row import ROW_FIELDS, SCALES, from_scaled

CATALOGUE = load_catalogue()


class NoFallback(Engine):
    """The engine with its explained-path fallback turned into a failure: the lean context decides every row."""

    def explained(self, row: Row, scheme: Scheme) -> Outcome:
        raise AssertionError(f"the fast path fell back to the explained path for {scheme.value}: {row}")


ENGINE = NoFallback(CATALOGUE)


def _days() -> list[date]:
    """Every start, end, transitional deadline and order limit of the catalogue, with its neighbours."""
    marks: set[date] = set()
    for v in CATALOGUE.versions.values():
        marks.add(v.valid_from)
        if v.valid_until is not None:
            marks.add(v.valid_until)
        for c in v.transitional:
            marks.update((c.order_limit, c.decisive_on_or_before))
    return sorted({m + timedelta(days=k) for m in marks for k in (-1, 0, 1)})


def _numbers() -> tuple[list[Decimal], list[Decimal]]:
    """Every parameter ± one cent (money) and ± one thousandth (quantities), and each cap ÷ each rate."""
    values = [p.value for v in CATALOGUE.versions.values() for p in v.parameters.values()]
    rates = [x for x in values if 0 < x < 1]
    money = {x + d for x in values if x >= 1 for d in (Decimal("-0.01"), Decimal("0"), Decimal("0.01"))}
    money |= {
        (cap / r).quantize(Decimal("0.01")) + d
        for cap in values
        if cap >= 100
        for r in rates
        for d in (Decimal("-0.01"), Decimal("0"), Decimal("0.01"))
    }
    quantities = {
        x + d for x in values if x < 200 for d in (Decimal("-0.001"), Decimal("0"), Decimal("0.001"))
    }
    cent, milli = Decimal("0.01"), Decimal("0.001")
    return sorted({m.quantize(cent) for m in money if m >= 0}), sorted(
        {q.quantize(milli) for q in quantities if q >= 0}
    )


DAYS = _days()
BOUNDARY_MONEY, BOUNDARY_QUANTITIES = _numbers()
FIRST, LAST = DAYS[0] - timedelta(days=400), DAYS[-1] + timedelta(days=400)

PERIODS = sorted(
    {(v.valid_from, v.last_day or v.valid_from + timedelta(days=365)) for v in CATALOGUE.versions.values()}
    | {(g.start, g.end - timedelta(days=1)) for t in CATALOGUE.timelines.values() for g in t.gaps}
    | {(FIRST, DAYS[0]), (DAYS[-1], LAST)}
)
# A day on or next to a boundary, or any day of a version's period or of a gap, each period as likely.
day = st.one_of(st.sampled_from(DAYS), st.sampled_from(PERIODS).flatmap(lambda p: st.dates(p[0], p[1])))
money = st.one_of(st.sampled_from(BOUNDARY_MONEY), st.decimals(min_value=0, max_value=120000, places=2))
quantity = st.one_of(st.sampled_from(BOUNDARY_QUANTITIES), st.decimals(min_value=0, max_value=40, places=3))
income = st.one_of(st.sampled_from(BOUNDARY_MONEY), st.decimals(min_value=0, max_value=40000, places=2))
CO2_MARKS = sorted(
    {
        int(p.value) + d
        for v in CATALOGUE.versions.values()
        for n, p in v.parameters.items()
        if "co2" in n
        for d in (-1, 0, 1)
    }
)
co2 = st.one_of(st.sampled_from(CO2_MARKS), st.integers(min_value=0, max_value=200))


def often(value: object, strategy: st.SearchStrategy) -> st.SearchStrategy:  # type: ignore[type-arg]
    """``value`` (the one that keeps a purchase eligible, to reach the deep paragraphs) half the time."""
    return st.one_of(st.just(value), strategy)


def mostly(strategy: st.SearchStrategy) -> st.SearchStrategy:  # type: ignore[type-arg]
    """A fact given nine times in ten: missing facts happen, but most rows can be decided."""
    return st.tuples(st.sampled_from(range(10)), strategy).map(lambda t: None if t[0] == 9 else t[1])


vehicles = st.builds(
    Vehicle,
    category=mostly(often(VehicleCategory.PASSENGER_CAR, st.sampled_from(VehicleCategory))),
    energy=mostly(st.sampled_from(Energy)),
    co2_g_per_km=mostly(co2),
    acquisition_cost=mostly(money),
    battery_rental_cost=st.one_of(st.just(Decimal("0")), money),
    electric_motor_power_30min_kw=mostly(quantity),
    net_max_power_kw=mostly(quantity),
    power_basis=mostly(st.sampled_from(PowerBasis)),
    uses_lead_battery=mostly(st.booleans()),
    battery_energy_kwh=mostly(quantity),
    city_electric_range_km=mostly(st.one_of(quantity, st.decimals(min_value=0, max_value=120, places=3))),
    euro_standard=mostly(st.sampled_from(EuroStandard)),
    critair=mostly(st.sampled_from(CritAir)),
    van_class=mostly(st.sampled_from(VanClass)),
    previously_registered=mostly(often(False, st.booleans())),
    new_registration_system=mostly(st.booleans()),
    wheelchair_accessible=mostly(st.booleans()),
)
buyers = st.builds(
    Buyer,
    person_kind=mostly(st.sampled_from(PersonKind)),
    reference_income_per_share=mostly(income),
    income_tax_nil=mostly(st.booleans()),
    overseas=mostly(st.booleans()),
    home_work_distance_km=mostly(st.one_of(quantity, st.decimals(min_value=0, max_value=80, places=3))),
    professional_km_per_year=mostly(
        st.one_of(
            st.decimals(min_value=0, max_value=30000, places=3),
            st.sampled_from([Decimal("12000"), Decimal("12000.001")]),
        )
    ),
)
LANDMARKS = [
    date(2001, 1, 1) + timedelta(days=k) for k in (-1, 0, 1)
]  # « immatriculé avant le 1er janvier 2001 »


def near(decisive: date) -> st.SearchStrategy[date]:
    """A day tied to the decisive date (whole months before or after it, ± one day), or any day."""
    months = st.sampled_from([-15 * 12, -12, -6, -1, 0, 1, 6, 12])
    shifted = st.tuples(months, st.sampled_from([-1, 0, 0, 1])).map(
        lambda t: add_months(decisive, t[0]) + timedelta(days=t[1])
    )
    return st.one_of(
        shifted, shifted, st.sampled_from(LANDMARKS), st.dates(date(1985, 1, 1), date(2022, 12, 31))
    )


def scrapped(decisive: date) -> st.SearchStrategy[ScrappedVehicle | None]:
    return st.one_of(
        st.none(),
        st.builds(
            ScrappedVehicle,
            energy=mostly(often(Energy.DIESEL, st.sampled_from(Energy))),
            category=mostly(often(VehicleCategory.PASSENGER_CAR, st.sampled_from(VehicleCategory))),
            first_registration_date=mostly(near(decisive)),
            owned_since=mostly(near(decisive)),
            destruction_date=mostly(near(decisive)),
        ),
    )


@st.composite
def purchases(draw: st.DrawFn) -> Purchase:
    decisive = draw(day)
    lease = draw(st.booleans())
    order = draw(
        st.one_of(
            st.none(),
            st.integers(min_value=-2, max_value=400).map(lambda n: decisive - timedelta(days=n)),
            st.sampled_from(DAYS),
        )
    )
    return Purchase(
        acquisition=Acquisition.LEASE if lease else Acquisition.PURCHASE,
        order_date=order,
        invoice_date=draw(st.one_of(st.none(), st.just(decisive)))
        if lease
        else draw(mostly(st.just(decisive))),
        first_rent_date=decisive if lease else draw(st.one_of(st.none(), day)),
        lease_duration_months=draw(st.one_of(st.none(), st.integers(min_value=1, max_value=60))),
        vehicle=replace(draw(vehicles), first_registration_date=draw(st.one_of(st.none(), near(decisive)))),
        buyer=draw(buyers),
        scrapped_vehicle=draw(scrapped(decisive)),
        bonus_ecologique_amount=draw(st.one_of(st.none(), money)),
        schemes=draw(st.sampled_from([tuple(Scheme), (Scheme.BONUS,), (Scheme.CONVERSION_PREMIUM,)])),
    )


def compare(purchase: Purchase) -> list[str]:
    """Each scheme's fast outcome against the explained one; returns which path decided each."""
    row = Row.from_purchase(purchase)
    try:
        fast = ENGINE.outcomes(row)
    except InvalidFacts as exc:
        with pytest.raises(InvalidFacts) as explained:
            for scheme in purchase.schemes:
                explained_outcome(CATALOGUE, row, scheme)
        assert (str(exc), exc.field) == (str(explained.value), explained.value.field)
        return ["invalid"]
    kinds = []
    for scheme, outcome in zip(purchase.schemes, fast, strict=True):
        assert outcome == explained_outcome(CATALOGUE, row, scheme), purchase
        kinds.append(outcome[1])
    return kinds


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(purchases())
def test_fast_path_equals_explained_path(purchase: Purchase) -> None:
    compare(purchase)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(purchases())
def test_row_round_trip_keeps_every_fact(purchase: Purchase) -> None:
    row = Row.from_purchase(purchase)
    assert row.exact
    rebuilt = Row(**{name: getattr(row, name) for name in ROW_FIELDS}).to_purchase()  # without its source
    assert Row.from_purchase(rebuilt) == Row(
        **{name: getattr(row, name) for name in ROW_FIELDS}, source=rebuilt
    )


def test_generated_rows_reach_every_status() -> None:
    """Guards the test above: the generated rows are computed, refused, missing facts and out of file alike."""
    kinds: Counter[str] = Counter()

    @settings(max_examples=1500, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
    @given(purchases())
    def run(purchase: Purchase) -> None:
        kinds.update(compare(purchase))

    run()
    assert kinds["computed"] > kinds["missing_facts"] > 0 and kinds["no_version_on_file"] > 0, kinds


def test_an_amount_with_too_many_decimals_is_refused_by_both_paths() -> None:
    # The calculators count exactly in cents; the contract allows two decimals: 30 000.005 € is refused, naming it.
    purchase = Purchase(
        acquisition=Acquisition.PURCHASE,
        invoice_date=date(2020, 7, 1),
        vehicle=Vehicle(
            category=VehicleCategory.PASSENGER_CAR, co2_g_per_km=0, acquisition_cost=Decimal("30000.005")
        ),
        buyer=Buyer(person_kind=PersonKind.NATURAL_PERSON),
        schemes=(Scheme.BONUS,),
    )
    row = Row.from_purchase(purchase)
    assert not row.exact
    with pytest.raises(InvalidFacts) as fast:
        Engine(CATALOGUE).outcomes(row)
    with pytest.raises(InvalidFacts) as explained:
        explained_outcome(CATALOGUE, row, Scheme.BONUS)
    assert fast.value.field == explained.value.field == "vehicle.acquisition_cost"


def test_every_scaled_field_round_trips() -> None:
    for name, scale in SCALES.items():
        assert from_scaled(123456, scale) * scale == 123456, name
