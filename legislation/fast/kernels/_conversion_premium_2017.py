"""Kernel of C. énergie art. D. 251-8 in its 2017 wordings
(:mod:`legislation.calculators._conversion_premium_2017`).

1° (new vehicle) and 2° (household whose income tax is nil) are alternatives, the more favourable kept;
a fact of 2° is asked only when 2° could give more than 1°, exactly as the calculator does.
"""

from __future__ import annotations

from collections.abc import Mapping

from legislation.calculators import _conversion_premium_2017 as rules
from legislation.enums import EuroStandard, PersonKind, VehicleCategory
from legislation.fast.kernels._kit import LEASE, Decided, Kernel, Params, is_short_lease
from legislation.fast.row import Row
from legislation.versions import Version

CARS_AND_VANS, CAR = rules.FIRST_ALINEA_OF_D251_3, VehicleCategory.PASSENGER_CAR
NATURAL, EURO_6, EURO_5 = PersonKind.NATURAL_PERSON, EuroStandard.EURO_6, EuroStandard.EURO_5
ASK = object()  # a fact of 2° is missing and 2° could prevail: the calculator asks for it


def build(version: Version, relied: Mapping[str, Version]) -> Kernel:  # noqa: C901 - mirrors the calculator
    p = Params(version, relied)
    new_a_max, new_b_min, new_b_max = (
        p.count("new_co2_max_a"),
        p.count("new_co2_min_b"),
        p.count("new_co2_max_b"),
    )
    home_a_max, home_min, home_max = (
        p.count("household_co2_max_a"),
        p.count("household_co2_min"),
        p.count("household_co2_max"),
    )
    new_a, new_b = (
        p.outcome(p.cents("new_amount_a"), True, "1° a)"),
        p.outcome(p.cents("new_amount_b"), True, "1° b)"),
    )
    home_a, home_b = (
        p.outcome(p.cents("household_amount_a"), True, "2° a)"),
        p.outcome(p.cents("household_amount_b"), True, "2° b)"),
    )
    most = home_a[2]
    no_scrapped, none_met = p.outcome(0, False, ""), p.outcome(0, False, "1°, 2°")
    need_1, need_2 = p.missing("1°"), p.missing("2°")

    def household(row: Row, category: VehicleCategory, co2: int, required: bool) -> Decided | object | None:
        """2°: its candidate, None (not met or not examined), or ASK."""
        if category is not CAR or co2 > home_max:  # closed whoever the buyer: the buyer is not asked
            return None
        kind = row.buyer_person_kind
        if kind is None:
            return ASK if required else None
        if kind is not NATURAL:
            return None
        nil = row.buyer_income_tax_nil
        if nil is None:
            return ASK if required else None
        if not nil:
            return None
        if co2 <= home_a_max:
            return home_a
        if co2 < home_min:
            return None
        euro = row.vehicle_euro_standard
        if euro is None:
            return ASK if required else None
        return home_a if euro is EURO_6 else home_b if euro is EURO_5 else None

    short_lease = p.refusal_citing("C. énergie, art. D. 251-3, premier alinéa")  # Ctx.lease_refusal

    def kernel(row: Row, open_branches: frozenset[str]) -> Decided:
        if row.acquisition is LEASE and is_short_lease(row):
            return short_lease
        if not row.scrapped_vehicle:
            return no_scrapped
        category, co2 = row.vehicle_category, row.vehicle_co2_g_per_km
        if category is None or co2 is None:
            return need_1
        if category not in CARS_AND_VANS:
            return no_scrapped
        new = None
        if co2 <= new_b_max:  # the CO2 bands first: above them the vehicle's registration is not asked
            registered = row.vehicle_previously_registered
            if registered is None:
                return need_1
            if not registered:
                new = new_a if co2 <= new_a_max else new_b if new_b_min <= co2 else None
        other = household(row, category, co2, required=new is None or new[2] < most)
        if other is ASK:
            return need_2
        if new is None:
            return none_met if other is None else other  # type: ignore[return-value]
        if other is None:
            return new
        return other if other[2] > new[2] else new  # type: ignore[index,return-value]

    return kernel
