"""What every kernel shares: the result shape, exact integer rates, parameter reading and citations.

Money is in cents and quantities in thousandths (see :mod:`legislation.fast.row`). A parameter is turned
into an integer of the same scale when the kernel is built; one that does not fit exactly raises
:class:`NotExact`, and the version then has no kernel (its rows take the explained path).
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from legislation.enums import PersonKind
from legislation.fast.row import CENTS, THOUSANDTHS, Row
from legislation.versions import Version

# A kernel returns the row's whole outcome for its version — (scheme, "computed", amount in cents,
# eligible, this version's id, paragraph cited in full, None) — so that the engine passes it on as is;
# or None: « not decided here », the row takes the explained path.
Decided = tuple[str, str, int, bool, str, str, None]
Kernel = Callable[[Row, frozenset[str]], Decided | None]
COMPUTED = "computed"

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

    __slots__ = ("version",)

    def __init__(self, version: Version) -> None:
        self.version = version

    def __call__(self, name: str) -> Decimal:
        return self.version.parameters[name].value

    def cents(self, name: str) -> int:
        """A price, amount or cap in cents."""
        return _scaled(self(name), CENTS, name)

    def thousandths(self, name: str) -> int:
        """A power, energy or distance in thousandths (kW, kWh, km)."""
        return _scaled(self(name), THOUSANDTHS, name)

    def count(self, name: str) -> int | Decimal:
        """A threshold compared with an integer fact (g/km, months): an int when whole, else as it is."""
        value = self(name)
        return int(value) if value == value.to_integral_value() else value

    def rate(self, name: str, unit_scale: int = CENTS) -> tuple[int, int, int]:
        """A rate (« 27 % du coût ») or a price per unit (« 250 euros par kilowattheure », unit_scale=1000)
        as the terms of :func:`rate_terms`; the amount in cents is ``(num * base + half) // den``."""
        return rate_terms(self(name), unit_scale)

    def outcome(self, amount: int, eligible: bool, paragraph: str) -> Decided:
        """A fixed outcome of this version (« le montant de l'aide est fixé à 3 000 euros », a refusal)."""
        return self.scheme, COMPUTED, amount, eligible, self.version.id, self.cite(paragraph), None

    @property
    def scheme(self) -> str:
        return self.version.scheme.value if self.version.scheme is not None else ""

    def cite(self, paragraph: str) -> str:
        """Exactly what :meth:`Ctx.cite` gives: « C. énergie, art. D. 251-7, 1° »."""
        citation = self.version.citation
        return f"{citation}, {paragraph}" if paragraph else citation


def _scaled(value: Decimal, scale: int, name: str) -> int:
    scaled = value * scale
    if scaled != scaled.to_integral_value():
        raise NotExact(f"parameter {name} = {value} is not a whole number of 1/{scale}")
    return int(scaled)


__all__ = ["COMPUTED", "Decided", "Kernel", "NATURAL_PERSON", "NotExact", "Params", "rate_terms"]
