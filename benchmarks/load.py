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

``--calculate`` (issue 15) measures ``POST /v1/calculate`` alone instead: for each backend, one `vigueur serve
--workers 2`, then ``--repeat`` runs of ``--duration`` seconds at each of ``--connections`` (default 8 and 32)
keep-alive connections, each sending generated purchases (benchmarks/generate.py: every version, every
branch; those the API refuses are left out) one after the other. The client is wrk (Debian's ``wrk``, with a
Lua script: light, in C) when it is on the PATH, else the asyncio client below (``--client python``; it
eats CPU of its own). It prints each run (req/s, p50/p90/p99/max, errors) with the split of the answers
across the workers (the ``X-Vigueur-Worker`` header), the machine's load average, and per connection count
the medians of the runs. Exit code 1 when a request failed.

The client runs on the same machine as the server: on a small machine its own CPU use limits req/s.
Only 127.0.0.1 is ever contacted. Options: --connections 200 1000, --duration 60, --backend sqlite
postgresql, --workers 2, --timeout 10, --after 10, --postgres-url URL (default: $TEST_DATABASE_URL, else
postgresql+psycopg://postgres@127.0.0.1:5432/test; a scratch database is created and dropped), --json FILE;
--calculate with --repeat 3 and --client auto|wrk|python (defaults there: --connections 8 32, --duration 10).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import resource
import shutil
import signal
import socket
import statistics
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
PACED_MARGIN = 1.1  # a paced run offers this much more than its target rate (see the wait's computation)


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


# -- POST /v1/calculate alone, at a few keep-alive connections (issue 15) -------------------------------------

WRK_SCRIPT = r"""
-- benchmarks/load.py --calculate: POST /v1/calculate with the bodies of $VIGUEUR_BODIES (one JSON per line),
-- counting the answers of each worker (X-Vigueur-Worker).
local bodies, index, threads = {}, 0, {}
counts = {}  -- a global: done() reads each thread's with thread:get("counts")
-- a paced run (--paced): each connection waits this many ms after an answer before its next request
local pause = tonumber(os.getenv("VIGUEUR_DELAY_MS") or "0")
if pause > 0 then function delay() return pause end end
function setup(thread) table.insert(threads, thread) end
function init(args)
  for line in io.lines(os.getenv("VIGUEUR_BODIES")) do table.insert(bodies, line) end
  counts = {}
end
function request()
  index = index % #bodies + 1
  return wrk.format("POST", "/v1/calculate", {["Content-Type"] = "application/json"}, bodies[index])
end
function response(status, headers, body)
  local w = headers["x-vigueur-worker"] or headers["X-Vigueur-Worker"] or "none"
  counts[w] = (counts[w] or 0) + 1
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("VIGUEUR %d %d %d %d %d %d %d %d\n", summary.requests, summary.duration,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, e.status,
    e.connect + e.read + e.write + e.timeout))
  for _, t in ipairs(threads) do
    for k, v in pairs(t:get("counts")) do io.write(string.format("WORKER %s %d\n", k, v)) end
  end
end
"""


def calculate_bodies(count: int = 2000, seed: int = 11) -> list[bytes]:
    """Generated purchases (benchmarks/generate.py) as compact JSON requests, those the API answers 200."""
    sys.path.insert(0, str(ROOT))
    from api.catalogue.loader import load_catalogue
    from api.purchase.render import calculate_document
    from api.purchase.request import CalculationRequest, parse_request
    from benchmarks.generate import request, rows

    catalogue = load_catalogue()
    bodies = []
    for cells in rows(catalogue, count, seed=seed):
        try:
            body = json.dumps(_integers(request(cells), CalculationRequest), separators=(",", ":")).encode()
            calculate_document(catalogue, parse_request(body))
        except Exception:  # noqa: BLE001 - refused (422) by the API as well: not a calculation to time
            continue
        bodies.append(body)
    return bodies


def _integers(doc: dict[str, Any], model: Any) -> dict[str, Any]:
    """The integer fields of the request contract as JSON integers (the generator writes CSV cells, strings)."""
    import typing

    for name, info in model.model_fields.items():
        value = doc.get(name)
        kinds = typing.get_args(info.annotation) or (info.annotation,)
        if isinstance(value, dict):
            sub = next((k for k in kinds if hasattr(k, "model_fields")), None)
            if sub is not None:
                _integers(value, sub)
        elif isinstance(value, str) and int in kinds and value.isdigit():
            doc[name] = int(value)
    return doc


def wrk_run(
    port: int, bodies_file: Path, script: Path, connections: int, duration: float, delay_ms: int = 0
) -> dict[str, Any]:
    """One wrk run; ``delay_ms`` > 0: each connection waits that long after an answer (a paced run)."""
    env = os.environ | {"VIGUEUR_BODIES": str(bodies_file), "VIGUEUR_DELAY_MS": str(delay_ms)}
    out = subprocess.run(
        ["wrk", "-t1", f"-c{connections}", f"-d{duration:.0f}s", "--timeout", "10s", "-s", str(script),
         f"http://{HOST}:{port}/v1/calculate"],
        capture_output=True, text=True, env=env, check=True,
    ).stdout  # fmt: skip
    split: dict[str, int] = {}
    figures: list[int] = []
    for line in out.splitlines():
        if line.startswith("VIGUEUR "):
            figures = [int(x) for x in line.split()[1:]]
        elif line.startswith("WORKER "):
            _, worker, count = line.split()
            split[worker] = split.get(worker, 0) + int(count)
    if not figures:
        raise SystemExit(f"wrk said nothing usable:\n{out}")
    requests, micros, p50, p90, p99, most, status_errors, socket_errors = figures
    return {
        "requests": requests,
        "req_per_s": round(requests / (micros / 1e6), 1),
        "latency_ms": {"p50": p50 / 1000, "p90": p90 / 1000, "p99": p99 / 1000, "max": most / 1000},
        "errors": status_errors + socket_errors,
        "split": split,
    }


async def _python_connection(port: int, bodies: list[bytes], offset: int, stop_at: float, out: dict[str, Any]) -> None:
    reader, writer = await asyncio.open_connection(HOST, port)
    i = offset
    try:
        while time.monotonic() < stop_at:
            body = bodies[i % len(bodies)]
            i += 1
            started = time.monotonic()
            writer.write(
                b"POST /v1/calculate HTTP/1.1\r\nHost: " + HOST.encode() + b"\r\nContent-Type: application/json\r\n"
                b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body
            )
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.split(b"\r\n")
            length, worker = 0, "none"
            for line in lines[1:]:
                name, _, value = line.partition(b":")
                name = name.strip().lower()
                if name == b"content-length":
                    length = int(value)
                elif name == b"x-vigueur-worker":
                    worker = value.strip().decode()
            await reader.readexactly(length)
            if lines[0].split()[1] != b"200":
                out["errors"] += 1
                continue
            out["latencies"].append(time.monotonic() - started)
            out["split"][worker] = out["split"].get(worker, 0) + 1
    finally:
        writer.close()


def python_run(port: int, bodies: list[bytes], connections: int, duration: float) -> dict[str, Any]:
    out: dict[str, Any] = {"latencies": [], "errors": 0, "split": {}}

    async def run() -> None:
        stop_at = time.monotonic() + duration
        await asyncio.gather(
            *(_python_connection(port, bodies, n * 97, stop_at, out) for n in range(connections))
        )

    started = time.monotonic()
    asyncio.run(run())
    elapsed = time.monotonic() - started
    ordered = sorted(out["latencies"])

    def pct(p: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000, 2) if ordered else float("nan")

    return {
        "requests": len(ordered),
        "req_per_s": round(len(ordered) / elapsed, 1),
        "latency_ms": {"p50": pct(0.5), "p90": pct(0.9), "p99": pct(0.99), "max": pct(1.0)},
        "errors": out["errors"],
        "split": out["split"],
    }


def calculate_benchmark(
    backends: list[str],
    connections: list[int],
    duration: float,
    repeat: int,
    workers: int,
    postgres_url: str,
    client: str = "auto",
    echo: Any = print,
    paced: dict[int, float] | None = None,
) -> list[dict[str, Any]]:
    """``POST /v1/calculate`` only: per backend and connection count, ``repeat`` runs and their medians.

    ``paced`` (connections → requests/s, wrk only): after the saturating runs at that many connections, ``repeat``
    runs where each connection waits after every answer so that together they send about that rate (the wait: the
    connections' share of a second less the saturating runs' median latency) — the latency at the target's rate, not
    at twice it. The rate reached is reported as measured."""
    use_wrk = client == "wrk" or (client == "auto" and shutil.which("wrk") is not None)
    if client == "wrk" and shutil.which("wrk") is None:
        raise SystemExit("wrk is not on the PATH (Debian: apt-get install wrk)")
    bodies = calculate_bodies()
    results = []
    with tempfile.TemporaryDirectory(prefix="vigueur-calc-") as tmp:
        folder = Path(tmp)
        bodies_file, script = folder / "bodies.jsonl", folder / "calculate.lua"
        bodies_file.write_bytes(b"\n".join(bodies) + b"\n")
        script.write_text(WRK_SCRIPT, encoding="utf-8")
        for backend in backends:
            with database(backend, folder, postgres_url) as url:
                if url is None:
                    continue
                process, port = start_server(url, workers, folder)
                try:

                    def once(n: int, seconds: float, port: int = port) -> dict[str, Any]:
                        if use_wrk:
                            return wrk_run(port, bodies_file, script, n, seconds)
                        return python_run(port, bodies, n, seconds)

                    once(8, 3)  # warm-up: every worker has read the catalogue, the pools have connections
                    for n in connections:
                        runs = []
                        for _ in range(repeat):
                            load = os.getloadavg()
                            run = once(n, duration) | {"load_average_before": [round(x, 2) for x in load]}
                            runs.append(run)
                            echo(_calculate_line(backend, n, run), flush=True)
                        summary = _calculate_summary(backend, n, workers, "wrk" if use_wrk else "python", runs)
                        results.append(summary)
                        echo(calculate_median_line(summary), flush=True)
                        rate = (paced or {}).get(n)
                        if rate is None:
                            continue
                        if not use_wrk:
                            echo(f"  paced runs at {n} connections SKIPPED: they need wrk (apt-get install wrk)")
                            continue
                        # each connection's cycle (its wait, then an answer at the saturating runs' median latency)
                        # made to offer 10 % more than the rate: wrk's timer and the answers' spread stretch every
                        # cycle, and a wait floored to the millisecond just at the rate gave 973 req/s for 1 000
                        delay = max(1, int(n * 1000 / (rate * PACED_MARGIN) - summary["p50_ms_median"]))
                        runs = []
                        for _ in range(repeat):
                            load = os.getloadavg()
                            run = wrk_run(port, bodies_file, script, n, duration, delay)
                            run["load_average_before"] = [round(x, 2) for x in load]
                            runs.append(run)
                            echo(_calculate_line(backend, n, run) + f" (paced: {delay} ms after each answer)")
                        summary = _calculate_summary(backend, n, workers, "wrk", runs) | {
                            "paced_target": rate,
                            "delay_ms": delay,
                        }
                        results.append(summary)
                        echo(calculate_median_line(summary), flush=True)
                finally:
                    stop_server(process)
    return results


def _calculate_summary(backend: str, n: int, workers: int, client: str, runs: list[dict[str, Any]]) -> dict[str, Any]:
    split: dict[str, int] = {}
    for run in runs:
        for worker, count in run["split"].items():
            split[worker] = split.get(worker, 0) + count
    total = sum(split.values()) or 1
    return {
        "backend": backend,
        "connections": n,
        "workers": workers,
        "client": client,
        "runs": runs,
        "req_per_s_median": statistics.median(r["req_per_s"] for r in runs),
        "p50_ms_median": statistics.median(r["latency_ms"]["p50"] for r in runs),
        "p99_ms_median": statistics.median(r["latency_ms"]["p99"] for r in runs),
        "errors": sum(r["errors"] for r in runs),
        "split_share": sorted((round(c / total, 3) for c in split.values()), reverse=True),
        "load_average": statistics.median(r["load_average_before"][0] for r in runs),
    }


def _split_text(split: dict[str, int]) -> str:
    return "/".join(str(c) for c in sorted(split.values(), reverse=True)) or "-"


def _calculate_line(backend: str, n: int, run: dict[str, Any]) -> str:
    lat = run["latency_ms"]
    return (
        f"  {backend:<10} {n:>3} conn: {run['req_per_s']:>8,.0f} req/s, p50 {lat['p50']:.2f} ms, p90 {lat['p90']:.2f}, "
        f"p99 {lat['p99']:.2f}, max {lat['max']:.1f}; errors {run['errors']}; per worker {_split_text(run['split'])}; "
        f"load average {run['load_average_before'][0]}"
    )


def calculate_median_line(r: dict[str, Any]) -> str:
    share = "/".join(f"{100 * x:.0f}%" for x in r["split_share"])
    pace = ""
    if "paced_target" in r:
        pace = f", paced at ~{r['paced_target']:,.0f} req/s ({r['delay_ms']} ms after each answer)"
    return (
        f"POST /v1/calculate, {r['backend']}, {r['connections']} keep-alive connections{pace}, {r['workers']} workers "
        f"({r['client']}): median of {len(r['runs'])} runs {r['req_per_s_median']:,.0f} req/s, p50 "
        f"{r['p50_ms_median']:.2f} ms, p99 {r['p99_ms_median']:.2f} ms; split across workers {share}; errors "
        f"{r['errors']}; load average {r['load_average']}"
    )


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
    parser.add_argument("--calculate", action="store_true", help="POST /v1/calculate only (issue 15)")
    parser.add_argument("--repeat", type=int, default=3, help="--calculate: runs per connection count")
    parser.add_argument("--client", choices=["auto", "wrk", "python"], default="auto", help="--calculate: client")
    parser.add_argument(
        "--paced",
        nargs="*",
        default=["8=1000"],
        metavar="CONNECTIONS=RATE",
        help="--calculate: paced runs after the saturating ones (default 8=1000; none: --paced with no value)",
    )
    args = parser.parse_args()
    if args.calculate:
        given = {a.split("=")[0] for a in sys.argv[1:]}
        connections = args.connections if "--connections" in given else [8, 32]
        duration = args.duration if "--duration" in given else 10
        print(f"load average {os.getloadavg()}", flush=True)
        try:
            paced = {int(k): float(v) for k, v in (item.split("=", 1) for item in args.paced)}
        except ValueError:
            parser.error("--paced: CONNECTIONS=RATE, for example 8=1000")
        found = calculate_benchmark(
            args.backend, connections, duration, args.repeat, args.workers, args.postgres_url, args.client,
            paced=paced,
        )  # fmt: skip
        if args.json:
            args.json.write_text(json.dumps(found, indent=2) + "\n", encoding="utf-8")
        return 0 if found and all(r["errors"] == 0 for r in found) else 1
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
