"""Majoration for scrapping — décret n° 2014-1672 du 30 décembre 2014, art. 4, initial wording.

NOR DEVR1428150D, JORF n° 0302 du 31 décembre 2014. In force 2015-01-01 → 2015-03-31; replaced from
2015-04-01 by the « aide complémentaire » (prime à la conversion) of décret n° 2015-361, whose art. 4
keeps this wording for vehicles ordered before 2015-04-01 and invoiced before 2015-07-01.

I: 200 € added to the art. 3 amounts when the acquisition or lease of a vehicle eligible to the aid of
art. 1 goes with the withdrawal for destruction of a vehicle meeting 1° to 9°. II: one majoration per
acquisition, whatever the number of vehicles destroyed.
"""

from __future__ import annotations

from dataclasses import replace

from legislation.award import Award
from legislation.calculators import _decret_2014_1672_art1 as art1
from legislation.calculators import _decret_2014_1672_art4 as art4
from legislation.calculators.kit import Ctx
from legislation.dates import add_months
from legislation.enums import VehicleCategory
from legislation.facts import ScrappedVehicle

PARAMETERS = (
    "majoration",
    "scrapped_min_age_years",
    "scrapped_owned_min_months",
    "destruction_window_months",
)
AMOUNT_PARAMETERS = ("majoration",)  # the only amount it awards (property tests)

# 1° « l'une des catégories de véhicules définies au 1° du I de l'article 1er »
ART1_CATEGORIES = (VehicleCategory.PASSENGER_CAR, VehicleCategory.VAN, VehicleCategory.LIGHT_M2_N2)


def calculate(ctx: Ctx) -> Award:
    scrapped = ctx.purchase.scrapped_vehicle
    if scrapped is None:
        return ctx.refuse(
            "I",
            "no vehicle withdrawn from circulation for destruction goes with the acquisition "
            "(purchase.scrapped_vehicle is not given): the majoration needs one",
        )
    denied = _acquired_vehicle(ctx)
    if denied is None:
        denied = _scrapped_vehicle(ctx, scrapped)
    if denied is not None:
        return denied
    ctx.step("II", "one majoration for the acquisition, whatever the number of vehicles destroyed")
    amount = ctx.p("majoration")
    ctx.step("I", f"majoration of the art. 3 amount: {amount} €", amount)
    return ctx.award(amount, "I", f"scrapping of a vehicle in circulation for at least 15 years: {amount} €")


def _acquired_vehicle(ctx: Ctx) -> Award | None:
    """« un véhicule éligible à l'aide instituée à l'article 1er »."""
    # Reading: art. 4, I asks for a vehicle « éligible à l'aide instituée à l'article 1er »; the conditions
    # of art. 1 are tested, not whether art. 3 gives the vehicle a positive amount.
    ctx.read(
        "2015-majoration-needs-art1-eligibility",
        "Art. 4, I (initial wording) adds 200 € for a vehicle « éligible à l'aide instituée à l'article "
        "1er »: the conditions of art. 1 (category, new, CO2 ceilings of 5°, with its transitional 90 "
        "g/km) are tested; the text does not add a condition on the art. 3 amount.",
    )
    denied = art1.refusal(ctx)
    if denied is None:
        ctx.step("I", "the vehicle acquired is eligible to the aid of art. 1")
        return None
    return replace(denied, reason=f"art. 4, I needs a vehicle eligible to the aid of art. 1: {denied.reason}")


def _scrapped_vehicle(ctx: Ctx, scrapped: ScrappedVehicle) -> Award | None:
    """I, 1° to 9°, at the invoice or first-rent date."""
    decisive = ctx.decisive_date
    category = ctx.need(scrapped.category, "scrapped_vehicle.category", "I, 1°")
    if category not in ART1_CATEGORIES:
        return ctx.refuse(
            "I, 1°", f"the scrapped vehicle ({category.value}) is not of a category of art. 1, I, 1°"
        )
    if category is VehicleCategory.LIGHT_M2_N2:
        ctx.assume(
            "The scrapped vehicle's CO2 was measured under règlement (CE) n° 715/2007 (art. 4, I, 1°)."
        )
    ctx.step("I, 1°", f"scrapped vehicle of category {category.value}")
    registered = ctx.need(
        scrapped.first_registration_date, "scrapped_vehicle.first_registration_date", "I, 2°"
    )
    old_enough = add_months(registered, 12 * int(ctx.p("scrapped_min_age_years")))
    if old_enough > decisive:
        return ctx.refuse(
            "I, 2°",
            f"first registered {registered}: not in circulation for 15 years on {decisive} "
            f"(only from {old_enough})",
        )
    ctx.step("I, 2°", f"first registered {registered}: in circulation for at least 15 years on {decisive}")
    ctx.assume(
        "The scrapped vehicle belongs to the beneficiary, by the owner's name on its registration "
        "certificate (art. 4, I, 3°)."
    )
    owned = ctx.need(scrapped.owned_since, "scrapped_vehicle.owned_since", "I, 4°")
    owned_enough = add_months(owned, int(ctx.p("scrapped_owned_min_months")))
    if owned_enough > decisive:
        return ctx.refuse("I, 4°", f"acquired {owned}: not owned for six months on {decisive}")
    ctx.step("I, 4°", f"acquired {owned}: owned for at least six months on {decisive}")
    ctx.assume(
        "The scrapped vehicle is registered in France in a normal series, is not pledged and is not a "
        "damaged vehicle under L. 327-1 to L. 327-6 of the code de la route (art. 4, I, 5° to 7°)."
    )
    denied = _destruction(ctx, scrapped)
    ctx.assume(
        "The scrapped vehicle was insured on the date of its hand-over for destruction or on the invoice "
        "date (art. 4, I, 9°)."
    )
    return denied


def _destruction(ctx: Ctx, scrapped: ScrappedVehicle) -> Award | None:
    """I, 8°: « dans les six mois précédant ou suivant la date de facturation du véhicule acquis ou loué »."""
    destroyed = ctx.need(scrapped.destruction_date, "scrapped_vehicle.destruction_date", "I, 8°")
    invoice = art4.invoice_date(ctx, "I, 8°")
    months = int(ctx.p("destruction_window_months"))
    first, last = add_months(invoice, -months), add_months(invoice, months)
    if not first <= destroyed <= last:
        return ctx.refuse(
            "I, 8°",
            f"destroyed {destroyed}: not within six months before or after the invoice "
            f"date {invoice} ({first} to {last})",
        )
    ctx.step(
        "I, 8°", f"destroyed {destroyed}, within {first} – {last} (six months before or after {invoice})"
    )
    ctx.assume(
        "The scrapped vehicle was handed over to an approved end-of-life centre (VHU) or shredder, which "
        "issued a certificate of destruction (art. 4, I, 8°)."
    )
    return None
