"""C. énergie D. 251-7, version 2020-06-01 (seed 000): every paragraph at its boundaries.

Expected amounts come from the text, with the arithmetic next to them.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from legislation import Catalogue, CritAir, Energy, PersonKind, PowerBasis, Scheme, VehicleCategory, calculate
from tests.builders import purchase

INVOICE = "2020-07-15"
NATURAL = {"person_kind": PersonKind.NATURAL_PERSON}
LEGAL = {"person_kind": PersonKind.LEGAL_PERSON}
CAR = VehicleCategory.PASSENGER_CAR


def award(catalogue: Catalogue, **kw):  # type: ignore[no-untyped-def]
    result = calculate(catalogue, purchase(INVOICE, **kw), Scheme.BONUS)
    assert result.resolution.version is not None and result.resolution.version.id == "D251-7.2020-06-01"
    return result.award


@pytest.mark.parametrize(
    ("cost", "buyer", "expected", "paragraph"),
    [
        ("20000", NATURAL, "5400.00", "1°"),  # 27 % × 20 000 = 5 400 < 7 000: rate binds
        ("30000", NATURAL, "7000.00", "1°"),  # 27 % × 30 000 = 8 100 > 7 000: cap binds
        ("25925.93", NATURAL, "7000.00", "1°"),  # 27 % × 25 925.93 = 7 000.0011 → cap 7 000
        ("18500", LEGAL, "4995.00", "1°"),  # 27 % × 18 500 = 4 995 < 5 000: rate binds for a legal person
        ("18518.51", NATURAL, "5000.00", "1°"),  # 27 % × 18 518.51 = 4 999.9977 → rounded to the cent 5 000.00
        ("30000", LEGAL, "5000.00", "1°"),  # 8 100 > 5 000: legal-person cap
        ("44999.99", NATURAL, "7000.00", "1°"),  # just under 45 000: still 1°
        ("45000", NATURAL, "3000.00", "2°"),  # « compris entre 45 000 et 60 000 »: exactly 45 000 is 2°
        ("60000", NATURAL, "3000.00", "2°"),  # exactly 60 000 still 2°
        ("60000.01", NATURAL, "0.00", "3°"),  # above 60 000: a petrol-free car that is not a van: nothing
    ],
)
def test_zero_emission_car_price_bands(
    catalogue: Catalogue, cost: str, buyer: dict, expected: str, paragraph: str
) -> None:
    a = award(catalogue, category=CAR, energy=Energy.ELECTRIC, co2_g_per_km=0, acquisition_cost=cost, buyer=buyer)
    assert a.amount == Decimal(expected)
    assert a.paragraph.endswith(paragraph)


def test_state_administration_takes_the_legal_person_cap(catalogue: Catalogue) -> None:
    a = award(
        catalogue,
        category=CAR,
        co2_g_per_km=0,
        acquisition_cost="30000",
        buyer={"person_kind": PersonKind.STATE_ADMINISTRATION},
    )
    assert a.amount == Decimal("5000.00")  # 8 100 > 5 000
    assert any(r.id == "state-is-legal-person" for r in a.readings)


def test_battery_rental_counts_in_price_and_base(catalogue: Catalogue) -> None:
    # 40 000 + 5 000 battery lease = 45 000: « incluant … location de la batterie » → 2°, 3 000
    a = award(
        catalogue,
        category=CAR,
        co2_g_per_km=0,
        acquisition_cost="40000",
        battery_rental_cost=Decimal("5000"),
        buyer=NATURAL,
    )
    assert a.amount == Decimal("3000.00") and a.paragraph.endswith("2°")


@pytest.mark.parametrize(
    ("category", "energy", "expected"),
    [
        (VehicleCategory.VAN, Energy.ELECTRIC, "3000.00"),  # 3°: van > 60 000
        (CAR, Energy.HYDROGEN, "3000.00"),  # 3°: hydrogen > 60 000
        (CAR, Energy.ELECTRIC, "0.00"),  # no paragraph for an electric car > 60 000
    ],
)
def test_above_60000(catalogue: Catalogue, category: VehicleCategory, energy: Energy, expected: str) -> None:
    a = award(catalogue, category=category, energy=energy, co2_g_per_km=0, acquisition_cost="75000", buyer=NATURAL)
    assert a.amount == Decimal(expected)


@pytest.mark.parametrize(
    ("co2", "cost", "city_range", "expected", "eligible"),
    [
        (20, "30000", "60", "7000.00", True),  # 20 g is still 1° (≤ 20)
        (21, "30000", "60", "2000.00", True),  # 21 g: 7°
        (50, "50000", "51", "2000.00", True),  # 50 g, exactly 50 000 (≤), range 51 > 50
        (50, "50000.01", "60", "0.00", False),  # cost above 50 000
        (35, "40000", "50", "0.00", False),  # range must be above 50 km
        (51, "30000", "80", "0.00", False),  # 51 g: no paragraph
    ],
)
def test_co2_bands_and_plug_in_hybrids(
    catalogue: Catalogue, co2: int, cost: str, city_range: str, expected: str, eligible: bool
) -> None:
    a = award(
        catalogue,
        category=CAR,
        energy=Energy.PETROL_ELECTRIC_HYBRID,
        co2_g_per_km=co2,
        acquisition_cost=cost,
        city_electric_range_km=city_range,
        buyer=NATURAL,
    )
    assert (a.amount, a.eligible) == (Decimal(expected), eligible)


L = VehicleCategory.TWO_THREE_WHEELER


@pytest.mark.parametrize(
    ("power", "basis", "kwh", "cost", "expected", "paragraph"),
    [
        (
            "2",
            PowerBasis.REGULATION_EU_168_2013,
            "2",
            "5000",
            "500.00",
            "4°",
        ),  # 250 × 2 = 500; 27 % × 5 000 = 1 350; min(1 350, 900) = 900 > 500
        ("2", PowerBasis.REGULATION_EU_168_2013, "5", "10000", "900.00", "4°"),  # 250 × 5 = 1 250 > 900 cap
        (
            "4",
            PowerBasis.REGULATION_EU_168_2013,
            "5",
            "2000",
            "540.00",
            "4°",
        ),  # 1 250 > 27 % × 2 000 = 540 (lower than 900)
        ("1.9", PowerBasis.REGULATION_EU_168_2013, "2", "400", "80.00", "5°"),  # < 2 kW: 20 % × 400 = 80
        ("1.9", PowerBasis.REGULATION_EU_168_2013, "2", "2000", "100.00", "5°"),  # 20 % × 2 000 = 400 > 100 cap
        ("2.5", PowerBasis.DIRECTIVE_2002_24_EC, "2", "2000", "100.00", "5°"),  # under the directive the bar is 3 kW
        ("3", PowerBasis.DIRECTIVE_2002_24_EC, "2", "5000", "500.00", "4°"),  # 3 kW under the directive: 4°
    ],
)
def test_two_three_wheelers(
    catalogue: Catalogue, power: str, basis: PowerBasis, kwh: str, cost: str, expected: str, paragraph: str
) -> None:
    a = award(
        catalogue,
        category=L,
        uses_lead_battery=False,
        net_max_power_kw=power,
        power_basis=basis,
        battery_energy_kwh=kwh,
        acquisition_cost=cost,
        buyer=NATURAL,
    )
    assert a.amount == Decimal(expected) and a.paragraph.endswith(paragraph)


def test_lead_battery_is_not_aided(catalogue: Catalogue) -> None:
    a = award(
        catalogue,
        category=L,
        uses_lead_battery=True,
        net_max_power_kw="4",
        power_basis=PowerBasis.REGULATION_EU_168_2013,
        battery_energy_kwh="2",
        acquisition_cost="3000",
        buyer=NATURAL,
    )
    assert (a.amount, a.eligible) == (Decimal("0.00"), False)


@pytest.mark.parametrize(
    ("cost", "expected"), [("10000", "2700.00"), ("20000", "4000.00")]
)  # 27 % × 10 000; 5 400 > 4 000
def test_light_m2_n2(catalogue: Catalogue, cost: str, expected: str) -> None:
    a = award(catalogue, category=VehicleCategory.LIGHT_M2_N2, acquisition_cost=cost, buyer=NATURAL)
    assert a.amount == Decimal(expected) and a.paragraph.endswith("6°")


def test_electric_bicycle_is_not_in_this_text(catalogue: Catalogue) -> None:
    a = award(catalogue, category=VehicleCategory.ELECTRIC_BICYCLE, acquisition_cost="1500", buyer=NATURAL)
    assert a.eligible is False


def test_missing_price_is_named(catalogue: Catalogue) -> None:
    a = award(catalogue, category=CAR, co2_g_per_km=0, buyer=NATURAL, critair=CritAir.ELECTRIC)
    assert a.eligible is None and a.missing_facts == ("vehicle.acquisition_cost",)


@pytest.mark.parametrize(
    ("power", "kwh", "cost", "expected", "paragraph"),
    [
        # 4 kW ≥ 2 kW (règlement) and ≥ 3 kW (directive): 4° whatever the instrument;
        # 250 × 2.3 = 575; 27 % × 3 500 = 945; min(945, 900) = 900 > 575 → 575.00
        ("4", "2.3", "3500", "575.00", "4°"),
        # 3 kW is ≥ both thresholds (« supérieure ou égale »): 4°;
        # 250 × 2 = 500 ≤ min(27 % × 5 000, 900) = 900 → 500.00
        ("3", "2", "5000", "500.00", "4°"),
        # 1.5 kW < 2 kW and < 3 kW: 5° whatever the instrument; 20 % × 1 800 = 360 > 100 cap → 100.00
        ("1.5", "1.2", "1800", "100.00", "5°"),
    ],
)
def test_power_basis_not_asked_when_both_thresholds_agree(
    catalogue: Catalogue, power: str, kwh: str, cost: str, expected: str, paragraph: str
) -> None:
    a = award(
        catalogue,
        category=L,
        energy=Energy.ELECTRIC,
        uses_lead_battery=False,
        net_max_power_kw=power,
        battery_energy_kwh=kwh,
        acquisition_cost=cost,
        buyer=NATURAL,
    )
    assert a.missing_facts == ()
    assert a.amount == Decimal(expected) and a.paragraph.endswith(paragraph)


def test_power_basis_asked_between_the_two_thresholds(catalogue: Catalogue) -> None:
    # 2.5 kW: ≥ 2 kW under règlement (UE) 168/2013 (4°) but < 3 kW under directive 2002/24/CE (5°)
    a = award(
        catalogue,
        category=L,
        energy=Energy.ELECTRIC,
        uses_lead_battery=False,
        net_max_power_kw="2.5",
        battery_energy_kwh="2",
        acquisition_cost="2000",
        buyer=NATURAL,
    )
    assert a.eligible is None and a.missing_facts == ("vehicle.power_basis",)


@pytest.mark.parametrize("energy", [Energy.PETROL, Energy.PETROL_ELECTRIC_HYBRID])
def test_non_electric_two_wheeler_is_not_a_vehicle_of_the_6th(catalogue: Catalogue, energy: Energy) -> None:
    # 4° and 5° cover the vehicles of the 6° of D. 251-1 (electric L vehicles): a petrol scooter gets nothing,
    # even with every fact of 4° given (it used to get 250 × 1 = 250 € as an « electric L vehicle »).
    a = award(
        catalogue,
        category=L,
        energy=energy,
        uses_lead_battery=False,
        net_max_power_kw="8",
        power_basis=PowerBasis.REGULATION_EU_168_2013,
        battery_energy_kwh="1",
        acquisition_cost="3000",
        buyer=NATURAL,
    )
    assert (a.amount, a.eligible) == (Decimal("0.00"), False)
    assert any(r.id == "l-vehicle-electric-only" for r in a.readings)


def test_plug_in_hybrid_ceiling_leaves_out_a_leased_battery(catalogue: Catalogue) -> None:
    # 7°: « coût d'acquisition … inférieur ou égal à 50 000 euros TTC », without the « incluant … batterie »
    # of 1° to 3°: 48 000 ≤ 50 000 (the 4 000 € battery lease is not added) → 2 000 €.
    a = award(
        catalogue,
        category=CAR,
        energy=Energy.PETROL_ELECTRIC_HYBRID,
        co2_g_per_km=35,
        acquisition_cost="48000",
        battery_rental_cost=Decimal("4000"),
        city_electric_range_km="60",
        buyer=NATURAL,
    )
    assert (a.amount, a.paragraph.endswith("7°")) == (Decimal("2000.00"), True)
    assert any(r.id == "2020-7-ceiling-without-battery" for r in a.readings)


def _with_order(catalogue: Catalogue, order: str, invoice: str, **vehicle):  # type: ignore[no-untyped-def]
    p = purchase(
        invoice,
        order=order,
        category=CAR,
        energy=Energy.ELECTRIC,
        co2_g_per_km=0,
        acquisition_cost="40000",
        buyer=LEGAL,
        **vehicle,
    )
    return calculate(catalogue, p, Scheme.BONUS)


def test_decree_2019_1526_art2_open_for_a_2019_order_invoiced_by_23_september_2020(catalogue: Catalogue) -> None:
    # Décret 2019-1526 art. 2 (wording in force from 2020-06-01): a new vehicle ordered before 2020-01-01 and
    # invoiced « au plus tard le 23 septembre 2020 » keeps the 2019 D. 251-7 if more favourable. That version is
    # not on file: the amount shown is this version's (27 % × 40 000 = 10 800 > 5 000 legal-person cap → 5 000),
    # a lower bound, and the answer says so.
    r = _with_order(catalogue, "2019-12-31", "2020-09-23", previously_registered=False)
    assert [c.open for c in r.resolution.clauses] == [True]
    assert r.status == "kept_version_not_on_file"
    assert r.award is not None and r.award.amount == Decimal("5000.00")
    assert any("decret-2019-1526-art2" in w and "lower bound" in w for w in r.warnings)


@pytest.mark.parametrize(
    ("order", "invoice", "registered"),
    [
        ("2020-01-01", "2020-07-15", False),  # ordered on the decree's entry into force: not « avant cette date »
        ("2019-12-31", "2020-09-24", False),  # invoiced after 23 September 2020
    ],
)
def test_decree_2019_1526_art2_closed(catalogue: Catalogue, order: str, invoice: str, registered: bool) -> None:
    r = _with_order(catalogue, order, invoice, previously_registered=registered)
    assert [c.open for c in r.resolution.clauses] == [False]
    assert r.status == "computed" and r.award is not None and r.award.amount == Decimal("5000.00")


def test_decree_2019_1526_art2_closed_to_a_used_vehicle_which_d251_1_2_refuses(catalogue: Catalogue) -> None:
    # « qui n'ont pas fait l'objet précédemment d'une première immatriculation »: the clause stays closed, and the
    # vehicle the request says was registered before is refused under D. 251-1, 2° (never paid on an assumption).
    r = _with_order(catalogue, "2019-12-31", "2020-07-15", previously_registered=True)
    assert [c.open for c in r.resolution.clauses] == [False]
    assert r.status == "computed" and r.award is not None
    assert r.award.amount == Decimal("0.00") and r.award.eligible is False
    assert r.award.paragraph == "C. énergie, art. D. 251-1, 2°"
    assert not any("never registered" in a for a in r.award.assumptions)
