"""Prime à la conversion — C. énergie, art. D. 251-8, as amended by décret n° 2018-1318 du 28 décembre 2018.

NOR TRER1832947D, JORF n° 0302 du 30 décembre 2018. LEGIARTI000038030484. In force 2019-01-01 → 2019-07-31
(décret n° 2019-737 from 2019-08-01). Its 1° a)–c) are on file verbatim (doctrine.fr page excerpt, which stops
inside the 2°): electric cars and vans of D. 251-1 5°. The notice of the decree (official) adds: a new
plug-in hybrid gets 2 500 € « pour tous », a used one 2 500 € for a non-taxable household, both « doublé »
for the most modest households and non-taxable long commuters — in a paragraph not on file.

1° a) 2 500 € if the vehicle is new or the buyer is a natural person whose income tax is nil; b) 80 % of the
price, capped 5 000 €, for a non-taxable natural person who drives more than 30 km to work or more than
12 000 km a year for work, or a natural person whose reference income per share is at most 6 300 €; c) 1 000 €
in the other cases. « l'un ou l'autre des cas suivants »: the most favourable case met is kept.
"""

from __future__ import annotations

from legislation.calculators import _conversion_premium_2018 as rules
from legislation.calculators.kit import Candidate, Ctx, R

FACTS = (
    "acquisition",
    "buyer.home_work_distance_km",
    "buyer.income_tax_nil",
    "buyer.person_kind",
    "buyer.professional_km_per_year",
    "buyer.reference_income_per_share",
    "lease_duration_months",
    "scrapped_vehicle",
    "vehicle.acquisition_cost",
    "vehicle.category",
    "vehicle.city_electric_range_km",
    "vehicle.co2_g_per_km",
    "vehicle.energy",
    "vehicle.previously_registered",
)

PHEV = "plug-in hybrids (notice of décret n° 2018-1318; paragraph not on file)"
WHY = (
    "The amount « est déterminé par l'un ou l'autre des cas suivants »: 1° a) and 1° b) can both be met (a new "
    "vehicle bought by a modest household); the text does not rank them, so the more favourable is kept and the "
    "other shown."
)
PRICE_READING = (
    "1° b) « 80 % du prix d'acquisition »: the price of the vehicle acquired, without a leased battery (unlike "
    "D. 251-7, the 1° does not add « augmenté le cas échéant du coût de la batterie »)."
)
PLUG_IN_READING = (
    "The request has no « hybride rechargeable » flag: a hybrid (energy *_electric_hybrid) whose request gives "
    "an all-electric city range (« autonomie … en mode tout électrique ») is read as rechargeable; a hybrid "
    "without it is not taken to be one."
)


def calculate(ctx: Ctx[R]) -> R:
    if (done := rules.start(ctx)) is not None:
        return done
    row = ctx.row
    category = ctx.need(row.vehicle_category, "vehicle.category", "1°")
    if rules.is_zero_emission(ctx, category):
        return _first(ctx)
    energy = row.vehicle_energy
    if category is rules.CAR and energy is not None and energy.is_hybrid and row.vehicle_city_electric_range_km:
        return _plug_in_hybrid(ctx)
    return rules.not_known(
        ctx, "a {category} that is not an electric car or van of the 1° (2° and following not on file)",
        category=category,
    )


def _first(ctx: Ctx[R]) -> R:
    row = ctx.row
    natural = rules.is_natural_person(ctx, "1°")
    candidates: list[Candidate] = []
    new = not ctx.need(row.vehicle_previously_registered, "vehicle.previously_registered", "1° a)")
    if new or (natural and _untaxed(ctx, "1° a)")):
        why = "never registered before" if new else "natural person whose income tax is nil"
        candidates.append(_case(ctx, "1° a)", ctx.money("new_or_untaxed_amount"), "{why}: {amount:€}", why=why))
    if natural and _is_modest(ctx):
        ctx.read("1-b-price-without-battery", PRICE_READING)
        price = ctx.need(row.vehicle_acquisition_cost, "vehicle.acquisition_cost", "1° b)")
        amount = ctx.rate("1° b)", "modest_rate", price, "price")
        amount = ctx.cap("1° b)", amount, ctx.money("modest_cap"), "« dans la limite de {modest_cap} euros »")
        candidates.append(_case(ctx, "1° b)", amount, "modest household or non-taxable long commuter: "
                                "{modest_rate:%} of {price:€}, capped at {modest_cap:€}", price=price))
    if not candidates:
        candidates.append(_case(ctx, "1° c)", ctx.money("other_amount"), "other cases: {amount:€}"))
    return ctx.best(candidates, WHY)


