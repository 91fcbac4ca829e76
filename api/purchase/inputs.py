"""The request fields a version's calculator may read: the ``FACTS`` each calculator declares.

The explaining context enforces the declaration (a calculator that reads an undeclared fact fails), so every
explained answer — the whole test suite and case corpus — proves it; nothing reads the calculators' source.
"""

from __future__ import annotations

import re

from pydantic import BaseModel

from api.purchase.request import BuyerIn, CalculationRequest, ScrappedVehicleIn, VehicleIn
from legislation.calculators import CALCULATORS

GROUPS: dict[str, type[BaseModel]] = {
    "vehicle": VehicleIn,
    "buyer": BuyerIn,
    "scrapped_vehicle": ScrappedVehicleIn,
}
TOP_LEVEL = frozenset(CalculationRequest.model_fields) - {"vehicle", "buyer", "schemes"}
PATH = re.compile(r"^(vehicle|buyer|scrapped_vehicle)\.([a-z0-9_]+)$")


def is_request_path(path: str) -> bool:
    """True for ``vehicle.co2_g_per_km``, ``invoice_date``…: a field of the request contract."""
    match = PATH.match(path)
    if match:
        return match.group(2) in GROUPS[match.group(1)].model_fields
    return path in TOP_LEVEL


def calculator_facts(key: str) -> tuple[str, ...]:
    """The request paths the calculator registered under ``key`` may read (sorted); () for an unknown key."""
    module = CALCULATORS.get(key)
    return tuple(sorted(module.FACTS)) if module is not None else ()
