"""The Arrow reading of `vigueur batch` (api/batch/arrow_read.py): the line sorting sends to the row path every line
the Arrow reading would not read as the row path does; the usual block is read at once, in parts."""

from __future__ import annotations

import pyarrow as pa
import pytest

from api.batch.arrow_read import read_plain, read_strings, split_lines

pytestmark = pytest.mark.usefixtures("with_and_without_c")  # (tests/api/batch/conftest.py)


def test_suspect_lines_go_to_the_row_path() -> None:
    lines = [
        b"a,b,c",  # line 10: clean
        b'"a",b,c',  # a quote
        b"a,b",  # a field too few
        b"a,b,c,d",  # a field too many
        b"a,\x01,c",  # a control character
        b"a,b,c\r",  # CRLF: clean
        b"\r",  # a line that is only a carriage return
        b"",  # empty: skipped
        b"\xe9,b,c",  # not UTF-8
        b"a,\tb,c",  # a tab: clean
    ]
    found = split_lines(b"\n".join(lines) + b"\n", 10, 3)
    assert found.numbers.tolist() == [10, 11, 12, 13, 14, 15, 16, 18, 19]
    assert [i for i, _ in found.suspect] == [1, 2, 3, 4, 6, 7]
    assert found.clean.tolist() == [0, 5, 8]
    assert read_strings(found.clean_bytes, ["x", "y", "z"]).to_pydict() == {
        "x": ["a", "a", "a"],
        "y": ["b", "b", "\tb"],
        "z": ["c", "c", "c"],
    }
    assert [raw for _, raw in found.suspect][0] == b'"a",b,c'


def test_the_plain_check_takes_only_blocks_the_sorting_would_leave_whole() -> None:
    good = b"a,b,c\na,b,c\r\n\xc3\xa9,\tb,c\n"
    found = read_plain(good, 5, ["x", "y", "z"])
    assert found is not None
    lines, table = found
    assert lines.numbers.tolist() == [5, 6, 7] and lines.clean_bytes == good
    assert table.to_pydict() == {"x": ["a", "a", "é"], "y": ["b", "b", "\tb"], "z": ["c", "c", "c"]}
    whole = split_lines(good, 5, 3)
    assert (whole.numbers.tolist(), whole.clean.tolist(), whole.suspect) == ([5, 6, 7], [0, 1, 2], [])
    unterminated = read_plain(b"a,b,c\nd,e,f", 1, ["x", "y", "z"])
    assert unterminated is not None and unterminated[0].numbers.tolist() == [1, 2]
    for bad in (
        b'"a",b,c\n',
        b"a,b\na,b,c,d\n",  # the commas add up, the lines do not
        b"a,b,c,d\n",
        b"a,b,c\n\na,b,c\n",
        b"\na,b,c\n",
        b"a,b,c\n\n",
        b"a,b,c\n\r\n",
        b"a,\x01,c\n",
        b"a,\x7f,c\n",
        b"a,\x1f,c\n",
        b"a,b\rc,d\n",
        b"a,b,c\r",
        b"a,b,c\r\r\n",
        b"\xe9,b,c\n",
        b"\xc3,b,c\n",
        b"",
    ):
        assert read_plain(bad, 1, ["x", "y", "z"]) is None, bad
    assert read_plain(b"a\n\nb\n", 1, ["x"]) is None  # one column: an empty line is still not a row
    assert read_plain(b"a\nb\n", 1, ["x"]) is not None


def test_lines_are_read_in_parts_and_a_line_longer_than_a_part_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    import api.batch.arrow_read

    monkeypatch.setattr(api.batch.arrow_read, "_PART", 64)
    lines = [f"{i},b{i},c" for i in range(40)]
    lines[17] = "17," + "x" * 500 + ",c"  # longer than a part
    table = read_strings(("\n".join(lines) + "\n").encode(), ["x", "y", "z"])
    assert table.column("x").to_pylist() == [str(i) for i in range(40)]
    assert table.column("y").to_pylist()[17] == "x" * 500 and table.column("y").to_pylist()[39] == "b39"
    short = [f"{i},b{i},c" for i in range(40)]
    table = read_strings(("\n".join(short) + "\n").encode(), ["x", "y", "z"])
    assert table.column("x").num_chunks > 1 and table.column("y").to_pylist() == [f"b{i}" for i in range(40)]
    with pytest.raises(pa.ArrowInvalid):
        read_strings(("\n".join([*short, "a,b"]) + "\n").encode(), ["x", "y", "z"])
    assert read_plain(("\n".join([*short[:20], "a,b,c,d", *short[20:]]) + "\n").encode(), 1, ["x", "y", "z"]) is None


def test_a_parquet_null_cell_reads_as_an_empty_one() -> None:
    """``as_strings``: null is « » — by dropping the validity where the null cells hold no byte (Arrow's readers leave
    them so: no copy), by ``fill_null`` where one holds bytes; a column of codes (a Parquet dictionary) the same."""
    from api.batch.arrow_read import as_strings

    offsets = pa.py_buffer(b"\0\0\0\0\1\0\0\0\3\0\0\0\4\0\0\0")
    holding = pa.Array.from_buffers(  # a null cell over the bytes « xx » (allowed by Arrow, not left by its readers)
        pa.string(), 3, [pa.py_buffer(bytes([0b101])), offsets, pa.py_buffer(b"axxb")]
    )
    assert as_strings(pa.table({"odd": holding})).column("odd").to_pylist() == ["a", "", "b"]
    plain = pa.array(["12.50", None, "", "7"])
    codes = pa.array(["lease", None, "purchase", None]).dictionary_encode()
    table = as_strings(pa.table({"cost": plain, "acquisition": codes}))
    assert table.column("cost").to_pylist() == ["12.50", "", "", "7"] and table.column("cost").null_count == 0
    assert table.column("acquisition").to_pylist() == ["lease", "", "purchase", ""]
    assert table.column("acquisition").null_count == 0
