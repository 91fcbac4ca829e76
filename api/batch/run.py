"""Many purchases in (CSV or JSON Lines), one result per scheme out, in the same format (`vigueur batch`).

The input is streamed in chunks of lines; each chunk is validated and computed by the compiled fast path
(:mod:`legislation.fast`) — in this process, or in worker processes for big inputs, the chunks written
back in input order with at most a few in flight, so memory stays flat whatever the input size. A row
that does not validate is written with status ``invalid``, its line number and the reason, and the run
goes on. The command itself (arguments, exit codes, summary) is :mod:`api.cli.batch`.
"""

from __future__ import annotations

import gc
import io
import itertools
import multiprocessing
import sys
import time
from collections import deque
from collections.abc import Iterator, Sequence
from enum import StrEnum
from pathlib import Path
from typing import Any, BinaryIO

from api.batch.blocks import ChunkResult, CsvPlan, run_csv_chunk, run_jsonl_chunk
from api.kernel_cache import form_store
from legislation.fast import Engine

BLOCK_BYTES = 1 << 20  # input per chunk (≈ 5 000 CSV rows): amortises the hand-off, keeps memory flat
PARALLEL_FROM_BYTES = 4 << 20  # inputs smaller than this are computed in this process by default


class Format(StrEnum):
    CSV = "csv"
    JSONL = "jsonl"


Block = tuple[int, bytes]  # (number of its first line, whole lines)
_STATE: dict[str, Any] = {}  # this process's engine and CSV plan (workers inherit or build their own)


def read_blocks(
    source: BinaryIO, first_line: int, *, csv_quotes: bool, progress: Progress, scale: int = 1
) -> Iterator[Block]:
    """Blocks of whole lines (about BLOCK_BYTES each) with the number of their first line.

    One line is one record in both formats (a CSV field may not hold a line break): a block ends after
    its last line feed. Each byte is looked at once (a line longer than a block is gathered in parts),
    whatever the quotes: the reading stays linear in the input's size. ``scale``: blocks of ``scale`` ×
    BLOCK_BYTES (the columnar path amortises its work over bigger blocks).
    """
    del csv_quotes
    line, parts = first_line, []
    while block := source.read(BLOCK_BYTES * scale):
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


def read_spans(
    source: BinaryIO, first_line: int, *, progress: Progress, scale: int = 1, parts: Sequence[int] = ()
) -> Iterator[tuple[int, int]]:
    """The blocks :func:`read_blocks` gives, as (number of the first line, size in bytes) only: for workers that read
    their blocks themselves. Each part (the sizes ``parts`` gives in turn, the last one after them: see
    :func:`balanced_parts`; none given: ``BLOCK_BYTES × scale``) is read into one reused buffer and its line feeds
    counted there (no copy of a block in this process)."""
    sizes = list(parts) or [BLOCK_BYTES * scale]
    buffer = bytearray(max(sizes))
    view = memoryview(buffer)
    line, carried = first_line, 0  # bytes of a line not ended yet, read before this part
    for k in itertools.count():
        read = source.readinto(view[: sizes[min(k, len(sizes) - 1)]])
        if not read:
            break
        progress.read(read)
        cut = buffer.rfind(b"\n", 0, read) + 1
        if cut == 0:  # no line ends in this part: read on
            carried += read
            continue
        yield line, carried + cut
        line += line_feeds(view[:cut])
        carried = read - cut
    if carried:
        yield line, carried


