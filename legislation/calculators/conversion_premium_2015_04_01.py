"""Prime à la conversion — décret n° 2014-1672, art. 4, as amended by décret n° 2015-361 du 30 mars 2015.

Décret n° 2015-361: NOR DEVR1506261D, JO n° 76 du 31 mars 2015, in force the day after its publication,
2015-04-01, until the abrogation of décret 2014-1672 by the codification décret n° 2015-1823 (2016-01-01).
Its art. 4 keeps the initial art. 4 (200 € majoration) for vehicles ordered before 2015-04-01 and invoiced
before 2015-07-01: a ``previous`` clause of this version, applied by the resolver.

I: an « aide complémentaire » for a passenger car acquired or leased (≥ 2 years) with the destruction of a
diesel passenger car first registered before 2001 (1° to 9°). II: 3 700 € (≤ 20 g/km), 2 500 € (21–60 g/km)
for a new car; 500 € for a household whose income tax is nil (3°: new car 61–110 g/km Euro 6; 4°: any car,
61–110 g/km Euro 6 or ≤ 60 g/km). III: repayment (assumptions). IV: one aid per acquisition.
"""

from __future__ import annotations

from datetime import date

from legislation.calculators import _decret_2014_1672_art2 as art2
from legislation.calculators import _decret_2014_1672_art4 as art4
from legislation.calculators.kit import Candidate, Ctx, R
from legislation.dates import add_months
from legislation.enums import Acquisition, Energy, EuroStandard, PersonKind, VehicleCategory

FACTS = (
    "acquisition",
    "buyer.dealer_demonstration",
    "buyer.income_tax_nil",
    "buyer.leases_out_months",
    "buyer.person_kind",
    "invoice_date",
    "lease_duration_months",
    "scrapped_vehicle",
    "scrapped_vehicle.category",
    "scrapped_vehicle.destruction_date",
    "scrapped_vehicle.energy",
    "scrapped_vehicle.first_registration_date",
    "scrapped_vehicle.owned_since",
    "vehicle.category",
    "vehicle.co2_g_per_km",
    "vehicle.demonstration",
    "vehicle.euro_standard",
    "vehicle.first_registration_date",
    "vehicle.previously_registered",
)

ART1 = "décret n° 2014-1672, art. 1"
ART1_I_2 = f"{ART1}, I, 2°"
# « un véhicule utilisant le gazole comme carburant principal »: a diesel-electric hybrid burns only gazole.
DIESEL_FUELLED = (Energy.DIESEL, Energy.DIESEL_ELECTRIC_HYBRID)
CAR, LEASE, EURO_6 = VehicleCategory.PASSENGER_CAR, Acquisition.LEASE, EuroStandard.EURO_6
NATURAL_PERSON = PersonKind.NATURAL_PERSON

# II 3° and 4° both require « une personne physique dont la cotisation d'impôt sur le revenu … est nulle ».
HOUSEHOLD_CASES = "II, 3° et 4°"

WHY_ONE_CASE = (
    "II 1° to 4° each fix « le montant de l'aide complémentaire » and IV allows one aid per acquisition. "
    "A purchase can meet several (a new car of ≤ 60 g/km bought by a household whose income tax is nil "
    "meets 1° or 2° and 4°; a new Euro 6 car of 61–110 g/km meets 3° and 4°); the text does not rank them, "
    "so the most favourable is kept and the others are shown."
)

ASSUME_BENEFICIARY = (
    "The beneficiary is a person with a domicile or an establishment in France, or an administration "
    "of the State (art. 4, I)."
)
ASSUME_CO2_MEASURED = "The car acquired has its CO2 measured under règlement (CE) n° 715/2007 (art. 4, I)."
ASSUME_OWNER = (
    "The scrapped car belongs to the beneficiary, by the owner's name on its registration "
    "certificate (art. 4, I, 3°)."
)
ASSUME_REGISTRATION = (
    "The scrapped car is registered in France in a normal series, is not pledged and is not a "
    "damaged vehicle under L. 327-1 to L. 327-6 of the code de la route (art. 4, I, 5° to 7°)."
)
ASSUME_INSURED = (
    "The scrapped car was insured on the date of its hand-over for destruction or on the invoice "
    "date (art. 4, I, 9°)."
)
ASSUME_VHU = (
    "The scrapped car was handed over to an approved end-of-life centre (VHU) or shredder, which "
    "issued a certificate of destruction (art. 4, I, 8°)."
)


