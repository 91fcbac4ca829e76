"""Kernel of :mod:`legislation.calculators.bonus_2015_01_01` (décret n° 2014-1672, art. 3, with its art. 1).

Art. 1 first (:mod:`._art1_2015`), then art. 3's paragraphs in the calculator's order, the inline
transitional branches as the engine opens them. Numbers from the versions' parameters.
"""

from __future__ import annotations

from collections.abc import Mapping

from legislation.calculators import bonus_2015_01_01 as calculator
from legislation.enums import Energy, VehicleCategory
from legislation.fast.kernels._art1_2015 import ELIGIBLE, build_check
from legislation.fast.kernels._kit import COMPUTED, Decided, Kernel, Params
from legislation.fast.row import Row
from legislation.versions import Version

CAR = VehicleCategory.PASSENGER_CAR
PETROL_DIESEL_HYBRIDS = calculator.PETROL_DIESEL_HYBRIDS
HYBRID_BRANCH, OTHER_BRANCH = calculator.HYBRID_BRANCH, calculator.OTHER_BRANCH


# Energy.is_hybrid, as a tuple: a membership test by identity instead of a property call per row.
HYBRIDS = tuple(e for e in Energy if e.is_hybrid)


def build(version: Version, relied: Mapping[str, Version]) -> Kernel:  # noqa: C901 - mirrors the calculator
    p = Params(version, relied)
    art1 = build_check(p)
    s, v = p.scheme, version.id

    def band(prefix: str) -> tuple[int, int]:
        return p.count(f"{prefix}_co2_min"), p.count(f"{prefix}_co2_max")

    def rate_capped(rate: str, cap: str, paragraph: str) -> tuple[int, int, int, int, str, Decided]:
        return (*p.rate(rate), p.cents(cap), p.cite(paragraph), p.missing(paragraph))

    car_zero_max, van_zero_max = p.count("car_zero_co2_max"), p.count("van_zero_co2_max")
    car_low, van_low = band("car_low"), band("van_low")
    hybrid, t_hybrid, t_other = band("hybrid"), band("transitional_hybrid"), band("transitional_other")
    car_zero, car_low_r = (
        rate_capped("car_zero_rate", "car_zero_cap", "1° b)"),
        rate_capped("car_low_rate", "car_low_cap", "1° b), 2e alinéa"),
    )
    van_zero, van_low_r = (
        rate_capped("van_zero_rate", "van_zero_cap", "2°"),
        rate_capped("van_low_rate", "van_low_cap", "2°, 2e alinéa"),
    )
    hybrid_kw = p.thousandths("hybrid_min_electric_kw")
    h_n, h_h, h_d = p.rate("hybrid_rate")
    h_floor, h_cap, h_cite = p.cents("hybrid_floor"), p.cents("hybrid_cap"), p.cite("1° a)")
    t_n, t_h, t_d = p.rate("transitional_hybrid_rate")
    t_floor, t_cap, t_cite = (
        p.cents("transitional_hybrid_floor"),
        p.cents("transitional_hybrid_cap"),
        p.cite("1° a), 2e alinéa"),
    )
    other = p.outcome(p.cents("transitional_other_amount"), True, "1° b), 3e alinéa")
    no_car, no_van = p.outcome(0, False, "1°"), p.outcome(0, False, "2°")
    need_a, need_t = p.missing("1° a)"), p.missing("1° a), 2e alinéa")

    def capped(row: Row, terms: tuple[int, int, int, int, str, Decided]) -> Decided:
        n, h, d, cap, cite, missing = terms
        cost = row.vehicle_acquisition_cost
        if cost is None:
            return missing
        amount = (n * (cost + row.vehicle_battery_rental_cost) + h) // d
        return s, COMPUTED, (cap if amount > cap else amount), True, v, cite, None

    def between(
        row: Row, n: int, h: int, d: int, floor: int, cap: int, cite: str, missing: Decided
    ) -> Decided:
        cost = row.vehicle_acquisition_cost
        if cost is None:
            return missing
        amount = (n * (cost + row.vehicle_battery_rental_cost) + h) // d
        amount = floor if amount < floor else amount
        return s, COMPUTED, (cap if amount > cap else amount), True, v, cite, None

    def kernel(row: Row, open_branches: frozenset[str]) -> Decided:
        conditions = art1(row, open_branches)
        if conditions is not ELIGIBLE:
            return conditions
        co2 = row.vehicle_co2_g_per_km
        assert co2 is not None  # art. 1 needed it
        if row.vehicle_category is not CAR:  # 2°
            if co2 <= van_zero_max:
                return capped(row, van_zero)
            return capped(row, van_low_r) if van_low[0] <= co2 <= van_low[1] else no_van
        if co2 <= car_zero_max:  # 1° b)
            return capped(row, car_zero)
        if car_low[0] <= co2 <= car_low[1]:
            return capped(row, car_low_r)
        energy = row.vehicle_energy
        if energy is None:
            return need_a
        if (
            energy in PETROL_DIESEL_HYBRIDS
            and t_hybrid[0] <= co2 <= t_hybrid[1]
            and HYBRID_BRANCH in open_branches
        ):
            return between(row, t_n, t_h, t_d, t_floor, t_cap, t_cite, need_t)
        if energy in HYBRIDS and hybrid[0] <= co2 <= hybrid[1]:
            power = row.vehicle_electric_motor_power_30min_kw
            if power is None:
                return need_a
            if power >= hybrid_kw:
                return between(row, h_n, h_h, h_d, h_floor, h_cap, h_cite, need_a)
        if t_other[0] <= co2 <= t_other[1] and OTHER_BRANCH in open_branches:
            return other
        return no_car

    return kernel
