"""`vigueur batch`: many purchases in (CSV, Parquet or JSON Lines), one result per scheme out (CSV, Parquet or JSON
Lines), with an optional expected-amount column that turns a dossier of amounts paid into a regression run.

The reading, the blocks and the worker processes are :mod:`api.batch.arrow_run`; this module is the command: its
arguments, the problems it reports, the mismatch report and the summary on standard error. Exit code: 0 every row
valid (and, with ``--expect-column``, every expected amount equal); 1 some rows invalid (all the others computed);
2 bad arguments or header; 3 invalid catalogue; 4 some computed amounts differ from the expected ones.
"""

from __future__ import annotations

import contextlib
import csv
import io
import multiprocessing
import os
import stat
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, BinaryIO

import numpy as np
import typer

from api.batch.arrow_run import (
    LineCounts,
    Piece,
    Settings,
    Span,
    header_problem,
    parquet_metadata,
    run_pieces,
    setup,
    write_piece,
)
from api.batch.results import OUTPUT_COLUMNS, euros
from api.batch.run import (
    BLOCK_BYTES,
    PARALLEL_FROM_BYTES,
    Progress,
    balanced_parts,
    cut_spans,
    read_blocks,
    read_spans,
)
from api.cli.options import VersionsDir, catalogue_from, fail

END_AT_ONCE = False  # set by the console script: a finished run ends its process without the teardown
ARROW_SCALE = 16  # CSV blocks of 16 × 1 MB (≈ 70 000 rows) on the columnar path: the columns amortise their work
PARQUET_BATCH_ROWS = 65_536
MISMATCH_COLUMNS = ("line", "id", "expected", "computed", "difference", "version_id")


class Format(StrEnum):
    CSV = "csv"
    JSONL = "jsonl"
    PARQUET = "parquet"


class EngineName(StrEnum):
    COLUMNAR = "columnar"
    ROWS = "rows"


def _by_extension(name: str) -> Format | None:
    lower = name.lower()
    if lower.endswith((".jsonl", ".ndjson")):
        return Format.JSONL
    if lower.endswith((".parquet", ".pq")):
        return Format.PARQUET
    if lower.endswith(".csv"):
        return Format.CSV
    return None


