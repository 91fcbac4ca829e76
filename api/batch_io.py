"""Rows of `vigueur batch`: the CSV columns and their validation, the JSON Lines input, the output records.

A CSV row is validated column by column with the rules of the request contract (api/contract.py) and
becomes a flat :class:`legislation.fast.Row` directly — no pydantic model and no ``Purchase`` per row,
which would cost more than the calculation. A JSON Lines row *is* a request of the contract and goes
through :func:`api.contract.parse_request`. Either way a row that does not validate becomes one output
record with status ``invalid`` and the reason, and the run goes on.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable, Iterable
from datetime import date
from enum import Enum
from typing import Any

from api.contract import RequestError, parse_request
from api.service import to_purchase
from legislation import InvalidDates, Scheme
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
from legislation.fast import ROW_FIELDS, Engine, Outcome, Row
from legislation.fast.row import ALL_SCHEMES, MONEY_FIELDS, QUANTITY_FIELDS, shared_schemes

OUTPUT_COLUMNS = ("line", "id", "scheme", "status", "amount", "eligible", "version_id", "paragraph",
                  "kept_version_id", "error")
INVALID = "invalid"

# -- CSV columns ---------------------------------------------------------------------------------------

ENUMS: dict[str, type[Enum]] = {
    "acquisition": Acquisition, "vehicle_category": VehicleCategory, "vehicle_energy": Energy,
    "vehicle_power_basis": PowerBasis, "vehicle_euro_standard": EuroStandard, "vehicle_critair": CritAir,
    "vehicle_van_class": VanClass, "buyer_person_kind": PersonKind, "scrapped_energy": Energy,
    "scrapped_category": VehicleCategory,
}
DATES = ("order_date", "invoice_date", "first_rent_date", "vehicle_first_registration_date",
         "scrapped_first_registration_date", "scrapped_owned_since", "scrapped_destruction_date")
BOOLEANS = ("vehicle_uses_lead_battery", "vehicle_previously_registered", "vehicle_new_registration_system",
            "vehicle_wheelchair_accessible", "buyer_income_tax_nil", "scrapped_vehicle")
SCRAPPED_FACTS = tuple(n for n in ROW_FIELDS if n.startswith("scrapped_") and n != "scrapped_vehicle")
CSV_COLUMNS = ("id", *ROW_FIELDS)

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_MONEY = re.compile(r"(\d{1,12})(?:\.(\d{1,2}))?")  # contract: ≥ 0, at most 14 digits, 2 decimals
_QUANTITY = re.compile(r"(\d{1,9})(?:\.(\d{1,3}))?")  # contract: ≥ 0, at most 12 digits, 3 decimals
_INTEGER = re.compile(r"\d{1,4}")


class Invalid(ValueError):
    """A cell that does not validate; the message says why (the column is added by the caller)."""


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


_DAYS: dict[str, date] = {}  # the same day parsed once (and the same date object: its hash is cached)


def _date(text: str) -> date:
    found = _DAYS.get(text)
    if found is not None:
        return found
    if not _DATE.fullmatch(text):
        raise Invalid(f"{text!r} is not a date YYYY-MM-DD")
    try:
        day = date.fromisoformat(text)
    except ValueError:
        raise Invalid(f"{text!r} is not a date of the calendar") from None
    if len(_DAYS) < 100_000:
        _DAYS[text] = day
    return day


def _scaled(pattern: re.Pattern[str], places: int, what: str) -> Converter:
    def convert(text: str) -> int:
        match = pattern.fullmatch(text)
        if match is None:
            raise Invalid(f"{text!r} is not {what}")
        whole, fraction = match.groups()
        return int(whole + (fraction or "").ljust(places, "0"))
    return convert


def _integer(low: int, high: int) -> Converter:
    def convert(text: str) -> int:
        if not _INTEGER.fullmatch(text) or not low <= int(text) <= high:
            raise Invalid(f"{text!r} is not an integer from {low} to {high}")
        return int(text)
    return convert


def _boolean(text: str) -> bool:
    if text == "true":
        return True
    if text == "false":
        return False
    raise Invalid(f"{text!r} is not true or false")


_SCHEMES = {s.value: s for s in Scheme}


def _schemes(text: str) -> tuple[Scheme, ...]:
    try:
        schemes = tuple(dict.fromkeys(_SCHEMES[s] for s in text.split("|")))
    except KeyError:
        raise Invalid(f"{text!r}: schemes are {' or '.join(_SCHEMES)}, separated by |") from None
    return shared_schemes(schemes)


def converter(column: str) -> Converter:
    """How one CSV column's text becomes the row's value."""
    if column in ENUMS:
        return _enum_converter(ENUMS[column])
    if column in DATES:
        return _date
    if column in BOOLEANS:
        return _boolean
    if column in MONEY_FIELDS:
        return _scaled(_MONEY, 2, "an amount in euros ≥ 0 with at most 2 decimals (« 30000.00 »)")
    if column in QUANTITY_FIELDS:
        return _scaled(_QUANTITY, 3, "a number ≥ 0 with at most 3 decimals (« 12.5 »)")
    if column == "vehicle_co2_g_per_km":
        return _integer(0, 1000)
    if column == "lease_duration_months":
        return _integer(1, 600)
    if column == "schemes":
        return _schemes
    raise AssertionError(column)  # pragma: no cover - every row field is covered


class CsvPlan:
    """The header of a CSV input, checked, and how each of its columns is read."""

    def __init__(self, header: list[str]) -> None:
        unknown = [c for c in header if c not in CSV_COLUMNS]
        if unknown:
            raise Invalid(f"unknown column(s) {', '.join(map(repr, unknown))}; allowed: {', '.join(CSV_COLUMNS)}")
        if len(set(header)) != len(header):
            raise Invalid("a column appears twice in the header")
        if "acquisition" not in header:
            raise Invalid("the header has no « acquisition » column (purchase or lease), which every row needs")
        self.width = len(header)
        self.id_index = header.index("id") if "id" in header else None
        self.cells = [(i, c, ROW_FIELDS.index(c), converter(c)) for i, c in enumerate(header) if c != "id"]
        self.scrapped_facts = [i for i, c in enumerate(header) if c in SCRAPPED_FACTS]
        self.scrapped_flag = header.index("scrapped_vehicle") if "scrapped_vehicle" in header else None
        self.defaults: list[Any] = [f.default for f in Row.__dataclass_fields__.values()][:len(ROW_FIELDS)]
        self.defaults[0] = None  # acquisition: required, no default

    def row(self, cells: list[str]) -> Row:
        """The row these cells describe; :class:`Invalid` lists every cell that does not validate."""
        if len(cells) != self.width:
            raise Invalid(f"the line has {len(cells)} fields, the header {self.width}")
        values = self.defaults.copy()
        errors = None
        for index, column, slot, convert in self.cells:
            text = cells[index]
            if text:
                try:
                    values[slot] = convert(text)
                except Invalid as exc:
                    errors = (errors or []) + [f"{column}: {exc}"]
        if values[0] is None:
            errors = (errors or []) + ["acquisition: required (purchase or lease)"]
        if self.scrapped_facts and any(cells[i] for i in self.scrapped_facts):
            if self.scrapped_flag is not None and cells[self.scrapped_flag] == "false":
                errors = (errors or []) + ["scrapped_vehicle: false, but scrapped_* facts are given"]
            values[ROW_FIELDS.index("scrapped_vehicle")] = True
        if errors:
            raise Invalid("; ".join(errors))
        return Row(*values)


# -- outcomes to records ---------------------------------------------------------------------------

_AMOUNTS: dict[int, str] = {}


def euros(cents: int) -> str:
    """« 700000 » cents → « 7000.00 » (the JSON contract's amount string)."""
    text = _AMOUNTS.get(cents)
    if text is None:
        text = f"{cents // 100}.{cents % 100:02d}"
        if len(_AMOUNTS) < 100_000:
            _AMOUNTS[cents] = text
    return text


_ELIGIBLE = {True: "true", False: "false", None: ""}


def csv_records(line: int, ident: str, outcomes: list[Outcome]) -> Iterable[tuple[Any, ...]]:
    for scheme, status, amount, eligible, version_id, paragraph, kept in outcomes:
        yield (line, ident, scheme, status, "" if amount is None else euros(amount), _ELIGIBLE[eligible],
               version_id or "", paragraph or "", kept or "", "")


def json_record(line: int, outcome: Outcome | None, error: str | None = None) -> str:
    if outcome is None:
        doc: dict[str, Any] = {"line": line, "scheme": None, "status": INVALID, "amount": None, "eligible": None,
                               "version_id": None, "paragraph": None, "kept_version_id": None, "error": error}
    else:
        scheme, status, amount, eligible, version_id, paragraph, kept = outcome
        doc = {"line": line, "scheme": scheme, "status": status, "amount": None if amount is None else euros(amount),
               "eligible": eligible, "version_id": version_id, "paragraph": paragraph, "kept_version_id": kept,
               "error": None}
    return json.dumps(doc, ensure_ascii=False)


# -- one chunk of input lines to output text ---------------------------------------------------------


class ChunkResult:
    """What a chunk gave: the output text and the counts for the summary."""

    __slots__ = ("text", "rows", "results", "invalid", "fallbacks", "first_error")

    def __init__(self) -> None:
        self.text = ""
        self.rows = self.results = self.invalid = self.fallbacks = 0
        self.first_error: str | None = None

    def error(self, line: int, reason: str) -> None:
        self.invalid += 1
        if self.first_error is None:
            self.first_error = f"line {line}: {reason}"


def run_csv_chunk(engine: Engine, plan: CsvPlan, lines: list[int], records: list[str]) -> ChunkResult:
    """Validate and compute CSV records (their text, and the line each starts on)."""
    result, out = ChunkResult(), io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    write, before = writer.writerow, engine.fallbacks
    id_index = plan.id_index
    for line, cells in zip(lines, csv.reader(records), strict=True):
        if not cells:
            continue
        result.rows += 1
        ident = cells[id_index] if id_index is not None and id_index < len(cells) else ""
        try:
            outcomes = engine.outcomes(plan.row(cells))
        except (Invalid, InvalidDates) as exc:
            reason = f"{exc.field}: {exc}" if isinstance(exc, InvalidDates) else str(exc)
            result.error(line, reason)
            write((line, ident, "", INVALID, "", "", "", "", "", reason))
            continue
        result.results += len(outcomes)
        writer.writerows(csv_records(line, ident, outcomes))
    result.text, result.fallbacks = out.getvalue(), engine.fallbacks - before
    return result


def run_jsonl_chunk(engine: Engine, lines: list[int], records: list[str]) -> ChunkResult:
    """Validate (with the request contract) and compute JSON Lines records."""
    result, out, before = ChunkResult(), [], engine.fallbacks
    for line, text in zip(lines, records, strict=True):
        if not text.strip():
            continue
        result.rows += 1
        try:
            outcomes = engine.outcomes(Row.from_purchase(to_purchase(parse_request(text))))
        except RequestError as exc:
            reason = "; ".join(f"{e['field']}: {e['message']}" for e in exc.errors)
        except InvalidDates as exc:
            reason = f"{exc.field}: {exc}"
        else:
            result.results += len(outcomes)
            out.extend(json_record(line, o) for o in outcomes)
            continue
        result.error(line, reason)
        out.append(json_record(line, None, reason))
    result.text, result.fallbacks = "".join(t + "\n" for t in out), engine.fallbacks - before
    return result


__all__ = ["ALL_SCHEMES", "CSV_COLUMNS", "OUTPUT_COLUMNS", "ChunkResult", "CsvPlan", "Invalid", "run_csv_chunk",
           "run_jsonl_chunk"]
