"""Majoration (superbonus) — décret n° 2007-1873, art. 4, as amended by décret n° 2011-2055 du 29 décembre 2011.

Also the calculator of the version derived for 2011 (decret-2007-1873-art4.2011-01-01), whose ``majoration`` is the
300 € « pour les véhicules facturés antérieurement au 1er janvier 2012 »: each version's ``majoration`` is the amount
of the invoices it decides, on the side of ``lower_amount_from_year`` its period lies.

NOR DEVR1131629D, JORF n° 303 du 31 décembre 2011. In force 2012-01-01 → 2014-12-31 (likely; décret n° 2014-1672
from 2015-01-01). « majoré de 300 euros pour les véhicules facturés antérieurement au 1er janvier 2012 et de 200
euros pour les véhicules facturés postérieurement à cette date »: every invoice this version decides is of 2012 or
later, so the 200 € applies (the 300 € names invoices of 2011, decided by the earlier wording). Scrapped vehicle:
1° a category of art. 1, 1°; 2° over fifteen years old at the invoice date; 4° owned for six months; 8° taken in
charge within six months before or after the invoice (the one-year period for invoices up to 2009-12-31 cannot
arise here).
"""

from __future__ import annotations

from datetime import date

from legislation.calculators import _decret_2007_1873_art4 as art4
from legislation.calculators.kit import Ctx, R

FACTS = (
    "acquisition",
    "bonus_ecologique_amount",
    "invoice_date",
    "scrapped_vehicle",
    "scrapped_vehicle.category",
    "scrapped_vehicle.destruction_date",
    "scrapped_vehicle.first_registration_date",
    "scrapped_vehicle.owned_since",
    "vehicle.demonstration",
    "vehicle.previously_registered",
)

ON_NEW_YEAR = (
    "« 300 euros pour les véhicules facturés antérieurement au 1er janvier 2012 et … 200 euros pour les véhicules "
    "facturés postérieurement à cette date »: an invoice dated 1 January 2012 is not « antérieurement »; the "
    "wording enters into force that day and lowers the amount from it, so it gets the 200 €."
)


def calculate(ctx: Ctx[R]) -> R:
    if not ctx.row.scrapped_vehicle:
        return ctx.refuse("", "no vehicle withdrawn from circulation for destruction goes with the acquisition")
    base = ctx.version.citation
    if not art4.is_new_or_demonstration(ctx):
        return ctx.refuse("", "the vehicle was registered before: neither new nor a demonstration vehicle")
    refused = art4.art3_aid(ctx, base)
    if refused is not None:
        return refused
    invoice = ctx.row.invoice_date or ctx.decisive_date
    refused = art4.scrapped_vehicle(
        ctx, base, invoice, categories=art4.ART1_CATEGORIES, years=ctx.count("scrapped_min_age_years"),
        age_citation=ctx.cite("2°"), months=ctx.count("scrapped_owned_min_months"),
    )
    if refused is None:
        refused = art4.destruction_around_invoice(ctx, ctx.params, base, invoice)
    if refused is not None:
        return refused
    split = date(ctx.count("lower_amount_from_year"), 1, 1)
    if invoice == split:
        ctx.read("2012-majoration-on-1-january", ON_NEW_YEAR)
    when = "before" if invoice < split else "from"
    ctx.step("", "invoiced {invoice}, " + ("before" if invoice < split else "not before") + " {split}: {majoration:€}",
             invoice=invoice, split=split)
    ctx.step("", "one majoration per acquisition, whatever the number of vehicles scrapped")
    return ctx.award(ctx.money("majoration"), "", "majoration for scrapping a vehicle over {scrapped_min_age_years} "
                     "years old, invoiced " + when + " {split}: {majoration:€}", split=split)
