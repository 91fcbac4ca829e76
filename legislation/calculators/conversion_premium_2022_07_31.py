"""Prime à la conversion in force when no source on file gives its amounts: C. énergie, art. D. 251-8 as amended on
2022-07-31 (décret du 29 juillet 2022, JORF 2022-07-30), 2022-08-15 (décret n° 2022-1151) and 2022-12-29 (décret
n° 2022-1676, art. 1, 3°), and its articles from 2024-02-14 (décret n° 2024-102; C. énergie, art. D. 251-4 to
D. 251-4-3, a lead) to 2024-12-01 (décret n° 2024-1084 ended the prime from 2024-12-02).

The versions are on file (their decree, period and what the research knows of them, in their notes and text.txt)
but none of their amounts is: what the décret du 29 juillet 2022 changed in D. 251-8 was not seen, and every later
wording of the period builds on it; décret 2022-1151 is known to have raised and split the cycles' prime (4° bis, a)
for RFR/part ≤ 6 300 €) without amounts; décret 2022-1676 only replaces « 6 300 » by « 6 358 » in that a); the 2024
articles were not seen. So every purchase that meets the aid's two conditions the sources do settle — a vehicle
withdrawn for destruction, a lease of two years or more — is answered « not covered »: the amount is unknown (null),
never 0, and the answer says why. Nothing else is asked.
"""

from __future__ import annotations

from legislation.calculators.kit import Ctx, R

FACTS = ("acquisition", "lease_duration_months", "scrapped_vehicle", "vehicle.category")

PRIME = "prime à la conversion (the conditions article in force, not on file)"


def calculate(ctx: Ctx[R]) -> R:
    if (short_lease := ctx.lease_refusal(PRIME)) is not None:
        return short_lease
    category = ctx.need(ctx.row.vehicle_category, "vehicle.category", "")
    if not ctx.row.scrapped_vehicle:
        ctx.step_at(PRIME, "the prime à la conversion goes with the withdrawal from circulation, for destruction, of "
                    "a vehicle; the request gives no scrapped vehicle")
        return ctx.refuse("", "no vehicle withdrawn for destruction: the prime à la conversion requires one")
    return ctx.not_covered(
        "",
        "a {category} with a vehicle scrapped: the amounts of this wording are not in the sources on file (the "
        "version's notes say what is known of it), so the amount is not known",
        category=category,
    )
