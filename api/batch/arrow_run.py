"""`vigueur batch` on Arrow: blocks of CSV lines, Parquet record batches or JSON Lines in, one :class:`Piece` of
output out per block — in this process or in worker processes, in input order, a few blocks in flight (flat memory).

Per block: :mod:`api.batch.arrow_read` sorts and converts the cells; the rows whose cells all convert are computed
by the columnar path (:func:`legislation.columnar.compute`, which leaves what it cannot decide to the row engine,
counted) or, with ``--engine rows``, every row by the row engine; a suspect row is read by the row path
(:class:`~api.batch.csv_rows.CsvPlan`, the row engine), which words its errors; :mod:`api.batch.results` makes the
output and the derived columns from the outcomes, whichever engine gave them.
"""

from __future__ import annotations

import contextlib
import gc
import io
import json
import multiprocessing
import multiprocessing.util
import os
import stat
import sys
import tempfile
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from api.batch import learned, memos
from api.batch.arrow_read import convert, read_plain, read_strings, split_lines
from api.batch.blocks import reason_of
from api.batch.csv_rows import CSV_COLUMNS, CsvPlan, Invalid, converter
from api.batch.lines import CONTROL, cells, check_id, undecodable
from api.batch.results import Outcomes, Records, Tables
from api.kernel_cache import form_store
from legislation.errors import InvalidFacts

_STATE: dict[str, Any] = {}
# The output written a megabyte at a time: one write() of a block's 16 MB cost the kernel ~6× as much as the same
# bytes in 1 MB writes (measured on 1 000 000 rows, one process: the writes 0.41 -> 0.065 CPU-s; 2 workers, runs
# alternated: the run 2.48 -> 2.17 s, system time 1.24 -> 0.67 s; the same bytes).
WRITE_SLICE = 1 << 20
MONEY = converter("vehicle_acquisition_cost")  # the expected amount: euros, as the contract's amounts


@dataclass(slots=True)
class Settings:
    """What every block needs besides its data (picklable: sent to spawned workers)."""

    header: list[str]  # the input's columns as read (CSV header or Parquet schema)
    expect: str | None = None  # the expected-amount column
    engine: str = "columnar"  # or "rows"
    out: str = "csv"  # csv | jsonl | parquet
    reasons: bool = True  # every result not « computed » explained (False: only those explained once per key)
    versions_dir: Path | None = None
    spill: str | None = None  # with workers: the directory their output goes through (see run_pieces)


@dataclass(slots=True)
class Piece:
    """One block's output and counts."""

    data: Any = b""  # bytes (CSV, JSON Lines) or a pyarrow Table (Parquet)
    rows: int = 0
    results: int = 0
    invalid: int = 0
    fallbacks: int = 0
    first_error: str | None = None
    compared: int = 0
    recovered: int = 0  # blocks read again row by row after an unforeseen failure of the Arrow reading
    unreadable: str | None = None  # the input could not be read there (a damaged Parquet row group): the run stops
    mismatches: list[tuple[int, str | None, int, int | None, str]] = field(default_factory=list)


@dataclass(slots=True, frozen=True)
class Span:
    """A block of whole lines of a regular file, by place: a worker process reads it itself (measured: sending the
    bytes through the pool's pipe cost ~0.04 CPU-s a 16 MB block, in this process and the worker's). ``block``: its
    number in the run's :class:`LineCounts` (its lines counted by the worker; -1: numbered by the item)."""

    path: str
    offset: int
    size: int
    block: int = -1

    def read(self) -> bytes:
        with open(self.path, "rb") as source:
            source.seek(self.offset)
            return source.read(self.size)


@dataclass(slots=True, frozen=True)
class RowGroups:
    """Row groups of a Parquet file, by index: a worker process reads them itself (measured on 1 000 000 rows: the
    parent's decoding of every batch was 1.6 CPU-s, the whole run's critical path)."""

    path: str
    groups: tuple[int, ...]

    def read(self) -> Any:
        """The row groups; the columns read as codes (:func:`arrow_read.by_codes`) read as their dictionaries, not as
        the texts of every cell, and the file's metadata read once per process (measured on 1 000 000 rows in row
        groups of 4 500: the reading 1.21 -> 0.89 CPU-s, the conversion 0.63 -> 0.43; the run 3.31 -> 3.15 s)."""
        key = _file_key(self.path)  # (a file rewritten: read again)
        found = _PARQUET_FILES.get(key)
        if found is None:
            import pyarrow.parquet as pq

            # its metadata parsed once: by the parent that forked this worker (parquet_metadata), else here
            metadata = _PARQUET_METADATA.get(key)
            if metadata is None:
                metadata = pq.ParquetFile(self.path).metadata
            codes = dictionary_columns(metadata.schema.names)
            found = pq.ParquetFile(self.path, metadata=metadata, read_dictionary=codes)
            _PARQUET_FILES.clear()
            _PARQUET_FILES[key] = found
        return found.read_row_groups(list(self.groups), use_threads=False)


