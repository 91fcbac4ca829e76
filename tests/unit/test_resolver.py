"""The resolver, as design.md states it: decisive date, version in force, transitional windows, gaps."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from legislation import Catalogue, InvalidDates, PersonKind, Scheme, VehicleCategory, calculate, resolve
from legislation.enums import Energy
from tests.builders import purchase

CAR_2020 = {
    "category": VehicleCategory.PASSENGER_CAR,
    "co2_g_per_km": 0,
    "acquisition_cost": "30000",
    "buyer": {"person_kind": PersonKind.NATURAL_PERSON},
}


def _boundaries(catalogue: Catalogue) -> list[tuple[str, date, str | None]]:
    """(scheme, day, expected version id) the day before, of and after every valid_from and valid_until."""
    out = []
    for scheme, timeline in catalogue.timelines.items():
        for v in timeline.versions:
            edges = [v.valid_from] + ([v.valid_until] if v.valid_until else [])
            for edge in edges:
                for day in (edge - timedelta(days=1), edge, edge + timedelta(days=1)):
                    expected = [
                        w.id
                        for w in timeline.versions
                        if w.valid_from <= day and (w.valid_until is None or day < w.valid_until)
                    ]
                    out.append((scheme.value, day, expected[0] if expected else None))
    return out


def test_every_boundary_day_resolves_to_the_version_whose_half_open_period_holds_it(catalogue: Catalogue) -> None:
    cases = _boundaries(catalogue)
    assert len(cases) >= 6 * len([v for t in catalogue.timelines.values() for v in t.versions]) - 1
    for scheme, day, expected in cases:
        found = catalogue.timeline(Scheme(scheme)).find(day)
        assert (found.id if found else None) == expected, (scheme, day)


@pytest.mark.parametrize(
    ("day", "expected"),
    [
        ("2020-05-31", "D251-7.2020-01-01"),
        ("2020-06-01", "D251-7.2020-06-01"),
        ("2021-01-20", "D251-7.2020-06-01"),
        ("2021-01-21", "D251-7.2021-01-21"),  # décret 2021-37 (issue 12: on file, secondary)
    ],
)
def test_seed_000_period(catalogue: Catalogue, day: str, expected: str | None) -> None:
    found = catalogue.timeline(Scheme.BONUS).find(date.fromisoformat(day))
    assert (found.id if found else None) == expected


def test_purchase_is_decided_by_invoice_date(catalogue: Catalogue) -> None:
    r = resolve(catalogue, purchase("2020-07-15", order="2020-05-01", **CAR_2020), Scheme.BONUS)
    assert (r.decisive_date, r.decided_by) == (date(2020, 7, 15), "invoice_date")


def test_lease_is_decided_by_first_rent_date(catalogue: Catalogue) -> None:
    # invoice in 2016, first rent inside seed 000's period: the first rent decides
    p = purchase("2016-06-01", order="2016-05-01", first_rent="2020-07-01", lease=True, **CAR_2020)
    r = resolve(catalogue, p, Scheme.BONUS)
    assert (r.decided_by, r.version.id if r.version else None) == ("first_rent_date", "D251-7.2020-06-01")


def test_lease_without_first_rent_is_a_clear_error(catalogue: Catalogue) -> None:
    with pytest.raises(InvalidDates) as caught:
        resolve(catalogue, purchase("2020-07-15", lease=True, **CAR_2020), Scheme.BONUS)
    assert caught.value.field == "first_rent_date"


def test_purchase_without_invoice_is_a_clear_error(catalogue: Catalogue) -> None:
    with pytest.raises(InvalidDates) as caught:
        resolve(catalogue, purchase(None, order="2020-07-01", **CAR_2020), Scheme.BONUS)
    assert caught.value.field == "invoice_date"


def test_invoice_before_order_is_rejected(catalogue: Catalogue) -> None:
    with pytest.raises(InvalidDates) as caught:
        resolve(catalogue, purchase("2020-07-01", order="2020-07-02", **CAR_2020), Scheme.BONUS)
    assert caught.value.field == "invoice_date" and "before order_date" in str(caught.value)


def test_invoice_on_order_day_is_fine(catalogue: Catalogue) -> None:
    r = resolve(catalogue, purchase("2020-07-01", order="2020-07-01", **CAR_2020), Scheme.BONUS)
    assert r.version is not None


def test_a_date_in_a_declared_gap_names_the_nearest_versions(catalogue: Catalogue) -> None:
    # the bonus's declared gap of 2016-01-01 → 2016-01-03 (D. 251-7 as codified by décret 2015-1823 not on file); the
    # prime's gaps of 2011 and 2021-07-01 → 2021-07-25, used here before, are filled since issue 12
    result = calculate(catalogue, purchase("2016-01-02", **CAR_2020), Scheme.BONUS)
    assert result.status == "no_version_on_file" and result.award is None
    r = result.resolution
    assert r.nearest_before is not None and r.nearest_before.valid_until is not None
    assert r.nearest_before.valid_until <= date(2016, 1, 2)
    assert r.nearest_after is not None and r.nearest_after.valid_from > date(2016, 1, 2)
    assert any("declared gap" in n for n in r.notes)


def test_before_the_first_version_there_is_no_version(catalogue: Catalogue) -> None:
    result = calculate(catalogue, purchase("2007-12-30", **CAR_2020), Scheme.BONUS)
    assert result.status == "no_version_on_file" and result.resolution.nearest_before is None
    assert result.resolution.nearest_after is not None
    assert result.resolution.nearest_after.id == "decret-2007-1873-art3.2007-12-31"


# -- the 2015 window (décret 2014-1672, art. 3, inline clauses; deadline 2015-03-31) -----------------

HYBRID_2015 = {
    "category": VehicleCategory.PASSENGER_CAR,
    "energy": Energy.PETROL_ELECTRIC_HYBRID,
    "co2_g_per_km": 95,
    "electric_motor_power_30min_kw": "15",
    "acquisition_cost": "30000",
    "buyer": {"person_kind": PersonKind.NATURAL_PERSON},
}


@pytest.mark.parametrize(
    ("order", "invoice", "expected_open", "expected"),
    [
        ("2014-12-31", "2015-03-31", True, "2475.00"),  # 8,25 % × 30 000 = 2 475 (floor 1 650, cap 3 300 not binding)
        ("2014-12-31", "2015-04-01", False, "1500.00"),  # 5 % × 30 000 = 1 500 (floor 1 000, cap 2 000 not binding)
        ("2015-01-01", "2015-01-15", False, "1500.00"),  # ordered on the day of entry into force: not « avant »
    ],
)
def test_2015_transitional_window(
    catalogue: Catalogue, order: str, invoice: str, expected_open: bool, expected: str
) -> None:
    result = calculate(catalogue, purchase(invoice, order=order, **HYBRID_2015), Scheme.BONUS)
    assert result.resolution.version is not None
    assert result.resolution.version.id == "decret-2014-1672-art3.2015-01-01"
    hybrid_clauses = [c for c in result.resolution.clauses if "8,25" in c.clause.wording]
    assert len(hybrid_clauses) == 1 and hybrid_clauses[0].open is expected_open
    assert result.award is not None and str(result.award.amount) == expected


def test_no_order_date_means_clauses_not_evaluated(catalogue: Catalogue) -> None:
    result = calculate(catalogue, purchase("2015-02-01", **HYBRID_2015), Scheme.BONUS)
    assert result.resolution.clauses and all(c.open is None for c in result.resolution.clauses)
    assert any("not evaluated" in n for n in result.resolution.notes)
    assert result.award is not None and str(result.award.amount) == "1500.00"  # 5 % × 30 000: the default regime


def test_every_date_maps_to_at_most_one_version_per_scheme(catalogue: Catalogue) -> None:
    for scheme, timeline in catalogue.timelines.items():
        day = date(2014, 1, 1)
        while day < date(2023, 1, 1):
            holders = [v for v in timeline.versions if v.is_in_force(day)]
            assert len(holders) <= 1, (scheme, day, holders)
            day += timedelta(days=1)
