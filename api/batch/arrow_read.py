"""The Arrow reading of `vigueur batch`: a block of CSV lines (or a Parquet record batch) to numpy columns.

A block's lines are sorted first, with numpy over its bytes: a line holding a quote, a control character, bytes
that are not UTF-8 or a number of fields other than the header's is *suspect* and goes to the row path
(:mod:`api.batch.lines` and :class:`~api.batch.csv_rows.CsvPlan`, which read it exactly as before and word its
errors); the usual block, every line clean, is told by a few counts over its bytes and read at once. The other
lines are parsed by ``pyarrow.csv`` as strings, and each column is converted by :mod:`api.batch.arrow_cells`, with
the very converter of :mod:`api.batch.csv_rows` or readings tested equivalent to it. A cell that does not convert
makes its row suspect: the row path re-reads it and gives the same message, naming the row and the column, as the
reading without Arrow. When the optional C module is built (api/batch/split_c.c; VIGUEUR_NO_C=1 turns it off), a
clean block is cut into its columns by it instead of Arrow: see :func:`c_reading`.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from enum import Enum
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from api.batch.arrow_cells import all_empty, by_distinct, c_reading, scaled, seen_texts, split_c, text_buffers
from api.batch.csv_rows import CsvPlan
from legislation.columnar.columns import DEFAULTS, FACTS, MEMBERS, SCRAPPED
from legislation.row import MONEY_FIELDS, QUANTITY_FIELDS, SCHEME_TUPLES

Bool = npt.NDArray[np.bool_]
Ints = npt.NDArray[np.int64]

# bytes that make a line suspect: a quote, DEL, and the C0 controls but the tab and the line feed (a carriage return
# ending a line is cleared after)
_SUSPECT_BYTE = np.zeros(256, dtype=np.bool_)
_SUSPECT_BYTE[[34, 127, *range(0, 9), *range(11, 32)]] = True
EPOCH = np.datetime64("1970-01-01", "D")
_PASS = 1 << 18  # bytes counted at once by plain_lines


@dataclass(slots=True)
class Lines:
    """The non-empty lines of a block: their numbers, which are suspect, and the clean ones' bytes for Arrow."""

    numbers: Ints  # line number of each row (non-empty line) of the block
    suspect: list[tuple[int, bytes]]  # (row index in the block, the raw line) read by the row path
    clean: npt.NDArray[np.intp]  # row indices of the clean lines, in order
    clean_bytes: bytes = b""


def read_plain(data: bytes, first_line: int, names: Sequence[str]) -> tuple[Lines, pa.Table] | None:
    """The usual block — every line clean — read at once: its lines and their table of strings. None: the block
    needs :func:`split_lines`. With the optional C reading (:func:`c_reading`), a block it reads is not parsed by
    Arrow."""
    if c_reading():
        read = _read_in_c(data, first_line, names)
        if read is not None:
            return read
    lines = plain_lines(data, first_line, len(names))
    if lines is None:
        return None
    try:
        table = read_strings(lines.clean_bytes, names)
    except pa.ArrowInvalid:  # a line with a field too many or too few
        return None
    if table.num_rows != len(lines.clean):  # an empty line, which Arrow skips
        return None
    return lines, table


def plain_lines(data: bytes, first_line: int, width: int) -> Lines | None:
    """A block's lines if it looks clean, checked with a few passes of C over its bytes: no quote, no control
    character (but a CRLF's), UTF-8 — its lines numbered in order. None: the block needs :func:`split_lines`. The
    number of fields of each line, and empty lines, are left to :func:`read_plain`: Arrow refuses the first and
    skips the second (then it reads fewer rows than there are lines)."""
    if width < 1 or not data or b'"' in data or b"\x7f" in data:
        return None
    buf = np.frombuffer(data, dtype=np.uint8)
    newlines = controls = 0
    for start in range(0, len(buf), _PASS):  # by parts: the temporaries stay small (and in the cache)
        part = buf[start : start + _PASS]
        newlines += int(np.count_nonzero(part == 10))
        controls += int(np.count_nonzero(part < 32))
    controls -= newlines
    if controls:  # a tab, or a carriage return ending a line (CRLF), is clean
        returns = data.count(b"\r")
        if controls != data.count(b"\t") + returns or returns != data.count(b"\r\n"):
            return None
    if not _utf8(data):
        return None
    rows = np.arange(newlines + (0 if data.endswith(b"\n") else 1))
    return Lines(first_line + rows.astype(np.int64), [], rows, data)


