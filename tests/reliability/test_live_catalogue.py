"""The latest catalogue is read again when a load is announced, not asked of the database per request (issue 15).

Each test serves the application with its lifespan (as `vigueur serve` runs it) with the periodic checks made
so rare (an hour) that only the announcement of a load (api/catalogue/announce.py: a stamp file beside a
SQLite database, NOTIFY on PostgreSQL) can show it: without it, these tests fail. A load recorded by another
process is seen by the very next request on SQLite (the stamp is written before that process exits), and
within a bound on PostgreSQL (a notification arrives on a connection of its own: the test polls, bounded).
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from sqlmodel import Session

from api.catalogue import announce, live
from api.catalogue.db import make_engine
from api.catalogue.store import load_into, load_tree
from api.http.app import create_app
from api.http.auth import ADMIN_TOKEN_ENV
from api.settings import Settings
from tests.api.support import SUCCESSOR, copy_tree, raise_successor_cap
from tests.reliability.databases import scratch_postgres
from tests.reliability.support import EXAMPLE_REQUEST, postgres_url

ROOT = Path(__file__).resolve().parents[2]
BOUND_SECONDS = 15.0  # how long a PostgreSQL notification may take to arrive here: a bound, not a measure
LOAD = "x-vigueur-catalogue-load"
TOKEN = "live-catalogue-token-0123456789"


@pytest.fixture(autouse=True)
def _rare_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    """An hour between the periodic checks: only an announced load is seen."""
    monkeypatch.setattr(live, "CHECK_SECONDS", 3600.0)
    monkeypatch.setattr(live, "SAFETY_SECONDS", 3600.0)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'vigueur.db'}"
        return
    with scratch_postgres(postgres_url()) as url:
        yield url


@contextmanager
def started(database_url: str, tree: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(database_url=database_url, versions_dir=tree))) as client:
        if database_url.startswith("postgresql"):
            watching(client)
        yield client


def watching(client: TestClient) -> None:
    """Wait (bounded) until the application's listening connection is up."""
    watch = client.app.state.live.watch  # type: ignore[attr-defined]
    deadline = time.monotonic() + BOUND_SECONDS
    while watch.signature() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert watch.signature() is not None, "the application does not listen for loads"


def calculate(client: TestClient) -> Any:
    answer = client.post("/v1/calculate", content=EXAMPLE_REQUEST, headers={"content-type": "application/json"})
    assert answer.status_code == 200, answer.text
    return answer


def seen(database_url: str, ask: Callable[[], Any], wanted: Callable[[Any], bool]) -> Any:
    """SQLite: the next answer. PostgreSQL: the first wanted answer within the bound (or the last one)."""
    answer = ask()
    if database_url.startswith("sqlite"):
        return answer
    deadline = time.monotonic() + BOUND_SECONDS
    while not wanted(answer) and time.monotonic() < deadline:
        time.sleep(0.05)
        answer = ask()
    return answer


def load_in_another_process(database_url: str, tree: Path) -> None:
    code = "import sys; from api.catalogue.store import load_into; from api.catalogue.db import make_engine; " \
        "load_into(make_engine(sys.argv[1]), __import__('pathlib').Path(sys.argv[2]))"
    subprocess.run([sys.executable, "-c", code, database_url, str(tree)], check=True, cwd=ROOT, timeout=120)


def test_a_load_by_another_process_is_served_by_the_next_requests(
    database_url: str, fixture_tree: Path, tmp_path: Path
) -> None:
    changed = copy_tree(fixture_tree, tmp_path / "changed")
    raise_successor_cap(changed)  # a new revision of the successor: a second load
    with started(database_url, fixture_tree) as client:
        first = calculate(client).headers[LOAD]
        load_in_another_process(database_url, changed)
        after = seen(database_url, lambda: calculate(client), lambda a: a.headers[LOAD] != first)
        assert int(after.headers[LOAD]) == int(first) + 1
        version = seen(database_url, lambda: client.get(f"/v1/versions/{SUCCESSOR}"), lambda a: True)
        assert "6 100 euros" in version.json()["text"]  # the catalogue endpoints serve the new load too


