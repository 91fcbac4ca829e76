"""Calendar arithmetic of legal periods (pendulum underneath)."""

from __future__ import annotations

import pytest

from legislation.dates import add_months, deadline_after_event, is_within, last_day_of_months_following
from tests.builders import d


@pytest.mark.parametrize(
    ("start", "months", "expected"),
    [
        ("2015-01-01", 3, "2015-04-01"),
        ("2017-08-31", 6, "2018-02-28"),  # no 31 February: clamps to the month end
        ("2019-08-31", 6, "2020-02-29"),  # leap year
        ("2021-12-31", 1, "2022-01-31"),
    ],
)
def test_add_months_clamps_to_month_end(start: str, months: int, expected: str) -> None:
    assert add_months(d(start), months) == d(expected)


@pytest.mark.parametrize(
    ("entry_into_force", "months", "expected"),
    [
        ("2015-01-01", 3, "2015-03-31"),  # « dans les trois mois suivants » 1 January 2015: January–March
        ("2016-01-04", 3, "2016-04-03"),  # décret 2015-1928: 4 January → 3 April
        ("2015-11-30", 3, "2016-02-28"),  # 2016-02-30 does not exist → clamp to 29, minus one day
    ],
)
def test_last_day_of_months_following(entry_into_force: str, months: int, expected: str) -> None:
    assert last_day_of_months_following(d(entry_into_force), months) == d(expected)


@pytest.mark.parametrize(
    ("invoice", "expected"),
    [("2017-01-15", "2017-07-15"), ("2017-08-31", "2018-02-28"), ("2015-03-31", "2015-09-30")],
)
def test_deadline_after_event_six_months(invoice: str, expected: str) -> None:
    assert deadline_after_event(d(invoice), 6) == d(expected)


def test_is_within_is_inclusive() -> None:
    assert is_within(d("2015-03-31"), d("2015-01-01"), d("2015-03-31"))
    assert not is_within(d("2015-04-01"), d("2015-01-01"), d("2015-03-31"))
