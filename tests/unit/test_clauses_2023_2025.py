"""The clause shapes of 2023–2025: a deadline by vehicle category (décret 2022-1761 art. 2), the version in force on a
date D kept « if more favourable » (décret 2024-102 art. 2) or whatever its amount (décret 2025-606), and the number
check of « entre trois et douze mois ». Expected values from the verbatim texts in shared/legal/texts."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal

import pytest

from api.catalogue.hashing import clause_document
from legislation import Catalogue, Scheme
from legislation.enums import Acquisition, KeepMode, ParameterUnit, PersonKind, VehicleCategory
from legislation.fast.engine import Engine, explained_outcome
from legislation.quotes import value_in_quote
from legislation.resolver import check_clause, clause_opens, kept_version
from legislation.row import Row

BONUS = Scheme.BONUS
V2023 = "D251-1.2023-01-01"


def _clause_2022_1761(catalogue: Catalogue):  # type: ignore[no-untyped-def]
    (clause,) = catalogue.get(V2023).transitional
    return clause


def test_the_2022_1761_clause_has_its_deadline_by_category(catalogue: Catalogue) -> None:
    clause = _clause_2022_1761(catalogue)
    # « a) Le 31 décembre 2023 si le véhicule appartient aux catégories M2, M3, N2 ou N3 … b) Le 30 juin 2023 dans
    # les autres cas »; « avant le 31 décembre 2022 inclus ».
    assert clause.decisive_on_or_before == date(2023, 6, 30)
    assert dict(clause.category_deadlines) == {
        VehicleCategory.M2: date(2023, 12, 31),
        VehicleCategory.M3: date(2023, 12, 31),
        VehicleCategory.N2: date(2023, 12, 31),
        VehicleCategory.N3: date(2023, 12, 31),
    }
    assert (clause.order_limit, clause.order_test.value) == (date(2022, 12, 31), "ordered_on_or_before")
    assert clause.latest_deadline == date(2023, 12, 31)


@pytest.mark.parametrize(
    ("invoice", "category", "opens"),
    [
        (date(2023, 6, 30), VehicleCategory.PASSENGER_CAR, True),  # b) on its last day
        (date(2023, 7, 1), VehicleCategory.PASSENGER_CAR, False),  # b) the day after
        (date(2023, 7, 1), VehicleCategory.N2, True),  # a) still open
        (date(2023, 12, 31), VehicleCategory.M3, True),  # a) on its last day
        (date(2024, 1, 1), VehicleCategory.N3, False),  # a) the day after
        (date(2023, 6, 30), None, True),  # every deadline met: the category does not matter
        (date(2023, 7, 1), None, None),  # between the two deadlines: depends on the category, not given
        (date(2024, 1, 1), None, False),  # after both
    ],
)
def test_the_category_decides_the_deadline(
    catalogue: Catalogue, invoice: date, category: VehicleCategory | None, opens: bool | None
) -> None:
    clause = _clause_2022_1761(catalogue)
    assert clause_opens(clause, date(2022, 12, 31), invoice, False, category) is opens
    row = Row(
        acquisition=Acquisition.PURCHASE,
        order_date=date(2022, 12, 31),
        invoice_date=invoice,
        vehicle_category=category,
        vehicle_previously_registered=False,
        schemes=(BONUS,),
    )
    check = check_clause(clause, catalogue.get(V2023), row, invoice)
    assert check.open is opens
    assert check.missing_fact == ("vehicle.category" if opens is None else None)


def test_an_order_of_2023_never_opens_it(catalogue: Catalogue) -> None:
    clause = _clause_2022_1761(catalogue)
    assert clause_opens(clause, date(2023, 1, 1), date(2023, 3, 1), False, VehicleCategory.N2) is False


@pytest.mark.parametrize("category", [None, VehicleCategory.PASSENGER_CAR, VehicleCategory.N2, VehicleCategory.VAN])
@pytest.mark.parametrize("invoice", [date(2023, 6, 30), date(2023, 7, 1), date(2023, 12, 31), date(2024, 1, 1)])
def test_the_fast_path_agrees_on_the_category_deadline(
    catalogue: Catalogue, category: VehicleCategory | None, invoice: date
) -> None:
    row = Row(
        acquisition=Acquisition.PURCHASE,
        order_date=date(2022, 12, 31),
        invoice_date=invoice,
        vehicle_category=category,
        vehicle_energy=None,
        vehicle_acquisition_cost=3_000_000,
        vehicle_previously_registered=False,
        buyer_person_kind=PersonKind.NATURAL_PERSON,
        schemes=(BONUS,),
    )
    assert Engine(catalogue).outcomes(row) == [explained_outcome(catalogue, row, BONUS)]


@pytest.mark.parametrize(
    ("version_id", "clause_id", "kept_day", "kept_id"),
    [
        (
            "D251-1.2024-02-14",
            "decret-2024-102-art2",
            date(2023, 12, 31),
            "D251-1.2023-12-16",
        ),  # « au 31 décembre 2023 »
        ("D251-1.2024-02-14", "decret-2023-886-transitoire", date(2023, 12, 15), V2023),
        ("D251-1.2024-12-02", "decret-2024-1084-transitoire", date(2024, 12, 1), "D251-1.2024-02-14"),
        ("decret-2025-606.2025-07-01", "decret-2025-606-transitoire", date(2025, 6, 30), "D251-1.2024-12-02"),
    ],
)
def test_a_clause_keeps_the_version_in_force_on_its_date(
    catalogue: Catalogue, version_id: str, clause_id: str, kept_day: date, kept_id: str
) -> None:
    clause = next(c for c in catalogue.get(version_id).transitional if c.id == clause_id)
    assert clause.rules_date == kept_day and clause.kept_version_id is None
    kept = kept_version(catalogue, BONUS, clause, date(2025, 1, 1))
    assert kept is not None and kept.id == kept_id
    assert clause.computed_as_of(date(2025, 1, 1)) == date(2025, 1, 1)  # for the purchase's own date


def test_2025_606_keeps_whatever_the_amount_and_2024_102_the_more_favourable(catalogue: Catalogue) -> None:
    (end,) = catalogue.get("decret-2025-606.2025-07-01").transitional
    assert end.keeps is KeepMode.PREVIOUS  # no « lorsqu'elles sont plus avantageuses »
    first = catalogue.get("D251-1.2024-02-14").transitional[0]
    assert first.keeps is KeepMode.MORE_FAVOURABLE and first.wording.startswith("Lorsqu'elles sont plus avantageuses")


def test_category_deadlines_enter_the_hash_only_when_given(catalogue: Catalogue) -> None:
    clause = _clause_2022_1761(catalogue)
    document = clause_document(clause)
    assert document["category_deadlines"] == {
        "m2": "2023-12-31",
        "m3": "2023-12-31",
        "n2": "2023-12-31",
        "n3": "2023-12-31",
    }
    assert "category_deadlines" not in clause_document(replace(clause, category_deadlines=()))
    other = replace(clause, category_deadlines=((VehicleCategory.M2, date(2023, 12, 30)),))
    assert clause_document(other) != document


def test_two_numbers_may_share_their_unit_word() -> None:
    quote = "dans un délai compris entre trois et douze mois suivant sa première immatriculation"
    assert value_in_quote(Decimal(3), ParameterUnit.MONTH, quote)
    assert value_in_quote(Decimal(12), ParameterUnit.MONTH, quote)
    assert not value_in_quote(Decimal(4), ParameterUnit.MONTH, quote)
    assert not value_in_quote(Decimal(3), ParameterUnit.MONTH, "trois et douze euros")
    assert value_in_quote(Decimal("2.4"), ParameterUnit.TONNE, "mass < 2.4 t")
    assert value_in_quote(Decimal("2.4"), ParameterUnit.TONNE, "inférieure à 2,4 tonnes")
