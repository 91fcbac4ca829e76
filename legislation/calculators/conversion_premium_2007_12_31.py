"""Majoration (superbonus) — décret n° 2007-1873 du 26 décembre 2007, art. 4, initial wording.

NOR DEVC0774438D, JORF n° 0302 du 29 décembre 2007. In force 2007-12-31 → 2009-01-20 (décret n° 2009-66 from
2009-01-21). « Le montant de l'aide défini à l'article 3 est majoré de 300 euros » when the acquisition or lease
of a new or demonstration vehicle goes « simultanément » with the scrapping of a passenger car (1°) over fifteen
years old (2°), owned for six months (4°), taken in charge on the day of the sale or, when the seller hands it
over, within eight days (8°).

Décret n° 2009-66, art. 12 (the « prime à la casse », in force 2009-01-21) covers invoices from 2008-12-04 for
vehicles ordered from that day: for such an invoice it is applied too (it is on file), and, the two aids not
being cumulable, the more favourable is kept (:mod:`._decret_2009_66_art12`).
"""

from __future__ import annotations

from legislation.calculators import _decret_2007_1873_art4 as art4
from legislation.calculators import _decret_2009_66_art12 as prime
from legislation.calculators.kit import Candidate, Ctx, R

FACTS = (
    "acquisition",
    "bonus_ecologique_amount",
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

RETROACTIVE = (
    "Décret n° 2009-66, art. 12, I (in force 2009-01-21) applies to invoices « entre le 4 décembre 2008 … et le 31 "
    "décembre 2009 » of vehicles ordered from 2008-12-04; its IV runs the claim delay from its entry into force for "
    "invoices before it. An invoice of 2008-12-04 to 2009-01-20, under this wording of art. 4, may therefore get "
    "the prime à la casse instead of the majoration."
)
ACQUISITION_DATE = (
    "« à la date de l'acquisition ou de la prise en location »: the invoice date of a purchase, the first-rent date "
    "of a lease (the dates the resolver decides by)."
)


def calculate(ctx: Ctx[R]) -> R:
    if not ctx.row.scrapped_vehicle:
        return ctx.refuse("", "no vehicle withdrawn from circulation for destruction goes with the acquisition")
    candidates: list[Candidate] = []
    if ctx.decisive_date >= prime.FIRST_DAY:
        ctx.read("prime-a-la-casse-retroactive", RETROACTIVE)
        found = prime.initial(ctx, ctx.of(prime.INITIAL), ctx.of(art4.WORDING_2009))
        if isinstance(found, Candidate):
            kept = prime.instead_of_majoration(ctx, found, ctx.money("majoration"))
            if kept is not None:
                return kept
            candidates.append(found)
    majoration = _majoration(ctx)
    if isinstance(majoration, Candidate):
        candidates.append(majoration)
        return prime.one_of(ctx, candidates, None)
    return prime.one_of(ctx, candidates, majoration)


def _majoration(ctx: Ctx[R]) -> Candidate | R:
    base = ctx.version.citation
    if not art4.is_new_or_demonstration(ctx):
        return ctx.refuse("", "the vehicle was registered before: neither new nor a demonstration vehicle")
    refused = art4.art3_aid(ctx, base)
    if refused is not None:
        return refused
    ctx.read("2008-acquisition-date", ACQUISITION_DATE)
    sale = ctx.decisive_date
    refused = art4.scrapped_vehicle(
        ctx, base, sale, categories=(art4.CAR,), years=ctx.count("scrapped_min_age_years"),
        age_citation=art4.cite(base, "2°"), months=ctx.count("scrapped_owned_min_months"),
    )
    if refused is None:
        refused = art4.destruction_simultaneous(ctx, ctx.params, base, sale)
    if refused is not None:
        return refused
    return art4.majoration(ctx, ctx.params, base, ctx.money("majoration"))
