"""Receipts are kept for good, so what anyone can write is bounded: the canonical request (not the raw
body), at most 64 KB of it, and — when ``VIGUEUR_RECEIPTS_TOKEN`` is set — only with that token."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session, select

from api.audit.policy import MAX_RECEIPT_REQUEST_BYTES
from api.catalogue.tables import ReceiptRow
from api.http.receipts_token import RECEIPTS_TOKEN_ENV

REQUEST: dict[str, Any] = {
    "acquisition": "purchase",
    "invoice_date": "2020-07-15",
    "schemes": ["bonus"],
    "vehicle": {"category": "passenger_car", "energy": "electric", "co2_g_per_km": 0, "acquisition_cost": "20000.00"},
    "buyer": {"person_kind": "natural_person"},
}
JSON = {"content-type": "application/json"}


def test_a_padded_request_is_kept_canonical_and_small(client: TestClient, session: Session) -> None:
    body = json.dumps(REQUEST, indent=2).replace("\n", "\n" + " " * 1000)
    body += " " * (990_000 - len(body))  # 990 KB of whitespace around a valid request
    answer = client.post("/v1/calculate?receipt=true", content=body, headers=JSON)
    assert answer.status_code == 201, answer.text
    row = session.exec(select(ReceiptRow)).one()
    assert len(row.request) < 400
    assert json.loads(row.request) == REQUEST
    assert " " not in row.request.replace("passenger_car", "")  # no whitespace kept
    shown = client.get(answer.headers["location"]).json()
    assert shown["request"] == REQUEST


def test_an_oversized_canonical_request_is_refused_naming_the_field(client: TestClient, session: Session) -> None:
    big = REQUEST | {"schemes": ["bonus"] * 20_000}  # valid, 180 KB canonical
    answer = client.post("/v1/calculate?receipt=true", content=json.dumps(big), headers=JSON)
    assert answer.status_code == 422, answer.text
    problem = answer.json()
    assert problem["errors"][0]["field"] == "schemes"
    assert str(MAX_RECEIPT_REQUEST_BYTES) in problem["errors"][0]["message"]
    assert session.exec(select(ReceiptRow)).all() == []
    assert client.post("/v1/calculate", content=json.dumps(big), headers=JSON).status_code == 200


def test_with_a_receipts_token_a_receipt_needs_it(
    client: TestClient, session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(RECEIPTS_TOKEN_ENV, "s3cret")
    body = json.dumps(REQUEST)
    refused = client.post("/v1/calculate?receipt=true", content=body, headers=JSON)
    assert refused.status_code == 401 and refused.json()["errors"][0]["field"] == "receipt"
    wrong = client.post("/v1/calculate?receipt=true", content=body, headers=JSON | {"authorization": "Bearer no"})
    assert wrong.status_code == 401
    assert client.post("/v1/calculate", content=body, headers=JSON).status_code == 200  # no receipt: open
    kept = client.post("/v1/calculate?receipt=true", content=body, headers=JSON | {"authorization": "Bearer s3cret"})
    assert kept.status_code == 201
    assert len(session.exec(select(ReceiptRow)).all()) == 1


def test_duplicate_keys_are_refused_naming_the_key(client: TestClient) -> None:
    body = json.dumps(REQUEST)[:-1] + ', "vehicle": {"energy": "electric", "energy": "diesel"}}'
    answer = client.post("/v1/calculate", content=body, headers=JSON)
    assert answer.status_code == 422, answer.text
    assert {e["field"] for e in answer.json()["errors"]} == {"vehicle", "vehicle.energy"}


def test_a_leading_bom_is_accepted_in_a_json_body(client: TestClient) -> None:
    answer = client.post("/v1/calculate", content=b"\xef\xbb\xbf" + json.dumps(REQUEST).encode(), headers=JSON)
    assert answer.status_code == 200, answer.text
