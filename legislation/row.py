"""The flat row a batch calculation reads: every fact of a :class:`~legislation.facts.Purchase`, flat.

A ``Purchase`` is three frozen dataclasses (about 13 µs to build); a batch of a million rows cannot afford
that before it computes anything. A :class:`Row` holds the same facts in one mutable slotted object —
built field by field from a CSV line or converted from a ``Purchase`` — and converts back to a
``Purchase`` when a row must go through the explained path.

Money and quantities are exact integers: euros as **cents** (:data:`MONEY_FIELDS`, the contract allows two
decimals) and kW, kWh, km as **thousandths** (:data:`QUANTITY_FIELDS`, three decimals). Integer
arithmetic is exact and four to five times faster than ``Decimal`` here (an add, a compare, a multiply
and a ``quantize`` cost 0.7 µs in ``Decimal``, 0.15 µs in ``int``). A ``Purchase`` whose amounts do not
fit (more decimals than the contract allows, negative, absurdly large) gives a row with ``exact=False``,
which the engine sends to the explained path whole. Attribute names are the CSV columns of ``vigueur batch``:
``vehicle_*`` for :class:`Vehicle`, ``buyer_*`` for :class:`Buyer`, ``scrapped_*`` for
:class:`ScrappedVehicle` (``scrapped_vehicle`` says whether there is one).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from datetime import date
from decimal import Decimal
from operator import attrgetter
from typing import Any

from legislation.enums import (
    Acquisition,
    CritAir,
    Energy,
    EuroStandard,
    PersonKind,
    PowerBasis,
    Scheme,
    VanClass,
    VehicleCategory,
)
from legislation.errors import InvalidFacts
from legislation.facts import Buyer, Purchase, ScrappedVehicle, Vehicle

ALL_SCHEMES: tuple[Scheme, ...] = tuple(Scheme)
# The scheme tuples a row may share: one object each, so the engine finds their plans by identity
# (an enum's hash is computed in Python, too slow for a lookup per row).
SCHEME_TUPLES: tuple[tuple[Scheme, ...], ...] = (
    ALL_SCHEMES,
    *((s,) for s in Scheme),
    tuple(reversed(ALL_SCHEMES)),
)


def shared_schemes(schemes: tuple[Scheme, ...]) -> tuple[Scheme, ...]:
    """The shared tuple equal to ``schemes`` (the same object every time), or ``schemes`` itself."""
    return next((t for t in SCHEME_TUPLES if t == schemes), schemes)


@dataclass(slots=True)
class Row:
    """One purchase or lease, flat. Treated as immutable once built (not frozen: frozen init is 3× slower)."""

    acquisition: Acquisition
    order_date: date | None = None
    invoice_date: date | None = None
    first_rent_date: date | None = None
    lease_duration_months: int | None = None
    schemes: tuple[Scheme, ...] = ALL_SCHEMES
    vehicle_category: VehicleCategory | None = None
    vehicle_energy: Energy | None = None
    vehicle_co2_g_per_km: int | None = None
    vehicle_acquisition_cost: int | None = None  # cents
    vehicle_battery_rental_cost: int = 0  # cents
    vehicle_electric_motor_power_30min_kw: int | None = None  # thousandths of a kW
    vehicle_net_max_power_kw: int | None = None  # thousandths of a kW
    vehicle_power_basis: PowerBasis | None = None
    vehicle_uses_lead_battery: bool | None = None
    vehicle_battery_energy_kwh: int | None = None  # thousandths of a kWh
    vehicle_city_electric_range_km: int | None = None  # metres
    vehicle_euro_standard: EuroStandard | None = None
    vehicle_critair: CritAir | None = None
    vehicle_van_class: VanClass | None = None
    vehicle_previously_registered: bool | None = None
    vehicle_first_registration_date: date | None = None
    vehicle_new_registration_system: bool | None = None
    vehicle_wheelchair_accessible: bool | None = None
    vehicle_demonstration: bool | None = None
    vehicle_mass_kg: int | None = None  # kg, an integer (« masse en ordre de marche »)
    vehicle_environmental_score_eligible: bool | None = None
    buyer_person_kind: PersonKind | None = None
    buyer_reference_income_per_share: int | None = None  # cents
    buyer_income_tax_nil: bool | None = None
    buyer_home_work_distance_km: int | None = None  # metres
    buyer_professional_km_per_year: int | None = None  # metres
    buyer_leases_out_months: int | None = None
    buyer_dealer_demonstration: bool | None = None
    buyer_overseas: bool | None = None
    buyer_bonus_in_last_three_years: bool | None = None
    scrapped_vehicle: bool = False
    scrapped_energy: Energy | None = None
    scrapped_category: VehicleCategory | None = None
    scrapped_first_registration_date: date | None = None
    scrapped_owned_since: date | None = None
    scrapped_destruction_date: date | None = None
    bonus_ecologique_amount: int | None = None  # cents
    exact: bool = True  # False: a fact does not fit its integer scale (:meth:`check_exact` says which)
    source: Purchase | None = None  # the purchase the row was converted from, if any
    inexact: tuple[str, str] | None = None  # the request path and value of the first fact that does not fit

    @classmethod
    def from_purchase(cls, purchase: Purchase) -> Row:
        """The flat row of a purchase; ``exact`` is False when an amount does not fit its scale."""
        return cls.from_facts(purchase, purchase.schemes, source=purchase)

    @classmethod
    def from_facts(cls, facts: Any, schemes: tuple[Scheme, ...], source: Purchase | None = None) -> Row:
        """The flat row of anything with a :class:`Purchase`'s attributes — a ``Purchase``, or a request of
        the JSON contract, whose fields bear the same names — without building a ``Purchase`` first.

        ``exact`` is False when an amount does not fit its scale; ``source``: the purchase, when there is one
        (the explained path then reads it as is).
        """
        values: dict[str, Any] = dict(zip(_TOP_NAMES, _top(facts), strict=True))
        values.update(zip(_VEHICLE_NAMES, _vehicle(facts.vehicle), strict=True))
        values.update(zip(_BUYER_NAMES, _buyer(facts.buyer), strict=True))
        scrapped = facts.scrapped_vehicle
        values["scrapped_vehicle"] = scrapped is not None
        if scrapped is not None:
            values.update(zip(_SCRAPPED_NAMES, _scrapped(scrapped), strict=True))
        exact, inexact = True, None
        for name, scale in SCALES.items():
            value = values[name]
            if value is not None:
                scaled = to_scaled(value, scale)
                if scaled is None:
                    exact, scaled = False, 0
                    inexact = inexact or name
                values[name] = scaled
        values["schemes"] = shared_schemes(schemes)
        row = cls(**values, exact=exact, source=source)
        if inexact is not None:
            row.inexact = (request_path(inexact), str(_VALUES_OF[inexact](facts)))
        return row

    def check_exact(self) -> None:
        """:class:`InvalidFacts` when an amount or quantity does not fit its scale (too many decimals, negative,
        absurdly large): the calculators count in cents and thousandths, exactly, as the contract does."""
        if not self.exact:
            path, value = self.inexact or ("", "")
            decimals = 2 if path.split(".")[-1] in _MONEY_NAMES else 3
            raise InvalidFacts(
                f"{path} = {value}: an amount must be ≥ 0 with at most {decimals} decimals (the request contract)",
                path,
            )

    def to_purchase(self) -> Purchase:
        """The domain purchase this row describes (what the explained path reads)."""
        if self.source is not None:
            return self.source
        values = {name: getattr(self, name) for name in ROW_FIELDS}
        for name, scale in SCALES.items():
            if values[name] is not None:
                values[name] = from_scaled(values[name], scale)
        scrapped = None
        if self.scrapped_vehicle:
            scrapped = ScrappedVehicle(**{n: values[f"scrapped_{n}"] for n in SCRAPPED_FIELDS})
        return Purchase(
            **{name: values[name] for name in TOP_LEVEL},
            vehicle=Vehicle(**{n: values[f"vehicle_{n}"] for n in VEHICLE_FIELDS}),
            buyer=Buyer(**{n: values[f"buyer_{n}"] for n in BUYER_FIELDS}),
            scrapped_vehicle=scrapped,
        )


CENTS, THOUSANDTHS = 100, 1000
MONEY_FIELDS = (
    "vehicle_acquisition_cost",
    "vehicle_battery_rental_cost",
    "buyer_reference_income_per_share",
    "bonus_ecologique_amount",
)
QUANTITY_FIELDS = (
    "vehicle_electric_motor_power_30min_kw",
    "vehicle_net_max_power_kw",
    "vehicle_battery_energy_kwh",
    "vehicle_city_electric_range_km",
    "buyer_home_work_distance_km",
    "buyer_professional_km_per_year",
)
SCALES: dict[str, int] = {**dict.fromkeys(MONEY_FIELDS, CENTS), **dict.fromkeys(QUANTITY_FIELDS, THOUSANDTHS)}
_LIMIT = 10**18  # beyond this, Decimal's 28 digits could round where integers do not: leave it to Decimal


def to_scaled(value: Decimal, scale: int) -> int | None:
    """``value × scale`` as an int when it is a whole number in [0, 10^18); None otherwise."""
    scaled = Decimal(value) * scale
    if not scaled.is_finite() or scaled != scaled.to_integral_value() or not 0 <= scaled < _LIMIT:
        return None
    return int(scaled)


def from_scaled(value: int, scale: int) -> Decimal:
    """The Decimal an int of a scale stands for: 3000000 cents → Decimal('30000.00')."""
    return Decimal(value).scaleb(-2 if scale == CENTS else -3)


def cents(amount: Decimal) -> int:
    """An award's amount (already rounded to the cent) in cents."""
    return int(amount.scaleb(2))


