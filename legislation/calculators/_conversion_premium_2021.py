"""Rules shared by the 2021 wordings of C. énergie, art. D. 251-8 (prime à la conversion): the household
tests of its a) paragraphs, the two CO2 ceilings of its 3° with their 5° substitutes, and the city
electric range. Not a calculator (the leading underscore keeps it out of discovery).

Every number comes from the calling version's parameters: ``income_max``, ``income_very_low_max``,
``commute_km_min``, ``professional_km_min``, ``electric_range_min``, ``c3_co2_new_max``,
``c3_co2_other_max``, ``c3_co2_new_max_lowered``, ``c3_co2_other_max_lowered``, ``c3_recent_months``.
"""

from __future__ import annotations

from itertools import product

from legislation.calculators.kit import Ctx, R
from legislation.dates import add_months
from legislation.enums import Energy, PersonKind

PURE_THERMAL = (Energy.PETROL, Energy.DIESEL, Energy.LPG, Energy.CNG)
NATURAL_PERSON = PersonKind.NATURAL_PERSON
PERSON_WORDS = {kind: kind.value.replace("_", " ") for kind in PersonKind}  # « legal person »…

READING_NATURAL_PERSONS = (
    "The income conditions of 1° a), 2° a), 3° a) and b) and 4° a) name « une personne physique »: a "
    "legal person or an administration de l'Etat never meets them. It gets the « autres cas » amounts "
    "where the text has them (1° b), 2° b), 4° b)), the class-based 1° bis and 4° bis, and nothing under "
    "3°, which has no « autres cas »."
)
READING_OTHER_CASES = (
    "« dans les autres cas » (1° b), 2° b), 4° b)) is residual: it covers the purchases that do not meet "
    "the conditions of the a) of the same paragraph. A household meeting a) gets a), computed on its own "
    "terms."
)
READING_CO2_CEILINGS = (
    "3° sets two CO2 ceilings: « ≤ 132 g … si le véhicule n'a pas fait l'objet précédemment d'une "
    "première immatriculation … ou s'il a fait l'objet d'une première immatriculation depuis moins de six"
    " mois …, ou … ≤ 137 g ». Read as an open alternative, 137 g would serve every vehicle and the 132 g "
    "ceiling would never bite; the notice of décret n° 2020-1526 says the ceiling « des véhicules neufs »"
    " is lowered to 132 g. So 132 g applies to a vehicle never registered or first registered less than "
    "six months before the invoice or first rent, and 137 g only to the others. Under 5° the same split "
    "holds with 104 g and 109 g."
)
READING_SIX_MONTHS = (
    "« depuis moins de six mois à la date de facturation … ou de versement du premier loyer »: less than "
    "six calendar months have passed when the decisive date is before the first registration date + 6 "
    "months (month ends clamp); on that day exactly, six months have passed and the 137 g (109 g) ceiling"
    " applies."
)
READING_NEW_IS_IN_NEW_REGISTRATION_SYSTEM = (
    "5° lowers the ceilings for vehicles « qui ne relèvent pas du nouveau dispositif d'immatriculation, au sens "
    "du 4° de l'article 1007 du code général des impôts ». That system has applied to first registrations "
    "since 1 March 2020 (décret n° 2020-169, which fixed the date for CGI art. 1007 and 1007 bis): a vehicle "
    "never registered before is first registered at its invoice or first rent, under that system, so the "
    "fact is not asked for it."
)
READING_NO_ELECTRIC_MODE = (
    "A vehicle whose only energy is petrol, diesel, LPG or natural gas has no « mode tout électrique »: "
    "its equivalent all-electric city range is 0 km, so the range condition of 1° and 1° bis is not met "
    "and the fact is not asked."
)

