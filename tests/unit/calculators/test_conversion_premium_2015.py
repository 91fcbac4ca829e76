"""Décret n° 2014-1672, art. 4 in 2015: the 200 € majoration (initial wording, 2015-01-01) and the prime à
la conversion of décret n° 2015-361 (2015-04-01), with the transitional art. 4 of décret 2015-361.

Expected amounts come from the text, with the arithmetic or the rule next to them.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from typing import Any

import pytest

from legislation import Catalogue, Energy, EuroStandard, PersonKind, Scheme, VehicleCategory, calculate
from tests.builders import d, purchase

INITIAL = "decret-2014-1672-art4.2015-01-01"
AMENDED = "decret-2014-1672-art4.2015-04-01"
CAR = VehicleCategory.PASSENGER_CAR
NATURAL = PersonKind.NATURAL_PERSON
HOUSEHOLD = {"person_kind": NATURAL, "income_tax_nil": True}


def scrapped(**kw: Any) -> dict[str, Any]:
    """A diesel passenger car first registered in 1998, owned since 2010, destroyed on 2015-05-20."""
    facts: dict[str, Any] = {
        "energy": Energy.DIESEL, "category": CAR, "first_registration_date": d("1998-03-01"),
        "owned_since": d("2010-01-01"), "destruction_date": d("2015-05-20"),
    }  # fmt: skip
    facts.update({k: d(v) if type(v) is str else v for k, v in kw.items()})  # enums are str too
    return facts


def result(catalogue: Catalogue, invoice: str | None, version: str | None, **kw: Any):  # type: ignore[no-untyped-def]
    kw.setdefault("category", CAR)
    kw.setdefault("acquisition_cost", "25000")
    kw.setdefault("scrapped", scrapped())
    months = kw.pop("lease_months", None)
    p = purchase(invoice, scheme=Scheme.CONVERSION_PREMIUM, **kw)
    if months is not None:
        p = replace(p, lease_duration_months=months)
    r = calculate(catalogue, p, Scheme.CONVERSION_PREMIUM)
    if version is not None:
        assert r.award is not None and r.award.version_id == version
    return r


# ==========================================================================================================
# Initial wording (2015-01-01 → 2015-03-31): 200 € majoration
# ==========================================================================================================


def initial(catalogue: Catalogue, invoice: str = "2015-02-15", **kw: Any):  # type: ignore[no-untyped-def]
    kw.setdefault("co2_g_per_km", 0)
    kw.setdefault("scrapped", scrapped(destruction_date="2015-02-20"))
    return result(catalogue, invoice, INITIAL, **kw).award


def test_majoration_is_200_euros(catalogue: Catalogue) -> None:
    a = initial(catalogue)
    assert (a.amount, a.eligible, a.paragraph) == (Decimal("200.00"), True, "décret n° 2014-1672, art. 4, I")
    assert any(r.id == "2015-majoration-needs-art1-eligibility" for r in a.readings)


@pytest.mark.parametrize("kind", list(PersonKind))
def test_majoration_does_not_depend_on_the_person(catalogue: Catalogue, kind: PersonKind) -> None:
    assert initial(catalogue, buyer={"person_kind": kind}).amount == Decimal("200.00")


def test_majoration_any_fuel_and_vans(catalogue: Catalogue) -> None:
    # the initial wording has no fuel condition; 1° admits the categories of art. 1, I, 1° (vans included)
    a = initial(
        catalogue,
        scrapped=scrapped(energy=Energy.PETROL, category=VehicleCategory.VAN, destruction_date="2015-02-20"),
    )
    assert a.amount == Decimal("200.00")


def test_majoration_without_scrapped_vehicle_is_refused(catalogue: Catalogue) -> None:
    r = calculate(
        catalogue,
        purchase(
            "2015-02-15",
            scheme=Scheme.CONVERSION_PREMIUM,
            category=CAR,
            co2_g_per_km=0,
            acquisition_cost="25000",
        ),
        Scheme.CONVERSION_PREMIUM,
    )
    assert r.award is not None
    assert (r.award.eligible, r.award.paragraph) == (False, "décret n° 2014-1672, art. 4, I")


def test_majoration_needs_a_vehicle_eligible_to_art_1(catalogue: Catalogue) -> None:
    a = initial(catalogue, energy=Energy.PETROL, co2_g_per_km=100)  # petrol car 100 g/km: above 60 g/km
    assert (a.eligible, a.paragraph) == (False, "décret n° 2014-1672, art. 1, I, 5° a)")
    assert "art. 4, I" in a.reason


@pytest.mark.parametrize(
    ("order", "invoice", "expected"),
    [
        ("2014-12-31", "2015-03-31", "200.00"),  # art. 1, 5° a) transitional 90 g/km ceiling open
        ("2015-01-01", "2015-03-31", "0.00"),  # ordered on the entry into force: 60 g/km ceiling
    ],
)
def test_majoration_with_the_transitional_90_g_ceiling(
    catalogue: Catalogue, order: str, invoice: str, expected: str
) -> None:
    a = initial(
        catalogue,
        invoice,
        order=order,
        energy=Energy.PETROL,
        co2_g_per_km=90,
        scrapped=scrapped(destruction_date="2015-03-01"),
    )
    assert a.amount == Decimal(expected)


@pytest.mark.parametrize(
    ("first_registration", "eligible"),
    [
        ("2000-02-15", True),
        ("2000-02-16", False),
    ],  # « depuis au moins quinze ans » on the invoice date 2015-02-15
)
def test_majoration_fifteen_years(catalogue: Catalogue, first_registration: str, eligible: bool) -> None:
    a = initial(
        catalogue,
        scrapped=scrapped(first_registration_date=first_registration, destruction_date="2015-02-20"),
    )
    assert a.eligible is eligible
    if not eligible:
        assert a.paragraph.endswith("I, 2°")


@pytest.mark.parametrize(
    ("owned_since", "eligible"), [("2014-08-15", True), ("2014-08-16", False)]
)  # six months
def test_majoration_owned_six_months(catalogue: Catalogue, owned_since: str, eligible: bool) -> None:
    a = initial(catalogue, scrapped=scrapped(owned_since=owned_since, destruction_date="2015-02-20"))
    assert a.eligible is eligible
    if not eligible:
        assert a.paragraph.endswith("I, 4°")


@pytest.mark.parametrize(
    ("destroyed", "eligible"),
    [
        ("2014-08-14", False),  # invoice 2015-02-15: six months before starts 2014-08-15
        ("2014-08-15", True),
        ("2015-08-15", True),  # six months after: until 2015-08-15
        ("2015-08-16", False),
    ],
)
def test_majoration_destruction_window(catalogue: Catalogue, destroyed: str, eligible: bool) -> None:
    a = initial(catalogue, scrapped=scrapped(destruction_date=destroyed))
    assert a.eligible is eligible
    if not eligible:
        assert a.paragraph.endswith("I, 8°")


def test_majoration_two_wheeler_scrapped_is_refused(catalogue: Catalogue) -> None:
    a = initial(
        catalogue,
        scrapped=scrapped(category=VehicleCategory.TWO_THREE_WHEELER, destruction_date="2015-02-20"),
    )
    assert (a.eligible, a.paragraph) == (False, "décret n° 2014-1672, art. 4, I, 1°")


def test_majoration_lease_counts_from_the_first_rent(catalogue: Catalogue) -> None:
    r = result(
        catalogue,
        None,
        INITIAL,
        first_rent="2015-02-15",
        lease=True,
        lease_months=36,
        co2_g_per_km=0,
        scrapped=scrapped(destruction_date="2014-08-15"),
    )
    assert r.award.amount == Decimal("200.00")
    assert any(x.id == "2015-destruction-window-lease" for x in r.award.readings)


@pytest.mark.parametrize(
    "missing",
    ["category", "first_registration_date", "owned_since", "destruction_date"],
)
def test_majoration_missing_scrapped_facts_are_named(catalogue: Catalogue, missing: str) -> None:
    facts = scrapped(destruction_date="2015-02-20")
    facts[missing] = None
    a = initial(catalogue, scrapped=facts)
    assert a.eligible is None and a.missing_facts == (f"scrapped_vehicle.{missing}",)


# ==========================================================================================================
# Wording of décret 2015-361 (2015-04-01 → 2015-12-31): aide complémentaire
# ==========================================================================================================


def amended(catalogue: Catalogue, invoice: str = "2015-05-15", **kw: Any):  # type: ignore[no-untyped-def]
    return result(catalogue, invoice, AMENDED, **kw).award


@pytest.mark.parametrize(
    ("co2", "expected", "paragraph"),
    [
        (0, "3700.00", "II, 1°"),
        (20, "3700.00", "II, 1°"),
        (21, "2500.00", "II, 2°"),
        (60, "2500.00", "II, 2°"),
    ],
)
@pytest.mark.parametrize("kind", [PersonKind.NATURAL_PERSON, PersonKind.LEGAL_PERSON])
def test_new_low_emission_cars(
    catalogue: Catalogue, co2: int, expected: str, paragraph: str, kind: PersonKind
) -> None:
    a = amended(catalogue, co2_g_per_km=co2, previously_registered=False, buyer={"person_kind": kind})
    assert a.amount == Decimal(expected) and a.paragraph == f"décret n° 2014-1672, art. 4, {paragraph}"
    assert a.alternatives == () and a.missing_facts == ()


def test_new_ev_for_a_non_taxable_household_keeps_1_and_shows_4(catalogue: Catalogue) -> None:
    a = amended(catalogue, co2_g_per_km=0, buyer=HOUSEHOLD)
    assert a.amount == Decimal("3700.00") and a.paragraph.endswith("II, 1°")  # 3 700 > 500
    assert [(s.citation, s.amount) for s in a.alternatives] == [
        ("décret n° 2014-1672, art. 4, II, 4°", Decimal("500"))
    ]
    assert any(r.id == "alternative-cases-most-favourable" for r in a.readings)


@pytest.mark.parametrize(
    ("co2", "expected", "paragraph"),
    [
        (61, "500.00", "II, 3°"),  # new Euro 6 car 61–110 g/km, non-taxable household: 3° (4° shown)
        (110, "500.00", "II, 3°"),
        (111, "0.00", "II"),  # above 110 g/km: no case
    ],
)
def test_new_61_110_for_a_household(catalogue: Catalogue, co2: int, expected: str, paragraph: str) -> None:
    a = amended(catalogue, co2_g_per_km=co2, euro_standard=EuroStandard.EURO_6, buyer=HOUSEHOLD)
    assert a.amount == Decimal(expected) and a.paragraph == f"décret n° 2014-1672, art. 4, {paragraph}"
    if expected != "0.00":
        assert [s.citation for s in a.alternatives] == ["décret n° 2014-1672, art. 4, II, 4°"]


@pytest.mark.parametrize(
    ("buyer", "euro", "eligible", "paragraph"),
    [
        (HOUSEHOLD, EuroStandard.EURO_5, False, "II, 3°"),  # not Euro 6
        (
            {"person_kind": NATURAL, "income_tax_nil": False},
            EuroStandard.EURO_6,
            False,
            "II",
        ),  # income tax not nil
        ({"person_kind": PersonKind.LEGAL_PERSON}, EuroStandard.EURO_6, False, "II"),  # not a natural person
    ],
)
def test_61_110_conditions(
    catalogue: Catalogue, buyer: dict[str, Any], euro: EuroStandard, eligible: bool, paragraph: str
) -> None:
    a = amended(catalogue, co2_g_per_km=90, euro_standard=euro, buyer=buyer)
    assert (a.eligible, a.paragraph) == (eligible, f"décret n° 2014-1672, art. 4, {paragraph}")


@pytest.mark.parametrize(
    ("co2", "euro", "buyer", "expected"),
    [
        (0, None, HOUSEHOLD, "500.00"),  # used car ≤ 60 g/km: 4° without Euro 6
        (60, None, HOUSEHOLD, "500.00"),
        (61, EuroStandard.EURO_6, HOUSEHOLD, "500.00"),  # used Euro 6 car 61–110 g/km: 4°
        (110, EuroStandard.EURO_6, HOUSEHOLD, "500.00"),
        (0, None, {"person_kind": PersonKind.LEGAL_PERSON}, "0.00"),  # a used car for a company: nothing
        (0, None, {"person_kind": NATURAL, "income_tax_nil": False}, "0.00"),  # taxable household
    ],
)
def test_used_cars_only_4(
    catalogue: Catalogue, co2: int, euro: EuroStandard | None, buyer: dict[str, Any], expected: str
) -> None:
    a = amended(catalogue, co2_g_per_km=co2, euro_standard=euro, previously_registered=True, buyer=buyer)
    assert a.amount == Decimal(expected)
    if expected != "0.00":
        assert a.paragraph.endswith("II, 4°") and a.alternatives == ()


def test_euro6_scope_reading_for_a_used_ev(catalogue: Catalogue) -> None:
    a = amended(catalogue, co2_g_per_km=0, previously_registered=True, buyer=HOUSEHOLD)
    assert any(r.id == "2015-04-ii-4-euro6-scope" for r in a.readings)


@pytest.mark.parametrize(
    ("facts", "missing"),
    [
        ({"co2_g_per_km": 90, "buyer": HOUSEHOLD}, "vehicle.euro_standard"),
        (
            {"co2_g_per_km": 90, "euro_standard": EuroStandard.EURO_6, "buyer": {"person_kind": NATURAL}},
            "buyer.income_tax_nil",
        ),
        ({"co2_g_per_km": 0, "previously_registered": True, "buyer": {}}, "buyer.person_kind"),
        ({"buyer": HOUSEHOLD}, "vehicle.co2_g_per_km"),
    ],
)
def test_missing_facts_are_named(catalogue: Catalogue, facts: dict[str, Any], missing: str) -> None:
    a = amended(catalogue, **facts)
    assert a.eligible is None and a.missing_facts == (missing,)


def test_household_facts_are_not_needed_for_a_new_ev(catalogue: Catalogue) -> None:
    a = amended(catalogue, co2_g_per_km=0, buyer={})
    assert a.amount == Decimal("3700.00") and a.missing_facts == ()


@pytest.mark.parametrize(
    "buyer",
    [{"person_kind": PersonKind.LEGAL_PERSON}, {"person_kind": NATURAL, "income_tax_nil": False}],
)
def test_euro_standard_not_asked_when_the_buyer_closes_3_and_4(
    catalogue: Catalogue, buyer: dict[str, Any]
) -> None:
    # A new car of 95 g/km: 1° and 2° stop at 60 g/km; 3° and 4° need « une personne physique dont la
    # cotisation d'impôt sur le revenu … est nulle ». A company or a taxable household gets nothing whatever
    # the car's Euro standard, so vehicle.euro_standard is not asked.
    a = amended(catalogue, co2_g_per_km=95, previously_registered=False, buyer=buyer)
    assert a.missing_facts == () and (a.amount, a.eligible) == (Decimal("0.00"), False)


# -- I: the car acquired and the scrapped car ----------------------------------------------------------------


def test_no_scrapped_vehicle_is_refused(catalogue: Catalogue) -> None:
    a = amended(catalogue, co2_g_per_km=0, scrapped=None)
    assert (a.eligible, a.paragraph) == (False, "décret n° 2014-1672, art. 4, I")


def test_the_car_acquired_must_be_a_passenger_car(catalogue: Catalogue) -> None:
    a = amended(catalogue, category=VehicleCategory.VAN, co2_g_per_km=0)
    assert (a.eligible, a.paragraph) == (False, "décret n° 2014-1672, art. 4, I")


@pytest.mark.parametrize(
    ("energy", "eligible"),
    [
        (Energy.DIESEL, True),
        (Energy.DIESEL_ELECTRIC_HYBRID, True),
        (Energy.PETROL, False),
        (Energy.LPG, False),
    ],
)
def test_scrapped_car_uses_gazole(catalogue: Catalogue, energy: Energy, eligible: bool) -> None:
    a = amended(catalogue, co2_g_per_km=0, scrapped=scrapped(energy=energy))
    assert a.eligible is eligible


def test_scrapped_vehicle_must_be_a_passenger_car(catalogue: Catalogue) -> None:
    a = amended(catalogue, co2_g_per_km=0, scrapped=scrapped(category=VehicleCategory.VAN))
    assert (a.eligible, a.paragraph) == (False, "décret n° 2014-1672, art. 4, I, 1°")


@pytest.mark.parametrize(("first_registration", "eligible"), [("2000-12-31", True), ("2001-01-01", False)])
def test_scrapped_first_registered_before_2001(
    catalogue: Catalogue, first_registration: str, eligible: bool
) -> None:
    a = amended(catalogue, co2_g_per_km=0, scrapped=scrapped(first_registration_date=first_registration))
    assert a.eligible is eligible


@pytest.mark.parametrize(
    ("owned_since", "eligible"), [("2014-05-15", True), ("2014-05-16", False)]
)  # one year
def test_scrapped_owned_one_year(catalogue: Catalogue, owned_since: str, eligible: bool) -> None:
    a = amended(catalogue, co2_g_per_km=0, scrapped=scrapped(owned_since=owned_since))
    assert a.eligible is eligible


@pytest.mark.parametrize(
    ("destroyed", "eligible"),
    [
        ("2015-05-14", False),  # the day before the invoice: not « dans les six mois suivant »
        ("2015-05-15", True),  # the invoice date
        ("2015-11-15", True),  # six months after
        ("2015-11-16", False),
    ],
)
def test_destruction_in_the_six_months_following(
    catalogue: Catalogue, destroyed: str, eligible: bool
) -> None:
    a = amended(catalogue, co2_g_per_km=0, scrapped=scrapped(destruction_date=destroyed))
    assert a.eligible is eligible


@pytest.mark.parametrize(("months", "expected"), [(24, "3700.00"), (23, "0.00")])
def test_lease_of_two_years(catalogue: Catalogue, months: int, expected: str) -> None:
    r = result(
        catalogue, None, AMENDED, first_rent="2015-05-15", lease=True, lease_months=months, co2_g_per_km=0
    )
    assert r.resolution.decided_by == "first_rent_date" and r.award.amount == Decimal(expected)


def test_missing_scrapped_energy_is_named(catalogue: Catalogue) -> None:
    a = amended(catalogue, co2_g_per_km=0, scrapped=scrapped(energy=None))
    assert a.missing_facts == ("scrapped_vehicle.energy",)


# ==========================================================================================================
# Décret 2015-361, art. 4: orders before 2015-04-01 invoiced before 2015-07-01 keep the 200 € majoration
# ==========================================================================================================


@pytest.mark.parametrize(
    ("order", "invoice", "version", "expected", "kept_by"),
    [
        (
            "2015-03-31",
            "2015-06-30",
            INITIAL,
            "200.00",
            "decret-2015-361-art4-transitoire",
        ),  # previous wording
        ("2015-03-31", "2015-07-01", AMENDED, "3700.00", None),  # « avant le 1er juillet 2015 »: closed
        (
            "2015-04-01",
            "2015-05-15",
            AMENDED,
            "3700.00",
            None,
        ),  # ordered on the entry into force: not « antérieurement »
    ],
)
def test_decret_2015_361_transitional_window(
    catalogue: Catalogue, order: str, invoice: str, version: str, expected: str, kept_by: str | None
) -> None:
    r = result(
        catalogue, invoice, version, order=order, co2_g_per_km=0, scrapped=scrapped(destruction_date=invoice)
    )
    assert r.award.amount == Decimal(expected) and r.kept_by == kept_by


def test_the_previous_wording_applies_even_when_less_favourable(catalogue: Catalogue) -> None:
    # « restent applicables »: the 200 € majoration replaces the 3 700 € of II, 1°; both computed and shown
    r = result(
        catalogue,
        "2015-06-30",
        INITIAL,
        order="2015-03-15",
        co2_g_per_km=0,
        scrapped=scrapped(destruction_date="2015-06-30"),
    )
    assert [(a.version_id, a.amount) for a in r.compared] == [
        (AMENDED, Decimal("3700.00")),
        (INITIAL, Decimal("200.00")),
    ]
    clause = r.resolution.open_clauses[0].clause
    assert (clause.decisive_on_or_before, clause.deadline_basis.value) == (d("2015-06-30"), "explicit")
    assert clause.source is not None and clause.source.nor == "DEVR1506261D"


def test_the_previous_wording_keeps_its_own_conditions(catalogue: Catalogue) -> None:
    # a petrol car of 15 years or more qualified for the majoration (no fuel condition in the initial wording)
    r = result(
        catalogue,
        "2015-06-30",
        INITIAL,
        order="2015-03-15",
        co2_g_per_km=0,
        scrapped=scrapped(energy=Energy.PETROL, destruction_date="2015-06-30"),
    )
    assert r.award.amount == Decimal("200.00")


def test_no_order_date_computes_the_version_in_force(catalogue: Catalogue) -> None:
    r = result(
        catalogue, "2015-06-30", AMENDED, co2_g_per_km=0, scrapped=scrapped(destruction_date="2015-06-30")
    )
    assert r.award.amount == Decimal("3700.00") and r.resolution.clauses[0].open is None


# -- periods and claim deadline ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("invoice", "version"),
    [
        ("2015-01-01", INITIAL),
        ("2015-03-31", INITIAL),
        ("2015-04-01", AMENDED),
        ("2015-12-31", AMENDED),
        ("2016-01-01", None),
        ("2014-12-31", "decret-2007-1873-art4.2012-01-01"),  # the majoration of décret 2007-1873, art. 4 (200 €)
    ],
)
def test_periods(catalogue: Catalogue, invoice: str, version: str | None) -> None:
    r = calculate(
        catalogue,
        purchase(
            invoice,
            scheme=Scheme.CONVERSION_PREMIUM,
            category=CAR,
            co2_g_per_km=0,
            acquisition_cost="25000",
            scrapped=scrapped(destruction_date=invoice),
        ),
        Scheme.CONVERSION_PREMIUM,
    )
    found = r.resolution.version.id if r.resolution.version else None
    assert found == version


def test_claim_deadline_is_art_9(catalogue: Catalogue) -> None:
    r = result(catalogue, "2015-05-15", AMENDED, co2_g_per_km=0)
    assert (r.claim_deadline, r.claim_deadline_citation) == (d("2015-11-15"), "décret n° 2014-1672, art. 9")


def test_art_5_management_texts_tile_2015(catalogue: Catalogue) -> None:
    five = sorted(
        (v for v in catalogue.versions.values() if v.article == "decret-2014-1672-art5"),
        key=lambda v: v.valid_from,
    )
    assert [(v.valid_from, v.valid_until) for v in five] == [
        (d("2015-01-01"), d("2015-04-01")),
        (d("2015-04-01"), d("2016-01-01")),
    ]
    assert all(v.scheme is None and v.calculator is None for v in five)
