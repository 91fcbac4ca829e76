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
from decimal import Decimal

from legislation.award import Award
from legislation.calculators import _decret_2014_1672_art4 as art4
from legislation.calculators.kit import Candidate, Ctx
from legislation.dates import add_months
from legislation.enums import Acquisition, Energy, EuroStandard, PersonKind, VehicleCategory
from legislation.facts import ScrappedVehicle

PARAMETERS = (
    "lease_min_months", "scrapped_registered_before_year", "scrapped_owned_min_months",
    "destruction_after_months",
    "zero_amount", "zero_co2_max", "low_amount", "low_co2_min", "low_co2_max",
    "household_amount", "household_co2_min", "household_co2_max",
    "used_amount", "used_co2_min", "used_co2_max", "used_low_co2_max",
)  # fmt: skip
AMOUNT_PARAMETERS = ("zero_amount", "low_amount", "household_amount", "used_amount")  # II 1° to 4°

ART1 = "décret n° 2014-1672, art. 1"
# « un véhicule utilisant le gazole comme carburant principal »: a diesel-electric hybrid burns only gazole.
DIESEL_FUELLED = (Energy.DIESEL, Energy.DIESEL_ELECTRIC_HYBRID)

# II 3° and 4° both require « une personne physique dont la cotisation d'impôt sur le revenu … est nulle ».
HOUSEHOLD_CASES = "II, 3° et 4°"

WHY_ONE_CASE = (
    "II 1° to 4° each fix « le montant de l'aide complémentaire » and IV allows one aid per acquisition. "
    "A purchase can meet several (a new car of ≤ 60 g/km bought by a household whose income tax is nil "
    "meets 1° or 2° and 4°; a new Euro 6 car of 61–110 g/km meets 3° and 4°); the text does not rank them, "
    "so the most favourable is kept and the others are shown."
)


def calculate(ctx: Ctx) -> Award:
    scrapped = ctx.purchase.scrapped_vehicle
    if scrapped is None:
        return ctx.refuse(
            "I",
            "no vehicle withdrawn from circulation for destruction goes with the acquisition "
            "(purchase.scrapped_vehicle is not given): the aid needs one",
        )
    denied = _acquired_vehicle(ctx)
    if denied is None:
        denied = _scrapped_vehicle(ctx, scrapped)
    if denied is not None:
        return denied
    ctx.step("IV", "one aid for the acquisition, whatever the number of vehicles destroyed")
    return _amount(ctx)


# -- I: the car acquired and the vehicle scrapped ------------------------------------------------------------


def _acquired_vehicle(ctx: Ctx) -> Award | None:
    ctx.assume(
        "The beneficiary is a person with a domicile or an establishment in France, or an administration "
        "of the State (art. 4, I)."
    )
    ctx.assume(
        "The beneficiary is not excluded by décret n° 2014-1672, art. 2 as amended by décret 2015-361 (a "
        "company leasing the car out for two years or more; a dealer's demonstration car not sold within "
        "a year)."
    )
    if ctx.purchase.acquisition is Acquisition.LEASE:
        months = ctx.need(ctx.purchase.lease_duration_months, "lease_duration_months", "I")
        if months < ctx.p("lease_min_months"):
            return ctx.refuse("I", f"a lease of {months} months: the aid needs a lease of two years or more")
        ctx.step("I", f"lease of {months} months ≥ two years")
    category = ctx.need(ctx.vehicle.category, "vehicle.category", "I")
    if category is not VehicleCategory.PASSENGER_CAR:
        return ctx.refuse("I", f"the vehicle acquired ({category.value}) is not a passenger car (R. 311-1)")
    ctx.assume("The car acquired has its CO2 measured under règlement (CE) n° 715/2007 (art. 4, I).")
    ctx.step("I", "the vehicle acquired is a passenger car")
    return None


