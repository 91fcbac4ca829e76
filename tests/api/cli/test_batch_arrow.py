"""`vigueur batch` on Arrow: the columnar engine gives what the row engine gives (every column, every error
message); the derived columns are the explained answer's; Parquet in and out; JSON Lines ids; a dossier of amounts
paid becomes a mismatch report (exit code 4)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from api.batch.csv_rows import CSV_COLUMNS
from api.batch.results import OUTPUT_COLUMNS
from api.cases.files import load_cases
from api.cli.main import app as cli
from api.purchase.render import calculate_document, to_purchase
from legislation import Catalogue
from legislation.errors import InvalidFacts
from legislation.fast import Row
from legislation.row import MONEY_FIELDS, QUANTITY_FIELDS
from tests.api.cli.test_batch_cli import HEADER, ROWS

CASES = load_cases([Path(__file__).resolve().parents[2] / "regression"])


def run(*args: str, stdin: bytes | None = None) -> Any:
    return CliRunner().invoke(cli, ["batch", *args], input=stdin)


def records(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def cells(row: Row) -> list[str]:
    """A row as the cells of the documented header (the inverse of the CSV reading)."""
    out = []
    for name in CSV_COLUMNS[1:]:
        value = getattr(row, name)
        if value is None:
            out.append("")
        elif name == "schemes":
            out.append("|".join(s.value for s in value))
        elif isinstance(value, bool):
            out.append("true" if value else "false")
        elif name in MONEY_FIELDS:
            out.append(f"{value // 100}.{value % 100:02d}")
        elif name in QUANTITY_FIELDS:
            out.append(f"{value // 1000}.{value % 1000:03d}")
        elif hasattr(value, "value"):
            out.append(str(value.value))
        else:
            out.append(str(value.isoformat() if hasattr(value, "isoformat") else value))
    return out


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Any]]:
    """Every regression case whose request is a row, as one CSV (id: the case's id)."""
    kept, lines = [], [",".join(CSV_COLUMNS)]
    for case in CASES:
        try:
            row = Row.from_purchase(to_purchase(case.request))
        except InvalidFacts:
            continue
        if not row.exact:
            continue
        kept.append(case)
        lines.append(",".join([case.id, *cells(row)]))
    path = tmp_path_factory.mktemp("corpus") / "corpus.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path, kept


def test_the_engines_write_the_same_output_on_the_corpus(corpus: tuple[Path, list[Any]]) -> None:
    path, kept = corpus
    columnar = run(str(path), "--quiet", "--engine", "columnar", "--reasons")
    rows = run(str(path), "--quiet", "--engine", "rows", "--reasons")
    assert columnar.exit_code in (0, 1) and rows.exit_code in (0, 1), columnar.output
    assert columnar.stdout == rows.stdout
    assert len({r["id"] for r in records(columnar.stdout)}) == len(kept) > 250


def test_the_derived_columns_are_the_explained_answers(corpus: tuple[Path, list[Any]], catalogue: Catalogue) -> None:
    """reason, missing_facts, claim_deadline, provenance: what `vigueur calculate` (the HTTP answer) says."""
    path, kept = corpus
    out = records(run(str(path), "--quiet", "--reasons").stdout)
    by_id: dict[str, list[dict[str, str]]] = {}
    for record in out:
        by_id.setdefault(record["id"], []).append(record)
    seen = {"reason": 0, "missing_facts": 0, "claim_deadline": 0, "secondary": 0}
    for case in kept:
        got = by_id[case.id]
        if got[0]["status"] == "invalid":
            continue
        doc = calculate_document(catalogue, case.request)
        for expected, record in zip(doc["results"], got, strict=True):
            assert (record["scheme"], record["status"]) == (expected["scheme"], expected["status"]), case.id
            if expected["status"] == "computed":
                assert record["reason"] == "", case.id
            elif expected["reason"] is not None:
                assert record["reason"] == expected["reason"], case.id
            else:
                assert record["reason"] == "; ".join(x for x in (expected["message"], *expected["warnings"]) if x)
            assert record["missing_facts"] == "|".join(expected["missing_facts"]), case.id
            assert record["claim_deadline"] == (expected["claim_deadline"] or ""), case.id
            assert record["provenance"].split(";")[0] == (expected["provenance"] or ""), case.id
            if any("graded secondary" in w for w in expected["warnings"]):
                assert "secondary" in record["provenance"], (case.id, record["provenance"], expected["warnings"])
                seen["secondary"] += 1
            for name in ("reason", "missing_facts", "claim_deadline"):
                seen[name] += bool(record[name])
            if record["amount"] == "":
                assert expected["amount"] is None  # unknown is empty, never 0.00
    assert all(count > 0 for count in seen.values()), seen


def test_every_error_message_is_the_row_readings(tmp_path: Path) -> None:
    """The rows of the CLI test (bad cells, a quoted id, a line too long…): the same records with both engines."""
    path = tmp_path / "in.csv"
    extra = [
        ROWS[0].replace("2020-07-15", "2020-02-30"),  # not a date of the calendar
        ROWS[0].replace("2020-07-15", "0000-01-01"),
        ROWS[0].replace("natural_person", "Natural_person"),
        ROWS[0].replace(",bonus,", ",bonus|bogus,"),
        ROWS[0].replace(",0,20000.00,", ",1001,20000.00,"),
        ROWS[0].replace(",0,20000.00,", ",0,1234567890123.00,"),  # 13 digits
        ROWS[0].replace(",0,20000.00,", ",0,20000.,"),
        ROWS[0].replace(",0,20000.00,", ",0,.5,"),
        ROWS[0] + "\r",
        "\r",
        ROWS[0].replace("a1", "a\x01"),
        ROWS[0].replace("a1", "é1"),
    ]
    path.write_bytes(("\n".join([HEADER, *ROWS, *extra]) + "\n").encode())
    columnar, rows = run(str(path), "--engine", "columnar"), run(str(path), "--engine", "rows")
    assert columnar.stdout == rows.stdout
    got = {int(r["line"]): r for r in records(columnar.stdout)}
    first = len(ROWS) + 2
    assert got[first]["error"] == "invoice_date: '2020-02-30' is not a date of the calendar"
    assert got[first + 2]["error"].startswith("buyer_person_kind: 'Natural_person' is not one of natural_person")
    assert got[first + 5]["error"].startswith("vehicle_acquisition_cost: '1234567890123.00' is not an amount")
    assert got[first + 8]["amount"] == "5400.00"  # CRLF: the line's end
    assert got[first + 9]["error"] == "the line has 1 fields, the header 18"
    assert got[first + 10]["error"] == "id: holds the control character U+0001"
    assert got[first + 11]["id"] == "é1" and got[first + 11]["amount"] == "5400.00"
    assert columnar.exit_code == rows.exit_code == 1


def test_parquet_in_and_out(tmp_path: Path) -> None:
    source = tmp_path / "in.csv"
    source.write_text("\n".join([HEADER, *ROWS]) + "\n", encoding="utf-8")
    as_csv = run(str(source), "--quiet").stdout
    parquet_out = tmp_path / "out.parquet"
    assert run(str(source), "--quiet", "--out", str(parquet_out)).exit_code == 1
    table = pq.read_table(parquet_out)
    assert table.column_names == list(OUTPUT_COLUMNS)
    assert table.schema.field("amount").type == pa.decimal128(16, 2)
    assert table.schema.field("claim_deadline").type == pa.date32()
    first = table.slice(0, 1).to_pylist()[0]
    assert (first["line"], first["amount"], first["eligible"]) == (2, __import__("decimal").Decimal("5400.00"), True)
    # the same rows as a Parquet input (strings, as a CSV would give them): the same results
    frame = pa.csv.read_csv(
        source,
        convert_options=pa.csv.ConvertOptions(
            column_types={c: pa.string() for c in HEADER.split(",")}, strings_can_be_null=True
        ),
        parse_options=pa.csv.ParseOptions(invalid_row_handler=lambda row: "skip"),
    )
    parquet_in = tmp_path / "in.parquet"
    pq.write_table(frame, parquet_in)
    again = records(run(str(parquet_in), "--quiet", "--out-format", "csv").stdout)
    expected = [r for r in records(as_csv) if r["line"] != "9"]  # the line with a field too many was skipped
    assert [(r["id"], r["status"], r["amount"], r["error"]) for r in again] == [
        (r["id"], r["status"], r["amount"], r["error"]) for r in expected
    ]


def test_parquet_typed_columns_are_read_as_their_cells(tmp_path: Path) -> None:
    import datetime

    table = pa.table(
        {
            "id": ["t1", "t2"],
            "acquisition": ["purchase", "purchase"],
            "invoice_date": pa.array([datetime.date(2020, 7, 15), None], pa.date32()),
            "vehicle_category": ["passenger_car", "passenger_car"],
            "vehicle_co2_g_per_km": pa.array([0, 0], pa.int16()),
            "vehicle_acquisition_cost": pa.array([__import__("decimal").Decimal("20000.00")] * 2, pa.decimal128(10, 2)),
            "buyer_person_kind": ["natural_person", "natural_person"],
        }
    )
    path = tmp_path / "typed.parquet"
    pq.write_table(table, path)
    out = records(run(str(path), "--quiet", "--out-format", "csv", "--format", "parquet").stdout)
    assert (out[0]["id"], out[0]["amount"]) == ("t1", "5400.00")  # 27 % × 20 000 = 5 400 (D. 251-7, 1°)
    assert out[-1]["status"] == "invalid" and out[-1]["error"].startswith("invoice_date: invoice_date is required")


def test_a_file_that_is_not_parquet_is_refused_without_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "in.parquet"
    path.write_bytes(b"not parquet at all")
    result = run(str(path))
    assert result.exit_code == 2
    assert "not a Parquet file" in json.loads(result.stderr)["errors"][0]["message"]


def test_workers_read_parquet_row_groups_themselves(
    tmp_path: Path, corpus: tuple[Path, list[Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With workers, each reads its row groups from the file (api.batch.arrow_run.RowGroups): the same records as
    one process reading batches; a damaged row group stops the run with the reading's message, not a traceback."""
    source, _ = corpus
    frame = pa.csv.read_csv(
        source, convert_options=pa.csv.ConvertOptions(column_types={c: pa.string() for c in CSV_COLUMNS})
    )
    path = tmp_path / "groups.parquet"
    pq.write_table(frame, path, row_group_size=7, compression="none")  # many small row groups
    assert pq.ParquetFile(path).metadata.num_row_groups > 10
    one = records(run(str(path), "--quiet", "--out-format", "csv", "--workers", "1").stdout)
    two = records(run(str(path), "--quiet", "--out-format", "csv", "--workers", "2").stdout)
    assert two == one and len(one) >= frame.num_rows
    # the columns read as their dictionaries (each row group its own), empty cells null: the same records again
    nulls = pa.csv.read_csv(
        source,
        convert_options=pa.csv.ConvertOptions(
            column_types={c: pa.string() for c in CSV_COLUMNS}, strings_can_be_null=True
        ),
    )
    assert nulls.column("order_date").null_count and nulls.column("scrapped_energy").null_count
    with_nulls = tmp_path / "nulls.parquet"
    pq.write_table(nulls, with_nulls, row_group_size=5)
    nulls_bytes = with_nulls.read_bytes()
    assert records(run(str(with_nulls), "--quiet", "--out-format", "csv", "--workers", "2").stdout) == one
    # read by this process (standard input): its batches handed to the workers as Arrow files (arrow_run._handed)
    piped = run("-", "--format", "parquet", "--quiet", "--out-format", "csv", "--workers", "2", stdin=path.read_bytes())
    assert records(piped.stdout) == one
    monkeypatch.setattr("api.cli.batch.PARQUET_BATCH_ROWS", 5)  # row groups of a batch or more: read as dictionaries
    piped = run("-", "--format", "parquet", "--quiet", "--out-format", "csv", "--workers", "2", stdin=nulls_bytes)
    assert records(piped.stdout) == one
    monkeypatch.undo()
    # Parquet out: the workers' tables come back through Arrow files (arrow_run.ArrowFile), the same as one process's
    outs = [tmp_path / f"out-{n}.parquet" for n in (1, 2)]
    for n, out in zip((1, 2), outs, strict=True):
        assert run(str(with_nulls), "--quiet", "--out", str(out), "--workers", str(n)).exit_code in (0, 1)
    assert pq.read_table(outs[1]).equals(pq.read_table(outs[0])) and pq.read_table(outs[0]).num_rows == len(one)
    data = bytearray(path.read_bytes())
    chunk = pq.ParquetFile(path).metadata.row_group(5).column(2)  # a page of row group 5: no longer decodes
    data[chunk.data_page_offset : chunk.data_page_offset + 16] = b"\xff" * 16
    damaged = tmp_path / "damaged.parquet"
    damaged.write_bytes(bytes(data))
    result = run(str(damaged), "--quiet", "--out-format", "csv", "--workers", "2")
    assert result.exit_code == 2, result.output
    problem = json.loads(result.stderr)
    assert problem["title"] == "Invalid Parquet input" and problem["errors"][0]["message"].startswith("row ")
    # read by this process, its first batches read ahead by a thread during the set-up (api.cli.batch._read_ahead):
    # the same stop, one problem document, no result written
    piped = run("-", "--format", "parquet", "--quiet", "--out-format", "csv", "--workers", "2", stdin=bytes(data))
    assert piped.exit_code == 2 and piped.stdout.count("\n") <= 1, piped.output  # (the header line at most)
    problem = json.loads(piped.stderr)
    assert problem["title"] == "Invalid Parquet input" and problem["errors"][0]["message"].startswith("row ")


def test_json_lines_ids_pass_through(tmp_path: Path) -> None:
    request = {
        "id": "dossier-17",
        "acquisition": "purchase",
        "invoice_date": "2020-07-15",
        "schemes": ["bonus"],
        "vehicle": {"category": "passenger_car", "co2_g_per_km": 0, "acquisition_cost": "20000.00"},
        "buyer": {"person_kind": "natural_person"},
    }
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps(request) + "\n" + json.dumps({**request, "id": {"x": 1}}) + "\n", encoding="utf-8")
    result = run(str(path), "--quiet")
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert (out[0]["id"], out[0]["amount"], out[0]["status"]) == ("dossier-17", "5400.00", "computed")
    assert out[1]["status"] == "invalid" and out[1]["error"].startswith("id:")


# A dossier of amounts actually paid (D. 251-7 of décret 2020-656, in force 2020-06-01; the cases of
# tests/regression/bonus_2020_06_01.yaml, whose notes give the arithmetic).
DOSSIER_HEADER = (
    "id,acquisition,invoice_date,schemes,vehicle_category,vehicle_energy,vehicle_co2_g_per_km,"
    "vehicle_acquisition_cost,buyer_person_kind,paid_amount"
)
DOSSIER = [
    # line 2: 1°, 27 % × 20 000 = 5 400.00 ≤ 7 000 (natural person): paid as due
    "d1,purchase,2020-07-15,bonus,passenger_car,electric,0,20000.00,natural_person,5400.00",
    # line 3: 1°, 27 % × 30 000 = 8 100.00 > 7 000 cap (natural person) → 7 000.00: paid as due
    "d2,purchase,2020-07-15,bonus,passenger_car,electric,0,30000.00,natural_person,7000",
    # line 4: 1°, legal person: 27 % × 30 000 = 8 100.00 > 5 000 cap → 5 000.00; paid 5 400.00 (the natural
    # person's rate applied by mistake): differs by 5 000.00 − 5 400.00 = −400.00
    "d3,purchase,2020-07-15,bonus,passenger_car,electric,0,30000.00,legal_person,5400.00",
    # line 5: the person is not given: the cap cannot be chosen, the amount is not known — a mismatch with no amount
    "d4,purchase,2020-07-15,bonus,passenger_car,electric,0,30000.00,,7000.00",
    # line 6: no paid amount: computed (5 400.00), not compared
    "d5,purchase,2020-07-15,bonus,passenger_car,electric,0,20000.00,natural_person,",
    # line 7: a paid amount that is not an amount: an invalid row naming the column
    'd6,purchase,2020-07-15,bonus,passenger_car,electric,0,20000.00,natural_person,"5400,00"',
]


@pytest.mark.parametrize("engine", ["columnar", "rows"])
def test_a_dossier_of_paid_amounts_gives_a_mismatch_report(tmp_path: Path, engine: str) -> None:
    path = tmp_path / "dossier.csv"
    path.write_text("\n".join([DOSSIER_HEADER, *DOSSIER]) + "\n", encoding="utf-8")
    report = tmp_path / "mismatches.csv"
    result = run(str(path), "--expect-column", "paid_amount", "--report", str(report), "--engine", engine, "--reasons")
    assert result.exit_code == 4, result.output  # some amounts differ
    assert records(report.read_text(encoding="utf-8")) == [
        {
            "line": "4",
            "id": "d3",
            "expected": "5400.00",
            "computed": "5000.00",
            "difference": "-400.00",
            "version_id": "D251-7.2020-06-01",
        },
        {
            "line": "5",
            "id": "d4",
            "expected": "7000.00",
            "computed": "",
            "difference": "",
            "version_id": "D251-7.2020-06-01",
        },
    ]
    assert "expected amounts (paid_amount): 4 rows compared, 2 differ (1 with no computed amount" in result.stderr
    out = {r["id"]: r for r in records(result.stdout)}
    assert out["d5"]["amount"] == "5400.00"
    assert out["d6"]["error"] == (
        "paid_amount: '5400,00' is not an amount in euros ≥ 0 with at most 2 decimals (« 30000.00 »)"
    )
    assert out["d4"]["amount"] == "" and out["d4"]["missing_facts"] == "buyer.person_kind"


def test_a_dossier_that_matches_exits_0_and_reports_to_standard_error(tmp_path: Path) -> None:
    path = tmp_path / "dossier.csv"
    path.write_text("\n".join([DOSSIER_HEADER, *DOSSIER[:2]]) + "\n", encoding="utf-8")
    result = run(str(path), "--expect-column", "paid_amount")
    assert result.exit_code == 0, result.output
    assert "2 rows compared, 0 differ" in result.stderr
    missing = run(str(path), "--expect-column", "paid")
    assert missing.exit_code == 2 and "no column 'paid'" in missing.stderr


def test_refusals_before_any_row(tmp_path: Path) -> None:
    nested = tmp_path / "nested.parquet"
    pq.write_table(pa.table({"acquisition": ["purchase"], "vehicle": pa.array([[1, 2]])}), nested)
    result = run(str(nested))
    assert result.exit_code == 2 and "vehicle: list<" in result.stderr and "is not a cell" in result.stderr
    dossier = tmp_path / "dossier.csv"
    dossier.write_text("\n".join([DOSSIER_HEADER, *DOSSIER[:1]]) + "\n", encoding="utf-8")
    fact = run(str(dossier), "--expect-column", "vehicle_acquisition_cost")
    assert fact.exit_code == 2 and "is a fact of the purchase" in fact.stderr


def test_a_block_the_arrow_reading_fails_on_is_read_row_by_row(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import api.batch.arrow_run

    path = tmp_path / "in.csv"
    path.write_text("\n".join([HEADER, *ROWS]) + "\n", encoding="utf-8")
    expected = run(str(path), "--quiet", "--engine", "rows").stdout

    def broken(*_: Any, **__: Any) -> Any:
        raise ZeroDivisionError("unforeseen")

    monkeypatch.setattr(api.batch.arrow_run, "convert", broken)
    result = run(str(path))
    assert result.stdout == expected
    assert "1 block(s) read again row by row" in result.stderr


def test_progress_is_forced_or_silenced(tmp_path: Path) -> None:
    path = tmp_path / "in.csv"
    path.write_text("\n".join([HEADER, *ROWS[:2]]) + "\n", encoding="utf-8")
    assert "batch: " in run(str(path), "--progress", "--quiet").stderr  # forced: shown even with --quiet
    assert run(str(path), "--quiet").stderr == ""  # not a terminal, or --quiet: nothing


def test_without_reasons_only_the_answers_that_depend_on_the_date_are_explained(
    corpus: tuple[Path, list[Any]],
) -> None:
    """With --no-reasons a result is explained only when its explanation depends on nothing but the scheme, the
    version and the date (no version on file, the aid ended): once per such key; by default (--reasons) every result
    that is not « computed » is explained, row by row."""
    path, _ = corpus
    lean, full = records(run(str(path), "--quiet", "--no-reasons").stdout), records(run(str(path), "--quiet").stdout)
    assert any(b["status"] == "missing_facts" and b["missing_facts"] for b in full)  # the default names them
    assert len(lean) == len(full)
    for a, b in zip(lean, full, strict=True):
        if a["status"] in ("no_version_on_file", "ended"):
            assert a["reason"] == b["reason"] != ""
        else:
            assert (a["reason"], a["missing_facts"]) == ("", "")
        assert {k: v for k, v in a.items() if k not in ("reason", "missing_facts")} == {
            k: v for k, v in b.items() if k not in ("reason", "missing_facts")
        }
    assert any(b["missing_facts"] for b in full) and any(
        b["reason"] for b in full if b["status"] == "not_covered_on_file"
    )
