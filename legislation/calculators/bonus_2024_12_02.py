"""Bonus écologique — C. énergie, art. D. 251-1 II as amended by décret n° 2024-1084 du 29 novembre 2024.

JORF n° 0284 du 1er décembre 2024, NOR TECR2430437D. In force 2024-12-02 → 2025-06-30 (décret n° 2025-606 ends
the bonus from 2025-07-01). The new caps are official (décret 2024-1084 art. 1, 1° b), verbatim extract read by the
lead): « 1° 4 000 euros … inférieur ou égal à 16 300 euros ; 2° 3 000 euros … supérieur à 16 300 euros et inférieur
ou égal à 26 200 euros ; 3° 2 000 euros … supérieur à 26 200 euros ». The rest (27 %, ≤ 47 000 €, < 2,4 t, score):
history/era-2021-2025.md §1a row J (likely). Vans, two- and three-wheelers, quadricycles and cycles: no bonus.
"""

from __future__ import annotations

from legislation.calculators import _bonus_2023 as rules
from legislation.calculators import _bonus_2024 as rules_2024
from legislation.calculators._d251_1_new_vehicle import used_vehicle
from legislation.calculators.kit import Ctx, R
from legislation.enums import VehicleCategory

FACTS = tuple(sorted({*rules.FACTS, *rules.SCORE_FACTS, *rules.DEMO_FACTS}))

REMOVED = (VehicleCategory.VAN, VehicleCategory.TWO_THREE_WHEELER, VehicleCategory.ELECTRIC_BICYCLE)
BANDS = "barème: caps by « revenu fiscal de référence par part » (décret 2024-1084 art. 1, 1° b))"


def calculate(ctx: Ctx[R]) -> R:
    category = ctx.row.vehicle_category
    if category in REMOVED:
        return ctx.refuse(
            rules.CARS,
            "a {category}: from 2024-12-02 the bonus is removed for vans, two- and three-wheelers, quadricycles "
            "and cycles",
            category=category,
        )
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
    if (refused := rules.score(ctx)) is not None:
        return refused
    if (unknown := rules.three_years_not_shown(ctx)) is not None:
        return unknown
    cost = ctx.cost_with_battery(rules.CARS)
    rfr = rules.income(ctx)
    if rfr <= ctx.money("band1_income_max"):
        ctx.step(BANDS, "revenu fiscal de référence par part {rfr:€} ≤ {band1_income_max:€}: 1°", rfr=rfr)
        return rules.capped(ctx, BANDS, "band1_cap", cost, "1°")
    if rfr <= ctx.money("band2_income_max"):
        ctx.step(
            BANDS,
            "revenu fiscal de référence par part {rfr:€} in ]{band1_income_max:€}, {band2_income_max:€}]: 2°",
            rfr=rfr,
        )
        return rules.capped(ctx, BANDS, "band2_cap", cost, "2°")
    ctx.step(BANDS, "revenu fiscal de référence par part {rfr:€} > {band2_income_max:€}: 3°", rfr=rfr)
    return rules.capped(ctx, BANDS, "band3_cap", cost, "3°")
