"""HTTP conventions (issue 10): CORS configurable and off by default, info.version is the package's, every tag
an operation uses is declared."""

from __future__ import annotations

from collections.abc import Iterator
from importlib import metadata

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session

from api.http.app import create_app
from api.http.deps import get_session
from api.settings import Settings

ORIGIN = "https://dealer.example"


@pytest.fixture
def cors_client(session: Session) -> Iterator[TestClient]:
    app = create_app(Settings(database_url="sqlite://", cors_origins=(ORIGIN,)))
    app.dependency_overrides[get_session] = lambda: session
    yield TestClient(app)


def test_cors_is_off_by_default(client: TestClient) -> None:
    answer = client.get("/v1/schemes", headers={"Origin": ORIGIN})
    assert answer.status_code == 200
    assert not [h for h in answer.headers if h.lower().startswith("access-control-")]
    preflight = client.options(
        "/v1/calculate", headers={"Origin": ORIGIN, "Access-Control-Request-Method": "POST"}
    )
    assert "access-control-allow-origin" not in preflight.headers


def test_cors_allows_the_configured_origins_only(cors_client: TestClient) -> None:
    answer = cors_client.get("/v1/schemes", headers={"Origin": ORIGIN})
    assert answer.headers["access-control-allow-origin"] == ORIGIN
    assert "X-Vigueur-Known-At" in answer.headers["access-control-expose-headers"]
    other = cors_client.get("/v1/schemes", headers={"Origin": "https://elsewhere.example"})
    assert "access-control-allow-origin" not in other.headers
    preflight = cors_client.options(
        "/v1/calculate",
        headers={
            "Origin": ORIGIN,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type",
        },
    )
    assert preflight.status_code == 200 and preflight.headers["access-control-allow-origin"] == ORIGIN


def test_cors_origins_come_from_the_environment(session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VIGUEUR_CORS_ORIGINS", ORIGIN)
    app = create_app()
    app.dependency_overrides[get_session] = lambda: session
    answer = TestClient(app).get("/v1/schemes", headers={"Origin": ORIGIN})
    assert answer.headers["access-control-allow-origin"] == ORIGIN


def test_info_version_is_the_package_version() -> None:
    assert create_app().openapi()["info"]["version"] == metadata.version("vigueur")


def test_every_tag_used_is_declared() -> None:
    document = create_app().openapi()
    declared = {t["name"] for t in document["tags"]}
    used = {tag for path in document["paths"].values() for op in path.values() for tag in op.get("tags", [])}
    assert "cases" in declared and used <= declared
