"""C. énergie, art. D. 251-1, 2°: the bonus is for a vehicle never registered before (a helper, not a calculator).

D. 251-1 is not on file for 2017–2021 (shared/legal/texts/INDEX.md §5). Its 2° is known verbatim from the
codified text of 2016 (``D251-1-v2016-01-01-extrait.txt``: « 2° N'a pas fait l'objet précédemment d'une
première immatriculation en France ou à l'étranger ; »), which décret n° 2016-1980, art. 1 (verbatim in
``decret-2016-1980-notice-art1-extrait.txt``) does not amend (it replaces the 1° and 4°, abrogates the 5° and
renumbers the 6°). A used vehicle the request declares (``vehicle.previously_registered: true``) is therefore
refused with that paragraph cited and the reading stated — never paid on an assumption the request contradicts.
From 2020-12-09 a separate bonus for used electric vehicles exists (D. 251-1-1, created by décret
n° 2020-1526, art. 1; shared/legal/history/era-2017-2020.md §3), on file as the secondary conditions version
``D251-1-1.2020-12-09`` (amount from the decree's notice, conditions from press reports): the D. 251-7 versions that
rely on it (2020-12-09 → 2022-06-30) compute it for a used vehicle; from 2022-07-01 (its wording of décret 2022-960
not on file) a used vehicle is answered « not covered by the text on file », its amount unknown.
"""

from __future__ import annotations

from datetime import date

from legislation.calculators.kit import Ctx, R
from legislation.dates import add_months
from legislation.enums import PersonKind, VehicleCategory

D251_1_2 = "C. énergie, art. D. 251-1, 2°"

READING = (
    "D. 251-1 is not on file for this period; its 2° reads « N'a pas fait l'objet précédemment d'une première "
    "immatriculation en France ou à l'étranger » in the codified text of 2016, which décret n° 2016-1980, art. 1 "
    "does not amend (it replaces the 1° and 4°, abrogates the 5°, renumbers the 6°). The transitional clauses of "
    "the period (décrets 2018-1318 art. 2, 2019-1526 art. 2, 2020-1526 art. 4) keep earlier wordings only for "
    "vehicles « qui n'ont pas fait l'objet précédemment d'une première immatriculation », and a separate bonus "
    "for used electric vehicles (D. 251-1-1) was created from 2020-12-09: the bonus of D. 251-7 is for a vehicle "
    "never registered before."
)
ASSUME_NEW = (
    "The vehicle was never registered before, in France or abroad (C. énergie, art. D. 251-1, 2°); the request "
    "does not say."
)

# D. 251-1-1 (bonus for used electric vehicles), created by décret n° 2020-1526, art. 1, in force 2020-12-09
# (era-2017-2020.md §3, « tricoteuses front matter », likely); on file as a secondary conditions version, applied by
# the D. 251-7 versions that rely on it (2020-12-09 → 2022-06-30); its wording from 2022-07-01 is not on file.
USED_EV_BONUS_FROM = date(2020, 12, 9)
USED_EV_ID = "D251-1-1.2020-12-09"
D251_1_1 = "C. énergie, art. D. 251-1-1 (2020-12-09; wording not on file, conditions from secondary sources)"
USED_EV_BONUS = (
    "a used vehicle invoiced (or first rent) on or after 2020-12-09 may receive the bonus for used electric "
    "vehicles of C. énergie, art. D. 251-1-1 (décret n° 2020-1526, art. 1), whose wording in force on this date is "
    "not on file: D. 251-7 (new vehicles, D. 251-1, 2°) does not apply, and the amount of D. 251-1-1 is not known"
)
USED_EV_ASSUME = (
    "The used vehicle is registered in France in a definitive series, the buyer (of full age) is domiciled in France "
    "and will not sell it within two years (conditions of D. 251-1-1 as reported by the press; not on file)."
)
USED_EV_NATURAL_ONLY = (
    "D. 251-1-1 is read as reserved to natural persons: the press reports of décret 2020-1526 quote it as « attribuée "
    "à toute personne physique majeure justifiant d'un domicile en France » (dossierfamilial; likely); a legal "
    "person or the State is refused."
)
CAR_OR_VAN = (VehicleCategory.PASSENGER_CAR, VehicleCategory.VAN)


def used_vehicle(ctx: Ctx[R]) -> R | None:
    """A refusal, the D. 251-1-1 bonus, or « not covered » for a vehicle registered before; None when new or unsaid."""
    registered = ctx.row.vehicle_previously_registered
    if registered is None:
        ctx.assume(ASSUME_NEW)
        return None
    if not registered:
        ctx.step_at(D251_1_2, "never registered before (the request says so)")
        return None
    ctx.read("d251-1-2-new-vehicle", READING)
    ctx.step_at(D251_1_2, "the vehicle was registered before: the bonus of D. 251-7 is for a vehicle never registered")
    if ctx.decisive_date < USED_EV_BONUS_FROM:
        return ctx.refuse("", "the vehicle was registered before (France or abroad): D. 251-1, 2° is not met", D251_1_2)
    if USED_EV_ID not in ctx.relied:
        return ctx.not_covered("", USED_EV_BONUS)
    return _used_ev_bonus(ctx)


def _used_ev_bonus(ctx: Ctx[R]) -> R:
    """D. 251-1-1 (2020-12-09 → 2022-06-30): 1 000 € for a used electric car or van of a natural person, first
    registered at least two years before the invoice or first rent."""
    row = ctx.row
    numbers = ctx.of(USED_EV_ID)
    kind = ctx.need(row.buyer_person_kind, "buyer.person_kind", "", D251_1_1)
    if kind is not PersonKind.NATURAL_PERSON:
        ctx.read("d251-1-1-natural-person", USED_EV_NATURAL_ONLY)
        return ctx.refuse(
            "", "used vehicle bought by a {kind}: D. 251-1-1 is for a natural person", D251_1_1, kind=kind
        )
    category = ctx.need(row.vehicle_category, "vehicle.category", "", D251_1_1)
    if category not in CAR_OR_VAN:
        return ctx.refuse(
            "",
            "a used vehicle of category {category}: D. 251-1-1 covers passenger cars and vans",
            D251_1_1,
            category=category,
        )
    co2 = ctx.need(row.vehicle_co2_g_per_km, "vehicle.co2_g_per_km", "", D251_1_1)
    co2_max = numbers.count["used_co2_max"]
    if co2 > co2_max:
        return ctx.refuse(
            "",
            "used vehicle at {co2} g/km: D. 251-1-1 requires at most {co2_max} g/km",
            D251_1_1,
            co2=co2,
            co2_max=co2_max,
        )
    first = ctx.need(row.vehicle_first_registration_date, "vehicle.first_registration_date", "", D251_1_1)
    months = numbers.count["used_min_registration_months"]
    old_enough = add_months(first, months)
    if ctx.decisive_date < old_enough:
        return ctx.refuse(
            "",
            "first registered {first}: not {months} months before the decisive date (from {old_enough})",
            D251_1_1,
            first=first,
            months=months,
            old_enough=old_enough,
        )
    ctx.assume(USED_EV_ASSUME)
    amount = numbers.money["used_amount"]
    return ctx.award_at(
        D251_1_1,
        amount,
        "used electric vehicle ({co2} g/km ≤ {co2_max}), first registered {first}, at least {months} "
        "months before: {amount:€}",
        co2=co2,
        co2_max=co2_max,
        first=first,
        months=months,
        amount=amount,
    )
