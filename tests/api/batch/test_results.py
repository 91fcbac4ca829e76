"""The writers of `vigueur batch`: the CSV and JSON Lines lines are the typed records (the Parquet table) as the
csv module and ``json.dumps`` write them, whatever the texts hold; the memo computes each key once."""

from __future__ import annotations

import csv
import io
import json
from datetime import date
from decimal import Decimal
from typing import Any

import numpy as np
import pyarrow as pa
import pytest

from api.batch.results import COMPUTED, INVALID, MISSING_FACTS, STATUSES, Memo, Outcomes, Records, Tables
from legislation import Catalogue, Scheme
from legislation.row import ALL_SCHEMES, SCHEME_TUPLES

BONUS = ALL_SCHEMES.index(Scheme.BONUS)
PREMIUM = ALL_SCHEMES.index(Scheme.CONVERSION_PREMIUM)
TRICKY_IDS = ['a,"b"', "tab\there", "é\x01 end", "back\\slash"]


def _records(catalogue: Catalogue, ids: list[str | None], amounts: list[int]) -> Records:
    """Four rows: two results (one with a paragraph needing quotes), an invalid row, one result not known."""
    tables = Tables(catalogue)
    o = Outcomes(4)
    o.row_schemes[:] = SCHEME_TUPLES.index(ALL_SCHEMES)
    o.row_schemes[2] = SCHEME_TUPLES.index((Scheme.BONUS,))
    quoted = tables.numbering.number('art. D. 251-7, « 1° », a "quoted" word')
    first, second = tables.version_ids[:2]
    for i, (k, amount) in enumerate([(BONUS, amounts[0]), (PREMIUM, amounts[1])]):
        o.status[k, 0] = STATUSES.index(COMPUTED)
        o.amount[k, 0], o.known[k, 0], o.eligible[k, 0] = amount, True, i
        o.version[k, 0] = tables.version_index[first]
        o.kept[k, 0] = tables.version_index[second] if i else -1
        o.paragraph[k, 0] = quoted
    o.day[0] = date(2020, 7, 15).toordinal()
    o.refuse(1, 'invoice_date: "2020-13-01" is not a date,\nsee the header')
    o.status[BONUS, 2] = STATUSES.index(MISSING_FACTS)
    o.status[:, 3] = STATUSES.index(COMPUTED)
    o.amount[:, 3], o.known[:, 3] = amounts[2], True
    lines = np.array([2, 3, 5, 9], dtype=np.int64)
    return Records(o, tables, lines, pa.array(ids, pa.string()), lambda rows: {})


def _typed(records: Records) -> list[dict[str, Any]]:
    return records.table().to_pylist()


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Decimal):
        return f"{value:.2f}"
    if isinstance(value, date):
        return value.isoformat()
    return str(value)


@pytest.mark.usefixtures("with_and_without_c")  # the records' pieces gathered in C, or by Arrow's take
def test_csv_lines_are_the_typed_records_as_the_csv_module_writes_them(catalogue: Catalogue) -> None:
    records = _records(catalogue, TRICKY_IDS, [540000, 0, 1250])
    expected = io.StringIO()
    writer = csv.writer(expected, lineterminator="\n")
    for record in _typed(records):
        writer.writerow([_text(v) for v in record.values()])
    assert records.csv_bytes().decode() == expected.getvalue()
    assert '"a,""b"""' in expected.getvalue() and records.total == 6  # the id quoted; 2 + 1 + 1 + 2 records


@pytest.mark.usefixtures("with_and_without_c")
@pytest.mark.parametrize("ids", [TRICKY_IDS, [None, "x", None, 'q"'], ["a", "b", "c", "d"]])
def test_json_lines_are_the_typed_records_as_json_dumps_writes_them(catalogue: Catalogue, ids: list[Any]) -> None:
    records = _records(catalogue, ids, [540000, -1250, 7])  # a negative amount: as the decimal's text
    expected = []
    for record in _typed(records):
        record["amount"] = None if record["amount"] is None else f"{record['amount']:.2f}"
        deadline = record["claim_deadline"]
        record["claim_deadline"] = None if deadline is None else deadline.isoformat()
        expected.append(json.dumps(record, ensure_ascii=False) + "\n")
    lines = records.json_lines().decode()
    assert lines == "".join(expected)
    assert json.loads(lines.splitlines()[0])["amount"] == "5400.00"
    assert json.loads(lines.splitlines()[2])["status"] == INVALID


def test_memo_computes_each_key_once_across_blocks() -> None:
    memo = Memo()
    asked: list[list[int]] = []

    def compute(first: Any) -> list[Any]:
        asked.append(first.tolist())
        return [None if keys[j] == 4 else f"v{keys[j]}" for j in first.tolist()]

    keys = np.array([7, 3, 7, 4], dtype=np.int64)
    first = memo.codes(keys, compute)
    keys = np.array([3, 9, 4, 9], dtype=np.int64)
    second = memo.codes(keys, compute)
    assert asked == [[0, 1, 3], [1]]  # the first record of each key not met yet
    assert [memo.values[c] if c >= 0 else None for c in first] == ["v7", "v3", "v7", None]
    assert [memo.values[c] if c >= 0 else None for c in second] == ["v3", "v9", None, "v9"]


