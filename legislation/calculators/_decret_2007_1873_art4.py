"""The « majoration » of décret n° 2007-1873, art. 4, and its scrapped-vehicle conditions (a helper).

NOR DEVC0774438D. The superbonus: « Le montant de l'aide défini à l'article 3 est majoré de 300 euros » when the
acquisition of a new (or demonstration) vehicle goes with the scrapping of a vehicle over fifteen years old.
Three wordings on file: 2007-12-31 (initial), 2009-01-21 (décret 2009-66) and 2012-01-01 (décret 2011-2055,
300 € / 200 €). Its 1°, 4° to 9° are also the conditions of the « prime à la casse » of décret 2009-66,
art. 12 (:mod:`._decret_2009_66_art12`), which cannot be cumulated with it.

Every step and refusal here carries a full citation (``base``: « décret n° 2007-1873, art. 4 »), so the rules
serve both the majoration's own versions and the prime à la casse that refers to them. The numbers come from
a :class:`~kit.Params` (the version's own, or a relied version's through ``ctx.of``).
"""

from __future__ import annotations

from datetime import date, timedelta

from legislation.calculators.kit import Candidate, Ctx, Params, R
from legislation.dates import add_months
from legislation.enums import VehicleCategory

CITATION = "décret n° 2007-1873, art. 4"
# The 2009-01-21 wording, to which décret 2009-66, art. 12 refers (« 1°, 4°, 5°, 6°, 7°, 8° et 9° de l'article 4 »).
WORDING_2009 = "decret-2007-1873-art4.2009-01-21"

CAR = VehicleCategory.PASSENGER_CAR
# « l'une des catégories de véhicules définies au 1° de l'article 1er » (2009-66 wording of art. 4, 1°): art. 1, 1°
# (same decree) names « voitures particulières ou … camionnettes » and « toute catégorie de véhicules soumise à la
# mesure des émissions de dioxyde de carbone »; a light M2/N2 is one of them.
ART1_CATEGORIES = (CAR, VehicleCategory.VAN, VehicleCategory.LIGHT_M2_N2)

ASSUME_UNTESTED = (
    "The scrapped vehicle belongs to the beneficiary by the name on its registration certificate, is registered "
    "in France in a normal series, is not pledged, was not declared economically irreparable, was handed over to "
    "an approved dismantler or shredder which issued a receipt, and was insured (décret n° 2007-1873, art. 4, 3°, "
    "5° to 7°, 8° and 9°); the request cannot express them."
)
READ_OLDER_THAN = (
    "« Son âge … est supérieur à N ans »: strictly more than N years from the first registration, i.e. the "
    "reference date is after the N-th anniversary (on the anniversary itself the age is exactly N years)."
)


def cite(base: str, paragraph: str) -> str:
    return f"{base}, {paragraph}" if paragraph else base


def is_new_or_demonstration(ctx: Ctx[R]) -> bool:
    """« véhicule neuf ou … véhicule de démonstration »: a vehicle the request says was registered before is
    neither, unless it is a demonstration vehicle (which its dealer registered)."""
    row = ctx.row
    return not row.vehicle_previously_registered or bool(row.vehicle_demonstration)


def scrapped_vehicle(
    ctx: Ctx[R],
    base: str,
    reference: date,
    *,
    categories: tuple[VehicleCategory, ...],
    years: int,
    age_citation: str,
    months: int,
) -> R | None:
    """1° (category), ``age_citation`` (older than ``years``), 4° (owned for ``months`` months) on ``reference``."""
    row = ctx.row
    category = ctx.need(row.scrapped_category, "scrapped_vehicle.category", "", cite(base, "1°"))
    if category not in categories:
        return ctx.refuse(
            "", "the scrapped vehicle ({category}) is not of a category of the 1°", cite(base, "1°"), category=category
        )
    ctx.step_at(cite(base, "1°"), "scrapped vehicle of category {category}", category=category)
    first = ctx.need(
        row.scrapped_first_registration_date, "scrapped_vehicle.first_registration_date", "", age_citation
    )
    anniversary = add_months(first, 12 * years)
    ctx.read("scrapped-age-strictly-greater", READ_OLDER_THAN)
    if anniversary >= reference:
        return ctx.refuse(
            "",
            "first registered {first}: not more than {years} years old on {reference} (only after {anniversary})",
            age_citation,
            first=first, years=years, reference=reference, anniversary=anniversary,
        )
    ctx.step_at(
        age_citation, "first registered {first}: more than {years} years old on {reference}",
        first=first, years=years, reference=reference,
    )
    owned = ctx.need(row.scrapped_owned_since, "scrapped_vehicle.owned_since", "", cite(base, "4°"))
    if add_months(owned, months) > reference:
        return ctx.refuse(
            "", "acquired {owned}: not owned for {months} months on {reference}", cite(base, "4°"),
            owned=owned, months=months, reference=reference,
        )
    ctx.step_at(cite(base, "4°"), "acquired {owned}: owned for at least {months} months", owned=owned, months=months)
    ctx.assume(ASSUME_UNTESTED)
    return None


