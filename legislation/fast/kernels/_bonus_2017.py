"""Kernel of C. énergie art. D. 251-7 in its 2017 wordings (:mod:`legislation.calculators._bonus_2017`)."""

from __future__ import annotations

from collections.abc import Mapping

from legislation.calculators import _bonus_2017 as rules
from legislation.enums import Energy, VehicleCategory
from legislation.fast.kernels._kit import COMPUTED, LEASE, Decided, Kernel, Params, is_short_lease
from legislation.fast.row import THOUSANDTHS, Row
from legislation.versions import Version

FIRST_A = rules.FIRST_A_OF_D251_1
L_VEHICLE, ELECTRIC = VehicleCategory.TWO_THREE_WHEELER, Energy.ELECTRIC


def build(version: Version, relied: Mapping[str, Version], *, below_threshold: bool) -> Kernel:  # noqa: C901
    """``below_threshold``: the wording has the 3° (L vehicles under 3 kW: a rate, capped)."""
    p = Params(version, relied)
    s, v = p.scheme, version.id
    ev_co2_max, low_min, low_max = p.count("ev_co2_max"), p.count("low_co2_min"), p.count("low_co2_max")
    ev_n, ev_h, ev_d = p.rate("ev_rate")
    ev_cap, p1a = p.cents("ev_cap"), p.cite("1° a)")
    low = p.outcome(p.cents("low_amount"), True, "1° b)")
    l_min_kw, l_cap, p2 = p.thousandths("l_min_kw"), p.cents("l_cap"), p.cite("2°")
    kwh_n, kwh_h, kwh_d = p.rate("l_per_kwh", THOUSANDTHS)
    l_n, l_h, l_d = p.rate("l_rate")
    small_n, small_h, small_d = p.rate("l_small_rate") if below_threshold else (0, 0, 1)
    small_cap = p.cents("l_small_cap") if below_threshold else 0
    p3 = p.cite("3°")
    no_co2, no_l, no_category = p.outcome(0, False, "1°"), p.outcome(0, False, "2°"), p.outcome(0, False, "")

    need = {x: p.missing(x) for x in ("1°", "1° a)", "2°", "2° a)", "3°")}

    def two_three_wheeler(row: Row) -> Decided:
        energy = row.vehicle_energy
        if energy is not None and energy is not ELECTRIC:
            return no_l
        lead = row.vehicle_uses_lead_battery
        if lead is None:
            return need["2°"]
        if lead:
            return no_l
        power = row.vehicle_net_max_power_kw
        if power is None:
            return need["2°"]
        cost = row.vehicle_acquisition_cost
        if power < l_min_kw:
            if not below_threshold:
                return no_l
            if cost is None:
                return need["3°"]
            amount = (small_n * cost + small_h) // small_d  # 3°: the cost alone
            return s, COMPUTED, (small_cap if amount > small_cap else amount), True, v, p3, None
        kwh = row.vehicle_battery_energy_kwh
        if kwh is None:
            return need["2°"]
        if cost is None:
            return need["2° a)"]
        amount = (kwh_n * kwh + kwh_h) // kwh_d
        ceiling = (l_n * (cost + row.vehicle_battery_rental_cost) + l_h) // l_d
        lower = ceiling if ceiling < l_cap else l_cap
        return s, COMPUTED, (lower if amount > lower else amount), True, v, p2, None

    short_lease = p.refusal_citing("C. énergie, art. D. 251-1, premier alinéa")  # Ctx.lease_refusal

    def kernel(row: Row, open_branches: frozenset[str]) -> Decided:
        if row.acquisition is LEASE and is_short_lease(row):
            return short_lease
        category = row.vehicle_category
        if category in FIRST_A:
            co2 = row.vehicle_co2_g_per_km
            if co2 is None:
                return need["1°"]
            if co2 <= ev_co2_max:  # 1° a)
                cost = row.vehicle_acquisition_cost
                if cost is None:
                    return need["1° a)"]
                amount = (ev_n * (cost + row.vehicle_battery_rental_cost) + ev_h) // ev_d
                return s, COMPUTED, (ev_cap if amount > ev_cap else amount), True, v, p1a, None
            return low if low_min <= co2 <= low_max else no_co2  # 1° b)
        if category is L_VEHICLE:
            return two_three_wheeler(row)
        return need["1°"] if category is None else no_category

    return kernel