def _utf8(data: bytes) -> bool:
    if data.isascii():
        return True
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


# The optional C reading (api/batch/split_c.c, built by ``pip install`` when a C compiler is there): a clean block cut
# into its columns in one pass, the columns that are read by their distinct texts (:func:`arrow_cells.by_distinct`)
# as codes into those texts, the others (amounts, quantities, the id, the expected amount) as Arrow strings. Without
# the module, or with VIGUEUR_NO_C set (to 1, or any non-empty text), the block is parsed by Arrow
# (:func:`arrow_cells.c_reading`).


def by_codes(name: str) -> bool:
    """Whether a column (by its name in the header, :func:`csv_rows.column_name`'s) is read as codes into its distinct
    texts (:func:`arrow_cells.by_distinct`): a fact or the schemes, but amounts and quantities (read from their
    bytes), the id and an expected amount (strings)."""
    return (name in FACTS or name == "schemes") and name not in MONEY_FIELDS and name not in QUANTITY_FIELDS


class _Reader:
    """The C module's Encoder for one header, and the texts (an Arrow array) it holds for each dictionary column."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = list(names)
        self.dictionary = [by_codes(n) for n in names]
        self.encoder = split_c.Encoder(b"".join(b"d" if d else b"p" for d in self.dictionary))
        self.texts: list[pa.Array] = [_NO_TEXT] * len(names)

    def read(self, data: bytes, first_line: int) -> tuple[Lines, pa.Table] | None:
        for j in range(len(self.names)):
            if self.dictionary[j]:
                self._seeded(j)
        split = self.encoder.split(data)
        if split is None:
            return None
        rows, parts = split
        columns = []
        for j, part in enumerate(parts):
            if self.dictionary[j]:
                columns.append(self._codes(j, rows, *part))
            else:
                offsets, text = part
                columns.append(
                    pa.Array.from_buffers(pa.string(), rows, [None, pa.py_buffer(offsets), pa.py_buffer(text)])
                )
        numbers = np.arange(rows)
        return Lines(first_line + numbers, [], numbers, data), pa.table(columns, names=self.names)

    def recode(self, j: int, column: pa.Array | pa.ChunkedArray) -> pa.DictionaryArray | None:
        """A column read as its dictionaries (a Parquet column read with ``read_dictionary``: each row group's own) as
        codes into this column's texts read so far, as a CSV block's, null as « » — no dictionaries unified, no text
        looked up twice; the C module reads its chunks through Arrow's C stream (measured on 1 000 000 rows in row
        groups of 4 475: ~0.3 CPU-s less than the join). None where the C module does not take it (indices other than
        int32, texts other than utf8, a null text, an index outside its dictionary): the caller joins the dictionaries
        instead (:func:`_dictionary_texts`)."""
        chunked = column if isinstance(column, pa.ChunkedArray) else pa.chunked_array([column])
        kind = chunked.type
        if not pa.types.is_dictionary(kind) or kind.index_type != pa.int32() or kind.value_type != pa.string():
            return None
        self._seeded(j)
        found = self.encoder.recode(j, chunked.__arrow_c_stream__(), len(chunked))
        if found is None:
            return None
        codes, offsets, text = found
        return self._codes(j, len(chunked), codes, offsets, text)

    def _seeded(self, j: int) -> None:
        """The Encoder's texts of dictionary column ``j`` made those read so far (arrow_cells._SEEN)."""
        known = seen_texts(self.names[j])
        if self.encoder.size(j) != len(self.texts[j]) or not known.equals(self.texts[j]):
            offsets, text = text_buffers(known)
            self.encoder.seed(j, offsets, text)
            self.texts[j] = known

    def _codes(self, j: int, rows: int, codes: bytes, offsets: bytes, text: bytes) -> pa.DictionaryArray:
        """A dictionary column's codes (int64) as a DictionaryArray over its texts, those met first (``offsets``,
        ``text``) after the others."""
        if len(offsets) > 4:
            new = pa.Array.from_buffers(
                pa.string(), len(offsets) // 4 - 1, [None, pa.py_buffer(offsets), pa.py_buffer(text)]
            )
            self.texts[j] = pa.concat_arrays([self.texts[j], new])
        indices = pa.Array.from_buffers(pa.int64(), rows, [None, pa.py_buffer(codes)])
        return pa.DictionaryArray.from_arrays(indices, self.texts[j], safe=False)


