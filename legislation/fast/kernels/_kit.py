"""What every kernel shares: the result shape, exact integer rates, parameter reading and citations.

Money is in cents and quantities in thousandths (see :mod:`legislation.fast.row`). A parameter is turned
into an integer of the same scale when the kernel is built; one that does not fit exactly raises
:class:`NotExact`, and the version then has no kernel (its rows take the explained path).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import date
from decimal import Decimal

from legislation.calculators.kit import LEASE_MIN_MONTHS
from legislation.enums import Acquisition, PersonKind
from legislation.fast.row import CENTS, THOUSANDTHS, Row
from legislation.versions import Version

# A kernel returns the row's whole outcome for its version — (scheme, "computed" or "missing_facts",
# amount in cents, eligible (None when a fact is missing), this version's id, the paragraph cited in full,
# None) — so that the engine passes it on as is; or None: « not decided here », the explained path decides.
Decided = tuple[str, str, int, bool | None, str, str, None]
Kernel = Callable[[Row, frozenset[str]], Decided | None]
COMPUTED, MISSING_FACTS = "computed", "missing_facts"

NATURAL_PERSON = PersonKind.NATURAL_PERSON


class NotExact(ValueError):
    """A parameter that no integer of its scale represents exactly."""


def rate_terms(rate: Decimal, unit_scale: int = CENTS) -> tuple[int, int, int]:
    """``round_cents(rate × base)`` in integers: ``(num * base + half) // den``, for a base ≥ 0.

    ``Decimal.quantize(CENT, ROUND_HALF_UP)`` rounds a positive value v half up, i.e. floor(v + ½). With
    rate × 100 = n/d and a base counted in 1/unit_scale, the amount in cents is v = n·base/(d·unit_scale),
    so floor(v + ½) = (2·n·base + d·unit_scale) // (2·d·unit_scale) — exactly, in integers. The three
    terms are returned separately because a kernel inlines the expression (a call costs more than it).
    """
    n, d = (rate * CENTS).as_integer_ratio()
    return 2 * n, d * unit_scale, 2 * d * unit_scale


class Params:
    """A version's parameters and citations, read once when its kernel is built."""

    __slots__ = ("version", "relied")

    def __init__(self, version: Version, relied: Mapping[str, Version] | None = None) -> None:
        self.version = version
        self.relied = relied or {}

    def __call__(self, name: str) -> Decimal:
        return self.version.parameters[name].value

    def of(self, version_id: str) -> Params:
        """The parameters of a text this version relies on (as :meth:`Ctx.p_of` reads them)."""
        return Params(self.relied[version_id])

    def cents(self, name: str) -> int:
        """A price, amount or cap in cents."""
        return _scaled(self(name), CENTS, name)

    def thousandths(self, name: str) -> int:
        """A power, energy or distance in thousandths (kW, kWh, km)."""
        return _scaled(self(name), THOUSANDTHS, name)

    def count(self, name: str) -> int:
        """A threshold compared with an integer fact (g/km, months, years): a whole number.

        Comparing the int fact with ``int(value)`` gives what comparing it with the Decimal gives.
        """
        return _scaled(self(name), 1, name)

    def rate(self, name: str, unit_scale: int = CENTS) -> tuple[int, int, int]:
        """A rate (« 27 % du coût ») or a price per unit (« 250 euros par kilowattheure », unit_scale=1000)
        as the terms of :func:`rate_terms`; the amount in cents is ``(num * base + half) // den``."""
        return rate_terms(self(name), unit_scale)

    def outcome(self, amount: int, eligible: bool, paragraph: str) -> Decided:
        """A fixed outcome of this version (« le montant de l'aide est fixé à 3 000 euros », a refusal)."""
        return self.scheme, COMPUTED, amount, eligible, self.version.id, self.cite(paragraph), None

    def refusal_citing(self, citation: str) -> Decided:
        """A refusal citing another text in full (``Ctx.lease_refusal``: the conditions article)."""
        return self.scheme, COMPUTED, 0, False, self.version.id, citation, None

    def missing(self, paragraph: str, citation: str | None = None) -> Decided:
        """What the calculator answers when ``ctx.need(…, paragraph)`` finds no fact: 0, eligibility open,
        the paragraph that needs it (``citation``: a full citation of another text, as art. 1 in 2015)."""
        return self.scheme, MISSING_FACTS, 0, None, self.version.id, citation or self.cite(paragraph), None

    @property
    def scheme(self) -> str:
        return self.version.scheme.value if self.version.scheme is not None else ""

    def cite(self, paragraph: str) -> str:
        """Exactly what :meth:`Ctx.cite` gives: « C. énergie, art. D. 251-7, 1° »."""
        citation = self.version.citation
        return f"{citation}, {paragraph}" if paragraph else citation


LEASE = Acquisition.LEASE


def is_short_lease(row: Row) -> bool:
    """``Ctx.lease_refusal``: a lease the row says lasts less than two years (an unknown duration is not)."""
    return (
        row.acquisition is LEASE
        and row.lease_duration_months is not None
        and row.lease_duration_months < LEASE_MIN_MONTHS
    )


def decisive(row: Row) -> date:
    """The decisive date the resolver gave (the engine has checked it is there)."""
    day = row.first_rent_date if row.acquisition is Acquisition.LEASE else row.invoice_date
    assert day is not None
    return day


_MONTH_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def add_months(day: date, months: int) -> date:
    """:func:`legislation.dates.add_months` without pendulum (10× faster): month ends clamp."""
    index = day.month - 1 + months
    year, month = day.year + index // 12, index % 12 + 1
    last = _MONTH_DAYS[month - 1]
    if month == 2 and year % 4 == 0 and (year % 100 != 0 or year % 400 == 0):
        last = 29
    return date(year, month, day.day if day.day <= last else last)


def _scaled(value: Decimal, scale: int, name: str) -> int:
    scaled = value * scale
    if scaled != scaled.to_integral_value():
        raise NotExact(f"parameter {name} = {value} is not a whole number of 1/{scale}")
    if not -(10**18) < scaled < 10**18:
        raise NotExact(f"parameter {name} = {value} is too large for the integer fast path")
    return int(scaled)


__all__ = [
    "COMPUTED",
    "Decided",
    "add_months",
    "decisive",
    "Kernel",
    "NATURAL_PERSON",
    "NotExact",
    "Params",
    "rate_terms",
]