def _scrapped_vehicle(ctx: Ctx, scrapped: ScrappedVehicle) -> Award | None:
    energy = ctx.need(scrapped.energy, "scrapped_vehicle.energy", "I")
    if energy not in DIESEL_FUELLED:
        return ctx.refuse("I", f"the scrapped vehicle ({energy.value}) does not use gazole as its main fuel")
    ctx.step("I", f"scrapped vehicle fuelled with gazole ({energy.value})")
    category = ctx.need(scrapped.category, "scrapped_vehicle.category", "I, 1°")
    if category is not VehicleCategory.PASSENGER_CAR:
        return ctx.refuse("I, 1°", f"the scrapped vehicle ({category.value}) is not a passenger car")
    ctx.step("I, 1°", "scrapped vehicle: a passenger car")
    registered = ctx.need(
        scrapped.first_registration_date, "scrapped_vehicle.first_registration_date", "I, 2°"
    )
    limit = date(int(ctx.p("scrapped_registered_before_year")), 1, 1)
    if registered >= limit:
        return ctx.refuse("I, 2°", f"first registered {registered}: not before {limit}")
    ctx.step("I, 2°", f"first registered {registered}, before {limit}")
    ctx.assume(
        "The scrapped car belongs to the beneficiary, by the owner's name on its registration "
        "certificate (art. 4, I, 3°)."
    )
    owned = ctx.need(scrapped.owned_since, "scrapped_vehicle.owned_since", "I, 4°")
    if add_months(owned, int(ctx.p("scrapped_owned_min_months"))) > ctx.decisive_date:
        return ctx.refuse("I, 4°", f"acquired {owned}: not owned for one year on {ctx.decisive_date}")
    ctx.step("I, 4°", f"acquired {owned}: owned for at least one year on {ctx.decisive_date}")
    ctx.assume(
        "The scrapped car is registered in France in a normal series, is not pledged and is not a "
        "damaged vehicle under L. 327-1 to L. 327-6 of the code de la route (art. 4, I, 5° to 7°)."
    )
    ctx.assume(
        "The scrapped car was insured on the date of its hand-over for destruction or on the invoice "
        "date (art. 4, I, 9°)."
    )
    return _destruction(ctx, scrapped)


def _destruction(ctx: Ctx, scrapped: ScrappedVehicle) -> Award | None:
    """I, 8°: « remis pour destruction, dans les six mois suivant la date de facturation »."""
    destroyed = ctx.need(scrapped.destruction_date, "scrapped_vehicle.destruction_date", "I, 8°")
    invoice = art4.invoice_date(ctx, "I, 8°")
    last = add_months(invoice, int(ctx.p("destruction_after_months")))
    # Reading: « dans les six mois suivant la date de facturation » opens on the invoice date itself and
    # ends on the same day number six months later; unlike the initial wording (« précédant ou suivant »), a
    # destruction before the invoice is outside it.
    ctx.read(
        "2015-04-destruction-after-invoice",
        "I, 8° (wording of décret 2015-361): the car is handed over for destruction « dans les six mois "
        "suivant la date de facturation »: from the invoice date to the same day six months later; the "
        "initial wording's « six mois précédant » is gone, so an earlier destruction does not qualify.",
    )
    if not invoice <= destroyed <= last:
        return ctx.refuse(
            "I, 8°",
            f"destroyed {destroyed}: not within the six months following the invoice date "
            f"{invoice} ({invoice} to {last})",
        )
    ctx.step("I, 8°", f"destroyed {destroyed}, within {invoice} – {last}")
    ctx.assume(
        "The scrapped car was handed over to an approved end-of-life centre (VHU) or shredder, which "
        "issued a certificate of destruction (art. 4, I, 8°)."
    )
    return None


# -- II: the amount ------------------------------------------------------------------------------------------


def _amount(ctx: Ctx) -> Award:
    co2 = Decimal(ctx.need(ctx.vehicle.co2_g_per_km, "vehicle.co2_g_per_km", "II"))
    if co2 > ctx.p("used_co2_max"):
        return ctx.refuse("II", f"CO2 {co2} g/km > 110 g/km: no case of II")
    new = _is_new(ctx)
    candidates = [c for c in (_new_car_case(ctx, co2),) if c is not None] if new else []
    # The household is tested before the Euro standard: 3° and 4° both need « une personne physique dont la
    # cotisation … est nulle », so for anyone else the car's Euro standard cannot change the answer.
    if _is_household(ctx, required=not candidates):
        if co2 >= ctx.p("household_co2_min"):
            here = "II, 3°" if new else "II, 4°"
            euro = ctx.need(ctx.vehicle.euro_standard, "vehicle.euro_standard", here)
            if euro is not EuroStandard.EURO_6:
                return ctx.refuse(
                    here, f"CO2 {co2} g/km in 61–110 g/km but {euro.value}: 3° and 4° need Euro 6"
                )
            ctx.step(here, f"CO2 {co2} g/km in 61–110 g/km and Euro 6")
            if new:
                candidates.append(_household_case(ctx))
        candidates.append(_any_car_case(ctx, co2))
    if not candidates:
        return ctx.refuse("II", _no_case(co2, new))
    return ctx.best(candidates, WHY_ONE_CASE)


