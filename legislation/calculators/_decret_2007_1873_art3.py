"""Bonus écologique 2008–2014 — décret n° 2007-1873 du 26 décembre 2007, art. 3: the rule, written once.

NOR DEVC0774438D, JO n° 303 du 30 décembre 2007; eleven versions of art. 3 from 2007-12-31 to 2014-12-31
(décrets 2009-66, 2009-1581, 2010-447, 2010-1618, 2011-310, 2011-2055, 2012-925, 2012-1545, 2013-971,
2014-723). Every version is one table of amounts by CO2 band (« taux d'émission de dioxyde de carbone »),
with one column per year or period of invoicing; a version carries, as data, the column its period uses
(``cur_*``, from 1 January of ``cur_year``) and, when its period starts in the previous year, that year's
column too (``prev_*``). Each column holds:

- ``{col}_b{i}_co2_max`` / ``{col}_b{i}_amount`` — 1° b) « Pour les autres véhicules », band i (upper CO2 limit,
  amount), optionally ``{col}_b{i}_cap_rate`` (« ne peut pas excéder X % du coût d'acquisition … »);
- ``{col}_a{i}_*`` — 1° a), hybrids (« combinant l'énergie électrique et une motorisation à l'essence ou au
  gazole »), optionally ``_cap_rate`` and ``_floor`` (« sans pouvoir être inférieure à »);
- ``{col}_lpg{i}_*`` — 1° a), vehicles « fonctionnant … au moyen du gaz de pétrole liquéfié ou du gaz naturel
  véhicules » (the column has none after 2010: art. 10 II 1° ends their aid);
- ``{col}_c{i}_*`` — 3°, vehicles of the c du 5° of art. 1 (vans and other measured vehicles; from 2009).

``b_includes_a_co2_max`` (from 2009): 1° b) « y compris ceux visés au a lorsque leur taux … est inférieur ou
égal à N grammes ». The calculators ``bonus_2008_01_01`` (2008 → July 2012), ``bonus_2012_08_01`` (legal
persons' hybrids and the State, from August 2012) and ``bonus_2013_11_01`` (caps of leases on the rents,
November 2013 → June 2014) are this rule with the :class:`Shape` their texts give.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from legislation.calculators.kit import Ctx, R
from legislation.enums import Acquisition, Energy, PersonKind, VehicleCategory

FACTS = (
    "acquisition",
    "buyer.person_kind",
    "lease_duration_months",
    "vehicle.acquisition_cost",
    "vehicle.battery_rental_cost",
    "vehicle.category",
    "vehicle.co2_g_per_km",
    "vehicle.energy",
    "vehicle.previously_registered",
)

# The band families vary in number from one column to another: the loader's « same parameters per calculator »
# check leaves these names out (a version gives the bands of its own columns).
VARIABLE_PARAMETERS = re.compile(r"^(cur|prev)_(a|b|c|lpg)\d+_(co2_max|amount|cap_rate|cap_rate_early|floor)$"
                                 r"|^prev_year$|^b_includes_a_co2_max$")  # fmt: skip

ART1 = "décret n° 2007-1873, art. 1"
HYBRIDS = (Energy.PETROL_ELECTRIC_HYBRID, Energy.DIESEL_ELECTRIC_HYBRID)
GAS = (Energy.LPG, Energy.CNG, Energy.LPG_ELECTRIC_HYBRID, Energy.CNG_ELECTRIC_HYBRID)
NOT_MEASURED = (VehicleCategory.TWO_THREE_WHEELER, VehicleCategory.ELECTRIC_BICYCLE)
CAR, LEASE = VehicleCategory.PASSENGER_CAR, Acquisition.LEASE
NATURAL, STATE = PersonKind.NATURAL_PERSON, PersonKind.STATE_ADMINISTRATION

# Numbers only some versions give (read by a name held in a variable: the batch compiler reads them at run time).
PREV_YEAR, INCLUDES_A = "prev_year", "b_includes_a_co2_max"

# Inline branch of the clause « ordered on or before 31 December 2011 » (version of 2012-01-01, 1° b), last alinéa).
EARLY_ORDER_BRANCH = "ordered_by_2011_12_31"


@dataclass(frozen=True, slots=True)
class Shape:
    """What the texts change in the rule itself (not in its numbers)."""

    legal_persons_hybrids: bool  # 1° a): « et pour ceux facturés à des personnes morales après le 31 juillet 2012 »
    state_eligible: bool  # art. 1: « à l'exception des administrations de l'Etat » removed (August 2012)
    lease_caps_on_rents: bool  # « X % de la somme des montants des loyers prévus par le contrat de location »


ASSUME_RECEPTION = (
    "The passenger car has an EC type-approval with a measured CO2 rate (art. 1, 5° a)); a car without one "
    "(5° b), « puissance administrative » ≤ 4 CV, 200 € under art. 3, 2°) is not computed here."
)
ASSUME_BENEFICIARY = (
    "The buyer or lessee has a domicile or an establishment in France (art. 1, premier alinéa); a lease is a "
    "« location avec option d'achat » or a contract of at least two years; the vehicle is registered in France "
    "in a definitive series and not bought to be resold as new (art. 1, 3° and 4°)."
)
LEGAL_PERSON_HYBRID = (
    "1° a) names the vehicles « acquis ou pris en location par des personnes physiques »: the same vehicle bought "
    "or leased by a legal person is one of « les autres véhicules » of 1° b), computed with the table of 1° b)."
)


def calculate(ctx: Ctx[R], shape: Shape) -> R:
    """Art. 1 (the conditions on file), then the column of art. 3 for the decisive date."""
    ctx.assume(ASSUME_BENEFICIARY)
    if (refusal := _conditions(ctx, shape)) is not None:
        return refusal
    col = _column(ctx)
    if col is None:
        return ctx.not_covered(
            "1°",
            "no column of the table of art. 3 for {year} in this version (its columns start in {first})",
            year=ctx.decisive_date.year,
            first=_count(ctx, PREV_YEAR if _has(ctx, PREV_YEAR) else "cur_year"),
        )
    row = ctx.row
    co2 = ctx.need(row.vehicle_co2_g_per_km, "vehicle.co2_g_per_km", "1°")
    category = row.vehicle_category
    if category is not CAR:
        return _measured_other(ctx, col, co2, shape)
    ctx.assume(ASSUME_RECEPTION)
    energy = ctx.need(row.vehicle_energy, "vehicle.energy", "1° a)")
    family = "lpg" if energy in GAS else "a" if energy in HYBRIDS else None
    if family is not None and not _in_b(ctx, co2):
        if family == "a" and shape.legal_persons_hybrids:  # natural or legal persons: the person does not matter
            return _table(ctx, col, family, co2, shape)
        if ctx.need(row.buyer_person_kind, "buyer.person_kind", "1° a)") is NATURAL:
            return _table(ctx, col, family, co2, shape)
        ctx.read("1a-natural-persons-only", LEGAL_PERSON_HYBRID)
    return _table(ctx, col, "b", co2, shape)


def _conditions(ctx: Ctx[R], shape: Shape) -> R | None:
    """Art. 1: the conditions this calculator can check, on the version of art. 1 relied on (when on file)."""
    row = ctx.row
    category = ctx.need(row.vehicle_category, "vehicle.category", "1°", citation=f"{ART1}, 1°")
    art1 = _art1(ctx)
    if category in NOT_MEASURED:
        return _condition_fails(ctx, art1, "1°", "a vehicle of category {category} is not a passenger car, a van or "
                                "a vehicle whose CO2 is measured under directive 80/1268/CEE or règlement (CE) "
                                "n° 715/2007", category=category)  # fmt: skip
    if category is not CAR and not _has(ctx, "cur_c1_amount"):
        return _condition_fails(ctx, art1, "1°", "art. 1, 1° of this period names the « voitures particulières » "
                                "only: a {category} is not eligible", category=category)  # fmt: skip
    if ctx.is_short_lease():
        return _condition_fails(ctx, art1, "", "a lease of {months} months: the aid needs « un contrat de location "
                                "avec option d'achat ou … un contrat souscrit pour une durée d'au moins deux ans »",
                                months=row.lease_duration_months)  # fmt: skip
    if row.vehicle_previously_registered:
        return _condition_fails(
            ctx,
            art1,
            "2°",
            "the vehicle was registered before: « Il ne doit pas avoir fait "
            "l'objet précédemment d'une première immatriculation en France ou à l'étranger »",
        )
    if row.vehicle_previously_registered is None:
        ctx.assume(f"The vehicle was never registered before ({ART1}, 2°).")
    if not shape.state_eligible and row.buyer_person_kind is STATE:
        return _condition_fails(ctx, art1, "", "the aid is granted « à l'exception des administrations de l'Etat »")
    return None


def _art1(ctx: Ctx[R]) -> str | None:
    """The citation of the version of art. 1 this version relies on, None when none is on file for its period."""
    for ref, params in ctx.relied.items():
        if ref.startswith("decret-2007-1873-art1."):
            return params.version.citation
    return None


def _condition_fails(ctx: Ctx[R], art1: str | None, paragraph: str, reason: str, **values: object) -> R:
    """A condition of art. 1 not met: a refusal citing it, or — art. 1 of the period not on file — not covered."""
    if art1 is not None:
        citation = f"{art1}, {paragraph}" if paragraph else art1
        return ctx.refuse("", reason, citation, **values)
    return ctx.not_covered(
        "",
        reason + " — a condition of art. 1 in its wordings of 2007, 2009 and 2013; the wording of art. 1 in force "
        "on this date is not on file, so no amount is given",
        **values,
    )


def _count(ctx: Ctx[R], name: str) -> int:
    """A whole number some versions give and others do not (asked only after :func:`_has`)."""
    return ctx.count(name)


def _has(ctx: Ctx[R], name: str) -> bool:
    """Whether the version gives this parameter (a band family varies in length from column to column)."""
    return name in ctx.version.parameters


def _column(ctx: Ctx[R]) -> str | None:
    """« Année de facturation » / « Date de facturation »: the column of the decisive date's year."""
    year, cur_year = ctx.decisive_date.year, ctx.count("cur_year")
    if year >= cur_year:
        ctx.step("1°", "date {day}: the column from {year}", day=ctx.decisive_date, year=cur_year)
        return "cur"
    if _has(ctx, PREV_YEAR) and year == (prev_year := _count(ctx, PREV_YEAR)):
        ctx.step("1°", "date {day}: the column {year}", day=ctx.decisive_date, year=prev_year)
        return "prev"
    return None