D251_3 = "C. énergie, art. D. 251-3 (2021 wording not on file)"
D251_1 = "C. énergie, art. D. 251-1 (2021 wording not on file)"
ASSUME_D251_3 = (
    "The beneficiary and the scrapped vehicle meet the conditions of D. 251-3 (a person or administration"
    " eligible to the prime; « retrait de la circulation, à des fins de destruction » of a vehicle of the"
    " categories, age and ownership it requires): that article is not on file for 2021; the request "
    "asserts them."
)
ASSUME_D251_1_5 = (
    "The vehicle corresponds to the 5° of D. 251-1 (the bonus condition on cars and vans, likely CO2 ≤ 50"
    " g/km since décret 2020-656): that article is not on file for 2021; the request asserts it."
)
ASSUME_D251_1_6 = (
    "The vehicle corresponds to the 6° of D. 251-1 (the bonus condition on two- and three-wheelers and "
    "quadricycles: electricity as energy): that article is not on file for 2021; the request asserts it."
)
ASSUME_CRITAIR_ELECTRIC = (
    "The vehicle, electric or hydrogen-powered, is classed « électrique » (not « 1 ») under the arrêté of "
    "article R. 318-2 of the code de la route (vehicle.critair not given; that arrêté is not on file): 3° is "
    "not open to it, and 4° only through its CO2 band."
)
READING_L_ELECTRIC_ONLY = (
    "2° covers the vehicles « correspondant au 6° du D. 251-1 »: two- and three-wheelers and quadricycles "
    "using electricity (EL) as their energy (D. 251-1, 6°, 2017 wording; the 2021 wording is not on file). "
    "A vehicle whose energy the request gives as other than electric does not correspond to it."
)
ASSUME_EBIKE = (
    "The pedal-assisted cycle (R. 311-1 code de la route) meets the conditions D. 251-3 sets for it (e.g."
    " no lead battery): that article is not on file for 2021; the request asserts them."
)
READING_RATE_ON_PRICE = (
    "« 80 % (40 %) du prix d'acquisition, dans la limite de X euros » is a rate on the vehicle's "
    "acquisition price TTC (vehicle.acquisition_cost), then capped at X. A leased battery counts only "
    "where the text says so (« incluant … location de la batterie », the 60 000 € ceiling of 1°), not in "
    "the base of a rate."
)
READING_CAP_COST_MINUS_BONUS = (
    "2° a) « 1 100 euros, dans la limite du coût d'acquisition du véhicule toutes taxes comprises et "
    "bonus écologique déduit »: the prime is capped at the acquisition cost TTC minus the bonus "
    "écologique granted for the same vehicle (bonus_ecologique_amount; 0 when none is granted), never "
    "below 0."
)
WHY_MOST_FAVOURABLE = (
    "The amount « est déterminé par l'un ou l'autre des cas suivants » without ranking them, and one "
    "scrapped vehicle gives one prime: when the purchase meets several cases (1°/1° bis, 3° a), 3° b), "
    "4°), the case most favourable to the beneficiary is kept, as the « plus avantageuses » rule of the "
    "same decrees' transitional articles does; the others are shown as alternatives."
)


def city_electric_range(ctx: Ctx[R], paragraph: str) -> int:
    """« autonomie équivalente en mode tout électrique en ville » (thousandths of a km), 0 for a purely
    thermal vehicle."""
    row = ctx.row
    city_range = row.vehicle_city_electric_range_km
    if city_range is None and row.vehicle_energy in PURE_THERMAL:
        ctx.read("no-electric-mode-no-range", READING_NO_ELECTRIC_MODE)
        return 0
    return ctx.need(city_range, "vehicle.city_electric_range_km", paragraph)


def is_natural_person(ctx: Ctx[R], paragraph: str) -> bool:
    """Whether the buyer is « une personne physique » (the only one the income conditions name)."""
    kind = ctx.need(ctx.row.buyer_person_kind, "buyer.person_kind", paragraph)
    if kind is not NATURAL_PERSON:
        ctx.read("income-conditions-natural-persons-only", READING_NATURAL_PERSONS)
        ctx.step(paragraph, "buyer is a {who}, not « une personne physique »", who=PERSON_WORDS[kind])
        return False
    return True


