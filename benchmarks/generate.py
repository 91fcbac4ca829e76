"""A mixed batch of purchases for the benchmark: every version, every branch, dates over every period.

Deterministic (seeded). Each row targets a version of either scheme drawn uniformly, or (one row in
twenty) a declared gap, with its decisive day uniform in that period; facts are drawn per category so
that every paragraph is reached (CO2 bands, price bands, caps binding or not, persons, incomes, classes,
scrapped vehicles, leases, transitional windows). About 2 % of the rows lack one fact (missing facts
are answered by the explained path) and 0.1 % are invalid (reported, not computed).
"""

from __future__ import annotations

import csv
import random
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path

from api.batch.blocks import CSV_COLUMNS
from legislation import Catalogue, Role

OPTIONAL = (
    "vehicle_energy",
    "vehicle_co2_g_per_km",
    "vehicle_acquisition_cost",
    "buyer_person_kind",
    "vehicle_previously_registered",
    "buyer_reference_income_per_share",
    "vehicle_critair",
    "buyer_income_tax_nil",
    "vehicle_euro_standard",
    "vehicle_city_electric_range_km",
)
CATEGORIES = [
    ("passenger_car", 58),
    ("van", 15),
    ("two_three_wheeler", 12),
    ("electric_bicycle", 6),
    ("light_m2_n2", 4),
    ("n2", 1),
    ("n3", 1),
    ("m2", 1),
    ("m3", 1),
]
ENERGIES = [
    ("electric", 34),
    ("hydrogen", 2),
    ("petrol_electric_hybrid", 16),
    ("diesel_electric_hybrid", 5),
    ("lpg_electric_hybrid", 2),
    ("cng_electric_hybrid", 2),
    ("petrol", 22),
    ("diesel", 14),
    ("lpg", 2),
    ("cng", 1),
]


def periods(catalogue: Catalogue) -> tuple[list[tuple[str, date, date]], list[tuple[str, date, date]]]:
    """(scheme, first day, last day) of every amounts version, and of every declared gap."""
    versions = [
        (v.scheme.value, v.valid_from, v.last_day or v.valid_from + timedelta(days=365))
        for v in catalogue.versions.values()
        if v.role in (Role.AMOUNTS, Role.ENDED) and v.scheme is not None  # the end of an aid too (status ended)
    ]
    gaps = [(t.scheme.value, g.start, g.end - timedelta(days=1)) for t in catalogue.timelines.values() for g in t.gaps]
    return sorted(versions), sorted(gaps)


def _pick(rng: random.Random, weighted: list[tuple[str, int]]) -> str:
    return rng.choices([w[0] for w in weighted], [w[1] for w in weighted])[0]


def _money(rng: random.Random, low: float, high: float) -> str:
    return f"{rng.uniform(low, high):.2f}"


def _day(rng: random.Random, first: date, last: date) -> date:
    return first + timedelta(days=rng.randint(0, (last - first).days))


