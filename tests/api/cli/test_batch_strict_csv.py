"""`vigueur batch` CSV input as strict as the JSON contract, and a stray quote that damages one row only.

A stray « " » used to open a quoted field running over every following line: the block reader counted
the quotes of its whole growing buffer at each line (quadratic), and the next good rows were merged into one
invalid record (« 1 rows »). Now one line is one record: the bad row is reported, naming its column, and
every following row is computed and counted, in time linear in the input.
"""

from __future__ import annotations

import csv
import io
import json
import re
import time
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from api.cli.main import app as cli
from tests.api.cli.test_batch_cli import HEADER, ROWS

GOOD = ROWS[0]  # an electric car in 2020: 5 400 €
GOOD_ROWS = 20_000


def run(*args: str, stdin: bytes | None = None) -> Any:
    return CliRunner().invoke(cli, ["batch", *args], input=stdin)


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def records(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def summary_rows(stderr: str) -> int:
    found = re.search(r"vigueur batch: (\d+) rows", stderr)
    assert found, stderr
    return int(found.group(1))


def test_a_stray_quote_loses_no_row_and_stays_linear(tmp_path: Path) -> None:
    good = (GOOD + "\n").encode() * GOOD_ROWS
    stray = GOOD.replace(",bonus,", ',"bonus,', 1)  # one quote, opened in schemes and never closed
    clean_path = write(tmp_path, "clean.csv", (HEADER + "\n").encode() + (GOOD + "\n").encode() + good)
    stray_path = write(tmp_path, "stray.csv", (HEADER + "\n" + stray + "\n").encode() + good)

    started = time.perf_counter()
    clean = run(str(clean_path))
    clean_seconds = time.perf_counter() - started
    started = time.perf_counter()
    result = run(str(stray_path))
    stray_seconds = time.perf_counter() - started

    assert clean.exit_code == 0, clean.output
    assert result.exit_code == 1, result.output
    out = records(result.stdout)
    assert len(out) == GOOD_ROWS + 1  # one result per row: no good row merged into the bad one
    assert summary_rows(result.stderr) == GOOD_ROWS + 1
    assert (out[0]["line"], out[0]["status"]) == ("2", "invalid")
    assert out[0]["error"].startswith("schemes: a quoted field is not closed on its line")
    assert "first invalid row: line 2: schemes:" in result.stderr
    assert all(r["status"] == "computed" and r["amount"] == "5400.00" for r in out[1:])
    assert [r["line"] for r in out[1:3]] == ["3", "4"]
    # Quadratic reading took 37× the clean file's time on 20 000 rows; linear reading takes about the same.
    assert stray_seconds < 5 * clean_seconds + 1.0, (stray_seconds, clean_seconds)


def test_a_quote_inside_a_cell_is_one_invalid_row(tmp_path: Path) -> None:
    bad = GOOD.replace("2020-07-15", '2020"-07-15', 1)
    path = write(tmp_path, "in.csv", f"{HEADER}\n{bad}\n{GOOD}\n{GOOD}\n".encode())
    out = records(run(str(path), "--quiet").stdout)
    assert [(r["line"], r["status"]) for r in out] == [("2", "invalid"), ("3", "computed"), ("4", "computed")]
    assert out[0]["error"].startswith("invoice_date:")


def test_arabic_indic_digits_are_refused(tmp_path: Path) -> None:
    arabic = GOOD.replace("2020-07-15", "٢٠٢٠-٠٧-١٥").replace(",0,20000.00,", ",٠,20000.00,")
    path = write(tmp_path, "in.csv", f"{HEADER}\n{arabic}\n".encode())
    out = records(run(str(path), "--quiet").stdout)
    assert out[0]["status"] == "invalid"
    assert "invoice_date:" in out[0]["error"] and "vehicle_co2_g_per_km:" in out[0]["error"]


def test_arabic_indic_amounts_are_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "in.csv", f"{HEADER}\n{GOOD.replace('20000.00', '٢٠٠٠٠')}\n".encode())
    out = records(run(str(path), "--quiet").stdout)
    assert out[0]["status"] == "invalid" and out[0]["error"].startswith("vehicle_acquisition_cost:")


def test_invalid_utf8_is_refused_naming_line_and_column(tmp_path: Path) -> None:
    bad = GOOD.encode().replace(b"natural_person", b"natural_\xffperson")
    path = write(tmp_path, "in.csv", (HEADER + "\n").encode() + bad + b"\n" + GOOD.encode() + b"\n")
    result = run(str(path))
    out = records(result.stdout)
    assert [(r["line"], r["status"]) for r in out] == [("2", "invalid"), ("3", "computed")]
    assert out[0]["error"] == "buyer_person_kind: not valid UTF-8 (byte 0xff); the input must be UTF-8"
    assert "\ufffd" not in result.stdout
    assert "first invalid row: line 2: buyer_person_kind: not valid UTF-8" in result.stderr


def test_invalid_utf8_in_the_header_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "in.csv", HEADER.encode().replace(b"acquisition,", b"acquisition\xe9,", 1) + b"\n")
    result = run(str(path))
    assert result.exit_code == 2
    problem = json.loads(result.stderr)
    assert problem["errors"][0]["field"] == "header" and "UTF-8" in problem["errors"][0]["message"]


def test_invalid_utf8_in_json_lines_is_refused(tmp_path: Path) -> None:
    line = b'{"acquisition": "purchase", "invoice_date": "2020-07-15", "vehicle": {"category": "\xff"}}'
    path = write(tmp_path, "in.jsonl", line + b"\n")
    out = [json.loads(r) for r in run(str(path), "--quiet").stdout.splitlines()]
    assert out[0]["status"] == "invalid" and "UTF-8" in out[0]["error"]


def test_a_nul_in_an_id_is_refused(tmp_path: Path) -> None:
    with_nul = GOOD.replace("a1,", "a\x001,", 1)
    path = write(tmp_path, "in.csv", f"{HEADER}\n{with_nul}\n{GOOD}\n".encode())
    result = run(str(path), "--quiet")
    out = records(result.stdout)
    assert [(r["line"], r["status"]) for r in out] == [("2", "invalid"), ("3", "computed")]
    assert out[0]["error"] == "id: holds the control character U+0000"
    assert "\x00" not in result.stdout


def test_a_leading_bom_is_accepted_in_csv_and_in_json_lines(tmp_path: Path) -> None:
    csv_path = write(tmp_path, "in.csv", f"\ufeff{HEADER}\n{GOOD}\n".encode())
    assert run(str(csv_path), "--quiet").exit_code == 0
    request = {
        "acquisition": "purchase",
        "invoice_date": "2020-07-15",
        "vehicle": {"category": "passenger_car", "co2_g_per_km": 0, "acquisition_cost": "20000.00"},
        "buyer": {"person_kind": "natural_person"},
    }
    jsonl_path = write(tmp_path, "in.jsonl", ("\ufeff" + json.dumps(request) + "\n").encode())
    result = run(str(jsonl_path), "--quiet")
    assert result.exit_code == 0, result.stdout
