"""Shared rules of C. énergie art. D. 251-8 from 2018-01-01 to 2021-06-30 (a helper, not a calculator).

No complete wording of D. 251-8 is on file for these years (shared/legal/texts/INDEX.md §4): the versions are
graded ``secondary``; each computes only the cases whose amount and conditions the sources on file give
(official extracts, JORF notices, the research's barèmes), and answers every other case « not covered »,
the amount unknown — never a guessed amount, never 0.
"""

from __future__ import annotations

from legislation.calculators.kit import Ctx, R
from legislation.enums import Energy, PersonKind, VehicleCategory

CAR, VAN = VehicleCategory.PASSENGER_CAR, VehicleCategory.VAN
L_VEHICLE, BICYCLE, M2_N2 = (
    VehicleCategory.TWO_THREE_WHEELER,
    VehicleCategory.ELECTRIC_BICYCLE,
    VehicleCategory.LIGHT_M2_N2,
)
NATURAL_PERSON, ELECTRIC = PersonKind.NATURAL_PERSON, Energy.ELECTRIC

D251_3 = "C. énergie, art. D. 251-3"
EV = "electric cars and vans (D. 251-1 5°)"

SECONDARY = (
    "The complete official wording of this version of D. 251-8 is not on file: its amounts come from the "
    "extracts and notices on file and from secondary sources (each number's source and confidence are in "
    "version.toml). Cases whose amount or conditions those sources do not give are answered as not known."
)
ASSUME_SCRAPPED = (
    "The scrapped vehicle and the buyer meet the conditions of D. 251-3 (kind and age of the scrapped vehicle, "
    "ownership, destruction; who may claim): D. 251-3 is not on file for this period."
)


def start(ctx: Ctx[R]) -> R | None:
    """The conditions every version shares: a lease of two years or more, a vehicle withdrawn for destruction."""
    ctx.read("secondary-barème", SECONDARY)
    if (short_lease := ctx.lease_refusal(D251_3 + ", premier alinéa")) is not None:
        return short_lease
    if not ctx.row.scrapped_vehicle:
        ctx.step_at(D251_3, "no vehicle withdrawn from circulation for destruction")
        return ctx.refuse(
            "",
            "the prime à la conversion requires an old vehicle withdrawn from circulation for destruction "
            "(D. 251-3): purchase.scrapped_vehicle is not given",
        )
    ctx.assume(ASSUME_SCRAPPED)
    return None


def is_zero_emission(ctx: Ctx[R], category: VehicleCategory) -> bool:
    """A car or van at or below the CO2 ceiling of D. 251-1 5° (« 20 » g/km from 2018-01-01)."""
    if category is not CAR and category is not VAN:
        return False
    co2 = ctx.need(ctx.row.vehicle_co2_g_per_km, "vehicle.co2_g_per_km", EV)
    return co2 <= ctx.count("ev_co2_max")


def not_known(ctx: Ctx[R], what: str, **values: object) -> R:
    """A case the sources on file do not give: not covered, the amount unknown."""
    return ctx.not_covered("", what + ": the sources on file do not give this case's amount or conditions",
                           **values)


def is_natural_person(ctx: Ctx[R], paragraph: str) -> bool:
    kind = ctx.need(ctx.row.buyer_person_kind, "buyer.person_kind", paragraph)
    return kind is NATURAL_PERSON