_NO_TEXT = pa.array([], pa.string())
_READERS: dict[tuple[str, ...], _Reader] = {}


def _read_in_c(data: bytes, first_line: int, names: Sequence[str]) -> tuple[Lines, pa.Table] | None:
    """A clean block read by the C module (None: it is not, or the C module refused it; the caller reads it)."""
    if not _utf8(data):
        return None
    reader = _reader(names)
    return None if reader is None else reader.read(data, first_line)


def _reader(names: Sequence[str]) -> _Reader | None:
    """The C module's reader of a header (None: no C reading, or a header it does not take)."""
    if not c_reading() or len(names) < 1 or len(set(names)) != len(names):
        return None
    reader = _READERS.get(tuple(names))
    if reader is None:
        reader = _READERS[tuple(names)] = _Reader(names)
    return reader


def split_lines(data: bytes, first_line: int, width: int) -> Lines:
    """Sort a block's lines (see the module's docstring); ``width``: the header's number of fields."""
    buf = np.frombuffer(data, dtype=np.uint8)
    newlines = np.flatnonzero(buf == 10)
    ends = newlines if data.endswith(b"\n") else np.append(newlines, len(buf))
    starts = np.empty(len(ends), dtype=np.int64)
    starts[0:1] = 0
    starts[1:] = ends[:-1] + 1
    lengths = ends - starts
    bad = _SUSPECT_BYTE[buf]  # one look-up per byte (no temporary per condition: memory stays low)
    returns = np.flatnonzero(buf == 13)
    if returns.size:  # a carriage return ending a line (CRLF) is read as the line's end, as before
        before_newline = returns[(returns + 1 < len(buf))]
        before_newline = before_newline[buf[before_newline + 1] == 10]
        bad[before_newline] = False
    if not data.isascii():
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            bad |= buf >= 128  # a line that is not UTF-8: the row path names the column of the first bad byte
    suspect = np.zeros(len(ends), dtype=np.bool_)
    positions = np.flatnonzero(bad)
    if positions.size:
        suspect[np.searchsorted(starts, positions, side="right") - 1] = True
    # commas per line (an empty line's start is its own line feed: 0)
    fields = np.add.reduceat((buf == 44).view(np.uint8), np.minimum(starts, len(buf) - 1), dtype=np.int32) + 1
    nonempty = lengths > 0
    suspect |= nonempty & (fields != width)
    # a line that is only « \r »: Arrow would skip it as empty, the row path reports it (one field)
    suspect |= (lengths == 1) & (buf[np.minimum(starts, max(len(buf) - 1, 0))] == 13)
    rows = np.flatnonzero(nonempty)
    numbers = first_line + rows.astype(np.int64)
    row_of_line = np.full(len(ends), -1, dtype=np.int64)
    row_of_line[rows] = np.arange(len(rows))
    suspect_lines = np.flatnonzero(suspect)
    suspects = [(int(row_of_line[k]), data[starts[k] : ends[k]]) for k in suspect_lines.tolist()]
    clean_rows = np.flatnonzero(~suspect[rows])
    if not suspect_lines.size:
        return Lines(numbers, suspects, clean_rows, data)
    keep = ~suspect
    # runs of kept lines, joined (the suspect lines cut out)
    edges = np.flatnonzero(np.diff(np.concatenate(([0], keep.view(np.int8), [0]))))
    parts = []
    for first, stop in zip(edges[0::2].tolist(), edges[1::2].tolist(), strict=True):
        chunk = data[starts[first] : ends[stop - 1]]
        parts.append(chunk + b"\n")
    return Lines(numbers, suspects, clean_rows, b"".join(parts))


