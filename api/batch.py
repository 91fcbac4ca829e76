"""`vigueur batch`: many purchases in (CSV or JSON Lines), one result per scheme out, in the same format.

The input is streamed in chunks of lines; each chunk is validated and computed by the compiled fast path
(:mod:`legislation.fast`) — in this process, or in worker processes for big inputs, the chunks written
back in input order with at most a few in flight, so memory stays flat whatever the input size. A row
that does not validate is written with status ``invalid``, its line number and the reason, and the run
goes on. Exit code: 0 every row valid; 1 some rows invalid (all the others computed); 2 bad arguments or
CSV header; 3 invalid catalogue.
"""

from __future__ import annotations

import csv
import gc
import multiprocessing
import os
import sys
import time
from collections import deque
from collections.abc import Iterator
from contextlib import ExitStack
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, BinaryIO

import typer

from api.batch_io import OUTPUT_COLUMNS, ChunkResult, CsvPlan, Invalid, run_csv_chunk, run_jsonl_chunk
from api.cli import VersionsDir, app, catalogue_from, fail
from legislation.fast import Engine

BLOCK_BYTES = 1 << 20  # input per chunk (≈ 5 000 CSV rows): amortises the hand-off, keeps memory flat
PARALLEL_FROM_BYTES = 4 << 20  # inputs smaller than this are computed in this process by default


class Format(StrEnum):
    CSV = "csv"
    JSONL = "jsonl"


Block = tuple[int, bytes]  # (number of its first line, whole lines)
_STATE: dict[str, Any] = {}  # this process's engine and CSV plan (workers inherit or build their own)


@app.command()
def batch(
    input_path: Annotated[
        str, typer.Argument(metavar="INPUT", help="CSV or JSON Lines file; '-' reads standard input.")
    ],
    out: Annotated[
        Path | None, typer.Option("--out", help="Write the results here (default: standard output).")
    ] = None,
    format: Annotated[
        Format | None, typer.Option("--format", help="csv or jsonl (default: from the extension, else csv).")
    ] = None,  # noqa: A002
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers",
            min=1,
            help=("Processes computing chunks (default: one per core for inputs over 4 MB, else 1)."),
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", help="No summary on standard error.")] = False,
    versions_dir: VersionsDir = None,
) -> None:
    """Compute many purchases: CSV (documented header) or JSON Lines in, results out in the same format."""
    kind = format or (Format.JSONL if input_path.endswith((".jsonl", ".ndjson")) else Format.CSV)
    with ExitStack() as stack:
        source = _open_input(input_path)
        if input_path != "-":
            stack.enter_context(source)
        size = os.fstat(source.fileno()).st_size if input_path != "-" else 0
        _STATE["engine"] = Engine(catalogue_from(versions_dir))
        header, first_line = (_header(source), 2) if kind is Format.CSV else (None, 1)
        count = workers or ((os.cpu_count() or 1) if size >= PARALLEL_FROM_BYTES else 1)
        if out is None:
            sys.stdout.flush()
        sink = stack.enter_context(out.open("wb")) if out else sys.stdout.buffer
        started = time.perf_counter()
        progress = stack.enter_context(_Progress(size, enabled=sys.stderr.isatty() and not quiet))
        totals = ChunkResult()
        if kind is Format.CSV:
            sink.write((",".join(OUTPUT_COLUMNS) + "\n").encode())
        blocks = _blocks(source, first_line, csv_quotes=kind is Format.CSV, progress=progress)
        for result in _run(blocks, count, header, versions_dir):
            sink.write(result.data)
            _add(totals, result)
            progress.update(totals.rows)
    if not quiet:
        _summary(totals, time.perf_counter() - started, count)
    raise typer.Exit(1 if totals.invalid else 0)


def _open_input(path: str) -> BinaryIO:
    if path == "-":
        return sys.stdin.buffer
    if not Path(path).is_file():
        fail(400, "Input file not found", [{"field": "INPUT", "message": f"no file {path}"}], 2)
    return open(path, "rb")  # noqa: SIM115 - closed by the command


def _header(source: BinaryIO) -> list[str]:
    try:
        first = source.readline().decode("utf-8-sig").rstrip("\r\n")  # a leading BOM is accepted (README)
    except UnicodeDecodeError as exc:
        fail(422, "Invalid CSV header", [{"field": "header", "message": f"not valid UTF-8: {exc.reason}"}], 2)
    if not first:
        fail(422, "Empty input", [{"field": "header", "message": "the CSV input has no header line"}], 2)
    header = next(csv.reader([first]))
    try:
        CsvPlan(header)
    except Invalid as exc:
        fail(422, "Invalid CSV header", [{"field": "header", "message": str(exc)}], 2)
    return header