def calculate(ctx: Ctx[R]) -> R:
    if not ctx.row.scrapped_vehicle:
        return ctx.refuse(
            "I",
            "no vehicle withdrawn from circulation for destruction goes with the acquisition "
            "(purchase.scrapped_vehicle is not given): the aid needs one",
        )
    denied = _acquired_vehicle(ctx)
    if denied is None:
        denied = _scrapped_vehicle(ctx)
    if denied is not None:
        return denied
    ctx.step("IV", "one aid for the acquisition, whatever the number of vehicles destroyed")
    return _amount(ctx)


# -- I: the car acquired and the vehicle scrapped ------------------------------------------------------------


def _acquired_vehicle(ctx: Ctx[R]) -> R | None:
    ctx.assume(ASSUME_BENEFICIARY)
    if (excluded := art2.exclusion(ctx)) is not None:
        return excluded
    row = ctx.row
    if row.acquisition is LEASE:
        months = ctx.need(row.lease_duration_months, "lease_duration_months", "I")
        if months < ctx.count("lease_min_months"):
            return ctx.refuse(
                "I", "a lease of {months} months: the aid needs a lease of two years or more", months=months
            )
        ctx.step("I", "lease of {months} months ≥ two years", months=months)
    category = ctx.need(row.vehicle_category, "vehicle.category", "I")
    if category is not CAR:
        return ctx.refuse(
            "I", "the vehicle acquired ({category}) is not a passenger car (R. 311-1)", category=category
        )
    ctx.assume(ASSUME_CO2_MEASURED)
    ctx.step("I", "the vehicle acquired is a passenger car")
    return None


def _scrapped_vehicle(ctx: Ctx[R]) -> R | None:
    row = ctx.row
    energy = ctx.need(row.scrapped_energy, "scrapped_vehicle.energy", "I")
    if energy not in DIESEL_FUELLED:
        return ctx.refuse("I", "the scrapped vehicle ({energy}) does not use gazole as its main fuel", energy=energy)
    ctx.step("I", "scrapped vehicle fuelled with gazole ({energy})", energy=energy)
    category = ctx.need(row.scrapped_category, "scrapped_vehicle.category", "I, 1°")
    if category is not CAR:
        return ctx.refuse("I, 1°", "the scrapped vehicle ({category}) is not a passenger car", category=category)
    ctx.step("I, 1°", "scrapped vehicle: a passenger car")
    registered = ctx.need(
        row.scrapped_first_registration_date, "scrapped_vehicle.first_registration_date", "I, 2°"
    )
    limit = date(ctx.count("scrapped_registered_before_year"), 1, 1)
    if registered >= limit:
        return ctx.refuse(
            "I, 2°", "first registered {registered}: not before {limit}", registered=registered, limit=limit
        )
    ctx.step("I, 2°", "first registered {registered}, before {limit}", registered=registered, limit=limit)
    ctx.assume(ASSUME_OWNER)
    if (denied := art4.not_owned_long_enough(ctx)) is not None:
        return denied
    ctx.assume(ASSUME_REGISTRATION)
    ctx.assume(ASSUME_INSURED)
    return _destruction(ctx)


# Reading: « dans les six mois suivant la date de facturation » opens on the invoice date itself and
# ends on the same day number six months later; unlike the initial wording (« précédant ou suivant »), a
# destruction before the invoice is outside it.
DESTRUCTION_AFTER_INVOICE = (
    "I, 8° (wording of décret 2015-361): the car is handed over for destruction « dans les six mois "
    "suivant la date de facturation »: from the invoice date to the same day six months later; the "
    "initial wording's « six mois précédant » is gone, so an earlier destruction does not qualify."
)