def is_low_income(ctx: Ctx[R], paragraph: str) -> bool:
    """« personne physique dont le revenu fiscal de référence par part est inférieur ou égal à 13 489 € »."""
    if not is_natural_person(ctx, paragraph):
        return False
    income = ctx.need(ctx.row.buyer_reference_income_per_share, "buyer.reference_income_per_share", paragraph)
    met = income <= ctx.money("income_max")
    ctx.step(paragraph, "reference income per share {income:€} {sign} {income_max:€}", income=income,
             sign="≤" if met else ">")
    return met


def is_modest_or_long_distance(ctx: Ctx[R], paragraph: str) -> bool:
    """The a) household of 1°, 3° b) and 4° a): RFR ≤ 13 489 € and a long commute or many professional
    kilometres, or RFR ≤ 6 300 €. Distance and kilometres are asked only when the income leaves it open."""
    if not is_natural_person(ctx, paragraph):
        return False
    income = ctx.need(ctx.row.buyer_reference_income_per_share, "buyer.reference_income_per_share", paragraph)
    if income <= ctx.money("income_very_low_max"):
        ctx.step(paragraph, "reference income per share {income:€} ≤ {income_very_low_max:€}", income=income)
        return True
    if income > ctx.money("income_max"):
        ctx.step(paragraph, "reference income per share {income:€} > {income_max:€} (and > {income_very_low_max:€})",
                 income=income)
        return False
    ctx.step(paragraph, "{income_very_low_max:€} < reference income per share {income:€} ≤ {income_max:€}: "
             "distance decides", income=income)
    return _is_long_distance(ctx, paragraph)


def _is_long_distance(ctx: Ctx[R], paragraph: str) -> bool:
    """« distance … supérieure à 30 kilomètres ou … plus de 12 000 kilomètres par an »: both strict."""
    row = ctx.row
    distance, km_year = row.buyer_home_work_distance_km, row.buyer_professional_km_per_year
    if distance is not None and distance > ctx.qty("commute_km_min"):
        ctx.step(paragraph, "home–work distance {distance:q} km > {commute_km_min} km", distance=distance)
        return True
    if km_year is not None and km_year > ctx.qty("professional_km_min"):
        ctx.step(paragraph, "{km_year:q} professional km a year > {professional_km_min} km", km_year=km_year)
        return True
    distance = ctx.need(distance, "buyer.home_work_distance_km", paragraph)
    km_year = ctx.need(km_year, "buyer.professional_km_per_year", paragraph)
    ctx.step(
        paragraph,
        "home–work distance {distance:q} km ≤ {commute_km_min} km and "
        "{km_year:q} professional km a year ≤ {professional_km_min} km",
        distance=distance,
        km_year=km_year,
    )
    return False


# -- 3° and 5°: the CO2 ceilings -----------------------------------------------------------------

_FACTS = (  # the order in which missing facts are asked, with the paragraph that needs each
    ("previously_registered", "vehicle.previously_registered", "3°"),
    ("recent", "vehicle.first_registration_date", "3°"),
    ("new_registration_system", "vehicle.new_registration_system", "5°"),
    ("wheelchair_accessible", "vehicle.wheelchair_accessible", "5°"),
)


