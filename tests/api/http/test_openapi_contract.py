"""The OpenAPI document says what the API does: bounded money strings, a future known_at refused, the
404 « nothing known then » matching its schema, no undocumented 400, duplicate keys refused, a full disk
answered 507 « storage full »."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from sqlmodel import Session

from api.audit import receipts
from api.http.app import create_app
from api.http.deps import get_session
from tests.api.http.test_receipt_policy import JSON, REQUEST


def resolved(document: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with its references inlined (enough for jsonschema to validate an answer)."""
    if isinstance(schema, dict):
        if "$ref" in schema:
            return resolved(document, document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]])
        return {k: resolved(document, v) for k, v in schema.items()}
    if isinstance(schema, list):
        return [resolved(document, v) for v in schema]
    return schema


def test_money_and_quantity_fields_are_bounded_digit_strings(client: TestClient) -> None:
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    cost = schemas["VehicleIn"]["properties"]["acquisition_cost"]
    assert cost["anyOf"] == [{"type": "string", "pattern": r"^[0-9]{1,12}(\.[0-9]{1,2})?$"}, {"type": "null"}]
    power = schemas["VehicleIn"]["properties"]["net_max_power_kw"]
    assert power["anyOf"][0] == {"type": "string", "pattern": r"^[0-9]{1,9}(\.[0-9]{1,3})?$"}
    battery = schemas["VehicleIn"]["properties"]["battery_rental_cost"]
    assert battery["type"] == "string" and battery["default"] == "0"
    for name, schema in schemas.items():
        for field, prop in schema.get("properties", {}).items():
            kinds = [v.get("type") for v in prop.get("anyOf", [])]
            assert not ("number" in kinds and "string" in kinds), f"{name}.{field} is number|string"
    for pattern in (cost["anyOf"][0]["pattern"], power["anyOf"][0]["pattern"]):
        assert not re.fullmatch(pattern, "١٢") and not re.fullmatch(pattern, "-1") and re.fullmatch(pattern, "12.5")


def test_a_future_known_at_is_documented_as_refused_and_is(client: TestClient) -> None:
    document = client.get("/openapi.json").json()
    for path in ("/v1/schemes", "/v1/calculate"):
        operation = next(iter(document["paths"][path].values()))
        known_at = next(p for p in operation["parameters"] if p["name"] == "known_at")
        assert "later than now is refused (422" in known_at["description"]
    answer = client.get("/v1/schemes?known_at=2999-01-01T00:00:00Z")
    assert answer.status_code == 422 and answer.json()["errors"][0]["field"] == "known_at"


def test_the_404_nothing_known_then_matches_its_documented_schema(client: TestClient) -> None:
    jsonschema_rs = pytest.importorskip("jsonschema_rs")  # comes with schemathesis (test extras)
    document = client.get("/openapi.json").json()
    for path, url in (
        ("/v1/schemes/{scheme}/in-force", "/v1/schemes/bonus/in-force?on=2020-07-15"),
        ("/v1/schemes", "/v1/schemes"),
    ):
        answer = client.get(url + ("&" if "?" in url else "?") + "known_at=2000-01-01T00:00:00Z")
        assert answer.status_code == 404, answer.text
        assert answer.json()["type"] == "urn:vigueur:problem:nothing-known-then"
        schema = document["paths"][path]["get"]["responses"]["404"]["content"]["application/problem+json"]["schema"]
        jsonschema_rs.validate(resolved(document, schema), answer.json())


def test_a_body_that_is_not_utf8_on_cases_run_is_a_documented_422(client: TestClient) -> None:
    answer = client.post("/v1/cases/run", content=b'{"ids": ["\xff"]}', headers=JSON)
    assert answer.status_code == 422, answer.text
    assert answer.json()["errors"] == [{"field": "(body)", "message": "the body is not valid JSON (in UTF-8)"}]
    documented = client.get("/openapi.json").json()["paths"]["/v1/cases/run"]["post"]["responses"]
    assert "422" in documented and "400" not in documented


def test_duplicate_keys_are_refused_in_bodies_fastapi_reads(client: TestClient) -> None:
    answer = client.post("/v1/cases/run", content=b'{"ids": ["a"], "ids": ["b"]}', headers=JSON)
    assert answer.status_code == 422, answer.text
    assert answer.json()["errors"] == [{"field": "ids", "message": "given twice in the same object (duplicate key)"}]


def test_duplicate_keys_are_refused_by_the_cli(tmp_path: Any) -> None:
    from typer.testing import CliRunner

    from api.cli.main import app as cli

    path = tmp_path / "request.json"
    path.write_text(json.dumps(REQUEST)[:-1] + ', "acquisition": "lease"}', encoding="utf-8")
    result = CliRunner().invoke(cli, ["calculate", str(path)])
    assert result.exit_code == 2, result.output
    assert '"field": "acquisition"' in result.stderr and "duplicate key" in result.stderr


@pytest.fixture(name="full_disk_client")
def full_disk_client_fixture(session: Session, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    def full(*_: Any, **__: Any) -> Any:
        raise sa.exc.OperationalError("INSERT INTO receipt …", {}, Exception("database or disk is full"))

    monkeypatch.setattr(receipts, "canonical_request", full)
    app = create_app()
    app.dependency_overrides[get_session] = lambda: session
    yield TestClient(app, raise_server_exceptions=False)


def test_a_full_disk_is_a_507_storage_full(full_disk_client: TestClient) -> None:
    answer = full_disk_client.post("/v1/calculate?receipt=true", content=json.dumps(REQUEST), headers=JSON)
    assert answer.status_code == 507, answer.text
    assert answer.json()["type"] == "urn:vigueur:problem:storage-full"
    assert "does not answer" not in answer.text
    documented = full_disk_client.get("/openapi.json").json()["paths"]["/v1/calculate"]["post"]["responses"]
    assert "507" in documented
