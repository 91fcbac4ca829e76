"""Bonus écologique — C. énergie, art. D. 251-1 II with the score environnemental (décret n° 2023-886, arrêté du
14 décembre 2023). In force 2023-12-16 → 2024-02-13 (décret n° 2024-102 from 2024-02-14). Wording not on file:
barème of history/era-2021-2025.md §1a rows G and H (« G plus the score condition », likely / guess).

As 2023-01-01, and the model must be on the list of eligible models. The « revenu fiscal de référence par part »
threshold of the higher cap is 14 089 € (row G) or 15 400 € (row H: « by early 2024 (where this change came from is
unconfirmed) »): between the two the amount is not known.
"""

from __future__ import annotations

from legislation.calculators import _bonus_2023 as rules
from legislation.calculators._d251_1_new_vehicle import used_vehicle
from legislation.calculators.bonus_2023_01_01 import LOW_INCOME_READING
from legislation.calculators.kit import Ctx, R

FACTS = tuple(sorted({*rules.FACTS, *rules.SCORE_FACTS}))


def calculate(ctx: Ctx[R]) -> R:
    if (used := used_vehicle(ctx)) is not None:
        return used
    if (done := rules.start(ctx)) is not None:
        return done
    if (refused := rules.score(ctx)) is not None:
        return refused
    cost = ctx.cost_with_battery(rules.CARS)
    if ctx.is_legal_person_for_caps(rules.WHO):
        return rules.capped(ctx, rules.WHO, "ev_cap_legal", cost, "legal person")
    if (refused := rules.three_years(ctx)) is not None:
        return refused
    ctx.read("bonus-2023-low-income-cap", LOW_INCOME_READING)
    rfr = rules.income(ctx)
    if rfr <= ctx.money("low_income_max"):
        ctx.step(rules.INCOME, "revenu fiscal de référence par part {rfr:€} ≤ {low_income_max:€}", rfr=rfr)
        return rules.capped(ctx, rules.INCOME, "ev_cap_low_income", cost, "natural person, low income")
    if rfr <= ctx.money("low_income_max_unsure"):
        return ctx.not_covered(
            rules.INCOME,
            "revenu fiscal de référence par part {rfr:€}: above {low_income_max:€} (the 2023 threshold) but not above "
            "{low_income_max_unsure:€}, the threshold reported « by early 2024 » from a change the sources do not "
            "date: which cap applies (7 000 € or 5 000 €) is not known",
            rfr=rfr,
        )
    ctx.step(rules.INCOME, "revenu fiscal de référence par part {rfr:€} > {low_income_max_unsure:€}", rfr=rfr)
    return rules.capped(ctx, rules.WHO, "ev_cap_natural", cost, "natural person")
