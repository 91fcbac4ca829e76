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
import operator
import re
from collections.abc import Callable, Iterable, Iterator
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


def _scaled(places: int, max_whole: int, what: str) -> Converter:
    """« 30000.5 » → 3000050 (cents) for places=2: digits, at most ``places`` decimals, no sign."""
    scale = 10**places

    def convert(text: str) -> int:
        whole, dot, fraction = text.partition(".")
        if (whole.isascii() and whole.isdigit() and len(whole) <= max_whole
                and (not dot or (fraction.isascii() and fraction.isdigit() and len(fraction) <= places))):
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
        return _scaled(2, 12, "an amount in euros ≥ 0 with at most 2 decimals (« 30000.00 »)")
    if column in QUANTITY_FIELDS:
        return _scaled(3, 9, "a number ≥ 0 with at most 3 decimals (« 12.5 »)")
    if column == "vehicle_co2_g_per_km":
        return _integer(0, 1000)
    if column == "lease_duration_months":
        return _integer(1, 600)
    if column == "schemes":
        return _schemes
    raise AssertionError(column)  # pragma: no cover - every row field is covered


# Each column converts a text once and remembers it: enums, booleans, dates, CO2, schemes and rounded
# distances repeat, and a dictionary look-up costs a tenth of a conversion. A row whose every
# remembered column hits is read with C-level calls only (``map(dict.__getitem__, …)``); any other
# row — a new text, an invalid cell — takes the checked path, which converts, remembers and lists
# every error. Prices and quantities, which repeat less, are looked up one by one.
_REMEMBERED = 20_000  # texts per column (a day of 1970–2030 is 22 000 texts: the common ones fit)
_CONVERTED = (*MONEY_FIELDS, *QUANTITY_FIELDS)


class CsvPlan:
    """The header of a CSV input, checked, and how its lines' cells become rows."""

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
        defaults: list[Any] = [f.default for f in Row.__dataclass_fields__.values()][:len(ROW_FIELDS)]
        defaults[0] = None  # acquisition: required, no default
        self.defaults = defaults
        self.cells: list[tuple[int, str, int, dict[str, Any], Converter]] = []
        for i, c in enumerate(header):
            if c != "id":
                # An empty cell is the field's default, except for « acquisition » (required: a miss).
                self.cells.append((i, c, ROW_FIELDS.index(c), {} if c == "acquisition" else {"": defaults[ROW_FIELDS.index(c)]},
                                   converter(c)))
        remembered = [cell for cell in self.cells if cell[1] not in _CONVERTED]
        self.converted = [(i, known, convert, defaults[slot]) for i, c, slot, known, convert in self.cells
                          if c in _CONVERTED]
        self.known = [cell[3] for cell in remembered]
        self.take = operator.itemgetter(*(cell[0] for cell in remembered))
        # Row fields in order, from [remembered values…, converted values…, defaults…].
        order = [cell[2] for cell in remembered] + [ROW_FIELDS.index(header[i]) for i, _, _, _ in self.converted]
        spare = [k for k in range(len(ROW_FIELDS)) if k not in order]
        self.constants = [defaults[k] for k in spare]
        position = {slot: n for n, slot in enumerate(order + spare)}
        self.arrange = operator.itemgetter(*(position[k] for k in range(len(ROW_FIELDS))))
        self.scrapped_facts = [i for i, c in enumerate(header) if c in SCRAPPED_FACTS]
        self.any_scrapped = operator.itemgetter(*self.scrapped_facts) if self.scrapped_facts else None
        self.scrapped_flag = header.index("scrapped_vehicle") if "scrapped_vehicle" in header else None
        self.scrapped_slot = ROW_FIELDS.index("scrapped_vehicle")

    def row(self, cells: list[str]) -> Row:
        """The row these cells describe; :class:`Invalid` lists every cell that does not validate."""
        if len(cells) != self.width:
            raise Invalid(f"the line has {len(cells)} fields, the header {self.width}")
        try:
            values = list(map(dict.__getitem__, self.known, self.take(cells)))
            append = values.append
            for index, known, convert, default in self.converted:
                text = cells[index]
                if text:
                    value = known.get(text)
                    if value is None:
                        value = convert(text)
                        if len(known) < _REMEMBERED:
                            known[text] = value
                    append(value)
                else:
                    append(default)
        except (KeyError, Invalid):
            return self.checked_row(cells)
        row = Row(*self.arrange(values + self.constants))
        if self.any_scrapped is not None and any(self.any_scrapped(cells)):
            if row.scrapped_vehicle is False and self.scrapped_flag is not None and cells[self.scrapped_flag]:
                return self.checked_row(cells)  # « false » with scrapped facts: the checked path says why
            row.scrapped_vehicle = True
        return row

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
                    if len(known) < _REMEMBERED:
                        known[text] = value
                values[slot] = value
        if values[0] is None:
            errors = (errors or []) + ["acquisition: required (purchase or lease)"]
        for i in self.scrapped_facts:
            if cells[i]:
                if self.scrapped_flag is not None and cells[self.scrapped_flag] == "false":
                    errors = (errors or []) + ["scrapped_vehicle: false, but scrapped_* facts are given"]
                values[self.scrapped_slot] = True
                break
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
_FIELDS: dict[str | None, str] = {None: ""}  # a text as a CSV field (quoted when it must be), remembered


