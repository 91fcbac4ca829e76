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

from typing import TypeVar

from legislation.award import Award
from legislation.calculators.kit import Candidate, Ctx
from legislation.enums import EuroStandard, PersonKind, VehicleCategory

T = TypeVar("T")

PARAMETERS = (
    "new_co2_max_a", "new_amount_a", "new_co2_min_b", "new_co2_max_b", "new_amount_b",
    "household_co2_max_a", "household_co2_min", "household_co2_max",
    "household_amount_a", "household_amount_b",
)

# The amounts the text can award; the property tests bound every answer by them.
AMOUNT_PARAMETERS = ("new_amount_a", "new_amount_b", "household_amount_a", "household_amount_b")

D251_3 = "C. énergie, art. D. 251-3"

# D. 251-3 (its « premier alinéa », to which 1° and 2° refer) is not on file for 2017. The notice of
# décret 2016-1980 says « les camionnettes deviennent éligibles à la prime à la conversion dans les mêmes
# conditions que les voitures particulières »: its first alinéa covers passenger cars and vans.
FIRST_ALINEA_OF_D251_3 = (VehicleCategory.PASSENGER_CAR, VehicleCategory.VAN)

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


def calculate(ctx: Ctx, why_cases_alternate: str) -> Award:
    """D. 251-8 (2017); ``why_cases_alternate`` states why the more favourable of 1° and 2° is kept."""
    if (short_lease := ctx.lease_refusal("C. énergie, art. D. 251-3, premier alinéa")) is not None:
        return short_lease
    if ctx.purchase.scrapped_vehicle is None:
        ctx.step_at(f"{D251_3}, premier alinéa", "no vehicle withdrawn from circulation for destruction")
        return ctx.refuse("", "the prime à la conversion requires an old vehicle withdrawn from circulation "
                              "for destruction (D. 251-3, premier alinéa): purchase.scrapped_vehicle is not "
                              "given")
    ctx.assume("The scrapped vehicle meets the conditions of D. 251-3 (kind, age, ownership, destruction): "
               "D. 251-3 in its 2017 wording is not on file.")
    ctx.assume("The vehicle acquired or leased meets D. 251-1 and the premier alinéa of D. 251-3 other than "
               "what is applied here: those texts are not on file in their 2017 wording.")
    category = ctx.need(ctx.vehicle.category, "vehicle.category", "1°")
    co2 = ctx.need(ctx.vehicle.co2_g_per_km, "vehicle.co2_g_per_km", "1°")
    if category not in FIRST_ALINEA_OF_D251_3:
        ctx.read("conversion-premium-cars-and-vans", CARS_AND_VANS_ONLY)
        return ctx.refuse("", f"a {category.value} is not a car or a van (D. 251-3, premier alinéa)")
    new_case = _new_vehicle_case(ctx, co2)
    first_amount = new_case.amount if isinstance(new_case, Candidate) else None
    household_may_prevail = first_amount is None or first_amount < ctx.p("household_amount_a")
    household_case = _household_case(ctx, category, co2, required=household_may_prevail)
    candidates = [c for c in (new_case, household_case) if isinstance(c, Candidate)]
    if not candidates:
        reasons = [c for c in (new_case, household_case) if isinstance(c, str)]
        return ctx.refuse("1°, 2°", "; ".join(reasons))
    return ctx.best(candidates, why_cases_alternate)


def _new_vehicle_case(ctx: Ctx, co2: int) -> Candidate | str:
    # The CO2 bands first: above 60 g/km the 1° is closed whether or not the vehicle is new, so its
    # registration is not asked.
    if co2 > ctx.p("new_co2_max_b"):
        return _no(ctx, "1°", f"1°: CO2 {co2} g/km > 60 g/km")
    registered = ctx.need(ctx.vehicle.previously_registered, "vehicle.previously_registered", "1°")
    if registered:
        return _no(ctx, "1°", "1°: the vehicle was registered before, in France or abroad")
    if co2 <= ctx.p("new_co2_max_a"):
        return _yes(ctx, "1° a)", "new_amount_a", f"new vehicle, CO2 {co2} g/km ≤ 20 g/km")
    if ctx.p("new_co2_min_b") <= co2:  # « compris entre 21 et 60 »; the 60 g/km bound is tested above
        return _yes(ctx, "1° b)", "new_amount_b", f"new vehicle, CO2 {co2} g/km between 21 and 60 g/km")
    return _no(ctx, "1°", f"1°: CO2 {co2} g/km between 20 and 21 g/km")  # pragma: no cover - whole grams


