"""The cells of the Arrow reading of `vigueur batch` (api/batch/arrow_cells.py): each reading — the regular expression
and the bytes for amounts and quantities (in C with the optional module, in numpy without), the bytes for dates, the
texts of earlier blocks — accepts exactly what the converter of csv_rows accepts, with the same value."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pytest

from api.batch.arrow_cells import _SCALED, _digits_and_dot, _iso_days, all_empty, by_distinct, scaled
from api.batch.csv_rows import Invalid, converter
from legislation.columnar.columns import DEFAULTS, FACTS, MEMBERS
from legislation.row import SCHEME_TUPLES

pytestmark = pytest.mark.usefixtures("with_and_without_c")  # (tests/api/batch/conftest.py)


EDGES = [
    "0",
    "1",
    "30000",
    "30000.5",
    "30000.50",
    "30000.505",
    "30000.",
    ".5",
    "-1",
    "+1",
    "1e3",
    " 1",
    "1 ",
    "1,5",
    "１",  # a full-width digit
    "٢٠٠٠٠",  # Arabic-Indic digits
    "999999999999.99",  # 12 digits
    "9999999999999",  # 13 digits
    "999999999.999",
    "9999999999.999",
    "0.001",
    "00012.10",
    "1..2",
    "1.2.3",
    "nan",
    "0.00",
    "00.0",
    "1.10",
    "000000000000.00",  # 12 zeros
    "0000000000000",
    "12345678901.234",
    "123456789.0",
    "1.",
    ".",
    "1.-5",
    "1.+5",
    "1.5e1",
    "0x10",
    "1_000",
    "1.５",
]


def _random_texts(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    alphabet = "0123456789.-+e ,٣"
    return ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 15))) for _ in range(count)]


@pytest.mark.parametrize(("places", "column"), [(2, "vehicle_acquisition_cost"), (3, "vehicle_net_max_power_kw")])
def test_the_regular_expression_is_the_converter(places: int, column: str) -> None:
    texts = EDGES + _random_texts(places, 3000)
    values, known, wrong = scaled(pa.array(texts + [""]), places)
    matches = pc.match_substring_regex(pa.array(texts), _SCALED[places]).to_pylist()
    convert = converter(column)
    accepted = 0
    for i, text in enumerate(texts):
        try:
            expected = convert(text)
        except Invalid:
            assert wrong[i] and not known[i] and not matches[i], text
            continue
        accepted += 1
        assert known[i] and not wrong[i] and matches[i] and int(values[i]) == expected, text
    assert (known[-1], wrong[-1]) == (False, False)  # an empty cell: not given, not wrong
    assert accepted > 50


DATES = [
    "2020-07-15",
    "2020-02-29",
    "2021-02-29",
    "2020-02-30",
    "2020-13-01",
    "2020-00-10",
    "2020-01-00",
    "2020-01-31",
    "2020-04-31",
    "2020-12-31",
    "2020-12-32",
    "1900-02-29",  # not a leap year (a century)
    "2000-02-29",  # a leap year (four centuries)
    "2100-02-29",
    "2020-7-15",
    "0001-01-01",
    "0000-01-01",
    "0999-12-31",
    "1970-01-01",
    "1969-12-31",
    "9999-12-31",
    "2020-07-15 ",
    " 2020-07-15",
    "2020/07/15",
    "2020-07+15",
    "+020-07-15",
    "-020-07-15",
    "2020-0a-15",
    "2020-07-1:",  # « : » follows « 9 »
    "2020-07-/5",  # « / » precedes « 0 »
    "٢٠٢٠-٠٧-١٥",
    "２０２０-07-15",
    "20200715",
    "2020-07-15T00",
    "é020-07-15",
]


def _random_dates(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    shaped = [f"{rng.randint(0, 9999):04}-{rng.randint(0, 13):02}-{rng.randint(0, 32):02}" for _ in range(count)]
    mangled = ["".join(rng.choice("0123456789-/") for _ in range(10)) for _ in range(count // 10)]
    return shaped + mangled


def test_dates_are_read_as_the_converter_reads_them() -> None:
    texts = DATES + _random_dates(1, 3000)
    days, wrong = by_distinct("invoice_date", pa.array(texts + [""]))
    convert = converter("invoice_date")
    accepted = 0
    for i, text in enumerate(texts):
        try:
            expected = convert(text)
        except Invalid:
            assert wrong[i], text
            continue
        accepted += 1
        assert not wrong[i] and days[i] == np.datetime64(expected, "D"), text
    assert np.isnat(days[-1]) and not wrong[-1]
    assert accepted > 1000


def test_the_vectorised_dates_vouch_for_every_date_the_converter_accepts() -> None:
    texts = pc.unique(pa.array(DATES + _random_dates(2, 3000))).to_pylist()
    days, sure = _iso_days(pa.array(texts))
    convert = converter("invoice_date")
    for i, text in enumerate(texts):
        try:
            expected = convert(text)
        except Invalid:
            assert not sure[i] and np.isnat(days[i]), text
            continue
        assert sure[i] and days[i] == np.datetime64(expected, "D"), text


TEXTS = [
    "",
    "passenger_car",
    "van",
    "Van",
    "true",
    "false",
    "True",
    "purchase",
    "lease",
    "bonus",
    "bonus|conversion_premium",
    "conversion_premium|bonus",
    "bonus|",
    "0",
    "12",
    "600",
    "601",
    "1000",
    "1001",
    "012",
    "-1",
    " 12",
    "twelve",
]


def _expected(name: str, text: str) -> tuple[bool, Any]:
    """(refused, code or number) as the row path reads a cell: its converter, the row's default when empty."""
    if not text:
        if name == "acquisition":
            return True, None
        value = DEFAULTS[name]
    else:
        try:
            value = converter(name)(text)
        except Invalid:
            return True, None
    if name == "schemes":
        return False, SCHEME_TUPLES.index(value)
    if FACTS[name][0] in ("enum", "bool"):
        return False, -1 if value is None else MEMBERS.get(name, (True, False)).index(value)
    return False, value


