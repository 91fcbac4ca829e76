"""The « prime à la casse » of décret n° 2009-66 du 19 janvier 2009, art. 12 (a helper, not a calculator).

NOR DEVC0829551D, JORF n° 16 du 20 janvier 2009. Initial wording (``decret-2009-66-art12.2009-01-21``):
I. invoices from 2008-12-04 (vehicle ordered or lease signed from that day) to 2009-12-31; II. 1 000 € for a new
or demonstration passenger car of ≤ 160 g CO2/km, III. 1 000 € for a van or another category whose CO2 is
measured, each with the scrapping of a vehicle over ten years old that meets « 1°, 4°, 5°, 6°, 7°, 8° et 9° de
l'article 4 du décret du 26 décembre 2007 ». « Cette aide n'est pas cumulable avec la majoration mentionnée à
l'article 4 »: both aids are computed and the one kept is shown with the other (:func:`one_of`).

:func:`initial` returns a :class:`~kit.Candidate` when the prime is due, else the result that says why not.
"""

from __future__ import annotations

from datetime import date

from legislation.calculators import _decret_2007_1873_art4 as art4
from legislation.calculators.kit import Candidate, Ctx, Params, R
from legislation.dates import add_months
from legislation.enums import VehicleCategory

CITATION = "décret n° 2009-66, art. 12"
INITIAL = "decret-2009-66-art12.2009-01-21"
# I: « une facturation entre le 4 décembre 2008, lorsque le véhicule facturé a été commandé ou a fait l'objet d'un
# contrat de location signé à compter de cette même date, et le 31 décembre 2009 » (dates as the text gives them).
FIRST_DAY, LAST_DAY = date(2008, 12, 4), date(2009, 12, 31)
# Décret n° 2009-1181 du 5 octobre 2009 (JO 7 octobre 2009) replaced « deux mois » by « six mois » in art. 4, 8°
# (shared/legal/texts/decret-2007-1873-art4-v2009-01-21.txt, header; start « not verified », taken as the day
# after publication): that wording is not on file.
SIX_MONTHS_WORDING_FROM = date(2009, 10, 8)
CAR = VehicleCategory.PASSENGER_CAR
OTHERS_MEASURED = (VehicleCategory.VAN, VehicleCategory.LIGHT_M2_N2)

NON_CUMULATION = (
    "« Cette aide n'est pas cumulable avec la majoration mentionnée à l'article 4 du décret du 26 décembre 2007 » "
    "(décret n° 2009-66, art. 12, II and III): the buyer gets one of the two aids, not both; the answer keeps the "
    "more favourable and shows the other."
)


def cite(paragraph: str) -> str:
    return f"{CITATION}, {paragraph}"





def initial(ctx: Ctx[R], prime: Params, conditions: Params) -> Candidate | R:
    """I to III of the initial wording (``conditions``: the numbers of art. 4, 2009-01-21 wording): the prime as a
    candidate, or the result that says why it is not due."""
    decisive = ctx.decisive_date
    if not FIRST_DAY <= decisive <= LAST_DAY:
        return ctx.refuse("", "invoiced {decisive}: outside 2008-12-04 – 2009-12-31", cite("I"), decisive=decisive)
    order = ctx.need(ctx.row.order_date, "order_date", "", cite("I"))
    if order < FIRST_DAY:
        return ctx.refuse("", "ordered {order}, before 2008-12-04: I excludes it", cite("I"), order=order)
    ctx.step_at(cite("I"), "ordered {order}, invoiced {decisive}: within I", order=order, decisive=decisive)
    if not art4.is_new_or_demonstration(ctx):
        return ctx.refuse("", "the vehicle was registered before: neither new nor a demonstration vehicle", cite("II"))
    refused = _vehicle(ctx, prime)
    if refused is not None:
        return refused
    paragraph = "II" if ctx.row.vehicle_category is CAR else "III"
    refused = art4.scrapped_vehicle(
        ctx, art4.CITATION, decisive, categories=art4.ART1_CATEGORIES,
        years=prime.count["scrapped_min_age_years"], age_citation=cite(paragraph + ", 1°"),
        months=conditions.count["scrapped_owned_min_months"],
    )
    if refused is None:
        refused = _destruction(ctx, conditions, decisive)
    if refused is not None:
        return refused
    amount = prime.money["car_amount" if paragraph == "II" else "van_amount"]
    return Candidate(
        amount=amount, paragraph="", citation=cite(paragraph),
        reason="prime à la casse: {amount:€} for scrapping a vehicle over {years} years old",
        values={"amount": amount, "years": prime.count["scrapped_min_age_years"]},
    )


