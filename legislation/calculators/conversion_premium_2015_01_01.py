"""Majoration for scrapping — décret n° 2014-1672 du 30 décembre 2014, art. 4, initial wording.

NOR DEVR1428150D, JORF n° 0302 du 31 décembre 2014. In force 2015-01-01 → 2015-03-31; replaced from
2015-04-01 by the « aide complémentaire » (prime à la conversion) of décret n° 2015-361, whose art. 4
keeps this wording for vehicles ordered before 2015-04-01 and invoiced before 2015-07-01.

I: 200 € added to the art. 3 amounts when the acquisition or lease of a vehicle eligible to the aid of
art. 1 goes with the withdrawal for destruction of a vehicle meeting 1° to 9°. II: one majoration per
acquisition, whatever the number of vehicles destroyed.
"""

from __future__ import annotations

from legislation.calculators import _decret_2014_1672_art1 as art1
from legislation.calculators import _decret_2014_1672_art2 as art2
from legislation.calculators import _decret_2014_1672_art4 as art4
from legislation.calculators.kit import Ctx, R
from legislation.dates import add_months
from legislation.enums import VehicleCategory

FACTS = (
    "acquisition",
    "buyer.dealer_demonstration",
    "buyer.leases_out_months",
    "invoice_date",
    "lease_duration_months",
    "scrapped_vehicle",
    "scrapped_vehicle.category",
    "scrapped_vehicle.destruction_date",
    "scrapped_vehicle.first_registration_date",
    "scrapped_vehicle.owned_since",
    "vehicle.category",
    "vehicle.co2_g_per_km",
    "vehicle.demonstration",
    "vehicle.energy",
    "vehicle.first_registration_date",
    "vehicle.previously_registered",
)

# 1° « l'une des catégories de véhicules définies au 1° du I de l'article 1er »
ART1_CATEGORIES = (VehicleCategory.PASSENGER_CAR, VehicleCategory.VAN, VehicleCategory.LIGHT_M2_N2)
M2_N2 = VehicleCategory.LIGHT_M2_N2

# Reading: art. 4, I asks for a vehicle « éligible à l'aide instituée à l'article 1er »; the conditions
# of art. 1 are tested, not whether art. 3 gives the vehicle a positive amount.
NEEDS_ART1_ELIGIBILITY = (
    "Art. 4, I (initial wording) adds 200 € for a vehicle « éligible à l'aide instituée à l'article "
    "1er »: the conditions of art. 1 (category, new, CO2 ceilings of 5°, with its transitional 90 "
    "g/km) are tested; the text does not add a condition on the art. 3 amount."
)
ASSUME_M2_N2_MEASURED = "The scrapped vehicle's CO2 was measured under règlement (CE) n° 715/2007 (art. 4, I, 1°)."
ASSUME_OWNER = (
    "The scrapped vehicle belongs to the beneficiary, by the owner's name on its registration "
    "certificate (art. 4, I, 3°)."
)
ASSUME_REGISTRATION = (
    "The scrapped vehicle is registered in France in a normal series, is not pledged and is not a "
    "damaged vehicle under L. 327-1 to L. 327-6 of the code de la route (art. 4, I, 5° to 7°)."
)
ASSUME_INSURED = (
    "The scrapped vehicle was insured on the date of its hand-over for destruction or on the invoice "
    "date (art. 4, I, 9°)."
)
ASSUME_VHU = (
    "The scrapped vehicle was handed over to an approved end-of-life centre (VHU) or shredder, which "
    "issued a certificate of destruction (art. 4, I, 8°)."
)


# Reading: the initial art. 2 excludes its buyers from « l'aide instituée à cet article » (art. 1) only; the
# majoration increases « les montants prévus par l'article 3 » for a vehicle eligible to that aid.
ART2_EXCLUSIONS = (
    "Art. 2 (initial wording) excludes a company leasing the vehicle out for two years or more and a dealer's "
    "demonstration vehicle from the aid of art. 1; the majoration of art. 4 (initial wording) increases « les "
    "montants prévus par l'article 3 » of that aid, so a buyer art. 2 excludes has no amount to increase: art. 2 "
    "is applied to the majoration too (from 2015-04-01 its wording names the aids of « articles 1er et 4 »)."
)