@pytest.mark.parametrize(
    "name",
    ["acquisition", "vehicle_category", "buyer_overseas", "scrapped_vehicle", "schemes", "vehicle_co2_g_per_km",
     "lease_duration_months"],
)
def test_texts_of_earlier_blocks_convert_as_new_ones(name: str) -> None:
    first, later = TEXTS[::2], TEXTS[1::2] + TEXTS[::2]  # « later »: a block with texts the first did not have
    for block in (first, later, first, list(reversed(later))):
        values, wrong = by_distinct(name, pa.array(block))
        for i, text in enumerate(block):
            refused, expected = _expected(name, text)
            assert bool(wrong[i]) == refused, (name, text)
            if refused:
                continue
            if expected is None:
                assert np.ma.getmaskarray(values)[i], (name, text)
            else:
                assert not np.ma.getmaskarray(values)[i] and int(values[i]) == expected, (name, text)


DIGITS_AND_DOTS = [
    "1",
    "1.5",
    "1.50",
    "1.505",
    "1.5055",
    "1..5",
    "1.5.5",
    "1.2.3.4",
    ".5",
    ".55",
    ".555",
    "5.",
    "55.",
    ".",
    "..",
    "...",
    "0",
    "00",
    "0.0",
    "999999999",
    "9999999999",
    "999999999999",
    "9999999999999",
    "999999999999.99",
    "9999999999999.9",
    "999999999.999",
    "9999999999.99",
    "123456789012.",
    "1.2.",
]