@dataclass(slots=True)
class LineCounts:
    """The line feeds of each block of a CSV the workers read by place (:class:`Span` with a ``block``), shared
    with them: the main process cuts the blocks without reading them (:func:`api.batch.run.cut_spans`), each worker
    counts its block's as it reads it, and a block's first line is the first line plus the counts before it. A count
    not given yet is counted by the worker that asks (reading that block): no worker waits for another. The sums
    known so far are kept in each process (each block is summed once a process)."""

    first_line: int
    spans: list[Span]
    counts: Any  # a shared array of int64 (multiprocessing.RawArray), -1: not counted yet
    summed: tuple[int, int] = (0, 0)  # (blocks summed, the first line of the next): this process's

    @classmethod
    def shared(cls, first_line: int, spans: list[Span], context: Any) -> LineCounts:
        counts = context.RawArray("q", max(1, len(spans)))
        counts[:] = [-1] * len(counts)
        return cls(first_line, spans, counts, (0, first_line))

    def counted(self, block: int, data: Any) -> None:
        """Block ``block``'s line feeds, counted in ``data`` (its bytes) and given to the others."""
        from api.batch.run import line_feeds

        self.counts[block] = line_feeds(memoryview(data))

    def first(self, block: int) -> int:
        """The number of block ``block``'s first line."""
        from api.batch.run import line_feeds

        done, line = self.summed if self.summed[0] <= block else (0, self.first_line)
        for j in range(done, block):
            count = self.counts[j]
            if count < 0:  # not counted yet (its worker has not read it): counted here
                count = self.counts[j] = line_feeds(memoryview(self.spans[j].read()))
            line += count
        self.summed = (block, line)
        return line


def dictionary_columns(names: list[str]) -> list[str]:
    """The columns of a Parquet file read as their dictionaries (codes into texts: :func:`arrow_read.by_codes`)."""
    from api.batch.arrow_read import by_codes
    from api.batch.csv_rows import column_name

    return [n for n in names if by_codes(column_name(n))]


_PARQUET_FILES: dict[tuple[str, int, int, int], Any] = {}  # this process's open Parquet file (RowGroups.read)
_PARQUET_METADATA: dict[tuple[str, int, int, int], Any] = {}  # a file's metadata the parent parsed (parquet_metadata)


def _file_key(path: str) -> tuple[str, int, int, int]:
    stated = os.stat(path)
    return (path, stated.st_ino, stated.st_size, stated.st_mtime_ns)


def parquet_metadata(path: str, metadata: Any) -> None:
    """A Parquet file's metadata, parsed by this process before it forks the workers that read its row groups
    (:class:`RowGroups`): they inherit it rather than parse the file's footer again (measured: 17 ms a worker's
    first block for 225 row groups of 44 columns)."""
    _PARQUET_METADATA.clear()
    with contextlib.suppress(OSError):
        _PARQUET_METADATA[_file_key(path)] = metadata


def setup(settings: Settings, catalogue: Any = None) -> None:
    """This process's engines and plan (a forked worker inherits them; a spawned one builds its own)."""
    if "engine" not in _STATE or catalogue is not None:
        from legislation.columnar import Columnar
        from legislation.fast import Engine

        if catalogue is None:
            from api.catalogue.kept import load_catalogue

            catalogue = load_catalogue(settings.versions_dir)
        engine = Engine(catalogue, form_store(), lazy=True)  # each kernel compiled at its first call
        columnar = Columnar(catalogue, engine)
        if settings.engine == "columnar":
            learned.load(columnar, catalogue)  # the paths earlier runs traced (forked workers inherit them)
        tables = Tables(catalogue, engine)
        memos.load(tables, catalogue)  # the deadlines and explanations earlier runs computed (as the paths)
        _STATE.update(catalogue=catalogue, engine=engine, columnar=columnar, tables=tables)
    _fast_walk()
    names = [n for n in settings.header if n != settings.expect]
    _STATE["plan"] = CsvPlan(list(names)) if names else None  # JSON Lines: no header
    _STATE["settings"] = settings
    with contextlib.suppress(NotImplementedError, pa.ArrowException):  # freed blocks given back at once
        pa.jemalloc_set_decay_ms(0)
    gc.freeze()


def _fast_walk() -> None:
    """The columnar engine's walk down its recorded trees compiled (:data:`legislation.columnar.recorded.FAST_WALK`,
    legislation/columnar/walk_c.c) unless VIGUEUR_NO_C is set now, numpy's then (measured on a million rows: 0.14 ->
    0.07 CPU-s); and its decisions computed in C as the rows reach them (``FAST_DECIDE``), numpy's codes then."""
    from legislation.columnar import recorded, symbolic

    off = bool(os.environ.get("VIGUEUR_NO_C"))
    recorded.FAST_DECIDE = None if off else recorded.COMPILED_DECIDE
    recorded.FAST_WALK = None if off else recorded.COMPILED_WALK
    recorded.FAST_LOOKUP = None if off else recorded.COMPILED_LOOKUP
    symbolic.FAST_INDICES = None if off else symbolic.COMPILED_INDICES


