"""Builders for test purchases: short to write, explicit about every fact."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from legislation import Acquisition, Buyer, Purchase, Scheme, ScrappedVehicle, Vehicle


def d(iso: str) -> date:
    return date.fromisoformat(iso)


def purchase(
    invoice: str | None = None,
    *,
    order: str | None = None,
    first_rent: str | None = None,
    lease: bool = False,
    scheme: Scheme = Scheme.BONUS,
    scrapped: dict[str, Any] | None = None,
    bonus_amount: str | None = None,
    buyer: dict[str, Any] | None = None,
    **vehicle: Any,
) -> Purchase:
    """A purchase (or lease) with vehicle facts as keyword arguments; money given as strings."""
    for key in ("acquisition_cost", "battery_rental_cost", "battery_energy_kwh", "net_max_power_kw",
                "electric_motor_power_30min_kw", "city_electric_range_km"):
        if isinstance(vehicle.get(key), str | int):
            vehicle[key] = Decimal(str(vehicle[key]))
    buyer_facts = dict(buyer or {})
    for key in ("reference_income_per_share", "home_work_distance_km", "professional_km_per_year"):
        if isinstance(buyer_facts.get(key), str | int):
            buyer_facts[key] = Decimal(str(buyer_facts[key]))
    return Purchase(
        acquisition=Acquisition.LEASE if lease else Acquisition.PURCHASE,
        order_date=d(order) if order else None,
        invoice_date=d(invoice) if invoice else None,
        first_rent_date=d(first_rent) if first_rent else None,
        vehicle=Vehicle(**vehicle),
        buyer=Buyer(**buyer_facts),
        scrapped_vehicle=ScrappedVehicle(**scrapped) if scrapped is not None else None,
        bonus_ecologique_amount=Decimal(bonus_amount) if bonus_amount else None,
        schemes=(scheme,),
    )
