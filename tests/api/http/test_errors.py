"""Errors: 503 when the database is away or empty, problem documents for routing errors, 500 only for bugs,
and no input a client can send makes the API answer 500 (fuzzed)."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlmodel import Session

from api.http.app import create_app
from api.http.deps import get_known, get_session
from api.settings import Settings
from tests.api.support import REFERENCE, sqlite_engine

UNREACHABLE = {
    "sqlite": "sqlite:////nonexistent-directory/vigueur.db",
    "postgresql": "postgresql+psycopg://nobody@127.0.0.1:1/vigueur",  # nothing listens on port 1
}
CATALOGUE_GETS = [
    "/v1/schemes",
    "/v1/schemes/bonus/versions",
    "/v1/schemes/bonus/in-force?on=2020-07-15",
    f"/v1/versions/{REFERENCE}",
    f"/v1/versions/{REFERENCE}/diff/{REFERENCE}",
    "/readyz",
]


@pytest.mark.parametrize("backend", sorted(UNREACHABLE))
def test_an_unreachable_database_is_503_and_the_process_stays_up(backend: str, fixture_tree: Path) -> None:
    app = create_app(Settings(database_url=UNREACHABLE[backend], versions_dir=fixture_tree))
    with TestClient(app) as client:  # the lifespan runs: the failed start-up load does not stop the app
        assert client.get("/healthz").json() == {"status": "ok"}
        for path in CATALOGUE_GETS:
            response = client.get(path)
            assert response.status_code == 503, path
            assert response.headers["content-type"] == "application/problem+json"
            assert response.json()["title"] == "Database unavailable"
            assert "retry" in response.json()["detail"]
        response = client.post(
            "/v1/calculate",
            content=b'{"acquisition": "purchase"}',
            headers={"content-type": "application/json"},
        )
        assert response.status_code == 503


def test_an_empty_database_is_503_catalogue_not_loaded() -> None:
    engine = sqlite_engine()
    with Session(engine) as session:
        app = create_app()
        app.dependency_overrides[get_session] = lambda: session
        response = TestClient(app).get("/readyz")
    engine.dispose()
    assert response.status_code == 503
    assert response.json()["type"] == "urn:vigueur:problem:catalogue-not-loaded"
    assert "vigueur load" in response.json()["detail"]


def test_readyz_says_which_database_and_which_catalogue(client: TestClient) -> None:
    doc = client.get("/readyz").json()
    assert (doc["status"], doc["database"], doc["catalogue"]["versions"]) == ("ready", "sqlite", 3)
    assert doc["catalogue"]["tree_hash"].startswith("sha256:")


def test_the_app_fills_an_empty_database_file_on_first_start(tmp_path: Path, fixture_tree: Path) -> None:
    url = f"sqlite:///{tmp_path / 'vigueur.db'}"
    with TestClient(create_app(Settings(database_url=url, versions_dir=fixture_tree))) as client:
        assert client.get("/readyz").json()["catalogue"]["versions"] == 3
    assert (tmp_path / "vigueur.db").is_file()


def test_an_unknown_route_and_a_wrong_method_are_problem_documents(client: TestClient) -> None:
    for response, status in (
        (client.get("/v2/schemes"), 404),
        (client.delete("/v1/schemes"), 405),
        (client.get("/v1/calculate"), 405),
    ):
        assert response.status_code == status
        assert response.headers["content-type"] == "application/problem+json"
        assert response.json()["status"] == status


def test_a_bug_is_a_500_problem_and_is_logged(session: Session, caplog: pytest.LogCaptureFixture) -> None:
    app = create_app()
    app.dependency_overrides[get_session] = lambda: session

    def broken() -> None:
        raise ZeroDivisionError("secret-internal-detail")

    app.dependency_overrides[get_known] = broken
    response = TestClient(app, raise_server_exceptions=False).get("/v1/schemes")
    assert response.status_code == 500
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["type"] == "urn:vigueur:problem:bug"
    assert "secret-internal-detail" not in response.text  # the details are logged, not sent
    assert any("unhandled error on GET /v1/schemes" in r.getMessage() for r in caplog.records)


# -- fuzzing: nothing a client sends is a 500 ------------------------------------------------------

segments = st.text(min_size=0, max_size=40)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=20,
)
request_like = st.fixed_dictionaries(
    {},
    optional={
        "acquisition": st.sampled_from(["purchase", "lease", "achat"]) | json_values,
        "order_date": st.dates().map(str) | json_values,
        "invoice_date": st.dates().map(str) | json_values,
        "first_rent_date": st.dates().map(str) | json_values,
        "lease_duration_months": st.integers() | json_values,
        "schemes": st.lists(st.sampled_from(["bonus", "conversion_premium", "x"])) | json_values,
        "vehicle": st.fixed_dictionaries(
            {},
            optional={
                "category": st.sampled_from(
                    ["passenger_car", "van", "two_three_wheeler", "electric_bicycle", "light_m2_n2"]
                ),
                "energy": st.sampled_from(
                    ["electric", "hydrogen", "petrol_electric_hybrid", "petrol", "diesel"]
                ),
                "co2_g_per_km": st.integers(-5, 2000) | json_values,
                "acquisition_cost": st.decimals(allow_nan=False, allow_infinity=False).map(str) | json_values,
                "battery_energy_kwh": st.decimals(allow_nan=False, allow_infinity=False).map(str),
                "net_max_power_kw": st.decimals(allow_nan=False, allow_infinity=False).map(str),
                "power_basis": st.sampled_from(["regulation_eu_168_2013", "directive_2002_24_ec"]),
                "uses_lead_battery": st.booleans(),
                "city_electric_range_km": st.integers(-1, 10**20),
            },
        ),
        "buyer": st.fixed_dictionaries(
            {},
            optional={
                "person_kind": st.sampled_from(["natural_person", "legal_person", "state_administration"])
                | json_values
            },
        ),
    },
)
FUZZ = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _no_500(response) -> None:  # noqa: ANN001 - an httpx response
    assert response.status_code < 500, (response.request.url, response.text)
    if response.status_code >= 400:
        assert response.headers["content-type"] == "application/problem+json"
        json.loads(response.content)


@FUZZ
@given(a=segments, b=segments, scheme=segments, on=segments)
def test_fuzzed_path_and_query_parameters_never_give_500(
    client: TestClient, a: str, b: str, scheme: str, on: str
) -> None:
    for path in (
        f"/v1/versions/{quote(a, safe='')}",
        f"/v1/versions/{quote(a, safe='')}/diff/{quote(b, safe='')}",
        f"/v1/schemes/{quote(scheme, safe='')}/versions",
        f"/v1/schemes/{quote(scheme, safe='')}/in-force",
    ):
        _no_500(client.get(path))
    _no_500(client.get("/v1/schemes/bonus/in-force", params={"on": on}))


@FUZZ
@given(
    body=st.binary(max_size=300) | json_values.map(lambda v: json.dumps(v).encode()),
    content_type=st.sampled_from(["application/json", "text/plain", "application/problem+json", ""])
    | st.text(max_size=30),
)
def test_fuzzed_bodies_never_give_500(client: TestClient, body: bytes, content_type: str) -> None:
    headers = {
        "content-type": content_type.encode("ascii", "ignore").decode().replace("\n", "").replace("\r", "")
    }
    for path in ("/v1/resolve", "/v1/calculate"):
        _no_500(client.post(path, content=body, headers=headers))


@FUZZ
@given(request=request_like)
def test_fuzzed_requests_never_give_500(client: TestClient, request: dict) -> None:  # type: ignore[type-arg]
    body = json.dumps(request, default=str).encode()
    for path in ("/v1/resolve", "/v1/calculate"):
        _no_500(client.post(path, content=body, headers={"content-type": "application/json"}))


def test_an_invalid_tree_at_start_up_leaves_the_app_up_answering_503(tmp_path: Path) -> None:
    broken = tmp_path / "versions"
    broken.mkdir()
    (broken / "catalogue.toml").write_text("gaps = 3\n", encoding="utf-8")
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'v.db'}", versions_dir=broken))
    with TestClient(app) as client:
        assert client.get("/healthz").status_code == 200
        response = client.get("/readyz")
        assert response.status_code == 503
        assert response.json()["type"] == "urn:vigueur:problem:catalogue-not-loaded"
