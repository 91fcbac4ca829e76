"""Décret n° 2014-1672, art. 3, version 2015-01-01 (seed 002), with the conditions of its art. 1.

Expected amounts come from the text, with the arithmetic next to them. Transitional windows: order before
2015-01-01 (« avant la date d'entrée en vigueur ») and invoice or first rent on or before 2015-03-31
(« dans les trois mois suivants »).
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from typing import Any

import pytest

from legislation import Catalogue, Energy, PersonKind, PowerBasis, Scheme, VehicleCategory, calculate
from legislation.calculators import _decret_2014_1672_art1 as art1
from tests.builders import d, purchase

VERSION = "decret-2014-1672-art3.2015-01-01"
CAR = VehicleCategory.PASSENGER_CAR
VAN = VehicleCategory.VAN
PETROL_HYBRID = Energy.PETROL_ELECTRIC_HYBRID
NATURAL = {"person_kind": PersonKind.NATURAL_PERSON}
INVOICE = "2015-06-15"


def lease(months: int | None, **kw: Any):  # type: ignore[no-untyped-def]
    """A lease with its duration (« contrat d'une durée supérieure ou égale à deux ans »)."""
    return replace(purchase(lease=True, **kw), lease_duration_months=months)


def result(catalogue: Catalogue, invoice: str = INVOICE, **kw: Any):  # type: ignore[no-untyped-def]
    kw.setdefault("buyer", NATURAL)
    r = calculate(catalogue, purchase(invoice, **kw), Scheme.BONUS)
    assert r.resolution.version is not None and r.resolution.version.id == VERSION
    return r


def award(catalogue: Catalogue, invoice: str = INVOICE, **kw: Any):  # type: ignore[no-untyped-def]
    return result(catalogue, invoice, **kw).award


def hybrid(catalogue: Catalogue, invoice: str = INVOICE, **kw: Any):  # type: ignore[no-untyped-def]
    kw.setdefault("energy", PETROL_HYBRID)
    kw.setdefault("co2_g_per_km", 100)
    kw.setdefault("acquisition_cost", "30000")
    return award(catalogue, invoice, category=CAR, **kw)


# -- the transitional 8,25 % regime (1° a), 2e alinéa) -----------------------------------------------------


@pytest.mark.parametrize(
    ("order", "invoice", "expected", "paragraph"),
    [
        (
            "2014-12-31",
            "2015-03-30",
            "2475.00",
            "1° a), 2e alinéa",
        ),  # 8,25 % × 30 000 = 2 475, in [1 650, 3 300]
        (
            "2014-12-31",
            "2015-03-31",
            "2475.00",
            "1° a), 2e alinéa",
        ),  # last day of « les trois mois suivants »
        ("2014-12-31", "2015-04-01", "1500.00", "1° a)"),  # window closed: 5 % × 30 000 = 1 500
        ("2015-01-01", "2015-01-15", "1500.00", "1° a)"),  # ordered on the entry into force: not « avant »
        ("2014-06-01", "2015-01-01", "2475.00", "1° a), 2e alinéa"),  # first day in force, old order
    ],
)
def test_transitional_hybrid_window(
    catalogue: Catalogue, order: str, invoice: str, expected: str, paragraph: str
) -> None:
    a = hybrid(catalogue, invoice, order=order, electric_motor_power_30min_kw="20")
    assert a.amount == Decimal(expected)
    assert a.paragraph == f"décret n° 2014-1672, art. 3, {paragraph}"


@pytest.mark.parametrize(
    ("cost", "expected"),
    [
        ("15000", "1650.00"),  # 8,25 % × 15 000 = 1 237,50 < 1 650: the floor binds
        ("20000", "1650.00"),  # 8,25 % × 20 000 = 1 650: exactly the floor
        ("30000", "2475.00"),  # 8,25 % × 30 000 = 2 475: the rate binds
        ("40000", "3300.00"),  # 8,25 % × 40 000 = 3 300: exactly the cap
        ("50000", "3300.00"),  # 8,25 % × 50 000 = 4 125 > 3 300: the cap binds
    ],
)
def test_transitional_hybrid_floor_rate_cap(catalogue: Catalogue, cost: str, expected: str) -> None:
    a = hybrid(
        catalogue, "2015-02-10", order="2014-12-15", acquisition_cost=cost, electric_motor_power_30min_kw="20"
    )
    assert a.amount == Decimal(expected)


def test_transitional_hybrid_does_not_need_the_10_kw_criterion(catalogue: Catalogue) -> None:
    # A mild diesel hybrid (5 kW): the 2e alinéa does not repeat the 10 kW test (reading) → 8,25 % × 30 000
    a = hybrid(
        catalogue,
        "2015-03-31",
        order="2014-12-31",
        energy=Energy.DIESEL_ELECTRIC_HYBRID,
        electric_motor_power_30min_kw="5",
    )
    assert a.amount == Decimal("2475.00")
    assert any(r.id == "2015-transitional-hybrid-no-10kw" for r in a.readings)


def test_transitional_hybrid_needs_no_motor_power_fact(catalogue: Catalogue) -> None:
    a = hybrid(catalogue, "2015-03-31", order="2014-12-31", co2_g_per_km=110)  # 110 g: upper bound of 61–110
    assert a.amount == Decimal("2475.00") and a.missing_facts == ()


def test_same_mild_hybrid_outside_the_window_gets_nothing(catalogue: Catalogue) -> None:
    a = hybrid(catalogue, "2015-04-01", order="2014-12-31", electric_motor_power_30min_kw="5")
    assert (a.amount, a.eligible) == (Decimal("0.00"), False)
    assert a.paragraph == "décret n° 2014-1672, art. 3, 1°"


@pytest.mark.parametrize(
    ("energy", "power", "expected", "paragraph"),
    [
        (
            Energy.LPG_ELECTRIC_HYBRID,
            "20",
            "1500.00",
            "1° a)",
        ),  # LPG hybrids are not in the 2e alinéa: 5 % × 30 000
        (Energy.CNG_ELECTRIC_HYBRID, "20", "1500.00", "1° a)"),  # CNG idem
        (
            Energy.LPG_ELECTRIC_HYBRID,
            "5",
            "150.00",
            "1° b), 3e alinéa",
        ),  # not a 1° a) hybrid: « autre type », 61–90 g
    ],
)
def test_gas_hybrids_in_the_window(
    catalogue: Catalogue, energy: Energy, power: str, expected: str, paragraph: str
) -> None:
    a = hybrid(
        catalogue,
        "2015-03-01",
        order="2014-12-01",
        energy=energy,
        co2_g_per_km=85,
        electric_motor_power_30min_kw=power,
    )
    assert a.amount == Decimal(expected) and a.paragraph.endswith(paragraph)


def test_mild_gas_hybrid_91_110_in_the_window_gets_nothing(catalogue: Catalogue) -> None:
    # eligible under art. 1 (hybrid ≤ 110 g) but no paragraph of art. 3: not 1° a) (< 10 kW), not 61–90 g
    a = hybrid(
        catalogue,
        "2015-03-01",
        order="2014-12-01",
        energy=Energy.LPG_ELECTRIC_HYBRID,
        co2_g_per_km=95,
        electric_motor_power_30min_kw="5",
    )
    assert (a.amount, a.eligible) == (Decimal("0.00"), False)


# -- 1° a), 1st alinéa: hybrids ≥ 10 kW, 5 % between 1 000 and 2 000 € ------------------------------------


@pytest.mark.parametrize(
    ("cost", "expected"),
    [
        ("10000", "1000.00"),  # 5 % × 10 000 = 500 < 1 000: the floor binds
        ("20000", "1000.00"),  # 5 % × 20 000 = 1 000: exactly the floor
        ("30000", "1500.00"),  # 5 % × 30 000 = 1 500: the rate binds
        ("40000", "2000.00"),  # 5 % × 40 000 = 2 000: exactly the cap
        ("40000.01", "2000.00"),  # 5 % × 40 000,01 = 2 000,0005 > 2 000: the cap binds
        ("55000", "2000.00"),  # 5 % × 55 000 = 2 750 > 2 000: the cap binds
    ],
)
def test_hybrid_floor_rate_cap(catalogue: Catalogue, cost: str, expected: str) -> None:
    a = hybrid(catalogue, acquisition_cost=cost, electric_motor_power_30min_kw="20")
    assert a.amount == Decimal(expected) and a.paragraph.endswith("1° a)")


@pytest.mark.parametrize(
    ("power", "expected"), [("10", "1500.00"), ("9.99", "0.00")]
)  # « supérieure ou égale à 10 kW »
def test_hybrid_electric_motor_threshold(catalogue: Catalogue, power: str, expected: str) -> None:
    assert hybrid(catalogue, electric_motor_power_30min_kw=power).amount == Decimal(expected)


@pytest.mark.parametrize(
    ("co2", "expected", "where"),
    [
        (61, "1500.00", "art. 3, 1° a)"),  # 5 % × 30 000
        (110, "1500.00", "art. 3, 1° a)"),
        (111, "0.00", "art. 1, I, 5° a)"),  # above the hybrid ceiling of art. 1
    ],
)
def test_hybrid_co2_band(catalogue: Catalogue, co2: int, expected: str, where: str) -> None:
    a = hybrid(catalogue, co2_g_per_km=co2, electric_motor_power_30min_kw="20")
    assert a.amount == Decimal(expected) and a.paragraph == f"décret n° 2014-1672, {where}"


def test_battery_lease_is_added_to_the_cost(catalogue: Catalogue) -> None:
    # (18 000 + 6 000) × 5 % = 1 200
    a = hybrid(
        catalogue,
        acquisition_cost="18000",
        battery_rental_cost=Decimal("6000"),
        electric_motor_power_30min_kw="20",
    )
    assert a.amount == Decimal("1200.00")


# -- 1° b): other passenger cars, and the transitional 150 € ----------------------------------------------


@pytest.mark.parametrize(
    ("co2", "cost", "expected", "paragraph"),
    [
        (0, "20000", "5400.00", "1° b)"),  # 27 % × 20 000 = 5 400 < 6 300
        (
            20,
            "23333.33",
            "6300.00",
            "1° b)",
        ),  # 27 % × 23 333,33 = 6 299,9991 → 6 300,00 (rounded to the cent)
        (20, "30000", "6300.00", "1° b)"),  # 27 % × 30 000 = 8 100 > 6 300: the cap
        (21, "15000", "3000.00", "1° b), 2e alinéa"),  # 20 % × 15 000 = 3 000 < 4 000
        (60, "20000", "4000.00", "1° b), 2e alinéa"),  # 20 % × 20 000 = 4 000: exactly the cap
        (60, "25000", "4000.00", "1° b), 2e alinéa"),  # 20 % × 25 000 = 5 000 > 4 000: the cap
    ],
)
def test_other_cars(catalogue: Catalogue, co2: int, cost: str, expected: str, paragraph: str) -> None:
    a = award(catalogue, category=CAR, energy=Energy.ELECTRIC, co2_g_per_km=co2, acquisition_cost=cost)
    assert a.amount == Decimal(expected) and a.paragraph == f"décret n° 2014-1672, art. 3, {paragraph}"


def test_a_plug_in_hybrid_under_60_g_is_an_other_type(catalogue: Catalogue) -> None:
    a = award(catalogue, category=CAR, energy=PETROL_HYBRID, co2_g_per_km=44, acquisition_cost="40000")
    assert a.amount == Decimal("4000.00")  # 20 % × 40 000 = 8 000 > 4 000


@pytest.mark.parametrize(
    ("co2", "order", "invoice", "expected", "paragraph"),
    [
        (61, "2014-12-31", "2015-03-31", "150.00", "art. 3, 1° b), 3e alinéa"),
        (90, "2014-12-31", "2015-03-31", "150.00", "art. 3, 1° b), 3e alinéa"),
        (91, "2014-12-31", "2015-03-31", "0.00", "art. 1, I, 5° a)"),  # above the transitional 90 g ceiling
        (61, "2014-12-31", "2015-04-01", "0.00", "art. 1, I, 5° a)"),  # window closed: 60 g ceiling
        (61, "2015-01-01", "2015-01-02", "0.00", "art. 1, I, 5° a)"),  # ordered on the entry into force
    ],
)
def test_transitional_150_euros(
    catalogue: Catalogue, co2: int, order: str, invoice: str, expected: str, paragraph: str
) -> None:
    a = award(
        catalogue,
        invoice,
        order=order,
        category=CAR,
        energy=Energy.PETROL,
        co2_g_per_km=co2,
        acquisition_cost="15000",
    )
    assert a.amount == Decimal(expected) and a.paragraph == f"décret n° 2014-1672, {paragraph}"


# -- 2°: vans and other vehicles of the b du 5° ------------------------------------------------------------


@pytest.mark.parametrize(
    ("co2", "cost", "expected", "paragraph"),
    [
        (20, "20000", "5400.00", "art. 3, 2°"),  # 27 % × 20 000
        (20, "40000", "6300.00", "art. 3, 2°"),  # 27 % × 40 000 = 10 800 > 6 300
        (21, "15000", "3000.00", "art. 3, 2°, 2e alinéa"),  # 20 % × 15 000
        (60, "30000", "4000.00", "art. 3, 2°, 2e alinéa"),  # 20 % × 30 000 = 6 000 > 4 000
        (61, "30000", "0.00", "art. 1, I, 5° b)"),  # 60 g ceiling of art. 1, I, 5° b)
    ],
)
def test_vans(catalogue: Catalogue, co2: int, cost: str, expected: str, paragraph: str) -> None:
    a = award(catalogue, category=VAN, energy=Energy.ELECTRIC, co2_g_per_km=co2, acquisition_cost=cost)
    assert a.amount == Decimal(expected) and a.paragraph == f"décret n° 2014-1672, {paragraph}"


def test_a_van_of_61_90_g_gets_no_transitional_extension(catalogue: Catalogue) -> None:
    a = award(
        catalogue,
        "2015-02-01",
        order="2014-12-01",
        category=VAN,
        energy=Energy.DIESEL,
        co2_g_per_km=80,
        acquisition_cost="20000",
    )
    assert (a.amount, a.eligible, a.paragraph) == (
        Decimal("0.00"),
        False,
        "décret n° 2014-1672, art. 1, I, 5° b)",
    )


def test_light_m2_n2_is_an_other_vehicle_with_an_assumption(catalogue: Catalogue) -> None:
    a = award(catalogue, category=VehicleCategory.LIGHT_M2_N2, co2_g_per_km=0, acquisition_cost="20000")
    assert a.amount == Decimal("5400.00")  # 27 % × 20 000
    assert any("715/2007" in x for x in a.assumptions)


@pytest.mark.parametrize("category", [VehicleCategory.TWO_THREE_WHEELER, VehicleCategory.ELECTRIC_BICYCLE])
def test_l_vehicles_and_cycles_are_outside_art_1(catalogue: Catalogue, category: VehicleCategory) -> None:
    a = award(
        catalogue,
        category=category,
        co2_g_per_km=0,
        acquisition_cost="3000",
        net_max_power_kw="4",
        power_basis=PowerBasis.REGULATION_EU_168_2013,
    )
    assert (a.eligible, a.paragraph) == (False, "décret n° 2014-1672, art. 1, I, 1°")


# -- who, new, lease ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", list(PersonKind))
def test_person_kind_does_not_change_the_amount(catalogue: Catalogue, kind: PersonKind) -> None:
    a = award(catalogue, category=CAR, co2_g_per_km=0, acquisition_cost="30000", buyer={"person_kind": kind})
    assert a.amount == Decimal("6300.00")  # 27 % × 30 000 = 8 100 > 6 300 for every person


def test_person_kind_is_not_needed(catalogue: Catalogue) -> None:
    a = award(catalogue, category=CAR, co2_g_per_km=0, acquisition_cost="20000", buyer={})
    assert a.amount == Decimal("5400.00") and a.missing_facts == ()


def test_previously_registered_vehicle_is_refused(catalogue: Catalogue) -> None:
    a = award(catalogue, category=CAR, co2_g_per_km=0, acquisition_cost="20000", previously_registered=True)
    assert (a.eligible, a.paragraph) == (False, "décret n° 2014-1672, art. 1, I, 2°")


def test_new_vehicle_assumed_only_when_not_given(catalogue: Catalogue) -> None:
    unknown = award(catalogue, category=CAR, co2_g_per_km=0, acquisition_cost="20000")
    given = award(
        catalogue, category=CAR, co2_g_per_km=0, acquisition_cost="20000", previously_registered=False
    )
    assert any("never registered" in x for x in unknown.assumptions)
    assert not any("never registered" in x for x in given.assumptions)
    assert any("definitive series" in x for x in given.assumptions)  # 3° is always an assumption


@pytest.mark.parametrize(
    ("months", "expected"), [(24, "2475.00"), (23, "0.00")]
)  # « supérieure ou égale à deux ans »
def test_lease_transitional_and_duration(catalogue: Catalogue, months: int, expected: str) -> None:
    # lease signed 2014-12-20, first rent 2015-03-31: the first rent decides; 8,25 % × 30 000 = 2 475
    r = calculate(
        catalogue,
        lease(
            months,
            order="2014-12-20",
            first_rent="2015-03-31",
            category=CAR,
            energy=PETROL_HYBRID,
            co2_g_per_km=100,
            acquisition_cost="30000",
        ),
        Scheme.BONUS,
    )
    assert r.resolution.decided_by == "first_rent_date"
    assert r.award is not None and r.award.amount == Decimal(expected)


def test_lease_first_rent_after_the_window(catalogue: Catalogue) -> None:
    r = calculate(
        catalogue,
        lease(
            36,
            order="2014-12-20",
            first_rent="2015-04-01",
            category=CAR,
            energy=PETROL_HYBRID,
            co2_g_per_km=100,
            acquisition_cost="30000",
            electric_motor_power_30min_kw=Decimal("20"),
        ),
        Scheme.BONUS,
    )
    assert r.award is not None and r.award.amount == Decimal("1500.00")  # 5 % × 30 000


# -- missing facts -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("facts", "missing"),
    [
        ({"co2_g_per_km": 0, "acquisition_cost": "20000"}, "vehicle.category"),
        ({"category": CAR, "acquisition_cost": "20000"}, "vehicle.co2_g_per_km"),
        ({"category": CAR, "co2_g_per_km": 100, "acquisition_cost": "20000"}, "vehicle.energy"),
        (
            {"category": CAR, "energy": PETROL_HYBRID, "co2_g_per_km": 100, "acquisition_cost": "20000"},
            "vehicle.electric_motor_power_30min_kw",
        ),
        ({"category": CAR, "co2_g_per_km": 0}, "vehicle.acquisition_cost"),
    ],
)
def test_missing_facts_are_named(catalogue: Catalogue, facts: dict[str, Any], missing: str) -> None:
    r = result(catalogue, **facts)
    assert r.status == "missing_facts" and r.award is not None and r.award.missing_facts == (missing,)