def batch(
    input_path: Annotated[
        str, typer.Argument(metavar="INPUT", help="CSV, Parquet or JSON Lines file; '-' reads standard input.")
    ],
    out: Annotated[
        Path | None, typer.Option("--out", help="Write the results here (default: standard output).")
    ] = None,
    format: Annotated[  # noqa: A002
        Format | None,
        typer.Option("--format", help="Input format: csv, parquet or jsonl (default: from the extension, else csv)."),
    ] = None,
    out_format: Annotated[
        Format | None,
        typer.Option("--out-format", help="Output format (default: from the --out extension, else the input's)."),
    ] = None,
    engine: Annotated[
        EngineName,
        typer.Option("--engine", help="columnar (whole columns; default) or rows (the row engine for every row)."),
    ] = EngineName.COLUMNAR,
    expect_column: Annotated[
        str | None,
        typer.Option(
            "--expect-column",
            help="A column of expected amounts (euros, e.g. paid_amount): report the rows whose amount differs.",
        ),
    ] = None,
    report: Annotated[
        Path | None,
        typer.Option("--report", help="Write the mismatch report (CSV) here (default: standard error)."),
    ] = None,
    reasons: Annotated[
        bool,
        typer.Option(
            "--reasons/--no-reasons",
            help=(
                "Explain every result that is not « computed » (reason, missing_facts): one explained answer each "
                "(default). --no-reasons fills them only where they depend on the version and date alone (faster)."
            ),
        ),
    ] = True,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers", min=1, help="Processes computing blocks (default: one per core for inputs over 4 MB)."
        ),
    ] = None,
    progress: Annotated[
        bool, typer.Option("--progress", help="Show the progress line even when standard error is not a terminal.")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress line and no summary on standard error.")] = False,
    versions_dir: VersionsDir = None,
) -> None:
    """Compute many purchases: CSV (documented header), Parquet or JSON Lines in; results out."""
    _keep_freed_memory()
    kind = format or _by_extension(input_path) or Format.CSV
    target = out_format or (_by_extension(str(out)) if out else None) or kind
    if target is Format.PARQUET and out is None and sys.stdout.isatty():
        fail(400, "Invalid arguments", [{"field": "--out", "message": "Parquet is not written to a terminal"}], 2)
    with ExitStack() as stack:
        source = _open_input(input_path)
        if input_path != "-":
            stack.enter_context(source)
        if report is not None and expect_column is not None:
            _writable(report, "--report", 0).close()  # said before the run, not after it
        size = os.fstat(source.fileno()).st_size if input_path != "-" else 0
        catalogue = catalogue_from(versions_dir)
        items: Iterator[tuple[str, int, Any]]
        rows = 0  # Parquet: the progress counts rows, not bytes
        if kind is Format.PARQUET:
            header, reader = _parquet(source)
            rows = reader.metadata.num_rows
        elif kind is Format.CSV:
            header = _header(source)
        else:
            header = []
        if kind is not Format.JSONL:
            problem = header_problem(header, expect_column)
            if problem is not None:
                fail(422, "Invalid header", [{"field": "header", "message": problem}], 2)
        if out is None:
            sys.stdout.flush()
        # opened once the input is known good (a bad header leaves the last run's output as it was), before the set-up:
        # the old content's pages are freed by the kernel while the set-up runs (_output)
        sink = _output(stack, out, reused=target is not Format.PARQUET) if out else sys.stdout.buffer
        settings = Settings(header, expect_column, engine.value, target.value, reasons, versions_dir)
        count = workers or ((os.cpu_count() or 1) if size >= PARALLEL_FROM_BYTES else 1)
        shown = progress or (sys.stderr.isatty() and not quiet)
        meter = stack.enter_context(Progress(rows if kind is Format.PARQUET else size, enabled=shown))
        reading = None
        if kind is Format.PARQUET:
            groups = _row_groups(reader, input_path, meter, count) if count > 1 and input_path != "-" else None
            if groups is not None:  # the workers read their row groups themselves
                items = (("parquet", first, part) for first, part in groups)
            else:
                # read by this process alone: Arrow's threads would only take the workers' cores (measured on one row
                # group of 1 000 000 rows, 6 runs each: this process 1.47 -> 1.33 CPU-s, the run 2.14 -> 2.05 s)
                batches = reader.iter_batches(batch_size=PARQUET_BATCH_ROWS, use_threads=False)
                items = (("parquet", first, b) for first, b in _numbered(batches, meter))
                if count > 1:  # the workers' first batches read during the set-up (_read_ahead)
                    items, reading = _read_ahead(items, count)
        else:
            block = ARROW_SCALE if engine is EngineName.COLUMNAR and kind is Format.CSV else 1
            first_line = 2 if kind is Format.CSV else 1
            if count > 1 and input_path != "-" and source.seekable():  # the workers read their blocks themselves
                parts = balanced_parts(size - source.tell(), BLOCK_BYTES * block, count)
                if kind is Format.CSV and FORKED:  # cut here, their lines counted by the workers (LineCounts)
                    items = _counted_spans(source, first_line, input_path, parts, meter)
                else:
                    sizes = read_spans(source, first_line, progress=meter, scale=block, parts=parts)
                    items = ((kind.value, first, span) for first, span in _spans(sizes, input_path, source.tell()))
            else:
                items = ((kind.value, first, data) for first, data in _blocks(source, first_line, block, meter))
        setup(settings, catalogue)
        _cut_first(sink)
        if reading is not None:
            reading.join()
        started = time.perf_counter()
        totals = Piece()
        writer: Any = None
        if target is Format.CSV:
            sink.write((",".join(OUTPUT_COLUMNS) + "\n").encode())
        for piece in run_pieces(items, count, settings, sink):
            if piece.unreadable is not None:
                fail(422, "Invalid Parquet input", [{"field": "INPUT", "message": piece.unreadable}], 2)
            if target is Format.PARQUET:
                writer = writer or _parquet_writer(sink, piece.data.schema)
                writer.write_table(piece.data.cast(writer.schema))
            else:
                write_piece(sink, piece)
            _add(totals, piece)
            meter.update(totals.rows)
        meter.update(totals.rows, last=True)
        if target is Format.PARQUET:
            if writer is None:
                from api.batch.results import Outcomes, Records, Tables

                empty = Records(Outcomes(0), Tables(catalogue), _no_lines(), None, lambda i: {}).table()
                writer = _parquet_writer(sink, empty.schema)
            writer.close()
    if expect_column is not None:
        _report(totals, report)
    if not quiet:
        _summary(totals, time.perf_counter() - started, count, engine, expect_column)
    code = 4 if totals.mismatches else 1 if totals.invalid else 0
    if END_AT_ONCE:  # the console script (api.cli.main.main): every file is closed, the caches written
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    raise typer.Exit(code)


