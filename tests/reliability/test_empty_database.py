"""Issue 10, defect 5, and the database that disappears while serving.

A server started before its database existed answered 503 on /readyz; once the database was created (empty),
``readyz`` and ``calculate`` answered 500 ``urn:vigueur:problem:bug`` (``relation "catalogue_load" does not
exist``) for ever. Now: 503 « no catalogue, run `vigueur load` » (problem+json), and the next load is served.
On PostgreSQL a database dropped under a serving API gives 503, and the API recovers when it is back.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from httpx import Response

from api.catalogue.db import make_engine
from api.catalogue.store import load_into
from api.http.app import create_app
from api.settings import Settings
from tests.reliability.databases import create_database, drop_database, scratch_postgres
from tests.reliability.support import EXAMPLE_REQUEST, postgres_url

NOT_LOADED = "urn:vigueur:problem:catalogue-not-loaded"
UNAVAILABLE = "urn:vigueur:problem:database-unavailable"
POLL_SECONDS = 15  # a bound: the API checks the database at most every second


@contextmanager
def started(database_url: str, fixture_tree: Path) -> Iterator[TestClient]:
    """The application with its lifespan (the way `vigueur serve` runs it) on ``database_url``."""
    with TestClient(create_app(Settings(database_url=database_url, versions_dir=fixture_tree))) as client:
        yield client


def until(ask: Callable[[], Response], wanted: Callable[[Response], bool]) -> Response:
    deadline = time.monotonic() + POLL_SECONDS
    while True:
        answer = ask()
        if wanted(answer) or time.monotonic() > deadline:
            return answer
        time.sleep(0.1)


def calculate(client: TestClient) -> Response:
    return client.post("/v1/calculate", content=EXAMPLE_REQUEST, headers={"content-type": "application/json"})


def assert_not_loaded(answer: Response) -> None:
    assert answer.status_code == 503, answer.text
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert answer.json()["type"] == NOT_LOADED and "vigueur load" in answer.json()["detail"]


def _load(url: str, fixture_tree: Path) -> None:
    engine = make_engine(url)
    try:
        load_into(engine, fixture_tree)
    finally:
        engine.dispose()


def _created_empty_then_loaded(client: TestClient, url: str, fixture_tree: Path, create: Callable[[], None]) -> None:
    assert client.get("/healthz").status_code == 200
    assert client.get("/readyz").status_code == 503
    create()
    answer = until(lambda: client.get("/readyz"), lambda a: a.json().get("type") == NOT_LOADED)
    assert_not_loaded(answer)
    assert_not_loaded(calculate(client))
    assert_not_loaded(client.get("/v1/schemes"))
    _load(url, fixture_tree)
    assert until(lambda: client.get("/readyz"), lambda a: a.status_code == 200).status_code == 200
    assert calculate(client).status_code == 200


def test_a_sqlite_database_created_empty_under_a_serving_api_answers_503_then_serves_once_loaded(
    tmp_path: Path, fixture_tree: Path
) -> None:
    folder = tmp_path / "not-yet"  # SQLite cannot create a file in a folder that does not exist
    url = f"sqlite:///{folder / 'vigueur.db'}"
    with started(url, fixture_tree) as client:
        _created_empty_then_loaded(client, url, fixture_tree, lambda: folder.mkdir())


@pytest.mark.postgres
def test_a_postgresql_database_created_empty_under_a_serving_api_answers_503_then_serves_once_loaded(
    fixture_tree: Path,
) -> None:
    server = postgres_url()
    with scratch_postgres(server, create=False) as url, started(url, fixture_tree) as client:
        name = url.rsplit("/", 1)[-1]
        _created_empty_then_loaded(client, url, fixture_tree, lambda: create_database(server, name))


@pytest.mark.postgres
def test_a_postgresql_database_dropped_while_serving_gives_503_then_recovers(fixture_tree: Path) -> None:
    server = postgres_url()
    with scratch_postgres(server) as url, started(url, fixture_tree) as client:
        name = url.rsplit("/", 1)[-1]
        assert calculate(client).status_code == 200  # the API loaded the empty database at start-up
        drop_database(server, name)
        answer = until(lambda: calculate(client), lambda a: a.status_code == 503)
        assert answer.status_code == 503 and answer.json()["type"] == UNAVAILABLE, answer.text
        assert client.get("/readyz").status_code == 503
        assert client.get("/healthz").status_code == 200
        create_database(server, name)
        assert_not_loaded(until(lambda: calculate(client), lambda a: a.json().get("type") == NOT_LOADED))
        _load(url, fixture_tree)
        assert until(lambda: calculate(client), lambda a: a.status_code == 200).status_code == 200
        assert client.get("/readyz").status_code == 200
