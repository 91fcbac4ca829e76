"""Kernel of :mod:`legislation.calculators.bonus_2017_02_19` (D. 251-7, décret n° 2017-196): with its 3°."""

from __future__ import annotations

from collections.abc import Mapping

from legislation.fast.kernels import _bonus_2017
from legislation.fast.kernels._kit import Kernel
from legislation.versions import Version


def build(version: Version, relied: Mapping[str, Version]) -> Kernel:
    return _bonus_2017.build(version, relied, below_threshold=True)
