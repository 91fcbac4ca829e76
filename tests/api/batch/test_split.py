"""The optional C reading of `vigueur batch` (api/batch/split_c.c through arrow_read.read_plain) reads a block as the
Arrow reading does — the same texts in every column, the dictionary columns' codes pointing at them — and refuses
(the Arrow reading and the row path then read the block) every block that reading would not take whole."""

from __future__ import annotations

import resource
from collections.abc import Iterator

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import api.batch.arrow_cells
import api.batch.arrow_read
from api.batch.arrow_read import c_reading, read_plain
from api.batch.csv_rows import CsvPlan

pytestmark = pytest.mark.skipif(not c_reading(), reason="the C module api.batch.split_c is not built")

# every kind of column: the id and an expected amount (plain), money and a quantity (plain), an enum, a boolean, a
# small integer, a date and the schemes (dictionary)
NAMES = [
    "id",
    "acquisition",
    "invoice_date",
    "schemes",
    "vehicle_category",
    "vehicle_co2_g_per_km",
    "vehicle_acquisition_cost",
    "vehicle_net_max_power_kw",
    "buyer_overseas",
    "expected",
]
LINES = [
    "P1,purchase,2021-01-26,bonus,passenger_car,0,10505.83,2.706,false,100",
    "P2,lease,,bonus|conversion_premium,van,112,,47.7,,",
    "P3,purchase,2024-02-30,,passenger_car,,35152.43,,true,7000.5",
    "P4,nonsense,2021-01-26,bonus,,1001,-1,x,maybe,abc",
    "P5,,,,,,,,,",
]


@pytest.fixture(autouse=True)
def _fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """No text seen before: each test starts as a new process."""
    monkeypatch.setattr(api.batch.arrow_cells, "_SEEN", {})
    monkeypatch.setattr(api.batch.arrow_read, "_READERS", {})