def _vehicle(ctx: Ctx[R], prime: Params) -> R | None:
    row = ctx.row
    category = ctx.need(row.vehicle_category, "vehicle.category", "", cite("II"))
    if category is CAR:
        co2 = ctx.need(row.vehicle_co2_g_per_km, "vehicle.co2_g_per_km", "", cite("II"))
        ceiling = prime.count["car_co2_max"]
        if co2 > ceiling:
            return ctx.refuse("", "passenger car of {co2} g/km > {ceiling} g/km", cite("II"), co2=co2, ceiling=ceiling)
        ctx.step_at(cite("II"), "passenger car of {co2} g/km ≤ {ceiling} g/km", co2=co2, ceiling=ceiling)
        return None
    if category in OTHERS_MEASURED:
        ctx.step_at(cite("III"), "{category}: a van or a category whose CO2 is measured", category=category)
        return None
    return ctx.refuse(
        "", "a {category} is neither a passenger car (II) nor a category whose CO2 is measured under directive "
        "80/1268/CEE or règlement (CE) n° 715/2007 (III)", cite("III"), category=category,
    )


def _destruction(ctx: Ctx[R], conditions: Params, invoice: date) -> R | None:
    """Art. 4, 8° as the prime refers to it: two months (2009-01-21 wording); from 2009-10-08 six months, a
    wording not on file — a destruction between the two is not decided on file."""
    destroyed = ctx.need(
        ctx.row.scrapped_destruction_date, "scrapped_vehicle.destruction_date", "", art4.cite(art4.CITATION, "8°")
    )
    if (
        invoice >= SIX_MONTHS_WORDING_FROM
        and add_months(invoice, -6) <= destroyed <= add_months(invoice, 6)
        and not add_months(invoice, -2) <= destroyed <= add_months(invoice, 2)
    ):
        return ctx.not_covered(
            "",
            "destroyed {destroyed}, more than two but less than six months from the invoice: from 2009-10-08 "
            "art. 4, 8° reads « six mois » (décret n° 2009-1181), a wording not on file",
            destroyed=destroyed,
        )
    return art4.destruction_around_invoice(ctx, conditions, art4.CITATION, invoice)


def instead_of_majoration(ctx: Ctx[R], found: Candidate, majoration: int) -> R | None:
    """The prime is due and is not lower than the majoration: it is kept, the majoration is not examined (the two
    cannot be cumulated); None when the majoration must still be examined."""
    if found.amount < majoration:
        return None
    ctx.read("prime-a-la-casse-not-cumulable", NON_CUMULATION)
    ctx.step_at(
        found.citation or CITATION,
        "« Cette aide n'est pas cumulable avec la majoration mentionnée à l'article 4 »: the majoration "
        "({majoration:€}) is not added, and being no higher it is not examined",
        majoration=majoration,
    )
    return one_of(ctx, [found], None)


def one_of(ctx: Ctx[R], candidates: list[Candidate], refusal: R | None) -> R:
    """The non-cumulation rule: the more favourable of the aids due, or ``refusal`` when none is."""
    if not candidates:
        assert refusal is not None, "an aid refused says why"
        return refusal
    if len(candidates) > 1:
        ctx.read("prime-a-la-casse-not-cumulable", NON_CUMULATION)
    return ctx.best(candidates, NON_CUMULATION)
