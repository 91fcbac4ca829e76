"""The CSV input of `vigueur batch`: its columns, how each cell is validated, and a block of lines to rows.

Every column is a field of :class:`legislation.fast.Row` (see README, « Batch calculation »), validated
with the rules of the request contract (api/purchase/request.py): enums by their values, dates YYYY-MM-DD,
booleans ``true``/``false``, euros with at most 2 decimals, quantities with at most 3, CO2 an integer
0–1000, lease months 1–600, schemes separated by ``|``. An empty cell is « not given ».

A line is read with the texts each column has already seen (a dictionary look-up, done for the whole
line in one C-level ``map``); only a new text is converted, then remembered.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from datetime import date
from enum import Enum
from typing import Any

from legislation import Scheme
from legislation.enums import (
    Acquisition,
    CritAir,
    Energy,
    EuroStandard,
    PersonKind,
    PowerBasis,
    VanClass,
    VehicleCategory,
)
from legislation.fast import ROW_FIELDS, Row
from legislation.row import MONEY_FIELDS, QUANTITY_FIELDS, shared_schemes

ENUMS: dict[str, type[Enum]] = {
    "acquisition": Acquisition,
    "vehicle_category": VehicleCategory,
    "vehicle_energy": Energy,
    "vehicle_power_basis": PowerBasis,
    "vehicle_euro_standard": EuroStandard,
    "vehicle_critair": CritAir,
    "vehicle_van_class": VanClass,
    "buyer_person_kind": PersonKind,
    "scrapped_energy": Energy,
    "scrapped_category": VehicleCategory,
}
DATES = (
    "order_date",
    "invoice_date",
    "first_rent_date",
    "vehicle_first_registration_date",
    "scrapped_first_registration_date",
    "scrapped_owned_since",
    "scrapped_destruction_date",
)
BOOLEANS = (
    "vehicle_uses_lead_battery",
    "vehicle_previously_registered",
    "vehicle_new_registration_system",
    "vehicle_wheelchair_accessible",
    "vehicle_demonstration",
    "vehicle_environmental_score_eligible",
    "buyer_income_tax_nil",
    "buyer_dealer_demonstration",
    "buyer_overseas",
    "buyer_bonus_in_last_three_years",
    "scrapped_vehicle",
)
SCRAPPED_FACTS = tuple(n for n in ROW_FIELDS if n.startswith("scrapped_") and n != "scrapped_vehicle")
CSV_COLUMNS = ("id", *ROW_FIELDS)
REMEMBERED = 20_000  # texts remembered per column (every day from 1970 to 2030 is 22 000 texts)
_FEW = 1_000  # texts remembered per money column (round prices and amounts repeat, cents rarely do)

_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")  # ASCII digits only, as the JSON contract
_INTEGER = re.compile(r"[0-9]{1,4}")


class Invalid(ValueError):
    """A cell (or a line, or the header) that does not validate; the message says why."""


Converter = Callable[[str], Any]


def _enum_converter(kind: type[Enum]) -> Converter:
    members = {m.value: m for m in kind}
    allowed = ", ".join(members)

    def convert(text: str) -> Any:
        try:
            return members[text]
        except KeyError:
            raise Invalid(f"{text!r} is not one of {allowed}") from None

    return convert


def _date(text: str) -> date:
    if not _DATE.fullmatch(text):
        raise Invalid(f"{text!r} is not a date YYYY-MM-DD")
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise Invalid(f"{text!r} is not a date of the calendar") from None


def _scaled(places: int, max_whole: int, what: str) -> Converter:
    """« 30000.5 » → 3000050 for places=2 (cents): ASCII digits, at most ``places`` decimals, no sign."""
    scale = 10**places

    def convert(text: str) -> int:
        whole, dot, fraction = text.partition(".")
        if (
            whole.isascii()
            and whole.isdigit()
            and len(whole) <= max_whole
            and (not dot or (fraction.isascii() and fraction.isdigit() and len(fraction) <= places))
        ):
            return int(whole) * scale + (int(fraction) * 10 ** (places - len(fraction)) if fraction else 0)
        raise Invalid(f"{text!r} is not {what}")

    return convert


def _integer(low: int, high: int) -> Converter:
    def convert(text: str) -> int:
        if not _INTEGER.fullmatch(text) or not low <= int(text) <= high:
            raise Invalid(f"{text!r} is not an integer from {low} to {high}")
        return int(text)

    return convert


def _boolean(text: str) -> bool:
    if text in ("true", "false"):
        return text == "true"
    raise Invalid(f"{text!r} is not true or false")


_SCHEMES = {s.value: s for s in Scheme}


def _schemes(text: str) -> tuple[Scheme, ...]:
    try:
        schemes = tuple(dict.fromkeys(_SCHEMES[s] for s in text.split("|")))
    except KeyError:
        raise Invalid(f"{text!r}: schemes are {' or '.join(_SCHEMES)}, separated by |") from None
    return shared_schemes(schemes)


def converter(column: str) -> Converter:
    """How one CSV column's text becomes the row's value (:class:`Invalid` when it cannot)."""
    if column in ENUMS:
        return _enum_converter(ENUMS[column])
    if column in DATES:
        return _date
    if column in BOOLEANS:
        return _boolean
    if column in MONEY_FIELDS:
        return _scaled(2, 12, "an amount in euros ≥ 0 with at most 2 decimals (« 30000.00 »)")
    if column in QUANTITY_FIELDS:
        return _scaled(3, 9, "a number ≥ 0 with at most 3 decimals (« 12.5 »)")
    if column == "vehicle_co2_g_per_km":
        return _integer(0, 1000)
    if column == "vehicle_mass_kg":
        return _integer(0, 9999)
    if column == "lease_duration_months":
        return _integer(1, 600)
    if column == "buyer_leases_out_months":
        return _integer(0, 600)
    if column == "schemes":
        return _schemes
    raise AssertionError(column)  # pragma: no cover - every row field is covered


class Memo(dict[str, Any]):
    """One column's texts already converted. A text not seen yet is converted by :meth:`__missing__` —
    called by ``dict.__getitem__`` itself — and remembered while the column holds fewer than ``limit``
    texts; a text that does not convert raises :class:`Invalid` from there."""

    __slots__ = ("convert", "limit")

    def __init__(self, convert: Converter, limit: int, known: dict[str, Any]) -> None:
        super().__init__(known)
        self.convert, self.limit = convert, limit

    def __missing__(self, text: str) -> Any:
        value = self.convert(text)
        if len(self) < self.limit:
            self[text] = value
        return value


# A row is read with C-level calls only: the cells are taken in the order of the Row's fields (an absent
# column takes a spare empty cell) and each goes through its column's Memo in one
# ``map(dict.__getitem__, memos, cells)``; only a text not seen yet costs a Python call (its conversion).
# Enums, booleans, dates, CO2 and schemes repeat, and a dictionary look-up costs a tenth of a conversion;
# a price or an income rarely repeats, so those columns remember fewer texts (more would only fill the
# processor's caches). Any invalid cell sends the row to the checked path, which lists every error.
# Measured with the benchmark's 1 000 000-row CSV, alternating runs: 11.5 s against 12.55 s for the former
# reading (a Python loop over the price and quantity columns after a map over the others); reading a whole
# block column by column (transposed with zip) was 35 % slower than that.
_FEW_COLUMNS = frozenset(MONEY_FIELDS)
_SPARE = ("", "")  # appended to a line's cells: [width] is any absent column, [width + 1] a scrapped flag


# A column may also be named by its path in the JSON request (« vehicle.acquisition_cost »).
_PATHS = (("scrapped_vehicle.", "scrapped_"), ("vehicle.", "vehicle_"), ("buyer.", "buyer_"))


def column_name(name: str) -> str:
    """The column a header cell names: itself, or the column of a JSON request path (« buyer.person_kind »)."""
    for path, prefix in _PATHS:
        if name.startswith(path):
            return prefix + name[len(path) :]
    return name


class CsvPlan:
    """The header of a CSV input, checked, and how its lines' cells become rows."""

    def __init__(self, header: list[str]) -> None:
        header = [column_name(c) for c in header]
        unknown = [c for c in header if c not in CSV_COLUMNS]
        if unknown:
            raise Invalid(
                f"unknown column(s) {', '.join(map(repr, unknown))}; allowed: {', '.join(CSV_COLUMNS)}"
            )
        if len(set(header)) != len(header):
            raise Invalid("a column appears twice in the header")
        if "acquisition" not in header:
            raise Invalid(
                "the header has no « acquisition » column (purchase or lease), which every row needs"
            )
        self.header = header
        self.width = width = len(header)
        self.id_index = header.index("id") if "id" in header else None
        defaults: list[Any] = [f.default for f in Row.__dataclass_fields__.values()][: len(ROW_FIELDS)]
        defaults[0] = None  # acquisition: required, no default
        self.defaults = defaults
        # Per row field: the cell it is read from, and its Memo. An empty cell is the field's default,
        # except for « acquisition » (required: the empty text does not convert).
        memos: dict[str, Memo] = {
            c: Memo(
                converter(c),
                _FEW if c in _FEW_COLUMNS else REMEMBERED,
                {} if c == "acquisition" else {"": defaults[ROW_FIELDS.index(c)]},
            )
            for c in ROW_FIELDS
        }
        self.cells: list[tuple[int, str, int, dict[str, Any], Converter]] = [
            (i, c, ROW_FIELDS.index(c), memos[c], memos[c].convert) for i, c in enumerate(header) if c != "id"
        ]
        self.scrapped_facts = [i for i, c in enumerate(header) if c in SCRAPPED_FACTS]
        self.any_scrapped = operator.itemgetter(*self.scrapped_facts) if self.scrapped_facts else None
        # The cell that says « scrapped_vehicle »: its column, or the spare cell [width + 1] set to « true »
        # when scrapped facts are given without the column.
        self.scrapped_flag = header.index("scrapped_vehicle") if "scrapped_vehicle" in header else width + 1
        self.scrapped_column = "scrapped_vehicle" in header
        self.scrapped_slot = ROW_FIELDS.index("scrapped_vehicle")
        sources = [
            header.index(c) if c in header else width + 1 if c == "scrapped_vehicle" else width for c in ROW_FIELDS
        ]
        self.take = operator.itemgetter(*sources)
        # The documented header (« id », then every field in the Row's order): after « id » the cells are
        # already in the Row's order and no column is absent — nothing to take, nothing to append.
        self.canonical = tuple(header) == CSV_COLUMNS
        self.memos = [
            memos[c] if c in header or c == "scrapped_vehicle" else {"": defaults[k]} for k, c in enumerate(ROW_FIELDS)
        ]

    def row(self, cells: list[str]) -> Row:
        """The row these cells describe; :class:`Invalid` lists every cell that does not validate."""
        if len(cells) != self.width:
            raise Invalid(f"the line has {len(cells)} fields, the header {self.width}")
        cells += _SPARE
        if self.any_scrapped is not None and any(self.any_scrapped(cells)):
            flag = cells[self.scrapped_flag]
            if flag == "false":
                return self.checked_row(cells)  # « false » with scrapped facts: the checked path says why
            if not flag:
                cells[self.scrapped_flag] = "true"  # scrapped facts given: there is a scrapped vehicle
        try:
            return Row(*map(dict.__getitem__, self.memos, cells[1:] if self.canonical else self.take(cells)))
        except (KeyError, Invalid):
            return self.checked_row(cells)

    def checked_row(self, cells: list[str]) -> Row:
        """Every cell converted and checked (remembering new texts); :class:`Invalid` lists every error."""
        values = self.defaults.copy()
        errors = None
        for index, column, slot, known, convert in self.cells:
            text = cells[index]
            if text:
                value = known.get(text)
                if value is None:
                    try:
                        value = convert(text)
                    except Invalid as exc:
                        errors = (errors or []) + [f"{column}: {exc}"]
                        continue
                    if len(known) < REMEMBERED:
                        known[text] = value
                values[slot] = value
            elif slot == 0:
                errors = (errors or []) + ["acquisition: required (purchase or lease)"]
        for i in self.scrapped_facts:
            if cells[i]:
                if self.scrapped_column and cells[self.scrapped_flag] == "false":
                    errors = (errors or []) + ["scrapped_vehicle: false, but scrapped_* facts are given"]
                values[self.scrapped_slot] = True
                break
        if errors:
            raise Invalid("; ".join(errors))
        return Row(*values)


__all__ = ["BOOLEANS", "CSV_COLUMNS", "CsvPlan", "Invalid", "converter"]
