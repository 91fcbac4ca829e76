"""Fast path == explained path on every case of the regression corpus (tests/regression/*.yaml).

The corpus sits on the texts' boundaries by construction (each threshold at, below and above; the days
around every start, end and deadline), computed by hand; whatever its expected values, the fast path
must give exactly what the explained path gives on each of its requests, without falling back to it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from api.cases.files import load_cases
from api.catalogue.loader import load_catalogue
from api.purchase.render import to_purchase
from legislation.errors import InvalidFacts
from legislation.fast import Engine, Row, explained_outcome

CATALOGUE = load_catalogue()
CASES = load_cases([Path(__file__).resolve().parent.parent / "regression"])


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(CATALOGUE)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_fast_path_equals_explained_path_on_the_corpus(engine: Engine, case: object) -> None:
    purchase = to_purchase(case.request)  # type: ignore[attr-defined]
    row = Row.from_purchase(purchase)
    try:
        fast = engine.outcomes(row)
    except InvalidFacts as exc:
        with pytest.raises(InvalidFacts) as explained:
            for scheme in purchase.schemes:
                explained_outcome(CATALOGUE, row, scheme)
        assert str(exc) == str(explained.value)
        return
    assert fast == [explained_outcome(CATALOGUE, row, s) for s in purchase.schemes]


def test_the_fast_path_never_falls_back_on_the_corpus() -> None:
    engine = Engine(CATALOGUE)
    results = 0
    for case in CASES:
        purchase = to_purchase(case.request)
        try:
            results += len(engine.outcomes(Row.from_purchase(purchase)))
        except InvalidFacts:
            continue
    assert results > 250 and engine.fallbacks == 0, (engine.fallbacks, results)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_a_request_flattens_to_the_row_of_its_purchase(case: object) -> None:
    """JSON Lines rows are flattened from the request itself (no Purchase built): the same row, field by field."""
    from dataclasses import replace

    from api.purchase.render import request_schemes

    request = case.request  # type: ignore[attr-defined]
    direct = Row.from_facts(request, request_schemes(request))
    via_purchase = Row.from_purchase(to_purchase(request))
    assert direct.source is None
    assert direct == replace(via_purchase, source=None)
