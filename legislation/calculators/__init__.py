"""One calculator per version of an amounts text, found by the module name its version gives.

A calculator is a module of this package named after its version (``bonus_2015_01_01``) with
``PARAMETERS`` and ``calculate(ctx)``; ``kit`` is the shared toolkit, not a calculator.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

_NOT_CALCULATORS = {"kit"}


def _discover() -> dict[str, ModuleType]:
    found = {}
    for info in pkgutil.iter_modules(__path__):
        if info.name not in _NOT_CALCULATORS and not info.name.startswith("_"):
            found[info.name] = importlib.import_module(f"{__name__}.{info.name}")
    return found


CALCULATORS: dict[str, ModuleType] = _discover()


def get_calculator(key: str) -> ModuleType:
    """The calculator module registered under ``key`` (KeyError when there is none)."""
    return CALCULATORS[key]
