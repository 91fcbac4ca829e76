"""Calendar arithmetic for legal periods, done with pendulum."""

from __future__ import annotations

from datetime import date
from functools import lru_cache

import pendulum


@lru_cache(maxsize=65536)
def add_months(day: date, months: int) -> date:
    """Add calendar months; a day that does not exist in the target month clamps to its end.

    Remembered (batches repeat the same registration and invoice dates), so that the batch path can afford
    pendulum's arithmetic on every row."""
    moved = pendulum.Date(day.year, day.month, day.day).add(months=months)
    return date(moved.year, moved.month, moved.day)


def last_day_of_months_following(start: date, months: int) -> date:
    """Last day of « les N mois suivants » a start that is itself the first day of the period.

    Used for « dans les trois mois suivants [l'entrée en vigueur] »: the entry into force is the
    first day of the period, so 2015-01-01 with 3 months gives 2015-03-31 (start + 3 months − 1 day).
    """
    return add_months(start, months) - pendulum.duration(days=1)


def deadline_after_event(event: date, months: int) -> date:
    """Last day of « dans les N mois suivant [un acte] »: the same day number N months later.

    The period runs from the day after the act and expires on the day of the last month that
    bears the same number as the act (month ends clamp): invoice 2017-01-15 → 2017-07-15.
    """
    return add_months(event, months)


def is_within(day: date, first: date, last: date) -> bool:
    """True when ``first <= day <= last``."""
    return first <= day <= last
