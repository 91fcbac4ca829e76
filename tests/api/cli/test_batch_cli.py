"""`vigueur batch`: CSV and JSON Lines in and out, invalid rows reported by line, order kept across workers,
results equal to `vigueur calculate` (the explained path) for every valid row."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import api.batch.run
from api.batch.csv_rows import CSV_COLUMNS
from api.batch.results import OUTPUT_COLUMNS
from api.cli.main import app as cli
from api.purchase.render import calculate_document
from api.purchase.request import parse_request
from legislation import Catalogue

README = Path(__file__).resolve().parents[3] / "README.md"

HEADER = (
    "id,acquisition,order_date,invoice_date,first_rent_date,lease_duration_months,schemes,vehicle_category,"
    "vehicle_energy,vehicle_co2_g_per_km,vehicle_acquisition_cost,buyer_person_kind,"
    "buyer_reference_income_per_share,scrapped_energy,scrapped_category,scrapped_first_registration_date,"
    "scrapped_owned_since,scrapped_destruction_date"
)
ROWS = [
    # line 2: an electric car in 2020: D. 251-7, 1°, 27 % × 20 000 = 5 400 €
    "a1,purchase,,2020-07-15,,,bonus,passenger_car,electric,0,20000.00,natural_person,,,,,,",
    # line 3: both schemes in 2017; the prime needs a scrapped vehicle, here none
    "a2,purchase,2016-12-01,2017-01-10,,,bonus|conversion_premium,passenger_car,electric,0,30000,legal_person,,,,,,",
    # line 4: CO2 is not an integer → invalid, the run goes on
    "a3,purchase,,2020-07-15,,,bonus,passenger_car,electric,twelve,20000,natural_person,,,,,,",
    # line 5: invoice before order → invalid dates
    "a4,purchase,2020-08-01,2020-07-15,,,bonus,passenger_car,electric,0,20000,natural_person,,,,,,",
    # line 6: a lease decided by its first rent; a date with no bonus version on file (before the first aid, 2007)
    "a5,lease,,,2007-06-01,36,bonus,passenger_car,electric,0,20000,natural_person,,,,,,",
    # line 7: an id with a comma and a quote, quoted
    '"b,""6",purchase,,2021-09-15,,,conversion_premium,passenger_car,electric,0,30000.00,natural_person,6300,'
    "diesel,passenger_car,2005-03-01,2015-01-01,2021-09-15",
    # line 8: no acquisition, an amount with three decimals
    "a7,,,2020-07-15,,,bonus,passenger_car,electric,0,20000.001,natural_person,,,,,,",
    # line 9: one field too many
    "a8,purchase,,2020-07-15,,,bonus,passenger_car,electric,0,20000,natural_person,,,,,,,",
    # line 10: a fact the text needs is missing (the person, for the cap of 1°)
    "a9,purchase,,2020-07-15,,,bonus,passenger_car,electric,0,20000,,,,,,,",
]


def run(*args: str, stdin: bytes | None = None) -> Any:
    return CliRunner().invoke(cli, ["batch", *args], input=stdin)


def write(tmp_path: Path, name: str, lines: list[str]) -> Path:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def records(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_csv_rows_are_computed_or_reported_by_line(tmp_path: Path) -> None:
    result = run(str(write(tmp_path, "in.csv", [HEADER, *ROWS])), "--quiet")
    assert result.exit_code == 1, result.output  # some rows invalid: 1, every other row computed
    out = records(result.stdout)
    assert list(out[0]) == list(OUTPUT_COLUMNS)
    by_line = {(int(r["line"]), r["scheme"]): r for r in out}
    first = by_line[(2, "bonus")]
    assert (
        first["id"],
        first["status"],
        first["amount"],
        first["eligible"],
        first["version_id"],
        first["paragraph"],
    ) == ("a1", "computed", "5400.00", "true", "D251-7.2020-06-01", "C. énergie, art. D. 251-7, 1°")
    assert [r["scheme"] for r in out if r["line"] == "3"] == ["bonus", "conversion_premium"]
    assert by_line[(4, "")]["status"] == "invalid"
    assert by_line[(4, "")]["error"] == "vehicle_co2_g_per_km: 'twelve' is not an integer from 0 to 1000"
    assert by_line[(5, "")]["error"].startswith(
        "invoice_date: invoice_date 2020-07-15 is before order_date 2020-08-01"
    )
    assert by_line[(6, "bonus")]["status"] == "no_version_on_file" and by_line[(6, "bonus")]["amount"] == ""
    assert by_line[(7, "conversion_premium")]["id"] == 'b,"6'
    assert by_line[(8, "")]["error"] == (
        "acquisition: required (purchase or lease); vehicle_acquisition_cost: "
        "'20000.001' is not an amount in euros ≥ 0 with at most 2 decimals (« 30000.00 »)"
    )
    assert by_line[(9, "")]["error"] == "the line has 19 fields, the header 18"
    assert (by_line[(10, "bonus")]["status"], by_line[(10, "bonus")]["eligible"]) == ("missing_facts", "")


def test_csv_results_equal_vigueur_calculate(tmp_path: Path, catalogue: Catalogue) -> None:
    """Every valid row gives what the explained path (the JSON of `vigueur calculate`) gives."""
    result = run(str(write(tmp_path, "in.csv", [HEADER, *ROWS])), "--quiet")
    header = HEADER.split(",")
    for line, text in enumerate(ROWS, start=2):
        cells = next(csv.reader([text]))
        if len(cells) != len(header) or line in (4, 5, 8):
            continue
        doc = calculate_document(
            catalogue, parse_request(json.dumps(_request(dict(zip(header, cells, strict=True)))))
        )
        got = [r for r in records(result.stdout) if r["line"] == str(line)]
        for expected, row in zip(doc["results"], got, strict=True):
            eligible = {True: "true", False: "false", None: ""}[expected["eligible"]]
            assert (
                row["scheme"],
                row["status"],
                row["amount"],
                eligible,
                row["version_id"],
                row["paragraph"],
            ) == (
                expected["scheme"],
                expected["status"],
                expected["amount"] or "",
                eligible,
                expected["version_id"] or "",
                expected["paragraph"] or "",
            )


def _request(cells: dict[str, str]) -> dict[str, Any]:
    request: dict[str, Any] = {"vehicle": {}, "buyer": {}}
    for name, text in cells.items():
        if not text or name == "id":
            continue
        if name.startswith("vehicle_"):
            request["vehicle"][name[8:]] = int(text) if name.endswith("co2_g_per_km") else text
        elif name.startswith("buyer_"):
            request["buyer"][name[6:]] = text
        elif name.startswith("scrapped_"):
            request.setdefault("scrapped_vehicle", {})[name[9:]] = text
        elif name == "schemes":
            request["schemes"] = text.split("|")
        elif name == "lease_duration_months":
            request[name] = int(text)
        else:
            request[name] = text
    return request


def test_a_quoted_field_may_not_hold_a_line_break(tmp_path: Path) -> None:
    path = write(tmp_path, "in.csv", [HEADER, '"multi', 'line id",' + ROWS[0].split(",", 1)[1], ROWS[0]])
    out = records(run(str(path), "--quiet").stdout)
    assert [(r["line"], r["status"], r["amount"]) for r in out] == [
        ("2", "invalid", ""),
        ("3", "computed", "5400.00"),
        ("4", "computed", "5400.00"),
    ]
    assert out[0]["error"].startswith("id: a quoted field is not closed on its line")


def test_jsonl_in_jsonl_out_with_line_numbers(tmp_path: Path) -> None:
    good = {
        "acquisition": "purchase",
        "invoice_date": "2020-07-15",
        "schemes": ["bonus"],
        "vehicle": {"category": "passenger_car", "co2_g_per_km": 0, "acquisition_cost": "20000.00"},
        "buyer": {"person_kind": "natural_person"},
    }
    path = write(
        tmp_path, "in.jsonl", [json.dumps(good), "", '{"acquisition": "purchase", "colour": "red"}', "{oops"]
    )
    result = run(str(path), "--quiet")
    assert result.exit_code == 1
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["line"], r["status"]) for r in out] == [(1, "computed"), (3, "invalid"), (4, "invalid")]
    assert out[0]["amount"] == "5400.00" and out[0]["version_id"] == "D251-7.2020-06-01"
    assert "colour: unknown field" in out[1]["error"]


def test_standard_input_and_exit_code_zero_when_every_row_is_valid() -> None:
    result = run("-", "--quiet", stdin=("\ufeff" + HEADER + "\n" + ROWS[0] + "\n").encode())
    assert result.exit_code == 0, result.output
    assert [r["amount"] for r in records(result.stdout)] == ["5400.00"]


def test_summary_on_standard_error(tmp_path: Path) -> None:
    result = run(str(write(tmp_path, "in.csv", [HEADER, *ROWS])))
    assert re.search(r"vigueur batch: 9 rows, \d+ results, 4 invalid rows", result.stderr)
    assert "first invalid row: line 4: vehicle_co2_g_per_km" in result.stderr


@pytest.mark.parametrize(
    ("header", "message"),
    [
        ("id,acquisition,colour", "unknown column(s) 'colour'"),
        ("id,invoice_date", "no « acquisition » column"),
        ("acquisition,acquisition", "a column appears twice"),
    ],
)
def test_a_bad_header_stops_before_any_row(tmp_path: Path, header: str, message: str) -> None:
    result = run(str(write(tmp_path, "in.csv", [header, "purchase"])))
    assert result.exit_code == 2
    assert message in json.loads(result.stderr)["errors"][0]["message"]


def test_workers_keep_the_input_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(api.batch.run, "BLOCK_BYTES", 700)  # many small blocks, several in flight at once
    path = write(
        tmp_path, "in.csv", [HEADER] + [row.replace("a1", f"r{k}", 1) for k in range(60) for row in ROWS[:3]]
    )
    one = run(str(path), "--quiet", "--workers", "1")
    two = run(str(path), "--quiet", "--workers", "2")
    assert one.stdout == two.stdout
    assert [r["line"] for r in records(two.stdout)][:4] == ["2", "3", "3", "4"]


@pytest.mark.parametrize("suffix", ["csv", "jsonl"])
def test_workers_write_the_output_file_in_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, suffix: str) -> None:
    """With an output file, a worker writes its piece there itself when the pieces before it are written, else
    the parent copies its spill file there: one piece in three made to wait (spilled), the file as one process
    writes it."""
    import os

    import api.batch.arrow_run as arrow_run

    monkeypatch.setattr(api.batch.run, "BLOCK_BYTES", 700)
    parent, end = os.getpid(), arrow_run._Placing.end

    def spilling(self: Any, seq: int) -> int | None:
        if os.getpid() == parent:
            return end(self, seq)
        found = None if seq % 3 == 0 else end(self, seq)
        if found is not None:
            with open(tmp_path / f"placed-{seq + 1}", "w"):  # a worker writes piece seq + 1 itself
                pass
        return found

    monkeypatch.setattr(arrow_run._Placing, "end", spilling)
    path = write(tmp_path, "in.csv", [HEADER] + [row.replace("a1", f"r{k}", 1) for k in range(60) for row in ROWS[:3]])
    one, two = tmp_path / f"one.{suffix}", tmp_path / f"two.{suffix}"
    run(str(path), "--quiet", "--workers", "1", "--out", str(one))
    run(str(path), "--quiet", "--workers", "2", "--out", str(two))
    assert one.read_bytes() == two.read_bytes() and len(one.read_bytes()) > 10_000
    assert list(tmp_path.glob("placed-*"))  # some pieces written by their worker



@pytest.mark.parametrize("suffix", ["csv", "jsonl", "parquet"])
@pytest.mark.parametrize("workers", ["1", "2"])
def test_an_output_file_written_over_holds_this_run_only(tmp_path: Path, suffix: str, workers: str) -> None:
    """An existing --out file, longer than this run's output, is cut to what this run wrote (CSV and JSON Lines:
    cut to one byte at the start, then to the size written; no byte of the old file is left)."""
    many = write(tmp_path, "many.csv", [HEADER] + [row.replace("a1", f"r{k}", 1) for k in range(80) for row in ROWS])
    few = write(tmp_path, "few.csv", [HEADER, *ROWS[:2]])
    over, fresh = tmp_path / f"over.{suffix}", tmp_path / f"fresh.{suffix}"
    run(str(many), "--quiet", "--workers", workers, "--out", str(over))
    before = over.stat().st_size
    run(str(few), "--quiet", "--workers", workers, "--out", str(over))
    run(str(few), "--quiet", "--workers", workers, "--out", str(fresh))
    assert over.read_bytes() == fresh.read_bytes()
    assert 0 < over.stat().st_size < before  # (Parquet: its metadata is most of a two-row file)


def test_an_output_file_emptied_when_the_run_writes_nothing(tmp_path: Path) -> None:
    """JSON Lines in with no request: the old file's bytes do not survive (its one kept byte is cut too)."""
    empty = write(tmp_path, "empty.jsonl", [""])
    out = tmp_path / "out.jsonl"
    out.write_text('{"old": "bytes"}\n', encoding="utf-8")
    run(str(empty), "--quiet", "--out", str(out))
    assert out.read_bytes() == b""


