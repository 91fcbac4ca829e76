"""The CSV reading of `vigueur batch` (api/batch/csv_rows.py): the same cells give the same row whatever the
order of the columns, absent columns take their defaults, and every invalid cell is named."""

from __future__ import annotations

import random
from datetime import date

import pytest

from api.batch.csv_rows import CSV_COLUMNS, CsvPlan, Invalid
from legislation.enums import Acquisition, Energy, VehicleCategory

# One line per situation, by column name (absent: empty cell).
LINES: list[dict[str, str]] = [
    {  # a purchase with a scrapped vehicle, the flag given
        "id": "a",
        "acquisition": "purchase",
        "order_date": "2017-01-10",
        "invoice_date": "2017-02-01",
        "vehicle_category": "passenger_car",
        "vehicle_energy": "electric",
        "vehicle_co2_g_per_km": "0",
        "vehicle_acquisition_cost": "30000.5",
        "buyer_person_kind": "natural_person",
        "scrapped_vehicle": "true",
        "scrapped_energy": "diesel",
        "scrapped_first_registration_date": "2001-05-01",
    },
    {  # scrapped facts without the flag: there is a scrapped vehicle
        "id": "b",
        "acquisition": "lease",
        "first_rent_date": "2020-07-01",
        "lease_duration_months": "36",
        "vehicle_net_max_power_kw": "12.5",
        "scrapped_destruction_date": "2020-06-20",
    },
    {"id": "c", "acquisition": "purchase", "invoice_date": "2016-06-01", "schemes": "bonus"},  # little given
]


def _cells(header: list[str], values: dict[str, str]) -> list[str]:
    return [values.get(c, "") for c in header]


@pytest.mark.parametrize("values", LINES, ids=lambda v: v["id"])
def test_any_column_order_gives_the_row_of_the_documented_header(values: dict[str, str]) -> None:
    canonical = list(CSV_COLUMNS)
    shuffled = canonical[1:]
    random.Random(7).shuffle(shuffled)
    partial = [c for c in canonical if c in values]  # only the columns this line uses
    expected = CsvPlan(canonical).checked_row(_cells(canonical, values) + ["", ""])
    for header in (canonical, shuffled, partial):
        plan = CsvPlan(header)
        plan.checked_row = _not_called  # type: ignore[method-assign]  # a valid line is read without it
        assert plan.row(_cells(header, values)) == expected


def _not_called(cells: list[str]) -> None:
    raise AssertionError(f"a valid line went through the checked path: {cells}")


def test_the_cells_are_converted_to_the_row_fields() -> None:
    row = CsvPlan(list(CSV_COLUMNS)).row(_cells(list(CSV_COLUMNS), LINES[0]))
    assert row.acquisition is Acquisition.PURCHASE
    assert row.invoice_date == date(2017, 2, 1)
    assert row.vehicle_category is VehicleCategory.PASSENGER_CAR
    assert row.vehicle_acquisition_cost == 3_000_050  # 30000.5 € = 3 000 050 cents
    assert row.vehicle_battery_rental_cost == 0  # empty: the field's default
    assert row.scrapped_vehicle is True and row.scrapped_energy is Energy.DIESEL


def test_scrapped_facts_without_the_flag_mean_a_scrapped_vehicle() -> None:
    header = ["acquisition", "first_rent_date", "scrapped_destruction_date"]
    row = CsvPlan(header).row(["lease", "2020-07-01", "2020-06-20"])
    assert row.scrapped_vehicle is True
    assert row.scrapped_destruction_date == date(2020, 6, 20)
    assert row.vehicle_net_max_power_kw is None  # absent column: « not given »
    assert CsvPlan(header).row(["lease", "2020-07-01", ""]).scrapped_vehicle is False


@pytest.mark.parametrize("header", [list(CSV_COLUMNS), ["acquisition", "scrapped_vehicle", "scrapped_energy"]])
def test_a_false_flag_with_scrapped_facts_is_refused(header: list[str]) -> None:
    values = {"acquisition": "purchase", "scrapped_vehicle": "false", "scrapped_energy": "diesel"}
    with pytest.raises(Invalid, match="scrapped_vehicle: false, but scrapped_"):
        CsvPlan(header).row(_cells(header, values))


def test_every_invalid_cell_is_named_and_a_good_text_seen_before_still_reads() -> None:
    header = list(CSV_COLUMNS)
    plan = CsvPlan(header)
    plan.row(_cells(header, LINES[0]))  # the good texts are now remembered
    bad = {**LINES[0], "vehicle_co2_g_per_km": "-3", "invoice_date": "2017-02-30", "vehicle_energy": "steam"}
    with pytest.raises(Invalid) as caught:
        plan.row(_cells(header, bad))
    message = str(caught.value)
    assert "vehicle_co2_g_per_km: '-3' is not an integer from 0 to 1000" in message
    assert "invoice_date: '2017-02-30' is not a date of the calendar" in message
    assert "vehicle_energy: 'steam' is not one of" in message
    assert plan.row(_cells(header, LINES[0])).vehicle_co2_g_per_km == 0


def test_acquisition_is_required_and_the_width_is_checked() -> None:
    header = list(CSV_COLUMNS)
    with pytest.raises(Invalid, match="acquisition: required"):
        CsvPlan(header).row(_cells(header, {"id": "x", "invoice_date": "2017-02-01"}))
    with pytest.raises(Invalid, match=f"the line has 3 fields, the header {len(CSV_COLUMNS)}"):
        CsvPlan(header).row(["x", "purchase", "2017-02-01"])


def test_a_column_may_be_named_by_its_json_request_path() -> None:
    dotted = ["acquisition", "invoice_date", "vehicle.category", "buyer.person_kind", "scrapped_vehicle.energy"]
    plain = ["acquisition", "invoice_date", "vehicle_category", "buyer_person_kind", "scrapped_energy"]
    cells = ["purchase", "2017-02-01", "van", "legal_person", "diesel"]
    row = CsvPlan(dotted).row(list(cells))
    assert row == CsvPlan(plain).row(list(cells))
    assert row.vehicle_category is VehicleCategory.VAN and row.scrapped_vehicle is True
    with pytest.raises(Invalid, match="a column appears twice"):
        CsvPlan(["acquisition", "vehicle.category", "vehicle_category"])
