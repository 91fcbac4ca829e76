"""C. énergie, art. D. 251-1, 2°: the bonus is for a vehicle never registered before (a helper, not a calculator).

D. 251-1 is not on file for 2017–2021 (shared/legal/texts/INDEX.md §5). Its 2° is known verbatim from the
codified text of 2016 (``D251-1-v2016-01-01-extrait.txt``: « 2° N'a pas fait l'objet précédemment d'une
première immatriculation en France ou à l'étranger ; »), which décret n° 2016-1980, art. 1 (verbatim in
``decret-2016-1980-notice-art1-extrait.txt``) does not amend (it replaces the 1° and 4°, abrogates the 5° and
renumbers the 6°). A used vehicle the request declares (``vehicle.previously_registered: true``) is therefore
refused with that paragraph cited and the reading stated — never paid on an assumption the request contradicts.
From 2020-12-09 a separate bonus for used electric vehicles exists (D. 251-1-1, created by décret
n° 2020-1526, art. 1; shared/legal/history/era-2017-2020.md §3), not on file: a used vehicle invoiced from that
day is answered « not covered by the text on file », its amount unknown.
"""

from __future__ import annotations

from datetime import date

from legislation.calculators.kit import Ctx, R

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
# (era-2017-2020.md §3, « tricoteuses front matter », likely). Not on file.
USED_EV_BONUS_FROM = date(2020, 12, 9)
USED_EV_BONUS = (
    "a used vehicle invoiced (or first rent) on or after 2020-12-09 may receive the bonus for used electric "
    "vehicles of C. énergie, art. D. 251-1-1 (décret n° 2020-1526, art. 1), which is not on file: D. 251-7 "
    "(new vehicles, D. 251-1, 2°) does not apply, and the amount of D. 251-1-1 is not known"
)


def used_vehicle(ctx: Ctx[R]) -> R | None:
    """A refusal (or, from 2020-12-09, « not covered ») for a vehicle registered before; None when new or unsaid."""
    registered = ctx.row.vehicle_previously_registered
    if registered is None:
        ctx.assume(ASSUME_NEW)
        return None
    if not registered:
        ctx.step_at(D251_1_2, "never registered before (the request says so)")
        return None
    ctx.read("d251-1-2-new-vehicle", READING)
    ctx.step_at(D251_1_2, "the vehicle was registered before: the bonus is for a vehicle never registered")
    if ctx.decisive_date >= USED_EV_BONUS_FROM:
        return ctx.not_covered("", USED_EV_BONUS)
    return ctx.refuse(
        "", "the vehicle was registered before (France or abroad): D. 251-1, 2° is not met", D251_1_2
    )