@pytest.mark.parametrize("option", ["--out", "--report"])
@pytest.mark.parametrize("where", ["a folder", "in no folder"])
def test_an_output_that_cannot_be_written_is_a_problem_naming_it(tmp_path: Path, option: str, where: str) -> None:
    path = tmp_path if where == "a folder" else tmp_path / "missing" / "out.csv"
    source = write(tmp_path, "in.csv", [HEADER + ",paid_amount", ROWS[0] + ",5400.00"])
    extra = ["--expect-column", "paid_amount"]  # (the report is asked for with it)
    result = run(str(source), "--quiet", *extra, option, str(path))
    assert result.exit_code == 2 and "Traceback" not in result.output
    problem = json.loads(result.stderr)
    assert problem["status"] == 400 and problem["errors"][0]["field"] == option
    assert str(path) in problem["errors"][0]["message"]


def test_workers_write_only_into_a_regular_file_written_at_the_offset_asked(tmp_path: Path) -> None:
    import multiprocessing

    from api.batch.arrow_run import _placing

    fork = multiprocessing.get_context("fork")
    with (tmp_path / "out.csv").open("wb") as sink:
        sink.write(b"header\n")
        placing = _placing(sink, 2, fork)
        assert placing is not None and placing.start == 7 and placing.end(-1) == 7 and placing.end(0) is None
        placing.ended(0, 20)
        assert placing.end(0) == 20 and placing.end(0 + placing.ring) is None
    with (tmp_path / "out.csv").open("ab") as sink:
        assert _placing(sink, 2, fork) is None  # appended whatever the offset
    assert _placing(io.BytesIO(), 2, fork) is None


