"""Issue 12: no answer from a ``secondary`` version hides its grade — on the whole regression corpus.

An answer computed with a version graded secondary (the version in force, the version a transitional clause kept, or
a text the version relies on that decided the amount, such as D. 251-1-1 for a used vehicle) says so: the answer's
``provenance`` is ``secondary`` when the version in force is, and a warning names every secondary version it used.
"""

from __future__ import annotations

from typing import Any

import pytest

from api.cases.files import Case, load_cases, run_case
from legislation import Catalogue, Provenance
from tests.regression.test_corpus import CORPUS

CASES = load_cases([CORPUS])


def _secondary(catalogue: Catalogue, version_id: str | None) -> bool:
    version = catalogue.versions.get(version_id or "")
    return version is not None and version.provenance is Provenance.SECONDARY


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_a_secondary_answer_says_so(catalogue: Catalogue, case: Case) -> None:
    result = run_case(catalogue, case)
    for doc in (result.document or {}).get("results", []):
        _check(catalogue, doc)


def _check(catalogue: Catalogue, doc: dict[str, Any]) -> None:
    warnings = " | ".join(doc.get("warnings", []))
    in_force = doc.get("version_id")
    if _secondary(catalogue, in_force):
        assert doc["provenance"] == "secondary", doc
    kept = next((c for c in doc.get("compared", []) if c["version_id"] != in_force and doc.get("kept_by")), None)
    gave = kept["version_id"] if kept is not None else in_force  # the version whose amount the answer gives
    if _secondary(catalogue, gave):
        assert f"{gave} is graded secondary" in warnings, doc
    version = catalogue.versions.get(in_force or "")
    for ref in version.relies_on if version is not None else ():
        relied = catalogue.versions[ref]
        if relied.provenance is Provenance.SECONDARY and str(doc.get("paragraph", "")).startswith(relied.citation):
            assert f"{ref} is graded secondary" in warnings, doc


def test_the_used_vehicle_bonus_of_the_seed_wording_names_its_grade(catalogue: Catalogue) -> None:
    """D251-7.2020-06-01 is a seed; the 1 000 € it gives a used electric car from 2020-12-09 comes from D. 251-1-1,
    graded secondary: the answer's warnings say so."""
    (case,) = [c for c in CASES if c.id == "used-bonus-2020-ev-2020-12-09"]
    (doc,) = run_case(catalogue, case).document["results"]  # type: ignore[index]
    assert doc["version_id"] == "D251-7.2020-06-01" and doc["provenance"] == "seed" and doc["amount"] == "1000.00"
    assert any(w.startswith("D251-1-1.2020-12-09 is graded secondary") for w in doc["warnings"]), doc["warnings"]
