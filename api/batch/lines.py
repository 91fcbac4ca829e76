"""The lines of a CSV batch input: one line is one record, decoded strictly, cut into cells.

A CSV record of `vigueur batch` is one line: a quoted field may hold commas and doubled quotes, but not a
line break. A quote left open therefore damages one row only — that row is reported invalid, naming its
line and its column, and the next line is read as the next row. (Letting a quoted field run on over lines
made one stray quote swallow every following row into one invalid record, and the reader quadratic.)

Each line is decoded as UTF-8 strictly: a line that is not UTF-8 is reported with the column holding the
bad bytes, never read with replacement characters. An ``id`` holding a control character (a NUL, …) is
refused, as the JSON contract refuses it in a string.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator, Sequence

from api.batch.csv_rows import Invalid

# C0 controls other than the tab, and DEL; « \r » is the end of a CRLF line, stripped before.
CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")
_CONTROL_IN_BLOCK = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")  # the same, less the line feeds between lines


def csv_lines(data: bytes, first_line: int) -> Iterator[tuple[int, str | bytes]]:
    """(line number, text) of each non-empty line; a line that is not UTF-8 comes as its bytes."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        yield from _lines_one_by_one(data, first_line)
        return
    for number, line in enumerate(text.split("\n"), first_line):
        if line:
            yield number, line


def _lines_one_by_one(data: bytes, first_line: int) -> Iterator[tuple[int, str | bytes]]:
    for number, raw in enumerate(data.split(b"\n"), first_line):
        if not raw:
            continue
        try:
            yield number, raw.decode("utf-8")
        except UnicodeDecodeError:
            yield number, raw


def undecodable(raw: bytes, header: Sequence[str]) -> Invalid:
    """Why a line that is not UTF-8 is refused: the column of the first bad byte, and the byte."""
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        column = _column(_faulty_field(raw[: exc.start].decode("utf-8")), header)
        return Invalid(f"{column}: not valid UTF-8 (byte 0x{raw[exc.start]:02x}); the input must be UTF-8")
    raise AssertionError("a line that decodes")  # pragma: no cover


def cells(record: str, header: Sequence[str]) -> list[str]:
    """The fields of one CSV line; :class:`Invalid` names the column of a quote that is not closed."""
    record = record[:-1] if record.endswith("\r") else record
    if '"' not in record:
        return record.split(",")
    try:
        return next(csv.reader((record,), strict=True), [])
    except csv.Error as exc:
        column = _column(_faulty_field(record), header)
        if "unexpected end of data" in str(exc):
            raise Invalid(
                f"{column}: a quoted field is not closed on its line (a field may not hold a line break)"
            ) from None
        raise Invalid(f"{column}: not a CSV field ({exc})") from None


def _faulty_field(text: str) -> int:
    """The index of the field where ``text`` breaks the CSV rules, or where it ends (the csv module's rules:
    a quote opens a quoted field only at the start of a field; inside, « "" » is a quote; a closing quote is
    followed by a comma)."""
    index, at_start, quoted, closed = 0, True, False, False
    i = 0
    while i < len(text):
        char = text[i]
        if quoted:
            if char == '"':
                if text[i + 1 : i + 2] == '"':
                    i += 1
                else:
                    quoted, closed = False, True
        elif char == ",":
            index, at_start, closed = index + 1, True, False
            i += 1
            continue
        elif closed:
            return index  # something after the closing quote
        elif char == '"' and at_start:
            quoted = True
        at_start = False
        i += 1
    return index


def _column(index: int, header: Sequence[str]) -> str:
    return header[index] if index < len(header) else f"column {index + 1} (beyond the header)"


def check_id(ident: str) -> None:
    """An ``id`` is text a person can read back: no control character (a NUL, an escape, …)."""
    found = CONTROL.search(ident)
    if found:
        raise Invalid(f"id: holds the control character U+{ord(found.group()):04X}")


def needs_checks(text: str) -> bool:
    """A block that the plain reading cannot take as is (a control character somewhere)."""
    return _CONTROL_IN_BLOCK.search(text) is not None