def _both(data: bytes, names: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[object, object]:
    """The block read with the C reading, then by Arrow (VIGUEUR_NO_C=1)."""
    in_c = read_plain(data, 1, names)
    with monkeypatch.context() as m:
        m.setenv("VIGUEUR_NO_C", "1")
        by_arrow = read_plain(data, 1, names)
    return in_c, by_arrow


def _same(data: bytes, names: list[str], monkeypatch: pytest.MonkeyPatch) -> pa.Table:
    in_c, by_arrow = _both(data, names, monkeypatch)
    assert in_c is not None and by_arrow is not None
    (c_lines, c_table), (a_lines, a_table) = in_c, by_arrow  # type: ignore[misc]
    assert c_lines.numbers.tolist() == a_lines.numbers.tolist() and c_lines.clean.tolist() == a_lines.clean.tolist()
    assert c_table.column_names == a_table.column_names
    for name in names:
        assert c_table.column(name).to_pylist() == a_table.column(name).to_pylist(), name
    return c_table


def _codes(table: pa.Table, name: str) -> tuple[list[int], list[str]]:
    column = table.column(name).chunk(0)
    assert isinstance(column, pa.DictionaryArray)
    return column.indices.to_pylist(), column.dictionary.to_pylist()


def test_every_kind_of_column_reads_as_arrow_reads_it(monkeypatch: pytest.MonkeyPatch) -> None:
    table = _same(("\n".join(LINES) + "\n").encode(), NAMES, monkeypatch)
    codes, texts = _codes(table, "acquisition")
    assert texts == ["purchase", "lease", "nonsense", ""] and codes == [0, 1, 0, 2, 3]  # in the order met
    assert _codes(table, "buyer_overseas") == ([0, 1, 2, 3, 1], ["false", "", "true", "maybe"])
    for plain in ("id", "vehicle_acquisition_cost", "vehicle_net_max_power_kw", "expected"):
        assert table.column(plain).type == pa.string()
    assert table.column("vehicle_acquisition_cost").to_pylist() == ["10505.83", "", "35152.43", "-1", ""]


def test_new_texts_in_a_later_block_come_after_those_seen(monkeypatch: pytest.MonkeyPatch) -> None:
    from api.batch.arrow_read import convert

    plan = CsvPlan([n for n in NAMES if n != "expected"])
    first = read_plain(("\n".join(LINES[:2]) + "\n").encode(), 1, NAMES)
    assert first is not None
    convert(first[1], plan, "expected")  # the texts converted: kept in arrow_cells._SEEN
    assert api.batch.arrow_cells._SEEN["acquisition"].texts.to_pylist() == ["purchase", "lease"]
    later = _same(("\n".join(LINES[2:] + LINES[:1]) + "\n").encode(), NAMES, monkeypatch)
    assert _codes(later, "acquisition") == ([0, 2, 3, 0], ["purchase", "lease", "nonsense", ""])
    found = convert(later, plan, "expected")
    assert api.batch.arrow_cells._SEEN["acquisition"].texts.to_pylist() == ["purchase", "lease", "nonsense", ""]
    assert found.bad.tolist() == [True, True, True, False]  # 2024-02-30; nonsense…; no acquisition; P1 again


def test_texts_seen_elsewhere_seed_the_codes(monkeypatch: pytest.MonkeyPatch) -> None:
    """``_SEEN`` changed behind the C reading (the cache read by memos.py): the codes follow it."""
    from api.batch.arrow_cells import _distinct

    api.batch.arrow_cells._SEEN["acquisition"] = _distinct("acquisition", "enum", pa.array(["lease", "x"]))
    table = _same(("\n".join(LINES[:2]) + "\n").encode(), NAMES, monkeypatch)
    assert _codes(table, "acquisition") == ([2, 0], ["lease", "x", "purchase"])


def test_a_block_not_read_whole_is_refused_and_its_new_texts_forgotten(monkeypatch: pytest.MonkeyPatch) -> None:
    from api.batch.arrow_read import convert

    good = ("\n".join(LINES[:2]) + "\n").encode()
    read = read_plain(good, 1, NAMES)
    assert read is not None
    convert(read[1], CsvPlan([n for n in NAMES if n != "expected"]), "expected")  # « purchase », « lease » kept
    for bad in (
        good + b"P9,unknown\n",  # a field too few, after a new text
        good + b"P9,unknown," + b",".join([b"x"] * 9) + b"\n",  # a field too many
        good + b"\n" + good,  # an empty line
        good + b"\r\n",  # a line that is only a carriage return
        good.replace(b"lease", b"le\rase"),  # a carriage return inside a line
        good.replace(b"lease", b'"lease"'),  # a quote
        good.replace(b"lease", b"le\x00ase"),  # a control character
        good.replace(b"lease", b"le\xe9ase"),  # not UTF-8
    ):
        in_c, by_arrow = _both(bad, NAMES, monkeypatch)
        assert in_c is None and by_arrow is None, bad
    reader = api.batch.arrow_read._READERS[tuple(NAMES)]
    assert reader.encoder.size(NAMES.index("acquisition")) == 2  # « unknown » forgotten


def test_crlf_long_lines_and_a_block_of_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    _same(("\r\n".join(LINES) + "\r\n").encode(), NAMES, monkeypatch)
    _same(("\r\n".join(LINES)).encode(), NAMES, monkeypatch)  # the last line without its line feed
    long = LINES[0].replace("P1", "P" * 100_000).replace("bonus", "|".join(["bonus"] * 20_000))
    _same(("\n".join([long, *LINES]) + "\n").encode(), NAMES, monkeypatch)
    _same((LINES[0] + "\n").encode(), NAMES, monkeypatch)
    _same(LINES[0].encode(), NAMES, monkeypatch)
    _same(b"purchase\n", ["acquisition"], monkeypatch)
    _same("é,\tpurchase\n".encode(), ["id", "acquisition"], monkeypatch)


def test_dates_and_long_texts_get_one_code_each_across_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """A date is found by its day, any other text by its first 16 bytes and the rest: texts that differ only after
    their 16th byte, dates next to texts that only look like dates, and a date first met in a refused block (forgotten
    with it) keep one code each, the Arrow reading's."""
    names = ["id", "invoice_date", "acquisition"]
    dates = ["2021-01-26", "2021-01-27", "1900-01-01", "2099-12-31", "1899-12-31", "2100-01-01", "2021-00-10"]
    dates += ["2021-13-01", "2021-12-32", "2021-02-30", "2021-1-260", "2021/01/26", "20210-1-26", "2021-01-26 "]
    longs = ["abcdefghijklmnop", "abcdefghijklmnopq", "abcdefghijklmnopr", "abcdefghijklmno", "abcdefghijklmnop" * 3]
    lines = [f"P{i},{date},{long}" for i, (date, long) in enumerate(zip(dates, longs * 3, strict=False))]
    first = ("\n".join(lines[:5]) + "\n").encode()
    table = _same(first, names, monkeypatch)
    assert _codes(table, "invoice_date") == ([0, 1, 2, 3, 4], dates[:5])
    assert _codes(table, "acquisition") == ([0, 1, 2, 3, 4], longs)
    from api.batch.arrow_read import convert

    convert(table, CsvPlan(names), None)  # the texts converted: kept (arrow_cells._SEEN) for the next blocks
    refused = b"P9,2022-07-14,x\nP10,2022-07-15\n"  # a field too few: 2022-07-14 forgotten
    assert read_plain(refused, 1, names) is None
    reader = api.batch.arrow_read._READERS[tuple(names)]
    assert reader.encoder.size(names.index("invoice_date")) == 5
    later = ("\n".join(["P9,2022-07-14,x", *lines, *lines]) + "\n").encode()
    codes, texts = _codes(_same(later, names, monkeypatch), "invoice_date")
    assert texts == [*dates[:5], "2022-07-14", *dates[5:]]
    assert codes == [5, 0, 1, 2, 3, 4, *range(6, 15), 0, 1, 2, 3, 4, *range(6, 15)]


def _block_bytes() -> st.SearchStrategy[bytes]:
    cell = st.sampled_from(["", "a", "purchase", "lease", "1.5", "é", "\t", "x" * 20, "2021-01-26"])
    noise = st.sampled_from(["", ",", "\n", "\r\n", "\r", '"', "\x00", "\n\n"])
    line = st.lists(cell, min_size=1, max_size=4).map(",".join)
    return st.lists(st.tuples(line, noise), min_size=1, max_size=6).map(
        lambda parts: "".join(a + "\n" + b for a, b in parts).encode()
    ) | st.binary(max_size=60)


@settings(max_examples=300, deadline=None)
@given(blocks=st.lists(_block_bytes(), min_size=1, max_size=3))
def test_any_block_is_read_as_arrow_reads_it_or_refused_as_arrow_refuses_it(blocks: list[bytes]) -> None:
    names = ["id", "acquisition", "vehicle_net_max_power_kw"]
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(api.batch.arrow_cells, "_SEEN", {})
        monkeypatch.setattr(api.batch.arrow_read, "_READERS", {})
        for data in blocks:  # (several blocks: the texts of one are kept for the next)
            in_c, by_arrow = _both(data, names, monkeypatch)
            assert (in_c is None) == (by_arrow is None)
            if in_c is not None and by_arrow is not None:
                for name in names:
                    assert in_c[1].column(name).to_pylist() == by_arrow[1].column(name).to_pylist()


def test_the_encoder_refuses_what_it_cannot_use() -> None:
    from api.batch import split_c  # type: ignore[attr-defined]

    for kinds in (b"", b"dx"):
        with pytest.raises(ValueError):
            split_c.Encoder(kinds)
    encoder = split_c.Encoder(b"dp")
    with pytest.raises(IndexError):
        encoder.seed(1, b"\0\0\0\0", b"")  # a plain column has no texts
    with pytest.raises(ValueError):
        encoder.seed(0, b"\0\0\0\0\x09\0\0\0", b"abc")  # an offset beyond the data
    with pytest.raises(ValueError):
        encoder.seed(0, b"\0\0\0\0\x01\0\0\0\x02\0\0\0", b"aa")  # a text twice
    with pytest.raises(TypeError):
        encoder.split("a,b\n")
    assert encoder.split(b"a,b\n") is not None and encoder.size(0) == 1


def _memory() -> Iterator[int]:
    while True:
        yield resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def test_no_memory_is_kept_from_call_to_call() -> None:
    from api.batch import split_c  # type: ignore[attr-defined]

    block = ("\n".join(LINES * 200) + "\n").encode()
    encoder = split_c.Encoder(b"pdddddpppd")
    rss = _memory()
    for _ in range(200):
        encoder.split(block)
        encoder.split(block + b"x\n")  # refused
        encoder.seed(1, b"\0\0\0\0\x01\0\0\0", b"a")
    before = next(rss)
    for _ in range(1000):
        encoder.split(block)
        encoder.split(block + b"x\n")
        encoder.seed(1, b"\0\0\0\0\x01\0\0\0", b"a")
    assert next(rss) - before < 2_000  # kB: no block's buffers kept


def test_the_columns_read_by_codes_are_those_converted_by_their_distinct_texts() -> None:
    """Amounts, quantities and the id come as strings (``scaled``, the ids), every other column of the header as
    codes (``by_distinct``); a column that is no fact (an expected amount) as strings."""
    from api.batch.csv_rows import CSV_COLUMNS
    from legislation.row import MONEY_FIELDS, QUANTITY_FIELDS

    names = [*CSV_COLUMNS, "expected"]
    read = read_plain((",".join(["1"] * len(names)) + "\n").encode(), 1, names)
    assert read is not None
    strings = {n for n in names if read[1].column(n).type == pa.string()}
    assert strings == {"id", "expected", *MONEY_FIELDS, *QUANTITY_FIELDS}
    assert all(pa.types.is_dictionary(read[1].column(n).type) for n in set(names) - strings)


# -- a Parquet column read as its dictionaries (Encoder.recode, through arrow_read.as_strings) -------------------------


def _row_groups() -> pa.ChunkedArray:
    """A column as a Parquet reader gives it with ``read_dictionary``: a dictionary per row group, nulls, a slice."""
    first = pa.DictionaryArray.from_arrays(pa.array([0, 1, None, 0], pa.int32()), pa.array(["lease", "purchase"]))
    second = pa.DictionaryArray.from_arrays(pa.array([1, None, 2, 0, 1], pa.int32()), pa.array(["x", "lease", ""]))
    third = pa.DictionaryArray.from_arrays(
        pa.array([2, 2, 1, 0, 1], pa.int32()), pa.array(["purchase", "2021-01-26", "lease"])
    ).slice(1, 3)  # its cells 2, 1, 0: « lease », « 2021-01-26 », « purchase »
    return pa.chunked_array([first, second, third])


CELLS = ["lease", "purchase", "", "lease", "lease", "", "", "x", "lease", "lease", "2021-01-26", "purchase"]


def test_a_column_of_dictionaries_is_recoded_into_the_texts_seen(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each cell's code points at its own text (null: « »), a text given by several row groups has one code, and the
    texts follow those read before (here « purchase », as converted in an earlier block: arrow_cells._SEEN)."""
    from api.batch.arrow_cells import _distinct
    from api.batch.arrow_read import as_strings

    api.batch.arrow_cells._SEEN["acquisition"] = _distinct("acquisition", "enum", pa.array(["purchase"]))
    table = as_strings(pa.table({"acquisition": _row_groups()}), ["acquisition"])
    codes, texts = _codes(table, "acquisition")
    assert [texts[c] for c in codes] == CELLS
    assert texts[0] == "purchase" and sorted(texts) == sorted(set(CELLS))  # no text twice
    with monkeypatch.context() as m:  # the same cells as the dictionaries joined (no C reading)
        m.setenv("VIGUEUR_NO_C", "1")
        assert as_strings(pa.table({"acquisition": _row_groups()}), ["acquisition"]).column(0).to_pylist() == CELLS


def test_a_column_the_encoder_cannot_recode_is_joined_instead(monkeypatch: pytest.MonkeyPatch) -> None:
    """An index outside its dictionary is refused (ValueError) and the texts met first forgotten; indices other than
    int32 are left to the join of the dictionaries: the cells read the same."""
    from api.batch.arrow_read import _reader, as_strings

    reader = _reader(["acquisition"])
    assert reader is not None
    wrong = pa.DictionaryArray.from_arrays(pa.array([0, 3], pa.int32()), pa.array(["lease", "new"]), safe=False)
    assert reader.recode(0, pa.chunked_array([_row_groups().chunk(0), wrong])) is None
    assert reader.encoder.size(0) == 0  # « lease », « purchase », « » forgotten with the column
    small = pa.DictionaryArray.from_arrays(pa.array([1, 0, None], pa.int8()), pa.array(["lease", "purchase"]))
    assert reader.recode(0, pa.chunked_array([small])) is None
    assert as_strings(pa.table({"acquisition": small}), ["acquisition"]).column(0).to_pylist() == [
        "purchase",
        "lease",
        "",
    ]


def test_empty_chunks_are_skipped_and_other_dictionaries_left_to_the_join() -> None:
    """Through Arrow's C stream: a chunk of no cell is skipped; a dictionary of large strings or holding a null text is
    refused (None: the caller joins the dictionaries), its texts met first forgotten."""
    from api.batch.arrow_read import _reader

    reader = _reader(["acquisition"])
    assert reader is not None
    first, second, _ = _row_groups().chunks
    empty = pa.DictionaryArray.from_arrays(pa.array([], pa.int32()), pa.array(["never"]))
    recoded = reader.recode(0, pa.chunked_array([first, empty, second]))
    assert recoded is not None
    assert recoded.dictionary.take(recoded.indices).to_pylist() == CELLS[:9]
    assert "never" not in recoded.dictionary.to_pylist()
    large = pa.DictionaryArray.from_arrays(pa.array([0, 0], pa.int32()), pa.array(["wide"], pa.large_string()))
    holed = pa.DictionaryArray.from_arrays(pa.array([0, 1], pa.int32()), pa.array(["hole", None]))
    assert reader.recode(0, pa.chunked_array([large])) is None
    assert reader.recode(0, pa.chunked_array([first, holed])) is None
    # « hole » and the texts met first forgotten: the Encoder holds the texts the reader knows, and only those
    assert reader.encoder.size(0) == len(reader.texts[0]) and "hole" not in reader.texts[0].to_pylist()


def test_gather_puts_the_texts_at_the_indices_end_to_end_as_arrow_takes_them() -> None:
    """split_c.gather: the output's pieces (short texts moved 16 bytes at a time, long ones copied) end to end, the
    bytes of Arrow's take; an index out of the texts refused."""
    import numpy as np

    from api.batch import split_c  # type: ignore[attr-defined]

    texts = pa.array(["", "a", "é,b", "x" * 15, "y" * 16, "z" * 17, "C. énergie, art. D. 251-7, 1°"])
    offsets, data = texts.buffers()[1], texts.buffers()[2]
    rng = np.random.default_rng(7)
    for n in (0, 1, 5, 200):
        index = rng.integers(0, len(texts), size=n).astype(np.int32)
        expected = "".join(texts.take(pa.array(index)).to_pylist()).encode()
        assert split_c.gather(offsets, data, index) == expected
    # the last text at the end of the data: no byte read past it
    assert split_c.gather(offsets, data, np.array([6, 1], dtype=np.int32)) == "C. énergie, art. D. 251-7, 1°a".encode()
    for wrong in ([7], [-1]):
        with pytest.raises(IndexError):
            split_c.gather(offsets, data, np.array(wrong, dtype=np.int32))
    with pytest.raises(ValueError):
        split_c.gather(b"\0\0\0\0\x09\0\0\0", b"abc", np.array([0], dtype=np.int32))  # an offset beyond the data