def row(
    rng: random.Random,
    number: int,
    versions: list[tuple[str, date, date]],
    gaps: list[tuple[str, date, date]],
) -> dict[str, str]:
    """One purchase as CSV cells (column → text; absent = empty)."""
    scheme, first, last = rng.choice(gaps) if rng.random() < 0.05 and gaps else rng.choice(versions)
    decisive = _day(rng, first, last)
    r: dict[str, str] = {
        "id": f"P{number}",
        "schemes": scheme if rng.random() < 0.7 else "bonus|conversion_premium",
    }
    lease = rng.random() < 0.15
    r["acquisition"] = "lease" if lease else "purchase"
    r["first_rent_date" if lease else "invoice_date"] = decisive.isoformat()
    if lease:
        r["lease_duration_months"] = str(rng.choice([12, 23, 24, 36, 48, 60]))
        # The vehicle's invoice too: 2009-01-21 → 2014-06-29 a lease is decided by it (décret 2007-1873, art. 3,
        # « Année de facturation »), so the batch includes the leases of those versions.
        r["invoice_date"] = decisive.isoformat()
    if rng.random() < 0.8:  # an order date: sometimes before a version's start, opening a transitional window
        r["order_date"] = (decisive - timedelta(days=rng.choice([0, 3, 20, 45, 90, 120, 200]))).isoformat()
    _vehicle(rng, r, decisive)
    _buyer(rng, r)
    if rng.random() < 0.5:
        r["scrapped_vehicle"] = "true"
        r["scrapped_energy"] = rng.choice(["diesel", "diesel", "petrol", "lpg"])
        r["scrapped_category"] = rng.choice(["passenger_car", "passenger_car", "van"])
        # From 1985: a car scrapped in 2008–2014 can be over fifteen years old (décret 2007-1873, art. 4, 2°).
        r["scrapped_first_registration_date"] = _day(rng, date(1985, 1, 1), date(2012, 12, 31)).isoformat()
        r["scrapped_owned_since"] = _day(rng, date(2005, 1, 1), decisive - timedelta(days=400)).isoformat()
        r["scrapped_destruction_date"] = (decisive - timedelta(days=rng.randint(0, 60))).isoformat()
    if rng.random() < 0.05:  # décret 2014-1672, art. 2: a company leasing it out, a dealer's demonstration vehicle
        r["buyer_leases_out_months"] = str(rng.choice([0, 12, 24, 36]))
        r["buyer_dealer_demonstration"] = rng.choice(["true", "false"])
        r["vehicle_demonstration"] = rng.choice(["true", "false"])
        r["vehicle_first_registration_date"] = (decisive - timedelta(days=rng.randint(30, 500))).isoformat()
    if rng.random() < 0.3:
        r["bonus_ecologique_amount"] = rng.choice(["0", "1000.00", "2000", "6000.00", "7000"])
    if rng.random() < 0.02:  # a fact missing
        r.pop(rng.choice(OPTIONAL), None)
    if rng.random() < 0.001:  # an invalid row
        r["vehicle_co2_g_per_km"] = rng.choice(["-3", "twelve", "12.5"])
    return r


def _vehicle(rng: random.Random, r: dict[str, str], decisive: date) -> None:
    category = _pick(rng, CATEGORIES)
    r["vehicle_category"] = category
    energy = _pick(rng, ENERGIES) if category not in ("two_three_wheeler", "electric_bicycle") else "electric"
    r["vehicle_energy"] = energy
    if energy in ("electric", "hydrogen"):
        co2, city = 0, rng.uniform(80, 450)
    elif energy.endswith("_hybrid"):
        co2, city = rng.choice([rng.randint(15, 60), rng.randint(61, 120)]), rng.uniform(20, 90)
    else:
        co2, city = rng.randint(85, 200), None
    r["vehicle_co2_g_per_km"] = str(co2)
    if city is not None:
        r["vehicle_city_electric_range_km"] = f"{city:.1f}"
    if category == "electric_bicycle":
        r["vehicle_acquisition_cost"] = _money(rng, 400, 5000)
    elif category == "two_three_wheeler":
        r["vehicle_acquisition_cost"] = _money(rng, 900, 16000)
        r["vehicle_net_max_power_kw"] = f"{rng.choice([rng.uniform(0.5, 3.5), rng.uniform(3, 35)]):.3f}"
        r["vehicle_power_basis"] = rng.choice(["regulation_eu_168_2013", "directive_2002_24_ec"])
        r["vehicle_uses_lead_battery"] = "true" if rng.random() < 0.1 else "false"
        r["vehicle_battery_energy_kwh"] = f"{rng.uniform(0.8, 18):.3f}"
    else:
        r["vehicle_acquisition_cost"] = _money(rng, 8000, 90000)
        if rng.random() < 0.1:
            r["vehicle_battery_rental_cost"] = _money(rng, 1000, 9000)
        if energy.endswith("_hybrid"):
            r["vehicle_electric_motor_power_30min_kw"] = f"{rng.uniform(4, 60):.1f}"
        r["vehicle_euro_standard"] = rng.choice(["euro_4", "euro_5", "euro_6", "euro_6"])
        r["vehicle_critair"] = "electric" if energy in ("electric", "hydrogen") else rng.choice(["1", "1", "2", "3"])
        if category == "van":
            r["vehicle_van_class"] = rng.choice(["I", "II", "III"])
    used = rng.random() < 0.12
    r["vehicle_previously_registered"] = "true" if used else "false"
    if used:
        r["vehicle_first_registration_date"] = (decisive - timedelta(days=rng.randint(10, 900))).isoformat()
    r["vehicle_new_registration_system"] = "false" if rng.random() < 0.05 else "true"
    r["vehicle_wheelchair_accessible"] = "true" if rng.random() < 0.03 else "false"
    # The bonus from 2023: « masse en ordre de marche » (< 2,4 t) and, from 2023-12-16, the list of eligible models.
    r["vehicle_mass_kg"] = str(rng.choice([rng.randint(900, 2399), rng.randint(2300, 2600)]))
    r["vehicle_environmental_score_eligible"] = "true" if rng.random() < 0.8 else "false"