def header_problem(header: list[str], expect: str | None) -> str | None:
    """Why a header cannot be read (None: it can)."""
    if expect is not None and expect not in header:
        return f"no column {expect!r} (--expect-column) in the header"
    if expect is not None and _names([expect])[0] in CSV_COLUMNS:
        return f"{expect!r} (--expect-column) is a fact of the purchase, not an expected amount"
    try:
        CsvPlan([n for n in header if n != expect])
    except Invalid as exc:
        return str(exc)
    return None


# -- the blocks ---------------------------------------------------------------------------------------------


def work(item: tuple[str, int, Any]) -> Piece:
    """One block's piece. Should the Arrow reading or the columns fail on something unforeseen, the block is read
    again by the row path, row by row (counted in ``recovered``): nothing a user sends gives a traceback."""
    kind, first, data = item
    numbered = None  # the block's first line, when its lines are counted here (LineCounts)
    if isinstance(data, Span) and data.block >= 0:
        counts: LineCounts = _STATE["line_counts"]
        block = data.block
        data = data.read()
        counts.counted(block, data)
        first, numbered = 0, lambda: counts.first(block)  # numbered from 0, then moved (_block)
    elif isinstance(data, Span | ArrowFile):
        data = data.read()
    elif isinstance(data, RowGroups):
        try:
            data = data.read()
        except (pa.ArrowException, OSError, ValueError) as exc:
            return Piece(unreadable=f"row {first} on: {exc}")
    if kind == "jsonl":
        return _jsonl(first, data)
    settings: Settings = _STATE["settings"]
    # The block's objects live until the block ends: the collector's automatic passes over them during the block
    # free next to nothing (measured: a block 7 % faster without them, its memory no higher); one pass at its end.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _arrow_block(kind, first, data, every_row=settings.engine == "rows", numbered=numbered)
    except Exception:  # noqa: BLE001 - the row path reads every row and words its errors
        piece = _arrow_block(kind, first, data, every_row=True, numbered=numbered)
        piece.recovered = 1
        return piece
    finally:
        # One pass of the collector a block, so that nothing a block leaves in a reference cycle outlives it: the
        # columns' traces did, holding a block's Arrow and numpy buffers (1.3 GB growing over 1 M rows, 450 MB flat
        # once collected here); since the engine closes them (2026-12-07) a block leaves none — the pass finds 0
        # objects after each worker's first block, in 0.3 ms. What survives it (the columnar engine's recordings,
        # its memo: they only grow) is then frozen, out of the next passes' walk.
        gc.collect()
        gc.freeze()
        if collecting:
            gc.enable()


def _arrow_block(
    kind: str, first: int, data: Any, *, every_row: bool, numbered: Callable[[], int] | None = None
) -> Piece:
    settings: Settings = _STATE["settings"]
    if kind == "csv":
        names = _names(settings.header)
        plain = None if every_row else read_plain(data, first, names)
        lines, table = plain if plain is not None else (None, None)
        if lines is None:
            # every line suspect (width 0) for the row engine: the row path reads them all
            lines = split_lines(data, first, 0 if every_row else len(names))
            table = read_strings(lines.clean_bytes, names) if len(lines.clean) else None
        if table is not None and table.num_rows != len(lines.clean):  # not expected: read them one by one
            raise ValueError("the Arrow reading and the line sorting disagree")
        return _block(lines.numbers, table, lines.clean, lines.suspect, numbered=numbered)
    table = _strings(data)  # a Parquet batch
    n = table.num_rows
    numbers = first + np.arange(n, dtype=np.int64)
    return _block(numbers, table, np.arange(n), [], every_row=every_row)


def _names(header: list[str]) -> list[str]:
    from api.batch.csv_rows import column_name

    return [column_name(n) for n in header]


def _strings(batch: Any) -> pa.Table:
    from api.batch.arrow_read import as_strings

    names = _names(batch.schema.names)
    return as_strings(batch, names).rename_columns(names)


