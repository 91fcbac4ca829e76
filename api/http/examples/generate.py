"""Generate the OpenAPI examples from live answers: ``python -m api.http.examples.generate``.

The app runs (TestClient) on an in-memory SQLite database loaded from ``versions/``, with a frozen clock,
on the fixed list of requests below; every answer is written as ``api/http/examples/<name>.json``. The
OpenAPI document loads those files (:func:`load`), and ``tests/api/http/test_examples.py`` regenerates them
in memory and fails when a committed file differs: regenerate after a change of the contract or of
``versions/``.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from unittest import mock

from fastapi.testclient import TestClient
from freezegun import freeze_time
from sqlalchemy.engine import Engine
from sqlmodel import Session

from api.catalogue.db import create_tables, make_engine
from api.catalogue.loader import DEFAULT_VERSIONS_DIR
from api.catalogue.store import CACHE, load_into
from api.http.app import create_app
from api.http.auth import ADMIN_TOKEN_ENV
from api.http.deps import get_session
from api.output import dumps

HERE = Path(__file__).resolve().parent
REQUEST_FILE = DEFAULT_VERSIONS_DIR.parent / "examples" / "request.json"
LOADED_AT = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)  # the catalogue's load instant (knowledge time)
NOW = "2024-06-03T10:00:00+00:00"  # the frozen clock of every request
TOKEN = "example-admin-token"
INVALID = b'{"acquisition": "purchase", "invoice_date": "2020-07-15", "vehicle": {"acquisition_cost": "1.234"}}'
RECEIPT_ID = "0f3c9a2e5b7d41c8a6e2d9b4c1f08e37"
COMMITS = {"code_commit": "3b1f2c4d5e6f708192a3b4c5d6e7f8091a2b3c4d", "catalogue_commit": "9e8d7c6b5a4f3e2d1c0b"}
CORRECTED = "D251-7.2020-06-01"  # the version a correction example edits
DIFF = ("D251-7.2017-01-01", "D251-7.2017-02-19")

SUMMARIES: dict[str, str] = {
    "electric_car_2020": "An electric car bought by a natural person in July 2020 (examples/request.json)",
    "lease_plug_in_hybrid_2020": "A plug-in hybrid leased for 3 years by a company, first rent in September 2020",
    "conversion_premium_2021": "A used petrol car bought in August 2021 with an old diesel scrapped (both schemes)",
    "more_favourable_2021": "A new electric car ordered 2021-06-30, invoiced 2021-09-15: a « more favourable » "
    "clause keeps a version not on file, the amount is a lower bound",
    "missing_facts": "Too few facts: the answer names the fields the text needs, the amounts are null",
    "no_version_on_file": "An invoice in 2018, a declared gap: no version on file, the amounts are null",
    "electric_bicycle_2017": "A pedal-assisted cycle in 2017: not covered by the text on file (amount null)",
}


def requests() -> dict[str, dict[str, Any]]:
    """The fixed requests the examples are computed from."""
    car = {"category": "passenger_car", "energy": "electric", "co2_g_per_km": 0, "acquisition_cost": "30000.00"}
    values: dict[str, dict[str, Any]] = {
        "electric_car_2020": json.loads(REQUEST_FILE.read_text(encoding="utf-8")),
        "lease_plug_in_hybrid_2020": {
            "acquisition": "lease",
            "order_date": "2020-08-01",
            "first_rent_date": "2020-09-01",
            "lease_duration_months": 36,
            "vehicle": {
                "category": "passenger_car",
                "energy": "petrol_electric_hybrid",
                "co2_g_per_km": 35,
                "acquisition_cost": "45000.00",
                "city_electric_range_km": "60",
            },
            "buyer": {"person_kind": "legal_person"},
            "schemes": ["bonus"],
        },
        "conversion_premium_2021": {
            "acquisition": "purchase",
            "invoice_date": "2021-08-20",
            "vehicle": {
                "category": "passenger_car",
                "energy": "petrol",
                "co2_g_per_km": 120,
                "acquisition_cost": "15000.00",
                "critair": "1",
                "new_registration_system": True,
                "previously_registered": True,
                "first_registration_date": "2019-03-01",
            },
            "buyer": {"person_kind": "natural_person", "reference_income_per_share": "12000.00"},
            "scrapped_vehicle": _scrapped("2021-08-25"),
        },
        "more_favourable_2021": {
            "acquisition": "purchase",
            "order_date": "2021-06-30",
            "invoice_date": "2021-09-15",
            "vehicle": car
            | {
                "city_electric_range_km": "300",
                "critair": "electric",
                "previously_registered": False,
                "new_registration_system": True,
                "wheelchair_accessible": False,
            },
            "buyer": {
                "person_kind": "natural_person",
                "reference_income_per_share": "20000",
                "home_work_distance_km": "10",
                "professional_km_per_year": "0",
            },
            "scrapped_vehicle": _scrapped("2021-09-15"),
            "schemes": ["conversion_premium"],
        },
        "missing_facts": {
            "acquisition": "purchase",
            "invoice_date": "2020-07-15",
            "vehicle": {"category": "passenger_car"},
        },
        "no_version_on_file": {
            "acquisition": "purchase",
            "invoice_date": "2018-06-01",
            "vehicle": car,
            "buyer": {"person_kind": "natural_person"},
        },
        "electric_bicycle_2017": {
            "acquisition": "purchase",
            "invoice_date": "2017-06-15",
            "vehicle": {
                "category": "electric_bicycle",
                "energy": "electric",
                "uses_lead_battery": False,
                "acquisition_cost": "1500.00",
            },
            "buyer": {"person_kind": "natural_person"},
            "schemes": ["bonus"],
        },
    }
    return {name: {"summary": SUMMARIES[name], "value": value} for name, value in values.items()}


def _scrapped(destruction_date: str) -> dict[str, Any]:
    return {
        "energy": "diesel",
        "category": "passenger_car",
        "first_registration_date": "2005-03-01",
        "owned_since": "2015-01-01",
        "destruction_date": destruction_date,
    }


def correction() -> dict[str, Any]:
    """A correction as ``POST /v1/admin/versions`` takes it: the folder's files, a source note completed."""
    folder = DEFAULT_VERSIONS_DIR / CORRECTED
    meta = (folder / "version.toml").read_text(encoding="utf-8")
    return {
        "version_toml": meta.replace("JORF issue number not seen.", "JORF issue number not seen (checked again)."),
        "text": (folder / "text.txt").read_text(encoding="utf-8"),
        "reason": "source note completed",
    }


