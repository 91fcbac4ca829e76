"""POST /v1/timeline and `vigueur timeline`: the README's 2015 hybrid across invoice dates."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session

from api.catalogue.store import load_tree
from api.http.app import create_app
from api.http.deps import get_session
from api.purchase.timeline_models import TimelineResponse
from tests.api.support import DEFAULT_VERSIONS_DIR, sqlite_engine

ROOT = Path(__file__).resolve().parents[3]
HYBRID = (ROOT / "examples" / "timeline-2015-hybrid.json").read_text(encoding="utf-8")
KEEP = "Invoice on or before 2015-03-31 to keep 2 475 € (décret n° 2014-1672, art. 3, 1° a), 2e alinéa)"


@pytest.fixture(name="client")
def full_catalogue_client() -> Iterator[TestClient]:
    """The SQLModel-docs pair on the whole catalogue of versions/ (the 2015 texts are not in the fixture tree)."""
    engine = sqlite_engine()
    with Session(engine) as session:
        load_tree(session, DEFAULT_VERSIONS_DIR)
        session.commit()
        app = create_app()
        app.dependency_overrides[get_session] = lambda: session
        yield TestClient(app)
        app.dependency_overrides.clear()
    engine.dispose()


def _bonus(doc: dict) -> list[dict]:  # type: ignore[type-arg]
    return next(s["segments"] for s in doc["schemes"] if s["scheme"] == "bonus")


def test_timeline_of_the_2015_hybrid_gives_the_segments_and_the_advice(client: TestClient) -> None:
    response = client.post(
        "/v1/timeline?from=2014-12-20&until=2016-01-01", content=HYBRID, headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 200, response.text
    doc = response.json()
    TimelineResponse.model_validate(doc)
    segments = {(s["from"], s["last_day"]): s for s in _bonus(doc)}
    kept = segments[("2015-01-01", "2015-03-31")]
    assert kept["amount"] == "2475.00" and "decret-2014-1672-art3-1a-transitoire" in kept["open_clauses"]
    assert segments[("2015-04-01", "2015-12-31")]["amount"] == "1500.00"
    sentences = [a["en"] for a in doc["advice"]]
    assert KEEP in sentences
    assert "From 2015-04-01: 1 500 € (décret n° 2014-1672, art. 3, 1° a))" in sentences
    assert any(a["fr"].startswith("Facturer au plus tard le 2015-03-31 pour conserver 2 475 €") for a in doc["advice"])


def test_a_late_order_is_told_what_an_earlier_order_would_keep(client: TestClient) -> None:
    late = json.loads(HYBRID) | {"order_date": "2015-01-05"}
    doc = client.post("/v1/timeline?until=2016-01-01", json=late).json()
    assert all(s["amount"] != "2475.00" for s in _bonus(doc))
    assert any(
        a["kind"] == "order_before"
        and a["en"].startswith("An order placed before 2015-01-01 would keep 2 475 € until 2015-03-31")
        for a in doc["advice"]
    )
    plain = client.post("/v1/timeline?until=2016-01-01&what_if_order=false", json=late).json()
    assert all(a["kind"] != "order_before" for a in plain["advice"])


def test_timeline_errors_are_problems_naming_the_field(client: TestClient) -> None:
    bad_day = client.post("/v1/timeline?from=2015-13-01", content=HYBRID, headers={"Content-Type": "application/json"})
    assert bad_day.status_code == 422 and bad_day.json()["errors"][0]["field"] == "from"
    assert bad_day.headers["content-type"].startswith("application/problem+json")
    empty = client.post(
        "/v1/timeline?from=2015-05-01&until=2015-04-01", content=HYBRID, headers={"Content-Type": "application/json"}
    )
    assert empty.status_code == 422 and "until" in empty.text
    body = json.loads(HYBRID)
    body["vehicle"]["acquisition_cost"] = "-1"
    wrong = client.post("/v1/timeline", json=body)
    assert wrong.status_code == 422 and wrong.json()["errors"][0]["field"] == "vehicle.acquisition_cost"


def test_the_default_window_starts_at_the_order_date_and_lasts_18_months(client: TestClient) -> None:
    doc = client.post("/v1/timeline", content=HYBRID, headers={"Content-Type": "application/json"}).json()
    assert doc["window"] | {} == doc["window"] and doc["window"]["from"] == "2014-12-20"
    assert doc["window"]["until"] == "2016-06-20" and doc["window"]["default"] is True


def test_the_cli_prints_the_api_body_and_an_explained_text(client: TestClient, tmp_path: Path) -> None:
    api = client.post(
        "/v1/timeline?from=2014-12-20&until=2016-01-01", content=HYBRID, headers={"Content-Type": "application/json"}
    ).text
    run = [
        str(Path(sys.executable).parent / "vigueur"),
        "timeline",
        str(ROOT / "examples" / "timeline-2015-hybrid.json"),
        "--from",
        "2014-12-20",
        "--until",
        "2016-01-01",
    ]
    out = subprocess.run(run, capture_output=True, text=True, check=True).stdout
    assert out == api
    text = subprocess.run([*run, "--explain"], capture_output=True, text=True, check=True).stdout
    assert "2015-01-01 → 2015-03-31" in text and KEEP in text


def test_amounts_written_as_json_numbers_are_refused_naming_the_field(client: TestClient) -> None:
    body = json.loads(HYBRID)
    body["vehicle"]["acquisition_cost"] = 30000
    refused = client.post("/v1/timeline", json=body)
    assert refused.status_code == 422 and refused.json()["errors"][0]["field"] == "vehicle.acquisition_cost"
