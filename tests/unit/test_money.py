"""Money: Decimal from strings, one rounding (to the cent, half up)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from legislation.money import euros, format_euros, round_cents


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("4999.995", "5000.00"), ("4999.9949", "4999.99"), ("0.005", "0.01"), ("8100.0027", "8100.00")],
)
def test_round_cents_half_up(raw: str, expected: str) -> None:
    assert round_cents(Decimal(raw)) == Decimal(expected)


def test_format_euros_has_two_decimals() -> None:
    assert format_euros(Decimal("7000")) == "7000.00"


def test_euros_refuses_floats() -> None:
    with pytest.raises(TypeError):
        euros(0.1)  # type: ignore[arg-type]
    assert euros("6300") == Decimal("6300")
