"""The blocks of a file by place (`read_spans`, for workers that read their blocks themselves) are the blocks
`read_blocks` gives: the same first line numbers and the same sizes, on lines shorter and longer than a block."""

from __future__ import annotations

import io
import random

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