def balanced_parts(left: int, target: int, workers: int) -> list[int]:
    """The sizes of the parts read for ``left`` bytes computed by ``workers`` processes (each takes the next block as it
    is free): about ``target`` each, as many for each worker, then half as big for the last two rounds, so that the
    workers end together (measured on 225 MB, 2 workers: 14 blocks of 16 MB and a last of 1 MB had left one worker
    alone for 0.15 s of a 1.8 s run; the last rounds now last half a block). An input under a round of blocks: one
    part for each worker."""
    if left <= target * workers:
        return [max(1, -(-left // workers))]
    tail = [max(1, target // 2)] * (2 * workers)
    bulk = max(0, left - sum(tail))
    blocks = max(1, round(bulk / (target * workers))) * workers
    return [max(1, -(-bulk // blocks))] * blocks + tail


def cut_spans(source: BinaryIO, *, scale: int = 1, parts: Sequence[int] = ()) -> list[int]:
    """The sizes of the blocks :func:`read_spans` gives from the source's position (a seekable file) — each part cut
    after its last line feed, a part without one carried into the next — found by reading only a few kB before each
    part's end, the lines not counted: for workers that count their own blocks' lines (``arrow_run.LineCounts``;
    measured on 225 MB: this process read and counted every byte, 0.1 CPU-s taken from the workers' two cores)."""
    sizes = list(parts) or [BLOCK_BYTES * scale]
    start = source.tell()
    end = source.seek(0, io.SEEK_END)
    found: list[int] = []
    block_start = at = start
    for k in itertools.count():
        if at >= end:
            break
        part_end = min(at + sizes[min(k, len(sizes) - 1)], end)
        cut = _after_last_line_feed(source, at, part_end)
        if cut is not None:
            found.append(cut - block_start)
            block_start = cut
        at = part_end
    if block_start < end:
        found.append(end - block_start)
    source.seek(start)
    return found


def _after_last_line_feed(source: BinaryIO, low: int, high: int, window: int = 1 << 16) -> int | None:
    """The position just after the last line feed of ``source[low:high]`` (None: none), read backwards from
    ``high`` a window at a time."""
    while high > low:
        at = max(low, high - window)
        source.seek(at)
        found = source.read(high - at).rfind(b"\n")
        if found >= 0:
            return at + found + 1
        high = at
    return None


def line_feeds(data: memoryview) -> int:
    """The line feeds in ``data``, counted by numpy a megabyte at a time into one reused buffer (measured on a 16 MB
    part of a CSV: 1.4 ms, against 7.2 ms for ``bytes.count``, which reads byte by byte; the main process counts
    every line of the input while the workers compute)."""
    import numpy as np

    part = 1 << 20
    values = np.frombuffer(data, dtype=np.uint8)
    found = np.empty(min(part, len(values)), dtype=np.bool_)
    count = 0
    for start in range(0, len(values), part):
        piece = values[start : start + part]
        count += int(np.count_nonzero(np.equal(piece, 10, out=found[: len(piece)])))
    return count


def compute_blocks(
    blocks: Iterator[Block], workers: int, header: list[str] | None, versions_dir: Path | None
) -> Iterator[ChunkResult]:
    """Each block's result, in input order; in worker processes when ``workers`` > 1."""
    _setup(None, header)
    if workers == 1:
        yield from map(_work, blocks)
        return
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
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
        from api.catalogue.kept import load_catalogue

        _STATE["engine"] = Engine(load_catalogue(versions_dir), form_store())
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


def add_result(totals: ChunkResult, result: ChunkResult) -> None:
    totals.rows += result.rows
    totals.results += result.results
    totals.invalid += result.invalid
    totals.fallbacks += result.fallbacks
    totals.first_error = totals.first_error or result.first_error


def use_engine(engine: Engine) -> None:
    """Compute with this engine in this process (worker processes forked later inherit it)."""
    _STATE["engine"] = engine


class Progress:
    """A one-line progress report on standard error (only when it is a terminal)."""

    def __init__(self, size: int, *, enabled: bool) -> None:
        self.size, self.enabled, self.done_chars = size, enabled, 0
        self.started = self.shown = time.perf_counter()

    def read(self, chars: int) -> None:
        self.done_chars += chars

    def update(self, rows: int, *, last: bool = False) -> None:
        now = time.perf_counter()
        if not self.enabled or (now - self.shown < 0.25 and not last):
            return
        self.shown = now
        share = f"{min(100.0, 100 * self.done_chars / self.size):5.1f} % · " if self.size else ""
        sys.stderr.write(f"\rbatch: {share}{rows:,} rows · {rows / (now - self.started):,.0f} rows/s   ")
        sys.stderr.flush()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *_: object) -> None:
        if self.enabled:
            sys.stderr.write("\n")
