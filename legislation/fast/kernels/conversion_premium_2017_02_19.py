"""Kernel of :mod:`legislation.calculators.conversion_premium_2017_02_19` (D. 251-8, décret n° 2017-196)."""

from __future__ import annotations

from legislation.fast.kernels._conversion_premium_2017 import build

__all__ = ["build"]