def read_strings(data: bytes, names: Sequence[str]) -> pa.Table:
    """Clean CSV lines (no quote, the header's number of fields) as a table of strings (empty: « »; an empty line
    is skipped), in parts of about ``_PART`` bytes. ``data`` is UTF-8 — :func:`plain_lines` and
    :func:`split_lines` made sure — so Arrow does not check it again. A line of another number of fields raises
    ``pyarrow.ArrowInvalid``."""
    try:
        return _read_csv(data, names, _PART)
    except pa.ArrowInvalid:
        if len(data) <= _PART:
            raise
        return _read_csv(data, names, len(data) + 1)  # a line longer than a part: in one part (or a line refused)


# Arrow parses and converts a part at a time: the values parsed stay in the processor's cache while each column is
# converted (measured on 16 MB blocks, one process: 80 ms a block in one part, 47-52 ms in parts of 0.5 to 2 MB,
# the chunks joined; not checking UTF-8 again: 108 -> 87 ms).
_PART = 1 << 20


def _read_csv(data: bytes, names: Sequence[str], part: int) -> pa.Table:
    return pacsv.read_csv(
        io.BytesIO(data),
        read_options=pacsv.ReadOptions(column_names=list(names), block_size=part, use_threads=False),
        parse_options=pacsv.ParseOptions(quote_char=False, newlines_in_values=False),
        convert_options=pacsv.ConvertOptions(
            column_types={n: pa.string() for n in names},
            strings_can_be_null=False,
            quoted_strings_can_be_null=False,
            check_utf8=False,
        ),
    )


def as_strings(batch: pa.RecordBatch | pa.Table, names: Sequence[str] | None = None) -> pa.Table:
    """A Parquet batch's columns as the texts of a CSV cell: dates ``YYYY-MM-DD``, booleans ``true``/``false``,
    integers and decimals as written, null as « » — then read exactly as CSV cells (the same checks, the same
    messages). ``names``: the columns' names as the header's (:func:`csv_rows.column_name`), for the C reading's
    codes (a column read as its dictionaries: :meth:`_Reader.recode`)."""
    reader = _reader(names) if names is not None else None
    columns = []
    for j, column in enumerate(batch.columns):
        kind = column.type
        if pa.types.is_dictionary(kind) and pa.types.is_string(kind.value_type):
            # (read as codes: RowGroups.read) kept as codes
            codes = reader.recode(j, column) if reader is not None and reader.dictionary[j] else None
            columns.append(codes if codes is not None else _dictionary_texts(column))
            continue
        if pa.types.is_dictionary(kind):
            column = column.cast(kind.value_type)
            kind = kind.value_type
        if pa.types.is_boolean(kind):
            text = pc.if_else(column, "true", "false")
        elif pa.types.is_timestamp(kind):
            text = pc.strftime(column, format="%Y-%m-%d")
        else:
            text = column.cast(pa.string())
        columns.append(_empty_for_null(text))
    return pa.table(columns, names=batch.schema.names)


def _empty_for_null(text: pa.Array | pa.ChunkedArray) -> pa.Array | pa.ChunkedArray:
    """The texts, null as « »: where a null cell holds no byte (as Arrow's readers leave them) its validity is only
    dropped (no copy of the texts: measured 0.1 CPU-s a million rows of Parquet); else ``fill_null``."""
    if isinstance(text, pa.ChunkedArray):
        return pa.chunked_array([_empty_for_null(chunk) for chunk in text.chunks], pa.string())
    if not text.null_count:
        return text
    if text.type != pa.string():
        return pc.fill_null(text, "")
    offsets, _ = text_buffers(text)
    if (np.diff(offsets)[~np.asarray(text.is_valid())] != 0).any():
        return pc.fill_null(text, "")
    buffers = text.buffers()
    return pa.Array.from_buffers(pa.string(), len(text), [None, buffers[1], buffers[2]], offset=text.offset)


