"""Issue 10, defect 1: the server locked up under concurrency.

Above ~40 concurrent requests per worker, every one of AnyIO's 40 threads waited for one of the pool's 15
connections while the connections were held by requests waiting for a thread: nothing moved until the 30 s
pool timeout (503s), and /healthz queued behind them. Here a real `vigueur serve` (one worker, the
worst case) gets a few hundred requests over 80 connections: all must answer 200 within a generous bound,
and /healthz must answer within a second throughout.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.reliability.support import burst, postgres_url, serving

CONNECTIONS = 80  # twice AnyIO's 40 threads: enough to lock the old request path up
REQUESTS = 400
TIMEOUT = 20.0  # below the old 30 s pool timeout: a lock-up shows as timeouts, never as slowness


def _check(url: str) -> None:
    tally = asyncio.run(burst(url, CONNECTIONS, REQUESTS, TIMEOUT))
    assert not tally.errors, tally.errors[:5]
    assert tally.statuses == {200: REQUESTS}
    assert tally.health_seconds and max(tally.health_seconds) < 1.0, sorted(tally.health_seconds)[-5:]


def test_many_concurrent_requests_on_sqlite_all_answer_and_healthz_stays_quick(tmp_path: Path) -> None:
    with serving(f"sqlite:///{tmp_path / 'vigueur.db'}", tmp_path) as server:
        _check(server.url)


@pytest.mark.postgres
def test_many_concurrent_requests_on_postgresql_all_answer_and_healthz_stays_quick(tmp_path: Path) -> None:
    from tests.reliability.databases import scratch_postgres

    with scratch_postgres(postgres_url()) as url, serving(url, tmp_path) as server:
        _check(server.url)
