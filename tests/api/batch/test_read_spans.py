"""The blocks of a file by place (`read_spans`, for workers that read their blocks themselves) are the blocks
`read_blocks` gives: the same first line numbers and the same sizes, on lines shorter and longer than a block."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

import api.batch.run as run
from api.batch.run import Progress, read_blocks, read_spans


@pytest.mark.parametrize("block_bytes", [1, 7, 64, 1000])
def test_spans_are_the_blocks(monkeypatch: pytest.MonkeyPatch, block_bytes: int) -> None:
    monkeypatch.setattr(run, "BLOCK_BYTES", block_bytes)
    rng = random.Random(block_bytes)
    for _ in range(100):
        lines = [b"x" * rng.choice([0, 1, 5, 40, 300, 5000]) for _ in range(rng.randint(0, 60))]
        data = b"\n".join(lines) + (b"\n" if rng.random() < 0.5 else b"")
        with Progress(len(data), enabled=False) as progress:
            found = read_blocks(io.BytesIO(data), 2, csv_quotes=False, progress=progress)
            blocks = [(first, len(part)) for first, part in found]
            spans = list(read_spans(io.BufferedReader(io.BytesIO(data)), 2, progress=progress))
        assert spans == blocks
        assert sum(size for _, size in spans) == len(data)


def test_a_known_file() -> None:
    data = b"a\nbb\n\nccc"  # lines 2, 3, 4, 5 (the header was line 1); the last one not ended
    with Progress(len(data), enabled=False) as progress:
        # the 6 bytes up to the last line feed (3 lines: 2-4), then the unended line 5 on its own (3 bytes)
        assert list(read_spans(io.BufferedReader(io.BytesIO(data)), 2, progress=progress, scale=1)) == [(2, 6), (5, 3)]


def test_balanced_parts_give_each_worker_as_many_blocks_then_halves() -> None:
    from api.batch.run import balanced_parts

    mb = 1 << 20
    # 225 MB, blocks of 16 MB, 2 workers: 4 half blocks (32 MB) last; 193 MB in 12 blocks (a multiple of 2) of 16.1 MB
    parts = balanced_parts(225 * mb, 16 * mb, 2)
    assert parts[-4:] == [8 * mb] * 4 and len(parts) == 16 and len(set(parts[:12])) == 1
    assert parts[0] == -(-(225 - 32) * mb // 12)  # 193 MB / 12, rounded up
    assert sum(parts) >= 225 * mb > sum(parts) - 12  # every byte read, at most a byte more a block
    assert balanced_parts(20 * mb, 16 * mb, 2) == [10 * mb]  # under a round of blocks: one part for each worker
    assert balanced_parts(1, 16 * mb, 2) == [1]


def test_spans_read_in_the_parts_given_end_on_whole_lines() -> None:
    data = b"".join(b"%d,%s\n" % (i, b"x" * (i % 7)) for i in range(2000))
    with Progress(len(data), enabled=False) as progress:
        spans = list(read_spans(io.BufferedReader(io.BytesIO(data)), 2, progress=progress, parts=[4000, 4000, 1000]))
    assert sum(size for _, size in spans) == len(data)
    offset = 0
    for first, size in spans:  # each span: whole lines, numbered from the line after the previous span's
        assert data[offset : offset + size].endswith(b"\n") and first == 2 + data[:offset].count(b"\n")
        offset += size
    line = max(len(x) + 1 for x in data.split(b"\n"))  # the longest line, its line feed counted
    assert 4000 - line < spans[0][1] <= 4000 and 4000 - line < spans[1][1] < 4000 + line  # the parts given
    assert max(size for _, size in spans[2:]) < 1000 + line  # then the last size given, again and again


@pytest.mark.parametrize("parts", [[], [7], [64, 64, 10], [1000, 3]])
def test_cut_spans_are_the_spans_read_without_reading_the_blocks(parts: list[int]) -> None:
    """cut_spans (the main process of a parallel CSV run) cuts the blocks read_spans cuts, reading only near the
    cuts: the same sizes, from the source's position, which it leaves where it was."""
    from api.batch.run import cut_spans

    rng = random.Random(len(parts))
    for _ in range(100):
        lines = [b"x" * rng.choice([0, 1, 5, 40, 300, 5000]) for _ in range(rng.randint(0, 60))]
        data = b"header\n" + b"\n".join(lines) + (b"\n" if rng.random() < 0.5 else b"")
        source = io.BufferedReader(io.BytesIO(data))
        source.readline()
        with Progress(len(data), enabled=False) as progress:
            expected = [size for _, size in read_spans(source, 2, progress=progress, scale=1, parts=parts)]
        source.seek(7)
        assert cut_spans(source, scale=1, parts=parts) == expected
        assert source.tell() == 7


def test_each_block_is_numbered_from_the_line_counts_of_those_before_it(tmp_path: Path) -> None:
    """LineCounts: a block's first line is the first line plus the line feeds of the blocks before it, counted by
    their workers or, not counted yet, by the one that asks (reading them); the sums kept do not change an answer."""
    import multiprocessing

    from api.batch.arrow_run import LineCounts, Span

    data = b"".join(b"%d\n" % i for i in range(100))
    path = tmp_path / "in.csv"
    path.write_bytes(data)
    cuts = [0, 10, 10, 55, 290, len(data)]  # an empty block among them
    spans = [Span(str(path), a, b - a, k) for k, (a, b) in enumerate(zip(cuts, cuts[1:], strict=False))]
    expected = [2 + data[:a].count(b"\n") for a in cuts[:-1]]
    counts = LineCounts.shared(2, spans, multiprocessing.get_context())
    assert [counts.first(k) for k in range(len(spans))] == expected  # nothing counted before: each counted here
    other = LineCounts.shared(2, spans, multiprocessing.get_context())
    other.counted(3, spans[3].read())  # as its worker does
    assert list(other.counts)[3] == data[55:290].count(b"\n") and list(other.counts)[:3] == [-1, -1, -1]
    assert [other.first(k) for k in (4, 1, 4, 0)] == [expected[4], expected[1], expected[4], expected[0]]