def generate() -> dict[str, Any]:
    """Every example, by file name (without ``.json``), from live answers."""
    examples: dict[str, Any] = {"requests": requests(), "admin_version_in": correction()}
    with _client() as client:
        examples |= _catalogue(client)
        examples |= _purchase(client, examples["requests"])
        examples |= _audit(client, examples["requests"]["electric_car_2020"]["value"], examples["admin_version_in"])
        examples |= _problems(client)
    examples["problem_503"] = _unavailable()
    return _relative(examples)


def _relative(node: Any) -> Any:
    """The documents with the load's origin named relative to the repository (« versions »), not this machine."""
    if isinstance(node, dict):
        return {k: _relative(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_relative(v) for v in node]
    if isinstance(node, str) and str(DEFAULT_VERSIONS_DIR) in node:
        return node.replace(str(DEFAULT_VERSIONS_DIR), DEFAULT_VERSIONS_DIR.name)
    return node


def _catalogue(client: TestClient) -> dict[str, Any]:
    return {
        "schemes": _get(client, "/v1/schemes"),
        "timeline": _get(client, "/v1/schemes/bonus/versions"),
        "in_force": _get(client, "/v1/schemes/bonus/in-force?on=2020-07-15"),
        "version": _get(client, f"/v1/versions/{CORRECTED}"),
        "diff": _get(client, f"/v1/versions/{DIFF[0]}/diff/{DIFF[1]}"),
        "health": _get(client, "/healthz"),
        "ready": _get(client, "/readyz"),
        "problem_no_version": _get(client, "/v1/schemes/bonus/in-force?on=2018-06-01", 404),
        "problem_404": _get(client, "/v1/versions/D251-7.1999-01-01", 404),
    }


def _purchase(client: TestClient, examples: dict[str, dict[str, Any]]) -> dict[str, Any]:
    out = {f"calculate.{name}": _post(client, "/v1/calculate", example["value"]) for name, example in examples.items()}
    out["resolve"] = _post(client, "/v1/resolve", examples["more_favourable_2021"]["value"])
    return out


def _audit(client: TestClient, request: dict[str, Any], admin: dict[str, Any]) -> dict[str, Any]:
    created = client.post("/v1/calculate?receipt=true", json=request)
    assert created.status_code == 201, created.text
    receipt_id = created.headers["X-Vigueur-Receipt"]
    headers = {"Authorization": f"Bearer {TOKEN}"}
    return {
        "receipt": _get(client, f"/v1/receipts/{receipt_id}"),
        "replay": _post(client, f"/v1/receipts/{receipt_id}/replay", None),
        "correction": _post(client, "/v1/admin/versions", admin, headers=headers),
        "revisions": _get(client, f"/v1/versions/{CORRECTED}/revisions"),
        "problem_401": _post(client, "/v1/admin/versions", admin, 401, headers={"Authorization": "Bearer wrong"}),
    }


def _problems(client: TestClient) -> dict[str, Any]:
    post = client.post
    json_type = {"content-type": "application/json"}
    with mock.patch.dict("os.environ", {ADMIN_TOKEN_ENV: ""}):
        writes_off = post("/v1/admin/versions", json=correction())
    return {
        "problem_422": _answer(post("/v1/calculate", content=INVALID, headers=json_type), 422),
        "problem_413": _answer(post("/v1/calculate", content=b" " * 1_100_000, headers=json_type), 413),
        "problem_415": _answer(
            post("/v1/calculate", content=b"acquisition=purchase", headers={"content-type": "text/plain"}), 415
        ),
        "problem_500": _quietly(lambda: _answer(client.get("/_examples/bug"), 500)),
        "problem_writes_off": _answer(writes_off, 404),
    }


def _unavailable() -> Any:
    engine = make_engine("sqlite:////nonexistent-directory/vigueur.sqlite3")
    app = create_app()

    def session() -> Iterator[Session]:
        with Session(engine) as s:
            yield s

    app.dependency_overrides[get_session] = session
    with freeze_time(NOW):
        return _quietly(lambda: _answer(TestClient(app).get("/v1/schemes"), 503))


def _quietly(answer: Callable[[], Any]) -> Any:
    """An answer whose expected log (the traceback of a bug, an unavailable database) is not printed."""
    logging.disable(logging.CRITICAL)
    try:
        return answer()
    finally:
        logging.disable(logging.NOTSET)


@contextmanager
def _client() -> Iterator[TestClient]:
    CACHE.clear()
    engine = make_engine("sqlite://")
    create_tables(engine)
    load_into(engine, DEFAULT_VERSIONS_DIR, now=LOADED_AT)
    app = create_app()

    def bug() -> None:
        raise RuntimeError("an example of a bug")

    app.add_api_route("/_examples/bug", bug, include_in_schema=False)
    app.dependency_overrides[get_session] = _sessions(engine)
    patches = [mock.patch(f"api.audit.receipts.{name}", return_value=value) for name, value in COMMITS.items()]
    patches += [mock.patch("api.audit.receipts.uuid.uuid4", return_value=mock.Mock(hex=RECEIPT_ID))]
    try:
        with freeze_time(NOW), mock.patch.dict("os.environ", {ADMIN_TOKEN_ENV: TOKEN}):
            for patch in patches:
                patch.start()
            yield TestClient(app, raise_server_exceptions=False)
    finally:
        for patch in patches:
            patch.stop()
        engine.dispose()
        CACHE.clear()


def _sessions(engine: Engine) -> Any:
    def session() -> Iterator[Session]:
        with Session(engine) as s:
            yield s

    return session


def _get(client: TestClient, path: str, status: int = 200) -> Any:
    return _answer(client.get(path), status)


def _post(client: TestClient, path: str, body: Any, status: int = 200, headers: dict[str, str] | None = None) -> Any:
    response = client.post(path, json=body, headers=headers) if body is not None else client.post(path)
    return _answer(response, status if path != "/v1/admin/versions" or status != 200 else 201)


def _answer(response: Any, status: int) -> Any:
    assert response.status_code == status, (response.request.url, response.status_code, response.text)
    return response.json()


def load(name: str) -> Any:
    """A committed example, by name."""
    return json.loads((HERE / f"{name}.json").read_text(encoding="utf-8"))


def render(document: Any) -> str:
    """The bytes of an example file."""
    return dumps(document)


def write() -> list[Path]:
    written = []
    for name, document in generate().items():
        path = HERE / f"{name}.json"
        path.write_text(render(document), encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    for path in write():
        print(path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path)
