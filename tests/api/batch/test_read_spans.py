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