def _blocks(source: BinaryIO, first_line: int, *, csv_quotes: bool, progress: _Progress) -> Iterator[Block]:
    """Blocks of whole lines (about BLOCK_BYTES each) with the number of their first line.

    One line is one record in both formats (a CSV field may not hold a line break): a block ends after
    its last line feed. Each byte is looked at once (a line longer than a block is gathered in parts),
    whatever the quotes: the reading stays linear in the input's size.
    """
    del csv_quotes
    line, parts = first_line, []
    while block := source.read(BLOCK_BYTES):
        progress.read(len(block))
        cut = block.rfind(b"\n") + 1
        if cut == 0:  # no line ends in this block: read on
            parts.append(block)
            continue
        data = b"".join((*parts, block[:cut])) if parts else block[:cut]
        yield line, data
        line += data.count(b"\n")
        parts = [block[cut:]] if cut < len(block) else []
    if parts:
        yield line, b"".join(parts)


def _run(
    blocks: Iterator[Block], workers: int, header: list[str] | None, versions_dir: Path | None
) -> Iterator[ChunkResult]:
    """Each block's result, in input order; in worker processes when ``workers`` > 1."""
    _setup(None, header)
    if workers == 1:
        yield from map(_work, blocks)
        return
    context = multiprocessing.get_context(
        "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    )
    with context.Pool(workers, initializer=_setup, initargs=(versions_dir, header)) as pool:
        pending: deque[Any] = deque()
        for block in blocks:
            pending.append(pool.apply_async(_work, (block,)))
            if len(pending) >= 2 * workers + 1:  # a bounded window: memory stays flat, order is kept
                yield pending.popleft().get()
        while pending:
            yield pending.popleft().get()


def _setup(versions_dir: Path | None, header: list[str] | None) -> None:
    if "engine" not in _STATE:  # a spawned worker: build its own engine
        from api.loader import load_catalogue

        _STATE["engine"] = Engine(load_catalogue(versions_dir))
    _STATE["plan"] = CsvPlan(header) if header is not None else None
    # The catalogue, the engine and the modules live as long as the process: out of the collector's way.
    # A full collection otherwise walks them every few thousand rows (measured: up to 30 % of the time).
    gc.freeze()


def _work(block: Block) -> ChunkResult:
    first_line, data = block
    plan = _STATE["plan"]
    if plan is None:
        result = run_jsonl_chunk(_STATE["engine"], first_line, data)
    else:
        result = run_csv_chunk(_STATE["engine"], plan, first_line, data)
    result.data, result.text = result.text.encode(), ""  # encoded once, here, and written as is
    return result


def _add(totals: ChunkResult, result: ChunkResult) -> None:
    totals.rows += result.rows
    totals.results += result.results
    totals.invalid += result.invalid
    totals.fallbacks += result.fallbacks
    totals.first_error = totals.first_error or result.first_error


def _summary(totals: ChunkResult, elapsed: float, workers: int) -> None:
    share = 100 * totals.fallbacks / totals.results if totals.results else 0.0
    rate = totals.rows / elapsed if elapsed else 0.0
    lines = [
        f"vigueur batch: {totals.rows} rows, {totals.results} results, {totals.invalid} invalid rows; "
        f"{totals.fallbacks} results ({share:.2f} %) by the explained path; "
        f"{elapsed:.2f} s, {rate:,.0f} rows/s, "
        f"{workers} process(es)"
    ]
    if totals.first_error:
        lines.append(f"first invalid row: {totals.first_error}")
    typer.echo("\n".join(lines), err=True)


class _Progress:
    """A one-line progress report on standard error (only when it is a terminal)."""

    def __init__(self, size: int, *, enabled: bool) -> None:
        self.size, self.enabled, self.done_chars = size, enabled, 0
        self.started = self.shown = time.perf_counter()

    def read(self, chars: int) -> None:
        self.done_chars += chars

    def update(self, rows: int) -> None:
        now = time.perf_counter()
        if not self.enabled or now - self.shown < 0.25:
            return
        self.shown = now
        share = f"{min(100.0, 100 * self.done_chars / self.size):5.1f} % · " if self.size else ""
        sys.stderr.write(f"\rbatch: {share}{rows:,} rows · {rows / (now - self.started):,.0f} rows/s   ")
        sys.stderr.flush()

    def __enter__(self) -> _Progress:
        return self

    def __exit__(self, *_: object) -> None:
        if self.enabled:
            sys.stderr.write("\n")
