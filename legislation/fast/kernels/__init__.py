"""Compiled kernels: one module per calculator, named like it, with ``build(version, relied)``.

A kernel is the fast twin of a calculator: the same rules in the same order, the same numbers (read
from the version's parameters when it is built), exact integer money, no steps, no strings built per
row. It returns the row's outcome for its version — computed, refused, or the « missing facts » answer
naming the paragraph that asks for the fact — or ``None`` for a row it does not decide, which then goes
through the explained path (as do all the rows of a version whose calculator has no kernel).
``tests/property/test_fast_path*.py`` hold every kernel to its calculator.
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