def _keep_freed_memory() -> None:
    """glibc's malloc told to keep up to 256 MB of freed memory at its heap's top (M_TRIM_THRESHOLD) and to grow the
    heap 64 MB at a time (M_TOP_PAD), where by default it gives back to the system what passes 128 kB: a block's
    arrays, freed at its end, are then the next block's without the kernel clearing them again (measured on
    1 000 000 rows, runs alternated, 2026-12-07: system time 0.62 -> 0.50 s, the run 1.956 -> 1.905 s, median of 7;
    once 1.93 -> 1.85 s). The memory stays flat: one block's, kept. Set before the workers are forked (they inherit
    it); not where the environment sets MALLOC_TRIM_THRESHOLD_ or MALLOC_TOP_PAD_ (glibc reads them itself), nor off
    Linux."""
    if not sys.platform.startswith("linux") or any(
        name in os.environ for name in ("MALLOC_TRIM_THRESHOLD_", "MALLOC_TOP_PAD_")
    ):
        return
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt  # glibc's; another C library may have none
    except (OSError, AttributeError):
        return
    m_trim_threshold, m_top_pad = -1, -2  # glibc's malloc.h
    mallopt(m_trim_threshold, 256 << 20)
    mallopt(m_top_pad, 64 << 20)


def _no_lines() -> Any:
    import numpy as np

    return np.zeros(0, dtype=np.int64)


def _blocks(source: BinaryIO, first_line: int, scale: int, meter: Progress) -> Iterator[tuple[int, bytes]]:
    return read_blocks(source, first_line, csv_quotes=False, progress=meter, scale=scale)


def _spans(sizes: Iterator[tuple[int, int]], path: str, offset: int) -> Iterator[tuple[int, Span]]:
    """Each block by its place in the file (the blocks are contiguous, from ``offset``: after the header)."""
    for first, size in sizes:
        yield first, Span(path, offset, size)
        offset += size


FORKED = "fork" in multiprocessing.get_all_start_methods()  # run_pieces forks its workers: they inherit _STATE


def _counted_spans(
    source: BinaryIO, first_line: int, path: str, parts: list[int], meter: Progress
) -> Iterator[tuple[str, int, Span]]:
    """The CSV's blocks by place, cut without reading them (:func:`api.batch.run.cut_spans`), each numbered in the
    run's :class:`~api.batch.arrow_run.LineCounts` (set before the workers are forked: they inherit it), whose lines
    the workers count."""
    from api.batch import arrow_run

    offset = source.tell()
    spans = []
    for k, size in enumerate(cut_spans(source, parts=parts)):
        spans.append(Span(path, offset, size, k))
        offset += size
    arrow_run._STATE["line_counts"] = LineCounts.shared(first_line, spans, multiprocessing.get_context("fork"))

    def items() -> Iterator[tuple[str, int, Span]]:
        for k, span in enumerate(spans):
            yield "csv", k, span  # (the item's number: a name for its spill files; its first line: its LineCounts)
            meter.read(span.size)

    return items()


