"""Writes through the API: protected by a bearer token, off without one; a correction supersedes, never
overwrites; no endpoint and no method can change or delete history (catalogue rows and receipts)."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from freezegun import freeze_time
from sqlalchemy.engine import Engine

from api.catalogue.store import CACHE, load_into
from api.http.auth import ADMIN_TOKEN_ENV, require_admin
from tests.api.http.test_knowledge_time import REQUEST, client_of, post, with_known_at
from tests.api.support import BACKENDS, REFERENCE, SUCCESSOR, engine_for, snapshot

TOKEN = "correct-horse-battery-staple-42"
T0 = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
CORRECTED_AT = "2024-05-01T08:00:00+00:00"
CLOSING = ("superseded_at", "superseded_by_load_id")


@pytest.fixture(params=BACKENDS)
def engine(request: pytest.FixtureRequest, fixture_tree: Path) -> Iterator[Engine]:
    CACHE.clear()
    with engine_for(request.param) as engine:
        load_into(engine, fixture_tree, now=T0)
        yield engine
    CACHE.clear()


@pytest.fixture
def client(engine: Engine) -> TestClient:
    return client_of(engine)


@pytest.fixture
def token(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv(ADMIN_TOKEN_ENV, TOKEN)
    return TOKEN


def correction(fixture_tree: Path) -> dict[str, Any]:
    """The successor's folder as the admin endpoint takes it, its cap « 6 000 euros » corrected to 6 300."""
    meta = (fixture_tree / SUCCESSOR / "version.toml").read_text(encoding="utf-8")
    text = (fixture_tree / SUCCESSOR / "text.txt").read_bytes().decode("utf-8")
    meta = meta.replace("6 000 euros", "6 300 euros").replace('value = "6000"', 'value = "6300"')
    return {
        "version_toml": meta,
        "text": text.replace("6 000 euros", "6 300 euros"),
        "reason": "typo in the cap (JORF erratum)",
    }


def admin_post(client: TestClient, body: Any, token: str | None = TOKEN, scheme: str = "Bearer") -> Any:
    headers = {"content-type": "application/json"}
    if token is not None:
        headers["authorization"] = f"{scheme} {token}"
    return client.post("/v1/admin/versions", content=json.dumps(body), headers=headers)


def api_routes(routes: Any) -> Iterator[APIRoute]:
    """Every route of the application, those of included routers too."""
    for route in routes:
        if isinstance(route, APIRoute):
            yield route
        elif hasattr(route, "original_router"):  # FastAPI ≥ 0.16x includes routers lazily
            yield from api_routes(route.original_router.routes)
        elif hasattr(route, "routes") and not hasattr(route, "app"):
            yield from api_routes(route.routes)


def admin_routes(client: TestClient) -> list[APIRoute]:
    def needs(dependant: Any) -> bool:
        return any(d.call is require_admin or needs(d) for d in dependant.dependencies)

    return [r for r in api_routes(client.app.routes) if needs(r.dependant)]  # type: ignore[attr-defined]


def _path(route: APIRoute, receipt_id: str) -> str:
    values = {
        "scheme": "bonus",
        "version_id": SUCCESSOR,
        "a": REFERENCE,
        "b": SUCCESSOR,
        "receipt_id": receipt_id,
    }
    path = route.path
    for name in route.param_convertors:
        path = path.replace("{" + name + "}", values.get(name, "x"))
    return path


# -- the token --------------------------------------------------------------------------------------