def meets_co2_ceiling(ctx: Ctx[R], co2: int) -> bool:
    """3° with 5°: the vehicle's ceiling, asking only the facts that change the outcome.

    Which ceiling applies depends on two independent questions: new or recently registered (132 g / 104 g)
    or not, and lowered by the 5° or not. Each is known, or open (None) when a fact it turns on is not
    given; the ceilings the vehicle may have are those of every answer an open question may take."""
    ctx.read("co2-ceiling-132-new-137-others", READING_CO2_CEILINGS)
    facts = _known_facts(ctx)
    new_or_recent = _not_or(facts["previously_registered"], facts["recent"])
    lowered = _not_or(facts["new_registration_system"], facts["wheelchair_accessible"])
    if new_or_recent is not None and lowered is not None:  # the usual purchase: one ceiling
        ceilings = [_ceiling(ctx, new_or_recent, lowered)]
    else:
        ceilings = sorted({_ceiling(ctx, n, lo) for n in _answers(new_or_recent) for lo in _answers(lowered)})
        if ceilings[0] < co2 <= ceilings[-1]:  # met under some ceilings only: ask the first fact that decides
            name, field, paragraph = next(
                f for f in _FACTS if facts[f[0]] is None and _matters(ctx, co2, facts, f[0])
            )
            ctx.need(None, field, paragraph)
    met = co2 <= ceilings[0]
    ctx.step(
        "3°",
        "CO2 {co2} g/km {sign} the ceiling for this vehicle ({ceilings}): {verdict}",
        co2=co2,
        sign="≤" if met else ">",
        ceilings=" or ".join(f"{c} g/km" for c in ceilings),
        verdict="met" if met else "not met",
    )
    return met


def _not_or(flag: bool | None, other: bool | None) -> bool | None:
    """``not flag or other`` where a fact not given (None) may be either: None when the answer turns on it."""
    if flag is False or other is True:
        return True
    if flag is True and other is False:
        return False
    return None


def _answers(answer: bool | None) -> tuple[bool, ...]:
    return (False, True) if answer is None else (answer,)


def _known_facts(ctx: Ctx[R]) -> dict[str, bool | None]:
    row = ctx.row
    registered = row.vehicle_previously_registered
    first = row.vehicle_first_registration_date
    if registered is None and first is not None:
        registered = True
    recent = None
    if first is not None:
        months = ctx.count("c3_recent_months")
        limit = add_months(first, months)
        recent = ctx.decisive_date < limit
        ctx.read("recent-registration-less-than-six-months", READING_SIX_MONTHS)
        ctx.step(
            "3°",
            "first registration {first}; {months} months later is {limit}; decisive date {decisive} is "
            "{relation} {months} months",
            first=first,
            months=months,
            limit=limit,
            decisive=ctx.decisive_date,
            relation="before it: less than" if recent else "on or after it: at least",
        )
    elif registered is False:
        ctx.step("3°", "the vehicle has never been registered before: the new-vehicle ceiling")
    standard = row.vehicle_new_registration_system
    if standard is None and registered is False:
        # A new vehicle gets its first registration now, in the new system (reading stated in the answer).
        standard = True
        ctx.read("new-vehicle-in-new-registration-system", READING_NEW_IS_IN_NEW_REGISTRATION_SYSTEM)
    return {
        "previously_registered": registered,
        "recent": recent,
        "new_registration_system": standard,
        "wheelchair_accessible": row.vehicle_wheelchair_accessible,
    }


def _combos(facts: dict[str, bool | None]) -> list[dict[str, bool]]:
    names = list(facts)
    choices = [[v] if (v := facts[n]) is not None else [False, True] for n in names]
    return [dict(zip(names, combo, strict=True)) for combo in product(*choices)]


def _ceiling(ctx: Ctx[R], new_or_recent: bool, lowered: bool) -> int:
    if lowered:  # 5°: outside the new registration system, or accessible in a wheelchair
        return ctx.count("c3_co2_new_max_lowered") if new_or_recent else ctx.count("c3_co2_other_max_lowered")
    return ctx.count("c3_co2_new_max") if new_or_recent else ctx.count("c3_co2_other_max")


def _combo_ceiling(ctx: Ctx[R], f: dict[str, bool]) -> int:
    new_or_recent = not f["previously_registered"] or f["recent"]
    return _ceiling(ctx, new_or_recent, not f["new_registration_system"] or f["wheelchair_accessible"])


def _matters(ctx: Ctx[R], co2: int, facts: dict[str, bool | None], name: str) -> bool:
    """Whether flipping one unknown fact changes the outcome for some value of the other unknowns."""
    for combo in _combos({**facts, name: False}):
        if (co2 <= _combo_ceiling(ctx, combo)) != (co2 <= _combo_ceiling(ctx, {**combo, name: True})):
            return True
    return False
