"""Kernel of :mod:`legislation.calculators.bonus_2020_06_01` (C. énergie, art. D. 251-7, décret n° 2020-656).

The calculator's branches in its order, every number read from the version's parameters; a fact the
calculator asks for and the row lacks gives the calculator's « missing facts » answer (the paragraph that
asks for it), the facts asked in the calculator's order.
"""

from __future__ import annotations

from collections.abc import Mapping

from legislation.enums import Energy, PowerBasis, VehicleCategory
from legislation.fast.kernels._kit import (
    COMPUTED,
    LEASE,
    NATURAL_PERSON,
    Decided,
    Kernel,
    Params,
    is_short_lease,
)
from legislation.fast.row import THOUSANDTHS, Row
from legislation.versions import Version

CAR, VAN = VehicleCategory.PASSENGER_CAR, VehicleCategory.VAN
L_VEHICLE, M2_N2 = VehicleCategory.TWO_THREE_WHEELER, VehicleCategory.LIGHT_M2_N2
REGULATION, HYDROGEN, ELECTRIC = PowerBasis.REGULATION_EU_168_2013, Energy.HYDROGEN, Energy.ELECTRIC


def build(version: Version, relied: Mapping[str, Version]) -> Kernel:  # noqa: C901 - one closure mirrors the calculator's tree
    p = Params(version)
    ev_co2_max, phev_co2_min, phev_co2_max = (
        p.count("ev_co2_max"),
        p.count("phev_co2_min"),
        p.count("phev_co2_max"),
    )
    ev_low, ev_mid_max = p.cents("ev_low_price_limit"), p.cents("ev_mid_price_max")
    ev_n, ev_h, ev_d = p.rate("ev_rate")
    cap_natural, cap_legal = p.cents("ev_cap_natural"), p.cents("ev_cap_legal")
    kw_regulation, kw_directive = p.thousandths("l_min_kw_regulation"), p.thousandths("l_min_kw_directive")
    (kwh_n, kwh_h, kwh_d), (l_n, l_h, l_d), l_cap = (
        p.rate("l_per_kwh", THOUSANDTHS),
        p.rate("l_rate"),
        p.cents("l_cap"),
    )
    (small_n, small_h, small_d), l_small_cap = p.rate("l_small_rate"), p.cents("l_small_cap")
    (m2_n, m2_h, m2_d), m2n2_cap = p.rate("m2n2_rate"), p.cents("m2n2_cap")
    phev_price_max, phev_range_min = p.cents("phev_price_max"), p.thousandths("phev_range_min")
    s, v, p1, p4, p5, p6 = p.scheme, version.id, p.cite("1°"), p.cite("4°"), p.cite("5°"), p.cite("6°")
    mid = p.outcome(p.cents("ev_mid_amount"), True, "2°")
    high, no_high = p.outcome(p.cents("ev_high_amount"), True, "3°"), p.outcome(0, False, "3°")
    phev, no_phev = p.outcome(p.cents("phev_amount"), True, "7°"), p.outcome(0, False, "7°")
    no_co2, no_lead, no_category = (
        p.outcome(0, False, "1°, 7°"),
        p.outcome(0, False, "4°"),
        p.outcome(0, False, ""),
    )
    no_l_energy = p.outcome(0, False, "4°, 5°")
    need = {x: p.missing(x) for x in ("1°", "3°", "4°", "4° a)", "5°", "6°", "7°")}

    short_lease = p.refusal_citing("C. énergie, art. D. 251-1, premier alinéa")  # Ctx.lease_refusal

    def kernel(row: Row, open_branches: frozenset[str]) -> Decided:
        if row.acquisition is LEASE and is_short_lease(row):
            return short_lease
        category = row.vehicle_category
        if category is CAR or category is VAN:
            co2 = row.vehicle_co2_g_per_km
            if co2 is None:
                return need["1°"]
            if co2 <= ev_co2_max:
                cost = row.vehicle_acquisition_cost
                if cost is None:
                    return need["1°"]
                cost += row.vehicle_battery_rental_cost
                if cost < ev_low:  # 1°
                    kind = row.buyer_person_kind
                    if kind is None:
                        return need["1°"]
                    amount = (ev_n * cost + ev_h) // ev_d
                    cap = cap_natural if kind is NATURAL_PERSON else cap_legal  # the State: legal-person cap
                    return s, COMPUTED, (cap if amount > cap else amount), True, v, p1, None
                if cost <= ev_mid_max:  # 2°
                    return mid
                if category is VAN or row.vehicle_energy is HYDROGEN:  # 3°
                    return high
                return need["3°"] if row.vehicle_energy is None else no_high
            if phev_co2_min <= co2 <= phev_co2_max:  # 7°
                cost = row.vehicle_acquisition_cost  # the 50 000 € ceiling leaves a leased battery out
                if cost is None:
                    return need["7°"]
                if cost > phev_price_max:
                    return no_phev
                city_range = row.vehicle_city_electric_range_km
                if city_range is None:
                    return need["7°"]
                return phev if city_range > phev_range_min else no_phev
            return no_co2
        if category is L_VEHICLE:
            energy = row.vehicle_energy
            if energy is not None and energy is not ELECTRIC:  # not a vehicle of the 6° of D. 251-1
                return no_l_energy
            lead = row.vehicle_uses_lead_battery
            if lead is None:
                return need["4°"]
            if lead:
                return no_lead
            power = row.vehicle_net_max_power_kw
            if power is None:
                return need["4°"]
            if power >= kw_directive or power < kw_regulation:  # the instrument does not matter
                threshold = kw_directive if power >= kw_directive else kw_regulation
            else:
                basis = row.vehicle_power_basis
                if basis is None:
                    return need["4°"]
                threshold = kw_regulation if basis is REGULATION else kw_directive
            cost = row.vehicle_acquisition_cost
            if power >= threshold:  # 4°
                kwh = row.vehicle_battery_energy_kwh
                if kwh is None:
                    return need["4°"]
                if cost is None:
                    return need["4° a)"]
                amount = (kwh_n * kwh + kwh_h) // kwh_d
                ceiling = (l_n * (cost + row.vehicle_battery_rental_cost) + l_h) // l_d
                lower = ceiling if ceiling < l_cap else l_cap
                return s, COMPUTED, (lower if amount > lower else amount), True, v, p4, None
            if cost is None:
                return need["5°"]
            amount = (small_n * cost + small_h) // small_d  # 5°: the cost alone, no leased battery
            return s, COMPUTED, (l_small_cap if amount > l_small_cap else amount), True, v, p5, None
        if category is M2_N2:  # 6°
            cost = row.vehicle_acquisition_cost
            if cost is None:
                return need["6°"]
            amount = (m2_n * (cost + row.vehicle_battery_rental_cost) + m2_h) // m2_d
            return s, COMPUTED, (m2n2_cap if amount > m2n2_cap else amount), True, v, p6, None
        return need["1°"] if category is None else no_category

    return kernel
