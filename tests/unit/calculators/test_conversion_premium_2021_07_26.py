"""C. énergie D. 251-8, version 2021-07-26 (seed 001, décret n° 2021-977): every paragraph at its boundaries,
and the transitional clause of décret n° 2020-1526, art. 4, through the resolver.

Expected amounts come from the text, with the arithmetic next to them.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

import pytest

from legislation import (
    Award,
    Catalogue,
    CritAir,
    Energy,
    PersonKind,
    PowerBasis,
    Scheme,
    SchemeResult,
    VanClass,
    VehicleCategory,
    calculate,
)
from legislation.resolver import check_clause
from tests.builders import purchase

VERSION = "D251-8.2021-07-26"
INVOICE = "2021-09-15"
PAC = Scheme.CONVERSION_PREMIUM
CAR, VAN = VehicleCategory.PASSENGER_CAR, VehicleCategory.VAN
SCRAPPED = {"energy": Energy.DIESEL, "category": VehicleCategory.PASSENGER_CAR}

NATURAL = PersonKind.NATURAL_PERSON
VERY_LOW = {"person_kind": NATURAL, "reference_income_per_share": "6300"}  # at « ≤ 6 300 »
COMMUTER = {"person_kind": NATURAL, "reference_income_per_share": "13489", "home_work_distance_km": "31"}
LOW = {
    "person_kind": NATURAL,
    "reference_income_per_share": "13489",
    "home_work_distance_km": "30",
    "professional_km_per_year": "12000",
}  # ≤ 13 489 €, but 30 km is not > 30 and 12 000 km not > 12 000
ABOVE = {"person_kind": NATURAL, "reference_income_per_share": "13489.01", "home_work_distance_km": "100"}
LEGAL = {"person_kind": PersonKind.LEGAL_PERSON}
STATE = {"person_kind": PersonKind.STATE_ADMINISTRATION}

EV_CAR = {
    "category": CAR,
    "energy": Energy.ELECTRIC,
    "co2_g_per_km": 0,
    "critair": CritAir.ELECTRIC,
    "city_electric_range_km": "300",
}
PETROL_CAR = {"category": CAR, "energy": Energy.PETROL, "critair": CritAir.CLASS_1}
NEW = {"previously_registered": False}
NRS = {"new_registration_system": True, "wheelchair_accessible": False}  # 5° does not apply
EV_VAN = {
    "category": VAN,
    "energy": Energy.ELECTRIC,
    "co2_g_per_km": 0,
    "critair": CritAir.ELECTRIC,
    "city_electric_range_km": "120",
}
L_VEHICLE = {
    "category": VehicleCategory.TWO_THREE_WHEELER,
    "energy": Energy.ELECTRIC,
    "previously_registered": False,
    "uses_lead_battery": False,
    "net_max_power_kw": "2",
    "power_basis": PowerBasis.REGULATION_EU_168_2013,
}


def result(catalogue: Catalogue, invoice: str = INVOICE, **kw: Any) -> SchemeResult:
    kw.setdefault("scrapped", SCRAPPED)
    return calculate(catalogue, purchase(invoice, scheme=PAC, **kw), PAC)


def award(catalogue: Catalogue, **kw: Any) -> Award:
    r = result(catalogue, **kw)
    assert r.resolution.version is not None and r.resolution.version.id == VERSION
    assert r.award is not None
    return r.award


def check(a: Award, amount: str, paragraph: str) -> None:
    assert (a.amount, a.eligible) == (Decimal(amount), Decimal(amount) > 0)
    assert a.paragraph == f"C. énergie, art. D. 251-8, {paragraph}", a.paragraph


def readings(a: Award) -> set[str]:
    return {r.id for r in a.readings}


# -- premier alinéa: the scrapped vehicle of D. 251-3 ----------------------------------------------


def test_no_scrapped_vehicle_is_refused_citing_d251_3(catalogue: Catalogue) -> None:
    a = award(catalogue, scrapped=None, **EV_CAR, acquisition_cost="30000", buyer=VERY_LOW)
    check(a, "0.00", "premier alinéa")
    assert any("D. 251-3" in s.citation for s in a.steps)


def test_scrapped_vehicle_conditions_are_an_assumption(catalogue: Catalogue) -> None:
    a = award(catalogue, **EV_CAR, acquisition_cost="30000", buyer=VERY_LOW)
    assert any("D. 251-3" in x for x in a.assumptions) and any("5° of D. 251-1" in x for x in a.assumptions)


def test_missing_category_is_named(catalogue: Catalogue) -> None:
    a = award(catalogue, acquisition_cost="30000", buyer=VERY_LOW)
    assert a.eligible is None and a.missing_facts == ("vehicle.category",)


def test_heavy_category_has_no_paragraph(catalogue: Catalogue) -> None:
    check(
        award(catalogue, category=VehicleCategory.LIGHT_M2_N2, acquisition_cost="30000", buyer=LEGAL),
        "0.00",
        "premier alinéa",
    )


# -- 1°: cars of the 5° of D. 251-1, ≤ 60 000 € with the battery, city range > 50 km ----------------


@pytest.mark.parametrize(
    ("cost", "buyer", "expected", "paragraph"),
    [
        ("30000", VERY_LOW, "5000.00", "1° a)"),  # 80 % × 30 000 = 24 000 > 5 000: cap binds
        ("6000", VERY_LOW, "4800.00", "1° a)"),  # 80 % × 6 000 = 4 800 < 5 000: rate binds
        ("6250", VERY_LOW, "5000.00", "1° a)"),  # 80 % × 6 250 = 5 000 = cap
        ("30000", COMMUTER, "5000.00", "1° a)"),  # RFR 13 489 (≤) and 31 km > 30 km
        (
            "30000",
            LOW,
            "2500.00",
            "1° b)",
        ),  # RFR 13 489 but 30 km and 12 000 km are not « supérieure / plus »
        ("30000", ABOVE, "2500.00", "1° b)"),  # RFR 13 489.01 > 13 489: autres cas, whatever the distance
        ("30000", LEGAL, "2500.00", "1° b)"),  # a legal person is never « une personne physique »
        ("30000", STATE, "2500.00", "1° b)"),
        ("3000", VERY_LOW, "2400.00", "1° a)"),  # 80 % × 3 000 = 2 400: a) on its own terms, < b)'s 2 500
    ],
)
def test_electric_car(
    catalogue: Catalogue, cost: str, buyer: dict[str, Any], expected: str, paragraph: str
) -> None:
    check(award(catalogue, **EV_CAR, acquisition_cost=cost, buyer=buyer), expected, paragraph)


def test_other_cases_are_residual(catalogue: Catalogue) -> None:
    # 1° a) household: 80 % × 3 000 = 2 400, not b)'s 2 500 (« dans les autres cas » excludes a)'s buyers)
    a = award(catalogue, **EV_CAR, acquisition_cost="3000", buyer=VERY_LOW)
    check(a, "2400.00", "1° a)")
    assert "other-cases-residual" in readings(a) and not a.alternatives


@pytest.mark.parametrize(
    ("buyer", "expected", "paragraph"),
    [
        ({"reference_income_per_share": "6300"}, "5000.00", "1° a)"),  # ≤ 6 300: no distance test
        (
            {
                "reference_income_per_share": "6300.01",
                "home_work_distance_km": "30",
                "professional_km_per_year": "12000",
            },
            "2500.00",
            "1° b)",
        ),  # just above 6 300, and not a long-distance driver
        (
            {"reference_income_per_share": "13489", "home_work_distance_km": "30.1"},
            "5000.00",
            "1° a)",
        ),  # > 30
        (
            {
                "reference_income_per_share": "13489",
                "home_work_distance_km": "30",
                "professional_km_per_year": "12001",
            },
            "5000.00",
            "1° a)",
        ),  # 12 001 > 12 000
        ({"reference_income_per_share": "13000", "professional_km_per_year": "12001"}, "5000.00", "1° a)"),
    ],
)
def test_household_thresholds(
    catalogue: Catalogue, buyer: dict[str, Any], expected: str, paragraph: str
) -> None:
    a = award(catalogue, **EV_CAR, acquisition_cost="30000", buyer={"person_kind": NATURAL, **buyer})
    check(a, expected, paragraph)


@pytest.mark.parametrize(
    ("buyer", "missing"),
    [
        ({}, "buyer.person_kind"),
        ({"person_kind": NATURAL}, "buyer.reference_income_per_share"),
        ({"person_kind": NATURAL, "reference_income_per_share": "10000"}, "buyer.home_work_distance_km"),
        (
            {"person_kind": NATURAL, "reference_income_per_share": "10000", "home_work_distance_km": "12"},
            "buyer.professional_km_per_year",
        ),
    ],
)
def test_household_facts_missing_are_named(catalogue: Catalogue, buyer: dict[str, Any], missing: str) -> None:
    a = award(catalogue, **EV_CAR, acquisition_cost="30000", buyer=buyer)
    assert a.eligible is None and a.missing_facts == (missing,)


@pytest.mark.parametrize(
    ("cost", "battery", "city_range", "expected", "paragraph"),
    [
        ("55000", "5000", "300", "5000.00", "1° a)"),  # 55 000 + 5 000 battery lease = 60 000 ≤ 60 000
        (
            "55000",
            "5000.01",
            "300",
            "0.00",
            "1°, 3° et 4°",
        ),  # 60 000.01 > 60 000; 3° and 4° do not apply to an EV
        ("5000", "1000", "300", "4000.00", "1° a)"),  # base is the price without the battery: 80 % × 5 000
        ("30000", "0", "50", "0.00", "1°, 3° et 4°"),  # range 50 km is not « supérieure à 50 kilomètres »
        ("30000", "0", "50.1", "5000.00", "1° a)"),
    ],
)
def test_electric_car_price_and_range(
    catalogue: Catalogue, cost: str, battery: str, city_range: str, expected: str, paragraph: str
) -> None:
    car = {**EV_CAR, "city_electric_range_km": city_range}
    a = award(catalogue, **car, acquisition_cost=cost, battery_rental_cost=Decimal(battery), buyer=VERY_LOW)
    check(a, expected, paragraph)
    if Decimal(expected):
        assert "rate-on-price-then-cap" in readings(a)


def test_missing_city_range_is_named_unless_purely_thermal(catalogue: Catalogue) -> None:
    ev = {**EV_CAR, "city_electric_range_km": None}
    a = award(catalogue, **ev, acquisition_cost="30000", buyer=VERY_LOW)
    assert a.missing_facts == ("vehicle.city_electric_range_km",)
    a = award(catalogue, **PETROL_CAR, **NEW, co2_g_per_km=100, acquisition_cost="20000", buyer=VERY_LOW)
    check(a, "3000.00", "3° b)")  # no range asked for a petrol car; 3° b): 80 % × 20 000 = 16 000 > 3 000
    assert "no-electric-mode-no-range" in readings(a)


# -- 1° bis: vans of the 5° of D. 251-1, range > 50 km, 40 % of the price capped by class ------------


@pytest.mark.parametrize(
    ("van_class", "cost", "expected", "paragraph"),
    [
        (VanClass.I, "10000", "4000.00", "1° bis a)"),  # 40 % × 10 000 = 4 000 < 5 000
        (VanClass.I, "12500", "5000.00", "1° bis a)"),  # 40 % × 12 500 = 5 000 = cap
        (VanClass.I, "20000", "5000.00", "1° bis a)"),  # 8 000 > 5 000
        (VanClass.II, "15000", "6000.00", "1° bis b)"),  # 40 % × 15 000 = 6 000 < 7 000
        (VanClass.II, "17500", "7000.00", "1° bis b)"),  # 7 000 = cap
        (VanClass.II, "30000", "7000.00", "1° bis b)"),  # 12 000 > 7 000
        (VanClass.III, "20000", "8000.00", "1° bis c)"),  # 40 % × 20 000 = 8 000 < 9 000
        (VanClass.III, "22500", "9000.00", "1° bis c)"),  # 9 000 = cap
        (VanClass.III, "80000", "9000.00", "1° bis c)"),  # 32 000 > 9 000; 1° bis has no price ceiling
    ],
)
def test_electric_van_by_class(
    catalogue: Catalogue, van_class: VanClass, cost: str, expected: str, paragraph: str
) -> None:
    a = award(catalogue, **EV_VAN, van_class=van_class, acquisition_cost=cost, buyer=LEGAL)
    check(a, expected, paragraph)


def test_electric_van_needs_no_person_fact(catalogue: Catalogue) -> None:
    check(award(catalogue, **EV_VAN, van_class=VanClass.I, acquisition_cost="10000"), "4000.00", "1° bis a)")


def test_electric_van_missing_class_and_short_range(catalogue: Catalogue) -> None:
    a = award(catalogue, **EV_VAN, acquisition_cost="10000", buyer=LEGAL)
    assert a.missing_facts == ("vehicle.van_class",)
    short = {**EV_VAN, "city_electric_range_km": "50"}
    check(
        award(catalogue, **short, van_class=VanClass.I, acquisition_cost="10000", buyer=LEGAL),
        "0.00",
        "1° bis, 3° et 4°",
    )


# -- 2°: new electric two- and three-wheelers and quadricycles --------------------------------------


@pytest.mark.parametrize(
    ("cost", "bonus", "buyer", "expected", "paragraph"),
    [
        ("3000", "810", LOW, "1100.00", "2° a)"),  # limit 3 000 − 810 = 2 190 > 1 100
        ("1500", "405", LOW, "1095.00", "2° a)"),  # limit 1 500 − 405 = 1 095 < 1 100: the limit binds
        ("1500", "400", LOW, "1100.00", "2° a)"),  # limit 1 500 − 400 = 1 100 = amount
        ("1000", "0", LOW, "1000.00", "2° a)"),  # no bonus granted: limit = cost 1 000
        ("3000", "810", ABOVE, "100.00", "2° b)"),  # RFR 13 489.01 > 13 489: autres cas
        ("3000", None, ABOVE, "100.00", "2° b)"),  # b) does not need the bonus amount
        ("3000", None, LEGAL, "100.00", "2° b)"),
    ],
)
def test_two_three_wheelers(
    catalogue: Catalogue, cost: str, bonus: str | None, buyer: dict[str, Any], expected: str, paragraph: str
) -> None:
    a = award(catalogue, **L_VEHICLE, acquisition_cost=cost, bonus_amount=bonus, buyer=buyer)
    check(a, expected, paragraph)
    assert ("2a-cap-cost-minus-bonus" in readings(a)) is (paragraph == "2° a)")


def test_two_three_wheeler_low_income_needs_the_bonus_amount(catalogue: Catalogue) -> None:
    a = award(catalogue, **L_VEHICLE, acquisition_cost="3000", buyer=LOW)
    assert a.eligible is None and a.missing_facts == ("bonus_ecologique_amount",)


@pytest.mark.parametrize(
    ("changes", "expected", "paragraph"),
    [
        ({"previously_registered": True}, "0.00", "2°"),
        ({"uses_lead_battery": True}, "0.00", "2°"),
        ({"net_max_power_kw": "1.99"}, "0.00", "2°"),  # < 2 kW (règlement 168/2013)
        (
            {"net_max_power_kw": "2.99", "power_basis": PowerBasis.DIRECTIVE_2002_24_EC},
            "0.00",
            "2°",
        ),  # < 3 kW
        (
            {"net_max_power_kw": "3", "power_basis": PowerBasis.DIRECTIVE_2002_24_EC},
            "100.00",
            "2° b)",
        ),  # ≥ 3 kW
    ],
)
def test_two_three_wheeler_conditions(
    catalogue: Catalogue, changes: dict[str, Any], expected: str, paragraph: str
) -> None:
    check(
        award(catalogue, **{**L_VEHICLE, **changes}, acquisition_cost="3000", buyer=LEGAL),
        expected,
        paragraph,
    )


# -- 3°: cars and vans classed « 1 », ≤ 50 000 €, CO2 ceilings 132 / 137 g (5°: 104 / 109 g) --------


@pytest.mark.parametrize(
    ("cost", "buyer", "expected", "paragraph"),
    [
        ("20000", COMMUTER, "3000.00", "3° b)"),  # b) 80 % × 20 000 = 16 000 > 3 000; a) 1 500
        ("3000", VERY_LOW, "2400.00", "3° b)"),  # b) 80 % × 3 000 = 2 400 < 3 000 > a) 1 500
        ("1875", VERY_LOW, "1500.00", "3° a)"),  # b) 80 % × 1 875 = 1 500 = a) 1 500: tie, a) listed first
        ("1000", VERY_LOW, "1000.00", "3° a)"),  # a) 1 500 limited to the cost 1 000 > b) 800
        ("20000", LOW, "1500.00", "3° a)"),  # RFR ≤ 13 489 but no long distance: only a)
        ("50000", LOW, "1500.00", "3° a)"),  # 50 000 « inférieur ou égal à 50 000 »
        ("50000.01", COMMUTER, "0.00", "1°, 3° et 4°"),
        ("20000", ABOVE, "0.00", "1°, 3° et 4°"),  # 13 489.01 > 13 489: no case of 3° ; no « autres cas »
        ("20000", LEGAL, "0.00", "1°, 3° et 4°"),  # 3° is for « une personne physique » only
    ],
)
def test_crit_air_1_amounts(
    catalogue: Catalogue, cost: str, buyer: dict[str, Any], expected: str, paragraph: str
) -> None:
    a = award(catalogue, **PETROL_CAR, **NEW, **NRS, co2_g_per_km=120, acquisition_cost=cost, buyer=buyer)
    check(a, expected, paragraph)


def test_crit_air_1_both_cases_shown(catalogue: Catalogue) -> None:
    a = award(
        catalogue, **PETROL_CAR, **NEW, **NRS, co2_g_per_km=120, acquisition_cost="1000", buyer=VERY_LOW
    )
    assert [(x.citation, x.amount) for x in a.alternatives] == [
        ("C. énergie, art. D. 251-8, 3° b)", Decimal("800.00"))
    ]
    assert "alternative-cases-most-favourable" in readings(a)


def test_legal_person_reading(catalogue: Catalogue) -> None:
    a = award(catalogue, **PETROL_CAR, **NEW, **NRS, co2_g_per_km=120, acquisition_cost="20000", buyer=LEGAL)
    assert "income-conditions-natural-persons-only" in readings(a)


def test_crit_air_2_is_not_in_3(catalogue: Catalogue) -> None:
    car = {**PETROL_CAR, "critair": CritAir.CLASS_2}
    check(
        award(catalogue, **car, **NEW, co2_g_per_km=100, acquisition_cost="20000", buyer=COMMUTER),
        "0.00",
        "1°, 3° et 4°",
    )


@pytest.mark.parametrize(
    ("co2", "vehicle", "expected"),
    [
        (132, {**NEW, **NRS}, "3000.00"),  # new: ≤ 132
        (133, {**NEW, **NRS}, "0.00"),  # new: 137 g is not open to it
        (137, {"first_registration_date": date(2015, 1, 1), **NRS}, "3000.00"),  # registered 6+ months: ≤ 137
        (138, {"first_registration_date": date(2015, 1, 1), **NRS}, "0.00"),
        (
            135,
            {"first_registration_date": date(2021, 3, 15), **NRS},
            "3000.00",
        ),  # +6 months = 09-15 = invoice
        (
            135,
            {"first_registration_date": date(2021, 3, 16), **NRS},
            "0.00",
        ),  # +6 months = 09-16 > invoice: 132 g
        (132, {"first_registration_date": date(2021, 3, 16), **NRS}, "3000.00"),
        # 5°: outside the new registration system, or accessible in a wheelchair
        (104, {**NEW, "new_registration_system": False}, "3000.00"),
        (105, {**NEW, "new_registration_system": False}, "0.00"),
        (104, {**NEW, "new_registration_system": True, "wheelchair_accessible": True}, "3000.00"),
        (105, {**NEW, "new_registration_system": True, "wheelchair_accessible": True}, "0.00"),
        (109, {"first_registration_date": date(2015, 1, 1), "new_registration_system": False}, "3000.00"),
        (110, {"first_registration_date": date(2015, 1, 1), "new_registration_system": False}, "0.00"),
        (
            109,
            {
                "first_registration_date": date(2015, 1, 1),
                "new_registration_system": True,
                "wheelchair_accessible": True,
            },
            "3000.00",
        ),
        (
            110,
            {
                "first_registration_date": date(2015, 1, 1),
                "new_registration_system": True,
                "wheelchair_accessible": True,
            },
            "0.00",
        ),
        (104, {}, "3000.00"),  # ≤ 104, the lowest ceiling: no registration fact asked
        (138, {}, "0.00"),  # > 137, the highest: none asked either
        (133, {**NEW}, "0.00"),  # new and > 132: fails under 5° too, 5° facts not asked
    ],
)
def test_co2_ceilings(catalogue: Catalogue, co2: int, vehicle: dict[str, Any], expected: str) -> None:
    a = award(catalogue, **PETROL_CAR, **vehicle, co2_g_per_km=co2, acquisition_cost="20000", buyer=COMMUTER)
    check(a, expected, "3° b)" if Decimal(expected) else "1°, 3° et 4°")
    assert "co2-ceiling-132-new-137-others" in readings(a)


@pytest.mark.parametrize(
    ("invoice", "expected"),
    [("2021-09-29", "0.00"), ("2021-09-30", "3000.00")],  # 2021-03-31 + 6 months clamps to 2021-09-30
)
def test_six_months_clamp_to_month_end(catalogue: Catalogue, invoice: str, expected: str) -> None:
    a = award(
        catalogue,
        invoice=invoice,
        **PETROL_CAR,
        **NRS,
        first_registration_date=date(2021, 3, 31),
        co2_g_per_km=135,
        acquisition_cost="20000",
        buyer=COMMUTER,
    )
    assert a.amount == Decimal(expected)


@pytest.mark.parametrize(
    ("co2", "vehicle", "missing"),
    [
        (120, {}, "vehicle.new_registration_system"),  # at 120 g only 5° decides (132/137 vs 104/109)
        (135, {}, "vehicle.previously_registered"),  # 132 < 135 ≤ 137 (5°: > 109 either way)
        (120, {"previously_registered": True}, "vehicle.new_registration_system"),  # date irrelevant at 120 g
        (135, {"previously_registered": True, **NRS}, "vehicle.first_registration_date"),
        (106, {**NEW, "new_registration_system": True}, "vehicle.wheelchair_accessible"),
        (137, {"first_registration_date": date(2015, 1, 1)}, "vehicle.new_registration_system"),
    ],
)
def test_co2_facts_asked_only_when_they_decide(
    catalogue: Catalogue, co2: int, vehicle: dict[str, Any], missing: str
) -> None:
    a = award(catalogue, **PETROL_CAR, **vehicle, co2_g_per_km=co2, acquisition_cost="20000", buyer=COMMUTER)
    assert a.eligible is None and a.missing_facts == (missing,)


# -- 4°: 21–50 g/km, classed « électrique » or « 1 », ≤ 50 000 € -------------------------------------

PHEV = {
    "category": CAR,
    "energy": Energy.PETROL_ELECTRIC_HYBRID,
    "critair": CritAir.ELECTRIC,
    "city_electric_range_km": "40",
}  # classed « électrique » and range ≤ 50 km: neither 3° nor 1°


@pytest.mark.parametrize(
    ("co2", "cost", "buyer", "expected", "paragraph"),
    [
        (21, "30000", VERY_LOW, "3000.00", "4° a)"),  # 80 % × 30 000 = 24 000 > 3 000
        (50, "3000", VERY_LOW, "2400.00", "4° a)"),  # 80 % × 3 000 = 2 400 < 3 000
        (50, "3750", COMMUTER, "3000.00", "4° a)"),  # 80 % × 3 750 = 3 000 = cap
        (50, "50000", LOW, "1500.00", "4° b)"),  # 50 000 ≤ 50 000; not the a) household
        (35, "30000", LEGAL, "1500.00", "4° b)"),
        (20, "30000", VERY_LOW, "0.00", "1°, 3° et 4°"),  # 20 g is not « entre 21 et 50 »
        (51, "30000", VERY_LOW, "0.00", "1°, 3° et 4°"),
        (35, "50000.01", VERY_LOW, "0.00", "1°, 3° et 4°"),
    ],
)
def test_plug_in_hybrids(
    catalogue: Catalogue, co2: int, cost: str, buyer: dict[str, Any], expected: str, paragraph: str
) -> None:
    check(award(catalogue, **PHEV, co2_g_per_km=co2, acquisition_cost=cost, buyer=buyer), expected, paragraph)


def test_plug_in_hybrid_classed_2_is_not_in_4(catalogue: Catalogue) -> None:
    phev = {**PHEV, "critair": CritAir.CLASS_2}
    check(
        award(catalogue, **phev, co2_g_per_km=35, acquisition_cost="30000", buyer=VERY_LOW),
        "0.00",
        "1°, 3° et 4°",
    )


# -- several cases met: the most favourable is kept, the others shown -------------------------------

PHEV_1_LONG_RANGE = {
    "category": CAR,
    "energy": Energy.PETROL_ELECTRIC_HYBRID,
    "critair": CritAir.CLASS_1,
    "city_electric_range_km": "55",
    "co2_g_per_km": 30,
    **NEW,
}


def test_plug_in_hybrid_meeting_1_3_and_4(catalogue: Catalogue) -> None:
    # 1° a) min(80 % × 40 000, 5 000) = 5 000; 3° a) 1 500; 3° b) min(32 000, 3 000) = 3 000; 4° a) 3 000
    a = award(catalogue, **PHEV_1_LONG_RANGE, acquisition_cost="40000", buyer=COMMUTER)
    check(a, "5000.00", "1° a)")
    assert sorted((x.citation.rsplit(", ", 1)[1], x.amount) for x in a.alternatives) == [
        ("3° a)", Decimal("1500.00")),
        ("3° b)", Decimal("3000.00")),
        ("4° a)", Decimal("3000.00")),
    ]
    assert "alternative-cases-most-favourable" in readings(a)


def test_plug_in_hybrid_legal_person_gets_the_other_cases(catalogue: Catalogue) -> None:
    # 1° b) 2 500 > 4° b) 1 500; 3° gives nothing to a legal person
    a = award(catalogue, **PHEV_1_LONG_RANGE, acquisition_cost="40000", buyer=LEGAL)
    check(a, "2500.00", "1° b)")
    assert [(x.citation.rsplit(", ", 1)[1], x.amount) for x in a.alternatives] == [
        ("4° b)", Decimal("1500.00"))
    ]


def test_plug_in_van_meeting_1_bis_3_and_4(catalogue: Catalogue) -> None:
    # 1° bis a) min(40 % × 40 000, 5 000) = 5 000 ; 3° a) 1 500 ; 3° b) 3 000 ; 4° a) 3 000
    van = {**PHEV_1_LONG_RANGE, "category": VAN, "van_class": VanClass.I}
    a = award(catalogue, **van, acquisition_cost="40000", buyer=COMMUTER)
    check(a, "5000.00", "1° bis a)")
    assert len(a.alternatives) == 3


def test_crit_air_1_car_is_in_3_and_4_cheap(catalogue: Catalogue) -> None:
    # range 40: no 1°. 3° a) min(1 500, 1 600) = 1 500; 3° b) 80 % × 1 600 = 1 280; 4° a) 80 % × 1 600 = 1 280
    car = {**PHEV_1_LONG_RANGE, "city_electric_range_km": "40"}
    check(award(catalogue, **car, acquisition_cost="1600", buyer=VERY_LOW), "1500.00", "3° a)")


# -- 4° bis: pedal-assisted cycles ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cost", "buyer", "expected"),
    [
        ("2000", VERY_LOW, "800.00"),  # 40 % × 2 000 = 800
        ("3750", LEGAL, "1500.00"),  # 40 % × 3 750 = 1 500 = cap
        ("5000", {}, "1500.00"),  # 2 000 > 1 500; no person fact needed
        ("1234.56", {}, "493.82"),  # 40 % × 1 234.56 = 493.824 → 493.82
    ],
)
def test_electric_bicycle(catalogue: Catalogue, cost: str, buyer: dict[str, Any], expected: str) -> None:
    a = award(catalogue, category=VehicleCategory.ELECTRIC_BICYCLE, acquisition_cost=cost, buyer=buyer)
    check(a, expected, "4° bis")


# -- the version's period and décret n° 2020-1526, art. 4 (more favourable; keeps D251-8.2020-08-03) --

NEW_EV = {**EV_CAR, **NEW, "acquisition_cost": "30000", "buyer": VERY_LOW}
CLAUSE = "decret-2020-1526-art4"


@pytest.mark.parametrize(
    ("invoice", "mine"),
    [("2021-07-25", False), ("2021-07-26", True), ("2021-12-30", True), ("2021-12-31", False)],
)
def test_period_in_force(catalogue: Catalogue, invoice: str, mine: bool) -> None:
    version = result(catalogue, invoice=invoice, **NEW_EV).resolution.version
    assert (version is not None and version.id == VERSION) is mine


@pytest.mark.parametrize(("order", "invoice"), [("2021-06-30", "2021-09-15"), ("2021-01-10", "2021-12-30")])
def test_clause_open_computes_the_kept_version(catalogue: Catalogue, order: str, invoice: str) -> None:
    # The kept wording (« issue de l'article 1er » of décret 2020-1526) is D251-8.2020-08-03 (secondary): for a very
    # modest household it gives 80 % capped at 5 000 €, as this version's 1° a) does: a tie keeps this version's.
    r = result(catalogue, invoice=invoice, order=order, **NEW_EV)
    assert r.status == "computed"
    assert [c.clause.id for c in r.resolution.open_clauses] == [CLAUSE]
    assert [a.version_id for a in r.compared] == [VERSION, "D251-8.2020-08-03"]
    assert [a.amount for a in r.compared] == [Decimal("5000.00"), Decimal("5000.00")]
    assert r.award is not None and r.award.version_id == VERSION and r.award.amount == Decimal("5000.00")
    assert r.kept_by is None


def test_clause_open_for_a_lease_signed_by_june_30(catalogue: Catalogue) -> None:
    p = purchase(
        first_rent="2021-10-01",
        order="2021-06-15",
        lease=True,
        scheme=PAC,
        scrapped=SCRAPPED,
        **{**EV_CAR, **NEW},
        acquisition_cost="30000",
        buyer=VERY_LOW,
    )
    found = calculate(catalogue, p, PAC)
    assert found.status == "computed" and [a.version_id for a in found.compared] == [VERSION, "D251-8.2020-08-03"]


@pytest.mark.parametrize(
    ("order", "vehicle", "open_", "missing"),
    [
        ("2021-07-01", NEW, False, None),  # « avant le 30 juin 2021 inclus »: 1 July is too late
        (
            "2021-06-30",
            {"previously_registered": True, "first_registration_date": date(2021, 5, 1)},
            False,
            None,
        ),
        ("2021-06-30", {"previously_registered": None}, None, "vehicle.previously_registered"),
    ],
)
def test_clause_not_open(
    catalogue: Catalogue, order: str, vehicle: dict[str, Any], open_: bool | None, missing: str | None
) -> None:
    r = result(catalogue, order=order, **{**NEW_EV, **vehicle})
    (check_,) = r.resolution.clauses
    assert (check_.open, check_.missing_fact) == (open_, missing)
    assert r.status == "computed" and not r.resolution.open_clauses


def test_clause_not_evaluated_without_order_date(catalogue: Catalogue) -> None:
    r = result(catalogue, **NEW_EV)
    (check_,) = r.resolution.clauses
    assert check_.open is None and "not evaluated" in check_.test
    assert any("not evaluated" in n for n in r.resolution.notes)
    assert r.status == "computed"


@pytest.mark.parametrize(("decisive", "open_"), [(date(2021, 12, 31), True), (date(2022, 1, 1), False)])
def test_clause_deadline_is_the_explicit_31_december(
    catalogue: Catalogue, decisive: date, open_: bool
) -> None:
    # Inside this version (last day 2021-12-30) the deadline never bites; the clause data says 2021-12-31.
    version = catalogue.versions[VERSION]
    (clause,) = version.transitional
    p = purchase(decisive.isoformat(), order="2021-06-30", scheme=PAC, **NEW)
    assert check_clause(clause, version, p, decisive).open is open_


# -- facts asked only when they can change the answer (review before the external audit) ---------


@pytest.mark.parametrize(
    ("power", "expected", "paragraph"),
    [
        ("4", "100.00", "2° b)"),  # 4 kW ≥ 2 kW (règlement) and ≥ 3 kW (directive): legal person → b) 100 €
        ("3", "100.00", "2° b)"),  # 3 kW: « supérieure ou égale » to both thresholds
        ("1.5", "0.00", "2°"),  # 1.5 kW < 2 kW and < 3 kW: not in 2° whatever the instrument
    ],
)
def test_two_three_wheeler_power_basis_not_asked_when_both_thresholds_agree(
    catalogue: Catalogue, power: str, expected: str, paragraph: str
) -> None:
    vehicle = {**L_VEHICLE, "net_max_power_kw": power, "power_basis": None}
    a = award(catalogue, **vehicle, acquisition_cost="3000", buyer=LEGAL)
    assert a.missing_facts == ()
    check(a, expected, paragraph)


def test_two_three_wheeler_power_basis_asked_between_the_thresholds(catalogue: Catalogue) -> None:
    # 2.5 kW: ≥ 2 kW under règlement (UE) 168/2013, < 3 kW under directive 2002/24/CE
    vehicle = {**L_VEHICLE, "net_max_power_kw": "2.5", "power_basis": None}
    a = award(catalogue, **vehicle, acquisition_cost="3000", buyer=LEGAL)
    assert a.eligible is None and a.missing_facts == ("vehicle.power_basis",)


def test_non_electric_two_wheeler_does_not_correspond_to_the_6th(catalogue: Catalogue) -> None:
    # 2° covers the vehicles « correspondant au 6° du D. 251-1 » (electric L vehicles): a petrol scooter gets
    # nothing (it used to get the 100 € of 2° b) under an assumption its own energy contradicted).
    a = award(catalogue, **{**L_VEHICLE, "energy": Energy.PETROL}, acquisition_cost="3000", buyer=LEGAL)
    check(a, "0.00", "2°")
    assert "l-vehicle-electric-only" in readings(a)


@pytest.mark.parametrize(
    ("buyer", "expected", "paragraph"),
    [
        (VERY_LOW, "5000.00", "1° a)"),  # 80 % × 32 000 = 25 600 > 5 000 cap
        (ABOVE, "2500.00", "1° b)"),  # autres cas
    ],
)
def test_electric_car_without_crit_air_is_classed_electrique(
    catalogue: Catalogue, buyer: dict[str, Any], expected: str, paragraph: str
) -> None:
    # An electric car is classed « électrique », never « 1 » (assumption naming the arrêté of R. 318-2): 3° is
    # closed to it and 4° is closed by its CO2 (0 g/km, not 21–50), so vehicle.critair is not asked.
    vehicle = {**EV_CAR, "critair": None}
    a = award(catalogue, **vehicle, acquisition_cost="32000", buyer=buyer)
    assert a.missing_facts == ()
    check(a, expected, paragraph)
    assert any("classed « électrique »" in text for text in a.assumptions)


def test_thermal_car_above_every_ceiling_needs_no_crit_air(catalogue: Catalogue) -> None:
    # 150 g/km > 137 g/km, the highest ceiling of 3°; not 21–50 g/km (4°); no electric range (1°): nothing,
    # whatever its class, so vehicle.critair is not asked.
    a = award(
        catalogue,
        category=CAR,
        energy=Energy.PETROL,
        co2_g_per_km=150,
        acquisition_cost="20000",
        buyer=VERY_LOW,
    )
    assert a.missing_facts == ()
    check(a, "0.00", "1°, 3° et 4°")


def test_crit_air_1_car_of_a_legal_person_needs_no_ceiling_fact(catalogue: Catalogue) -> None:
    # 3° needs « une personne physique » (a) and b)): a legal person is excluded before the 5° facts
    # (new registration system, wheelchair access) that would decide a 120 g/km ceiling.
    a = award(catalogue, **PETROL_CAR, co2_g_per_km=120, acquisition_cost="20000", buyer=LEGAL)
    assert a.missing_facts == ()
    check(a, "0.00", "1°, 3° et 4°")


def test_plug_in_hybrid_above_every_price_ceiling_needs_no_range(catalogue: Catalogue) -> None:
    # 70 000 € > 60 000 € (1°, battery included) and > 50 000 € (3°, 4°): nothing, whatever its range.
    a = award(
        catalogue,
        category=CAR,
        energy=Energy.PETROL_ELECTRIC_HYBRID,
        co2_g_per_km=35,
        critair=CritAir.CLASS_1,
        acquisition_cost="70000",
        buyer=VERY_LOW,
    )
    assert a.missing_facts == ()
    check(a, "0.00", "1°, 3° et 4°")


def test_a_new_thermal_car_is_not_asked_its_registration_system(catalogue: Catalogue) -> None:
    """5° lowers the ceilings only for vehicles outside the new registration system (CGI 1007, 4°), in force for
    first registrations since 2020-03-01: a new car registered at its 2021 invoice is inside it. Crit'Air 1 petrol
    car, 118 g ≤ 132 g (new-vehicle ceiling, 3°), 18 000 €, household at 12 000 € per share with a 35 km commute:
    3° b) 80 % × 18 000 = 14 400 capped at 3 000 € > 3° a) 1 500 €: 3 000 €."""
    p = purchase("2021-09-15", scheme=Scheme.CONVERSION_PREMIUM, category=VehicleCategory.PASSENGER_CAR,
                  energy=Energy.PETROL, co2_g_per_km=118, acquisition_cost="18000", critair=CritAir.CLASS_1,
                  previously_registered=False, wheelchair_accessible=False, scrapped={"energy": Energy.DIESEL},
                  buyer={"person_kind": PersonKind.NATURAL_PERSON, "reference_income_per_share": "12000",
                         "home_work_distance_km": "35", "professional_km_per_year": "0"})
    award = calculate(catalogue, p, Scheme.CONVERSION_PREMIUM).award
    assert award is not None and award.missing_facts == ()
    assert award.amount == Decimal("3000.00")
    assert any(r.id == "new-vehicle-in-new-registration-system" for r in award.readings)