def _buyer(rng: random.Random, r: dict[str, str]) -> None:
    r["buyer_person_kind"] = _pick(rng, [("natural_person", 75), ("legal_person", 20), ("state_administration", 5)])
    r["buyer_reference_income_per_share"] = rng.choice(
        [_money(rng, 0, 6300), _money(rng, 6300, 14000), _money(rng, 13000, 45000)]
    )
    r["buyer_income_tax_nil"] = "true" if rng.random() < 0.3 else "false"
    r["buyer_overseas"] = "true" if rng.random() < 0.05 else "false"
    r["buyer_home_work_distance_km"] = f"{rng.uniform(0, 80):.1f}"
    r["buyer_professional_km_per_year"] = str(rng.randint(0, 30000))
    r["buyer_bonus_in_last_three_years"] = "true" if rng.random() < 0.1 else "false"  # the bonus from 2023


def rows(catalogue: Catalogue, count: int, seed: int = 2024) -> Iterator[dict[str, str]]:
    rng = random.Random(seed)
    versions, gaps = periods(catalogue)
    for number in range(1, count + 1):
        yield row(rng, number, versions, gaps)


def write_csv(catalogue: Catalogue, path: Path, count: int, seed: int = 2024) -> None:
    """Write ``count`` rows with every column of `vigueur batch` in its header."""
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(CSV_COLUMNS)
        for r in rows(catalogue, count, seed):
            writer.writerow([r.get(c, "") for c in CSV_COLUMNS])


def request(cells: dict[str, str]) -> dict[str, object]:
    """The same purchase as a request of the JSON contract (for JSON Lines and the HTTP API)."""
    from api.batch.csv_rows import BOOLEANS

    doc: dict[str, object] = {}
    groups = {"vehicle_": "vehicle", "buyer_": "buyer", "scrapped_": "scrapped_vehicle"}
    for column, text in cells.items():
        if column in ("id", "scrapped_vehicle") or text == "":
            continue
        value: object = text
        if column in BOOLEANS:
            value = text == "true"
        elif column in ("vehicle_co2_g_per_km", "lease_duration_months"):
            value = int(text)
        elif column == "schemes":
            value = text.split("|")
        prefix = next((p for p in groups if column.startswith(p)), None)
        if prefix is None:
            doc[column] = value
        else:
            doc.setdefault(groups[prefix], {})[column[len(prefix) :]] = value  # type: ignore[index]
    if cells.get("scrapped_vehicle") == "true":
        doc.setdefault("scrapped_vehicle", {})
    return doc
