"""legislation.segments and legislation.advice: breakpoints, windows, the 2015 hybrid, leases."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta
from decimal import Decimal

import pytest

from legislation import Acquisition, Buyer, Catalogue, Energy, PersonKind, Purchase, Scheme, Vehicle, VehicleCategory
from legislation.advice import order_what_ifs, timeline_advice
from legislation.dates import add_months
from legislation.errors import InvalidDates
from legislation.segments import amount_timeline, catalogue_end, default_window, flips

HYBRID = Purchase(
    acquisition=Acquisition.PURCHASE,
    order_date=date(2014, 12, 20),
    vehicle=Vehicle(
        category=VehicleCategory.PASSENGER_CAR,
        energy=Energy.PETROL_ELECTRIC_HYBRID,
        co2_g_per_km=95,
        acquisition_cost=Decimal("30000.00"),
        electric_motor_power_30min_kw=Decimal("15"),
    ),  # fmt: skip
    buyer=Buyer(person_kind=PersonKind.NATURAL_PERSON),
    schemes=(Scheme.BONUS,),
)


@pytest.mark.parametrize("fact", [date(2015, 3, 31), date(2015, 2, 28), date(2016, 2, 29), date(2015, 1, 31)])
@pytest.mark.parametrize("k", [-12, -6, -1, 1, 6, 180])
def test_flips_contain_every_day_a_shifted_comparison_changes(fact: date, k: int) -> None:
    found = flips(fact, k, add_months)
    for x in (fact + timedelta(days=d) for d in range(-6 * 31 * 13, 6 * 31 * 13)):
        before = x - timedelta(days=1)
        for test in (
            lambda y: y < add_months(fact, k),
            lambda y: y <= add_months(fact, k),
            lambda y: add_months(y, k) <= fact,
            lambda y: add_months(y, k) < fact,
        ):
            if test(x) != test(before):
                assert x in found, (x, fact, k)


def test_default_window_is_18_months_from_the_order_capped_at_the_catalogue_end(catalogue: Catalogue) -> None:
    assert default_window(catalogue, date(2014, 12, 20), date(2030, 1, 1)) == (date(2014, 12, 20), date(2016, 6, 20))
    end = catalogue_end(catalogue)
    assert end is not None
    start = end - timedelta(days=30)
    assert default_window(catalogue, None, start) == (start, end)
    assert default_window(catalogue, None, end + timedelta(days=1))[1] == add_months(end + timedelta(days=1), 18)


def test_the_2015_hybrid_keeps_2475_until_the_clause_deadline_then_1500(catalogue: Catalogue) -> None:
    timeline = amount_timeline(catalogue, HYBRID, date(2014, 12, 20), date(2016, 1, 1))
    got = [(s.start, s.last_day, s.amount) for s in timeline.segments[Scheme.BONUS]]
    assert got == [
        # décret 2007-1873, art. 3 (2014-06-30): 3 300 € within 8,25 % × 30 000 = 2 475 € (on file since issue 11)
        (date(2014, 12, 20), date(2014, 12, 31), Decimal("2475.00")),
        (date(2015, 1, 1), date(2015, 3, 31), Decimal("2475.00")),
        (date(2015, 4, 1), date(2015, 12, 31), Decimal("1500.00")),
    ]
    kept = timeline.segments[Scheme.BONUS][1]
    assert "decret-2014-1672-art3-1a-transitoire" in kept.open_clauses
    assert kept.claim_deadlines == (date(2015, 7, 1), date(2015, 9, 30))
    sentences = [a.en for a in timeline_advice(timeline)]
    assert (
        "Invoice on or before 2015-03-31 to keep 2 475 € (décret n° 2014-1672, art. 3, 1° a), 2e alinéa)" in sentences
    )


def test_an_order_after_the_limit_is_told_what_an_earlier_order_keeps(catalogue: Catalogue) -> None:
    late = replace(HYBRID, order_date=date(2015, 1, 2))
    timeline = amount_timeline(catalogue, late, date(2015, 1, 2), date(2016, 1, 1))
    [advice] = order_what_ifs(catalogue, late, timeline)
    assert (advice.kind, advice.day, advice.until, advice.amount) == (
        "order_before",
        date(2015, 1, 1),
        date(2015, 3, 31),
        Decimal("2475.00"),
    )
    assert advice.fr.startswith("Une commande passée avant le 2015-01-01 conserverait 2 475 € jusqu'au 2015-03-31")


def test_a_lease_moves_its_first_rent_date(catalogue: Catalogue) -> None:
    lease = replace(HYBRID, acquisition=Acquisition.LEASE, lease_duration_months=36)
    timeline = amount_timeline(catalogue, lease, date(2015, 3, 1), date(2015, 5, 1))
    assert timeline.decided_by == "first_rent_date"
    assert [s.start for s in timeline.segments[Scheme.BONUS]] == [date(2015, 3, 1), date(2015, 4, 1)]


def test_a_window_before_the_order_starts_at_the_order_and_an_empty_one_is_refused(catalogue: Catalogue) -> None:
    timeline = amount_timeline(catalogue, HYBRID, date(2014, 1, 1), date(2015, 2, 1))
    assert timeline.start == date(2014, 12, 20) and timeline.notes
    with pytest.raises(InvalidDates) as refused:
        amount_timeline(catalogue, HYBRID, date(2015, 2, 1), date(2015, 2, 1))
    assert refused.value.field == "until"


def test_the_aid_ends_for_orders_from_the_clause_limit(catalogue: Catalogue) -> None:
    """A petrol car of 80 g/km: 150 € only when ordered before 2015-01-01 (décret 2014-1672, art. 3, 1° b) 3e al.)."""
    petrol = replace(
        HYBRID,
        order_date=date(2015, 1, 5),
        vehicle=Vehicle(category=VehicleCategory.PASSENGER_CAR, energy=Energy.PETROL, co2_g_per_km=80,
                        acquisition_cost=Decimal("15000.00")),  # fmt: skip
    )
    timeline = amount_timeline(catalogue, petrol, date(2015, 1, 5), date(2016, 1, 1))
    [advice] = order_what_ifs(catalogue, petrol, timeline)
    assert advice.kind == "ends_for_orders" and advice.en.startswith(
        "The aid ends for orders from 2015-01-01: an order placed before 2015-01-01 would keep 150 € until 2015-03-31"
    )


def test_a_lease_signed_in_2007_counts_its_claim_deadline_from_the_signature(catalogue: Catalogue) -> None:
    # Found by the segments property test: a lease signed 2007-12-31 is decided by its signature under décret
    # 2007-1873 (art. 10 I 2°, initial wording), whatever its first rent; art. 11 (initial wording): claim « dans
    # un délai de trois mois » from the acquisition or lease → 2007-12-31 + 3 months = 2008-03-31, on every day
    # of the window, and the segment says the deadline does not move with it.
    lease = replace(
        HYBRID,
        acquisition=Acquisition.LEASE,
        order_date=date(2007, 12, 31),
        lease_duration_months=24,
    )
    # The window is the declared gap of 2016-01-01 → 2016-01-03, where no later text is a candidate for the first
    # rent (from 2021-01-21, D. 251-7 as amended by décret 2021-37 is on file: a first rent of February 2021 is
    # decided by it, the later text prevailing).
    timeline = amount_timeline(catalogue, lease, date(2016, 1, 1), date(2016, 1, 4))
    assert timeline.segments[Scheme.BONUS]
    for segment in timeline.segments[Scheme.BONUS]:
        assert segment.claim_deadline_citation == "décret n° 2007-1873, art. 11"
        assert segment.fixed_decisive_date == date(2007, 12, 31)
        assert segment.claim_deadlines == (date(2008, 3, 31), date(2008, 3, 31))