def _household_case(
    ctx: Ctx, category: VehicleCategory, co2: int, *, required: bool
) -> Candidate | str | None:
    """The 2°; None when a fact is missing that ``required`` says cannot change the result."""
    if category is not VehicleCategory.PASSENGER_CAR:
        return _no(ctx, "2°", f"2°: only « voitures particulières », not a {category.value}")
    if co2 > ctx.p("household_co2_max"):  # closed whoever the buyer: the buyer's facts are not asked
        return _no(ctx, "2°", f"2°: CO2 {co2} g/km > 110 g/km")
    kind = _fact(ctx, ctx.buyer.person_kind, "buyer.person_kind", required)
    if kind is None:
        return None
    if kind is not PersonKind.NATURAL_PERSON:
        return _no(ctx, "2°", f"2°: the buyer is a {kind.value}, not a « personne physique »")
    tax_nil = _fact(ctx, ctx.buyer.income_tax_nil, "buyer.income_tax_nil", required)
    if tax_nil is None:
        return None
    if not tax_nil:
        return _no(ctx, "2°", "2°: the buyer's income tax of the year before the acquisition or lease is "
                              "not nil")
    if co2 <= ctx.p("household_co2_max_a"):
        return _household_yes(ctx, "2° a)", "household_amount_a", f"CO2 {co2} g/km ≤ 20 g/km")
    if co2 < ctx.p("household_co2_min"):  # pragma: no cover - whole grams: 20 < CO2 < 21 cannot occur
        return _no(ctx, "2°", f"2°: CO2 {co2} g/km between 20 and 21 g/km")
    euro = _fact(ctx, ctx.vehicle.euro_standard, "vehicle.euro_standard", required)
    if euro is None:
        return None
    if euro is EuroStandard.EURO_6:
        return _household_yes(ctx, "2° a)", "household_amount_a", f"CO2 {co2} g/km in 21–110 g/km, Euro 6")
    if euro is EuroStandard.EURO_5:
        return _household_yes(ctx, "2° b)", "household_amount_b", f"CO2 {co2} g/km in 21–110 g/km, Euro 5")
    return _no(ctx, "2°", f"2°: CO2 {co2} g/km in 21–110 g/km but {euro.value}, neither Euro 6 nor Euro 5")


def _household_yes(ctx: Ctx, paragraph: str, amount: str, facts: str) -> Candidate:
    if ctx.vehicle.previously_registered is False:
        ctx.read("household-case-new-or-used", HOUSEHOLD_CASE_NEW_OR_USED)
    return _yes(ctx, paragraph, amount, f"passenger car of a natural person whose income tax is nil, {facts}")


def _fact(ctx: Ctx, value: T | None, field: str, required: bool) -> T | None:
    """A fact of the 2°; when the 1° already gives more than the 2° can, a missing one is only noted."""
    if value is None and not required:
        most = ctx.p("household_amount_a")
        ctx.step("2°", f"{field} not given: the 2° (at most {most} €) cannot exceed the 1°; not examined")
        return None
    return ctx.need(value, field, "2°")


def _yes(ctx: Ctx, paragraph: str, amount: str, reason: str) -> Candidate:
    ctx.step(paragraph, reason, ctx.p(amount))
    return Candidate(amount=ctx.p(amount), paragraph=paragraph, reason=reason)


def _no(ctx: Ctx, paragraph: str, reason: str) -> str:
    """A case not met; the step cites the paragraph, so it drops the « 1°: » the refusal reason keeps."""
    ctx.step(paragraph, reason.removeprefix(f"{paragraph}: "))
    return reason
