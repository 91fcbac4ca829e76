"""Kernel of :mod:`legislation.calculators.conversion_premium_2015_04_01` (art. 4 of décret n° 2014-1672 as
amended by décret n° 2015-361: the « aide complémentaire »). Its transitional clause (keep the initial
wording) is applied by the engine."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date

from legislation.calculators import conversion_premium_2015_04_01 as calculator
from legislation.enums import Acquisition, EuroStandard, PersonKind, VehicleCategory
from legislation.fast.kernels._kit import Decided, Kernel, Params, add_months, decisive
from legislation.fast.row import Row
from legislation.versions import Version

CAR, LEASE, EURO_6, NATURAL = (
    VehicleCategory.PASSENGER_CAR,
    Acquisition.LEASE,
    EuroStandard.EURO_6,
    PersonKind.NATURAL_PERSON,
)
DIESEL_FUELLED, HOUSEHOLD = calculator.DIESEL_FUELLED, calculator.HOUSEHOLD_CASES


def build(version: Version, relied: Mapping[str, Version]) -> Kernel:  # noqa: C901 - mirrors the calculator
    p = Params(version, relied)
    lease_min, owned_months, after_months = (
        p.count("lease_min_months"),
        p.count("scrapped_owned_min_months"),
        p.count("destruction_after_months"),
    )
    registered_before = date(p.count("scrapped_registered_before_year"), 1, 1)
    zero_max, low_min, low_max = p.count("zero_co2_max"), p.count("low_co2_min"), p.count("low_co2_max")
    household_min, used_max = p.count("household_co2_min"), p.count("used_co2_max")
    zero, low = (
        p.outcome(p.cents("zero_amount"), True, "II, 1°"),
        p.outcome(p.cents("low_amount"), True, "II, 2°"),
    )
    household, used = (
        p.outcome(p.cents("household_amount"), True, "II, 3°"),
        p.outcome(p.cents("used_amount"), True, "II, 4°"),
    )
    refuse_i, refuse_1, refuse_2 = (
        p.outcome(0, False, "I"),
        p.outcome(0, False, "I, 1°"),
        p.outcome(0, False, "I, 2°"),
    )
    refuse_4, refuse_8, refuse_ii = (
        p.outcome(0, False, "I, 4°"),
        p.outcome(0, False, "I, 8°"),
        p.outcome(0, False, "II"),
    )
    not_euro6 = {True: p.outcome(0, False, "II, 3°"), False: p.outcome(0, False, "II, 4°")}

    need = {x: p.missing(x) for x in ("I", "I, 1°", "I, 2°", "I, 4°", "I, 8°", "II", HOUSEHOLD)}
    need_euro = {True: p.missing("II, 3°"), False: p.missing("II, 4°")}

    def conditions(row: Row) -> Decided | bool:
        """I: True when met, else the refusal or the fact the calculator asks for."""
        if not row.scrapped_vehicle:
            return refuse_i
        if row.acquisition is LEASE:
            if row.lease_duration_months is None:
                return need["I"]
            if row.lease_duration_months < lease_min:
                return refuse_i
        category = row.vehicle_category
        if category is None:
            return need["I"]
        if category is not CAR:
            return refuse_i
        energy = row.scrapped_energy
        if energy is None:
            return need["I"]
        if energy not in DIESEL_FUELLED:
            return refuse_i
        if row.scrapped_category is None:
            return need["I, 1°"]
        if row.scrapped_category is not CAR:
            return refuse_1
        registered, owned, destroyed = (
            row.scrapped_first_registration_date,
            row.scrapped_owned_since,
            row.scrapped_destruction_date,
        )
        if registered is None:
            return need["I, 2°"]
        if registered >= registered_before:
            return refuse_2
        if owned is None:
            return need["I, 4°"]
        day = decisive(row)
        if add_months(owned, owned_months) > day:
            return refuse_4
        if destroyed is None:
            return need["I, 8°"]
        invoice = row.invoice_date or day
        return True if invoice <= destroyed <= add_months(invoice, after_months) else refuse_8

    def kernel(row: Row, open_branches: frozenset[str]) -> Decided:
        met = conditions(row)
        if met is not True:
            return met  # type: ignore[return-value]
        co2 = row.vehicle_co2_g_per_km
        if co2 is None:
            return need["II"]
        if co2 > used_max:
            return refuse_ii
        new = not row.vehicle_previously_registered
        candidates = []
        if new:
            if co2 <= zero_max:
                candidates.append(zero)
            elif low_min <= co2 <= low_max:
                candidates.append(low)
        kind, nil = row.buyer_person_kind, row.buyer_income_tax_nil
        if kind is None or (kind is NATURAL and nil is None):
            if not candidates:
                return need[HOUSEHOLD]  # asked only when no 1° or 2° amount is there
            is_household = False  # the 1° or 2° amount is there; 3° and 4° are not examined
        else:
            is_household = kind is NATURAL and nil is True
        if is_household:  # tested before the Euro standard, as the calculator does
            if co2 >= household_min:
                euro = row.vehicle_euro_standard
                if euro is None:
                    return need_euro[new]
                if euro is not EURO_6:
                    return not_euro6[new]
                if new:
                    candidates.append(household)
            candidates.append(used)
        if not candidates:
            return refuse_ii
        return max(candidates, key=lambda c: c[2])  # the first of the highest, as Ctx.best

    return kernel
