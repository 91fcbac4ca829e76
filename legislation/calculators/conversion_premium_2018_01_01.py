"""Prime à la conversion — C. énergie, art. D. 251-8, as amended by décret n° 2017-1851 du 29 décembre 2017.

NOR TRER1733433D, JORF n° 0305 du 31 décembre 2017. In force 2018-01-01 → 2018-12-31 (décret n° 2018-1318 from
2019-01-01). Wording not on file: barème of history/era-2017-2020.md §2 (likely) and the decree's notice.

New electric car or van (≤ 20 g/km): 2 500 €. New electric two- or three-wheeler or quadricycle ≥ 3 kW (the
notice: it « devient éligible »): 1 100 € for a household whose income tax is nil, 100 € otherwise; below 3 kW
or not electric: none (the notice names only those ≥ 3 kW). Crit'Air 1/2 thermal cars and plug-in hybrids (1 000 € /
2 000 € per the research) and used electric cars: their conditions (CO2 ceiling, age) are not in the
research — not covered.
"""

from __future__ import annotations

from legislation.calculators import _conversion_premium_2018 as rules
from legislation.calculators.kit import Ctx, R

FACTS = (
    "acquisition",
    "buyer.income_tax_nil",
    "buyer.person_kind",
    "lease_duration_months",
    "scrapped_vehicle",
    "vehicle.category",
    "vehicle.co2_g_per_km",
    "vehicle.energy",
    "vehicle.net_max_power_kw",
    "vehicle.previously_registered",
    "vehicle.uses_lead_battery",
)

EV = "barème: new electric cars and vans"
L = "barème: new electric two- and three-wheelers and quadricycles ≥ 3 kW"


def calculate(ctx: Ctx[R]) -> R:
    if (done := rules.start(ctx)) is not None:
        return done
    row = ctx.row
    category = ctx.need(row.vehicle_category, "vehicle.category", EV)
    if category is rules.L_VEHICLE:
        return _two_three_wheeler(ctx)
    if not rules.is_zero_emission(ctx, category):
        return rules.not_known(
            ctx, "a {category} that is not an electric car or van (Crit'Air 1/2 thermal car or plug-in hybrid: "
            "1 000 € or 2 000 € per the research, whose CO2 ceiling and other conditions are not on file)",
            category=category,
        )
    if ctx.need(row.vehicle_previously_registered, "vehicle.previously_registered", EV):
        return rules.not_known(ctx, "a used electric car or van")
    ctx.step(EV, "new electric car or van (CO2 ≤ {ev_co2_max} g/km)", ctx.money("ev_new_amount"))
    return ctx.award(ctx.money("ev_new_amount"), EV, "new electric car or van: {ev_new_amount:€}")


def _two_three_wheeler(ctx: Ctx[R]) -> R:
    row = ctx.row
    energy = row.vehicle_energy
    if energy is not None and energy is not rules.ELECTRIC:
        return ctx.refuse(L, "a {energy} two- or three-wheeler: only electric ones became eligible", energy=energy)
    if ctx.need(row.vehicle_uses_lead_battery, "vehicle.uses_lead_battery", L):
        return ctx.refuse(L, "the vehicle uses a lead battery")
    power = ctx.need(row.vehicle_net_max_power_kw, "vehicle.net_max_power_kw", L)
    if power < ctx.qty("l_min_kw"):
        return ctx.refuse(L, "net maximum power {power:q} kW < {l_min_kw} kW: not eligible", power=power)
    if ctx.need(row.vehicle_previously_registered, "vehicle.previously_registered", L):
        return ctx.refuse(L, "only a new (« neuf ») two- or three-wheeler became eligible")
    untaxed = rules.is_natural_person(ctx, L) and ctx.need(row.buyer_income_tax_nil, "buyer.income_tax_nil", L)
    name = "l_untaxed_amount" if untaxed else "l_amount"
    who = "a household whose income tax is nil" if untaxed else "other buyers"
    return ctx.award(ctx.money(name), L, "new electric L vehicle ≥ {l_min_kw} kW, {who}: {amount:€}", who=who,
                     amount=ctx.money(name))