def _in_b(ctx: Ctx[R], co2: int) -> bool:
    """1° b) « y compris ceux visés au a lorsque leur taux … est inférieur ou égal à N grammes »."""
    if _has(ctx, INCLUDES_A) and co2 <= _count(ctx, INCLUDES_A):
        ctx.step("1° b)", "CO2 {co2} g/km ≤ {b_includes_a_co2_max} g/km: the vehicle of a) is in the table of b)",
                 co2=co2)  # fmt: skip
        return True
    return False


PARAGRAPHS = {"a": "1° a)", "lpg": "1° a)", "b": "1° b)", "c": "3°"}
WHAT = {
    "a": "hybrid (electric + petrol or diesel)",
    "lpg": "LPG or natural gas vehicle",
    "b": "vehicle of 1° b)",
    "c": "vehicle of the c du 5° of art. 1 (van or other measured vehicle)",
}


def _table(ctx: Ctx[R], col: str, family: str, co2: int, shape: Shape) -> R:
    """The band of the column that holds the vehicle's CO2, its amount, and its cap or floor."""
    paragraph, prefix = PARAGRAPHS[family], f"{col}_{family}"
    bands, text = _bands(ctx, prefix)
    if not bands:
        return ctx.refuse(
            paragraph, "{what}: the table of {paragraph} has no amount for this column (its aid ended: art. 10, "
            "II, 1°, orders by 31 December 2010 invoiced by 31 March 2011)", what=WHAT[family], paragraph=paragraph
        )  # fmt: skip
    ctx.step(paragraph, text)
    for band, limited in bands:
        if not limited:
            return _up_to_art1_ceiling(ctx, band, paragraph, family, co2, shape)
        if co2 <= ctx.count(band + "_co2_max"):
            return _band(ctx, band, paragraph, family, co2, shape)
    return ctx.refuse(
        paragraph, "{what} of {co2} g/km: above the last band of the table ({last} g/km)",
        what=WHAT[family], co2=co2, last=ctx.count(bands[-1][0] + "_co2_max"),
    )  # fmt: skip


