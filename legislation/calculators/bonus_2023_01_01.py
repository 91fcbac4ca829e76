"""Bonus écologique — C. énergie, art. D. 251-1 II as rewritten by décret n° 2022-1761 du 30 décembre 2022.

JORF n° 0303 du 31 décembre 2022, NOR ENER2236413D. In force 2023-01-01 → 2023-12-15 (the score environnemental
from 2023-12-16). Wording not on file: barème of history/era-2021-2025.md §1a row G (confirmed).

New electric or hydrogen cars, cost ≤ 47 000 € incl. battery, mass < 2,4 t: 27 % of the cost, capped at
5 000 € for a natural person — 7 000 € when his « revenu fiscal de référence par part » is ≤ 14 089 € — and
3 000 € for a legal person; one bonus per natural person every three years.
"""

from __future__ import annotations

from legislation.calculators import _bonus_2023 as rules
from legislation.calculators._d251_1_new_vehicle import used_vehicle
from legislation.calculators.kit import Ctx, R

FACTS = rules.FACTS

LOW_INCOME_READING = (
    "« 27 % capped at 5 000 €; 7 000 € if income per part (RFR/part) ≤ 14 089 € » (history row G): read as the "
    "cap raised to 7 000 € for such a natural person (« dans la limite de »), the 27 % rate unchanged. Another "
    "reading — the capped amount increased by 2 000 € (avere-france paraphrases « majoré de 2 000 euros ») — "
    "gives more only below 18 518,52 € (27 % < 5 000 €); the wording is not on file to settle it."
)


def calculate(ctx: Ctx[R]) -> R:
    if (used := used_vehicle(ctx)) is not None:
        return used
    if (done := rules.start(ctx)) is not None:
        return done
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
    ctx.step(rules.INCOME, "revenu fiscal de référence par part {rfr:€} > {low_income_max:€}", rfr=rfr)
    return rules.capped(ctx, rules.WHO, "ev_cap_natural", cost, "natural person")
