"""The predecessors of the prime à la conversion: décret 2007-1873 art. 4 (majoration) and décret 2009-66 art. 12
(prime à la casse), which « n'est pas cumulable avec la majoration » — one aid, the more favourable, never both."""

from __future__ import annotations

from decimal import Decimal

import pytest

from legislation import Catalogue, Scheme, VehicleCategory, calculate
from tests.builders import d, purchase

CP = Scheme.CONVERSION_PREMIUM
CAR = VehicleCategory.PASSENGER_CAR


def _both_aids(invoice: str, order: str) -> object:
    # A car of 120 g with an art. 3 aid (700 €), a 19-year-old car scrapped on the invoice day: the majoration
    # (over fifteen years) and the prime à la casse (over ten years, ≤ 160 g) would both be due.
    return purchase(
        invoice, order=order, scheme=CP, category=CAR, co2_g_per_km=120, previously_registered=False,
        bonus_amount="700.00",
        scrapped={"category": CAR, "first_registration_date": d("1990-01-10"), "owned_since": d("2000-01-01"),
                  "destruction_date": d(invoice)},
    )


@pytest.mark.parametrize(
    ("invoice", "order", "version"),
    [
        ("2008-12-04", "2008-12-04", "decret-2007-1873-art4.2007-12-31"),  # the prime, retroactive (I)
        ("2009-06-15", "2009-05-01", "decret-2009-66-art12.2009-01-21"),
    ],
)
def test_the_prime_a_la_casse_is_kept_and_the_majoration_not_added(
    catalogue: Catalogue, invoice: str, order: str, version: str
) -> None:
    r = calculate(catalogue, _both_aids(invoice, order), CP)  # type: ignore[arg-type]
    award = r.award
    assert award is not None and r.resolution.version is not None
    assert r.resolution.version.id == version
    assert award.amount == Decimal("1000.00")  # 1 000, never 1 000 + 300
    assert award.paragraph == "décret n° 2009-66, art. 12, II"
    assert any(x.id == "prime-a-la-casse-not-cumulable" for x in award.readings)
    assert any("n'est pas cumulable avec la majoration" in s.text for s in award.steps)


def test_the_majoration_is_kept_when_the_prime_is_not_due(catalogue: Catalogue) -> None:
    # Ordered before 2008-12-04: I of décret 2009-66, art. 12 excludes the prime; the majoration (300 €) is due.
    r = calculate(catalogue, _both_aids("2009-02-01", "2008-11-30"), CP)  # type: ignore[arg-type]
    assert r.award is not None and r.award.amount == Decimal("300.00")
    assert r.award.paragraph == "décret n° 2007-1873, art. 4"


def test_the_kit_keeps_another_texts_candidate_with_its_citation(catalogue: Catalogue) -> None:
    from legislation.calculators.kit import Candidate, Explain, Lean

    version = catalogue.get("decret-2009-66-art12.2009-01-21")
    relied = {v: catalogue.get(v) for v in version.relies_on}
    low = Candidate(amount=30000, paragraph="", citation="décret n° 2007-1873, art. 4", reason="majoration")
    high = Candidate(amount=100000, paragraph="II", reason="prime")
    explain = Explain(version, relied)
    kept = explain.best([low, high], "not cumulable")
    assert kept.paragraph == "décret n° 2009-66, art. 12, II"
    assert [a.citation for a in kept.alternatives] == ["décret n° 2007-1873, art. 4"]
    kept_low = Explain(version, relied).best([Candidate(amount=1, paragraph="", citation="X, 1°", reason="r")], "w")
    assert kept_low.paragraph == "X, 1°"
    lean = Lean(version, relied)
    assert lean.best([low], "w")[5] == "décret n° 2007-1873, art. 4"