def _block(
    numbers: np.ndarray[Any, Any],
    table: pa.Table | None,
    clean: np.ndarray[Any, Any],
    suspect: list[tuple[int, bytes]],
    *,
    every_row: bool = False,
    numbered: Callable[[], int] | None = None,
) -> Piece:
    """A block's piece; ``numbered``: the number of its first line, asked once its rows are computed (``numbers``
    count from 0 until then: see :class:`LineCounts`)."""
    settings: Settings = _STATE["settings"]
    plan: CsvPlan = _STATE["plan"]
    tables: Tables = _STATE["tables"]
    engine = _STATE["engine"]
    n = len(numbers)
    out = Outcomes(n)
    read_ids: dict[int, str] = {}  # the ids of the rows the row path reads (the others: the table's cells)
    expected = np.zeros(n, dtype=np.int64)
    expected_known = np.zeros(n, dtype=np.bool_)
    expect = settings.expect and _names([settings.expect])[0]
    position = np.full(n, -1, dtype=np.int64)  # the row's index in ``table``
    by_cells: list[int] = []  # rows of the table the row path reads
    computed: dict[str, Any] = {}  # the columns the columnar engine computed, and their rows (block indices)
    if table is not None and len(clean):
        position[clean] = np.arange(len(clean))
        if every_row:
            by_cells = clean.tolist()
        else:
            found = convert(table, plan, expect, tables.eventful_until)
            if found.expected is not None and found.expected_known is not None:
                expected[clean] = found.expected
                expected_known[clean] = found.expected_known
            good = ~found.bad
            by_cells = clean[found.bad].tolist()
            if good.any():
                columns = {name: values[good] for name, values in found.columns.items()}
                rows = clean[good]
                try:
                    result = _STATE["columnar"].compute(columns)
                except Exception:  # noqa: BLE001 - whatever the columns cannot do, the row path does (and says)
                    by_cells = sorted(by_cells + rows.tolist())
                else:
                    computed.update(columns=columns, rows=rows)
                    out.take_columnar(tables, rows, result, reason_of)
                    out.day[rows] = found.day[good]
                    out.eventful[rows] = found.eventful[good]
                    if found.eventful.any():
                        out.dates[:, rows] = found.dates[:, good]
    texts: dict[int, list[str]] = {}
    if by_cells and table is not None:
        texts = dict(zip(by_cells, (list(v) for v in _cells(table, position[by_cells])), strict=True))
    full = settings.header
    id_index = _names(full).index("id") if "id" in _names(full) else None
    expect_index = _names(full).index(expect) if expect is not None else None
    work_list = [(i, None, texts[i]) for i in by_cells] + [(i, raw, None) for i, raw in suspect]
    for i, raw, given in sorted(work_list, key=lambda x: x[0]):
        ident = ""
        try:
            if given is None:
                assert raw is not None
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError:
                    raise undecodable(raw, full) from None
                fields = cells(text, full)
            else:
                fields = list(given)
            if id_index is not None and id_index < len(fields):
                ident = fields[id_index]
                check_id(ident)
            if len(fields) != len(full):
                raise Invalid(f"the line has {len(fields)} fields, the header {len(full)}")
            expected_text = fields.pop(expect_index) if expect_index is not None else ""
            problems, row = [], None
            try:
                row = plan.row(fields)
            except Invalid as exc:
                problems.append(str(exc))
            if expected_text:
                try:
                    expected[i] = MONEY(expected_text)
                    expected_known[i] = True
                except Invalid as exc:
                    problems.append(f"{settings.expect}: {exc}")
            if problems or row is None:
                raise Invalid("; ".join(problems))
            outcomes = engine.outcomes(row)
        except (Invalid, InvalidFacts, ArithmeticError, ValueError) as exc:
            out.refuse(i, reason_of(exc))
            read_ids[i] = CONTROL.sub("\ufffd", ident)
            expected_known[i] = False
            continue
        read_ids[i] = ident
        out.store(tables, i, row, outcomes)

    def rows_of(indices: list[int]) -> dict[int, Any]:
        """The rows (block indices) for their explanations: those the columnar engine computed made from the very
        columns it read (:func:`legislation.columnar.columns.rows_at`, as its own fallback does: measured with
        ``--reasons``, 24 µs a row read again from its cells, ~5 µs so), any other read from the table's cells."""
        found = _rows_computed(computed, indices, out.row_schemes)
        if table is None:
            return found
        picked = [i for i in indices if position[i] >= 0 and i not in found]
        if not picked:
            return found
        for i, fields in zip(picked, _cells(table, position[picked]), strict=True):
            cells_ = list(fields)
            if expect_index is not None:
                cells_.pop(expect_index)
            try:
                found[i] = plan.row(cells_)
            except Invalid:
                continue
        return found

    if numbered is not None:
        numbers += numbered()
    ids = _ids(table, position, read_ids) if "id" in _names(full) else None
    records = Records(out, tables, numbers, ids, rows_of, explain_all=settings.reasons)
    return _piece(records, out, numbers, ids, expected, expected_known, settings)


