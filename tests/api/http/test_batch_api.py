"""POST /v1/calculate/batch: JSON Lines in, JSON Lines streamed back, byte for byte `vigueur batch --format
jsonl`;
bad rows reported by line without stopping; a row limit answered 413 before anything is computed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session
from typer.testing import CliRunner

from api.cases.files import load_cases
from api.catalogue.store import load_tree
from api.cli.main import app as cli
from api.http.app import create_app
from api.http.deps import get_session
from api.http.public.cases import BATCH_REQUEST_EXAMPLE, BATCH_RESPONSE_EXAMPLE, BatchRecordOut
from api.http.routes import batch as batch_routes
from tests.api.support import REFERENCE, SUCCESSOR, sqlite_engine

NDJSON = {"content-type": "application/x-ndjson"}
CORPUS = Path(__file__).resolve().parents[2] / "regression"

ELECTRIC = {
    "acquisition": "purchase",
    "order_date": "2020-06-10",
    "invoice_date": "2020-07-15",
    "vehicle": {
        "category": "passenger_car",
        "energy": "electric",
        "co2_g_per_km": 0,
        "acquisition_cost": "32000.00",
    },
    "buyer": {"person_kind": "natural_person"},
    "schemes": ["bonus"],
}


def line(doc: Any) -> str:
    return json.dumps(doc, ensure_ascii=False)


# Line by line, what the fixture tree gives (REFERENCE: 27 % capped at 7 000 € for a natural person; SUCCESSOR
# from 2021-01-21: capped at 6 000 €).
MIXED = [
    line(ELECTRIC),  # 1: 27 % × 32 000 = 8 640 > 7 000 → 7000.00 under REFERENCE
    "",  # 2: blank, skipped, but counted as a line
    line(ELECTRIC | {"order_date": "2021-02-01", "invoice_date": "2021-02-10"}),  # 3: 6000.00 under SUCCESSOR
    "{not json",  # 4: invalid
    line(ELECTRIC | {"vehicle": {"acquisition_cost": "-1"}}),  # 5: invalid field
    line(ELECTRIC | {"order_date": "2020-08-01"}),  # 6: invoice before the order: invalid dates
    line(ELECTRIC | {"invoice_date": "2019-03-02", "order_date": "2019-03-01"}),  # 7: no version on file
    line({k: v for k, v in ELECTRIC.items() if k != "schemes"}),  # 8: both schemes
    line(
        {"acquisition": "purchase", "invoice_date": "2020-09-01", "vehicle": {"category": "passenger_car"}}
    ),  # 9
    "   ",  # 10: blank
    line(ELECTRIC | {"vehicule": {}}),  # 11: unknown field
    line(ELECTRIC | {"vehicle": ELECTRIC["vehicle"] | {"acquisition_cost": "50000"}}),  # 12: 2°, 3 000 € band
]


def cli_batch(tmp_path: Path, body: bytes, versions_dir: Path | None = None) -> bytes:
    source = tmp_path / "input.jsonl"
    source.write_bytes(body)
    args = ["batch", str(source), "--format", "jsonl", "--quiet"]
    if versions_dir is not None:
        args += ["--versions-dir", str(versions_dir)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code in (0, 1), result.output
    return result.stdout_bytes


def post(client: TestClient, body: bytes | str, headers: dict[str, str] = NDJSON) -> Any:
    return client.post("/v1/calculate/batch", content=body, headers=headers)


@pytest.fixture
def corpus_client() -> Iterator[TestClient]:
    engine = sqlite_engine()
    with Session(engine) as session:
        load_tree(session)
        session.commit()
        app = create_app()
        app.dependency_overrides[get_session] = lambda: session
        yield TestClient(app)
    engine.dispose()


def test_the_answer_is_what_vigueur_batch_writes(
    client: TestClient, tmp_path: Path, fixture_tree: Path
) -> None:
    body = ("\n".join(MIXED) + "\n").encode()
    answered = post(client, body)
    assert answered.status_code == 200 and answered.headers["content-type"] == "application/x-ndjson"
    printed = cli_batch(tmp_path, body, fixture_tree)
    assert answered.content == printed
    records = [json.loads(t) for t in answered.text.splitlines()]
    for record in records:
        BatchRecordOut.model_validate(record)
    by_line = {r["line"]: r for r in records if r["scheme"] in (None, "bonus")}
    # Amounts from the text (fixture tree): 1° capped at 7 000 (REFERENCE), at 6 000 (SUCCESSOR).
    assert (by_line[1]["amount"], by_line[1]["version_id"]) == ("7000.00", REFERENCE)
    assert (by_line[3]["amount"], by_line[3]["version_id"]) == ("6000.00", SUCCESSOR)
    assert by_line[7]["status"] == "no_version_on_file"
    assert by_line[9]["status"] == "missing_facts"
    assert by_line[9]["missing_facts"]  # the facts it lacks are named (explained by default, as `vigueur batch`)
    assert by_line[12]["amount"] == "3000.00"  # 2°: 45 000 to 60 000 € → 3 000 €
    assert [r["scheme"] for r in records if r["line"] == 8] == ["bonus", "conversion_premium"]


def test_bad_rows_are_reported_by_line_and_the_batch_goes_on(client: TestClient) -> None:
    body = "\n".join(MIXED) + "\n"
    records = [json.loads(t) for t in post(client, body).text.splitlines()]
    invalid = {r["line"]: r["error"] for r in records if r["status"] == "invalid"}
    assert sorted(invalid) == [4, 5, 6, 11]
    assert "JSON" in invalid[4]
    assert invalid[5].startswith("vehicle.acquisition_cost:")
    assert invalid[6].startswith("invoice_date:") or invalid[6].startswith("order_date:")
    assert "vehicule" in invalid[11]
    assert {r["line"] for r in records} == {1, 3, 4, 5, 6, 7, 8, 9, 11, 12}  # blank lines 2 and 10 skipped
    assert [r["line"] for r in records] == sorted(r["line"] for r in records)  # input order


def test_the_regression_requests_give_what_vigueur_batch_gives(
    corpus_client: TestClient, tmp_path: Path
) -> None:
    cases = load_cases([CORPUS])
    lines = [c.request_json for c in cases]
    lines[10:10] = ["[]", '{"acquisition": "gift"}']  # and two bad rows in the middle
    body = ("\r\n".join(lines)).encode()  # Windows line ends, no final newline
    answered = post(corpus_client, body)
    assert answered.status_code == 200
    assert answered.content == cli_batch(tmp_path, body)
    assert len({json.loads(t)["line"] for t in answered.text.splitlines()}) == len(cases) + 2


def test_many_rows_are_streamed_in_blocks_with_their_line_numbers(
    client: TestClient, tmp_path: Path, fixture_tree: Path
) -> None:
    rows = [
        line(ELECTRIC | {"vehicle": ELECTRIC["vehicle"] | {"acquisition_cost": f"{20000 + i}.00"}})
        for i in range(2 * batch_routes.BLOCK_LINES + 7)
    ]
    rows[batch_routes.BLOCK_LINES] = "oops"  # the first line of the second block
    body = ("\n".join(rows) + "\n").encode()
    assert len(list(batch_routes.blocks(body))) == 3
    with client.stream("POST", "/v1/calculate/batch", content=body, headers=NDJSON) as answered:
        assert answered.status_code == 200
        received = b"".join(answered.iter_bytes())
    assert received == cli_batch(tmp_path, body, fixture_tree)
    records = [json.loads(t) for t in received.decode().splitlines()]
    assert [r["line"] for r in records] == list(range(1, len(rows) + 1))
    assert records[batch_routes.BLOCK_LINES]["status"] == "invalid"
    # 27 % × 20 000 = 5 400 < 7 000: the rate binds on the first row.
    assert records[0]["amount"] == "5400.00"
    assert answered.headers["vigueur-batch-rows"] == str(len(rows))
    assert answered.headers["vigueur-batch-row-limit"] == str(batch_routes.MAX_ROWS)


def test_the_row_limit_is_413_before_anything_is_computed(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def never(*_: Any) -> Any:
        raise AssertionError("a batch over the limit must not be computed")

    over = ("{}\n" * (batch_routes.MAX_ROWS + 1)).encode()
    with monkeypatch.context() as patch:
        patch.setattr(batch_routes, "jsonl_piece", never)
        answered = post(client, over)
    assert answered.status_code == 413
    assert answered.headers["content-type"] == "application/problem+json"
    problem = answered.json()
    assert problem["type"] == "urn:vigueur:problem:too-many-rows"
    assert (problem["rows"], problem["max_rows"]) == (batch_routes.MAX_ROWS + 1, 10_000)
    at_limit = post(client, "{}\n" * batch_routes.MAX_ROWS)  # every row invalid, none refused
    assert at_limit.status_code == 200 and len(at_limit.text.splitlines()) == batch_routes.MAX_ROWS
    monkeypatch.setattr(batch_routes, "MAX_ROWS", 2)
    rows = line(ELECTRIC) + "\n\n\n" + line(ELECTRIC) + "\n  \n"
    assert post(client, rows).status_code == 200  # blank lines are not rows
    assert post(client, rows + line(ELECTRIC)).status_code == 413


def test_the_byte_limit_is_413(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batch_routes, "MAX_BYTES", 100)
    answered = post(client, line(ELECTRIC) + "\n")
    assert answered.status_code == 413 and answered.json()["type"] == "urn:vigueur:problem:too-many-bytes"


@pytest.mark.parametrize(
    "content_type", ["application/jsonl", "application/json", "application/x-ndjson; charset=utf-8"]
)
def test_json_lines_media_types_are_accepted(client: TestClient, content_type: str) -> None:
    body = "\n".join(MIXED) + "\n"
    assert post(client, body, {"content-type": content_type}).content == post(client, body).content


@pytest.mark.parametrize("content_type", ["text/csv", "text/plain", ""])
def test_other_media_types_are_415(client: TestClient, content_type: str) -> None:
    answered = post(client, line(ELECTRIC), {"content-type": content_type} if content_type else {})
    assert answered.status_code == 415 and answered.headers["content-type"] == "application/problem+json"


def test_an_empty_batch_answers_nothing(client: TestClient) -> None:
    for body in ("", "\n\n", "  \n"):
        answered = post(client, body)
        assert answered.status_code == 200 and answered.content == b""
        assert answered.headers["vigueur-batch-rows"] == "0"


def test_the_documented_example(client: TestClient) -> None:
    # The example's second row is invalid; its first row is 27 % × 32 000 = 8 640 > 7 000 → 7000.00.
    answered = post(client, BATCH_REQUEST_EXAMPLE)
    assert answered.text == BATCH_RESPONSE_EXAMPLE
    operation = client.get("/openapi.json").json()["paths"]["/v1/calculate/batch"]["post"]
    assert set(operation["requestBody"]["content"]) == {
        "application/x-ndjson",
        "application/jsonl",
        "application/json",
    }
    assert str(batch_routes.MAX_ROWS) in operation["summary"]
    assert set(operation["responses"]) >= {"200", "413", "415", "503"}
