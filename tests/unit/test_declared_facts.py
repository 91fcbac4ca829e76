"""The explaining context hands a calculator only the facts its ``FACTS`` declares (``kit.restrict``): every
explained answer proves the declaration. A declared fact reads as the row gives it; any other ends in
``UndeclaredFact`` naming the calculator and the fact — never a value, whatever the rows' container."""

from __future__ import annotations

from datetime import date

import pytest

from legislation.calculators.kit import ALWAYS_READABLE, Explain, UndeclaredFact, readable, restrict
from legislation.enums import Acquisition, VehicleCategory
from legislation.row import Row
from tests.unit.test_kit_misses import V2021

ROW = Row(
    acquisition=Acquisition.LEASE,
    order_date=date(2021, 7, 20),
    invoice_date=date(2021, 8, 2),
    first_rent_date=date(2021, 8, 5),
    vehicle_category=VehicleCategory.PASSENGER_CAR,
    vehicle_co2_g_per_km=45,
)


def test_declared_facts_read_as_the_row_gives_them() -> None:
    facts = restrict(ROW, readable(("vehicle.category", "vehicle.co2_g_per_km")), "the_calculator")
    assert facts.vehicle_category is VehicleCategory.PASSENGER_CAR  # type: ignore[attr-defined]
    assert facts.vehicle_co2_g_per_km == 45  # type: ignore[attr-defined]
    assert facts.acquisition is Acquisition.LEASE  # type: ignore[attr-defined]  # (always readable)
    assert facts.first_rent_date == date(2021, 8, 5)  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", ["vehicle_acquisition_cost", "buyer_person_kind", "count", "index", "_fields"])
def test_any_other_fact_ends_in_undeclared_fact_naming_it(name: str) -> None:
    # (count, index: a tuple's own methods, and the facts are held in one; _fields: a named tuple's)
    facts = restrict(ROW, readable(("vehicle.category",)), "the_calculator")
    with pytest.raises(UndeclaredFact, match=f"calculator the_calculator reads {name}, which its FACTS"):
        getattr(facts, name)


def test_a_single_readable_fact_is_read_too() -> None:
    facts = restrict(ROW, frozenset({"invoice_date"}), "one_fact")
    assert facts.invoice_date == date(2021, 8, 2)  # type: ignore[attr-defined]
    with pytest.raises(UndeclaredFact):
        facts.acquisition  # type: ignore[attr-defined]  # noqa: B018


def test_the_explaining_context_hands_the_declared_facts_only() -> None:
    ctx = Explain(V2021, facts=("vehicle.category",))
    ctx.start(ROW, date(2021, 8, 2), frozenset())
    assert ctx.row.vehicle_category is VehicleCategory.PASSENGER_CAR
    for name in ALWAYS_READABLE:
        getattr(ctx.row, name)  # (each always readable: no UndeclaredFact)
    with pytest.raises(UndeclaredFact):
        ctx.row.vehicle_co2_g_per_km  # noqa: B018
