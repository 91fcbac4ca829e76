"""Shared rules of C. énergie art. D. 251-8 in its 2017 wordings (a helper, not a calculator: ``_`` name).

Décret n° 2016-1980 (in force 2017-01-01) and décret n° 2017-196 (in force 2017-02-19) fix the same two
cases and amounts; only the opening sentence changes (« est fixé comme suit » → « est déterminé par l'un ou
l'autre des cas suivants »). ``conversion_premium_2017_01_01`` and ``conversion_premium_2017_02_19`` call
:func:`calculate` with the reading their opening sentence supports.

1° vehicles never registered before: a) ≤ 20 g/km: 4 000 €; b) 21–60 g/km: 2 500 €.
2° passenger cars of a natural person whose income tax of the previous year is nil: a) 1 000 € if ≤ 20 g/km,
or 21–110 g/km and Euro 6; b) 500 € if 21–110 g/km and Euro 5.
"""

from __future__ import annotations

from typing import Any, TypeVar

from legislation.calculators.kit import Candidate, Ctx, R
from legislation.enums import EuroStandard, PersonKind, VehicleCategory

T = TypeVar("T")

# The request paths these rules read (the calculators' FACTS).
FACTS = (
    "acquisition",
    "buyer.income_tax_nil",
    "buyer.person_kind",
    "lease_duration_months",
    "scrapped_vehicle",
    "vehicle.category",
    "vehicle.co2_g_per_km",
    "vehicle.euro_standard",
    "vehicle.previously_registered",
)

D251_3 = "C. énergie, art. D. 251-3"

# D. 251-3 (its « premier alinéa », to which 1° and 2° refer) is not on file for 2017. The notice of
# décret 2016-1980 says « les camionnettes deviennent éligibles à la prime à la conversion dans les mêmes
# conditions que les voitures particulières »: its first alinéa covers passenger cars and vans.
FIRST_ALINEA_OF_D251_3 = (VehicleCategory.PASSENGER_CAR, VehicleCategory.VAN)
CAR, VAN = FIRST_ALINEA_OF_D251_3
NATURAL_PERSON, EURO_6, EURO_5 = PersonKind.NATURAL_PERSON, EuroStandard.EURO_6, EuroStandard.EURO_5

CARS_AND_VANS_ONLY = (
    "The premier alinéa of D. 251-3, to which both cases refer, is not on file for 2017; the notice of "
    "décret 2016-1980 describes aids for « voitures particulières ou de camionnettes peu polluantes » and "
    "says « les camionnettes deviennent éligibles à la prime à la conversion dans les mêmes conditions que "
    "les voitures particulières »: other vehicles are not taken to be covered."
)

HOUSEHOLD_CASE_NEW_OR_USED = (
    "The 2° (natural person whose income tax is nil) is not limited to used cars: its words are « voitures "
    "particulières … acquises ou louées par une personne physique », with no registration condition, unlike "
    "the 1°. The notice of décret 2016-1980 calls it the prime « pour les véhicules d'occasion » only to say "
    "that used cars remain « réservée aux voitures particulières et aux ménages non imposables »."
)

ASSUME_SCRAPPED = (
    "The scrapped vehicle meets the conditions of D. 251-3 (kind, age, ownership, destruction): "
    "D. 251-3 in its 2017 wording is not on file."
)
ASSUME_D251_1_AND_3 = (
    "The vehicle acquired or leased meets D. 251-1 and the premier alinéa of D. 251-3 other than "
    "what is applied here: those texts are not on file in their 2017 wording."
)


def calculate(ctx: Ctx[R], why_cases_alternate: str) -> R:
    """D. 251-8 (2017); ``why_cases_alternate`` states why the more favourable of 1° and 2° is kept."""
    if (short_lease := ctx.lease_refusal("C. énergie, art. D. 251-3, premier alinéa")) is not None:
        return short_lease
    row = ctx.row
    if not row.scrapped_vehicle:
        ctx.step_at(D251_3 + ", premier alinéa", "no vehicle withdrawn from circulation for destruction")
        return ctx.refuse("", "the prime à la conversion requires an old vehicle withdrawn from circulation "
                              "for destruction (D. 251-3, premier alinéa): purchase.scrapped_vehicle is not "
                              "given")
    ctx.assume(ASSUME_SCRAPPED)
    ctx.assume(ASSUME_D251_1_AND_3)
    category = ctx.need(row.vehicle_category, "vehicle.category", "1°")
    co2 = ctx.need(row.vehicle_co2_g_per_km, "vehicle.co2_g_per_km", "1°")
    if category is not CAR and category is not VAN:
        ctx.read("conversion-premium-cars-and-vans", CARS_AND_VANS_ONLY)
        return ctx.refuse("", "a {category} is not a car or a van (D. 251-3, premier alinéa)", category=category)
    new_case = _new_vehicle_case(ctx, co2)
    first_amount = new_case.amount if new_case is not None else None
    household_may_prevail = first_amount is None or first_amount < ctx.money("household_amount_a")
    household_case = _household_case(ctx, category, co2, required=household_may_prevail)
    if new_case is None:
        if household_case is None:  # each case not met gave its reason (ctx.miss), 1° then 2°
            return ctx.refuse_missed("1°, 2°")
        candidates = [household_case]
    elif household_case is None:
        candidates = [new_case]
    else:
        candidates = [new_case, household_case]
    return ctx.best(candidates, why_cases_alternate)