def test_every_column_is_documented_in_the_readme() -> None:
    section = README.read_text(encoding="utf-8").split("## Batch calculation", 1)[1].split("\n## ", 1)[0]
    for column in (*CSV_COLUMNS, *OUTPUT_COLUMNS):
        assert f"`{column}`" in section, column


def test_the_plain_block_reading_equals_the_general_one(catalogue: Catalogue) -> None:
    from api.batch.blocks import run_any_csv, run_plain_csv
    from api.batch.csv_rows import CsvPlan
    from legislation.fast import Engine

    plain = [row for row in ROWS if '"' not in row]
    data = ("\n".join(plain) + "\n").encode()
    plan, engine = CsvPlan(HEADER.split(",")), Engine(catalogue)
    fast, general = run_plain_csv(engine, plan, 2, data), run_any_csv(engine, plan, 2, data)
    assert fast.text == general.text
    assert (fast.rows, fast.results, fast.invalid, fast.first_error) == (
        general.rows,
        general.results,
        general.invalid,
        general.first_error,
    )


def test_workers_do_not_write_a_file_that_is_also_standard_error(tmp_path: Path) -> None:
    """Output and messages to one file (2>&1): the parent writes every piece, in the order of the messages."""
    import multiprocessing
    import sys

    from api.batch.arrow_run import _placing

    with (tmp_path / "both.txt").open("wb") as sink, (tmp_path / "both.txt").open("w") as same:
        saved = sys.stderr
        sys.stderr = same  # standard error on the same file
        try:
            assert _placing(sink, 2, multiprocessing.get_context("fork")) is None
        finally:
            sys.stderr = saved


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_bad_header_leaves_the_last_output_as_it_was(tmp_path: Path, workers: str) -> None:
    """The --out file is opened (and cut) only once the input's header is known good: a refused header leaves the last
    run's output whole."""
    good = write(tmp_path, "good.csv", [HEADER, *ROWS])
    out = tmp_path / "out.csv"
    run(str(good), "--quiet", "--workers", workers, "--out", str(out))
    kept = out.read_bytes()
    bad = write(tmp_path, "bad.csv", [HEADER.replace("acquisition", "acquisitionn"), *ROWS])
    result = run(str(bad), "--quiet", "--workers", workers, "--out", str(out))
    assert result.exit_code == 2 and json.loads(result.stderr)["errors"][0]["field"] == "header"
    assert out.read_bytes() == kept and len(kept) > 100


