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
