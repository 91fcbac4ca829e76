"""Fault tests of issue 10 over real `vigueur` processes, on SQLite and on PostgreSQL.

- a `vigueur load` killed with SIGKILL — at a known point inside its transaction, and at random instants —
  leaves the database as it was (or, killed after its commit, as the load left it: never in between);
- two `vigueur load` processes at once are serialised: each load is recorded whole, one after the other;
- SIGTERM on a server under load: every answer given is a 200, and the server exits within its grace.

The in-process versions of the first two (a load killed by itself half-way, two loads in threads with the
lock observed) are in tests/store/test_history.py; a database dropped while serving is in
test_empty_database.py. These reuse their helpers.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlmodel import Session

from api.catalogue.db import make_engine
from api.catalogue.store import load_into, read_catalogue
from tests.api.catalogue.store.test_history import corrected
from tests.api.support import BACKENDS, SUCCESSOR, snapshot
from tests.reliability.databases import scratch_postgres
from tests.reliability.support import REPOSITORY, VIGUEUR, Tally, burst, postgres_url, serving

BOUND = 120  # seconds: a bound on a subprocess, not a measure

KILLED_CLI_LOAD = """
import os, signal, sys
from api.catalogue import store
from api.cli.main import app

real = store._record_version

def dying(session, *args, **kwargs):
    real(session, *args, **kwargs)
    session.flush()  # rows written in the open transaction
    print("half-way", flush=True)
    os.kill(os.getpid(), signal.SIGKILL)

store._record_version = dying
app(["load", "--database-url", sys.argv[1], "--versions-dir", sys.argv[2]])
"""


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database of the test's own: a SQLite file, or a scratch PostgreSQL database."""
    if request.param == "postgresql":
        with scratch_postgres(postgres_url()) as url:
            yield url
        return
    yield f"sqlite:///{tmp_path / 'faults.db'}"


def _snapshot(url: str) -> dict[str, list[tuple[object, ...]]]:
    engine = make_engine(url)
    try:
        return snapshot(engine)
    finally:
        engine.dispose()


def _load(url: str, tree: Path) -> None:
    engine = make_engine(url)
    try:
        load_into(engine, tree)
    finally:
        engine.dispose()


def _env() -> dict[str, str]:
    return os.environ | {"PYTHONPATH": str(REPOSITORY)}


def test_vigueur_load_killed_inside_its_transaction_leaves_the_database_as_it_was(
    database_url: str, fixture_tree: Path, tmp_path: Path
) -> None:
    _load(database_url, fixture_tree)
    before = _snapshot(database_url)
    tree = corrected(fixture_tree, tmp_path / "v", "6 300")
    done = subprocess.run(
        [sys.executable, "-c", KILLED_CLI_LOAD, database_url, str(tree)],
        capture_output=True,
        text=True,
        timeout=BOUND,
        env=_env(),
    )
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert done.stdout.split() == ["half-way"]
    assert _snapshot(database_url) == before
    again = subprocess.run(
        [VIGUEUR, "load", "--database-url", database_url, "--versions-dir", str(tree)],
        capture_output=True,
        text=True,
        timeout=BOUND,
    )
    assert again.returncode == 0, again.stderr  # the killed one left no lock behind
    assert '"superseded": 1' in again.stdout


def test_vigueur_load_killed_at_random_instants_leaves_the_database_before_or_after_never_between(
    database_url: str, fixture_tree: Path, tmp_path: Path
) -> None:
    _load(database_url, fixture_tree)
    states = [_snapshot(database_url)]
    rng = random.Random(10)  # reproducible instants
    for i in range(3):
        tree = corrected(fixture_tree, tmp_path / f"v{i}", f"6 {i + 1}00")
        process = subprocess.Popen(
            [VIGUEUR, "load", "--database-url", database_url, "--versions-dir", str(tree)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(rng.uniform(0.3, 2.5))
        process.kill()
        process.wait(BOUND)
        now = _snapshot(database_url)
        assert now == states[-1] or now["catalogue_load"] != states[-1]["catalogue_load"]
        if now != states[-1]:  # killed after its commit: the whole load is there
            engine = make_engine(database_url)
            with Session(engine) as session:
                assert f"6 {i + 1}00 euros" in read_catalogue(session).get(SUCCESSOR).text
            engine.dispose()
            states.append(now)


def test_two_vigueur_loads_at_once_are_recorded_one_after_the_other(
    database_url: str, fixture_tree: Path, tmp_path: Path
) -> None:
    _load(database_url, fixture_tree)
    trees = [corrected(fixture_tree, tmp_path / name, amount) for name, amount in (("a", "6 300"), ("b", "6 500"))]
    processes = [
        subprocess.Popen(
            [VIGUEUR, "load", "--database-url", database_url, "--versions-dir", str(tree)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for tree in trees
    ]
    outputs = [p.communicate(timeout=BOUND) for p in processes]
    assert [p.returncode for p in processes] == [0, 0], outputs
    loads = _snapshot(database_url)["catalogue_load"]
    assert len(loads) == 3  # the first, then each of the two, whole
    revisions = [r for r in _snapshot(database_url)["version_revision"] if SUCCESSOR in r]
    assert len(revisions) == 3
    engine = make_engine(database_url)
    with Session(engine) as session:  # the last one recorded is the one served
        text = read_catalogue(session).get(SUCCESSOR).text
    engine.dispose()
    assert ("6 300 euros" in text) != ("6 500 euros" in text)


def test_sigterm_under_load_answers_every_request_it_took_and_exits_within_its_grace(tmp_path: Path) -> None:
    grace = 5
    with serving(f"sqlite:///{tmp_path / 'v.db'}", tmp_path, "--graceful-timeout", str(grace)) as server:
        result: list[Tally] = []
        load = threading.Thread(target=lambda: result.append(asyncio.run(burst(server.url, 40, 600, 30.0))))
        load.start()
        time.sleep(1.5)
        signalled = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        server.process.wait(BOUND)
        exited = time.monotonic() - signalled
        load.join(BOUND)
        assert not load.is_alive()
        (tally,) = result
        assert set(tally.statuses) <= {200}, tally.statuses  # never a 5xx, never a cut response
        assert tally.statuses.get(200, 0) > 0
        assert exited < grace + 15, f"the server took {exited:.1f} s to exit"
