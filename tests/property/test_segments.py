"""The amount timeline's segments equal a day-by-day evaluation by the explained path.

Random purchases (the fast-path test's generator: every category, numbers on and around every parameter of
every version, fact dates months and years from the decisive date, leases, scrapped vehicles, order dates on
and around every clause limit) and random windows (starting on and around every start, end, deadline and
order limit on file, up to 15 months long): for every day of the window, the segment containing it gives
what :func:`legislation.resolver.calculate` gives on that day — status, amount, lower bound, eligibility,
version, paragraph, kept version, open clauses, provenance, claim deadline — and two neighbouring segments
never give the same answer.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from legislation import Purchase
from legislation.enums import Acquisition
from legislation.errors import InvalidDates, InvalidFacts
from legislation.resolver import calculate
from legislation.row import cents
from legislation.segments import Segment, amount_timeline
from tests.property.test_fast_path import CATALOGUE, DAYS, purchases

DAY = timedelta(days=1)
every_version_day = st.one_of(st.sampled_from(DAYS), st.dates(date(2014, 10, 1), date(2022, 6, 30)))


def day_by_day(purchase: Purchase, day: date, segment: Segment) -> None:
    moved = (
        replace(purchase, first_rent_date=day, invoice_date=day)  # a lease of 2009-2014 is decided by its invoice
        if purchase.acquisition is Acquisition.LEASE
        else replace(purchase, invoice_date=day)
    )
    result = calculate(CATALOGUE, moved, segment.scheme)
    version = result.resolution.version
    award = result.award
    amount = result.amount
    expected_paragraph = award.paragraph if award is not None and version is not None else None
    kept = award.version_id if award is not None and result.kept_by is not None else None
    opened = tuple(c.clause.id for c in result.resolution.open_clauses)
    assert (
        segment.status, segment.amount, segment.amount_is_lower_bound, segment.version_id, segment.paragraph,
        segment.kept_version_id, segment.open_clauses,
    ) == (
        result.status, amount, result.amount_is_lower_bound, version.id if version else None, expected_paragraph,
        kept, opened,
    ), (day, segment)  # fmt: skip
    if version is not None and award is not None:
        assert segment.eligible == award.eligible, (day, segment)
        paying = CATALOGUE.versions[kept or version.id]
        assert segment.provenance is paying.provenance
    deadlines = segment.claim_deadlines
    if result.claim_deadline is None:
        assert deadlines is None
    else:
        assert segment.claim_deadline_citation == result.claim_deadline_citation
        assert deadlines is not None
        if result.resolution.decided_by == "order_date":
            # a lease decided by its signature (décret 2007-1873, initial): the deadline counts from it, whatever
            # the day of the window
            assert segment.fixed_decisive_date == result.resolution.decisive_date, (day, segment)
            assert deadlines == (result.claim_deadline, result.claim_deadline), (day, segment)
            return
        assert segment.fixed_decisive_date is None, (day, segment)
        if day == segment.start:
            assert deadlines[0] == result.claim_deadline
        if day == segment.last_day:
            assert deadlines[1] == result.claim_deadline
    if amount is not None:
        assert cents(amount) is not None


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(purchases(), every_version_day, st.integers(min_value=1, max_value=460))
def test_segments_equal_day_by_day_evaluation(purchase: Purchase, start: date, length: int) -> None:
    try:
        timeline = amount_timeline(CATALOGUE, purchase, start, start + timedelta(days=length))
    except (InvalidDates, InvalidFacts):
        return  # an invoice of a lease before its order, an inexact amount: the explained path refuses too
    for scheme in purchase.schemes:
        segments = timeline.segments[scheme]
        assert segments[0].start == timeline.start and segments[-1].until == timeline.until
        for before, after in zip(segments, segments[1:], strict=False):
            assert before.until == after.start and not before.same_answer(after)
        for segment in segments:
            day = segment.start
            while day < segment.until:
                day_by_day(purchase, day, segment)
                day += DAY


def _corpus() -> list[Purchase]:
    from pathlib import Path

    from api.cases.files import load_cases
    from api.purchase.render import to_purchase

    cases = load_cases([Path(__file__).resolve().parent.parent / "regression"])
    return [to_purchase(c.request) for c in cases]


CORPUS = _corpus()


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(CORPUS), st.integers(min_value=-420, max_value=30), st.integers(min_value=1, max_value=460))
def test_segments_equal_day_by_day_on_the_corpus(purchase: Purchase, shift: int, length: int) -> None:
    """The corpus's purchases meet the texts' conditions (scrapped vehicles old enough, registered recently…):
    the windows around their decisive dates cross the days on which those date conditions flip."""
    decisive = purchase.first_rent_date if purchase.acquisition is Acquisition.LEASE else purchase.invoice_date
    assert decisive is not None
    test_segments_equal_day_by_day_evaluation.hypothesis.inner_test(  # type: ignore[attr-defined]
        purchase, decisive + timedelta(days=shift), length
    )
