"""Load benchmark of `vigueur serve` (issue 10): `python benchmarks/load.py` from the repository root, in the venv.

Not a test: it measures. For each backend (SQLite file, PostgreSQL scratch database) and each number of
connections, it starts `vigueur serve --workers 2` on 127.0.0.1, opens that many concurrent keep-alive
connections (asyncio, raw sockets, HTTP/1.1) and sends requests on each, one after the other, for
``--duration`` seconds: half ``POST /v1/calculate`` (examples/request.json), half
``GET /v1/schemes/bonus/in-force?on=2020-07-15``. Meanwhile ``/healthz`` is asked every 0.2 s on a
connection of its own, and again for ``--after`` seconds after the load, with ``/readyz``.

It prints, per run: requests, req/s, errors (any status but 200, or a connection that failed), timeouts
(no complete answer within ``--timeout`` s), the latency percentiles p50/p90/p99/max, the slowest /healthz
during and after, and how long the server took to exit on SIGTERM. Exit code 1 when a run had an error, a
timeout, or a /healthz slower than a second.

The client runs on the same machine as the server: on a small machine its own CPU use limits req/s.
Only 127.0.0.1 is ever contacted. Options: --connections 200 1000, --duration 60, --backend sqlite
postgresql, --workers 2, --timeout 10, --after 10, --postgres-url URL (default: $TEST_DATABASE_URL, else
postgresql+psycopg://postgres@127.0.0.1:5432/test; a scratch database is created and dropped), --json FILE.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
VIGUEUR = str(Path(sys.executable).with_name("vigueur"))
HOST = "127.0.0.1"
BODY = (ROOT / "examples" / "request.json").read_bytes()
CALCULATE = (
    f"POST /v1/calculate HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\n"
    f"Content-Length: {len(BODY)}\r\n\r\n"
).encode() + BODY
IN_FORCE = f"GET /v1/schemes/bonus/in-force?on=2020-07-15 HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode()
HEALTHZ = f"GET /healthz HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode()
READYZ = f"GET /readyz HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode()
DEFAULT_POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


@dataclass
class Run:
    backend: str
    connections: int
    duration: float
    requests: int = 0
    errors: int = 0
    timeouts: int = 0
    statuses: dict[str, int] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list, repr=False)
    health_during: list[float] = field(default_factory=list, repr=False)
    health_after: list[float] = field(default_factory=list, repr=False)
    ready_after: int | None = None
    exit_seconds: float | None = None
    first_errors: list[str] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        ordered = sorted(self.latencies)

        def pct(p: float) -> float | None:
            return round(ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000, 1) if ordered else None

        doc = {k: v for k, v in asdict(self).items() if k not in ("latencies", "health_during", "health_after")}
        doc |= {
            "req_per_s": round(len(ordered) / self.duration, 1),
            "latency_ms": {"p50": pct(0.50), "p90": pct(0.90), "p99": pct(0.99), "max": pct(1.0)},
            "healthz_max_s_during": round(max(self.health_during, default=float("inf")), 3),
            "healthz_max_s_after": round(max(self.health_after, default=float("inf")), 3),
        }
        return doc


# -- a minimal HTTP/1.1 client over asyncio streams --------------------------------------------------


async def exchange(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, request: bytes) -> int:
    """Send ``request``, read one whole response (Content-Length bodies: what uvicorn sends); its status."""
    writer.write(request)
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    status = int(lines[0].split()[1])
    length = 0
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    if length:
        await reader.readexactly(length)
    return status


async def connection(port: int, run: Run, stop_at: float, timeout: float, n: int) -> None:
    """One keep-alive connection sending requests back to back until ``stop_at``; reconnects after a failure."""
    reader = writer = None
    i = n
    while time.monotonic() < stop_at:
        i += 1
        started = time.monotonic()
        try:
            if writer is None:
                reader, writer = await asyncio.wait_for(asyncio.open_connection(HOST, port), timeout)
            assert reader is not None
            status = await asyncio.wait_for(exchange(reader, writer, CALCULATE if i % 2 else IN_FORCE), timeout)
        except TimeoutError:
            run.timeouts += 1
            writer = await _close(writer)
            continue
        except (OSError, asyncio.IncompleteReadError, ValueError, IndexError) as exc:
            run.errors += 1
            if len(run.first_errors) < 5:
                run.first_errors.append(f"{type(exc).__name__}: {exc}")
            writer = await _close(writer)
            await asyncio.sleep(0.05)
            continue
        run.requests += 1
        run.statuses[str(status)] = run.statuses.get(str(status), 0) + 1
        if status == 200:
            run.latencies.append(time.monotonic() - started)
        else:
            run.errors += 1
    await _close(writer)


async def _close(writer: asyncio.StreamWriter | None) -> None:
    if writer is not None:
        writer.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer.wait_closed(), 1)


async def probe(port: int, request: bytes, timeout: float) -> tuple[int | None, float]:
    """One request on a fresh connection: its status (None: no answer) and how long it took."""
    started = time.monotonic()
    writer = None
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(HOST, port), timeout)
        status = await asyncio.wait_for(exchange(reader, writer, request), timeout)
        return status, time.monotonic() - started
    except (OSError, TimeoutError, asyncio.IncompleteReadError, ValueError):
        return None, float("inf")
    finally:
        await _close(writer)


def health(port: int, seconds: float) -> list[float]:
    """/healthz every 0.2 s for ``seconds``, each on a new connection: how long each took (inf: no 200).

    Run in a process of its own: in the load generator's process it would measure that process's own event
    loop, busy with up to a thousand connections."""
    out = []
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        status, took = asyncio.run(probe(port, HEALTHZ, 5))
        out.append(took if status == 200 else float("inf"))
        time.sleep(0.2)
    return out


async def measure(port: int, run: Run, timeout: float, after: float) -> None:
    stop_at = time.monotonic() + run.duration
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as prober:
        during = asyncio.get_running_loop().run_in_executor(prober, health, port, run.duration)
        await asyncio.gather(*(connection(port, run, stop_at, timeout, n) for n in range(run.connections)))
        run.health_during = await during
        run.health_after = await asyncio.get_running_loop().run_in_executor(prober, health, port, after)
    run.ready_after = (await probe(port, READYZ, 5))[0]


# -- the server ---------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def start_server(database_url: str, workers: int, folder: Path) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    log = (folder / f"serve-{port}.log").open("wb")
    process = subprocess.Popen(
        [VIGUEUR, "serve", "--host", HOST, "--port", str(port), "--workers", str(workers), "--log-level", "warning"],
        stdout=log,
        stderr=subprocess.STDOUT,
        cwd=folder,
        env=os.environ | {"DATABASE_URL": database_url},
        start_new_session=True,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"vigueur serve exited: see {log.name}")
        status, _ = asyncio.run(probe(port, READYZ, 2))
        if status == 200:
            return process, port
        time.sleep(0.2)
    os.killpg(process.pid, signal.SIGKILL)
    raise SystemExit("vigueur serve did not become ready within 120 s")


def stop_server(process: subprocess.Popen[bytes]) -> float:
    """SIGTERM; the seconds it took to exit (then SIGKILL of its group, should it outlive 60 s)."""
    started = time.monotonic()
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(60)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)
    return round(time.monotonic() - started, 2)


@contextlib.contextmanager
def database(backend: str, folder: Path, postgres: str) -> Any:
    if backend == "sqlite":
        yield f"sqlite:///{folder / 'load.db'}"
        return
    import sqlalchemy as sa

    name = f"vigueur_load_{uuid.uuid4().hex[:10]}"
    admin = sa.create_engine(postgres, isolation_level="AUTOCOMMIT", connect_args={"connect_timeout": 3})
    try:
        with admin.connect() as c:
            c.execute(sa.text(f'CREATE DATABASE "{name}"'))
    except sa.exc.OperationalError as exc:
        print(f"PostgreSQL at {postgres} does not answer, skipped: {str(exc).splitlines()[0]}")
        yield None
        return
    try:
        yield sa.engine.make_url(postgres).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as c:
            c.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def one_run(backend: str, connections: int, args: argparse.Namespace) -> Run | None:
    with tempfile.TemporaryDirectory(prefix="vigueur-load-") as tmp, database(
        backend, Path(tmp), args.postgres_url
    ) as url:
        if url is None:
            return None
        process, port = start_server(url, args.workers, Path(tmp))
        run = Run(backend, connections, args.duration)
        try:
            asyncio.run(measure(port, run, args.timeout, args.after))
        finally:
            run.exit_seconds = stop_server(process)
        return run


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--connections", type=int, nargs="+", default=[200, 1000])
    parser.add_argument("--duration", type=float, default=60)
    parser.add_argument("--backend", nargs="+", choices=["sqlite", "postgresql"], default=["sqlite", "postgresql"])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=10, help="seconds for one request before a timeout")
    parser.add_argument("--after", type=float, default=10, help="seconds of /healthz checks after the load")
    parser.add_argument("--postgres-url", default=os.environ.get("TEST_DATABASE_URL") or DEFAULT_POSTGRES)
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    args = parser.parse_args()
    if args.connections and max(args.connections) > 5000:
        parser.error("at most 5000 connections")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 4 * max(args.connections) + 256)), hard))
    results = []
    for backend in args.backend:
        for n in args.connections:
            run = one_run(backend, n, args)
            if run is None:
                continue
            doc = run.summary()
            results.append(doc)
            print(_line(doc), flush=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0 if all(r["errors"] == 0 and r["timeouts"] == 0 for r in results) and all(
        r["healthz_max_s_during"] < 1 and r["healthz_max_s_after"] < 1 and r["ready_after"] == 200 for r in results
    ) else 1


def _line(doc: dict[str, Any]) -> str:
    lat = doc["latency_ms"]
    return (
        f"{doc['backend']:<10} {doc['connections']:>5} conn {doc['duration']:>4.0f} s: {doc['requests']} requests, "
        f"{doc['req_per_s']} req/s, errors {doc['errors']}, timeouts {doc['timeouts']}, "
        f"latency ms p50 {lat['p50']} p90 {lat['p90']} p99 {lat['p99']} max {lat['max']}; "
        f"/healthz max {doc['healthz_max_s_during']} s during, {doc['healthz_max_s_after']} s after; "
        f"/readyz after: {doc['ready_after']}; SIGTERM exit {doc['exit_seconds']} s"
        + (f"; first errors: {doc['first_errors']}" if doc["first_errors"] else "")
    )


if __name__ == "__main__":
    sys.exit(main())
