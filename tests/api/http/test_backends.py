"""The API over each database backend (SQLite, and PostgreSQL when TEST_DATABASE_URL is set): same answers."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session

from api.catalogue.store import load_tree
from api.http.app import create_app
from api.http.deps import get_session
from tests.api.support import BACKENDS, REFERENCE, SUCCESSOR, engine_for

REQUEST = {
    "acquisition": "purchase",
    "order_date": "2021-01-10",
    "invoice_date": "2021-03-01",
    "vehicle": {
        "category": "passenger_car",
        "energy": "electric",
        "co2_g_per_km": 0,
        "acquisition_cost": "32000",
    },
    "buyer": {"person_kind": "natural_person"},
    "schemes": ["bonus"],
}


def _returning(session: Session) -> Callable[[], Session]:
    def get_session_override() -> Session:
        return session

    return get_session_override


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_answers_do_not_depend_on_the_database(backend: str, fixture_tree: Path) -> None:
    answers = {}
    for name in ("sqlite", backend):
        with engine_for(name) as engine, Session(engine) as session:
            load_tree(session, fixture_tree)
            session.commit()
            app = create_app()
            app.dependency_overrides[get_session] = _returning(session)
            client = TestClient(app)
            answers[name] = [
                client.get(path).content
                for path in (
                    "/v1/schemes",
                    "/v1/schemes/bonus/versions",
                    "/v1/schemes/bonus/in-force?on=2020-07-15",
                    f"/v1/versions/{SUCCESSOR}",
                    f"/v1/versions/{REFERENCE}/diff/{SUCCESSOR}",
                )
            ] + [
                client.post(
                    p, content=json.dumps(REQUEST), headers={"content-type": "application/json"}
                ).content
                for p in ("/v1/resolve", "/v1/calculate")
            ]
            assert client.get("/readyz").json()["database"] == name
    assert answers[backend] == answers["sqlite"]
