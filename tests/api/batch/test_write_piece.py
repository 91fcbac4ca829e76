"""A worker's output left in a spill file is copied to the output whole: by the kernel to a file, by reading it to a
sink without a file descriptor (standard output captured, a buffer)."""

from __future__ import annotations

import io
from pathlib import Path

from api.batch.arrow_run import Piece, Span, write_piece


def test_a_span_is_copied_to_a_file_and_to_a_buffer(tmp_path: Path) -> None:
    spill = tmp_path / "piece"
    body = b"".join(b"%d,row\n" % i for i in range(50_000))  # ~0.4 MB: more than one sendfile call may take
    spill.write_bytes(b"ignored" + body + b"after")
    piece = Piece(data=Span(str(spill), 7, len(body)))
    target = tmp_path / "out.csv"
    with target.open("wb") as sink:
        sink.write(b"header\n")  # buffered: written before the copy
        write_piece(sink, piece)
        write_piece(sink, Piece(data=b"tail\n"))
    assert target.read_bytes() == b"header\n" + body + b"tail\n"
    buffer = io.BytesIO()
    write_piece(buffer, piece)  # no file descriptor: read and written
    assert buffer.getvalue() == body


def test_the_cells_of_rows_are_the_table_s_across_chunks() -> None:
    """The row path's cells, taken batch by batch, are those of ``Table.take`` (positions in any order)."""
    import numpy as np
    import pyarrow as pa

    from api.batch.arrow_run import _cells

    schema = pa.schema({"a": pa.string(), "b": pa.string()})
    chunks = [
        pa.table(
            {"a": [f"a{i}" for i in range(s, e)], "b": [None if i % 4 == 0 else str(i) for i in range(s, e)]}, schema
        )
        for s, e in [(0, 5), (5, 5), (5, 12), (12, 13)]
    ]
    table = pa.concat_tables(chunks)
    assert table.column("a").num_chunks == 4
    for positions in ([0, 4, 5, 11, 12], [12, 0, 7, 3], [6]):
        expected = [tuple(row.values()) for row in table.take(pa.array(positions)).to_pylist()]
        assert _cells(table, np.array(positions)) == expected