def _rows_computed(computed: dict[str, Any], indices: list[int], row_schemes: Any) -> dict[int, Any]:
    """The rows among ``indices`` (block indices) whose columns the columnar engine computed, as :class:`Row` objects
    made from those columns (normalised once per block)."""
    rows = computed.get("rows")
    if rows is None or not indices:
        return {}
    from legislation.columnar.columns import normalise, rows_at
    from legislation.row import SCHEME_TUPLES

    wanted = np.asarray(indices, dtype=np.intp)
    at = np.minimum(np.searchsorted(rows, wanted), len(rows) - 1)  # ``rows`` ascending: each index's place
    hit = rows[at] == wanted
    if not hit.any():
        return {}
    facts = computed.get("facts")
    if facts is None:
        facts = computed["facts"] = normalise(computed["columns"])[1]
    chosen = wanted[hit]
    schemes = [SCHEME_TUPLES[t] for t in row_schemes[chosen].tolist()]
    return dict(zip(chosen.tolist(), rows_at(facts, at[hit], schemes), strict=True))


def _cells(table: pa.Table, positions: np.ndarray[Any, Any]) -> list[tuple[Any, ...]]:
    """The cells of the table's rows at ``positions``, row by row. Taken batch by batch (its chunks):
    ``Table.take`` first joins each column's chunks into one (measured: ~10 ms a block of 71 000 rows, for the
    ~70 rows the row path reads)."""
    batches = table.to_batches()
    ends = np.cumsum([batch.num_rows for batch in batches])
    at = np.searchsorted(ends, positions, side="right")  # each position's batch
    order = np.argsort(at, kind="stable")
    parts = []
    for b in np.unique(at).tolist():
        local = positions[order][at[order] == b] - (int(ends[b - 1]) if b else 0)
        parts.append(batches[b].take(pa.array(local)))
    taken = pa.Table.from_batches(parts, table.schema)
    if (order != np.arange(len(order))).any():  # back in the order of ``positions``
        taken = taken.take(pa.array(np.argsort(order)))
    return list(zip(*(_texts(column) for column in taken.columns), strict=True))


def _texts(column: pa.ChunkedArray) -> list[Any]:
    """A column's cells as Python values; a dictionary-encoded column (the C reading's) decoded first: its
    ``to_pylist`` turns its whole dictionary into Python objects, ~7 ms a column of a block for the few rows asked
    (measured: `vigueur batch --reasons` on 200 000 rows 5.4 -> 3.3 s)."""
    if pa.types.is_dictionary(column.type):
        column = column.cast(column.type.value_type)
    return column.to_pylist()


def _ids(table: pa.Table | None, position: np.ndarray[Any, Any], read: dict[int, str]) -> pa.Array:
    """Each row's id: the table's cell, or what the row path read (``read``, by row)."""
    if table is None:
        return pa.array([read.get(i, "") for i in range(len(position))], pa.string())
    column = table.column("id").cast(pa.string())
    ids = column.take(pa.array(np.maximum(position, 0))).combine_chunks()
    if not read:
        return ids
    mask = np.zeros(len(position), dtype=np.bool_)
    rows = sorted(read)
    mask[rows] = True
    return pc.replace_with_mask(ids, pa.array(mask), pa.array([read[i] for i in rows], pa.string()))


def _piece(
    records: Records,
    out: Outcomes,
    numbers: np.ndarray[Any, Any],
    ids: list[Any] | pa.Array | None,
    expected: np.ndarray[Any, Any],
    expected_known: np.ndarray[Any, Any],
    settings: Settings,
    *,
    buffer: bool = True,
) -> Piece:
    """The block's piece; its CSV or JSON Lines output a ``pyarrow.Buffer`` (written as is: not copied into a
    ``bytes``), or ``bytes`` (``buffer`` False)."""
    piece = Piece(rows=out.n, invalid=int(out.invalid.sum()), fallbacks=out.fallbacks)
    piece.results = int((records.k >= 0).sum())
    if out.errors:
        first = min(out.errors)
        piece.first_error = f"line {int(numbers[first])}: {out.errors[first]}"
    if settings.out == "parquet":
        piece.data = records.table()
    elif settings.out == "jsonl":
        piece.data = records.json_buffer() if buffer else records.json_lines()
    else:
        piece.data = records.csv_buffer() if buffer else records.csv_bytes()
    if settings.expect is not None and out.n:
        totals, all_known, versions = records.totals()
        compared = np.flatnonzero(expected_known & ~out.invalid)
        piece.compared = len(compared)
        wrong = compared[~all_known[compared] | (totals[compared] != expected[compared])]
        if ids is None:
            idents: list[Any] = [None] * len(wrong)
        elif isinstance(ids, list):
            idents = [ids[i] for i in wrong.tolist()]
        else:
            idents = ids.take(pa.array(wrong)).to_pylist()
        texts = versions.take(pa.array(wrong)).to_pylist()
        for i, ident, text in zip(wrong.tolist(), idents, texts, strict=True):
            computed = int(totals[i]) if all_known[i] else None
            piece.mismatches.append((int(numbers[i]), ident or None, int(expected[i]), computed, text))
    return piece


def _jsonl(first_line: int, data: bytes) -> Piece:
    return jsonl_piece(_STATE["engine"], _STATE["tables"], _STATE["settings"], first_line, data, buffer=True)