VEHICLE_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Vehicle))
BUYER_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Buyer))
SCRAPPED_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(ScrappedVehicle))
TOP_LEVEL: tuple[str, ...] = tuple(
    f.name for f in fields(Purchase) if f.name not in ("vehicle", "buyer", "scrapped_vehicle")
)
ROW_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Row) if f.name not in ("exact", "source", "inexact"))


def request_path(row_field: str) -> str:
    """``vehicle_acquisition_cost`` → ``vehicle.acquisition_cost`` (the request contract's path)."""
    for group in ("vehicle", "buyer"):
        if row_field.startswith(group + "_"):
            return f"{group}.{row_field[len(group) + 1 :]}"
    if row_field.startswith("scrapped_"):
        return f"scrapped_vehicle.{row_field[len('scrapped_') :]}"
    return row_field


_MONEY_NAMES = frozenset(request_path(n).split(".")[-1] for n in MONEY_FIELDS)


def _value_of(row_field: str) -> Any:
    path = request_path(row_field).split(".")
    return attrgetter(".".join(path))


_VALUES_OF = {name: _value_of(name) for name in SCALES}

# Row.from_facts reads the facts' attributes with C-level getters (one call per part, not one per field).
_TOP_FACTS = tuple(n for n in TOP_LEVEL if n != "schemes")
_TOP_NAMES, _top = _TOP_FACTS, attrgetter(*_TOP_FACTS)
_VEHICLE_NAMES, _vehicle = tuple(f"vehicle_{n}" for n in VEHICLE_FIELDS), attrgetter(*VEHICLE_FIELDS)
_BUYER_NAMES, _buyer = tuple(f"buyer_{n}" for n in BUYER_FIELDS), attrgetter(*BUYER_FIELDS)
_SCRAPPED_NAMES, _scrapped = tuple(f"scrapped_{n}" for n in SCRAPPED_FIELDS), attrgetter(*SCRAPPED_FIELDS)