def calculate(ctx: Ctx[R]) -> R:
    if not ctx.row.scrapped_vehicle:
        return ctx.refuse(
            "I",
            "no vehicle withdrawn from circulation for destruction goes with the acquisition "
            "(purchase.scrapped_vehicle is not given): the majoration needs one",
        )
    denied = _acquired_vehicle(ctx)
    if denied is None:
        denied = _scrapped_vehicle(ctx)
    if denied is not None:
        return denied
    ctx.step("II", "one majoration for the acquisition, whatever the number of vehicles destroyed")
    amount = ctx.money("majoration")
    ctx.step("I", "majoration of the art. 3 amount: {majoration:€}", amount)
    return ctx.award(
        amount, "I", "scrapping of a vehicle in circulation for at least {scrapped_min_age_years} years: {majoration:€}"
    )


def _acquired_vehicle(ctx: Ctx[R]) -> R | None:
    """« un véhicule éligible à l'aide instituée à l'article 1er »."""
    ctx.read("2015-majoration-needs-art1-eligibility", NEEDS_ART1_ELIGIBILITY)
    denied = art1.refusal(ctx)
    if denied is None:
        ctx.read("2015-majoration-art2-exclusions", ART2_EXCLUSIONS)
        denied = art2.exclusion(ctx)
    if denied is None:
        ctx.step("I", "the vehicle acquired is eligible to the aid of art. 1")
        return None
    return ctx.reworded(denied, "art. 4, I needs a vehicle eligible to the aid of art. 1: ")


def _scrapped_vehicle(ctx: Ctx[R]) -> R | None:
    """I, 1° to 9°, at the invoice or first-rent date."""
    row = ctx.row
    decisive = ctx.decisive_date
    category = ctx.need(row.scrapped_category, "scrapped_vehicle.category", "I, 1°")
    if category not in ART1_CATEGORIES:
        return ctx.refuse(
            "I, 1°", "the scrapped vehicle ({category}) is not of a category of art. 1, I, 1°", category=category
        )
    if category is M2_N2:
        ctx.assume(ASSUME_M2_N2_MEASURED)
    ctx.step("I, 1°", "scrapped vehicle of category {category}", category=category)
    registered = ctx.need(
        row.scrapped_first_registration_date, "scrapped_vehicle.first_registration_date", "I, 2°"
    )
    old_enough = add_months(registered, 12 * ctx.count("scrapped_min_age_years"))
    if old_enough > decisive:
        return ctx.refuse(
            "I, 2°",
            "first registered {registered}: not in circulation for {scrapped_min_age_years} years on {decisive} "
            "(only from {old_enough})",
            registered=registered,
            decisive=decisive,
            old_enough=old_enough,
        )
    ctx.step(
        "I, 2°",
        "first registered {registered}: in circulation for at least {scrapped_min_age_years} years on {decisive}",
        registered=registered,
        decisive=decisive,
    )
    ctx.assume(ASSUME_OWNER)
    if (denied := art4.not_owned_long_enough(ctx)) is not None:
        return denied
    ctx.assume(ASSUME_REGISTRATION)
    denied = _destruction(ctx)
    ctx.assume(ASSUME_INSURED)
    return denied


def _destruction(ctx: Ctx[R]) -> R | None:
    """I, 8°: « dans les six mois précédant ou suivant la date de facturation du véhicule acquis ou loué »."""
    destroyed = ctx.need(ctx.row.scrapped_destruction_date, "scrapped_vehicle.destruction_date", "I, 8°")
    invoice = art4.invoice_date(ctx, "I, 8°")
    months = ctx.count("destruction_window_months")
    first, last = add_months(invoice, -months), add_months(invoice, months)
    if not first <= destroyed <= last:
        return ctx.refuse(
            "I, 8°",
            "destroyed {destroyed}: not within {destruction_window_months} months before or after the invoice "
            "date {invoice} ({first} to {last})",
            destroyed=destroyed,
            invoice=invoice,
            first=first,
            last=last,
        )
    ctx.step(
        "I, 8°",
        "destroyed {destroyed}, within {first} – {last} ({destruction_window_months} months before or after "
        "{invoice})",
        destroyed=destroyed,
        first=first,
        last=last,
        invoice=invoice,
    )
    ctx.assume(ASSUME_VHU)
    return None