def _dictionary_texts(column: pa.Array | pa.ChunkedArray) -> pa.DictionaryArray:
    """A column of codes into texts (a Parquet column read as its dictionary), its parts joined (their dictionaries
    unified) and null as « »: one DictionaryArray, converted once per distinct text (:func:`arrow_cells._by_codes`),
    without the texts of every cell made."""
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks() if column.num_chunks else pa.array([], column.type)
    indices, texts = column.indices.cast(pa.int32()), column.dictionary
    if column.null_count:
        empty = pc.index(texts, "").as_py()
        if empty < 0:
            texts, empty = pa.concat_arrays([texts, pa.array([""], texts.type)]), len(texts)
        indices = pc.fill_null(indices, pa.scalar(empty, pa.int32()))
    return pa.DictionaryArray.from_arrays(indices, texts)


def unreadable_type(kind: pa.DataType) -> bool:
    """A Parquet column type whose values are not a cell's text (lists, structs, maps, binary…)."""
    if pa.types.is_dictionary(kind):
        kind = kind.value_type
    readable = (
        pa.types.is_string(kind)
        or pa.types.is_large_string(kind)
        or pa.types.is_boolean(kind)
        or pa.types.is_integer(kind)
        or pa.types.is_decimal(kind)
        or pa.types.is_floating(kind)
        or pa.types.is_date(kind)
        or pa.types.is_timestamp(kind)
        or pa.types.is_null(kind)
    )
    return not readable


@dataclass(slots=True)
class Converted:
    """The columns for :func:`legislation.columnar.compute` and the rows whose cells did not all convert."""

    columns: dict[str, Any]
    bad: Bool  # a cell did not convert: the row path re-reads the row and words the error
    expected: npt.NDArray[np.int64] | None = None  # cents of the expected-amount column
    expected_known: Bool | None = None
    day: npt.NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, dtype=np.int64))  # decisive day ordinal
    eventful: Bool = field(default_factory=lambda: np.zeros(0, dtype=np.bool_))  # leases of décret 2007-1873
    dates: npt.NDArray[np.int64] = field(default_factory=lambda: np.zeros((3, 0), dtype=np.int64))


def convert(table: pa.Table, plan: CsvPlan, expect: str | None, until: date = date.min) -> Converted:
    """Every column of ``table`` (the plan's header, strings) converted; see the module's docstring."""
    n = table.num_rows
    bad = np.zeros(n, dtype=np.bool_)
    columns: dict[str, Any] = {}
    for name in plan.header:
        if name == "id":
            continue
        column = table.column(name)
        if name != "acquisition" and all(all_empty(c) for c in column.chunks):  # no row gives it: the defaults
            columns[name] = _default_column(name, n)
            continue
        if name in MONEY_FIELDS:
            values, known, wrong = scaled(column.combine_chunks(), 2)
            values = _with_default(name, values, known)
        elif name in QUANTITY_FIELDS:
            values, known, wrong = scaled(column.combine_chunks(), 3)
            values = _with_default(name, values, known)
        else:
            values, wrong = by_distinct(name, column)  # (Arrow's look-up reads the parts: not joined)
        bad |= wrong
        columns[name] = values
    given = [columns[s] for s in SCRAPPED if s in columns]
    if given:  # scrapped facts given: there is a scrapped vehicle (« false » with them: the row path says why)
        any_given = np.logical_or.reduce([_given(v) for v in given])
        flag = columns.get("scrapped_vehicle")
        if flag is None:
            flag = np.where(any_given, 0, 1).astype(np.int8)  # True: code 0, False (the row's default): 1
        else:
            bad |= any_given & (flag == 1)
            flag = np.where(any_given, 0, flag).astype(np.int8)
        columns["scrapped_vehicle"] = flag
    found = Converted(columns, bad)  # (the ids: read by the output from the table's column)
    if expect is not None:
        values, known, wrong = scaled(table.column(expect).combine_chunks(), 2)
        found.bad |= wrong
        found.expected, found.expected_known = np.ma.getdata(values).astype(np.int64), known
    found.day = decisive_days(columns, n)
    found.eventful = _early_leases(columns, n, until)
    if found.eventful.any():
        found.dates = np.stack(
            [_ordinals(columns.get(c), n) for c in ("first_rent_date", "invoice_date", "order_date")]
        )
    return found