def _destruction(ctx: Ctx[R]) -> R | None:
    """I, 8°: « remis pour destruction, dans les six mois suivant la date de facturation »."""
    destroyed = ctx.need(ctx.row.scrapped_destruction_date, "scrapped_vehicle.destruction_date", "I, 8°")
    invoice = art4.invoice_date(ctx, "I, 8°")
    last = add_months(invoice, ctx.count("destruction_after_months"))
    ctx.read("2015-04-destruction-after-invoice", DESTRUCTION_AFTER_INVOICE)
    if not invoice <= destroyed <= last:
        return ctx.refuse(
            "I, 8°",
            "destroyed {destroyed}: not within the {destruction_after_months} months following the invoice date "
            "{invoice} ({invoice} to {last})",
            destroyed=destroyed,
            invoice=invoice,
            last=last,
        )
    ctx.step(
        "I, 8°", "destroyed {destroyed}, within {invoice} – {last}", destroyed=destroyed, invoice=invoice, last=last
    )
    ctx.assume(ASSUME_VHU)
    return None


# -- II: the amount ------------------------------------------------------------------------------------------


def _amount(ctx: Ctx[R]) -> R:
    row = ctx.row
    co2 = ctx.need(row.vehicle_co2_g_per_km, "vehicle.co2_g_per_km", "II")
    if co2 > ctx.count("used_co2_max"):
        return ctx.refuse("II", "CO2 {co2} g/km > {used_co2_max} g/km: no case of II", co2=co2)
    new = _is_new(ctx)
    candidates = [c for c in (_new_car_case(ctx, co2),) if c is not None] if new else []
    # The household is tested before the Euro standard: 3° and 4° both need « une personne physique dont la
    # cotisation … est nulle », so for anyone else the car's Euro standard cannot change the answer.
    if _is_household(ctx, required=not candidates):
        # 3° (a new car) and 4° (any car) each write their own band, « compris entre 61 et 110 grammes »: the
        # band of the paragraph that applies is the one read (both are 61–110 g/km in this wording).
        band = "household" if new else "used"
        if co2 >= ctx.count(f"{band}_co2_min"):
            here = "II, 3°" if new else "II, 4°"
            euro = ctx.need(row.vehicle_euro_standard, "vehicle.euro_standard", here)
            words = "{" + band + "_co2_min}–{" + band + "_co2_max} g/km"
            if euro is not EURO_6:
                return ctx.refuse(
                    here, "CO2 {co2} g/km in " + words + " but {euro}: 3° and 4° need Euro 6", co2=co2, euro=euro
                )
            ctx.step(here, "CO2 {co2} g/km in " + words + " and Euro 6", co2=co2)
            if new:
                candidates.append(_household_case(ctx))
        candidates.append(_any_car_case(ctx, co2))
    if not candidates:
        return ctx.refuse("II", NO_CASE_NEW if new else NO_CASE_USED, co2=co2)
    return ctx.best(candidates, WHY_ONE_CASE)


ASSUME_NEVER_REGISTERED = (
    "The car was never registered before, in France or abroad (décret n° 2014-1672, art. 1, I, 2°, "
    "which II 1° to 3° require)."
)
ASSUME_NEW_KEPT = (
    "The car is registered in France in a definitive series and will not be sold within six months of "
    "its first registration nor before 6 000 km (décret n° 2014-1672, art. 1, I, 3° and 4°; III)."
)