def jsonl_piece(
    engine: Any, tables: Tables, settings: Settings, first_line: int, data: bytes, *, buffer: bool = False
) -> Piece:
    """JSON Lines: each line a request of the contract (with an optional ``id`` and expected amount), read by
    :func:`api.purchase.request.parse_request` and computed by the row engine (also ``POST /v1/calculate/batch``);
    the output ``bytes``, or a ``pyarrow.Buffer`` (``buffer``)."""
    from api.batch.lines import csv_lines as input_lines
    from api.purchase.json_strict import duplicate_keys
    from api.purchase.render import request_schemes
    from api.purchase.request import RequestError, parse_request
    from legislation.fast import Row

    items = [(line, text) for line, text in input_lines(data, first_line) if isinstance(text, bytes) or text.strip()]
    n = len(items)
    out = Outcomes(n)
    numbers = np.array([line for line, _ in items], dtype=np.int64)
    ids: list[Any] = [None] * n
    expected = np.zeros(n, dtype=np.int64)
    expected_known = np.zeros(n, dtype=np.bool_)
    for i, (_, text) in enumerate(items):
        try:
            if isinstance(text, bytes):
                raise RequestError([{"field": "(line)", "message": "not valid UTF-8; the input must be UTF-8"}])
            text, ids[i], amount = _extras(text, settings.expect, duplicate_keys, RequestError)
            if amount is not None:
                expected[i], expected_known[i] = amount, True
            request = parse_request(text)
            row = Row.from_facts(request, request_schemes(request))
            outcomes = engine.outcomes(row)
        except RequestError as exc:
            out.refuse(i, "; ".join(f"{e['field']}: {e['message']}" for e in exc.errors))
            expected_known[i] = False
            continue
        except (InvalidFacts, ArithmeticError, ValueError) as exc:
            out.refuse(i, reason_of(exc))
            expected_known[i] = False
            continue
        out.store(tables, i, row, outcomes)
    records = Records(
        out, tables, numbers, [x if x is None else str(x) for x in ids], lambda i: {}, explain_all=settings.reasons
    )
    return _piece(records, out, numbers, ids, expected, expected_known, settings, buffer=buffer)


def _extras(text: str, expect: str | None, duplicate_keys: Any, error: Any) -> tuple[str, Any, int | None]:
    """The request without its ``id`` and expected amount (not fields of the contract), and those two."""
    if '"id"' not in text and (expect is None or f'"{expect}"' not in text):
        return text, None, None
    try:
        document = json.loads(text)
    except ValueError:
        return text, None, None  # the contract's parser says what is wrong
    if not isinstance(document, dict):
        return text, None, None
    problems = duplicate_keys(text)
    if problems:
        raise error(problems)
    ident = document.pop("id", None)
    if ident is not None and (isinstance(ident, bool) or not isinstance(ident, str | int)):
        raise error([{"field": "id", "message": "an id is a string or an integer"}])
    if isinstance(ident, str) and CONTROL.search(ident):
        raise error([{"field": "id", "message": "holds a control character"}])
    amount = None
    if expect is not None and expect in document:
        value = document.pop(expect)
        if value is not None:
            if isinstance(value, bool) or not isinstance(value, str | int | float):
                raise error([{"field": expect, "message": "an amount in euros (« 5400.00 »)"}])
            try:
                amount = MONEY(str(value))
            except Invalid as exc:
                raise error([{"field": expect, "message": str(exc)}]) from None
    return json.dumps(document, ensure_ascii=False), ident, amount


# -- in this process or in workers, in input order ------------------------------------------------------------


def run_pieces(
    items: Iterator[tuple[str, int, Any]], workers: int, settings: Settings, sink: Any = None
) -> Iterator[Piece]:
    """Each item's piece, in input order; in ``workers`` processes when more than one (then a CSV or JSON Lines
    piece's data is a :class:`Span` of its spill file, there until the next piece is asked for: see
    :func:`write_piece`). Given the output (``sink``: a regular file, written up to here) and forked workers, a
    worker writes its piece's output in it itself when the pieces before it are written (their end known: see
    :class:`Placed`), and the others' spill files are copied there before their piece is given (its data a
    :class:`Placed`)."""
    if workers == 1:
        yield from map(work, items)
        if settings.engine == "columnar":
            learned.save(_STATE["columnar"], _STATE["catalogue"])  # what was traced, for the next runs
        memos.save(_STATE["tables"], _STATE["catalogue"])
        return
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    placing = _placing(sink, workers, context) if settings.out != "parquet" else None
    _STATE["placing"] = placing  # forked workers inherit it (and the sink's file descriptor)
    try:
        with (
            tempfile.TemporaryDirectory(prefix="vigueur-batch-") as spill,
            context.Pool(workers, initializer=_worker, initargs=(replace(settings, spill=spill),)) as pool,
        ):
            pending: deque[tuple[int, Any]] = deque()
            for seq, item in enumerate(items):
                item = _handed(item, spill)
                pending.append((seq, pool.apply_async(_spilled, (item, seq))))
                if len(pending) >= 2 * workers:
                    done, result = pending.popleft()
                    yield from _spans_removed(result.get(), sink, placing, done)
            while pending:
                done, result = pending.popleft()
                yield from _spans_removed(result.get(), sink, placing, done)
            pool.close()
            pool.join()  # the workers exit, each leaving the paths it traced in the spill directory (_worker)
            if settings.engine == "columnar":
                learned.save(_STATE["columnar"], _STATE["catalogue"], spill)  # the workers' traces, for the next runs
            memos.save(_STATE["tables"], _STATE["catalogue"], spill)  # and the values they computed
    finally:
        _STATE.pop("placing", None)
        _STATE.pop("line_counts", None)