def _ordinals(days: Any, n: int) -> npt.NDArray[np.int64]:
    """Day ordinals (``date.toordinal``) of a date column, -1 where not given (or absent)."""
    if days is None:
        return np.full(n, -1, dtype=np.int64)
    ordinals = (days - EPOCH).astype(np.int64) + date(1970, 1, 1).toordinal()
    return np.where(np.isnat(days), -1, ordinals)


def _early_leases(columns: dict[str, Any], n: int, until: date) -> Bool:
    """Leases with a date (first rent, invoice, order) before ``until`` (the row engine's rule for the leases of
    décret 2007-1873, whose decisive day the resolver picks per version)."""
    from legislation.enums import Acquisition

    lease = columns["acquisition"] == tuple(Acquisition).index(Acquisition.LEASE)
    if until == date.min or not lease.any():
        return np.zeros(n, dtype=np.bool_)
    limit = np.datetime64(until, "D")
    early = np.zeros(n, dtype=np.bool_)
    for name in ("first_rent_date", "invoice_date", "order_date"):
        if name in columns:
            days = columns[name]
            early |= ~np.isnat(days) & (days < limit)
    return lease & early


def _default_column(name: str, n: int) -> Any:
    """A column every row of which is empty: « not given », or the row's default (as the converters give it)."""
    default = DEFAULTS.get(name)
    if name == "schemes":
        return np.full(n, SCHEME_TUPLES.index(default), dtype=np.int8)
    kind = FACTS[name][0]
    if kind in ("enum", "bool"):
        code = -1 if default is None else MEMBERS.get(name, (True, False)).index(default)
        return np.full(n, code, dtype=np.int8)
    if kind == "date":
        return np.full(n, np.datetime64("NaT"), dtype="datetime64[D]")
    if default is not None:
        return np.full(n, default, dtype=np.int64)
    return np.ma.MaskedArray(np.zeros(n, dtype=np.int64), mask=np.ones(n, dtype=np.bool_))


def _given(values: Any) -> Bool:
    if isinstance(values, np.ma.MaskedArray):
        return ~np.ma.getmaskarray(values)
    if values.dtype.kind == "M":
        return ~np.isnat(values)
    return np.asarray(values >= 0)  # codes: -1 not given


def _with_default(name: str, values: np.ma.MaskedArray, known: Bool) -> Any:
    default = DEFAULTS.get(name)
    if default is None:
        return values
    return np.where(known, np.ma.getdata(values), default).astype(np.int64)  # an empty cell: the row's default


def decisive_days(columns: dict[str, Any], n: int) -> npt.NDArray[np.int64]:
    """Each row's decisive day as an ordinal (``date.toordinal``; -1: none): the first rent for a lease, else the
    invoice (:func:`legislation.resolver.decisive_day`, the day whose claim-deadline text the answer cites)."""
    from legislation.enums import Acquisition

    lease = columns["acquisition"] == tuple(Acquisition).index(Acquisition.LEASE)
    none = np.full(n, np.datetime64("NaT"), dtype="datetime64[D]")
    rent = columns.get("first_rent_date", none)
    invoice = columns.get("invoice_date", none)
    return _ordinals(np.where(lease, rent, invoice), n)


def enum_value(member: Enum | bool) -> str:
    return member.value if isinstance(member, Enum) else str(member).lower()
