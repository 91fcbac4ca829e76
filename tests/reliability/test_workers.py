"""Balanced workers (issue 15): with `vigueur serve --workers 2` each worker listens on a socket of its own
(SO_REUSEPORT), the kernel spreads new connections over them, and every answer names its worker
(``X-Vigueur-Worker``). Before, the workers shared the supervisor's one socket and the one awake took every
connection (splits of 8/0 and 31/1 were measured).

Linux only (/proc); the wait for the second worker is bounded, not measured.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.reliability.support import serving

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc (Linux)")
LISTEN = "0A"  # TCP_LISTEN in /proc/net/tcp
CONNECTIONS = 40  # all 40 on one of two sockets by chance: 2 × 2⁻⁴⁰


def listening(port: int) -> dict[int, int]:
    """The listening sockets of 127.0.0.1:``port``: socket inode → pid of the process that holds it."""
    inodes = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, state, inode = fields[1], fields[3], int(fields[9])
        if state == LISTEN and int(local.split(":")[1], 16) == port:
            inodes.add(inode)
    holders: dict[int, int] = {}
    for fd in Path("/proc").glob("[0-9]*/fd/*"):
        try:
            target = fd.readlink()
        except OSError:
            continue
        name = str(target)
        if name.startswith("socket:[") and int(name[8:-1]) in inodes:
            holders[int(name[8:-1])] = int(fd.parts[2])
    return holders


def test_each_worker_listens_on_its_own_socket_and_the_connections_reach_both(tmp_path: Path) -> None:
    with serving(f"sqlite:///{tmp_path / 'v.db'}", tmp_path, "--workers", "2") as server:
        deadline = time.monotonic() + 90
        holders = listening(server.port)
        while len(holders) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
            holders = listening(server.port)
        assert len(holders) == 2, holders  # two listening sockets on the port …
        workers = set(holders.values())
        assert len(workers) == 2 and server.process.pid not in workers  # … one per worker, none the supervisor's
        answered = set()
        for _ in range(CONNECTIONS):  # a new connection each time
            answer = httpx.get(f"{server.url}/healthz", timeout=10, headers={"connection": "close"})
            assert answer.status_code == 200
            answered.add(int(answer.headers["x-vigueur-worker"]))
        assert answered == workers


def test_one_worker_names_itself_too(tmp_path: Path) -> None:
    with serving(f"sqlite:///{tmp_path / 'v.db'}", tmp_path) as server:
        answer = httpx.get(f"{server.url}/healthz", timeout=10)
        assert answer.headers["x-vigueur-worker"] == str(server.process.pid)