def _read_ahead(items: Iterator[Any], count: int) -> tuple[Iterator[Any], threading.Thread]:
    """The items, the first ``count`` read by a thread while this process sets up: a Parquet file this process reads
    alone (Arrow lets the GIL go while it decodes), on the core the set-up leaves idle, so that the workers start at
    once rather than wait for this process to read their first batches (measured on one row group of 1 000 000 rows:
    the workers' first batches begun at 0.39 s rather than 0.44-0.48 s; the run, alternated, 2.238 -> 2.209 s). The
    thread is to be joined before the workers are forked; what it raised (a damaged file: the problem document
    written) is raised where its item would have come, as without it."""
    head: list[Any] = []
    failed: list[BaseException] = []

    def read() -> None:
        try:
            for _ in range(count):
                found = next(items, None)
                if found is None:
                    return
                head.append(found)
        except BaseException as exc:  # noqa: BLE001 - raised in this process's thread, after the batches read before it
            failed.append(exc)

    thread = threading.Thread(target=read, name="vigueur-read-ahead", daemon=True)
    thread.start()

    def chained() -> Iterator[Any]:
        yield from head
        if failed:  # (a damaged file: its problem document written, the run stops as without the thread)
            raise failed[0]
        yield from items

    return chained(), thread


def _parquet(source: BinaryIO) -> tuple[list[str], Any]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    from api.batch.arrow_read import unreadable_type
    from api.batch.arrow_run import dictionary_columns

    try:
        data: Any = source if source.seekable() else pa.BufferReader(source.read())
        reader = pq.ParquetFile(data)
        schema = reader.schema_arrow
    except (pa.ArrowException, OSError, ValueError) as exc:
        fail(422, "Invalid Parquet input", [{"field": "INPUT", "message": f"not a Parquet file: {exc}"}], 2)
    wrong = [f"{f.name}: {f.type} is not a cell's value" for f in schema if unreadable_type(f.type)]
    if wrong:
        fail(422, "Invalid Parquet input", [{"field": "header", "message": "; ".join(wrong)}], 2)
    metadata = reader.metadata
    if all(metadata.row_group(i).num_rows >= PARQUET_BATCH_ROWS for i in range(metadata.num_row_groups - 1)):
        # the columns by codes read as codes (measured on one row group of 1 000 000 rows: 2.35 -> 2.1 s); not when
        # a batch would gather many row groups, each its dictionary (measured on groups of 4 500 rows: 2.5 -> 5 s)
        with contextlib.suppress(pa.ArrowException, OSError, ValueError):
            reader = pq.ParquetFile(data, metadata=metadata, read_dictionary=dictionary_columns(schema.names))
    return list(schema.names), reader


