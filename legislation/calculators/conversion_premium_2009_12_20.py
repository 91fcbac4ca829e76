"""Prime à la casse — décret n° 2009-66, art. 12, as rewritten by décret n° 2009-1581 du 18 décembre 2009
(text on file TRUNCATED: graded ``secondary``).

NOR DEVE0927822D, JORF n° 294 du 19 décembre 2009. In force from 2009-12-20. What the text on file says: I. an
aid for a new or demonstration passenger car with the scrapping of a vehicle over ten years old (1°) owned by the
buyer (2°) and meeting art. 4, 1°, 4° to 9° (3°), not cumulable with the majoration of art. 4; for a car of
≤ 160 g/km ordered (or lease signed) « entre le 4 décembre 2008 et le 31 décembre 2009 »: 1 000 € if invoiced by
2010-03-31, 700 € from 2010-04-01 to 2010-09-30, 500 € « si elle intervient entre le 1er octobre » — the text
stops there. Anything the visible text does not settle (another order date, another vehicle, the end of the
500 € tier beyond what its start says) is answered « not covered on file »; so is a purchase the prime does not
cover, since the majoration of art. 4 in force from 2009-12-20 is not on file either.
"""

from __future__ import annotations

from datetime import date

from legislation.calculators import _decret_2007_1873_art4 as art4
from legislation.calculators import _decret_2009_66_art12 as prime
from legislation.calculators.kit import Ctx, R
from legislation.dates import add_months

FACTS = (
    "acquisition",
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

# The tiers of the dash on file, by invoice date (dates as the text gives them).
TIER_1_LAST, TIER_2_LAST = date(2010, 3, 31), date(2010, 9, 30)
TRUNCATED = (
    "The text of décret 2009-66, art. 12 in its 2009-1581 wording is on file only up to « 500 € si elle intervient "
    "entre le 1er octobre »: the 500 € tier starts on 2010-10-01 and is applied from that day to the end of this "
    "version on file (2010-12-31, a date inferred, see the version's notes); what follows the cut is not known."
)
NOT_SETTLED = (
    "the text on file (truncated) does not settle it, and the majoration of art. 4 in force from 2009-12-20 is not "
    "on file"
)


def calculate(ctx: Ctx[R]) -> R:
    if not ctx.row.scrapped_vehicle:
        return ctx.refuse("I", "no vehicle withdrawn from circulation for destruction goes with the acquisition")
    row = ctx.row
    order = ctx.need(row.order_date, "order_date", "I")
    if not prime.FIRST_DAY <= order <= prime.LAST_DAY:
        return ctx.not_covered("I", "ordered {order}, outside 2008-12-04 – 2009-12-31: " + NOT_SETTLED, order=order)
    if not art4.is_new_or_demonstration(ctx):
        return ctx.refuse("I", "the vehicle was registered before: neither new nor a demonstration vehicle")
    category = ctx.need(row.vehicle_category, "vehicle.category", "I")
    co2 = ctx.need(row.vehicle_co2_g_per_km, "vehicle.co2_g_per_km", "I") if category is art4.CAR else None
    if co2 is None or co2 > ctx.count("car_co2_max"):
        return ctx.not_covered("I", "a {category} of {co2} g/km: " + NOT_SETTLED, category=category, co2=co2)
    ctx.step("I", "passenger car of {co2} g/km ≤ {car_co2_max} g/km, ordered {order}", co2=co2, order=order)
    invoice = row.invoice_date or ctx.decisive_date
    refused = art4.scrapped_vehicle(
        ctx, art4.CITATION, invoice, categories=art4.ART1_CATEGORIES, years=ctx.count("scrapped_min_age_years"),
        age_citation=ctx.cite("I, 1°"), months=ctx.of(art4.WORDING_2009).count["scrapped_owned_min_months"],
    )
    if refused is not None:
        return refused
    destroyed = ctx.need(row.scrapped_destruction_date, "scrapped_vehicle.destruction_date", "I, 3°")
    if not add_months(invoice, -6) <= destroyed <= add_months(invoice, 6):
        return ctx.not_covered(
            "I, 3°", "destroyed {destroyed}, more than six months from the invoice: art. 4, 8° in force then is not "
            "on file", destroyed=destroyed,
        )
    ctx.read("2010-destruction-six-months", SIX_MONTHS)
    ctx.step_at(art4.cite(art4.CITATION, "8°"), "destroyed {destroyed}, within six months of the invoice",
                destroyed=destroyed)
    ctx.read("prime-a-la-casse-not-cumulable", prime.NON_CUMULATION)
    ctx.step("I", "« Cette aide n'est pas cumulable avec la majoration mentionnée à l'article 4 »: the majoration "
             "(not on file for this period; 300 € in every wording on file before 2012) is not added")
    return _tier(ctx, invoice)


SIX_MONTHS = (
    "Art. 4, 8° in force from 2009-12-20 is not on file. Both wordings around it that are known — décret 2009-1181 "
    "(« deux mois » → « six mois », from 2009-10-08) and the 2012-01-01 wording on file — accept a destruction "
    "within six months before or after the invoice: such a destruction is accepted; a longer one is not decided."
)


def _tier(ctx: Ctx[R], invoice: date) -> R:
    if invoice <= TIER_1_LAST:
        return ctx.award(ctx.money("amount_by_march_2010"), "I", "invoiced {invoice}, by 2010-03-31: "
                         "{amount_by_march_2010:€}", invoice=invoice)
    if invoice <= TIER_2_LAST:
        return ctx.award(ctx.money("amount_april_september_2010"), "I", "invoiced {invoice}, 2010-04-01 – "
                         "2010-09-30: {amount_april_september_2010:€}", invoice=invoice)
    ctx.read("2010-prime-truncated", TRUNCATED)
    return ctx.award(ctx.money("amount_from_october_2010"), "I", "invoiced {invoice}, from 2010-10-01: "
                     "{amount_from_october_2010:€}", invoice=invoice)