# A version's bands, per column and family, and the sentence that shows them: computed once per version (the
# content hash tells a corrected version from the one it corrects).
_BANDS: dict[tuple[str, str, str], tuple[tuple[tuple[str, bool], ...], str]] = {}


def _bands(ctx: Ctx[R], prefix: str) -> tuple[tuple[tuple[str, bool], ...], str]:
    """((band, whether it has its own CO2 limit), …) and the template of the column, for ``prefix``."""
    key = (ctx.vid, ctx.version.content_hash, prefix)
    found = _BANDS.get(key)
    if found is None:
        params, bands, i = ctx.version.parameters, [], 1
        while f"{prefix}{i}_amount" in params:
            bands.append((f"{prefix}{i}", f"{prefix}{i}_co2_max" in params))
            i += 1
        found = _BANDS[key] = (tuple(bands), _column_text(ctx, prefix))
    return found


def _up_to_art1_ceiling(ctx: Ctx[R], band: str, paragraph: str, family: str, co2: int, shape: Shape) -> R:
    """3° names its vehicles by art. 1, 5° c), whose CO2 ceiling (« n'excèdent pas 60 grammes ») is in art. 1."""
    art1 = next((ref for ref in ctx.relied if ref.startswith("decret-2007-1873-art1.")), None)
    if art1 is None:
        return ctx.not_covered(
            paragraph, "{what}: its CO2 ceiling is set by art. 1, 5° c), whose wording of this period is not on file",
            what=WHAT[family],
        )  # fmt: skip
    ceiling, citation = ctx.of(art1).count["c_co2_max"], f"{ctx.of(art1).version.citation}, 5° c)"
    if co2 > ceiling:
        return ctx.refuse("", "{what} of {co2} g/km: above the {ceiling} g/km of art. 1, 5° c)", citation,
                          what=WHAT[family], co2=co2, ceiling=ceiling)  # fmt: skip
    ctx.step_at(citation, "CO2 {co2} g/km ≤ {ceiling} g/km: a vehicle of the c du 5°", co2=co2, ceiling=ceiling)
    return _band(ctx, band, paragraph, family, co2, shape)