def _row_groups(reader: Any, path: str, meter: Progress, workers: int) -> Iterator[tuple[int, Any]] | None:
    """The file's row groups in parts of about PARQUET_BATCH_ROWS rows, with the number of their first row, for
    workers that read them themselves (None: a row group too big for flat memory, read in batches here). As many parts
    for each worker: the parts' number a multiple of ``workers`` (1 000 000 rows in row groups of 4 500, 2 workers: 16
    parts, 8 each, rather than 15, one worker's 8 to the other's 7: the last worker no longer alone at the end)."""
    from api.batch.arrow_run import RowGroups

    metadata = reader.metadata
    sizes = [metadata.row_group(i).num_rows for i in range(metadata.num_row_groups)]
    if any(size > 4 * PARQUET_BATCH_ROWS for size in sizes):
        return None
    parquet_metadata(path, metadata)  # (forked workers inherit it)
    total = sum(sizes)
    count = max(1, -(-total // (PARQUET_BATCH_ROWS * workers))) * workers  # parts: a multiple of the workers
    ends = np.cumsum(sizes)

    def parts() -> Iterator[tuple[int, Any]]:
        first, at = 1, 0
        for k in range(1, count + 1):  # part k ends at the first group boundary at or past k / count of the rows
            stop = int(np.searchsorted(ends, -(-total * k // count))) + 1 if k < count else len(sizes)
            if stop <= at:
                continue  # (row groups bigger than a part: fewer parts)
            rows = int(ends[stop - 1]) - (int(ends[at - 1]) if at else 0)
            yield first, RowGroups(path, tuple(range(at, stop)))
            meter.read(rows)
            first, at = first + rows, stop

    return parts()


def _numbered(batches: Iterator[Any], meter: Progress) -> Iterator[tuple[int, Any]]:
    import pyarrow as pa

    first = 1
    try:
        for batch in batches:
            yield first, batch
            first += batch.num_rows
            meter.read(batch.num_rows)
    except (pa.ArrowException, OSError, ValueError) as exc:
        fail(422, "Invalid Parquet input", [{"field": "INPUT", "message": f"row {first} on: {exc}"}], 2)


def _parquet_writer(sink: BinaryIO, schema: Any) -> Any:
    import pyarrow as pa
    import pyarrow.parquet as pq

    # Dictionary pages where values repeat (not the line, the id, the amount: ~1 value a record, whose dictionary the
    # writer would build to drop it); the line delta-encoded (it grows by 0 or 1); statistics for the columns a reader
    # prunes row groups on (not the texts: every row group holds every status, most versions; their min and max cost
    # the writer a decoding). Measured on 1 000 000 rows: 0.52 -> 0.26 CPU-s, the file 4.7 -> 2.6 MB.
    names = schema.names
    return pq.ParquetWriter(
        pa.PythonFile(sink, mode="w"),
        schema,
        compression="zstd",
        store_schema=False,  # (the columns given as dictionary arrays are strings in the file: read back as strings)
        use_dictionary=[n for n in names if n not in ("line", "id", "amount")],
        column_encoding={"line": "DELTA_BINARY_PACKED"} if "line" in names else None,
        write_statistics=[n for n in names if n in PARQUET_STATISTICS],
    )


PARQUET_STATISTICS = ("line", "amount", "eligible", "claim_deadline")


def _add(totals: Piece, piece: Piece) -> None:
    totals.rows += piece.rows
    totals.results += piece.results
    totals.invalid += piece.invalid
    totals.fallbacks += piece.fallbacks
    totals.first_error = totals.first_error or piece.first_error
    totals.compared += piece.compared
    totals.recovered += piece.recovered
    totals.mismatches.extend(piece.mismatches)


def _open_input(path: str) -> BinaryIO:
    if path == "-":
        return sys.stdin.buffer
    if not Path(path).is_file():
        fail(400, "Input file not found", [{"field": "INPUT", "message": f"no file {path}"}], 2)
    return open(path, "rb")  # noqa: SIM115 - closed by the command


def _writable(path: Path, field: str, flags: int = os.O_TRUNC) -> BinaryIO:
    """``path`` opened for writing (binary); a problem document naming ``field`` when it cannot be (a directory, a
    folder that does not exist, no permission)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | flags, 0o666)
    except OSError as exc:
        fail(400, "Invalid arguments", [{"field": field, "message": f"cannot write {path}: {exc.strerror}"}], 2)
    return os.fdopen(fd, "wb")


def _output(stack: ExitStack, path: Path, *, reused: bool) -> BinaryIO:
    """The ``--out`` file. ``reused`` (CSV, JSON Lines): an existing regular file is cut to one byte rather than
    emptied, and to the size written when the command ends, however it ends (:func:`_cut`) — ext4 (its default
    ``auto_da_alloc``) forces to disk, as it is closed, a file emptied and written again: measured, 0.1 s at the end
    of a 1 000 000-row run over the previous run's output. The cut runs in a thread (the kernel frees the old
    content's pages: 20-60 ms for 232 MB, on the other core while this one sets up), joined before the first write
    (:func:`_cut_first`). (Parquet: its writer closes the file itself; emptied.)"""
    sink = stack.enter_context(_writable(path, "--out", 0 if reused else os.O_TRUNC))
    found = os.fstat(sink.fileno())
    if reused and stat.S_ISREG(found.st_mode):
        stack.callback(_cut, sink)
        if found.st_size > 1:  # not 0 (see above); the first byte is written over at once
            cutting = threading.Thread(target=_cut_to_one, args=(sink.fileno(),), name="vigueur-cut", daemon=True)
            cutting.start()
            _CUTTING[id(sink)] = cutting
            stack.callback(_cut_first, sink)  # joined however the command ends; before _cut (last in, first out)
    elif reused:
        with contextlib.suppress(OSError):  # not a regular file (a pipe, a device): nothing to cut
            os.ftruncate(sink.fileno(), 0)
    return sink


_CUTTING: dict[int, threading.Thread] = {}  # the output file being cut, by its file object (_output)


def _cut_to_one(fd: int) -> None:
    """The output file cut to one byte (:func:`_output`). Should the system refuse, nothing is lost: what the run
    writes goes over the old content, and :func:`_cut` cuts the file where the writing ended."""
    with contextlib.suppress(OSError):
        os.ftruncate(fd, 1)


def _cut_first(sink: BinaryIO) -> None:
    """The output file's cut to one byte done (:func:`_output`): before anything is written in it."""
    cutting = _CUTTING.pop(id(sink), None)
    if cutting is not None:
        cutting.join()


def _cut(sink: BinaryIO) -> None:
    """The output file cut where its writing ended: what the command wrote, through this file's position (written,
    copied by the kernel, or moved past the workers' writes), and nothing of what the file held before."""
    if sink.closed:
        return
    sink.flush()
    end = os.lseek(sink.fileno(), 0, os.SEEK_CUR)
    if end < os.fstat(sink.fileno()).st_size:
        os.ftruncate(sink.fileno(), end)


def _header(source: BinaryIO) -> list[str]:
    try:
        first = source.readline().decode("utf-8-sig").rstrip("\r\n")  # a leading BOM is accepted (README)
    except UnicodeDecodeError as exc:
        fail(422, "Invalid CSV header", [{"field": "header", "message": f"not valid UTF-8: {exc.reason}"}], 2)
    if not first:
        fail(422, "Empty input", [{"field": "header", "message": "the CSV input has no header line"}], 2)
    try:
        return next(csv.reader([first], strict=True))
    except csv.Error as exc:
        fail(422, "Invalid CSV header", [{"field": "header", "message": f"not a CSV line: {exc}"}], 2)


def _report(totals: Piece, target: Path | None) -> None:
    """The rows whose computed amount differs from the expected one, as CSV (to ``target`` or standard error)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(MISMATCH_COLUMNS)
    for line, ident, expected, computed, versions in sorted(totals.mismatches):
        difference = None if computed is None else computed - expected
        writer.writerow(
            [
                line,
                ident or "",
                euros(expected),
                "" if computed is None else euros(computed),
                "" if difference is None else euros(difference),
                versions,
            ]
        )
    if target is not None:
        with _writable(target, "--report") as written:
            written.write(buffer.getvalue().encode("utf-8"))
    elif totals.mismatches:
        sys.stderr.write(buffer.getvalue())


def _summary(totals: Piece, elapsed: float, workers: int, engine: EngineName, expect: str | None) -> None:
    share = 100 * totals.fallbacks / totals.results if totals.results else 0.0
    rate = totals.rows / elapsed if elapsed else 0.0
    left = (
        f"{totals.fallbacks} results ({share:.2f} %) by the row engine"
        if engine is EngineName.COLUMNAR
        else "every result by the row engine"
    )
    lines = [
        f"vigueur batch: {totals.rows} rows, {totals.results} results, {totals.invalid} invalid rows; "
        f"engine {engine.value}: {left}; {elapsed:.2f} s, {rate:,.0f} rows/s, {workers} process(es)"
    ]
    if expect is not None:
        differing = len(totals.mismatches)
        unknown = sum(1 for m in totals.mismatches if m[3] is None)
        net = sum(m[3] - m[2] for m in totals.mismatches if m[3] is not None)
        lines.append(
            f"expected amounts ({expect}): {totals.compared} rows compared, {differing} differ "
            f"({unknown} with no computed amount; net difference {euros(net)} €)"
        )
    if totals.recovered:
        lines.append(f"{totals.recovered} block(s) read again row by row (the Arrow reading failed on them)")
    if totals.first_error:
        lines.append(f"first invalid row: {totals.first_error}")
    typer.echo("\n".join(lines), err=True)
