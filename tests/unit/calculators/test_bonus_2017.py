"""C. énergie D. 251-7 in its 2017 wordings (seed 003; décret 2017-196): every paragraph at its boundaries.

Expected amounts come from the text, with the arithmetic next to them.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal
from typing import Any

import pytest

from legislation import Award, Catalogue, Energy, PersonKind, Scheme, VehicleCategory, calculate
from legislation.dates import deadline_after_event
from tests.builders import purchase

JANUARY = "2017-01-15"  # D251-7.2017-01-01
MARCH = "2017-03-15"  # D251-7.2017-02-19
NATURAL = {"person_kind": PersonKind.NATURAL_PERSON}
LEGAL = {"person_kind": PersonKind.LEGAL_PERSON}
CAR = VehicleCategory.PASSENGER_CAR
VAN = VehicleCategory.VAN
L = VehicleCategory.TWO_THREE_WHEELER


def award(catalogue: Catalogue, invoice: str = JANUARY, version: str = "D251-7.2017-01-01",
          **kw: Any) -> Award:
    result = calculate(catalogue, purchase(invoice, **kw), Scheme.BONUS)
    assert result.resolution.version is not None and result.resolution.version.id == version
    assert result.award is not None
    return result.award


def electric_l(**kw: Any) -> dict[str, Any]:
    facts: dict[str, Any] = {"category": L, "energy": Energy.ELECTRIC, "uses_lead_battery": False,
                             "buyer": NATURAL}
    return facts | kw


# -- 1° a): CO2 ≤ 20 g/km, 27 % of the cost (battery lease included), at most 6 000 € --------------------


@pytest.mark.parametrize(
    ("cost", "buyer", "expected"),
    [
        ("20000", NATURAL, "5400.00"),  # 27 % × 20 000 = 5 400 < 6 000: the rate binds
        ("20000", LEGAL, "5400.00"),  # the 2017 text has one cap for every buyer: same 5 400
        ("22222.22", NATURAL, "6000.00"),  # 27 % × 22 222.22 = 5 999.9994 → 6 000.00 at the cent, not above
        ("22222.25", NATURAL, "6000.00"),  # 27 % × 22 222.25 = 6 000.0075 → 6 000.01 > 6 000: the cap binds
        ("30000", NATURAL, "6000.00"),  # 27 % × 30 000 = 8 100 > 6 000: the cap binds
        ("30000", LEGAL, "6000.00"),  # same cap for a legal person
    ],
)
def test_first_a_rate_and_cap(catalogue: Catalogue, cost: str, buyer: dict[str, Any], expected: str) -> None:
    a = award(catalogue, category=CAR, energy=Energy.ELECTRIC, co2_g_per_km=0, acquisition_cost=cost,
              buyer=buyer)
    assert (a.amount, a.eligible) == (Decimal(expected), True)
    assert a.paragraph == "C. énergie, art. D. 251-7, 1° a)"


def test_first_a_cap_binds_only_above_6000(catalogue: Catalogue) -> None:
    binding = award(catalogue, category=CAR, co2_g_per_km=0, acquisition_cost="22222.25", buyer=NATURAL)
    assert any("the cap applies" in s.text for s in binding.steps)  # 6 000.01 > 6 000
    at_cap = award(catalogue, category=CAR, co2_g_per_km=0, acquisition_cost="22222.22", buyer=NATURAL)
    assert any("the cap does not bind" in s.text for s in at_cap.steps)  # 6 000.00 (5 999.9994) ≤ 6 000
    not_binding = award(catalogue, category=CAR, co2_g_per_km=0, acquisition_cost="20000", buyer=NATURAL)
    assert any("the cap does not bind" in s.text for s in not_binding.steps)  # 5 400 ≤ 6 000


def test_first_a_leased_battery_is_added_to_the_cost(catalogue: Catalogue) -> None:
    # 27 % × (15 000 + 5 000) = 5 400; without the battery it would be 27 % × 15 000 = 4 050
    a = award(catalogue, category=CAR, co2_g_per_km=0, acquisition_cost="15000",
              battery_rental_cost=Decimal("5000"), buyer=NATURAL)
    assert a.amount == Decimal("5400.00")


@pytest.mark.parametrize(
    ("co2", "expected", "paragraph", "eligible"),
    [
        (20, "2700.00", "1° a)", True),  # ≤ 20 g: 27 % × 10 000 = 2 700
        (21, "1000.00", "1° b)", True),  # « compris entre 21 et 60 »: 1 000 €
        (60, "1000.00", "1° b)", True),  # 60 g is still in b)
        (61, "0.00", "1°", False),  # above 60 g: not a vehicle of the 5° of D. 251-1
    ],
)
def test_first_co2_bands(catalogue: Catalogue, co2: int, expected: str, paragraph: str,
                         eligible: bool) -> None:
    a = award(catalogue, category=CAR, energy=Energy.PETROL_ELECTRIC_HYBRID, co2_g_per_km=co2,
              acquisition_cost="10000", buyer=NATURAL)
    assert (a.amount, a.eligible) == (Decimal(expected), eligible)
    assert a.paragraph == f"C. énergie, art. D. 251-7, {paragraph}"


@pytest.mark.parametrize(("co2", "expected"), [(0, "2700.00"), (45, "1000.00")])  # 27 % × 10 000; 1° b)
def test_vans_are_in_the_first(catalogue: Catalogue, co2: int, expected: str) -> None:
    a = award(catalogue, category=VAN, co2_g_per_km=co2, acquisition_cost="10000", buyer=LEGAL)
    assert a.amount == Decimal(expected)


def test_light_m2_n2_is_read_into_the_first_with_an_assumption(catalogue: Catalogue) -> None:
    a = award(catalogue, category=VehicleCategory.LIGHT_M2_N2, co2_g_per_km=0, acquisition_cost="30000",
              buyer=LEGAL)
    assert a.amount == Decimal("6000.00")  # 27 % × 30 000 = 8 100 > 6 000
    assert any(r.id == "light-m2-n2-in-d251-1-1-a" for r in a.readings)
    assert any("715/2007" in text for text in a.assumptions)


def test_electric_bicycle_is_not_in_d251_7(catalogue: Catalogue) -> None:
    # Before 2017-02-19 no text aided cycles (décret 2017-196 created their aid): a plain refusal.
    result = calculate(catalogue, purchase(JANUARY, category=VehicleCategory.ELECTRIC_BICYCLE,
                                           acquisition_cost="1500", buyer=NATURAL), Scheme.BONUS)
    assert result.status == "computed"
    a = award(catalogue, category=VehicleCategory.ELECTRIC_BICYCLE, acquisition_cost="1500", buyer=NATURAL)
    assert (a.amount, a.eligible) == (Decimal("0.00"), False) and "cycles à pédalage assisté" in a.reason


def test_d251_1_conditions_are_assumptions(catalogue: Catalogue) -> None:
    a = award(catalogue, category=CAR, co2_g_per_km=0, acquisition_cost="20000", buyer=NATURAL)
    assert any("D. 251-1" in text for text in a.assumptions)


# -- 2°: electric L vehicles ≥ 3 kW, 250 €/kWh, at most the lower of 27 % of the cost and 1 000 € ------------


@pytest.mark.parametrize(
    ("kwh", "cost", "battery", "expected"),
    [
        ("2", "5000", "0", "500.00"),  # 250 × 2 = 500; min(27 % × 5 000 = 1 350, 1 000) = 1 000; 500 is below
        ("5", "10000", "0", "1000.00"),  # 250 × 5 = 1 250; min(2 700, 1 000) = 1 000: the 1 000 € of b) binds
        ("5", "3000", "0", "810.00"),  # 1 250; min(27 % × 3 000 = 810, 1 000) = 810: the 27 % of a) binds
        ("5", "2000", "1000", "810.00"),  # 27 % × (2 000 + 1 000 battery lease) = 810 (540 without it)
        ("4", "10000", "0", "1000.00"),  # 250 × 4 = 1 000 = min(2 700, 1 000): exactly at the cap
        ("4", "3000", "0", "810.00"),  # 1 000 > min(810, 1 000) = 810
    ],
)
def test_second_per_kwh_and_the_lower_cap(catalogue: Catalogue, kwh: str, cost: str, battery: str,
                                          expected: str) -> None:
    a = award(catalogue, **electric_l(net_max_power_kw="3", battery_energy_kwh=kwh, acquisition_cost=cost,
                                      battery_rental_cost=Decimal(battery)))
    assert (a.amount, a.eligible) == (Decimal(expected), True)
    assert a.paragraph == "C. énergie, art. D. 251-7, 2°"


def test_second_at_and_below_3_kilowatts(catalogue: Catalogue) -> None:
    at = award(catalogue, **electric_l(net_max_power_kw="3", battery_energy_kwh="2", acquisition_cost="5000"))
    assert at.amount == Decimal("500.00")  # « supérieure ou égale à 3 kilowatts »: 250 × 2
    below = award(catalogue, **electric_l(net_max_power_kw="2.99", battery_energy_kwh="2",
                                          acquisition_cost="5000"))
    assert (below.amount, below.eligible) == (Decimal("0.00"), False)  # no 3° before 2017-02-19
    assert "3 kW" in below.reason


def test_second_lead_battery_is_refused(catalogue: Catalogue) -> None:
    a = award(catalogue, **electric_l(uses_lead_battery=True, net_max_power_kw="4", battery_energy_kwh="2",
                                      acquisition_cost="5000"))
    assert (a.amount, a.eligible) == (Decimal("0.00"), False)


def test_second_needs_electricity(catalogue: Catalogue) -> None:
    petrol = award(catalogue, **electric_l(energy=Energy.PETROL, net_max_power_kw="4", battery_energy_kwh="2",
                                           acquisition_cost="5000"))
    assert petrol.eligible is False and "6° of D. 251-1" in petrol.reason
    unknown = award(catalogue, **electric_l(energy=None, net_max_power_kw="4", battery_energy_kwh="2",
                                            acquisition_cost="5000"))
    assert unknown.amount == Decimal("500.00")  # 250 × 2
    assert any("electricity" in text for text in unknown.assumptions)


# -- missing facts are named -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("facts", "missing"),
    [
        ({"co2_g_per_km": 0, "acquisition_cost": "20000"}, "vehicle.category"),
        ({"category": CAR, "acquisition_cost": "20000"}, "vehicle.co2_g_per_km"),
        ({"category": CAR, "co2_g_per_km": 0}, "vehicle.acquisition_cost"),
        (electric_l(uses_lead_battery=None, net_max_power_kw="4"), "vehicle.uses_lead_battery"),
        (electric_l(battery_energy_kwh="2"), "vehicle.net_max_power_kw"),
        (electric_l(net_max_power_kw="4", acquisition_cost="5000"), "vehicle.battery_energy_kwh"),
        (electric_l(net_max_power_kw="4", battery_energy_kwh="2"), "vehicle.acquisition_cost"),
    ],
)
def test_missing_fact_is_named(catalogue: Catalogue, facts: dict[str, Any], missing: str) -> None:
    facts = {"buyer": NATURAL} | facts
    a = award(catalogue, **facts)
    assert a.eligible is None and a.missing_facts == (missing,)


# -- the resolver at the edges of the 2017 wordings, and the claim deadline of D. 251-13 -------------------


@pytest.mark.parametrize(
    ("decisive", "version"),
    [
        ("2016-12-31", None),  # before décret 2016-1980: the declared gap of 2016
        ("2017-01-01", "D251-7.2017-01-01"),  # first day (the day after the JORF of 31/12/2016)
        ("2017-02-18", "D251-7.2017-01-01"),  # last day (décret 2017-196 published that day)
        ("2017-02-19", "D251-7.2017-02-19"),  # décret 2017-196 in force the day after its publication
        ("2017-12-31", "D251-7.2017-02-19"),  # last day before décret 2017-1851
        ("2018-01-01", None),  # the 2018 wording is not on file: declared gap
    ],
)
def test_resolver_at_the_boundaries(catalogue: Catalogue, decisive: str, version: str | None) -> None:
    result = calculate(catalogue, purchase(decisive, category=CAR, co2_g_per_km=0, acquisition_cost="20000",
                                           buyer=NATURAL), Scheme.BONUS)
    found = result.resolution.version
    assert (found.id if found else None) == version
    if version is None:
        assert result.status == "no_version_on_file" and result.resolution.notes[0].startswith("declared gap")
    else:
        assert result.award is not None and result.award.amount == Decimal("5400.00")  # 27 % × 20 000


def test_a_lease_is_decided_by_its_first_rent(catalogue: Catalogue) -> None:
    lease = purchase(None, lease=True, order="2016-12-20", first_rent="2017-01-02", category=CAR,
                     co2_g_per_km=0, acquisition_cost="20000", buyer=NATURAL)
    result = calculate(catalogue, lease, Scheme.BONUS)
    assert result.resolution.decided_by == "first_rent_date"
    assert result.resolution.version is not None and result.resolution.version.id == "D251-7.2017-01-01"


@pytest.mark.parametrize(
    ("scheme", "invoice", "claim_by"),
    [
        (Scheme.BONUS, "2017-01-15", "2017-07-15"),  # « dans les six mois suivant la date de facturation »
        (Scheme.BONUS, "2017-02-18", "2017-08-18"),
        (Scheme.CONVERSION_PREMIUM, "2017-01-31", "2017-07-31"),  # D. 251-13 serves both aids
    ],
)
def test_claim_deadline_is_reported(catalogue: Catalogue, scheme: Scheme, invoice: str,
                                    claim_by: str) -> None:
    facts: dict[str, Any] = {"category": CAR, "co2_g_per_km": 0, "acquisition_cost": "20000",
                             "previously_registered": False, "buyer": NATURAL, "scrapped": {}}
    result = calculate(catalogue, purchase(invoice, **facts), scheme)
    assert result.claim_deadline is not None and result.claim_deadline.isoformat() == claim_by
    assert result.claim_deadline_citation == "C. énergie, art. D. 251-13, premier alinéa"


def test_claim_deadline_clamps_to_the_month_end() -> None:
    # invoice 2017-08-31 + 6 months: there is no 31 February, so 2018-02-28
    assert deadline_after_event(date(2017, 8, 31), 6) == date(2018, 2, 28)


def test_claim_deadline_is_not_reported_after_the_seeds_period(catalogue: Catalogue) -> None:
    # D. 251-13 is on file for 2017-01-01 → 2017-02-18 only; its later wording is not on file. (Were it the
    # same, an invoice of 2017-08-31 would give 2018-02-28: see the clamp test above.)
    bought = purchase("2017-08-31", category=CAR, co2_g_per_km=0, acquisition_cost="20000", buyer=NATURAL)
    result = calculate(catalogue, bought, Scheme.BONUS)
    assert result.resolution.version is not None and result.resolution.version.id == "D251-7.2017-02-19"
    assert result.claim_deadline is None
    assert "no claim-deadline text on file for 2017-08-31" in result.warnings


# -- 2017-02-19 (décret 2017-196): 1° and 2° unchanged, 3° added ---------------------------------------------


def march(catalogue: Catalogue, **kw: Any) -> Award:
    return award(catalogue, MARCH, "D251-7.2017-02-19", **kw)


@pytest.mark.parametrize(
    ("co2", "cost", "expected", "paragraph"),
    [
        (0, "20000", "5400.00", "1° a)"),  # 27 % × 20 000 = 5 400
        (0, "30000", "6000.00", "1° a)"),  # 8 100 > 6 000
        (21, "30000", "1000.00", "1° b)"),
        (60, "30000", "1000.00", "1° b)"),
    ],
)
def test_first_is_unchanged_from_2017_02_19(catalogue: Catalogue, co2: int, cost: str, expected: str,
                                            paragraph: str) -> None:
    a = march(catalogue, category=CAR, co2_g_per_km=co2, acquisition_cost=cost, buyer=NATURAL)
    assert (a.amount, a.paragraph) == (Decimal(expected), f"C. énergie, art. D. 251-7, {paragraph}")


def test_first_above_60_g_still_refused_from_2017_02_19(catalogue: Catalogue) -> None:
    a = march(catalogue, category=CAR, co2_g_per_km=61, acquisition_cost="30000", buyer=NATURAL)
    assert (a.amount, a.eligible) == (Decimal("0.00"), False)


@pytest.mark.parametrize(
    ("power", "kwh", "cost", "battery", "expected", "paragraph"),
    [
        ("3", "2", "5000", "0", "500.00", "2°"),  # at 3 kW: still 2°, 250 × 2 = 500
        ("3", "5", "3000", "0", "810.00", "2°"),  # 1 250 > min(27 % × 3 000 = 810, 1 000)
        ("2.99", "2", "800", "0", "160.00", "3°"),  # below 3 kW: 20 % × 800 = 160 < 200
        ("2.99", "2", "1000", "0", "200.00", "3°"),  # 20 % × 1 000 = 200, exactly the cap
        ("2.99", "2", "1500", "0", "200.00", "3°"),  # 20 % × 1 500 = 300 > 200: the cap binds
        ("1", "1", "800", "500", "160.00", "3°"),  # the 3° base is the cost alone: 20 % × 800, not × 1 300
    ],
)
def test_two_three_wheelers_from_2017_02_19(catalogue: Catalogue, power: str, kwh: str, cost: str,
                                          battery: str, expected: str, paragraph: str) -> None:
    a = march(catalogue, **electric_l(net_max_power_kw=power, battery_energy_kwh=kwh, acquisition_cost=cost,
                                      battery_rental_cost=Decimal(battery)))
    assert (a.amount, a.eligible) == (Decimal(expected), True)
    assert a.paragraph == f"C. énergie, art. D. 251-7, {paragraph}"


def test_third_cap_binds_only_above_200(catalogue: Catalogue) -> None:
    binding = march(catalogue, **electric_l(net_max_power_kw="2", acquisition_cost="1500"))
    assert any("the cap applies" in s.text for s in binding.steps)  # 300 > 200
    at_cap = march(catalogue, **electric_l(net_max_power_kw="2", acquisition_cost="1000"))
    assert any("the cap does not bind" in s.text for s in at_cap.steps)  # 200 ≤ 200


@pytest.mark.parametrize(
    "facts",
    [
        {"uses_lead_battery": True},  # « qui n'utilisent pas de batterie au plomb »
        {"energy": Energy.PETROL},  # the 6° of D. 251-1: electricity only
    ],
)
def test_third_excludes_lead_batteries_and_non_electric(catalogue: Catalogue, facts: dict[str, Any]) -> None:
    a = march(catalogue, **electric_l(net_max_power_kw="2", acquisition_cost="1000", **facts))
    assert (a.amount, a.eligible) == (Decimal("0.00"), False)


def test_third_names_a_missing_cost(catalogue: Catalogue) -> None:
    a = march(catalogue, **electric_l(net_max_power_kw="2"))
    assert a.eligible is None and a.missing_facts == ("vehicle.acquisition_cost",)


def test_electric_bicycle_from_2017_02_19_points_to_the_separate_aid(catalogue: Catalogue) -> None:
    # Issue 9, item 4: décret 2017-196 created a separate aid for « cycles à pédalage assisté », not on file. A
    # cycle is outside D. 251-7 but may be within that aid, so it is no longer answered « not eligible » (it
    # was: computed, 0.00, eligible false) but « not covered by the text on file », its amount unknown.
    bought = purchase(MARCH, category=VehicleCategory.ELECTRIC_BICYCLE, acquisition_cost="1500", buyer=NATURAL)
    result = calculate(catalogue, bought, Scheme.BONUS)
    assert result.status == "not_covered_on_file"
    a = result.award
    assert a is not None and a.version_id == "D251-7.2017-02-19"
    assert (a.amount, a.eligible, a.not_covered) == (None, None, True)
    assert "cycles à pédalage assisté" in a.reason and "not on file" in a.reason
    assert a.paragraph == "C. énergie, art. D. 251-7"


def test_short_lease_of_an_electric_bicycle_from_2017_02_19_is_not_refused(catalogue: Catalogue) -> None:
    # D. 251-1's two-year lease condition governs the bonus of D. 251-7, not décret 2017-196's separate aid for
    # cycles (not on file): a cycle leased for a year is not covered on file either, never « not eligible ».
    leased = replace(purchase(None, lease=True, first_rent="2017-03-15", category=VehicleCategory.ELECTRIC_BICYCLE,
                              acquisition_cost="1500", buyer=NATURAL), lease_duration_months=12)
    result = calculate(catalogue, leased, Scheme.BONUS)
    assert result.status == "not_covered_on_file"
    assert result.award is not None and (result.award.amount, result.award.eligible) == (None, None)
