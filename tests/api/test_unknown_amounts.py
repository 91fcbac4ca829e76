"""Answers that cannot mislead (issue 9, item 4): an amount that is not known is null — never 0.00 — in
`vigueur calculate` (JSON), `POST /v1/calculate`, and `vigueur batch` (CSV: an empty cell; JSON Lines: null);
`--explain` never prints « Total: 0.00 » for it; a lower bound (a « more favourable » clause keeping a version
not on file) is flagged on the scheme and on the total. Requests: the generated OpenAPI examples' list."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from api.cli.main import app as cli
from api.http.examples.generate import _client, requests

REQUESTS = requests()
# request → the status of each scheme it computes; every amount is unknown
UNKNOWN = {
    "missing_facts": {"bonus": "missing_facts", "conversion_premium": "no_version_on_file"},
    "no_version_on_file": {"bonus": "no_version_on_file", "conversion_premium": "no_version_on_file"},
    "electric_bicycle_2017": {"bonus": "not_covered_on_file"},
}
LOWER_BOUND = "more_favourable_2021"  # D. 251-8 of 2021-07-26, ordered 2021-06-30 (clause limit « inclus »)


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with _client() as client:
        yield client


def request_file(tmp_path: Path, name: str) -> Path:
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(REQUESTS[name]["value"]), encoding="utf-8")
    return path


def cli_calculate(tmp_path: Path, name: str, *options: str) -> Any:
    result = CliRunner().invoke(cli, ["calculate", str(request_file(tmp_path, name)), *options])
    assert result.exit_code == 0, result.output
    return result.stdout


def assert_unknown(answer: dict[str, Any], statuses: dict[str, str]) -> None:
    assert {r["scheme"]: r["status"] for r in answer["results"]} == statuses
    assert all(r["amount"] is None and not r["amount_is_lower_bound"] for r in answer["results"])
    assert answer["total_amount"] is None and answer["total_unknown_for"] == list(statuses)
    assert answer["total_is_lower_bound"] is False


@pytest.mark.parametrize("name", sorted(UNKNOWN))
def test_an_unknown_amount_is_null_in_the_cli_json(tmp_path: Path, name: str) -> None:
    assert_unknown(json.loads(cli_calculate(tmp_path, name, "--json")), UNKNOWN[name])


@pytest.mark.parametrize("name", sorted(UNKNOWN))
def test_an_unknown_amount_is_null_in_the_api_and_the_same_bytes_as_the_cli(
    tmp_path: Path, client: TestClient, name: str
) -> None:
    response = client.post("/v1/calculate", json=REQUESTS[name]["value"])
    assert response.status_code == 200
    assert_unknown(response.json(), UNKNOWN[name])
    assert response.text == cli_calculate(tmp_path, name, "--json")


@pytest.mark.parametrize("name", sorted(UNKNOWN))
def test_the_trace_never_prints_a_zero_total_for_an_unknown_amount(tmp_path: Path, name: str) -> None:
    trace = cli_calculate(tmp_path, name, "--explain")
    assert "Total: 0.00" not in trace and "inconnu / not known" in trace


def csv_row(request: dict[str, Any]) -> dict[str, str]:
    """A request as a row of the batch CSV: nested facts as ``vehicle_…``, ``buyer_…``, ``scrapped_…``."""
    row: dict[str, str] = {}
    for key, value in request.items():
        if isinstance(value, dict):
            prefix = "scrapped" if key == "scrapped_vehicle" else key
            row |= {f"{prefix}_{k}": str(v).lower() if isinstance(v, bool) else str(v) for k, v in value.items()}
        else:
            row[key] = "|".join(value) if isinstance(value, list) else str(value)
    return row


def batch(tmp_path: Path, names: list[str], output: str) -> str:
    if output == "jsonl":
        text = "".join(json.dumps(REQUESTS[n]["value"]) + "\n" for n in names)
    else:
        rows = [csv_row(REQUESTS[n]["value"]) for n in names]
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, fieldnames=sorted({k for r in rows for k in r}), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        text = buffer.getvalue()
    path = tmp_path / f"in.{output}"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(cli, ["batch", str(path), "--quiet", "--format", output])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_an_unknown_amount_is_null_in_the_batch_json_lines(tmp_path: Path) -> None:
    names = sorted(UNKNOWN)
    out = [json.loads(line) for line in batch(tmp_path, names, "jsonl").splitlines()]
    expected = [(i + 1, scheme, status) for i, n in enumerate(names) for scheme, status in UNKNOWN[n].items()]
    assert [(r["line"], r["scheme"], r["status"]) for r in out] == expected
    assert all("amount" in r and r["amount"] is None for r in out)


def test_an_unknown_amount_is_an_empty_cell_in_the_batch_csv(tmp_path: Path) -> None:
    names = sorted(UNKNOWN)
    rows = list(csv.DictReader(io.StringIO(batch(tmp_path, names, "csv"))))
    assert [r["status"] for r in rows] == [s for n in names for s in UNKNOWN[n].values()]
    assert all(r["amount"] == "" for r in rows)


def test_a_lower_bound_is_flagged_on_the_scheme_and_the_total(tmp_path: Path, client: TestClient) -> None:
    answer = client.post("/v1/calculate", json=REQUESTS[LOWER_BOUND]["value"]).json()
    (result,) = answer["results"]
    assert result["status"] == "kept_version_not_on_file" and result["version_id"] == "D251-8.2021-07-26"
    assert result["amount"] == "2500.00" and result["amount_is_lower_bound"] is True
    assert answer["total_amount"] == "2500.00" and answer["total_is_lower_bound"] is True
    assert json.loads(cli_calculate(tmp_path, LOWER_BOUND, "--json")) == answer
    (row,) = [json.loads(line) for line in batch(tmp_path, [LOWER_BOUND], "jsonl").splitlines()]
    assert (row["status"], row["amount"]) == ("kept_version_not_on_file", "2500.00")