def _column_text(ctx: Ctx[R], prefix: str) -> str:
    """The column applied, band by band (a template of the version's own parameters, shown to the auditor)."""
    parts, i = [], 1
    while _has(ctx, f"{prefix}{i}_amount"):
        band = f"{prefix}{i}"
        limit = (
            "≤ {" + band + "_co2_max} g/km" if _has(ctx, band + "_co2_max") else "up to the ceiling of art. 1, 5° c)"
        )
        part = limit + ": {" + band + "_amount:€}"
        for extra, words in (
            ("_cap_rate", " within {%s:%%} of the cost"),
            ("_cap_rate_early", " (ordered by 2011-12-31: within {%s:%%} of the cost)"),
            ("_floor", ", at least {%s:€}"),
        ):
            if _has(ctx, band + extra):
                part += words % (band + extra)
        parts.append(part)
        i += 1
    return "the column: " + "; ".join(parts)


def _band(ctx: Ctx[R], band: str, paragraph: str, family: str, co2: int, shape: Shape) -> R:
    amount = ctx.money(f"{band}_amount")
    ctx.step(paragraph, "{what}, CO2 {co2} g/km: band " + band.rsplit("_", 1)[1] + ", {" + band + "_amount:€}", amount,
             what=WHAT[family], co2=co2)  # fmt: skip
    if amount == 0:
        return ctx.refuse(paragraph, "the table gives 0 € for {co2} g/km", co2=co2)
    rate = f"{band}_cap_rate"
    if not _has(ctx, rate) and ctx.is_open(EARLY_ORDER_BRANCH) and _has(ctx, f"{band}_cap_rate_early"):
        rate = f"{band}_cap_rate_early"
    if _has(ctx, rate):
        if ctx.row.acquisition is LEASE and shape.lease_caps_on_rents:
            return ctx.not_covered(
                paragraph, "a lease: the cap is {" + rate + ":%} of « la somme des montants des loyers prévus par le "
                "contrat de location », a sum the request does not give")  # fmt: skip
        base = ctx.cost_with_battery(paragraph)
        cap = ctx.rate(paragraph, rate, base, "cost incl. battery")
        amount = ctx.cap(paragraph, amount, cap, "« ne peut excéder {" + rate + ":%} du coût »")
    floor = f"{band}_floor"
    if _has(ctx, floor):
        amount = ctx.floor(paragraph, amount, ctx.money(floor), "« sans pouvoir être inférieure à {" + floor + ":€} »")
    return ctx.award(amount, paragraph, "{what} of {co2} g/km: {amount:€}", what=WHAT[family], co2=co2,
                     amount=amount)  # fmt: skip


def _measured_other(ctx: Ctx[R], col: str, co2: int, shape: Shape) -> R:
    """3°: a vehicle of the c du 5° of art. 1 — a van or another vehicle whose CO2 is measured."""
    return _table(ctx, col, "c", co2, shape)
