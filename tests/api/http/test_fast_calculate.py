"""The fast path of ``POST /v1/calculate`` (api/http/fast.py) answers what the route answers, byte for byte.

One application started with its lifespan (as `vigueur serve` runs it) on a SQLite file holding ``versions/``.
Each request is sent twice: as it comes (the fast path may take it) and with a dependency override that
changes nothing (``get_engine`` returning the same engine), which turns the fast path off, so the route
answers. Status, body and every header but the instant of the request (``X-Vigueur-Known-At``) and ``date``
must be equal, and the application's counter says which path answered.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine

from api.http import examples
from api.http.app import create_app
from api.http.deps import get_engine
from api.settings import MAX_BODY_BYTES, Settings

JSON = {"content-type": "application/json"}
INSTANT = {"x-vigueur-known-at", "date"}
REQUESTS = {
    name: example["value"]  # the OpenAPI examples of the request body: {"summary": ..., "value": request}
    for name, example in json.loads((Path(examples.__file__).parent / "requests.json").read_text("utf-8")).items()
}
GOOD = json.dumps(REQUESTS["electric_car_2020"]).encode()


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    url = f"sqlite:///{tmp_path_factory.mktemp('fast') / 'vigueur.db'}"
    with TestClient(create_app(Settings(database_url=url))) as started:
        yield started


def fast_count(client: TestClient) -> int:
    return int(getattr(client.app.state, "fast_calculations", 0))  # type: ignore[attr-defined]


def both(client: TestClient, body: bytes, headers: dict[str, str] = JSON, path: str = "/v1/calculate") -> Any:
    """The answer as sent (and how many the fast path answered), then the route's answer."""
    before = fast_count(client)
    first = client.post(path, content=body, headers=headers)
    taken = fast_count(client) - before
    app: Any = client.app
    engine: Engine = app.state.engine

    async def same_engine() -> Engine:
        return engine

    app.dependency_overrides[get_engine] = same_engine
    try:
        route = client.post(path, content=body, headers=headers)
    finally:
        app.dependency_overrides.clear()
    assert fast_count(client) - before == taken, "the fast path answered with an override in place"
    return first, taken, route


def same(a: Any, b: Any) -> None:
    assert a.status_code == b.status_code
    assert a.content == b.content
    assert [(k, v) for k, v in a.headers.items() if k not in INSTANT] == [
        (k, v) for k, v in b.headers.items() if k not in INSTANT
    ]
    assert set(a.headers) == set(b.headers)


@pytest.mark.parametrize("name", sorted(REQUESTS))
def test_every_example_request_is_answered_by_the_fast_path_as_by_the_route(client: TestClient, name: str) -> None:
    first, taken, route = both(client, json.dumps(REQUESTS[name]).encode())
    assert first.status_code == 200, first.text
    assert taken == 1
    same(first, route)


def test_the_fast_path_answers_what_the_committed_example_shows(client: TestClient) -> None:
    first, taken, _ = both(client, GOOD)
    assert taken == 1
    assert first.json() == examples.load("calculate.electric_car_2020")


BAD = {
    "duplicate key": b'{"acquisition": "purchase", "acquisition": "lease", "invoice_date": "2020-07-15"}',
    "unknown field": b'{"acquisition": "purchase", "invoice_date": "2020-07-15", "colour": "red"}',
    "invalid date": b'{"acquisition": "purchase", "invoice_date": "2020-02-30"}',
    "no decisive date": b'{"acquisition": "purchase"}',
    "not JSON": b"acquisition=purchase",
    "empty": b"",
    "a list": b"[]",
    "a negative cost": b'{"acquisition": "purchase", "invoice_date": "2020-07-15", '
    b'"vehicle": {"acquisition_cost": "-1.00"}}',
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_request_is_answered_by_the_route_with_its_own_error(client: TestClient, case: str) -> None:
    first, taken, route = both(client, BAD[case])
    assert first.status_code == 422, first.text
    assert taken == 0
    same(first, route)


@pytest.mark.parametrize(
    ("headers", "path", "body", "status"),
    [
        ({"content-type": "text/plain"}, "/v1/calculate", GOOD, 415),
        ({"content-type": "application/json; charset=utf-8"}, "/v1/calculate", GOOD, 200),
        ({"content-type": "application/problem+json"}, "/v1/calculate", GOOD, 200),
        (JSON, "/v1/calculate?receipt=false", GOOD, 200),
        (JSON, "/v1/calculate?known_at=2001-01-01T00:00:00Z", GOOD, 404),  # before the first load
        (JSON, "/v1/calculate", b" " * (MAX_BODY_BYTES + 1), 413),
    ],
)
def test_other_requests_answer_the_same_whichever_path_takes_them(
    client: TestClient, headers: dict[str, str], path: str, body: bytes, status: int
) -> None:
    first, taken, route = both(client, body, headers, path)
    assert first.status_code == status, first.text
    assert taken == (1 if status == 200 and "?" not in path else 0)
    same(first, route)