@dataclass(slots=True, frozen=True)
class ArrowFile:
    """A worker's Parquet piece, its table left in an Arrow file of the run's spill directory and mapped back by the
    parent, not pickled through the pool's pipe (measured: the pickling ~0.2 CPU-s a million rows, and the workers
    idle 0.05-0.12 s between blocks while the parent unpickled)."""

    path: str

    @classmethod
    def write(cls, path: str, data: pa.Table | pa.RecordBatch) -> ArrowFile:
        """``data`` left at ``path`` as an Arrow file."""
        with pa.OSFile(path, "wb") as target, pa.ipc.new_file(target, data.schema) as writer:
            writer.write(data)
        return cls(path)

    def read(self) -> pa.Table:
        return pa.ipc.open_file(pa.memory_map(self.path)).read_all()  # (the table's buffers keep the mapping)

    def remove(self) -> None:
        with contextlib.suppress(OSError):
            os.unlink(self.path)


@dataclass(slots=True, frozen=True)
class Placed:
    """A piece's output already in the output file, at ``offset``: written there by its worker (the end of the
    pieces before it known), or copied there from its spill file by :func:`run_pieces` (measured: the parent's
    copy of a spill file ~5-10 ms a 16 MB piece, and the spill file's own costs)."""

    offset: int
    size: int


@dataclass(slots=True)
class _Placing:
    """Where the pieces' outputs end in the output file, shared with the workers: piece ``seq``'s end at
    ``ends[2 * (seq % ring) + 1]`` once ``ends[2 * (seq % ring)] == seq + 1``."""

    fd: int
    start: int  # where the first piece begins
    ends: Any  # a multiprocessing Array of 64-bit integers, with its lock
    ring: int

    def end(self, seq: int) -> int | None:
        """Where piece ``seq`` ends in the file (None: not written yet); -1 ends where the first piece begins."""
        if seq < 0:
            return self.start
        at = 2 * (seq % self.ring)
        with self.ends.get_lock():
            return int(self.ends[at + 1]) if self.ends[at] == seq + 1 else None

    def ended(self, seq: int, end: int) -> None:
        at = 2 * (seq % self.ring)
        with self.ends.get_lock():
            self.ends[at + 1] = end
            self.ends[at] = seq + 1


def _placing(sink: Any, workers: int, context: Any) -> _Placing | None:
    """The shared ends when the workers may write into ``sink`` themselves: a regular file, inherited by forked
    workers (None: they do not)."""
    if sink is None or context.get_start_method() != "fork":
        return None
    import fcntl  # with fork: a POSIX system

    try:
        fd = sink.fileno()
        found = os.fstat(fd)
        if not stat.S_ISREG(found.st_mode) or fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_APPEND:
            return None  # not a file, or one written at its end whatever the offset asked
        if any(_same_file(found, other) for other in (sys.stderr, sys.__stderr__)):
            return None  # the messages written there too (2>&1): in the order written
        sink.flush()
        start = sink.tell()
    except (OSError, AttributeError, ValueError, io.UnsupportedOperation):
        return None
    ring = 4 * workers + 4  # more than the pieces in flight (2 per worker) and the one being written
    return _Placing(fd, start, context.Array("q", 2 * ring), ring)


def _worker(settings: Settings) -> None:
    """A worker process's set-up; on its way out (the pool closed), the paths its traces found are written to the
    run's spill directory, for the cache (:func:`api.batch.learned.save`)."""
    setup(settings)
    if settings.spill is not None:
        multiprocessing.util.Finalize(
            None, memos.share, (_STATE["tables"], _STATE["catalogue"], settings.spill), exitpriority=10
        )
    if settings.engine == "columnar" and settings.spill is not None:
        multiprocessing.util.Finalize(None, learned.share, (_STATE["columnar"], settings.spill), exitpriority=10)


def _same_file(found: os.stat_result, stream: Any) -> bool:
    try:
        other = os.fstat(stream.fileno())
    except (OSError, AttributeError, ValueError, io.UnsupportedOperation):
        return False
    return (found.st_dev, found.st_ino) == (other.st_dev, other.st_ino)