@pytest.mark.parametrize(("places", "column"), [(2, "vehicle_acquisition_cost"), (3, "vehicle_net_max_power_kw")])
def test_the_reading_of_digits_and_dots_is_the_converter(places: int, column: str) -> None:
    rng = random.Random(places)
    texts = DIGITS_AND_DOTS + [
        "".join(rng.choice("0123456789.") for _ in range(rng.randint(1, 16))) for _ in range(3000)
    ]
    convert = converter(column)
    decided = 0
    for text in texts:
        try:
            convert(text)
            accepted = True
        except Invalid:
            accepted = False
        valid = _digits_and_dot(pa.array([text]), places)
        assert valid is not None or not accepted, text  # what the converter accepts, this reading decides
        if valid is not None:
            decided += 1
            assert bool(valid[0]) == accepted, text
    assert decided > 1000
    accepted_texts = [t for t in texts if _digits_and_dot(pa.array([t]), places) is not None]
    together = _digits_and_dot(pa.array(accepted_texts)[5:], places)  # an array's slice: its offset is used
    assert together is not None
    assert together.tolist() == [bool(_digits_and_dot(pa.array([t]), places)[0]) for t in accepted_texts[5:]]


def test_a_column_is_all_empty_when_no_cell_holds_a_byte() -> None:
    column = pa.array(["", "", "1", ""])
    assert [all_empty(column[:2]), all_empty(column[3:]), all_empty(column[2:]), all_empty(column[:0])] == [
        True,
        True,
        False,
        True,
    ]
    assert not all_empty(pa.array(["", " "])) and all_empty(pa.array([], pa.string()))


def test_dates_of_earlier_blocks_read_as_new_ones() -> None:
    convert = converter("scrapped_owned_since")
    first, later = ["", *DATES[::2]], DATES[1::2] + _random_dates(3, 200) + DATES[::2]
    for block in (first, later, first, list(reversed(later))):
        days, wrong = by_distinct("scrapped_owned_since", pa.array(block))
        for i, text in enumerate(block):
            if not text:
                assert np.isnat(days[i]) and not wrong[i]
                continue
            try:
                expected = convert(text)
            except Invalid:
                assert wrong[i] and np.isnat(days[i]), text
                continue
            assert not wrong[i] and days[i] == np.datetime64(expected, "D"), text


def test_the_texts_kept_from_block_to_block_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    import api.batch.arrow_cells

    monkeypatch.setattr(api.batch.arrow_cells, "_SEEN", {})
    monkeypatch.setattr(api.batch.arrow_cells, "_SEEN_TEXTS", 4)
    for block in (["1", "2"], ["1", "3", "4"], ["5", "6", "1"], ["7", "x" * 100, "2"], ["1", "2", "3"]):
        values, wrong = by_distinct("vehicle_mass_kg", pa.array(block))
        assert np.ma.getdata(values).tolist() == [int(t) if t.isdigit() else 0 for t in block]
        assert wrong.tolist() == [not t.isdigit() for t in block]
        assert len(api.batch.arrow_cells._SEEN["vehicle_mass_kg"].texts) <= 4


def test_large_strings_read_as_strings() -> None:
    texts = ["12.5", "", "1e3", "2020-02-29", "x"]
    for kind in (pa.large_string(), pa.string()):
        column = pa.array(texts, kind)
        assert [all_empty(column[1:2]), all_empty(column)] == [True, False]
        values, known, wrong = scaled(column, 2)
        assert known.tolist() == [True, False, False, False, False] and int(values[0]) == 1250
        assert wrong.tolist() == [False, False, True, True, True]
        assert _digits_and_dot(pa.array(["12.5", "3"], kind), 2).tolist() == [True, True]
        days, sure = _iso_days(column)
        assert sure.tolist() == [False, False, False, True, False] and days[3] == np.datetime64("2020-02-29")


@pytest.mark.parametrize(("places", "column"), [(2, "vehicle_acquisition_cost"), (3, "vehicle_net_max_power_kw")])
def test_a_column_of_accepted_amounts_reads_as_the_converter(places: int, column: str) -> None:
    """When every given cell follows the rule, the values are read from the digits (the dot taken out): the
    converter's, with and without empty cells, in an array's slice."""
    rng = random.Random(10 + places)
    convert = converter(column)
    whole = 12 if places == 2 else 9
    texts = [t for t in EDGES + DIGITS_AND_DOTS if _accepted(convert, t)]
    for _ in range(3000):
        digits = "".join(rng.choice("0123456789") for _ in range(rng.randint(1, whole)))
        fraction = "".join(rng.choice("0123456789") for _ in range(rng.randint(0, places)))
        texts.append(f"{digits}.{fraction}" if fraction else digits)
    assert len(set(texts)) > 2000
    for cells in (texts, [t if i % 3 else "" for i, t in enumerate(texts)], ["", *texts, ""]):
        for array in (pa.array(cells), pa.array(["x", *cells])[1:]):
            values, known, wrong = scaled(array, places)
            assert not wrong.any()
            assert known.tolist() == [bool(t) for t in cells]
            assert np.ma.getdata(values)[known].tolist() == [convert(t) for t in cells if t]
    values, known, wrong = scaled(pa.array(["", ""]), places)
    assert not known.any() and not wrong.any()


