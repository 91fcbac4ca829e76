"""Published worked examples: a case whose amount a public page states (official simulator, service-public, press
with figures) says « Published worked example (stated) » in its notes and names that page in ``source.url``; its
expected amount is still computed by hand in the notes, and the case checks the code gives it."""

from __future__ import annotations

from api.cases.files import load_cases
from tests.regression.test_corpus import CORPUS

CASES = load_cases([CORPUS])
STATED = [c for c in CASES if "(stated)" in c.notes]


def test_every_stated_case_names_the_page_that_states_it() -> None:
    assert STATED, "no published worked example in the corpus"
    for case in STATED:
        assert case.url is not None and case.url.startswith("http"), case.id


def test_the_2021_and_2022_must_show_cases_include_published_amounts() -> None:
    """Issue 12: electric car, plug-in hybrid, van and two-wheeler in 2021 and 2022, with published amounts."""
    ids = {c.id for c in STATED}
    for expected in (
        "bonus-2021a-ev-stated-quechoisir",  # electric car, 2021-01-21 → 2021-06-30
        "bonus-2021b-phev-stated-tf1",  # plug-in hybrid, July 2021
        "bonus-2021c-van-stated-flotauto",  # van, 2021-07-26
        "bonus-2022b-first-day-46000",  # electric car, 2022-07-01 (47 000 € ceiling)
        "bonus-2022b-phev-stated",  # plug-in hybrid, 2022
        "bonus-2022c-scooter-stated-2roo",  # two-wheeler, 2022
    ):
        assert expected in ids, expected
