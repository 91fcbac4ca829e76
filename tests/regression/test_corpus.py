"""The public regression corpus (``tests/regression/*.yaml``): each case through the library, one test per id.

Expected values in the case files were computed by hand from the texts (see each case's ``notes``); a failure
here means the catalogue or a calculator moved a historical result. Change a case only with a cited reason.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from api.cases.files import NO_VERSION, Case, CaseResult, load_cases, run_case
from legislation import Catalogue, Role

CORPUS = Path(__file__).resolve().parent
CASES = load_cases([CORPUS])


def describe(result: CaseResult) -> str:
    if result.error:
        return f"{result.case.id} ({result.case.file}:{result.case.line}): error {result.error}"
    lines = [f"{result.case.id} ({result.case.file}:{result.case.line}) — {result.case.title}"]
    lines += [f"  {c.scheme}.{c.field}: expected {c.expected!r}, got {c.got!r}" for c in result.failures]
    for doc in (result.document or {}).get("results", []):
        lines += [f"  [{doc['scheme']}] {s['citation']}: {s['text']}" for s in doc.get("steps", [])]
    lines.append("  notes: " + result.case.notes)
    return "\n".join(lines)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_case(catalogue: Catalogue, case: Case) -> None:
    result = run_case(catalogue, case)
    assert result.outcome == "passed", describe(result)


def test_corpus_has_at_least_150_cases() -> None:
    assert len(CASES) >= 150


def test_every_amounts_version_on_file_has_cases(catalogue: Catalogue) -> None:
    covered = {v for case in CASES for v in case.versions}
    amounts = {v.id for v in catalogue.versions.values() if v.role is Role.AMOUNTS}
    assert amounts - covered == set(), "amounts versions with no regression case"
    assert NO_VERSION in covered  # the gaps and the edges of the timeline are exercised too


def test_every_case_shows_its_arithmetic() -> None:
    for case in CASES:
        assert case.notes.strip() and case.paragraph.strip(), case.id