def _untaxed(ctx: Ctx[R], paragraph: str) -> bool:
    """« dont la cotisation d'impôt sur le revenu de son foyer fiscal de l'année précédant … est nulle »."""
    return bool(ctx.need(ctx.row.buyer_income_tax_nil, "buyer.income_tax_nil", paragraph))


def _is_modest(ctx: Ctx[R]) -> bool:
    """1° b): « cotisation … nulle » and > 30 km or > 12 000 km a year, or RFR per share ≤ 6 300 €."""
    row = ctx.row
    income = ctx.need(row.buyer_reference_income_per_share, "buyer.reference_income_per_share", "1° b)")
    if income <= ctx.money("modest_rfr_max"):
        ctx.step("1° b)", "reference income per share {income:€} ≤ {modest_rfr_max:€}", income=income)
        return True
    if not _untaxed(ctx, "1° b)"):
        ctx.step("1° b)", "income per share {income:€} > {modest_rfr_max:€} and income tax not nil", income=income)
        return False
    distance = ctx.need(row.buyer_home_work_distance_km, "buyer.home_work_distance_km", "1° b)")
    if distance > ctx.qty("commute_km_min"):
        ctx.step("1° b)", "home–work distance {distance:q} km > {commute_km_min} km", distance=distance)
        return True
    km_year = ctx.need(row.buyer_professional_km_per_year, "buyer.professional_km_per_year", "1° b)")
    met = km_year > ctx.qty("professional_km_min")
    ctx.step("1° b)", "{distance:q} km ≤ {commute_km_min} km; {km_year:q} professional km a year {sign} "
             "{professional_km_min} km", distance=distance, km_year=km_year, sign=">" if met else "≤")
    return met


def _case(ctx: Ctx[R], paragraph: str, amount: int, reason: str, **values: object) -> Candidate:
    ctx.step(paragraph, reason, amount, amount=amount, **values)
    return Candidate(amount=amount, paragraph=paragraph, reason=reason, values={"amount": amount, **values})


def _plug_in_hybrid(ctx: Ctx[R]) -> R:
    """The notice: 2 500 € for a new plug-in hybrid « pour tous », doubled for modest households."""
    row = ctx.row
    ctx.read("plug-in-hybrid-by-range", PLUG_IN_READING)
    co2 = ctx.need(row.vehicle_co2_g_per_km, "vehicle.co2_g_per_km", PHEV)
    if co2 >= ctx.count("co2_limit"):
        return ctx.refuse(PHEV, "CO2 {co2} g/km: the notice requires « des émissions inférieures à {co2_limit} g »",
                          co2=co2)
    new = not ctx.need(row.vehicle_previously_registered, "vehicle.previously_registered", PHEV)
    natural = rules.is_natural_person(ctx, PHEV)
    if not new and not (natural and _untaxed(ctx, PHEV)):
        return rules.not_known(ctx, "a used plug-in hybrid bought by a taxable household or a legal person")
    if natural and _is_modest(ctx):
        return rules.not_known(
            ctx, "a plug-in hybrid bought by a modest household or a non-taxable long commuter: the notice says "
            "the prime is « doublé », in a paragraph not on file",
        )
    ctx.step(PHEV, "plug-in hybrid, {state}: {phev_amount:€}", ctx.money("phev_amount"),
             state="new" if new else "used, non-taxable household")
    return ctx.award(ctx.money("phev_amount"), PHEV, "plug-in hybrid ({state}): {phev_amount:€}",
                     state="new" if new else "used, non-taxable household")
