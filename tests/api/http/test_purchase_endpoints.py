"""POST /v1/resolve and /v1/calculate: the CLI's contract byte for byte, errors as problem documents."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session
from typer.testing import CliRunner

from api.catalogue.store import load_tree
from api.cli.main import app as cli
from api.http.app import create_app
from api.http.deps import get_session
from api.purchase.models import CalculationResponse, ResolveResponse
from api.settings import MAX_BODY_BYTES
from tests.api.support import REFERENCE, SUCCESSOR, sqlite_engine

JSON = {"content-type": "application/json"}
ELECTRIC_CAR = {
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

# Requests whose answers the CLI and the API must give identically (successes and refusals alike).
REQUESTS: dict[str, Any] = {
    "electric_car_2020": ELECTRIC_CAR,
    "electric_car_2021_successor": ELECTRIC_CAR | {"order_date": "2021-02-01", "invoice_date": "2021-02-10"},
    "transitional_clause_open": ELECTRIC_CAR | {"order_date": "2021-01-10", "invoice_date": "2021-03-01"},
    "no_order_date": {k: v for k, v in ELECTRIC_CAR.items() if k != "order_date"},
    "both_schemes_missing_facts": {
        "acquisition": "purchase",
        "invoice_date": "2020-09-01",
        "vehicle": {"category": "passenger_car"},
    },
    "lease": {
        "acquisition": "lease",
        "order_date": "2020-07-01",
        "first_rent_date": "2020-08-01",
        "lease_duration_months": 36,
        "vehicle": {
            "category": "passenger_car",
            "energy": "electric",
            "co2_g_per_km": 0,
            "acquisition_cost": 50000,
        },
        "buyer": {"person_kind": "legal_person"},
    },
    "no_version_on_file": ELECTRIC_CAR | {"order_date": "2019-03-01", "invoice_date": "2019-03-02"},
    "plug_in_hybrid": ELECTRIC_CAR
    | {
        "vehicle": {
            "category": "passenger_car",
            "energy": "petrol_electric_hybrid",
            "co2_g_per_km": 50,
            "acquisition_cost": "50000",
            "city_electric_range_km": "50.001",
        }
    },
    "unicode_and_big_numbers": ELECTRIC_CAR
    | {"vehicle": {"category": "passenger_car", "co2_g_per_km": 10**30}},
    "invalid_unknown_field": ELECTRIC_CAR | {"vehicule": {}},
    "invalid_negative_cost": ELECTRIC_CAR | {"vehicle": {"acquisition_cost": "-1"}},
    "invalid_dates_order": ELECTRIC_CAR | {"order_date": "2020-08-01", "invoice_date": "2020-07-15"},
    "invalid_missing_invoice_date": {"acquisition": "purchase", "vehicle": {}},
}


def post(client: TestClient, path: str, doc: Any) -> Any:
    return client.post(path, content=json.dumps(doc, ensure_ascii=False).encode(), headers=JSON)


def test_calculate_gives_the_amount_the_version_and_the_steps(client: TestClient) -> None:
    response = post(client, "/v1/calculate", ELECTRIC_CAR)
    assert response.status_code == 200 and response.headers["content-type"] == "application/json"
    doc = CalculationResponse.model_validate_json(response.content)
    # D. 251-7 (2020), 1°: 27 % × 32 000 € = 8 640 €, capped at 7 000 € for a natural person.
    assert (doc.results[0].version_id, doc.results[0].amount, doc.total_amount) == (
        REFERENCE,
        "7000.00",
        "7000.00",
    )


def test_calculate_under_the_successor_applies_its_cap(client: TestClient) -> None:
    doc = post(client, "/v1/calculate", REQUESTS["electric_car_2021_successor"]).json()
    # Fixture successor, 1°: 27 % × 32 000 € = 8 640 €, capped at 6 000 €.
    assert (doc["results"][0]["version_id"], doc["results"][0]["amount"]) == (SUCCESSOR, "6000.00")


def test_resolve_names_the_version_and_the_clauses_examined(client: TestClient) -> None:
    response = post(client, "/v1/resolve", REQUESTS["transitional_clause_open"])
    doc = ResolveResponse.model_validate_json(response.content)
    result = doc.results[0]
    assert result.version_id == SUCCESSOR
    assert {c.id: c.open for c in result.transitional_clauses}["orders-before-2021-01-21"] is True
    assert result.versions_to_compute == [SUCCESSOR, REFERENCE]


@pytest.mark.parametrize("name", sorted(REQUESTS))
@pytest.mark.parametrize("command", ["calculate", "resolve"])
def test_the_api_answers_byte_for_byte_what_the_cli_prints(
    client: TestClient, fixture_tree: Path, tmp_path: Path, command: str, name: str
) -> None:
    request = tmp_path / "request.json"
    request.write_text(json.dumps(REQUESTS[name], ensure_ascii=False), encoding="utf-8")
    printed = CliRunner().invoke(cli, [command, str(request), "--versions-dir", str(fixture_tree)])
    answered = client.post(f"/v1/{command}", content=request.read_bytes(), headers=JSON)
    assert printed.exit_code in (0, 2), printed.output
    assert answered.status_code == (200 if printed.exit_code == 0 else 422)
    # the problem of a refused request goes to the CLI's standard error: the same bytes as the API's body
    assert answered.content == (printed.stdout_bytes if printed.exit_code == 0 else printed.stderr_bytes)


def test_the_api_answers_like_the_cli_on_the_repository_catalogue(tmp_path: Path) -> None:
    engine = sqlite_engine()
    with Session(engine) as session:
        load_tree(session)
        session.commit()
        app = create_app()
        app.dependency_overrides[get_session] = lambda: session
        client = TestClient(app)
        for name in ("electric_car_2020", "lease", "both_schemes_missing_facts", "no_version_on_file"):
            request = tmp_path / f"{name}.json"
            request.write_text(json.dumps(REQUESTS[name]), encoding="utf-8")
            for command in ("calculate", "resolve"):
                printed = CliRunner().invoke(cli, [command, str(request)])
                assert (
                    client.post(f"/v1/{command}", content=request.read_bytes(), headers=JSON).content
                    == printed.stdout_bytes
                )
    engine.dispose()


def test_an_invalid_request_is_422_naming_each_field_by_its_path(client: TestClient) -> None:
    response = post(
        client, "/v1/calculate", ELECTRIC_CAR | {"vehicle": {"acquisition_cost": "12.345", "colour": "red"}}
    )
    assert response.status_code == 422 and response.headers["content-type"] == "application/problem+json"
    fields = sorted(e["field"] for e in response.json()["errors"])
    assert fields == ["vehicle.acquisition_cost", "vehicle.colour"]


def test_dates_in_the_wrong_order_are_422_naming_the_date(client: TestClient) -> None:
    doc = post(client, "/v1/resolve", REQUESTS["invalid_dates_order"]).json()
    assert (doc["status"], doc["title"]) == (422, "Invalid dates")
    assert doc["errors"][0]["field"] in ("invoice_date", "order_date")


@pytest.mark.parametrize(
    "body",
    [
        b"",
        b"{",
        b"null",
        b"[]",
        b'"text"',
        b"\xff\xfe",
        b'{"acquisition": "purchase"}' * 2,
        b'{"acquisition": "purchase", "invoice_date": "2020-07-15", "vehicle": {"co2_g_per_km": 1e400}}',
        '{"acquisition": "purchase", "invoice_date": "2020-07-15", '
        '"buyer": {"person_kind": "personne morale ☃"}}'.encode(),
    ],
)
def test_a_malformed_body_is_422(client: TestClient, body: bytes) -> None:
    response = client.post("/v1/calculate", content=body, headers=JSON)
    assert response.status_code == 422, response.text
    assert response.json()["errors"]


@pytest.mark.parametrize(
    "content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data", ""]
)
def test_a_body_not_sent_as_json_is_415(client: TestClient, content_type: str) -> None:
    headers = {"content-type": content_type} if content_type else {}
    response = client.post("/v1/calculate", content=json.dumps(ELECTRIC_CAR).encode(), headers=headers)
    assert response.status_code == 415 and response.headers["content-type"] == "application/problem+json"


def test_json_with_a_charset_or_a_json_suffix_is_accepted(client: TestClient) -> None:
    for content_type in (
        "application/json; charset=utf-8",
        "application/merge-patch+json",
        "Application/JSON",
    ):
        response = client.post(
            "/v1/calculate", content=json.dumps(ELECTRIC_CAR).encode(), headers={"content-type": content_type}
        )
        assert response.status_code == 200, content_type


def test_a_body_larger_than_the_limit_is_413(client: TestClient) -> None:
    response = client.post("/v1/resolve", content=b" " * (MAX_BODY_BYTES + 1), headers=JSON)
    assert response.status_code == 413 and response.json()["title"] == "Content Too Large"


def test_a_streamed_body_larger_than_the_limit_is_413(client: TestClient) -> None:
    def chunks():  # noqa: ANN202 - a generator of bytes, sent without Content-Length
        for _ in range(MAX_BODY_BYTES // 65536 + 2):
            yield b" " * 65536

    response = client.post("/v1/resolve", content=chunks(), headers=JSON)
    assert response.status_code == 413
