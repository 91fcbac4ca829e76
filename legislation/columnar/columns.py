"""The columns :func:`legislation.columnar.compute` reads: one numpy array per fact of a
:class:`~legislation.row.Row`, named as its fields (the CSV columns of ``vigueur batch``).

========================  ===================================================================================
fact                      array
========================  ===================================================================================
dates                     ``datetime64[D]``; ``NaT``: not given
enums                     the members' values as strings (``"passenger_car"``; ``""`` or None: not given), or
                          int codes: the member's index in ``tuple(EnumClass)`` (:data:`MEMBERS`), -1: not given
booleans                  ``bool``; nullable: int8 1 / 0 / -1 (not given), or a masked array
money                     int64 **cents** (``vehicle_acquisition_cost`` 30 000.00 € → 3 000 000)
kW, kWh, km               int64 **thousandths**, as in :class:`~legislation.row.Row`
g/km, months              int64
========================  ===================================================================================

Any column may be a ``numpy.ma.MaskedArray`` (masked: not given). An absent column is « not given » for every
row (``vehicle_battery_rental_cost``: 0, as the row's default; ``scrapped_vehicle``: true where a ``scrapped_*``
fact is given, false where none is — an empty enum cell or a NaT is not given). ``acquisition`` is required.
"""

from __future__ import annotations

import itertools
import typing
from collections.abc import Mapping
from dataclasses import MISSING, fields
from datetime import date
from enum import Enum
from typing import Any

import numpy as np

from legislation.columnar.symbolic import Column
from legislation.row import ROW_FIELDS, Row

_HINTS = typing.get_type_hints(Row)
EPOCH = date(1970, 1, 1).toordinal()


def _kind(name: str) -> tuple[str, tuple[Any, ...]]:
    hint = _HINTS[name]
    args = [a for a in typing.get_args(hint) if a is not type(None)] or [hint]
    base = args[0]
    if base is date:
        return "date", ()
    if base is bool:
        return "bool", (True, False)
    if isinstance(base, type) and issubclass(base, Enum):
        return "enum", tuple(base)
    return "int", ()


FACTS: dict[str, tuple[str, tuple[Any, ...]]] = {n: _kind(n) for n in ROW_FIELDS if n != "schemes"}
MEMBERS: dict[str, tuple[Any, ...]] = {n: m for n, (k, m) in FACTS.items() if k == "enum"}
DEFAULTS: dict[str, Any] = {f.name: (f.default if f.default is not MISSING else None) for f in fields(Row)}
SCRAPPED = tuple(n for n in FACTS if n.startswith("scrapped_") and n != "scrapped_vehicle")


class ColumnError(ValueError):
    """A column that is not of its fact's form (names the column)."""

    def __init__(self, name: str, problem: str) -> None:
        super().__init__(f"column {name}: {problem}")
        self.column = name


def normalise(columns: Mapping[str, Any]) -> tuple[int, dict[str, Column]]:
    """The number of rows and each given fact as a :class:`Column` (codes, ordinals, int64, null masks)."""
    unknown = sorted(set(columns) - set(FACTS) - {"schemes"})
    if unknown:
        raise ColumnError(unknown[0], f"not a fact of a row (facts: {', '.join(FACTS)})")
    sizes = {len(v) for v in columns.values()}
    if len(sizes) > 1:
        raise ColumnError(next(iter(columns)), f"columns of different lengths {sorted(sizes)}")
    if "acquisition" not in columns:
        raise ColumnError("acquisition", "required")
    n = sizes.pop()
    found = {name: _column(name, columns[name], n) for name in columns if name != "schemes"}
    if "scrapped_vehicle" not in found:
        given = [_given(c) for c in (found.get(s) for s in SCRAPPED) if c is not None]
        if given:
            every = [g for g in given if g is not None]
            flag = None if len(every) < len(given) else np.logical_or.reduce(every).astype(np.int8)
            codes = np.zeros(n, dtype=np.int8) if flag is None else 1 - flag  # True (0) where a fact is given
            found["scrapped_vehicle"] = Column("scrapped_vehicle", "bool", codes, None, (True, False))
    return n, found


def _given(column: Column) -> np.ndarray[Any, Any] | None:
    """Which rows give the fact (None: every row); an enum's « not given » is its code -1, not a mask."""
    if column.kind in ("enum", "bool"):
        given = column.values >= 0
        return None if given.all() else given
    return None if column.null is None else ~column.null


def _column(name: str, data: Any, n: int) -> Column:
    kind, members = FACTS[name]
    null: np.ndarray[Any, Any] | None = None
    if isinstance(data, np.ma.MaskedArray):
        null = np.ma.getmaskarray(data)
        data = data.filled(data.dtype.type(0) if data.dtype.kind in "iub" else None)
    array = np.asarray(data)
    try:
        if kind == "date":
            values, nat = _dates(array)
            null = nat if null is None else (null | nat)
        elif kind in ("enum", "bool"):
            values, missing = _codes(name, array, members)
            null = missing if null is None else null if missing is None else (null | missing)
            values = values.copy() if null is not None and values is array else values
            if null is not None:
                values[null] = -1
            null = None  # the codes say it (-1)
        else:
            if array.dtype.kind not in "iu":
                raise ColumnError(name, f"an integer column is expected (cents or thousandths), not {array.dtype}")
            # any signed width as given (the trace widens to int64 where a value may not fit); unsigned → int64
            values = array if array.dtype.kind == "i" else array.astype(np.int64)
            if array.dtype == np.uint64 and array.size and int(array.max()) >= 1 << 63:
                raise ColumnError(name, "a value does not fit int64")
    except (TypeError, ValueError, OverflowError) as exc:
        if isinstance(exc, ColumnError):
            raise
        raise ColumnError(name, str(exc)) from exc
    if null is not None and not null.any():
        null = None
    return Column(name, kind, values, null, members)