def _is_new(ctx: Ctx) -> bool:
    """« satisfaisant aux conditions prévues aux 2°, 3° et 4° du I de l'article 1er » (1° to 3°)."""
    registered = ctx.vehicle.previously_registered
    if registered:
        ctx.step_at(
            f"{ART1}, I, 2°", "the car was registered before: II 1° to 3° are closed, only 4° remains"
        )
        return False
    if registered is None:
        ctx.assume(
            "The car was never registered before, in France or abroad (décret n° 2014-1672, art. 1, I, 2°, "
            "which II 1° to 3° require)."
        )
    else:
        ctx.step_at(f"{ART1}, I, 2°", "the car was never registered before")
    ctx.assume(
        "The car is registered in France in a definitive series and will not be sold within six months of "
        "its first registration nor before 6 000 km (décret n° 2014-1672, art. 1, I, 3° and 4°; III)."
    )
    return True


def _new_car_case(ctx: Ctx, co2: Decimal) -> Candidate | None:
    if co2 <= ctx.p("zero_co2_max"):
        return _candidate(ctx, "II, 1°", "zero_amount", f"new car of {co2} g/km ≤ 20 g/km")
    if ctx.p("low_co2_min") <= co2 <= ctx.p("low_co2_max"):
        return _candidate(ctx, "II, 2°", "low_amount", f"new car of {co2} g/km in 21–60 g/km")
    return None


def _household_case(ctx: Ctx) -> Candidate:
    return _candidate(
        ctx,
        "II, 3°",
        "household_amount",
        "new Euro 6 car of 61–110 g/km, natural person whose income tax is nil",
    )


def _any_car_case(ctx: Ctx, co2: Decimal) -> Candidate:
    # Reading: in 4° « Euro 6 » belongs to the 61–110 g/km branch; « ou dont le taux … ≤ 60 » is the other
    # branch, without a Euro standard.
    if co2 <= ctx.p("used_low_co2_max"):
        ctx.read(
            "2015-04-ii-4-euro6-scope",
            "II, 4°: « … compris entre 61 et 110 grammes … et qui respecte la "
            "norme Euro 6 ou dont le taux … est inférieur ou égal à 60 grammes »: Euro 6 is required only in "
            "the 61–110 g/km branch.",
        )
    ctx.assume(
        "For II, 4°: the car is registered in France in a definitive series (art. 1, I, 3°) and is not "
        "sold within six months of its acquisition nor before 6 000 km (art. 4, II, 4°; III)."
    )
    return _candidate(
        ctx,
        "II, 4°",
        "used_amount",
        f"car of {co2} g/km (new or used), natural person whose income tax is nil",
    )


def _is_household(ctx: Ctx, *, required: bool) -> bool:
    """« une personne physique dont la cotisation d'impôt sur le revenu de l'année précédant … est nulle »."""
    kind = ctx.buyer.person_kind
    if required:
        kind = ctx.need(kind, "buyer.person_kind", HOUSEHOLD_CASES)
    if kind is not PersonKind.NATURAL_PERSON:
        if kind is not None:
            ctx.step(HOUSEHOLD_CASES, f"the buyer is a {kind.value}: 3° and 4° need a natural person")
        return False
    nil = ctx.buyer.income_tax_nil
    if required:
        nil = ctx.need(nil, "buyer.income_tax_nil", HOUSEHOLD_CASES)
    if nil is None:
        return False
    ctx.step(
        HOUSEHOLD_CASES,
        f"natural person whose income tax of the previous year is {'nil' if nil else 'not nil'}",
    )
    return nil


def _candidate(ctx: Ctx, paragraph: str, amount: str, reason: str) -> Candidate:
    ctx.step(paragraph, reason, ctx.p(amount))
    return Candidate(amount=ctx.p(amount), paragraph=paragraph, reason=reason)


def _no_case(co2: Decimal, new: bool) -> str:
    if not new:
        return (
            f"a car registered before, of {co2} g/km: only II, 4° (natural person whose income tax is nil) "
            "could apply, and it is not met"
        )
    return f"a new car of {co2} g/km: II, 3° and 4° need a natural person whose income tax is nil"