def _handed(item: tuple[str, int, Any], spill: str) -> tuple[str, int, Any]:
    """An item for a worker: a batch of rows this process read (a Parquet file whose row groups the workers cannot
    read themselves, or standard input) left in an Arrow file of the spill directory, which the worker maps, rather
    than pickled through the pool's pipe (measured on a file of one row group of 1 000 000 rows: 2.8 -> 2.35 s; its
    columns by codes read as codes, api.cli.batch._parquet: 2.1 s)."""
    kind, first, data = item
    if not isinstance(data, pa.RecordBatch | pa.Table):
        return item
    return kind, first, ArrowFile.write(os.path.join(spill, f"in-{first}.arrow"), data)


def _spilled(item: tuple[str, int, Any], seq: int = 0) -> Piece:
    """A worker's piece (number ``seq`` in input order): its CSV or JSON Lines output written into the output file
    when the pieces before it are (:class:`Placed`), else left in a file of the run's spill directory (read back by
    :func:`write_piece`): cheaper than their way through the pool's pipe (measured: ~50 ms a 16 MB block)."""
    piece = work(item)
    if isinstance(item[2], ArrowFile):  # its rows, handed by the parent: read
        item[2].remove()
    spill = _STATE["settings"].spill
    if isinstance(piece.data, pa.Table) and spill is not None:  # Parquet: the table as an Arrow file, mapped back
        piece.data = ArrowFile.write(os.path.join(spill, f"{os.getpid()}-{item[1]}.arrow"), piece.data)
        return piece
    if not isinstance(piece.data, bytes | pa.Buffer):
        return piece
    placing: _Placing | None = _STATE.get("placing")
    offset = placing.end(seq - 1) if placing is not None else None
    if placing is not None and offset is not None:
        _write_at(placing.fd, piece.data, offset)
        placing.ended(seq, offset + len(piece.data))
        piece.data = Placed(offset, len(piece.data))
    elif spill is not None and len(piece.data):
        path = os.path.join(spill, f"{os.getpid()}-{item[1]}")
        with open(path, "wb", buffering=0) as target:  # from the piece's buffer, as is
            view = memoryview(piece.data)
            while view:
                view = view[target.write(view[:WRITE_SLICE]) :]
        piece.data = Span(path, 0, len(piece.data))
    return piece


def _write_at(fd: int, data: Any, offset: int) -> None:
    view = memoryview(data)
    while view:
        written = os.pwrite(fd, view[:WRITE_SLICE], offset)
        view, offset = view[written:], offset + written


def _spans_removed(piece: Piece, sink: Any = None, placing: _Placing | None = None, seq: int = 0) -> Iterator[Piece]:
    """The piece (its output still in its spill file: :func:`write_piece`), the file removed once the consumer asks
    for the next piece; with ``placing``, its output first copied into ``sink`` after the pieces before it. A Parquet
    piece's table is mapped from its Arrow file (:class:`ArrowFile`)."""
    if isinstance(piece.data, ArrowFile):
        spilled = piece.data
        piece.data = spilled.read()
        yield piece
        spilled.remove()
        return
    if placing is not None and not isinstance(piece.data, Placed):
        offset = placing.end(seq - 1)
        assert offset is not None  # noqa: S101 - the pieces are given in input order
        sink.seek(offset)
        size = piece.data.size if isinstance(piece.data, Span) else len(piece.data)
        write_piece(sink, piece)
        sink.flush()  # there before a worker writes after it
        placing.ended(seq, offset + size)
        _removed(piece)
        piece.data = Placed(offset, size)
    yield piece
    _removed(piece)


def _removed(piece: Piece) -> None:
    if isinstance(piece.data, Span):
        with contextlib.suppress(OSError):
            os.unlink(piece.data.path)


def write_piece(sink: Any, piece: Piece) -> None:
    """A CSV or JSON Lines piece's output to ``sink`` (a binary file): its bytes, or its spill file copied by the
    kernel (``os.sendfile``, not through this process's memory), or read and written where the kernel cannot."""
    data = piece.data
    if isinstance(data, Placed):  # already there (run_pieces): the file's position after it
        sink.seek(data.offset + data.size)
        return
    if not isinstance(data, Span):
        view = memoryview(data)
        for start in range(0, len(view), WRITE_SLICE):
            sink.write(view[start : start + WRITE_SLICE])
        return
    sink.flush()
    with open(data.path, "rb") as source:
        offset, left = data.offset, data.size
        try:
            target = sink.fileno()
            while left:
                sent = os.sendfile(target, source.fileno(), offset, min(left, WRITE_SLICE))
                if not sent:
                    break
                offset, left = offset + sent, left - sent
        except (OSError, AttributeError, ValueError, io.UnsupportedOperation):
            pass  # a sink the kernel does not copy to: the rest read and written
        if left:
            source.seek(offset)
            sink.write(source.read(left))