def _new_vehicle_case(ctx: Ctx[R], co2: int) -> Candidate | None:
    # The CO2 bands first: above 60 g/km the 1° is closed whether or not the vehicle is new, so its
    # registration is not asked.
    if co2 > ctx.count("new_co2_max_b"):
        return _no(ctx, "1°", "1°: CO2 {co2} g/km > {new_co2_max_b} g/km", co2=co2)
    registered = ctx.need(ctx.row.vehicle_previously_registered, "vehicle.previously_registered", "1°")
    if registered:
        return _no(ctx, "1°", "1°: the vehicle was registered before, in France or abroad")
    if co2 <= ctx.count("new_co2_max_a"):
        return _yes(ctx, "1° a)", "new_amount_a", "new vehicle, CO2 {co2} g/km ≤ {new_co2_max_a} g/km", co2=co2)
    if ctx.count("new_co2_min_b") <= co2:  # « compris entre 21 et 60 »; the 60 g/km bound is tested above
        return _yes(ctx, "1° b)", "new_amount_b",
                    "new vehicle, CO2 {co2} g/km between {new_co2_min_b} and {new_co2_max_b} g/km", co2=co2)
    return _no(ctx, "1°", "1°: CO2 {co2} g/km between {new_co2_max_a} and {new_co2_min_b} g/km",
               co2=co2)  # pragma: no cover - whole grams


def _household_case(
    ctx: Ctx[R], category: VehicleCategory, co2: int, *, required: bool
) -> Candidate | None:
    """The 2°; None when a fact is missing that ``required`` says cannot change the result."""
    row = ctx.row
    if category is not CAR:
        return _no(ctx, "2°", "2°: only « voitures particulières », not a {category}", category=category)
    if co2 > ctx.count("household_co2_max"):  # closed whoever the buyer: the buyer's facts are not asked
        return _no(ctx, "2°", "2°: CO2 {co2} g/km > {household_co2_max} g/km", co2=co2)
    kind = _fact(ctx, row.buyer_person_kind, "buyer.person_kind", required)
    if kind is None:
        return None
    if kind is not NATURAL_PERSON:
        return _no(ctx, "2°", "2°: the buyer is a {kind}, not a « personne physique »", kind=kind)
    tax_nil = _fact(ctx, row.buyer_income_tax_nil, "buyer.income_tax_nil", required)
    if tax_nil is None:
        return None
    if not tax_nil:
        return _no(ctx, "2°", "2°: the buyer's income tax of the year before the acquisition or lease is "
                              "not nil")
    if co2 <= ctx.count("household_co2_max_a"):
        return _household_yes(ctx, "2° a)", "household_amount_a", "CO2 {co2} g/km ≤ {household_co2_max_a} g/km",
                              co2=co2)
    if co2 < ctx.count("household_co2_min"):  # pragma: no cover - whole grams: 20 < CO2 < 21 cannot occur
        return _no(ctx, "2°", "2°: CO2 {co2} g/km between {household_co2_max_a} and {household_co2_min} g/km",
                   co2=co2)
    euro = _fact(ctx, row.vehicle_euro_standard, "vehicle.euro_standard", required)
    if euro is None:
        return None
    if euro is EURO_6:
        return _household_yes(ctx, "2° a)", "household_amount_a",
                              "CO2 {co2} g/km in {household_co2_min}–{household_co2_max} g/km, Euro 6", co2=co2)
    if euro is EURO_5:
        return _household_yes(ctx, "2° b)", "household_amount_b",
                              "CO2 {co2} g/km in {household_co2_min}–{household_co2_max} g/km, Euro 5", co2=co2)
    return _no(ctx, "2°", "2°: CO2 {co2} g/km in {household_co2_min}–{household_co2_max} g/km but {euro}, "
                          "neither Euro 6 nor Euro 5", co2=co2, euro=euro)


def _household_yes(ctx: Ctx[R], paragraph: str, amount: str, facts: str, **values: Any) -> Candidate:
    if ctx.row.vehicle_previously_registered is False:
        ctx.read("household-case-new-or-used", HOUSEHOLD_CASE_NEW_OR_USED)
    return _yes(ctx, paragraph, amount, "passenger car of a natural person whose income tax is nil, " + facts,
                **values)


def _fact(ctx: Ctx[R], value: T | None, field: str, required: bool) -> T | None:
    """A fact of the 2°; when the 1° already gives more than the 2° can, a missing one is only noted."""
    if value is None and not required:
        ctx.step("2°", "{field} not given: the 2° (at most {household_amount_a:€}) cannot exceed the 1°; "
                       "not examined", field=field)
        return None
    return ctx.need(value, field, "2°")


def _yes(ctx: Ctx[R], paragraph: str, amount: str, reason: str, **values: Any) -> Candidate:
    cents = ctx.money(amount)
    ctx.step(paragraph, reason, cents, **values)
    return Candidate(amount=cents, paragraph=paragraph, reason=reason, values=values)


def _no(ctx: Ctx[R], paragraph: str, reason: str, **values: Any) -> Candidate | None:
    """A case not met (None), its reason kept for the refusal (``ctx.miss``); the step cites the paragraph, so
    it drops the « 1°: » the refusal reason keeps."""
    ctx.step(paragraph, reason.removeprefix(paragraph + ": "), **values)
    ctx.miss(reason, **values)
    return None
