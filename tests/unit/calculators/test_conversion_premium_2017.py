"""C. énergie D. 251-8 in its 2017 wordings (seed 003; décret 2017-196): every case at its boundaries.

Expected amounts come from the text (1° a) 4 000 €, 1° b) 2 500 €, 2° a) 1 000 €, 2° b) 500 €).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from legislation import Award, Catalogue, Energy, EuroStandard, PersonKind, Scheme, VehicleCategory, calculate
from tests.builders import purchase

JANUARY = "2017-01-15"  # D251-8.2017-01-01
MARCH = "2017-03-15"  # D251-8.2017-02-19
CAR = VehicleCategory.PASSENGER_CAR
VAN = VehicleCategory.VAN
NIL_TAX = {"person_kind": PersonKind.NATURAL_PERSON, "income_tax_nil": True}
TAXED = {"person_kind": PersonKind.NATURAL_PERSON, "income_tax_nil": False}
LEGAL = {"person_kind": PersonKind.LEGAL_PERSON}
STATE = {"person_kind": PersonKind.STATE_ADMINISTRATION}
SCRAPPED = {"energy": Energy.DIESEL, "category": CAR}


def award(catalogue: Catalogue, invoice: str | None = JANUARY, version: str = "D251-8.2017-01-01",
          **kw: Any) -> Award:
    kw.setdefault("scrapped", SCRAPPED)
    bought = purchase(invoice, scheme=Scheme.CONVERSION_PREMIUM, **kw)
    result = calculate(catalogue, bought, Scheme.CONVERSION_PREMIUM)
    assert result.resolution.version is not None and result.resolution.version.id == version
    assert result.award is not None
    return result.award


def new(category: VehicleCategory = CAR, **kw: Any) -> dict[str, Any]:
    return {"category": category, "previously_registered": False} | kw


def used(**kw: Any) -> dict[str, Any]:
    return {"category": CAR, "previously_registered": True} | kw


def test_no_scrapped_vehicle_is_refused_citing_d251_3(catalogue: Catalogue) -> None:
    a = award(catalogue, scrapped=None, **new(co2_g_per_km=0), buyer=LEGAL)
    assert (a.amount, a.eligible) == (Decimal("0.00"), False)
    assert "D. 251-3, premier alinéa" in a.reason and "purchase.scrapped_vehicle" in a.reason
    assert any(s.citation == "C. énergie, art. D. 251-3, premier alinéa" for s in a.steps)


def test_scrapped_vehicle_conditions_are_assumed(catalogue: Catalogue) -> None:
    a = award(catalogue, **new(co2_g_per_km=0), buyer=LEGAL)
    assert any("scrapped vehicle meets the conditions of D. 251-3" in text for text in a.assumptions)


# -- 1°: vehicles never registered before -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("category", "co2", "expected", "paragraph", "eligible"),
    [
        (CAR, 0, "4000.00", "1° a)", True),  # ≤ 20 g: 4 000 €
        (CAR, 20, "4000.00", "1° a)", True),  # 20 g still a)
        (CAR, 21, "2500.00", "1° b)", True),  # « compris entre 21 et 60 »: 2 500 €
        (CAR, 60, "2500.00", "1° b)", True),  # 60 g still b)
        (CAR, 61, "0.00", "1°, 2°", False),  # above 60 g, and a legal person is not in 2°
        (VAN, 0, "4000.00", "1° a)", True),  # vans « dans les mêmes conditions » (notice of 2016-1980)
        (VAN, 60, "2500.00", "1° b)", True),
        (VAN, 61, "0.00", "1°, 2°", False),
    ],
)
def test_new_vehicle_case(catalogue: Catalogue, category: VehicleCategory, co2: int, expected: str,
                          paragraph: str, eligible: bool) -> None:
    a = award(catalogue, **new(category, co2_g_per_km=co2, euro_standard=EuroStandard.EURO_6), buyer=LEGAL)
    assert (a.amount, a.eligible) == (Decimal(expected), eligible)
    assert a.paragraph == f"C. énergie, art. D. 251-8, {paragraph}"


def test_previously_registered_van_gets_nothing(catalogue: Catalogue) -> None:
    a = award(catalogue, category=VAN, previously_registered=True, co2_g_per_km=0, buyer=NIL_TAX)
    assert (a.amount, a.eligible) == (Decimal("0.00"), False)  # not new (1°), not a passenger car (2°)
    assert "registered before" in a.reason and "voitures particulières" in a.reason


def test_state_administration_gets_the_new_vehicle_case(catalogue: Catalogue) -> None:
    a = award(catalogue, **new(co2_g_per_km=0), buyer=STATE)
    assert a.amount == Decimal("4000.00")  # 1° a): no condition on the buyer


# -- 2°: passenger cars of a natural person whose income tax of the previous year is nil -----------------


@pytest.mark.parametrize(
    ("co2", "euro", "expected", "paragraph", "eligible"),
    [
        (0, None, "1000.00", "2° a)", True),  # ≤ 20 g: 1 000 €, the Euro norm is not asked
        (20, None, "1000.00", "2° a)", True),
        (21, EuroStandard.EURO_6, "1000.00", "2° a)", True),  # 21–110 g and Euro 6: 1 000 €
        (110, EuroStandard.EURO_6, "1000.00", "2° a)", True),
        (111, EuroStandard.EURO_6, "0.00", "1°, 2°", False),  # above 110 g
        (21, EuroStandard.EURO_5, "500.00", "2° b)", True),  # 21–110 g and Euro 5: 500 €
        (110, EuroStandard.EURO_5, "500.00", "2° b)", True),
        (111, EuroStandard.EURO_5, "0.00", "1°, 2°", False),
        (50, EuroStandard.EURO_4, "0.00", "1°, 2°", False),  # neither Euro 6 nor Euro 5
    ],
)
def test_household_case_for_a_used_car(catalogue: Catalogue, co2: int, euro: EuroStandard | None,
                                       expected: str, paragraph: str, eligible: bool) -> None:
    a = award(catalogue, **used(co2_g_per_km=co2, euro_standard=euro), buyer=NIL_TAX)
    assert (a.amount, a.eligible) == (Decimal(expected), eligible)
    assert a.paragraph == f"C. énergie, art. D. 251-8, {paragraph}"
    assert a.alternatives == ()


@pytest.mark.parametrize(
    ("buyer", "words"),
    [
        (TAXED, "income tax of the year before the acquisition or lease is not nil"),
        (LEGAL, "not a « personne physique »"),
        (STATE, "not a « personne physique »"),
    ],
)
def test_household_case_needs_a_natural_person_with_nil_tax(catalogue: Catalogue, buyer: dict[str, Any],
                                                            words: str) -> None:
    a = award(catalogue, **used(co2_g_per_km=50, euro_standard=EuroStandard.EURO_6), buyer=buyer)
    assert (a.amount, a.eligible) == (Decimal("0.00"), False)
    assert words in a.reason


def test_household_case_for_a_lease(catalogue: Catalogue) -> None:
    # « acquises ou louées »: a two-year lease of a car 21–110 g Euro 5 by a household with nil tax → 500 €
    a = award(catalogue, None, lease=True, first_rent="2017-02-01",
              **used(co2_g_per_km=90, euro_standard=EuroStandard.EURO_5), buyer=NIL_TAX)
    assert a.amount == Decimal("500.00")


# -- open reading: a new vehicle of a household whose income tax is nil meets both cases ------------------


@pytest.mark.parametrize(
    ("co2", "euro", "expected", "kept", "other", "other_amount"),
    [
        (0, None, "4000.00", "1° a)", "2° a)", "1000"),  # 4 000 > 1 000
        (40, EuroStandard.EURO_6, "2500.00", "1° b)", "2° a)", "1000"),  # 2 500 > 1 000
        (40, EuroStandard.EURO_5, "2500.00", "1° b)", "2° b)", "500"),  # 2 500 > 500
    ],
)
def test_both_cases_keep_the_more_favourable_and_show_the_other(
    catalogue: Catalogue, co2: int, euro: EuroStandard | None, expected: str, kept: str, other: str,
    other_amount: str,
) -> None:
    a = award(catalogue, **new(co2_g_per_km=co2, euro_standard=euro), buyer=NIL_TAX)
    assert a.amount == Decimal(expected)
    assert a.paragraph == f"C. énergie, art. D. 251-8, {kept}"
    assert [(s.citation, s.amount) for s in a.alternatives] == [(f"C. énergie, art. D. 251-8, {other}",
                                                                  Decimal(other_amount))]
    reading = next(r for r in a.readings if r.id == "alternative-cases-most-favourable")
    assert "4 000 €" in reading.text  # the notice's ceiling: the cases do not add up (4 000 + 1 000)
    assert any(r.id == "household-case-new-or-used" for r in a.readings)


def test_new_car_61_to_110_g_gets_only_the_household_case(catalogue: Catalogue) -> None:
    a = award(catalogue, **new(co2_g_per_km=100, euro_standard=EuroStandard.EURO_6), buyer=NIL_TAX)
    # 1° stops at 60 g: only 2° a), 1 000 €
    assert (a.amount, a.paragraph) == (Decimal("1000.00"), "C. énergie, art. D. 251-8, 2° a)")
    assert a.alternatives == ()
    assert any(r.id == "household-case-new-or-used" for r in a.readings)


def test_new_van_of_a_household_with_nil_tax_gets_only_the_first(catalogue: Catalogue) -> None:
    a = award(catalogue, **new(VAN, co2_g_per_km=0), buyer=NIL_TAX)
    assert (a.amount, a.alternatives) == (Decimal("4000.00"), ())  # 2° names « voitures particulières » only


def test_household_facts_are_not_asked_when_the_first_gives_more(catalogue: Catalogue) -> None:
    a = award(catalogue, **new(co2_g_per_km=0))  # no buyer facts: 2° cannot exceed 4 000 €
    assert (a.amount, a.eligible, a.missing_facts) == (Decimal("4000.00"), True, ())
    assert any("not examined" in s.text for s in a.steps)


# -- missing facts and other vehicles --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("facts", "buyer", "missing"),
    [
        ({"co2_g_per_km": 0, "previously_registered": False}, LEGAL, "vehicle.category"),
        ({"category": CAR, "previously_registered": False}, LEGAL, "vehicle.co2_g_per_km"),
        ({"category": CAR, "co2_g_per_km": 0}, LEGAL, "vehicle.previously_registered"),
        (new(co2_g_per_km=100, euro_standard=EuroStandard.EURO_6), {}, "buyer.person_kind"),
        (used(co2_g_per_km=50), {"person_kind": PersonKind.NATURAL_PERSON}, "buyer.income_tax_nil"),
        (used(co2_g_per_km=50), NIL_TAX, "vehicle.euro_standard"),
    ],
)
def test_missing_fact_is_named(catalogue: Catalogue, facts: dict[str, Any], buyer: dict[str, Any],
                               missing: str) -> None:
    a = award(catalogue, buyer=buyer, **facts)
    assert a.eligible is None and a.missing_facts == (missing,)


def test_two_wheeler_is_not_in_the_prime(catalogue: Catalogue) -> None:
    a = award(catalogue, **new(VehicleCategory.TWO_THREE_WHEELER, co2_g_per_km=0), buyer=NIL_TAX)
    assert (a.amount, a.eligible) == (Decimal("0.00"), False)
    assert any(r.id == "conversion-premium-cars-and-vans" for r in a.readings)


# -- 2017-02-19 (décret 2017-196): same cases and amounts, « l'un ou l'autre des cas suivants » ----------


@pytest.mark.parametrize(
    ("facts", "buyer", "expected", "paragraph"),
    [
        (new(co2_g_per_km=20), LEGAL, "4000.00", "1° a)"),
        (new(co2_g_per_km=21), LEGAL, "2500.00", "1° b)"),
        (new(VAN, co2_g_per_km=60), LEGAL, "2500.00", "1° b)"),
        (used(co2_g_per_km=110, euro_standard=EuroStandard.EURO_6), NIL_TAX, "1000.00", "2° a)"),
        (used(co2_g_per_km=21, euro_standard=EuroStandard.EURO_5), NIL_TAX, "500.00", "2° b)"),
        (used(co2_g_per_km=111, euro_standard=EuroStandard.EURO_6), NIL_TAX, "0.00", "1°, 2°"),
        (used(co2_g_per_km=50, euro_standard=EuroStandard.EURO_6), TAXED, "0.00", "1°, 2°"),
    ],
)
def test_same_cases_from_2017_02_19(catalogue: Catalogue, facts: dict[str, Any], buyer: dict[str, Any],
                                    expected: str, paragraph: str) -> None:
    a = award(catalogue, MARCH, "D251-8.2017-02-19", buyer=buyer, **facts)
    assert (a.amount, a.paragraph) == (Decimal(expected), f"C. énergie, art. D. 251-8, {paragraph}")


def test_one_case_or_the_other_from_2017_02_19(catalogue: Catalogue) -> None:
    a = award(catalogue, MARCH, "D251-8.2017-02-19", **new(co2_g_per_km=0), buyer=NIL_TAX)
    assert a.amount == Decimal("4000.00")  # 1° a) 4 000 kept over 2° a) 1 000, not 5 000
    assert [s.citation for s in a.alternatives] == ["C. énergie, art. D. 251-8, 2° a)"]
    reading = next(r for r in a.readings if r.id == "alternative-cases-most-favourable")
    assert "l'un ou l'autre des cas suivants" in reading.text


def test_no_scrapped_vehicle_is_refused_from_2017_02_19(catalogue: Catalogue) -> None:
    a = award(catalogue, MARCH, "D251-8.2017-02-19", scrapped=None, **new(co2_g_per_km=0), buyer=LEGAL)
    assert (a.amount, a.eligible) == (Decimal("0.00"), False)


# -- the resolver at the edges ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("decisive", "version"),
    [
        ("2016-12-31", "D251-8.2016-01-04"),  # décret 2015-1928 (secondary: new EV 3 700 €)
        ("2017-01-01", "D251-8.2017-01-01"),
        ("2017-02-18", "D251-8.2017-01-01"),
        ("2017-02-19", "D251-8.2017-02-19"),
        ("2017-12-31", "D251-8.2017-02-19"),
        ("2018-01-01", "D251-8.2018-01-01"),  # décret 2017-1851 (secondary barème: new EV 2 500 €)
    ],
)
def test_resolver_at_the_boundaries(catalogue: Catalogue, decisive: str, version: str | None) -> None:
    bought = purchase(decisive, scrapped=SCRAPPED, **new(co2_g_per_km=0), buyer=LEGAL)
    result = calculate(catalogue, bought, Scheme.CONVERSION_PREMIUM)
    found = result.resolution.version
    assert (found.id if found else None) == version
    if version is None:
        assert result.status == "no_version_on_file"
    else:
        expected = {"D251-8.2018-01-01": "2500.00", "D251-8.2016-01-04": "3700.00"}.get(version, "4000.00")
        assert result.award is not None and result.award.amount == Decimal(expected)


# -- facts asked only when they can change the answer (review before the external audit) ---------------------


def test_registration_not_asked_above_60_g(catalogue: Catalogue) -> None:
    # 105 g/km > 60 g/km: 1° is closed whether the car is new or not; 2° a): 21–110 g/km and Euro 6, natural
    # person whose income tax is nil → 1 000 €, without asking vehicle.previously_registered.
    a = award(catalogue, category=CAR, co2_g_per_km=105, euro_standard=EuroStandard.EURO_6, buyer=NIL_TAX)
    assert a.missing_facts == ()
    assert (a.amount, a.paragraph.endswith("2° a)")) == (Decimal("1000.00"), True)


def test_buyer_not_asked_above_110_g(catalogue: Catalogue) -> None:
    # 130 g/km: above 60 g/km (1°) and above 110 g/km (2°): nothing, whoever the buyer — no buyer fact asked.
    a = award(catalogue, category=CAR, co2_g_per_km=130)
    assert a.missing_facts == ()
    assert (a.amount, a.eligible) == (Decimal("0.00"), False)