def test_missing_lease_duration_is_named_and_cited_to_art_1(catalogue: Catalogue) -> None:
    r = calculate(
        catalogue,
        lease(None, first_rent="2015-05-01", category=CAR, co2_g_per_km=0, acquisition_cost="20000"),
        Scheme.BONUS,
    )
    assert r.award is not None and r.award.missing_facts == ("lease_duration_months",)
    assert r.award.paragraph == "décret n° 2014-1672, art. 1, I"


# -- resolution: clauses, claim deadline, period -----------------------------------------------------------


def test_no_order_date_leaves_the_clauses_unevaluated(catalogue: Catalogue) -> None:
    r = result(
        catalogue,
        "2015-02-01",
        category=CAR,
        energy=PETROL_HYBRID,
        co2_g_per_km=100,
        acquisition_cost="30000",
        electric_motor_power_30min_kw=Decimal("20"),
    )
    assert r.award is not None and r.award.amount == Decimal(
        "1500.00"
    )  # 5 %: the transitional alinéa needs an order
    assert all(c.open is None for c in r.resolution.clauses) and r.resolution.notes


def test_open_clauses_state_their_computed_deadline(catalogue: Catalogue) -> None:
    r = result(
        catalogue,
        "2015-03-31",
        order="2014-12-31",
        category=CAR,
        energy=PETROL_HYBRID,
        co2_g_per_km=100,
        acquisition_cost="30000",
    )
    opened = {c.clause.id: c.clause for c in r.resolution.open_clauses}
    exit_clause = opened.pop("decret-2007-1873-art10-II")  # the mirror clause of the abrogated decree (explicit dates)
    assert exit_clause.deadline_basis.value == "explicit" and exit_clause.decisive_on_or_before == d("2015-03-31")
    assert set(opened) == {
        "decret-2014-1672-art3-1a-transitoire",
        "decret-2014-1672-art3-1b-transitoire",
        "decret-2014-1672-art1-5a-transitoire",
    }
    for clause in opened.values():
        assert clause.decisive_on_or_before == d("2015-03-31") and clause.deadline_basis.value == "computed"
        assert "3 calendar months − 1 day" in clause.deadline_reading


