"""The two-year lease condition of the conditions articles (« dans le cadre d'un contrat d'une durée supérieure ou
égale à deux ans »: D. 251-1 and D. 251-3, premier alinéa, 2017–2021; décret 2014-1672 art. 1 and 4 in 2015)."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

import pytest

from legislation import Catalogue, Energy, PersonKind, Scheme, VehicleCategory, calculate
from legislation.fast.engine import Engine
from legislation.row import Row
from tests.builders import purchase

EV = {
    "category": VehicleCategory.PASSENGER_CAR,
    "energy": Energy.ELECTRIC,
    "co2_g_per_km": 0,
    "acquisition_cost": "30000",
    "previously_registered": False,
    "buyer": {"person_kind": PersonKind.NATURAL_PERSON, "income_tax_nil": False, "reference_income_per_share": "20000"},
}
# (first rent, scheme, amount for a lease of two years or more, from the text)
CASES = [
    ("2015-06-01", Scheme.BONUS, "6300.00"),  # décret 2014-1672 art. 3 1° b): 27 % × 30 000 = 8 100 > 6 300 cap
    ("2017-01-15", Scheme.BONUS, "6000.00"),  # D. 251-7 (2017) 1° a): 8 100 > 6 000 cap
    ("2020-07-15", Scheme.BONUS, "7000.00"),  # D. 251-7 (2020) 1°: 8 100 > 7 000 (natural person)
    ("2017-01-15", Scheme.CONVERSION_PREMIUM, "4000.00"),  # D. 251-8 (2017) 1° a): new, ≤ 20 g: 4 000
    ("2021-09-15", Scheme.CONVERSION_PREMIUM, "2500.00"),  # D. 251-8 (2021) 1° b): « autres cas » 2 500
]


def lease(first_rent: str, scheme: Scheme, months: int | None):  # type: ignore[no-untyped-def]
    p = purchase(
        None,
        first_rent=first_rent,
        lease=True,
        scheme=scheme,
        scrapped={"energy": Energy.DIESEL},
        city_electric_range_km="300",
        **EV,
    )
    return replace(p, lease_duration_months=months)


@pytest.mark.parametrize(("first_rent", "scheme", "amount"), CASES)
def test_two_years_exactly_is_enough(catalogue: Catalogue, first_rent: str, scheme: Scheme, amount: str) -> None:
    award = calculate(catalogue, lease(first_rent, scheme, 24), scheme).award
    assert award is not None and award.amount == Decimal(amount) and award.eligible is True


@pytest.mark.parametrize(("first_rent", "scheme", "amount"), CASES)
def test_a_lease_under_two_years_is_refused(catalogue: Catalogue, first_rent: str, scheme: Scheme, amount: str) -> None:
    award = calculate(catalogue, lease(first_rent, scheme, 23), scheme).award
    assert award is not None and (award.amount, award.eligible) == (Decimal("0.00"), False)
    assert "deux ans" in " ".join(s.text + s.citation for s in award.steps) or "two years" in award.reason


@pytest.mark.parametrize(("first_rent", "scheme", "amount"), [c for c in CASES if c[0] != "2015-06-01"])
def test_an_unknown_duration_is_an_assumption(
    catalogue: Catalogue, first_rent: str, scheme: Scheme, amount: str
) -> None:
    award = calculate(catalogue, lease(first_rent, scheme, None), scheme).award
    assert award is not None and award.amount == Decimal(amount)
    assert any("two years or more" in a for a in award.assumptions)


@pytest.mark.parametrize("months", [23, 24])
@pytest.mark.parametrize(("first_rent", "scheme", "amount"), CASES)
def test_fast_path_agrees(catalogue: Catalogue, first_rent: str, scheme: Scheme, amount: str, months: int) -> None:
    p = lease(first_rent, scheme, months)
    explained = calculate(catalogue, p, scheme)
    fast = Engine(catalogue).outcomes(Row.from_purchase(replace(p, schemes=(scheme,))))[0]
    assert explained.award is not None
    assert (fast[1], fast[2], fast[3]) == (
        explained.status,
        int(explained.award.amount * 100),
        explained.award.eligible,
    )