def destruction_around_invoice(ctx: Ctx[R], numbers: Params, base: str, invoice: date) -> R | None:
    """8° (2009 and 2012 wordings): destroyed « dans les N mois précédant ou les N mois suivant la date de
    facturation du véhicule neuf »."""
    destroyed = ctx.need(ctx.row.scrapped_destruction_date, "scrapped_vehicle.destruction_date", "", cite(base, "8°"))
    months = numbers.count["destruction_window_months"]
    first, last = add_months(invoice, -months), add_months(invoice, months)
    if not first <= destroyed <= last:
        return ctx.refuse(
            "", "destroyed {destroyed}: outside {first} – {last} ({months} months before or after the invoice)",
            cite(base, "8°"), destroyed=destroyed, first=first, last=last, months=months,
        )
    ctx.step_at(
        cite(base, "8°"), "destroyed {destroyed}, within {months} months of the invoice ({first} – {last})",
        destroyed=destroyed, months=months, first=first, last=last,
    )
    return None


def destruction_simultaneous(ctx: Ctx[R], numbers: Params, base: str, sale: date) -> R | None:
    """8° (initial wording): scrapped « simultanément », or within eight days of the sale when the seller hands
    the vehicle over."""
    destroyed = ctx.need(ctx.row.scrapped_destruction_date, "scrapped_vehicle.destruction_date", "", cite(base, "8°"))
    days = numbers.count["destruction_delay_days"]
    last = sale + timedelta(days=days)
    ctx.read(
        "2008-destruction-simultaneous",
        "Art. 4 (initial wording): the acquisition « s'accompagne simultanément du retrait de la circulation »; "
        "« lorsque cette remise est réalisée par le vendeur …, la prise en charge pour destruction du véhicule peut "
        "intervenir dans un délai de huit jours à compter de la date de la vente »: taken in charge on the day of "
        "the sale (the invoice, or the first rent), or on one of the eight following days; before the sale it is "
        "not « simultané ».",
    )
    if not sale <= destroyed <= last:
        return ctx.refuse(
            "", "destroyed {destroyed}: neither on the sale day {sale} nor within {days} days after it (until {last})",
            cite(base, "8°"), destroyed=destroyed, sale=sale, days=days, last=last,
        )
    if destroyed > sale:
        ctx.assume(
            "The seller or lessor of the new vehicle handed the scrapped vehicle over for destruction (décret "
            "n° 2007-1873, art. 4, 8°: only then may it be taken in charge within eight days of the sale)."
        )
    ctx.step_at(cite(base, "8°"), "destroyed {destroyed}: on the sale day or within {days} days", destroyed=destroyed,
                days=days)
    return None


def art3_aid(ctx: Ctx[R], base: str) -> R | None:
    """« Le montant de l'aide défini à l'article 3 est majoré »: the majoration goes with an art. 3 aid."""
    ctx.read(
        "majoration-needs-an-art3-aid",
        "The majoration increases « le montant de l'aide défini à l'article 3 »: it is paid only with that aid. "
        "The aid of art. 1 and 3 of décret 2007-1873 is computed by the bonus scheme; here the request gives it as "
        "bonus_ecologique_amount (the bonus granted for the same vehicle): a nil amount has nothing to increase.",
    )
    bonus = ctx.need(ctx.row.bonus_ecologique_amount, "bonus_ecologique_amount", "", base)
    if bonus <= 0:
        return ctx.refuse("", "no art. 3 aid for the vehicle acquired (bonus 0.00 €): nothing to increase", base)
    ctx.step_at(base, "art. 3 aid of {bonus:€} for the vehicle acquired, to be increased", bonus=bonus)
    return None


def majoration(ctx: Ctx[R], numbers: Params, base: str, amount: int) -> Candidate:
    """The majoration itself, one per acquisition (last alinéa), as a candidate for the non-cumulation rule."""
    ctx.step_at(base, "one majoration per acquisition, whatever the number of vehicles scrapped")
    return Candidate(
        amount=amount,
        paragraph="",
        citation=base,
        reason="majoration of the art. 3 aid for scrapping a vehicle over {years} years old: {amount:€}",
        values={"years": numbers.count["scrapped_min_age_years"], "amount": amount},
    )