def test_the_batch_keeps_freed_memory_unless_the_environment_says_otherwise(monkeypatch: pytest.MonkeyPatch) -> None:
    """`vigueur batch` tells glibc's malloc to keep 256 MB of freed memory and grow its heap 64 MB at a time
    (api.cli.batch._keep_freed_memory); a MALLOC_TRIM_THRESHOLD_ or MALLOC_TOP_PAD_ of the environment wins."""
    import ctypes
    import sys

    import api.cli.batch as batch_cli

    if not sys.platform.startswith("linux"):
        pytest.skip("glibc's mallopt: Linux only")
    calls: list[tuple[int, int]] = []

    class Libc:
        def __init__(self, name: object) -> None:
            assert name is None  # the process's own symbols (glibc's)

        def mallopt(self, option: int, value: int) -> int:
            calls.append((option, value))
            return 1

    monkeypatch.setattr(ctypes, "CDLL", Libc)
    for name in ("MALLOC_TRIM_THRESHOLD_", "MALLOC_TOP_PAD_"):
        monkeypatch.delenv(name, raising=False)
    batch_cli._keep_freed_memory()
    assert calls == [(-1, 256 << 20), (-2, 64 << 20)]  # M_TRIM_THRESHOLD, M_TOP_PAD of malloc.h
    calls.clear()
    monkeypatch.setenv("MALLOC_TOP_PAD_", "0")
    batch_cli._keep_freed_memory()
    assert calls == []
