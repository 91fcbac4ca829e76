"""Prime à la casse — décret n° 2009-66 du 19 janvier 2009, art. 12, initial wording; with the majoration of
décret n° 2007-1873, art. 4 (2009-66 wording), which it cannot be cumulated with.

NOR DEVC0829551D, JORF n° 16 du 20 janvier 2009. In force 2009-01-21 → 2009-12-19 (décret n° 2009-1581 from
2009-12-20). 1 000 € (II: passenger car ≤ 160 g/km; III: van or other measured category) for scrapping a vehicle
over ten years old (:mod:`._decret_2009_66_art12`). The majoration of art. 4 (300 €, a vehicle over fifteen
years, an art. 3 aid) is the other aid a scrapping could give in this period: both are computed, the more
favourable is kept. The art. 4 wording on file runs to 2009-10-07; from 2009-10-08 (décret n° 2009-1181) it is
not on file, and a purchase the prime does not cover is then « not covered on file ».
"""

from __future__ import annotations

from legislation.calculators import _decret_2007_1873_art4 as art4
from legislation.calculators import _decret_2009_66_art12 as prime
from legislation.calculators.kit import Candidate, Ctx, R

FACTS = (
    "acquisition",
    "bonus_ecologique_amount",
    "invoice_date",
    "order_date",
    "scrapped_vehicle",
    "scrapped_vehicle.category",
    "scrapped_vehicle.destruction_date",
    "scrapped_vehicle.first_registration_date",
    "scrapped_vehicle.owned_since",
    "vehicle.category",
    "vehicle.co2_g_per_km",
    "vehicle.demonstration",
    "vehicle.previously_registered",
)


def calculate(ctx: Ctx[R]) -> R:
    if not ctx.row.scrapped_vehicle:
        return ctx.refuse("I", "no vehicle withdrawn from circulation for destruction goes with the acquisition")
    wording = ctx.of(art4.WORDING_2009)
    found = prime.initial(ctx, ctx.params, wording)
    if isinstance(found, Candidate):
        kept = prime.instead_of_majoration(ctx, found, wording.money["majoration"])
        if kept is not None:
            return kept
    candidates = [found] if isinstance(found, Candidate) else []
    if ctx.decisive_date >= prime.SIX_MONTHS_WORDING_FROM:
        return ctx.not_covered(
            "", "the prime à la casse is not due on the text on file, and the majoration of art. 4 in force from "
            "2009-10-08 (décret n° 2009-1181) is not on file",
        )
    majoration = _majoration(ctx)
    if isinstance(majoration, Candidate):
        candidates.append(majoration)
    return prime.one_of(ctx, candidates, None if isinstance(found, Candidate) else found)


def _majoration(ctx: Ctx[R]) -> Candidate | R:
    base, wording = art4.CITATION, ctx.of(art4.WORDING_2009)
    if not art4.is_new_or_demonstration(ctx):
        return ctx.refuse("", "the vehicle was registered before: neither new nor a demonstration vehicle", base)
    refused = art4.art3_aid(ctx, base)
    if refused is not None:
        return refused
    invoice = ctx.row.invoice_date or ctx.decisive_date
    refused = art4.scrapped_vehicle(
        ctx, base, invoice, categories=art4.ART1_CATEGORIES, years=wording.count["scrapped_min_age_years"],
        age_citation=art4.cite(base, "2°"), months=wording.count["scrapped_owned_min_months"],
    )
    if refused is None:
        refused = art4.destruction_around_invoice(ctx, wording, base, invoice)
    if refused is not None:
        return refused
    return art4.majoration(ctx, wording, base, wording.money["majoration"])
