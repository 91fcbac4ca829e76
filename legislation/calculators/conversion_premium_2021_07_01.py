"""Prime à la conversion — C. énergie, art. D. 251-8, as amended by décret n° 2020-1526 du 7 décembre 2020, art. 2.

In force 2021-07-01 → 2021-07-25 (art. 2 « entre en vigueur le 1er juillet 2021 »; décret n° 2021-977 rewrote the
article from 2021-07-26). Its wording is not on file: the version is graded ``secondary`` and computes with the
rules of the next wording on file (D. 251-8 of 2021-07-26, seed 001, :mod:`conversion_premium_2021_07_26`), the
only 2021 wording on file, for the paragraphs the research says décret 2021-977 did not bring:

- 1° (cars of the 5° of D. 251-1), 2° (two- and three-wheelers), 3° (cars and vans classed « 1 », the 132 g ceiling
  of décret 2020-1526, confirmed), 4° (21–50 g/km) and 5°: computed with the 2021-07-26 rules and this version's
  numbers (each quoted from that wording, likely unchanged);
- 1° bis (vans by class, 40 % capped at 5 000 / 7 000 / 9 000 €) and 4° bis (pedal-assisted cycles) came with
  décret 2021-977 (history §2: flotauto, blanc-experts-comptables, service-public F35846, likely): before it, what
  an electric van with more than 50 km of range got (the 1° of the earlier wordings covered cars and vans alike)
  and whether a cycle got anything are not on file — not covered, the amount unknown.
"""

from __future__ import annotations

from legislation.calculators import _conversion_premium_2021 as rules
from legislation.calculators import _d251_8_2021 as wording_2021_07_26
from legislation.calculators.kit import Ctx, R
from legislation.enums import VehicleCategory

FACTS = wording_2021_07_26.FACTS

CAR, VAN = VehicleCategory.PASSENGER_CAR, VehicleCategory.VAN
L_VEHICLE, BICYCLE = VehicleCategory.TWO_THREE_WHEELER, VehicleCategory.ELECTRIC_BICYCLE

READING_BUILT_FROM_2021_07_26 = (
    "The wording of D. 251-8 in force from 2021-07-01 to 2021-07-25 (décret n° 2020-1526, art. 2) is not on file. "
    "Its 1°, 2°, 3°, 4° and 5° are read as those of the next wording on file (décret n° 2021-977, in force "
    "2021-07-26), which the research says added only the vans' 1° bis and the cycles' 4° bis; the 132 g ceiling "
    "of 3° is décret 2020-1526's (confirmed). An electric van with more than 50 km of range (1° bis from "
    "2021-07-26) and a pedal-assisted cycle (4° bis from 2021-07-26) are not covered: their amounts before "
    "2021-07-26 are not on file."
)


def calculate(ctx: Ctx[R]) -> R:
    ctx.read("built-from-2021-07-26-wording", READING_BUILT_FROM_2021_07_26)
    if (refused := wording_2021_07_26.start(ctx)) is not None:
        return refused
    category = ctx.need(ctx.row.vehicle_category, "vehicle.category", "premier alinéa")
    if category is CAR:
        return _car(ctx)
    if category is VAN:
        return _van(ctx)
    if category is L_VEHICLE:
        return wording_2021_07_26.two_three_wheeler(ctx)
    if category is BICYCLE:
        return ctx.not_covered(
            "",
            "a pedal-assisted cycle: the prime for cycles (4° bis) is known from 2021-07-26 (décret n° 2021-977); "
            "whether this wording gave one, and how much, is not on file",
        )
    return wording_2021_07_26.not_a_case(ctx, category)


def _car(ctx: Ctx[R]) -> R:
    candidates = wording_2021_07_26.electric_car(ctx)
    candidates += wording_2021_07_26.crit_air_1(ctx)
    candidates += wording_2021_07_26.plug_in(ctx)
    if not candidates:
        return ctx.refuse_missed("1°, 3° et 4°")
    return ctx.best(candidates, rules.WHY_MOST_FAVOURABLE)


def _van(ctx: Ctx[R]) -> R:
    """A van: 3° and 4° as on 2021-07-26; one with more than 50 km of electric range is not covered."""
    if wording_2021_07_26.has_range(ctx, "1°"):
        return ctx.not_covered(
            "1°",
            "an electric van with a city range above {electric_range_min} km: its amount in this wording (before the "
            "vans' 1° bis of décret n° 2021-977) is not on file",
        )
    candidates = wording_2021_07_26.crit_air_1(ctx) + wording_2021_07_26.plug_in(ctx)
    if not candidates:
        return ctx.refuse_missed("3° et 4°")
    return ctx.best(candidates, rules.WHY_MOST_FAVOURABLE)