def test_write_endpoints_are_off_without_a_configured_token(
    client: TestClient, engine: Engine, fixture_tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(ADMIN_TOKEN_ENV, raising=False)
    before = snapshot(engine)
    routes = admin_routes(client)
    assert {"/v1/admin/versions"} <= {r.path for r in routes}
    for route in routes:
        for headers in ({}, {"authorization": f"Bearer {TOKEN}"}, {"authorization": "Bearer "}):
            for method in route.methods:
                answer = client.request(method, _path(route, "0" * 32), content=b"{}", headers=headers)
                assert answer.status_code == 404, (route.path, answer.text)
                assert "VIGUEUR_ADMIN_TOKEN is not configured" in answer.json()["detail"]
    monkeypatch.setenv(ADMIN_TOKEN_ENV, "")  # set but empty: off too
    assert admin_post(client, correction(fixture_tree)).status_code == 404
    assert snapshot(engine) == before


def test_no_token_or_a_wrong_one_is_401_and_writes_nothing(
    client: TestClient, engine: Engine, fixture_tree: Path, token: str
) -> None:
    before = snapshot(engine)
    body = correction(fixture_tree)
    for route in admin_routes(client):
        for headers in (
            {},
            {"authorization": f"Bearer {token}x"},
            {"authorization": f"Bearer {token[:-1]}"},
            {"authorization": "Bearer"},
            {"authorization": f"Basic {token}"},
            {"authorization": token},
        ):
            for method in route.methods:
                answer = client.request(method, _path(route, "0" * 32), content=json.dumps(body), headers=headers)
                assert answer.status_code == 401, (route.path, headers, answer.text)
                assert answer.headers["www-authenticate"].startswith("Bearer")
                assert token not in answer.text
    assert snapshot(engine) == before


def test_the_right_token_records_and_is_never_logged_nor_echoed(
    client: TestClient, engine: Engine, fixture_tree: Path, token: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    with freeze_time(CORRECTED_AT):
        answer = admin_post(client, correction(fixture_tree))
    assert answer.status_code == 201, answer.text
    assert token not in answer.text and token not in caplog.text
    assert all(token not in value for value in answer.headers.values())


# -- a correction supersedes --------------------------------------------------------------------------


def test_a_correction_through_the_api_supersedes_and_known_at_still_gives_the_old(
    client: TestClient, engine: Engine, fixture_tree: Path, token: str
) -> None:
    with freeze_time("2024-04-01T10:00:00Z"):
        receipt_id = post(client, "/v1/calculate?receipt=true").headers["x-vigueur-receipt"]
    before = snapshot(engine)
    with freeze_time(CORRECTED_AT):
        answer = admin_post(client, correction(fixture_tree))
    assert answer.status_code == 201, answer.text
    assert answer.headers["location"] == f"/v1/versions/{SUCCESSOR}/revisions"
    doc = answer.json()
    assert doc["origin"] == "POST /v1/admin/versions: typo in the cap (JORF erratum)"
    assert doc["recorded_at"] == CORRECTED_AT and doc["load_id"] == 2
    (change,) = doc["versions"]
    assert (change["version_id"], change["change"]) == (SUCCESSOR, "superseded")
    assert change["old_hash"] != change["new_hash"]
    after = snapshot(engine)
    _only_appended_and_closed(before, after)
    with freeze_time("2024-06-01T00:00:00Z"):
        # 27 % × 32 000 = 8 640 € > cap: the cap, 6 000 € as known before, 6 300 € after.
        assert post(client, with_known_at("/v1/calculate", "2024-04-30T00:00:00Z")).json()["total_amount"] == "6000.00"
        assert post(client, "/v1/calculate").json()["total_amount"] == "6300.00"
        replay = client.post(f"/v1/receipts/{receipt_id}/replay").json()
        revisions = client.get(f"/v1/versions/{SUCCESSOR}/revisions").json()["revisions"]
    assert replay["same_revisions"]["total_amount"] == "6000.00" and replay["today"]["total_amount"] == "6300.00"
    assert revisions[1]["recorded_by"]["origin"].endswith("(JORF erratum)")


def _only_appended_and_closed(before: dict[str, list[Any]], after: dict[str, list[Any]]) -> None:
    """Every row of ``before`` is in ``after`` unchanged — but for the closing of a knowledge period."""
    from api.catalogue.tables import AUDIT_TABLES

    for model in AUDIT_TABLES:
        table = model.__table__  # type: ignore[attr-defined]
        names = [c.name for c in table.columns]
        keep = [i for i, n in enumerate(names) if n not in CLOSING]
        closing = [i for i, n in enumerate(names) if n in CLOSING]
        found = {repr(tuple(r[i] for i in keep)): r for r in after[table.name]}
        for row in before[table.name]:
            key = repr(tuple(row[i] for i in keep))
            assert key in found, f"a row of {table.name} changed or disappeared: {row}"
            if closing and any(row[i] is not None for i in closing):
                assert [found[key][i] for i in closing] == [row[i] for i in closing]


def test_the_same_content_again_records_nothing(
    client: TestClient, engine: Engine, fixture_tree: Path, token: str
) -> None:
    assert admin_post(client, correction(fixture_tree)).status_code == 201
    before = snapshot(engine)
    again = admin_post(client, correction(fixture_tree))
    assert again.status_code == 200 and again.json()["changed"] is False and again.json()["load_id"] is None
    assert snapshot(engine) == before


@pytest.mark.parametrize(
    ("mutate", "field", "words"),
    [
        # Its valid period would overlap the reference version [2020-06-01, 2021-01-21) of D. 251-7.
        (
            lambda b: (
                b | {"version_toml": b["version_toml"].replace("valid_from = 2021-01-21", "valid_from = 2020-12-01")}
            ),
            "version_toml.valid_from",
            "overlaps",
        ),
        (
            lambda b: b | {"version_toml": "unknown_key = 1\n" + b["version_toml"]},
            "version_toml.unknown_key",
            "unknown key",
        ),
        (lambda b: b | {"version_toml": "id = "}, "version_toml", "not valid TOML"),
        (
            lambda b: b | {"version_toml": b["version_toml"].replace(f'id = "{SUCCESSOR}"', 'id = "../../etc"')},
            "version_toml.id",
            "is not a version id",
        ),
        (
            lambda b: b | {"text": b["text"].replace("6 300 euros", "6 400 euros")},
            "version_toml.parameters.ev_rate.quote",
            "is not in text.txt",
        ),
        (
            lambda b: b | {"version_toml": b["version_toml"].replace('calculator = "', 'calculator = "nope')},
            "version_toml.calculator",
            "no calculator",
        ),
        # Moving its start leaves days between the reference and it: an undeclared gap.
        (
            lambda b: (
                b | {"version_toml": b["version_toml"].replace("valid_from = 2021-01-21", "valid_from = 2021-02-01")}
            ),
            "version_toml",
            "undeclared gap",
        ),
    ],
)
def test_a_correction_breaking_a_rule_of_the_loader_is_refused_and_writes_nothing(
    client: TestClient, engine: Engine, fixture_tree: Path, token: str, mutate: Any, field: str, words: str
) -> None:
    before = snapshot(engine)
    answer = admin_post(client, mutate(correction(fixture_tree)))
    assert answer.status_code == 422, answer.text
    doc = answer.json()
    assert doc["title"] == "Correction refused" and doc["errors"][0]["field"] == field, doc
    assert words in doc["errors"][0]["message"] and "nothing was recorded" in doc["detail"]
    assert snapshot(engine) == before


@pytest.mark.parametrize(
    "body",
    [
        {"version_toml": "x", "text": "y"},  # no reason
        {"version_toml": "x", "text": "y", "reason": "r", "overwrite": True},
        {"version_toml": 1, "text": "y", "reason": "r"},
        [],
    ],
)
def test_a_malformed_correction_body_is_a_422_naming_the_field(
    client: TestClient, engine: Engine, token: str, body: Any
) -> None:
    before = snapshot(engine)
    answer = admin_post(client, body)
    assert answer.status_code == 422 and answer.json()["errors"], answer.text
    assert snapshot(engine) == before


# -- nothing overwrites history ------------------------------------------------------------------------


def test_no_endpoint_and_no_method_changes_or_deletes_history(
    client: TestClient, engine: Engine, fixture_tree: Path, token: str
) -> None:
    """Every route of the application, every method, with the admin token and bodies that try to
    overwrite: the rows on file are all still there, unchanged (new rows — receipts — may be added)."""
    with freeze_time("2024-04-01T10:00:00Z"):
        receipt_id = post(client, "/v1/calculate?receipt=true").headers["x-vigueur-receipt"]
    receipt = client.get(f"/v1/receipts/{receipt_id}").content
    before = snapshot(engine)
    attempt = correction(fixture_tree) | {
        "text": "overwritten",
        "version_hash": "sha256:x",
        "total_amount": "0.00",
    }
    routes = list(api_routes(client.app.routes))  # type: ignore[attr-defined]
    tried = 0
    for route in routes:
        if route in admin_routes(client):
            continue  # recording is what they do: tested above (a correction supersedes, never overwrites)
        path = _path(route, receipt_id)
        for method in ("GET", "POST", "PUT", "PATCH", "DELETE"):
            answer = client.request(
                method,
                path,
                content=json.dumps(attempt if method != "POST" or "calculate" not in path else REQUEST),
                headers={"content-type": "application/json", "authorization": f"Bearer {token}"},
            )
            tried += 1
            if method not in route.methods:
                assert answer.status_code in (404, 405), (method, path, answer.status_code)
            else:
                assert answer.status_code < 500, (method, path, answer.text)
    assert tried >= 5 * 12
    for path in (
        f"/v1/receipts/{receipt_id}",
        f"/v1/versions/{SUCCESSOR}",
        f"/v1/versions/{SUCCESSOR}/revisions",
    ):
        for method in ("PUT", "PATCH", "DELETE"):
            assert client.request(method, path, content=json.dumps(attempt)).status_code == 405
    _only_appended_and_closed(before, snapshot(engine))
    after = snapshot(engine)
    for table in ("catalogue_load", "version_revision", "declared_gap", "legal_text", "source"):
        assert after[table] == before[table], table
    assert client.get(f"/v1/receipts/{receipt_id}").content == receipt


# -- every number proved against its text; the stored case corpus guards a correction (issue 9) ----------


def test_a_correction_whose_value_contradicts_its_quote_is_refused(
    client: TestClient, engine: Engine, fixture_tree: Path, token: str
) -> None:
    body = correction(fixture_tree)
    body["version_toml"] = body["version_toml"].replace('value = "6300"', 'value = "7500"')
    before = snapshot(engine)
    answer = admin_post(client, body)
    assert answer.status_code == 422, answer.text
    doc = answer.json()
    assert doc["errors"][0]["field"] == "version_toml.parameters.ev_cap_natural.value", doc
    assert "ev_cap_natural" in doc["errors"][0]["message"] and "6 300 euros" in doc["errors"][0]["message"]
    assert snapshot(engine) == before


STORED_CASE = f"""
cases:
  - id: cap-2021-natural-person
    title: Electric car, 32 000 €, natural person, 2021-03-01
    source: {{paragraph: "C. énergie, art. D. 251-7, 1°"}}
    request: {json.dumps(REQUEST)}
    expected:
      bonus: {{amount: "6000.00", eligible: true, version_id: {SUCCESSOR}}}
    notes: 27 % × 32 000 = 8 640 > 6 000 → 6 000.
"""


def _store_case(engine: Engine) -> None:
    from sqlmodel import Session

    from api.cases.store import import_cases, parse_case_text

    with Session(engine) as session:
        import_cases(session, parse_case_text(STORED_CASE, "cases.yaml"), "test")
        session.commit()


def test_a_correction_that_moves_a_stored_case_is_refused_unless_accepted(
    client: TestClient, engine: Engine, fixture_tree: Path, token: str
) -> None:
    _store_case(engine)
    before = snapshot(engine)
    answer = admin_post(client, correction(fixture_tree))
    assert answer.status_code == 409, answer.text
    doc = answer.json()
    assert doc["type"] == "urn:vigueur:problem:correction-moves-cases"
    assert doc["moved"] == [
        {
            "id": "cap-2021-natural-person",
            "changes": [{"scheme": "bonus", "field": "amount", "before": "6000.00", "after": "6300.00"}],
        }
    ]
    assert doc["errors"] == [
        {"field": "accept_moves", "message": "case cap-2021-natural-person moves and is not accepted"}
    ]
    assert snapshot(engine) == before
    wrong = admin_post(client, correction(fixture_tree) | {"accept_moves": ["another-case"]})
    assert wrong.status_code == 409 and snapshot(engine) == before
    accepted = admin_post(client, correction(fixture_tree) | {"accept_moves": ["cap-2021-natural-person"]})
    assert accepted.status_code == 201, accepted.text


def test_a_correction_that_moves_no_stored_case_needs_no_acceptance(
    client: TestClient, engine: Engine, fixture_tree: Path, token: str
) -> None:
    _store_case(engine)
    # a metadata-only correction (how sure the period is): no answer moves
    meta = (fixture_tree / SUCCESSOR / "version.toml").read_text(encoding="utf-8")
    body = {
        "version_toml": meta.replace('period_confidence = "confirmed"', 'period_confidence = "likely"', 1),
        "text": (fixture_tree / SUCCESSOR / "text.txt").read_text(encoding="utf-8"),
        "reason": "period reviewed",
    }
    answer = admin_post(client, body)
    assert answer.status_code == 201, answer.text