def _dates(array: np.ndarray[Any, Any]) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any] | None]:
    """Day ordinals (``date.toordinal``) as int32, in one pass; NaT: not given."""
    days = array.astype("datetime64[D]", copy=False)
    nat = np.isnat(days)
    ordinals = np.empty(days.shape, dtype=np.int32)
    np.add(days.view(np.int64), EPOCH, out=ordinals, casting="unsafe")  # years 1–9999 fit int32 (NaT: masked)
    return ordinals, (nat if nat.any() else None)


def _codes(
    name: str, array: np.ndarray[Any, Any], members: tuple[Any, ...]
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any] | None]:
    """int8 codes of an enum's members (or of True, False) from strings, codes or booleans."""
    if array.dtype.kind == "b":
        return (~array).astype(np.int8), None  # True → 0, False → 1
    if array.dtype.kind in "iu":
        low, high = (int(array.min()), int(array.max())) if array.size else (0, 0)
        if low < -1 or high >= len(members):
            raise ColumnError(name, f"codes are -1 (not given) or 0–{len(members) - 1}")
        codes = array.astype(np.int8, copy=False)
        return codes, (codes < 0 if low < 0 else None)
    texts, inverse = np.unique(array.astype(object), return_inverse=True)
    by_text = {(m.value if isinstance(m, Enum) else str(m).lower()): i for i, m in enumerate(members)}
    table = np.empty(len(texts), dtype=np.int8)
    for j, text in enumerate(texts):
        if text is None or text == "":
            table[j] = -1
        elif text in by_text:
            table[j] = by_text[text]
        else:
            raise ColumnError(name, f"{text!r} is not one of {', '.join(by_text)}")
    codes = table[inverse.reshape(-1)]
    missing = codes < 0
    return codes, (missing if missing.any() else None)


def rows_at(columns: Mapping[str, Column], rows: Any, schemes: list[tuple[Any, ...]]) -> list[Row]:
    """Rows ``rows`` (indices) as :class:`Row` objects, column by column (what the row engine computes)."""
    count = len(rows)
    given: dict[str, list[Any]] = {}
    for name, column in columns.items():
        if name not in FACTS:
            continue
        picked = column.values[rows]
        if column.kind in ("enum", "bool"):
            table = [None, *column.members]
            given[name] = [table[c + 1] for c in picked.tolist()]
            continue
        if column.kind == "date":
            values: list[Any] = [_date(v) for v in picked.tolist()]
        else:
            values = picked.tolist()
        if column.null is not None:
            values = [None if n else v for v, n in zip(values, column.null[rows].tolist(), strict=True)]
        given[name] = values
    lists: list[Any] = [
        given[name] if name in given else itertools.repeat(DEFAULTS[name], count) for name in ROW_FIELDS
    ]
    lists[ROW_FIELDS.index("schemes")] = schemes
    return [Row(*values) for values in zip(*lists, strict=False)]


_DATES: dict[int, date] = {}


def _date(ordinal: int) -> date | None:
    found = _DATES.get(ordinal)
    if found is None:
        if not 1 <= ordinal <= date.max.toordinal():
            return None  # a not-given date's filler (masked by its null)
        found = date.fromordinal(ordinal)
        if len(_DATES) < 100_000:
            _DATES[ordinal] = found
    return found


def row_at(columns: Mapping[str, Column], i: int, schemes: tuple[Any, ...]) -> Row:
    """Row ``i`` as a :class:`Row` (what the row engine computes when the columns do not decide it)."""
    values: dict[str, Any] = {}
    for name, column in columns.items():
        if column.kind in ("enum", "bool"):
            code = int(column.values[i])
            values[name] = None if code < 0 else column.members[code]
        elif column.null is not None and column.null[i]:
            values[name] = None
        elif column.kind == "date":
            values[name] = date.fromordinal(int(column.values[i]))
        else:
            values[name] = int(column.values[i])
    return Row(**values, schemes=schemes)


def from_rows(rows: list[Row]) -> dict[str, Any]:
    """The columns of some rows (tests, small batches): every fact, masked where a row does not give it."""
    found: dict[str, Any] = {}
    for name, (kind, members) in FACTS.items():
        values = [getattr(row, name) for row in rows]
        if kind in ("enum", "bool"):
            index = {m: i for i, m in enumerate(members)}
            found[name] = np.array([-1 if v is None else index[v] for v in values], dtype=np.int8)
        elif kind == "date":
            found[name] = np.array(
                [np.datetime64("NaT") if v is None else np.datetime64(v, "D") for v in values], dtype="datetime64[D]"
            )
        else:
            null = [v is None for v in values]
            data = np.array([0 if v is None else v for v in values], dtype=np.int64)
            found[name] = np.ma.MaskedArray(data, mask=null) if any(null) else data
    return found
