"""Kernel of :mod:`legislation.calculators.conversion_premium_2017_01_01` (D. 251-8, décret n° 2016-1980)."""

from __future__ import annotations

from legislation.fast.kernels._conversion_premium_2017 import build

__all__ = ["build"]
