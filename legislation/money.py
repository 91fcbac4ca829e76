"""Money: ``Decimal`` euros built from strings, rounded in one place."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")
ZERO = Decimal("0.00")


def euros(value: str | int | Decimal) -> Decimal:
    """Build an amount in euros from a string, an int or a Decimal (never a float)."""
    if isinstance(value, float):  # pragma: no cover - guarded by type hints
        raise TypeError("money is never built from a float")
    return Decimal(value) if not isinstance(value, Decimal) else value


def round_cents(amount: Decimal) -> Decimal:
    """Round to the cent, half up: the one rounding of the product.

    The texts fix rates (« 27 % du coût ») without a rounding rule; the paying agency pays in
    euros and cents, so a computed amount is rounded to the nearest cent, halves up.
    """
    return amount.quantize(CENT, rounding=ROUND_HALF_UP)


def format_euros(amount: Decimal) -> str:
    """The JSON form of an amount: a string with two decimals, « 6300.00 »."""
    return str(round_cents(amount))
