"""Exclusions from the 2015 aids — décret n° 2014-1672 du 30 décembre 2014, art. 2 (not a calculator).

NOR DEVR1428150D. Two wordings on file, text-only conditions versions: ``decret-2014-1672-art2.2015-01-01``
(excludes from « l'aide instituée à cet article », art. 1) and ``decret-2014-1672-art2.2015-04-01`` (décret
n° 2015-361: excludes from « des aides prévues aux articles 1er et 4 »). The one in force on the decisive date
(invoice or first rent) is applied; both say the same three things:

- 1er alinéa: a company that acquires or leases a vehicle « et le donne en location dans le cadre d'un contrat
  d'une durée supérieure ou égale à deux ans » gets no aid (request: ``buyer.leases_out_months``);
- 2e alinéa: dealers and brand agents get no aid for a vehicle « qu'ils affectent à la démonstration »
  (``buyer.dealer_demonstration``);
- « Toutefois »: a demonstration vehicle sold or leased « dans un délai d'un an suivant la date de sa première
  immatriculation » is eligible (``vehicle.demonstration``, ``vehicle.first_registration_date``) — although
  it was registered before, which art. 1, I, 2° would refuse.

A fact the request gives is checked; a fact it does not give is the stated assumption of every 2015 answer.
A calculator that applies this text lists both versions in ``relies_on`` and declares :data:`FACTS`.
"""

from __future__ import annotations

from legislation.calculators.kit import Ctx, Params, R
from legislation.dates import add_months

CITATION = "décret n° 2014-1672, art. 2"
VERSION_IDS = ("decret-2014-1672-art2.2015-01-01", "decret-2014-1672-art2.2015-04-01")
FACTS = (
    "buyer.dealer_demonstration",
    "buyer.leases_out_months",
    "vehicle.demonstration",
    "vehicle.first_registration_date",
)

P_1, P_2 = f"{CITATION}, 1er alinéa", f"{CITATION}, 2e alinéa"

ASSUME_NOT_LEASED_OUT = (
    "The buyer does not lease the vehicle out under a contract of two years or more (décret n° 2014-1672, art. 2, "
    "1er alinéa); the request does not give buyer.leases_out_months."
)
ASSUME_NOT_DEALER_DEMO = (
    "The buyer is not a dealer or brand agent assigning the vehicle to demonstration (décret n° 2014-1672, art. 2, "
    "2e alinéa); the request does not give buyer.dealer_demonstration."
)


def in_force(ctx: Ctx[R]) -> Params:
    """The numbers of the art. 2 wording in force on the decisive date (the later one from its first day)."""
    chosen = ctx.of(VERSION_IDS[0])
    for vid in VERSION_IDS[1:]:
        params = ctx.of(vid)
        if params.version.valid_from <= ctx.decisive_date:
            chosen = params
    return chosen


def exclusion(ctx: Ctx[R]) -> R | None:
    """A refusal citing the alinéa of art. 2 that excludes the buyer, or None (steps or assumptions said)."""
    numbers = in_force(ctx).count
    row = ctx.row
    months = row.buyer_leases_out_months
    if months is None:
        ctx.assume(ASSUME_NOT_LEASED_OUT)
    elif months >= numbers["lease_out_min_months"]:
        return ctx.refuse(
            "",
            "the buyer leases the vehicle out for {months} months, two years or more: art. 2, 1er alinéa excludes "
            "it from the aid",
            P_1,
            months=months,
        )
    else:
        ctx.step_at(P_1, "not leased out for two years or more by the buyer ({months} months)", months=months)
    dealer = row.buyer_dealer_demonstration
    if dealer is None:
        ctx.assume(ASSUME_NOT_DEALER_DEMO)
    elif dealer:
        return ctx.refuse(
            "",
            "a dealer or brand agent's vehicle assigned to demonstration: art. 2, 2e alinéa excludes it from the aid",
            P_2,
        )
    else:
        ctx.step_at(P_2, "the buyer is not a dealer assigning the vehicle to demonstration")
    return None


def is_demonstration_sold_within_a_year(ctx: Ctx[R]) -> bool:
    """« Toutefois, est éligible un véhicule affecté à la démonstration si sa cession ou sa location intervient
    dans un délai d'un an suivant la date de sa première immatriculation » (2e alinéa); with a step either way."""
    if not ctx.row.vehicle_demonstration:
        return False
    first = ctx.need(ctx.row.vehicle_first_registration_date, "vehicle.first_registration_date", "", P_2)
    months = in_force(ctx).count["demonstration_sale_max_months"]
    last = add_months(first, months)
    ctx.read(
        "2015-art2-demonstration-year",
        "« dans un délai d'un an suivant la date de sa première immatriculation »: the sale or lease (invoice or "
        "first rent) on or before the same day one year after the first registration, as « dans les six mois "
        "suivant » of art. 9 is read; it lifts art. 1, I, 2° (« N'a pas fait l'objet précédemment d'une première "
        "immatriculation ») for this vehicle, which the dealer registered.",
    )
    within = ctx.decisive_date <= last
    ctx.step_at(
        P_2,
        "demonstration vehicle first registered {first}, sold or leased {decisive}: "
        + ("within" if within else "not within")
        + " one year (until {last})",
        first=first,
        decisive=ctx.decisive_date,
        last=last,
    )
    return within
