"""No answer from a ``secondary`` version hides its grade (issue 12): on the whole regression corpus, every answer
computed with a version graded secondary — in force or kept by a clause, or the text that ended the aid — says so in a
warning naming that version (the one whose amount is given), and its ``provenance`` field is the grade of the
version in force."""

from __future__ import annotations

from pathlib import Path

from api.cases.files import load_cases
from api.purchase.render import render_result, to_purchase
from legislation import Catalogue, Provenance, calculate
from legislation.errors import InvalidFacts

CASES = load_cases([Path(__file__).resolve().parent.parent / "regression"])


def test_every_secondary_answer_says_so(catalogue: Catalogue) -> None:
    seen = 0
    for case in CASES:
        purchase = to_purchase(case.request)
        for scheme in purchase.schemes:
            try:
                result = calculate(catalogue, purchase, scheme)
            except InvalidFacts:
                continue
            version = result.resolution.version
            if version is None:
                continue
            out = render_result(result)
            assert out.provenance == version.provenance.value, case.id
            # The version whose amount the answer gives (a kept one, under an open clause), or the ending text.
            source = catalogue.versions.get(result.award.version_id) if result.award is not None else version
            graded = [source] if source is not None else []
            for v in graded:
                if v.provenance is Provenance.SECONDARY and result.status in (
                    "computed",
                    "not_covered_on_file",
                    "ended",
                ):
                    seen += 1
                    assert any(f"{v.id} is graded secondary" in w for w in out.warnings), (case.id, v.id, out.warnings)
    assert seen > 100  # the corpus has many such answers (2016–2025)