def test_a_correction_made_through_another_application_is_served_by_this_one(
    database_url: str, fixture_tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ADMIN_TOKEN_ENV, TOKEN)
    meta = (fixture_tree / SUCCESSOR / "version.toml").read_text(encoding="utf-8")
    text = (fixture_tree / SUCCESSOR / "text.txt").read_text(encoding="utf-8")
    body = {
        "version_toml": meta.replace("6 000 euros", "6 300 euros").replace('value = "6000"', 'value = "6300"'),
        "text": text.replace("6 000 euros", "6 300 euros"),
        "reason": "erratum",
    }
    with started(database_url, fixture_tree) as one, started(database_url, fixture_tree) as other:
        first = calculate(one).headers[LOAD]
        assert calculate(other).headers[LOAD] == first
        answer = other.post(
            "/v1/admin/versions",
            content=json.dumps(body),
            headers={"content-type": "application/json", "authorization": f"Bearer {TOKEN}"},
        )
        assert answer.status_code == 201, answer.text
        assert int(calculate(other).headers[LOAD]) == int(first) + 1  # the process that wrote it: at once
        after = seen(database_url, lambda: calculate(one), lambda a: a.headers[LOAD] != first)
        assert int(after.headers[LOAD]) == int(first) + 1


def test_no_query_per_request_while_no_load_is_announced(
    database_url: str, fixture_tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Even with the periodic check at every request (0 s), a watching process asks the database nothing."""
    monkeypatch.setattr(live, "CHECK_SECONDS", 0.0)
    with started(database_url, fixture_tree) as client:
        calculate(client)
        statements: list[str] = []
        engine = client.app.state.engine  # type: ignore[attr-defined]
        watch = client.app.state.live.watch  # type: ignore[attr-defined]
        before = watch.signature()
        sa.event.listen(engine, "before_cursor_execute", lambda *args: statements.append(str(args[2])))
        for _ in range(20):
            calculate(client)
            assert client.get("/v1/schemes").status_code == 200
        after = watch.signature()
    # 40 requests. A notification may still arrive late from the catalogue load the application made when it
    # started (PostgreSQL delivers it on the listening connection whenever that thread runs): each one makes one
    # cheap read of the latest load, and nothing else may ask the database. Without the watch, every request
    # would ask (the periodic check is 0 s here): 40 or more statements.
    announced = after - before if isinstance(before, int) and isinstance(after, int) else int(after != before)
    assert len(statements) <= announced, statements
    assert all("FROM catalogue_load" in statement for statement in statements), statements
    assert announced <= 2  # the start-up load's notification, at most: no notification without a load


def test_a_rolled_back_load_is_not_announced(fixture_tree: Path, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'vigueur.db'}"
    engine = make_engine(url)
    try:
        load_into(engine, fixture_tree)
        stamp = announce.stamp_path(engine.url)
        assert stamp is not None and stamp.read_text(encoding="ascii").split()[0] == "1"  # load 1 announced
        before = os.stat(stamp)
        changed = copy_tree(fixture_tree, tmp_path / "changed")
        raise_successor_cap(changed)
        with Session(engine) as session:
            assert load_tree(session, changed).load_id == 2
            session.rollback()
        after = os.stat(stamp)
        assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
        assert stamp.read_text(encoding="ascii").split()[0] == "1"
    finally:
        engine.dispose()


def test_without_a_stamp_the_database_is_asked_every_check(fixture_tree: Path, tmp_path: Path) -> None:
    """The stamp removed (a database loaded by an older vigueur, say): the periodic check takes over."""
    url = f"sqlite:///{tmp_path / 'vigueur.db'}"
    engine = make_engine(url)
    load_into(engine, fixture_tree)
    stamp = announce.stamp_path(engine.url)
    assert stamp is not None and stamp.exists()

    def loads_read(times: int) -> int:
        latest = live.LiveCatalogue(check_seconds=0.0, watch=announce.StampWatch(stamp))
        statements: list[str] = []

        def record(*args: Any) -> None:
            statements.append(str(args[2]))

        sa.event.listen(engine, "before_cursor_execute", record)
        try:
            for _ in range(times):
                with Session(engine) as session:
                    asyncio.run(latest.latest(session))
        finally:
            sa.event.remove(engine, "before_cursor_execute", record)
        return sum("FROM catalogue_load" in s for s in statements)

    try:
        once = loads_read(1)  # the first read of a process: the latest load, then the catalogue it made
        assert once >= 1
        assert loads_read(3) == once  # watching: the two later requests ask nothing
        stamp.unlink()
        assert loads_read(3) == once + 2  # not watching: each later request asks for the latest load again
    finally:
        engine.dispose()
