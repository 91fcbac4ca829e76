"""`vigueur batch`: many purchases in (CSV or JSON Lines), one result per scheme out, in the same format.

The reading, the chunks and the worker processes are :mod:`api.batch.run`; this module is the command: its
arguments, the problems it reports and the summary on standard error. Exit code: 0 every row valid; 1 some
rows invalid (all the others computed); 2 bad arguments or CSV header; 3 invalid catalogue.
"""

from __future__ import annotations

import csv
import os
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Annotated, BinaryIO

import typer

from api.batch.blocks import OUTPUT_COLUMNS, ChunkResult, CsvPlan, Invalid
from api.batch.run import (
    PARALLEL_FROM_BYTES,
    Format,
    Progress,
    add_result,
    compute_blocks,
    read_blocks,
    use_engine,
)
from api.cli.options import VersionsDir, catalogue_from, fail
from legislation.fast import Engine


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
        use_engine(Engine(catalogue_from(versions_dir)))
        header, first_line = (_header(source), 2) if kind is Format.CSV else (None, 1)
        count = workers or ((os.cpu_count() or 1) if size >= PARALLEL_FROM_BYTES else 1)
        if out is None:
            sys.stdout.flush()
        sink = stack.enter_context(out.open("wb")) if out else sys.stdout.buffer
        started = time.perf_counter()
        progress = stack.enter_context(Progress(size, enabled=sys.stderr.isatty() and not quiet))
        totals = ChunkResult()
        if kind is Format.CSV:
            sink.write((",".join(OUTPUT_COLUMNS) + "\n").encode())
        blocks = read_blocks(source, first_line, csv_quotes=kind is Format.CSV, progress=progress)
        for result in compute_blocks(blocks, count, header, versions_dir):
            sink.write(result.data)
            add_result(totals, result)
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
