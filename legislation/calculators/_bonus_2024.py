"""Rules of D. 251-8 as rewritten by décret n° 2024-102 (official extract) that the car bonus of 2024-02-14 and
2024-12-02 applies: leasing firms, dealers' and other demonstration vehicles (a helper, not a calculator; kept apart
from ``_bonus_2023`` so that the 2023 versions, which lack these numbers, compile without them)."""

from __future__ import annotations

from legislation.calculators.kit import Ctx, R
from legislation.dates import add_months


def demonstration(ctx: Ctx[R]) -> R | None:
    """From 2024-02-14 (D. 251-8 as rewritten by décret 2024-102, official extract): a vehicle previously affected
    to demonstration may be aided « si la cession ou la prise en location intervient dans un délai compris entre
    trois et douze mois suivant sa première immatriculation ». Returns a refusal outside that window, None inside
    it (the vehicle is then treated as new) or when the vehicle was never registered."""
    row = ctx.row
    if not row.vehicle_previously_registered or not row.vehicle_demonstration:
        return None
    registered = ctx.need(row.vehicle_first_registration_date, "vehicle.first_registration_date", DEMO)
    earliest = add_months(registered, ctx.count("demo_min_months"))
    latest = add_months(registered, ctx.count("demo_max_months"))
    day = ctx.decisive_date
    if earliest <= day <= latest:
        ctx.step_at(
            D251_8,
            "a demonstration vehicle first registered on {registered}, sold or leased on {day}: within "
            "{demo_min_months} to {demo_max_months} months",
            registered=registered,
            day=day,
        )
        return None
    return ctx.refuse(
        DEMO,
        "a demonstration vehicle first registered on {registered}, sold or leased on {day}: not within "
        "{demo_min_months} to {demo_max_months} months of its first registration",
        D251_8,
        registered=registered,
        day=day,
    )


D251_8 = "C. énergie, art. D. 251-8 (décret n° 2024-102), 2e alinéa"
D251_8_1 = "C. énergie, art. D. 251-8 (décret n° 2024-102), 1er alinéa"
LEASING = "D. 251-8, 1er alinéa (leasing firms)"
DEALER = "D. 251-8, 2e alinéa (dealers' demonstration vehicles)"


def leasing_firms_and_dealers(ctx: Ctx[R]) -> R | None:
    """From 2024-02-14 (D. 251-8, official): « Une entreprise qui acquiert ou qui prend en location un véhicule … et
    le donne en location dans le cadre d'un contrat d'une durée supérieure ou égale à deux ans ne peut bénéficier des
    aides »; « Les concessionnaires et les agents de marques … ne peuvent bénéficier des aides … pour … un véhicule
    qu'ils affectent à la démonstration »."""
    row = ctx.row
    months = row.buyer_leases_out_months
    if months is not None and months >= ctx.count("lease_out_min_months"):
        return ctx.refuse(
            LEASING,
            "the buyer leases the vehicle out for {months} months (≥ {lease_out_min_months} months): no aid",
            D251_8_1,
            months=months,
        )
    if row.buyer_dealer_demonstration:
        return ctx.refuse(DEALER, "a dealer assigning the vehicle to demonstration: no aid", D251_8)
    return None
DEMO = "D. 251-8, 2e alinéa (demonstration vehicles)"
