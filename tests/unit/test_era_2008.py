"""Décret 2007-1873 (2008–2014): the decisive event of each version, the carry-over clauses, the exit clause of
art. 10 II meeting décret 2014-1672, the claim deadline, and no used vehicle paid in any version."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from api.catalogue.loader import load_version
from legislation import Catalogue, Scheme, calculate, resolve
from legislation.enums import DecisiveEvent, Energy, PersonKind, VehicleCategory
from legislation.errors import CatalogueError, InvalidDates
from tests.builders import d, purchase

CAR = {"category": VehicleCategory.PASSENGER_CAR, "energy": Energy.PETROL, "acquisition_cost": "20000",
       "previously_registered": False, "buyer": {"person_kind": PersonKind.NATURAL_PERSON}}  # fmt: skip
ART3 = "decret-2007-1873-art3."


def test_yearly_clause_moves_to_the_year_before_the_decisive_date(catalogue: Catalogue) -> None:
    clause = next(c for c in catalogue.versions[ART3 + "2012-01-01"].transitional if c.yearly)
    assert clause.limits(d("2012-02-01")) == (d("2011-12-31"), d("2012-03-31"))
    assert clause.limits(d("2014-01-15")) == (d("2013-12-31"), d("2014-03-31"))
    assert clause.limits(d("2010-06-01")) is None  # « l'année considérée » 2009 precedes its first occurrence
    assert clause.kept_rules_date(d("2012-02-01")) == d("2011-12-31")


def test_in_force_on_clause_keeps_the_rules_of_its_date(catalogue: Catalogue) -> None:
    clause = catalogue.versions[ART3 + "2009-12-20"].transitional[0]
    assert clause.rules_date == d("2009-12-31") and clause.kept_rules_date(d("2010-03-31")) == d("2009-12-31")


def test_2009_order_invoiced_in_march_2010_keeps_the_2009_column(catalogue: Catalogue) -> None:
    r = calculate(catalogue, purchase("2010-03-31", order="2009-12-15", co2_g_per_km=110, **CAR), Scheme.BONUS)
    assert r.kept_by == "decret-2009-1581-report-2009" and r.amount == Decimal("700.00")
    (check,) = r.resolution.clauses
    assert check.open and "decisive 2010-03-31 ≤ 2010-03-31: yes" in check.test and "2009-12-31" in check.test
    assert sorted(a.amount for a in r.compared if a.amount is not None) == [Decimal("500.00"), Decimal("700.00")]
    assert r.claim_deadline == d("2010-06-30") and r.claim_deadline_citation == "décret n° 2007-1873, art. 11"
    later = calculate(catalogue, purchase("2010-04-01", order="2009-12-15", co2_g_per_km=110, **CAR), Scheme.BONUS)
    assert later.kept_by is None and later.amount == Decimal("500.00")


def test_the_31_october_2013_clause_prevails_over_the_yearly_one(catalogue: Catalogue) -> None:
    r = calculate(catalogue, purchase("2014-01-20", order="2013-10-15", co2_g_per_km=90, **CAR), Scheme.BONUS)
    assert {c.clause.id for c in r.resolution.open_clauses} == {
        "decret-2007-1873-art3-report-annuel",
        "decret-2013-971-commandes-31-octobre-2013",
    }
    assert r.kept_by == "decret-2013-971-commandes-31-octobre-2013" and r.amount == Decimal("550.00")
    assert r.award is not None and r.award.version_id == ART3 + "2013-01-01"


def test_hybrid_ordered_december_2014_invoiced_march_2015_shows_both_texts(catalogue: Catalogue) -> None:
    hybrid = dict(CAR, energy=Energy.PETROL_ELECTRIC_HYBRID, acquisition_cost="30000", co2_g_per_km=100)
    r = calculate(catalogue, purchase("2015-03-31", order="2014-12-20", **hybrid), Scheme.BONUS)
    assert r.resolution.version is not None and r.resolution.version.id == "decret-2014-1672-art3.2015-01-01"
    opened = {c.clause.id: c for c in r.resolution.open_clauses}
    assert {"decret-2014-1672-art3-1a-transitoire", "decret-2007-1873-art10-II"} <= set(opened)
    assert "prevails" in opened["decret-2007-1873-art10-II"].clause.deadline_reading
    by_version = {a.version_id: a.amount for a in r.compared}
    assert by_version == {
        "decret-2014-1672-art3.2015-01-01": Decimal("2475.00"),
        ART3 + "2014-06-30": Decimal("2475.00"),
    }
    assert r.kept_by is None and r.award is not None and r.award.version_id == "decret-2014-1672-art3.2015-01-01"
    assert r.amount == Decimal("2475.00")


def test_a_lease_of_2008_is_decided_by_its_signature_and_the_2009_text_claims_it_once_invoiced(
    catalogue: Catalogue,
) -> None:
    lease = dict(CAR, co2_g_per_km=95)
    signed = resolve(catalogue, purchase(None, order="2008-12-15", first_rent="2009-02-01", lease=True, **lease),
                     Scheme.BONUS)  # fmt: skip
    assert signed.version is not None and signed.version.id == ART3 + "2007-12-31"
    assert signed.decided_by == "order_date" and signed.decisive_date == d("2008-12-15")
    assert signed.version.decisive_event is DecisiveEvent.ACQUISITION_OR_LEASE_SIGNATURE
    invoiced = resolve(
        catalogue,
        purchase("2009-01-25", order="2008-12-15", first_rent="2009-02-01", lease=True, **lease),
        Scheme.BONUS,
    )
    assert invoiced.version is not None and invoiced.version.id == ART3 + "2009-01-21"
    assert invoiced.decided_by == "invoice_date"


def test_a_lease_of_2010_needs_the_invoice_date(catalogue: Catalogue) -> None:
    with pytest.raises(InvalidDates) as raised:
        resolve(catalogue, purchase(None, first_rent="2010-06-01", lease=True, co2_g_per_km=95, **CAR), Scheme.BONUS)
    assert raised.value.field == "invoice_date" and "Année de facturation" in str(raised.value)


def test_a_lease_of_july_2014_is_decided_by_its_first_rent(catalogue: Catalogue) -> None:
    r = resolve(catalogue, purchase("2014-06-20", first_rent="2014-07-15", lease=True, co2_g_per_km=90, **CAR),
                Scheme.BONUS)  # fmt: skip
    assert r.version is not None and r.version.id == ART3 + "2014-06-30" and r.decided_by == "first_rent_date"


def test_claim_deadline_is_three_months_after_the_acquisition_then_the_invoice(catalogue: Catalogue) -> None:
    early = calculate(catalogue, purchase("2008-05-15", co2_g_per_km=95, **CAR), Scheme.BONUS)
    assert early.claim_deadline == d("2008-08-15")
    assert early.claim_deadline_citation == "décret n° 2007-1873, art. 11"
    later = calculate(catalogue, purchase("2012-11-30", co2_g_per_km=95, **CAR), Scheme.BONUS)
    assert later.claim_deadline == d("2013-02-28")  # month end clamps


@pytest.mark.parametrize("first_day", ["2008-01-02", "2009-01-21", "2009-12-20", "2010-05-06", "2010-12-27",
                                       "2011-03-25", "2012-01-01", "2012-08-01", "2013-01-01", "2013-11-01",
                                       "2014-06-30"])  # fmt: skip
def test_no_used_vehicle_is_paid_in_any_version(catalogue: Catalogue, first_day: str) -> None:
    used = dict(CAR, previously_registered=True, energy=Energy.ELECTRIC, co2_g_per_km=0)
    r = calculate(catalogue, purchase(first_day, **used), Scheme.BONUS)
    assert r.resolution.version is not None and r.resolution.version.id.startswith(ART3)
    assert r.award is not None and r.award.eligible is not True and not r.amount


def test_an_in_force_on_clause_gives_its_date(tmp_path: object, catalogue: Catalogue) -> None:
    from pathlib import Path

    source = Path(__file__).resolve().parents[2] / "versions" / (ART3 + "2009-12-20")
    folder = Path(str(tmp_path)) / (ART3 + "2009-12-20")
    folder.mkdir()
    (folder / "text.txt").write_bytes((source / "text.txt").read_bytes())
    toml = (source / "version.toml").read_text(encoding="utf-8").replace("rules_date = 2009-12-31\n", "")
    (folder / "version.toml").write_text(toml, encoding="utf-8")
    with pytest.raises(CatalogueError) as raised:
        load_version(folder)
    assert "rules_date" in str(raised.value)


def test_before_2008_the_first_version_has_no_column(catalogue: Catalogue) -> None:
    r = calculate(catalogue, purchase("2007-12-31", co2_g_per_km=95, **CAR), Scheme.BONUS)
    assert r.status == "not_covered_on_file" and r.amount is None
    assert r.resolution.decisive_date == date(2007, 12, 31)
