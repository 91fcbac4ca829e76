"""A scheme's amounts versions on a timeline: half-open periods, no overlap, declared gaps, and the text that ends
the aid (role « ended »: from its first day no amount is due except what its transitional clauses keep)."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from legislation.enums import DecisiveEvent, Role, Scheme
from legislation.errors import UnknownVersion
from legislation.versions import Version

# The roles whose versions tile a scheme's timeline: the amounts texts, then the text that ends the aid.
TIMELINE_ROLES = (Role.AMOUNTS, Role.ENDED)


@dataclass(frozen=True, slots=True, kw_only=True)
class Gap:
    """A period with no version on file, declared so that it is never silently bridged."""

    scheme: Scheme
    start: date
    end: date  # exclusive
    reason: str


class Timeline:
    """The amounts versions of one scheme, sorted by ``valid_from``."""

    __slots__ = ("scheme", "versions", "gaps", "endings", "_starts", "events", "events_differ")

    def __init__(self, scheme: Scheme, versions: Iterable[Version], gaps: Iterable[Gap] = ()) -> None:
        self.scheme = scheme
        given = sorted(versions, key=lambda v: v.valid_from)
        # The amounts versions (what :meth:`find` answers) and the texts that end the aid (:meth:`ended_on`).
        self.versions: tuple[Version, ...] = tuple(v for v in given if v.role is not Role.ENDED)
        self.endings: tuple[Version, ...] = tuple(v for v in given if v.role is Role.ENDED)
        self.gaps: tuple[Gap, ...] = tuple(sorted(gaps, key=lambda g: g.start))
        self._starts = [v.valid_from.toordinal() for v in self.versions]
        # The decisive events the versions use (design.md, resolver 1), and whether any is not the default one.
        self.events: tuple[DecisiveEvent, ...] = tuple(dict.fromkeys(v.decisive_event for v in self.versions))
        self.events_differ = any(e is not DecisiveEvent.INVOICE_OR_FIRST_RENT for e in self.events)

    def find(self, day: date) -> Version | None:
        """The version with ``valid_from <= day < valid_until``, or None."""
        i = bisect_right(self._starts, day.toordinal()) - 1
        if i >= 0 and self.versions[i].is_in_force(day):
            return self.versions[i]
        return None

    def nearest(self, day: date) -> tuple[Version | None, Version | None]:
        """The last version ending on or before ``day`` and the first starting after it."""
        before = [v for v in self.versions if v.valid_until is not None and v.valid_until <= day]
        after = [v for v in self.versions if v.valid_from > day]
        return (before[-1] if before else None, after[0] if after else None)

    def previous(self, version: Version) -> Version | None:
        """The version just before ``version`` on this timeline, when it ends where ``version`` starts."""
        i = self.versions.index(version)
        if i > 0 and self.versions[i - 1].valid_until == version.valid_from:
            return self.versions[i - 1]
        return None

    def ended_on(self, day: date) -> Version | None:
        """The text that ended the aid by ``day`` (role « ended », in force on it), or None."""
        return next((v for v in reversed(self.endings) if v.is_in_force(day)), None)

    @property
    def ended(self) -> date | None:
        """The first day the aid no longer exists (the first ending text's ``valid_from``), or None."""
        return self.endings[0].valid_from if self.endings else None

    def answered_on(self, day: date) -> Version | None:
        """The amounts version in force on ``day``, else the text that ended the aid by then, else None."""
        return self.find(day) or self.ended_on(day)

    def gap_on(self, day: date) -> Gap | None:
        return next((g for g in self.gaps if g.start <= day < g.end), None)

    @property
    def first_day(self) -> date | None:
        return self.versions[0].valid_from if self.versions else None

    @property
    def last_day(self) -> date | None:
        if not self.versions:
            return None
        return self.versions[-1].last_day


class Catalogue:
    """Every version on file, with one timeline per scheme of its amounts texts."""

    __slots__ = ("versions", "timelines", "_deadline_texts")

    def __init__(self, versions: Iterable[Version], gaps: Iterable[Gap] = ()) -> None:
        self.versions: dict[str, Version] = {v.id: v for v in versions}
        gap_list = list(gaps)
        self.timelines: dict[Scheme, Timeline] = {
            scheme: Timeline(
                scheme,
                (v for v in self.versions.values() if v.scheme is scheme and v.role in TIMELINE_ROLES),
                (g for g in gap_list if g.scheme is scheme),
            )
            for scheme in Scheme
        }
        # the texts that set a claim deadline, by scheme, in the catalogue's order (claim_deadline_text: a few, not
        # every version, looked at for each answer)
        self._deadline_texts: dict[Scheme, tuple[Version, ...]] = {
            scheme: tuple(
                v for v in self.versions.values() if v.claim_deadline_months is not None and v.scheme in (None, scheme)
            )
            for scheme in Scheme
        }

    def get(self, version_id: str) -> Version:
        try:
            return self.versions[version_id]
        except KeyError:
            raise UnknownVersion(version_id) from None

    def timeline(self, scheme: Scheme) -> Timeline:
        return self.timelines[scheme]

    def in_force_texts(self, day: date, role: Role | None = None) -> list[Version]:
        """Every version (any role) in force on ``day``."""
        return [v for v in self.versions.values() if v.is_in_force(day) and (role is None or v.role is role)]

    def claim_deadline_text(self, scheme: Scheme, day: date) -> Version | None:
        """The management text in force on ``day`` that sets the claim deadline for ``scheme``."""
        return next((v for v in self._deadline_texts[scheme] if v.is_in_force(day)), None)
