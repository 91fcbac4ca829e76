"""Helpers shared by the two 2015 wordings of décret n° 2014-1672, art. 4 (not a calculator).

They read the request paths ``invoice_date`` and ``acquisition`` (both always readable) and
``scrapped_vehicle.owned_since`` (declared by both calculators).
"""

from __future__ import annotations

from datetime import date

from legislation.calculators.kit import Ctx, R
from legislation.dates import add_months
from legislation.enums import Acquisition

LEASE = Acquisition.LEASE


def invoice_date(ctx: Ctx[R], paragraph: str) -> date:
    """« la date de facturation du véhicule acquis ou loué »; for a lease without one, the first rent."""
    row = ctx.row
    if row.invoice_date is not None:
        return row.invoice_date
    if row.acquisition is LEASE:
        ctx.read(
            "2015-destruction-window-lease",
            f"Art. 4, {paragraph} counts the destruction window from « la date de facturation du véhicule "
            "acquis ou loué »; for a lease whose invoice date is not given, the first-rent date (which the "
            "chapeau of I puts on the same footing as the invoice date) is used.",
        )
    return ctx.decisive_date


def not_owned_long_enough(ctx: Ctx[R]) -> R | None:
    """I, 4° (the same in both wordings): the scrapped vehicle « acquis depuis au moins six mois » on the
    decisive date (month ends clamp); a refusal, or None when it was."""
    owned = ctx.need(ctx.row.scrapped_owned_since, "scrapped_vehicle.owned_since", "I, 4°")
    decisive = ctx.decisive_date
    if add_months(owned, ctx.count("scrapped_owned_min_months")) > decisive:
        return ctx.refuse(
            "I, 4°",
            "acquired {owned}: not owned for {scrapped_owned_min_months} months on {decisive}",
            owned=owned,
            decisive=decisive,
        )
    ctx.step(
        "I, 4°",
        "acquired {owned}: owned for at least {scrapped_owned_min_months} months on {decisive}",
        owned=owned,
        decisive=decisive,
    )
    return None
