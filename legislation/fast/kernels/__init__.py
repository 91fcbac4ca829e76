"""Compiled kernels: one module per calculator, named like it, with ``build(version, relied)``.

A kernel is the fast twin of a calculator: the same rules, the same numbers (read from the version's
parameters when it is built), no steps, no strings built per row. It returns ``(amount, eligible,
paragraph)`` or ``None`` when it cannot decide a row exactly (a missing fact, a rare branch): that row
then goes through the explained path. A calculator without a kernel sends all its rows there.
``tests/property/test_fast_path.py`` holds every kernel to its calculator.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping

from legislation.fast.kernels._kit import Kernel
from legislation.versions import Version

Builder = Callable[[Version, Mapping[str, Version]], Kernel]  # (version, the versions it relies on)


def _discover() -> dict[str, Builder]:
    found: dict[str, Builder] = {}
    for info in pkgutil.iter_modules(__path__):
        if not info.name.startswith("_"):
            found[info.name] = importlib.import_module(f"{__name__}.{info.name}").build
    return found


BUILDERS: dict[str, Builder] = _discover()

__all__ = ["BUILDERS", "Builder", "Kernel"]