@pytest.mark.parametrize(
    "texts",
    [
        ["a1", "b2", None, "é€"],  # none needs more than quotes: the numpy pass decides
        TRICKY_IDS + [None, "plain"],
        ["x\x7fy", "a\rb", "c\nd", 'q"', "\x1f"],
    ],
)
def test_the_texts_are_each_as_the_form_quotes_it(texts: list[str | None]) -> None:
    from api.batch.results import CSV, JSON

    whole = pa.array(["ignored,", *texts, 'after"'], pa.string())
    for array in (pa.array(texts, pa.string()), whole.slice(1, len(texts))):  # a slice: its own bytes only
        for form in (CSV, JSON):
            expected = [None if t is None else form.quote(t) for t in texts]
            assert form.texts(array).to_pylist() == expected


def test_a_parquet_column_of_codes_is_written_as_the_distinct_values_used_in_order() -> None:
    """``_encoded``: the values at the codes (-1 and a code at a null value: null) as a dictionary array whose
    dictionary is the distinct values used, sorted — whatever else the values hold and in whatever order (a process's
    memos grow with what it met), so that the same records give the same Parquet bytes."""
    from api.batch.results import _encoded

    values = pa.array(["zeta", None, "alpha", "unused", "alpha", "mid"])
    codes = np.array([0, -1, 2, 1, 4, 5, 0, 2])
    encoded = _encoded(codes, values)
    assert encoded.type == pa.dictionary(pa.int32(), pa.string())
    assert encoded.dictionary.to_pylist() == ["alpha", "mid", "zeta"]  # « unused » and null left out, duplicates one
    assert encoded.to_pylist() == ["zeta", None, "alpha", None, "alpha", "mid", "zeta", "alpha"]
    shuffled = pa.array(["mid", "alpha", "zeta", None])  # the same texts met in another order
    again = _encoded(np.array([2, -1, 1, 3, 1, 0, 2, 1]), shuffled)
    assert again.equals(encoded)
    empty = _encoded(np.array([-1, -1]), pa.array([], pa.string()))
    assert empty.type == encoded.type and empty.to_pylist() == [None, None]
    # any negative code is null (a code -1 is looked up in a last slot: -2 must not reach the last value)
    assert _encoded(np.array([-2, 5, -1, 0]), values).to_pylist() == [None, "mid", None, "zeta"]
    assert _encoded(np.array([], dtype=np.int64), values).to_pylist() == []


def test_deadlines_and_provenances_are_those_of_their_keys_inside_the_tables_and_out(catalogue: Catalogue) -> None:
    """Tables.deadline_codes and provenance_codes look keys up in dense tables, the memo asked for those not met and
    those outside the tables (days before 2000 or from 2044, paragraphs past the 1 023rd, pairs past the 512th): the
    value of every result is what _deadline and provenance give for its key, asked once, twice (the tables' answers),
    and from another order."""
    tables = Tables(catalogue)
    for n in range(1100):  # paragraphs, past the table's
        tables.numbering.number(f"art. {n}")
    rng = np.random.default_rng(3)
    n = 4000
    k = rng.integers(0, len(ALL_SCHEMES), n)
    days = np.array([date(1995, 1, 1).toordinal(), date(2044, 12, 31).toordinal(), date(2020, 7, 15).toordinal()])
    day = np.where(rng.random(n) < 0.1, rng.choice(days, n), rng.integers(733000, 740000, n))
    status = np.full(n, STATUSES.index(COMPUTED), dtype=np.int64)
    count = len(tables.version_ids)
    version = rng.integers(-1, count, n)
    kept = rng.integers(-1, count, n)  # more pairs than the table's 512
    paragraph = np.where(rng.random(n) < 0.1, rng.integers(1000, 1100, n), rng.integers(-1, 40, n))
    for order in (np.arange(n), np.arange(n), rng.permutation(n)):
        deadlines = tables.deadline_codes(k[order], day[order], version[order], status[order])
        provenances = tables.provenance_codes(version[order], kept[order], paragraph[order])
        for j, i in enumerate(order.tolist()):
            got = tables.deadlines.values[deadlines[j]] if deadlines[j] >= 0 else None
            assert got == tables._deadline(int(k[i]), int(day[i]))  # (computed: every day has its deadline stated)
            expected = tables.provenance(int(version[i]), int(kept[i]), int(paragraph[i]))
            assert (tables.provenances.values[provenances[j]] if provenances[j] >= 0 else None) == expected
    assert tables._pairs == 512  # the pair table full: the others asked of the memo