def _is_new(ctx: Ctx[R]) -> bool:
    """« satisfaisant aux conditions prévues aux 2°, 3° et 4° du I de l'article 1er » (1° to 3°)."""
    registered = ctx.row.vehicle_previously_registered
    if ctx.row.vehicle_demonstration:
        # A demonstration car was registered by the dealer: art. 2, 2e alinéa « Toutefois » decides.
        registered = not art2.is_demonstration_sold_within_a_year(ctx)
    if registered:
        ctx.step_at(ART1_I_2, "the car was registered before: II 1° to 3° are closed, only 4° remains")
        return False
    if registered is None:
        ctx.assume(ASSUME_NEVER_REGISTERED)
    else:
        ctx.step_at(ART1_I_2, "the car was never registered before")
    ctx.assume(ASSUME_NEW_KEPT)
    return True


def _new_car_case(ctx: Ctx[R], co2: int) -> Candidate | None:
    if co2 <= ctx.count("zero_co2_max"):
        return _candidate(ctx, "II, 1°", "zero_amount", "new car of {co2} g/km ≤ {zero_co2_max} g/km", co2=co2)
    if ctx.count("low_co2_min") <= co2 <= ctx.count("low_co2_max"):
        return _candidate(
            ctx, "II, 2°", "low_amount", "new car of {co2} g/km in {low_co2_min}–{low_co2_max} g/km", co2=co2
        )
    return None


def _household_case(ctx: Ctx[R]) -> Candidate:
    return _candidate(
        ctx,
        "II, 3°",
        "household_amount",
        "new Euro 6 car of {household_co2_min}–{household_co2_max} g/km, natural person whose income tax is nil",
    )


ASSUME_4_REGISTERED_KEPT = (
    "For II, 4°: the car is registered in France in a definitive series (art. 1, I, 3°) and is not "
    "sold within six months of its acquisition nor before 6 000 km (art. 4, II, 4°; III)."
)
II_4_EURO6_SCOPE = (
    "II, 4°: « … compris entre 61 et 110 grammes … et qui respecte la "
    "norme Euro 6 ou dont le taux … est inférieur ou égal à 60 grammes »: Euro 6 is required only in "
    "the 61–110 g/km branch."
)


def _any_car_case(ctx: Ctx[R], co2: int) -> Candidate:
    # Reading: in 4° « Euro 6 » belongs to the 61–110 g/km branch; « ou dont le taux … ≤ 60 » is the other
    # branch, without a Euro standard.
    if co2 <= ctx.count("used_low_co2_max"):
        ctx.read("2015-04-ii-4-euro6-scope", II_4_EURO6_SCOPE)
    ctx.assume(ASSUME_4_REGISTERED_KEPT)
    return _candidate(
        ctx, "II, 4°", "used_amount", "car of {co2} g/km (new or used), natural person whose income tax is nil", co2=co2
    )


def _is_household(ctx: Ctx[R], *, required: bool) -> bool:
    """« une personne physique dont la cotisation d'impôt sur le revenu de l'année précédant … est nulle »."""
    row = ctx.row
    kind = row.buyer_person_kind
    if required:
        kind = ctx.need(kind, "buyer.person_kind", HOUSEHOLD_CASES)
    if kind is not NATURAL_PERSON:
        if kind is not None:
            ctx.step(HOUSEHOLD_CASES, "the buyer is a {kind}: 3° and 4° need a natural person", kind=kind)
        return False
    nil = row.buyer_income_tax_nil
    if required:
        nil = ctx.need(nil, "buyer.income_tax_nil", HOUSEHOLD_CASES)
    if nil is None:
        return False
    ctx.step(
        HOUSEHOLD_CASES,
        "natural person whose income tax of the previous year is {nil}",
        nil="nil" if nil else "not nil",
    )
    return nil


def _candidate(ctx: Ctx[R], paragraph: str, amount_name: str, reason: str, **values: int) -> Candidate:
    amount = ctx.money(amount_name)
    ctx.step(paragraph, reason, amount, **values)
    return Candidate(amount=amount, paragraph=paragraph, reason=reason, values=values)


NO_CASE_USED = (
    "a car registered before, of {co2} g/km: only II, 4° (natural person whose income tax is nil) "
    "could apply, and it is not met"
)
NO_CASE_NEW = "a new car of {co2} g/km: II, 3° and 4° need a natural person whose income tax is nil"
