"""How much of a period a scheme's timeline answers, measured in days (``vigueur coverage``, ``GET /v1/schemes``).

Every day of ``[first_day, last_day]`` (both inclusive) is counted once, in exactly one of four places: in a
version of the scheme's amounts text (split by the version's provenance grade: official, seed, derived,
secondary), in a declared gap (answered « no version on file », with its reason), after the end of the aid (a
text of role « ended » is in force: answered « ended », naming it), or in nothing at all — a
hole, which the resolver answers « no version on file » naming the nearest versions on each side. Each hole
is listed with those nearest versions, so the coverage figure and the answer a user gets agree.

Pure computation over a :class:`~legislation.timeline.Timeline`: the catalogue's tiling (no overlap, gaps
declared) is the loader's job; should two periods ever overlap, a day is still counted once (versions first).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from legislation.enums import Scheme
from legislation.timeline import Timeline
from legislation.versions import Version

# The period the product answers for: the first bonus (décret 2007-1873, in force for 2008) to the last
# version of the research notes (shared/legal/texts/INDEX.md: « 2025-06-30 »).
HISTORY_FIRST_DAY = date(2008, 1, 1)
HISTORY_LAST_DAY = date(2025, 6, 30)

# The provenance grades of design.md, in decreasing order of certainty; a grade no version has counts 0 days.
GRADES: tuple[str, ...] = ("official", "seed", "derived", "secondary")


@dataclass(frozen=True, slots=True, kw_only=True)
class Hole:
    """Days ``[start, end)`` with neither a version nor a declared gap, and the versions on each side."""

    start: date
    end: date  # exclusive
    nearest_before: Version | None
    nearest_after: Version | None

    @property
    def days(self) -> int:
        return (self.end - self.start).days

    @property
    def last_day(self) -> date:
        return self.end - timedelta(days=1)


@dataclass(frozen=True, slots=True, kw_only=True)
class Coverage:
    """Days of ``[first_day, last_day]`` in a version (per grade), in a declared gap, or in nothing."""

    scheme: Scheme
    first_day: date
    last_day: date
    by_grade: tuple[tuple[str, int], ...]  # (grade, days), every grade of GRADES first, then any other
    in_gaps: int
    holes: tuple[Hole, ...]
    in_ended: int = 0  # days after the end of the aid (a text of role « ended » in force)

    @property
    def days(self) -> int:
        return (self.last_day - self.first_day).days + 1

    @property
    def in_versions(self) -> int:
        return sum(days for _, days in self.by_grade)

    @property
    def with_nothing(self) -> int:
        return sum(h.days for h in self.holes)

    def grade_days(self, grade: str) -> int:
        return dict(self.by_grade).get(grade, 0)


def measure(timeline: Timeline, first_day: date = HISTORY_FIRST_DAY, last_day: date = HISTORY_LAST_DAY) -> Coverage:
    """The coverage of ``timeline`` over ``[first_day, last_day]`` (inclusive); ValueError when the period is empty."""
    if last_day < first_day:
        raise ValueError(f"the period ends ({last_day}) before it starts ({first_day})")
    end = last_day + timedelta(days=1)
    grades = dict.fromkeys(GRADES, 0)
    taken: list[tuple[date, date]] = []
    for version in timeline.versions:
        days = _clip(version.valid_from, version.valid_until, first_day, end, taken)
        grades[version.provenance.value] = grades.get(version.provenance.value, 0) + days
    in_gaps = sum(_clip(g.start, g.end, first_day, end, taken) for g in timeline.gaps)
    in_ended = sum(_clip(v.valid_from, v.valid_until, first_day, end, taken) for v in timeline.endings)
    holes = tuple(
        Hole(start=s, end=e, nearest_before=timeline.nearest(s)[0], nearest_after=timeline.nearest(s)[1])
        for s, e in _complement(sorted(taken), first_day, end)
    )
    return Coverage(
        scheme=timeline.scheme,
        first_day=first_day,
        last_day=last_day,
        by_grade=tuple(grades.items()),
        in_gaps=in_gaps,
        holes=holes,
        in_ended=in_ended,
    )


def _clip(start: date, until: date | None, first: date, end: date, taken: list[tuple[date, date]]) -> int:
    """Days of ``[start, until)`` inside ``[first, end)`` not already taken; records what it takes."""
    lo, hi = max(start, first), min(until or end, end)
    if hi <= lo:
        return 0
    days = 0
    for s, e in _complement(sorted(taken), lo, hi):
        days += (e - s).days
        taken.append((s, e))
    return days


def _complement(taken: list[tuple[date, date]], first: date, end: date) -> list[tuple[date, date]]:
    """The parts of ``[first, end)`` outside the sorted periods ``taken``."""
    out: list[tuple[date, date]] = []
    cursor = first
    for s, e in taken:
        if e <= cursor or s >= end:
            continue
        if s > cursor:
            out.append((cursor, min(s, end)))
        cursor = max(cursor, e)
        if cursor >= end:
            break
    if cursor < end:
        out.append((cursor, end))
    return out


def share(days: int, total: int) -> str:
    """``days / total`` as a percentage with one decimal, rounded down (« 99.9 » never hides a missing day)."""
    if total <= 0:
        return "0.0"
    tenths = days * 1000 // total
    return f"{tenths // 10}.{tenths % 10}"
