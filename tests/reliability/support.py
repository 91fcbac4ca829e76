"""A real `vigueur serve` in a subprocess on 127.0.0.1, and bounded concurrent clients for it.

Every wait here is bounded (a count of polls or a timeout): a test never hangs on a server that locked up, it
fails. The bounds are generous (the machine running the suite may be busy): they tell "stuck" from "slow",
they measure nothing.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

REPOSITORY = Path(__file__).resolve().parents[2]
EXAMPLE_REQUEST = (REPOSITORY / "examples" / "request.json").read_bytes()
VIGUEUR = str(Path(sys.executable).with_name("vigueur"))  # the console script of this install
START_SECONDS = 90  # a worker imports the whole app and may load the catalogue on a busy machine


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Server:
    """A `vigueur serve` process and its address."""

    process: subprocess.Popen[bytes]
    port: int
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    def wait_healthy(self, seconds: float = START_SECONDS) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"vigueur serve exited with {self.process.returncode}:\n{self.output()}")
            try:
                if httpx.get(f"{self.url}/healthz", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise AssertionError(f"vigueur serve did not answer /healthz within {seconds} s:\n{self.output()}")

    def stop(self, seconds: float = 30) -> int:
        """SIGTERM, then SIGKILL of the whole process group if it outlives ``seconds``; its exit code."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                return self.process.wait(seconds)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)
                raise
        return self.process.returncode


@contextmanager
def serving(database_url: str, tmp_path: Path, *options: str, wait: bool = True) -> Iterator[Server]:
    """`vigueur serve` on a free port of 127.0.0.1 against ``database_url``; stopped (then killed) at the end."""
    port = free_port()
    log = tmp_path / f"serve-{port}.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [VIGUEUR, "serve", "--port", str(port), "--log-level", "warning", *options],
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=tmp_path,
            env=os.environ | {"DATABASE_URL": database_url, "PYTHONPATH": str(REPOSITORY)},
            start_new_session=True,  # its own process group: the clean-up can kill the workers too
        )
    server = Server(process, port, log)
    try:
        if wait:
            server.wait_healthy()
        yield server
    finally:
        try:
            server.stop()
        finally:
            if process.poll() is None:  # pragma: no cover - stop() killed it already
                os.killpg(process.pid, signal.SIGKILL)


def postgres_url() -> str:
    url = os.environ.get("TEST_DATABASE_URL")
    if not url:
        pytest.skip("TEST_DATABASE_URL is not set: no PostgreSQL for this run")
    return url


@dataclass
class Tally:
    """What a burst of requests got: status counts, transport errors and timeouts, the slowest health check."""

    statuses: dict[int, int] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    health_seconds: list[float] = field(default_factory=list)

    def add(self, status: int) -> None:
        self.statuses[status] = self.statuses.get(status, 0) + 1


async def burst(url: str, connections: int, requests: int, timeout: float) -> Tally:
    """``requests`` requests (calculations and catalogue reads, half and half) over ``connections`` concurrent
    keep-alive connections, each bounded by ``timeout``; /healthz asked every 0.2 s meanwhile, on its own
    connection, also bounded."""
    tally = Tally()
    limits = httpx.Limits(max_connections=connections, max_keepalive_connections=connections)
    queue: asyncio.Queue[int] = asyncio.Queue()
    for i in range(requests):
        queue.put_nowait(i)
    done = asyncio.Event()

    async def worker(client: httpx.AsyncClient) -> None:
        while True:
            try:
                i = queue.get_nowait()
            except asyncio.QueueEmpty:
                return
            try:
                if i % 2:
                    answer = await client.post(
                        "/v1/calculate", content=EXAMPLE_REQUEST, headers={"content-type": "application/json"}
                    )
                else:
                    answer = await client.get("/v1/schemes/bonus/in-force", params={"on": "2020-07-15"})
                tally.add(answer.status_code)
            except httpx.HTTPError as exc:
                tally.errors.append(f"{type(exc).__name__}: {exc}")

    async def health() -> None:
        async with httpx.AsyncClient(base_url=url, timeout=timeout) as probe:
            while not done.is_set():
                started = time.monotonic()
                try:
                    answer = await probe.get("/healthz")
                    assert answer.status_code == 200
                    tally.health_seconds.append(time.monotonic() - started)
                except httpx.HTTPError as exc:
                    tally.errors.append(f"/healthz {type(exc).__name__}")
                    tally.health_seconds.append(float("inf"))
                await asyncio.sleep(0.2)

    async with httpx.AsyncClient(base_url=url, timeout=timeout, limits=limits) as client:
        prober = asyncio.create_task(health())
        await asyncio.gather(*(worker(client) for _ in range(connections)))
        done.set()
        await prober
    return tally
