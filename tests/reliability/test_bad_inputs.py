"""A matrix of bad inputs over the API, the CLI and the batch (CSV and JSON Lines): each is refused with a
4xx (HTTP) or exit code 2 (CLI, batch header) and a problem naming the failing field; a bad batch row is an
« invalid » output row (exit code 1: the other rows are computed) whose error starts with the field."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session
from typer.testing import CliRunner

from api.catalogue.store import CACHE, load_tree
from api.cli.main import app as cli
from api.http.app import create_app
from api.http.deps import get_session
from tests.api.cli.test_batch_cli import HEADER, ROWS
from tests.api.support import build_tree, sqlite_engine


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """The API over the fixture catalogue in an in-memory SQLite database (one for the module: the bad
    inputs write nothing)."""
    engine = sqlite_engine()
    with Session(engine) as session:
        load_tree(session, build_tree(tmp_path_factory.mktemp("bad") / "versions"))
        session.commit()
    app = create_app()

    def session_override() -> Iterator[Session]:
        with Session(engine) as session:
            yield session

    app.dependency_overrides[get_session] = session_override
    CACHE.clear()
    yield TestClient(app)
    CACHE.clear()
    engine.dispose()


GOOD: dict[str, Any] = {
    "acquisition": "purchase",
    "invoice_date": "2020-07-15",
    "schemes": ["bonus"],
    "vehicle": {"category": "passenger_car", "energy": "electric", "co2_g_per_km": 0, "acquisition_cost": "20000.00"},
    "buyer": {"person_kind": "natural_person"},
}
GOOD_TEXT = json.dumps(GOOD)


def changed(path: str, value: Any) -> bytes:
    """GOOD with the field at ``path`` (« vehicle.co2_g_per_km ») set to ``value`` (``...``: removed)."""
    doc = json.loads(GOOD_TEXT)
    *parents, last = path.split(".")
    node = doc
    for name in parents:
        node = node.setdefault(name, {})
    if value is ...:
        node.pop(last, None)
    else:
        node[last] = value
    return json.dumps(doc, ensure_ascii=False).encode()


# (case, body, the field named) — each is sent to the API (resolve and calculate) and to the CLI.
REQUESTS: list[tuple[str, bytes, str]] = [
    ("acquisition missing", changed("acquisition", ...), "acquisition"),
    ("acquisition unknown", changed("acquisition", "buy"), "acquisition"),
    ("acquisition null", changed("acquisition", None), "acquisition"),
    ("invoice date not of the calendar", changed("invoice_date", "2020-02-30"), "invoice_date"),
    ("invoice date Arabic-Indic digits", changed("invoice_date", "٢٠٢٠-٠٧-١٥"), "invoice_date"),
    ("invoice date a number", changed("invoice_date", 20200715), "invoice_date"),
    ("order date with a time", changed("order_date", "2020-07-01T10:00:00"), "order_date"),
    ("cost negative", changed("vehicle.acquisition_cost", "-1"), "vehicle.acquisition_cost"),
    ("cost three decimals", changed("vehicle.acquisition_cost", "1.234"), "vehicle.acquisition_cost"),
    ("cost NaN", changed("vehicle.acquisition_cost", "NaN"), "vehicle.acquisition_cost"),
    ("cost Infinity", changed("vehicle.acquisition_cost", "Infinity"), "vehicle.acquisition_cost"),
    ("cost 15 digits", changed("vehicle.acquisition_cost", "123456789012345"), "vehicle.acquisition_cost"),
    ("cost a boolean", changed("vehicle.acquisition_cost", True), "vehicle.acquisition_cost"),
    ("co2 over 1000", changed("vehicle.co2_g_per_km", 1001), "vehicle.co2_g_per_km"),
    ("co2 negative", changed("vehicle.co2_g_per_km", -1), "vehicle.co2_g_per_km"),
    ("co2 as text", changed("vehicle.co2_g_per_km", "12"), "vehicle.co2_g_per_km"),
    ("co2 a fraction", changed("vehicle.co2_g_per_km", 12.5), "vehicle.co2_g_per_km"),
    ("lease months 0", changed("lease_duration_months", 0), "lease_duration_months"),
    ("lease months 601", changed("lease_duration_months", 601), "lease_duration_months"),
    ("schemes empty", changed("schemes", []), "schemes"),
    ("scheme unknown", changed("schemes", ["malus"]), "schemes.0"),
    ("schemes a string", changed("schemes", "bonus"), "schemes"),
    ("unknown field", changed("colour", "red"), "colour"),
    ("unknown nested field", changed("vehicle.colour", "red"), "vehicle.colour"),
    ("vehicle not an object", changed("vehicle", "car"), "vehicle"),
    ("person kind unknown", changed("buyer.person_kind", "alien"), "buyer.person_kind"),
    ("income not a number", changed("buyer.reference_income_per_share", "abc"), "buyer.reference_income_per_share"),
    (
        "scrapped date not a date",
        changed("scrapped_vehicle.first_registration_date", "yesterday"),
        "scrapped_vehicle.first_registration_date",
    ),
    ("energy with a NUL", changed("vehicle.energy", "electric\u0000"), "vehicle.energy"),
    ("duplicate key", GOOD_TEXT[:-1].encode() + b', "acquisition": "lease"}', "acquisition"),
    (
        "duplicate nested key",
        GOOD_TEXT.replace('"energy": "electric"', '"energy": "electric", "energy": "diesel"').encode(),
        "vehicle.energy",
    ),
    ("not JSON", b"{oops", "(body)"),
    ("an array", b"[]", "(body)"),
    ("empty body", b"", "(body)"),
    ("not UTF-8", GOOD_TEXT.replace("electric", "\xe9lectric").encode("latin-1"), "(body)"),
    ("invoice before order", changed("order_date", "2020-08-01"), "invoice_date"),
]
IDS = [case for case, _, _ in REQUESTS]


def fields_of(problem: dict[str, Any]) -> set[str]:
    return {e["field"] for e in problem.get("errors") or []}


@pytest.mark.parametrize(("case", "body", "field"), REQUESTS, ids=IDS)
@pytest.mark.parametrize("path", ["/v1/calculate", "/v1/resolve"])
def test_the_api_refuses_naming_the_field(client: TestClient, path: str, case: str, body: bytes, field: str) -> None:
    answer = client.post(path, content=body, headers={"content-type": "application/json"})
    assert 400 <= answer.status_code < 500, (case, answer.status_code, answer.text)
    assert answer.headers["content-type"] == "application/problem+json"
    assert field in fields_of(answer.json()), (case, answer.text)


@pytest.mark.parametrize(("case", "body", "field"), REQUESTS, ids=IDS)
def test_the_cli_refuses_with_exit_code_2_naming_the_field(tmp_path: Any, case: str, body: bytes, field: str) -> None:
    path = tmp_path / "request.json"
    path.write_bytes(body)
    result = CliRunner().invoke(cli, ["calculate", str(path)])
    assert result.exit_code == 2, (case, result.exit_code, result.output)
    assert field in fields_of(json.loads(result.stderr)), (case, result.output)


# (case, method, url, headers, body, status, field) — the other inputs of the API.
OTHER_API: list[tuple[str, str, str, dict[str, str], bytes, int, str]] = [
    ("text/plain body", "POST", "/v1/calculate", {"content-type": "text/plain"}, GOOD_TEXT.encode(), 415, "(body)"),
    ("no content type", "POST", "/v1/resolve", {}, GOOD_TEXT.encode(), 415, "(body)"),
    ("body over 1 MB", "POST", "/v1/calculate", {"content-type": "application/json"}, b" " * 1_000_001, 413, "(body)"),
    ("known_at not an instant", "GET", "/v1/schemes?known_at=yesterday", {}, b"", 422, "known_at"),
    ("known_at naive", "GET", "/v1/schemes?known_at=2021-01-01T00:00:00", {}, b"", 422, "known_at"),
    ("known_at to come", "GET", "/v1/schemes?known_at=2999-01-01T00:00:00Z", {}, b"", 422, "known_at"),
    ("known_at too long", "GET", "/v1/schemes?known_at=" + "9" * 65, {}, b"", 422, "known_at"),
    ("on not of the calendar", "GET", "/v1/schemes/bonus/in-force?on=2020-02-30", {}, b"", 422, "on"),
    ("on Arabic-Indic", "GET", "/v1/schemes/bonus/in-force?on=٢٠٢٠-٠٧-١٥", {}, b"", 422, "on"),
    ("scheme unknown", "GET", "/v1/schemes/malus/versions", {}, b"", 422, "scheme"),
    ("version id too long", "GET", "/v1/versions/" + "D" * 201, {}, b"", 422, "version_id"),
    ("version unknown", "GET", "/v1/versions/D251-7.1999-01-01", {}, b"", 404, "version_id"),
    ("receipt id malformed", "GET", "/v1/receipts/zz", {}, b"", 404, "receipt_id"),
    ("receipt unknown", "POST", "/v1/receipts/" + "0" * 32 + "/replay", {}, b"", 404, "receipt_id"),
    (
        "case filters not a list",
        "POST",
        "/v1/cases/run",
        {"content-type": "application/json"},
        b'{"ids": "a"}',
        422,
        "ids",
    ),
    (
        "case filter unknown",
        "POST",
        "/v1/cases/run",
        {"content-type": "application/json"},
        b'{"colour": 1}',
        422,
        "colour",
    ),
    (
        "case filters duplicate",
        "POST",
        "/v1/cases/run",
        {"content-type": "application/json"},
        b'{"ids": ["a"], "ids": ["b"]}',
        422,
        "ids",
    ),
    (
        "case filters not UTF-8",
        "POST",
        "/v1/cases/run",
        {"content-type": "application/json"},
        b'{"ids": ["\xff"]}',
        422,
        "(body)",
    ),
    (
        "batch as text/plain",
        "POST",
        "/v1/calculate/batch",
        {"content-type": "text/plain"},
        GOOD_TEXT.encode(),
        415,
        "(body)",
    ),
]


@pytest.mark.parametrize(
    ("case", "method", "url", "headers", "body", "status", "field"), OTHER_API, ids=[c[0] for c in OTHER_API]
)
def test_other_api_inputs_are_refused_naming_the_field(
    client: TestClient, case: str, method: str, url: str, headers: dict[str, str], body: bytes, status: int, field: str
) -> None:
    answer = client.request(method, url, content=body, headers=headers)
    assert answer.status_code == status, (case, answer.text)
    assert field in fields_of(answer.json()), (case, answer.text)


# -- batch -------------------------------------------------------------------------------------------

GOOD_ROW = ROWS[0]
HEADERS_REFUSED: list[tuple[str, bytes]] = [
    ("unknown column", b"id,acquisition,colour\n"),
    ("no acquisition column", b"id,invoice_date\n"),
    ("a column twice", b"acquisition,acquisition\n"),
    ("header not UTF-8", b"id,acquisition\xe9\n"),
    ("empty input", b""),
]


@pytest.mark.parametrize(("case", "data"), HEADERS_REFUSED, ids=[c for c, _ in HEADERS_REFUSED])
def test_a_bad_csv_header_exits_2_naming_the_header(tmp_path: Any, case: str, data: bytes) -> None:
    path = tmp_path / "in.csv"
    path.write_bytes(data)
    result = CliRunner().invoke(cli, ["batch", str(path), "--quiet"])
    assert result.exit_code == 2, (case, result.output)
    assert fields_of(json.loads(result.stderr)) == {"header"}


def cell(column: str, text: str) -> str:
    cells = next(csv.reader([GOOD_ROW]))
    cells[HEADER.split(",").index(column)] = text
    out = io.StringIO()
    csv.writer(out, lineterminator="").writerow(cells)
    return out.getvalue()


ROWS_REFUSED: list[tuple[str, bytes, str]] = [
    ("date not of the calendar", cell("invoice_date", "2020-02-30").encode(), "invoice_date"),
    ("date Arabic-Indic", cell("invoice_date", "٢٠٢٠-٠٧-١٥").encode(), "invoice_date"),
    ("co2 Arabic-Indic", cell("vehicle_co2_g_per_km", "١٢").encode(), "vehicle_co2_g_per_km"),
    ("co2 over 1000", cell("vehicle_co2_g_per_km", "1001").encode(), "vehicle_co2_g_per_km"),
    ("cost negative", cell("vehicle_acquisition_cost", "-1").encode(), "vehicle_acquisition_cost"),
    ("cost three decimals", cell("vehicle_acquisition_cost", "1.234").encode(), "vehicle_acquisition_cost"),
    ("enum unknown", cell("vehicle_category", "tank").encode(), "vehicle_category"),
    ("scheme unknown", cell("schemes", "malus").encode(), "schemes"),
    ("acquisition empty", cell("acquisition", "").encode(), "acquisition"),
    ("stray quote", GOOD_ROW.replace(",bonus,", ',"bonus,').encode(), "schemes"),
    ("NUL in the id", GOOD_ROW.replace("a1,", "a\x001,").encode(), "id"),
    ("cell not UTF-8", GOOD_ROW.encode().replace(b"natural_person", b"natural_\xffperson"), "buyer_person_kind"),
    ("text after a closing quote", GOOD_ROW.replace(",bonus,", ',"bonus"x,').encode(), "schemes"),
]


@pytest.mark.parametrize(("case", "row", "field"), ROWS_REFUSED, ids=[c for c, _, _ in ROWS_REFUSED])
def test_a_bad_csv_row_is_reported_naming_the_column(tmp_path: Any, case: str, row: bytes, field: str) -> None:
    path = tmp_path / "in.csv"
    path.write_bytes(HEADER.encode() + b"\n" + row + b"\n" + GOOD_ROW.encode() + b"\n")
    result = CliRunner().invoke(cli, ["batch", str(path), "--quiet"])
    assert result.exit_code == 1, (case, result.output)
    out = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [(r["line"], r["status"]) for r in out] == [("2", "invalid"), ("3", "computed")], case
    assert out[0]["error"].startswith(f"{field}:"), (case, out[0]["error"])


JSONL_REFUSED: list[tuple[str, bytes, str]] = [
    ("acquisition missing", changed("acquisition", ...), "acquisition"),
    ("unknown field", changed("colour", "red"), "colour"),
    ("duplicate key", GOOD_TEXT[:-1].encode() + b', "acquisition": "lease"}', "acquisition"),
    ("date Arabic-Indic", changed("invoice_date", "٢٠٢٠-٠٧-١٥"), "invoice_date"),
    ("cost negative", changed("vehicle.acquisition_cost", "-1"), "vehicle.acquisition_cost"),
    ("not UTF-8", GOOD_TEXT.replace("electric", "\xe9lectric").encode("latin-1"), "(line)"),
    ("not JSON", b"{oops", "(body)"),
    ("invoice before order", changed("order_date", "2020-08-01"), "invoice_date"),
]


@pytest.mark.parametrize(("case", "line", "field"), JSONL_REFUSED, ids=[c for c, _, _ in JSONL_REFUSED])
def test_a_bad_json_lines_row_is_reported_naming_the_field(tmp_path: Any, case: str, line: bytes, field: str) -> None:
    path = tmp_path / "in.jsonl"
    path.write_bytes(line + b"\n" + GOOD_TEXT.encode() + b"\n")
    result = CliRunner().invoke(cli, ["batch", str(path), "--quiet"])
    assert result.exit_code == 1, (case, result.output)
    out = [json.loads(r) for r in result.stdout.splitlines()]
    assert [(r["line"], r["status"]) for r in out] == [(1, "invalid"), (2, "computed")], case
    assert out[0]["error"].startswith(f"{field}:"), (case, out[0]["error"])


def test_the_matrix_has_at_least_60_cases() -> None:
    total = 3 * len(REQUESTS) + len(OTHER_API) + len(HEADERS_REFUSED) + len(ROWS_REFUSED) + len(JSONL_REFUSED)
    assert total >= 60, total
