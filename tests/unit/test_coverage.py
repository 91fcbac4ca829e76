"""legislation.coverage: days in a version per provenance grade, in declared gaps, with nothing — counted by hand."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest

from api.catalogue import documents
from api.cli import tables
from legislation import Catalogue, Scheme
from legislation.coverage import measure, share
from legislation.enums import Acquisition, Provenance
from legislation.resolver import resolve
from legislation.row import Row
from legislation.timeline import Gap, Timeline
from legislation.versions import Version

BONUS = Scheme.BONUS


def _version(base: Version, vid: str, start: str, until: str | None, grade: Provenance) -> Version:
    return replace(
        base,
        id=vid,
        valid_from=date.fromisoformat(start),
        valid_until=date.fromisoformat(until) if until else None,
        provenance=grade,
        transitional=(),
    )


@pytest.fixture
def small(catalogue: Catalogue) -> Timeline:
    """2010: official 2010-01-10 → 2010-02-01 (22 days: 10–31 January), gap 2010-02-01 → 2010-03-01 (28 days),
    seed 2010-03-01 → 2010-03-15 (14 days), nothing 2010-03-15 → 2010-04-01 (17 days), secondary open from
    2010-04-01."""
    base = catalogue.get("D251-7.2020-06-01")
    versions = [
        _version(base, "a.2010-01-10", "2010-01-10", "2010-02-01", Provenance.OFFICIAL),
        _version(base, "b.2010-03-01", "2010-03-01", "2010-03-15", Provenance.SEED),
        _version(base, "c.2010-04-01", "2010-04-01", None, Provenance.SECONDARY),
    ]
    gaps = [Gap(scheme=BONUS, start=date(2010, 2, 1), end=date(2010, 3, 1), reason="not on file")]
    return Timeline(BONUS, versions, gaps)


def test_measure_counts_each_day_once_by_hand(small: Timeline) -> None:
    # 2010-01-01 → 2010-04-10 inclusive: 31 + 28 + 31 + 10 = 100 days.
    c = measure(small, date(2010, 1, 1), date(2010, 4, 10))
    assert c.days == 100
    # official: 10–31 January = 22; seed: 1–14 March = 14; secondary: 1–10 April = 10.
    assert dict(c.by_grade) == {"official": 22, "seed": 14, "derived": 0, "secondary": 10}
    assert c.in_versions == 46
    assert c.in_gaps == 28  # February 2010
    # nothing: 1–9 January (9) and 15–31 March (17) = 26; 46 + 28 + 26 = 100.
    assert [(h.start, h.last_day, h.days) for h in c.holes] == [
        (date(2010, 1, 1), date(2010, 1, 9), 9),
        (date(2010, 3, 15), date(2010, 3, 31), 17),
    ]
    assert c.with_nothing == 26


def test_measure_names_the_nearest_versions_of_each_hole(small: Timeline) -> None:
    first, second = measure(small, date(2010, 1, 1), date(2010, 4, 10)).holes
    assert first.nearest_before is None and first.nearest_after is not None
    assert first.nearest_after.id == "a.2010-01-10"
    assert second.nearest_before is not None and second.nearest_before.id == "b.2010-03-01"
    assert second.nearest_after is not None and second.nearest_after.id == "c.2010-04-01"


def test_measure_clips_versions_to_the_period(small: Timeline) -> None:
    # 2010-01-31 → 2010-02-01: one official day (31 January), one gap day (1 February).
    c = measure(small, date(2010, 1, 31), date(2010, 2, 1))
    assert (c.days, c.in_versions, c.in_gaps, c.with_nothing) == (2, 1, 1, 0)


def test_measure_rejects_an_empty_period(small: Timeline) -> None:
    with pytest.raises(ValueError, match="ends"):
        measure(small, date(2010, 2, 1), date(2010, 1, 31))


def test_share_rounds_down_to_a_tenth() -> None:
    assert share(999, 1000) == "99.9"
    assert share(9999, 10000) == "99.9"  # 99.99 % is not shown as 100.0
    assert share(46, 100) == "46.0"
    assert share(0, 0) == "0.0"


def test_an_invoice_in_a_hole_names_the_nearest_versions(small: Timeline, catalogue: Catalogue) -> None:
    # The answer for a day the coverage counts as « nothing » names the same versions as the coverage does.
    own = Catalogue([*small.versions], small.gaps)
    row = Row(acquisition=Acquisition.PURCHASE, invoice_date=date(2010, 3, 20), schemes=(BONUS,))
    r = resolve(own, row, BONUS)
    assert r.version is None
    assert r.nearest_before is not None and r.nearest_before.id == "b.2010-03-01"
    assert r.nearest_after is not None and r.nearest_after.id == "c.2010-04-01"
    assert r.notes == ()  # not a declared gap


def test_coverage_document_and_table(small: Timeline) -> None:
    doc = documents.coverage_document(measure(small, date(2010, 1, 1), date(2010, 4, 10)))
    assert doc["in_versions"] == {
        "days": 46,
        "share": "46.0",
        "by_provenance": {"official": 22, "seed": 14, "derived": 0, "secondary": 10},
    }
    assert doc["in_declared_gaps"] == {"days": 28, "share": "28.0"}
    assert doc["with_nothing"]["days"] == 26 and doc["versions_or_gaps_share"] == "74.0"
    hole = doc["with_nothing"]["periods"][1]
    assert hole["start"] == "2010-03-15" and hole["last_day"] == "2010-03-31"
    assert hole["nearest_versions"]["before"]["version_id"] == "b.2010-03-01"
    assert len(tables.coverage({"schemes": [doc]})) == 3  # the table and one line per hole


def test_the_catalogue_on_file_is_measured_over_the_history(catalogue: Catalogue) -> None:
    # 2008-01-01 → 2025-06-30 inclusive: 17 years (2008-01-01 → 2025-01-01, 5 leap years: 17 × 365 + 5 = 6 210)
    # + 181 days (January–June 2025) = 6 391.
    for scheme in Scheme:
        c = measure(catalogue.timeline(scheme))
        assert c.days == 6391
        assert c.in_versions + c.in_gaps + c.in_ended + c.with_nothing == 6391
