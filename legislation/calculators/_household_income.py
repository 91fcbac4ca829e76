"""The household tests of C. énergie art. D. 251-8 from décret 2019-737 (2019-08-01) on (a helper, not a calculator):
« une personne physique dont le revenu fiscal de référence par part est inférieur ou égal à 13 489 euros et dont la
distance entre son domicile et son lieu de travail est supérieure à 30 kilomètres ou effectuant plus de 12 000
kilomètres par an … soit … inférieur ou égal à 6 300 euros ». Written once for the 2019–2020 versions and the 2021
wording (:mod:`legislation.calculators._conversion_premium_2021`). Numbers: the calling version's ``income_max``,
``income_very_low_max``, ``commute_km_min``, ``professional_km_min``.
"""

from __future__ import annotations

from legislation.calculators.kit import Ctx, R
from legislation.enums import PersonKind

NATURAL_PERSON = PersonKind.NATURAL_PERSON
PERSON_WORDS = {kind: kind.value.replace("_", " ") for kind in PersonKind}  # « legal person »…

READING_NATURAL_PERSONS = (
    "The income conditions of 1° a), 2° a), 3° a) and b) and 4° a) name « une personne physique »: a "
    "legal person or an administration de l'Etat never meets them. It gets the « autres cas » amounts "
    "where the text has them (1° b), 2° b), 4° b)), the class-based 1° bis and 4° bis, and nothing under "
    "3°, which has no « autres cas »."
)

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
