"""Kernel of :mod:`legislation.calculators.conversion_premium_2021_07_26` (D. 251-8, décret n° 2021-977).

The calculator's cases in its order — 1° or 1° bis, then 3° a) and b), then 4°, the most favourable kept
(the first of equals) — with the household tests and the 3°/5° CO2 ceilings of
:mod:`legislation.calculators._conversion_premium_2021`. Where the calculator would ask for a fact the
row lacks, the kernel gives the calculator's « missing facts » answer; the ceiling is decided when every
combination of the unknown registration facts gives the same answer, as the calculator decides it.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import product

from legislation.calculators import _conversion_premium_2021 as rules
from legislation.calculators import conversion_premium_2021_07_26 as calculator
from legislation.enums import CritAir, Energy, PersonKind, PowerBasis, VehicleCategory
from legislation.fast.kernels._kit import (
    COMPUTED,
    LEASE,
    Decided,
    Kernel,
    Params,
    add_months,
    decisive,
    is_short_lease,
)
from legislation.fast.row import Row
from legislation.versions import Version

CAR, VAN = VehicleCategory.PASSENGER_CAR, VehicleCategory.VAN
L_VEHICLE, BICYCLE = VehicleCategory.TWO_THREE_WHEELER, VehicleCategory.ELECTRIC_BICYCLE
NATURAL, REGULATION = PersonKind.NATURAL_PERSON, PowerBasis.REGULATION_EU_168_2013
CLASS_1, ELECTRIC_CLASS, ELECTRIC_ENERGY = CritAir.CLASS_1, CritAir.ELECTRIC, Energy.ELECTRIC
PURE_THERMAL, ZERO_EMISSION = rules.PURE_THERMAL, calculator.ZERO_EMISSION


def build(version: Version, relied: Mapping[str, Version]) -> Kernel:  # noqa: C901 - mirrors the calculator
    p = Params(version, relied)
    s, v = p.scheme, version.id
    c = p.cents
    range_min = p.thousandths("electric_range_min")
    income_max, very_low, commute_min, professional_min = (
        c("income_max"),
        c("income_very_low_max"),
        p.thousandths("commute_km_min"),
        p.thousandths("professional_km_min"),
    )
    c1_max, c1_rate, c1_cap = c("c1_price_max"), p.rate("c1_rate"), c("c1_cap")
    c1_other = p.outcome(c("c1_other_amount"), True, "1° b)")
    van_rate = p.rate("van_rate")
    vans = {
        cls: (c(cap), p.cite(paragraph), p.missing(paragraph))
        for cls, (paragraph, cap) in calculator.VAN_CLASSES.items()
    }
    kw_regulation, kw_directive = p.thousandths("l_min_kw_regulation"), p.thousandths("l_min_kw_directive")
    l_low, l_other = c("l_low_income_amount"), p.outcome(c("l_other_amount"), True, "2° b)")
    c3_max, c3_low, c3_rate, c3_cap = (
        c("c3_price_max"),
        c("c3_low_income_amount"),
        p.rate("c3_rate"),
        c("c3_cap"),
    )
    recent_months = p.count("c3_recent_months")
    ceilings = {
        (True, False): p.count("c3_co2_new_max"),
        (False, False): p.count("c3_co2_other_max"),
        (True, True): p.count("c3_co2_new_max_lowered"),
        (False, True): p.count("c3_co2_other_max_lowered"),
    }
    c4_min, c4_max, c4_price = p.count("c4_co2_min"), p.count("c4_co2_max"), c("c4_price_max")
    c4_rate, c4_cap, c4_other = p.rate("c4_rate"), c("c4_cap"), p.outcome(c("c4_other_amount"), True, "4° b)")
    ebike_rate, ebike_cap = p.rate("ebike_rate"), c("ebike_cap")
    cite = {x: p.cite(x) for x in ("1° a)", "2° a)", "3° a)", "3° b)", "4° a)", "4° bis")}
    no_scrapped, no_l = p.outcome(0, False, "premier alinéa"), p.outcome(0, False, "2°")
    none_car, none_van = p.outcome(0, False, "1°, 3° et 4°"), p.outcome(0, False, "1° bis, 3° et 4°")

    need = {
        x: p.missing(x)
        for x in (
            "premier alinéa",
            "1°",
            "1° a)",
            "1° bis",
            "2°",
            "2° a)",
            "3°",
            "3° a)",
            "3° b)",
            "4°",
            "4° a)",
            "4° bis",
            "5°",
            *(paragraph for paragraph, _ in calculator.VAN_CLASSES.values()),
        )
    }

    # A test gives True, False, or — when the calculator would ask for a fact — its « missing facts » answer.
    Test = bool | Decided

    def capped(terms: tuple[int, int, int], base: int, cap: int, paragraph: str) -> Decided:
        n, h, d = terms
        amount = (n * base + h) // d
        return s, COMPUTED, (cap if amount > cap else amount), True, v, paragraph, None

    def natural(row: Row, paragraph: str) -> Test:
        kind = row.buyer_person_kind
        return need[paragraph] if kind is None else kind is NATURAL

    def low_income(row: Row, paragraph: str) -> Test:
        """rules.is_low_income."""
        if (is_natural := natural(row, paragraph)) is not True:
            return is_natural
        income = row.buyer_reference_income_per_share
        return need[paragraph] if income is None else income <= income_max

    def modest_or_long_distance(row: Row, paragraph: str) -> Test:
        """rules.is_modest_or_long_distance: distances asked only when the income leaves it open."""
        if (is_natural := natural(row, paragraph)) is not True:
            return is_natural
        income = row.buyer_reference_income_per_share
        if income is None:
            return need[paragraph]
        if income <= very_low:
            return True
        if income > income_max:
            return False
        distance, km_year = row.buyer_home_work_distance_km, row.buyer_professional_km_per_year
        if (distance is not None and distance > commute_min) or (
            km_year is not None and km_year > professional_min
        ):
            return True
        return need[paragraph] if distance is None or km_year is None else False

    def has_range(row: Row, paragraph: str) -> Test:
        city_range = row.vehicle_city_electric_range_km
        if city_range is None:
            if row.vehicle_energy not in PURE_THERMAL:
                return need[paragraph]
            city_range = 0  # no « mode tout électrique »
        return city_range > range_min

    def meets_ceiling(row: Row, co2: int) -> Test:
        """rules.meets_co2_ceiling: decided when every combination of the unknown facts agrees, else the
        first unknown fact (in the calculator's order) whose value can change the answer is asked."""
        registered, first = row.vehicle_previously_registered, row.vehicle_first_registration_date
        if registered is None and first is not None:
            registered = True
        recent = None if first is None else decisive(row) < add_months(first, recent_months)
        standard, wheelchair = row.vehicle_new_registration_system, row.vehicle_wheelchair_accessible
        if standard is None and registered is False:  # rules._known_facts: a new vehicle is in the new system
            standard = True
        if (
            registered is not None
            and (recent is not None or not registered)
            and standard is not None
            and wheelchair is not None
        ):
            return co2 <= ceilings[(not registered or bool(recent), not standard or wheelchair)]
        facts = (registered, recent, standard, wheelchair)
        outcomes = {meets(co2, combo) for combo in combos(facts)}
        if len(outcomes) == 1:
            return outcomes.pop()
        for k, paragraph in enumerate(("3°", "3°", "5°", "5°")):  # rules._FACTS
            if facts[k] is None and any(
                meets(co2, combo) != meets(co2, combo[:k] + (True,) + combo[k + 1 :])
                for combo in combos(facts[:k] + (False,) + facts[k + 1 :])
            ):
                return need[paragraph]
        raise AssertionError("unreachable: some unknown fact changes the answer")  # pragma: no cover

    def meets(co2: int, combo: tuple[bool, ...]) -> bool:
        registered, recent, standard, wheelchair = combo
        return co2 <= ceilings[(not registered or recent, not standard or wheelchair)]

    def combos(facts: tuple[bool | None, ...]) -> list[tuple[bool, ...]]:
        return list(product(*((x,) if x is not None else (False, True) for x in facts)))

    def critair_of(row: Row) -> CritAir | None:
        """Not given for an electric or hydrogen car: « électrique » (the calculator's reading)."""
        critair = row.vehicle_critair
        if critair is None and row.vehicle_energy in ZERO_EMISSION:
            return ELECTRIC_CLASS
        return critair

    def electric(row: Row, category: VehicleCategory) -> list[Decided] | Decided:
        """1° (cars) or 1° bis (vans): the candidates, or the fact asked."""
        cost = row.vehicle_acquisition_cost
        if category is VAN:
            ranged = has_range(row, "1° bis")
            if ranged is not True:
                return [] if ranged is False else ranged
            van_class = row.vehicle_van_class
            if van_class is None:
                return need["1° bis"]
            cap, paragraph, asked = vans[van_class]
            if cost is None:
                return asked
            return [capped(van_rate, cost, cap, paragraph)]
        if cost is None:
            return need["1°"]
        if cost + row.vehicle_battery_rental_cost > c1_max:  # _all_met(price, range): a failure decides
            return []
        ranged = has_range(row, "1°")
        if ranged is not True:
            return [] if ranged is False else ranged
        household = modest_or_long_distance(row, "1° a)")
        if household is True:
            return [capped(c1_rate, cost, c1_cap, cite["1° a)"])]
        return [c1_other] if household is False else household

    def classed_1(row: Row) -> Test:
        critair = critair_of(row)
        return need["3°"] if critair is None else critair is CLASS_1

    def low_income_3a(row: Row) -> Test:
        return low_income(row, "3° a)")

    def under_ceiling(row: Row) -> Test:
        co2 = row.vehicle_co2_g_per_km
        return need["3°"] if co2 is None else meets_ceiling(row, co2)

    def crit_air_1(row: Row) -> list[Decided] | Decided:
        """3° a) and b): price, class « 1 », household, CO2 ceiling, in the order of ``_all_met``."""
        cost = row.vehicle_acquisition_cost
        if cost is None:
            return need["3°"]
        if cost > c3_max:
            return []
        # _all_met(price, class « 1 », household, ceiling): the first failure decides, a fact missing
        # before it is not asked; the ceiling (the dearest test) only when the others leave it open.
        asked = None
        for test in (classed_1, low_income_3a, under_ceiling):
            met = test(row)
            if met is False:
                return []
            if met is not True and asked is None:
                asked = met
        if asked is not None:
            return asked
        found: list[Decided] = [
            (s, COMPUTED, cost if c3_low > cost else c3_low, True, v, cite["3° a)"], None)
        ]
        household = modest_or_long_distance(row, "3° b)")
        if household is True:
            found.append(capped(c3_rate, cost, c3_cap, cite["3° b)"]))
        elif household is not False:
            return household
        return found

    def plug_in(row: Row) -> list[Decided] | Decided:
        """4° a) and b)."""
        co2 = row.vehicle_co2_g_per_km
        if co2 is None:
            return need["4°"]
        if not c4_min <= co2 <= c4_max:
            return []
        cost = row.vehicle_acquisition_cost
        if cost is None:
            return need["4°"]
        if cost > c4_price:
            return []
        critair = critair_of(row)
        if critair is None:
            return need["4°"]
        if critair is not ELECTRIC_CLASS and critair is not CLASS_1:
            return []
        household = modest_or_long_distance(row, "4° a)")
        if household is True:
            return [capped(c4_rate, cost, c4_cap, cite["4° a)"])]
        return [c4_other] if household is False else household

    def cars_and_vans(row: Row, category: VehicleCategory) -> Decided:
        candidates = electric(row, category)
        if isinstance(candidates, tuple):  # the fact asked
            return candidates
        for case in (crit_air_1, plug_in):
            found = case(row)
            if isinstance(found, tuple):
                return found
            candidates += found
        if not candidates:
            return none_van if category is VAN else none_car
        best = candidates[0]
        for candidate in candidates[1:]:  # the first of the highest, as Ctx.best
            if candidate[2] > best[2]:
                best = candidate
        return best

    def two_three_wheeler(row: Row) -> Decided:
        energy = row.vehicle_energy
        if energy is not None and energy is not ELECTRIC_ENERGY:
            return no_l  # not a vehicle of the 6° of D. 251-1
        registered, lead = row.vehicle_previously_registered, row.vehicle_uses_lead_battery
        if registered is None:
            return need["2°"]
        if registered:
            return no_l
        if lead is None:
            return need["2°"]
        if lead:
            return no_l
        power = row.vehicle_net_max_power_kw
        if power is None:
            return need["2°"]
        if power >= kw_directive or power < kw_regulation:  # the instrument does not matter
            threshold = kw_directive if power >= kw_directive else kw_regulation
        else:
            basis = row.vehicle_power_basis
            if basis is None:
                return need["2°"]
            threshold = kw_regulation if basis is REGULATION else kw_directive
        if power < threshold:
            return no_l
        low = low_income(row, "2° a)")
        if low is False:
            return l_other
        if low is not True:
            return low
        cost, bonus = row.vehicle_acquisition_cost, row.bonus_ecologique_amount
        if cost is None or bonus is None:
            return need["2° a)"]
        limit = cost - bonus if cost > bonus else 0  # « dans la limite du coût … bonus écologique déduit »
        return s, COMPUTED, (limit if l_low > limit else l_low), True, v, cite["2° a)"], None

    short_lease = p.refusal_citing("C. énergie, art. D. 251-3, premier alinéa")  # Ctx.lease_refusal

    def kernel(row: Row, open_branches: frozenset[str]) -> Decided:
        if row.acquisition is LEASE and is_short_lease(row):
            return short_lease
        category = row.vehicle_category
        if category is None:
            return need["premier alinéa"]
        if not row.scrapped_vehicle:
            return no_scrapped
        if category is CAR or category is VAN:
            return cars_and_vans(row, category)
        if category is L_VEHICLE:
            return two_three_wheeler(row)
        if category is BICYCLE:
            cost = row.vehicle_acquisition_cost
            return need["4° bis"] if cost is None else capped(ebike_rate, cost, ebike_cap, cite["4° bis"])
        return no_scrapped  # « premier alinéa »: none of the cases covers the category

    return kernel
