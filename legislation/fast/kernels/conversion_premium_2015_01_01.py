"""Kernel of :mod:`legislation.calculators.conversion_premium_2015_01_01` (art. 4 of décret n° 2014-1672,
initial wording: the 200 € majoration), with art. 1 (:mod:`._art1_2015`)."""

from __future__ import annotations

from collections.abc import Mapping

from legislation.calculators import conversion_premium_2015_01_01 as calculator
from legislation.fast.kernels._art1_2015 import ELIGIBLE, build_check
from legislation.fast.kernels._kit import Decided, Kernel, Params, add_months, decisive
from legislation.fast.row import Row
from legislation.versions import Version

ART1_CATEGORIES = calculator.ART1_CATEGORIES


def build(version: Version, relied: Mapping[str, Version]) -> Kernel:
    p = Params(version, relied)
    art1 = build_check(p)
    age_months, owned_months = 12 * p.count("scrapped_min_age_years"), p.count("scrapped_owned_min_months")
    window = p.count("destruction_window_months")
    majoration = p.outcome(p.cents("majoration"), True, "I")
    no_scrapped, no_category = p.outcome(0, False, "I"), p.outcome(0, False, "I, 1°")
    too_young, too_recent, destroyed_out = (
        p.outcome(0, False, "I, 2°"),
        p.outcome(0, False, "I, 4°"),
        p.outcome(0, False, "I, 8°"),
    )

    need = {x: p.missing(x) for x in ("I, 1°", "I, 2°", "I, 4°", "I, 8°")}

    def kernel(row: Row, open_branches: frozenset[str]) -> Decided:
        if not row.scrapped_vehicle:
            return no_scrapped
        conditions = art1(row, open_branches)
        if conditions is not ELIGIBLE:
            return conditions  # art. 1's refusal, or the fact it asks for
        category = row.scrapped_category
        if category is None:
            return need["I, 1°"]
        if category not in ART1_CATEGORIES:
            return no_category
        registered, owned, destroyed = (
            row.scrapped_first_registration_date,
            row.scrapped_owned_since,
            row.scrapped_destruction_date,
        )
        day = decisive(row)
        if registered is None:
            return need["I, 2°"]
        if add_months(registered, age_months) > day:
            return too_young
        if owned is None:
            return need["I, 4°"]
        if add_months(owned, owned_months) > day:
            return too_recent
        if destroyed is None:
            return need["I, 8°"]
        invoice = row.invoice_date or day
        if not add_months(invoice, -window) <= destroyed <= add_months(invoice, window):
            return destroyed_out
        return majoration

    return kernel