def _accepted(convert: Any, text: str) -> bool:
    try:
        convert(text)
    except Invalid:
        return False
    return True


@pytest.mark.parametrize("name", ["vehicle_category", "buyer_overseas", "lease_duration_months", "invoice_date"])
def test_a_column_in_parts_reads_as_the_column_whole(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Arrow's reading gives each column in parts (one per part of the block): looked up part by part, texts new
    in a later part included, the cells read as the same column joined, in a fresh process and after."""
    import api.batch.arrow_cells

    texts = TEXTS + DATES[:8]
    parts = [texts[:5], [], texts[5:17], texts[17:] + texts[:3]]
    chunked = pa.chunked_array([pa.array(p, pa.string()) for p in parts])
    whole = pa.array([t for p in parts for t in p], pa.string())
    monkeypatch.setattr(api.batch.arrow_cells, "_SEEN", {})
    readings = [by_distinct(name, chunked), by_distinct(name, chunked)]  # a fresh process, then the texts kept
    monkeypatch.setattr(api.batch.arrow_cells, "_SEEN", {})
    expected_values, expected_wrong = by_distinct(name, whole)
    assert 0 < np.count_nonzero(expected_wrong) < len(whole)
    for values, wrong in readings:
        assert wrong.tolist() == expected_wrong.tolist()
        assert np.ma.getmaskarray(values).tolist() == np.ma.getmaskarray(expected_values).tolist()
        assert np.ma.getdata(values)[~wrong].tolist() == np.ma.getdata(expected_values)[~wrong].tolist()


def test_long_runs_of_digits_and_dots_are_refused_without_overflow() -> None:
    """Cells longer than any amount (digits the int64 of the C reading could not hold) are wrong, never wrapped."""
    texts = ["9" * 40, "1" + "0" * 19, "9" * 12 + "." + "9" * 30, "." * 30, "1." + "5" * 3, "123456789012.34", "0.5"]
    values, known, wrong = scaled(pa.array(texts), 2)
    assert known.tolist() == [False, False, False, False, False, True, True]
    assert wrong.tolist() == [True, True, True, True, True, False, False]
    assert np.ma.getdata(values)[known].tolist() == [12345678901234, 50]  # 123456789012.34 € and 0.50 €, in cents


def test_the_c_reading_of_amounts_refuses_buffers_of_the_wrong_size() -> None:
    from api.batch.arrow_cells import split_c

    if split_c is None:
        pytest.skip("the C module api.batch.split_c is not built (no C compiler at install)")
    offsets, data = np.array([0, 1, 3], np.int32), np.frombuffer(b"512", np.uint8)
    values, known, wrong = np.empty(2, np.int64), np.empty(2, np.bool_), np.empty(2, np.bool_)
    for bad in (
        (offsets, data, 2, 12, np.empty(1, np.int64), known, wrong),  # fewer values than cells
        (offsets, data, 2, 17, values, known, wrong),  # more digits than an int64 holds
        (np.array([0, 4, 3], np.int32), data, 2, 12, values, known, wrong),  # offsets out of the data
    ):
        with pytest.raises(ValueError, match="scaled|offsets"):
            split_c.scaled(*bad)
    split_c.scaled(offsets, data, 2, 12, values, known, wrong)
    assert values.tolist() == [500, 1200] and known.all() and not wrong.any()  # « 5 » and « 12 »: 5.00 and 12.00