def csv_field(text: str | None) -> str:
    """``text`` as one CSV field: quoted (inner quotes doubled) when it holds a comma, a quote or a newline."""
    field = _FIELDS.get(text)
    if field is None:
        assert text is not None
        field = text
        if "," in text or '"' in text or "\n" in text or "\r" in text:
            field = '"' + text.replace('"', '""') + '"'
        if len(_FIELDS) < 10_000:
            _FIELDS[text] = field
    return field


def csv_lines(line: int, ident: str, outcomes: list[Outcome]) -> str:
    """One output line per scheme (the csv module's quoting, written out: 3× faster than csv.writer here)."""
    if "," in ident or '"' in ident or "\n" in ident or "\r" in ident:
        ident = '"' + ident.replace('"', '""') + '"'
    head = f"{line},{ident},"
    return "".join(
        f"{head}{scheme},{status},{'' if amount is None else euros(amount)},{_ELIGIBLE[eligible]},"
        f"{csv_field(version_id)},{csv_field(paragraph)},{csv_field(kept)},\n"
        for scheme, status, amount, eligible, version_id, paragraph, kept in outcomes)


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


def records(data: bytes, first_line: int, *, csv_quotes: bool) -> Iterator[tuple[int, str]]:
    """(line number, record text) of a block of whole lines; a CSV record runs on while a quote is open."""
    number, start, pending = first_line - 1, 0, ""
    for text in data.decode("utf-8", "replace").split("\n"):
        number += 1
        if pending:
            pending += "\n" + text
            if pending.count('"') % 2 == 0:
                yield start, pending
                pending = ""
        elif csv_quotes and '"' in text and text.count('"') % 2:
            start, pending = number, text
        elif text:
            yield number, text
    if pending:
        yield start, pending


def _cells(record: str) -> list[str]:
    """The fields of one CSV record: a plain split when it has no quote (the common case), else the csv module."""
    if '"' not in record:
        return record.rstrip("\r").split(",")
    try:
        return next(csv.reader((record,)), [])
    except csv.Error as exc:
        raise Invalid(f"not a CSV line: {exc}") from None


def run_csv_chunk(engine: Engine, plan: CsvPlan, first_line: int, data: bytes) -> ChunkResult:
    """Validate and compute a block of CSV lines (``first_line`` is the number of its first line)."""
    result, out = ChunkResult(), io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    write, write_text, before = writer.writerow, out.write, engine.fallbacks
    id_index, outcomes_of, row_of = plan.id_index, engine.outcomes, plan.row
    for line, record in records(data, first_line, csv_quotes=True):
        result.rows += 1
        ident = ""
        try:
            cells = _cells(record)
            if id_index is not None and id_index < len(cells):
                ident = cells[id_index]
            outcomes = outcomes_of(row_of(cells))
        except (Invalid, InvalidDates, ArithmeticError, ValueError) as exc:
            reason = _reason(exc)
            result.error(line, reason)
            write((line, ident, "", INVALID, "", "", "", "", "", reason))
            continue
        result.results += len(outcomes)
        write_text(csv_lines(line, ident, outcomes))
    result.text, result.fallbacks = out.getvalue(), engine.fallbacks - before
    return result


def run_jsonl_chunk(engine: Engine, first_line: int, data: bytes) -> ChunkResult:
    """Validate (with the request contract) and compute a block of JSON Lines."""
    result, out, before = ChunkResult(), [], engine.fallbacks
    for line, text in records(data, first_line, csv_quotes=False):
        if not text.strip():
            continue
        result.rows += 1
        try:
            outcomes = engine.outcomes(Row.from_purchase(to_purchase(parse_request(text))))
        except RequestError as exc:
            reason = "; ".join(f"{e['field']}: {e['message']}" for e in exc.errors)
        except (InvalidDates, ArithmeticError, ValueError) as exc:
            reason = _reason(exc)
        else:
            result.results += len(outcomes)
            out.extend(json_record(line, o) for o in outcomes)
            continue
        result.error(line, reason)
        out.append(json_record(line, None, reason))
    result.text, result.fallbacks = "".join(t + "\n" for t in out), engine.fallbacks - before
    return result


def _reason(exc: Exception) -> str:
    if isinstance(exc, InvalidDates):
        return f"{exc.field}: {exc}"
    if isinstance(exc, Invalid):
        return str(exc)
    return f"cannot be computed: {exc}"  # e.g. a date whose legal period runs past year 9999


__all__ = ["ALL_SCHEMES", "CSV_COLUMNS", "OUTPUT_COLUMNS", "ChunkResult", "CsvPlan", "Invalid", "records",
           "run_csv_chunk", "run_jsonl_chunk"]
