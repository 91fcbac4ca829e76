"""Bonus écologique — C. énergie, art. D. 251-1 as rewritten by décret n° 2024-102 du 12 février 2024.

JORF n° 0036 du 13 février 2024, NOR TRER2404270D. In force 2024-02-14 → 2024-12-01 (décret n° 2024-1084 from
2024-12-02). Wording not on file except the start of D. 251-1 I (official extract: « Une aide, dite bonus
écologique pour les voitures particulières neuves, est attribuée à toute personne physique majeure … ») and D. 251-8
(official extract: leasing firms, demonstration vehicles). Barème of history/era-2021-2025.md §1a row I (likely).

New electric or hydrogen cars (M1) bought or leased by a natural person, cost ≤ 47 000 €, mass < 2,4 t, model on the
list of eligible models: 27 % of the cost capped at 4 000 € — 7 000 € when the « revenu fiscal de référence par
part » is ≤ 15 400 €. A demonstration vehicle sold 3 to 12 months after its first registration counts as new.
"""

from __future__ import annotations

from legislation.calculators import _bonus_2023 as rules
from legislation.calculators import _bonus_2024 as rules_2024
from legislation.calculators._d251_1_new_vehicle import used_vehicle
from legislation.calculators.kit import Ctx, R

FACTS = tuple(sorted({*rules.FACTS, *rules.SCORE_FACTS, *rules.DEMO_FACTS}))

CARRIED = (
    "The 27 % rate, the 47 000 € ceiling and the mass « < 2.4 t » are the 2023 ones (history row G), which the "
    "research does not report changed by décret 2024-102 (row I gives only the new caps, likely; row J repeats "
    "them for 2024-12-02)."
)
LOW_INCOME_READING = (
    "« 4 000 € (RFR/part > 15 400) / 7 000 € (≤ 15 400) » (history row I): read as the caps of the 27 %, as in "
    "2023 (« dans la limite de 4 000 euros si le véhicule est acquis ou loué par une personne physique », the words "
    "décret 2024-1084 art. 1 replaces in this version's II)."
)


def calculate(ctx: Ctx[R]) -> R:
    if (excluded := rules_2024.leasing_firms_and_dealers(ctx)) is not None:
        return excluded
    if (demo := rules_2024.demonstration(ctx)) is not None:
        return demo
    if not ctx.row.vehicle_demonstration and (used := used_vehicle(ctx)) is not None:
        return used
    if (refused := rules.natural_persons_only(ctx)) is not None:
        return refused
    if (done := rules.start(ctx)) is not None:
        return done
    ctx.read("bonus-2024-carried", CARRIED)
    if (refused := rules.score(ctx)) is not None:
        return refused
    if (unknown := rules.three_years_not_shown(ctx)) is not None:
        return unknown
    cost = ctx.cost_with_battery(rules.CARS)
    ctx.read("bonus-2024-low-income-cap", LOW_INCOME_READING)
    rfr = rules.income(ctx)
    if rfr <= ctx.money("low_income_max"):
        ctx.step(rules.INCOME, "revenu fiscal de référence par part {rfr:€} ≤ {low_income_max:€}", rfr=rfr)
        return rules.capped(ctx, rules.INCOME, "ev_cap_low_income", cost, "natural person, low income")
    ctx.step(rules.INCOME, "revenu fiscal de référence par part {rfr:€} > {low_income_max:€}", rfr=rfr)
    return rules.capped(ctx, rules.INCOME, "ev_cap_natural", cost, "natural person")