def test_claim_deadline_is_six_months_after_the_invoice(catalogue: Catalogue) -> None:
    r = result(catalogue, "2015-03-31", category=CAR, co2_g_per_km=0, acquisition_cost="20000")
    assert r.claim_deadline == d("2015-09-30")
    assert r.claim_deadline_citation == "décret n° 2014-1672, art. 9"


@pytest.mark.parametrize(
    ("invoice", "in_force"), [("2015-01-01", True), ("2015-12-31", True), ("2016-01-01", False)]
)
def test_period_in_force(catalogue: Catalogue, invoice: str, in_force: bool) -> None:
    r = calculate(
        catalogue, purchase(invoice, category=CAR, co2_g_per_km=0, acquisition_cost="20000"), Scheme.BONUS
    )
    found = r.resolution.version.id if r.resolution.version else None
    assert (found == VERSION) is in_force


def test_art_1_numbers_are_read_from_its_version(catalogue: Catalogue) -> None:
    """The calculators read art. 1's ceilings from its version; the text fixes 110 / 60 / 90 / 60 g and 2 years."""
    version = catalogue.get("decret-2014-1672-art1.2015-01-01")
    assert [version.param(n) for n in ("hybrid_co2_max", "other_car_co2_max", "transitional_co2_max",
                                        "other_vehicle_co2_max", "lease_min_months")] == [110, 60, 90, 60, 24]
    assert version.id == art1.VERSION_ID
    assert VERSION in {v.id for v in catalogue.versions.values() if version.id in v.relies_on}
