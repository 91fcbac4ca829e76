"""vigueur benchmark: `python benchmarks/run.py` (from the repository root, in the venv).

Measures, on a generated mixed batch (every version, every branch, decisive dates over every period —
see benchmarks/generate.py), medians over several runs:

1. in-process, one core: the compiled fast path (:class:`legislation.fast.Engine`) on prebuilt rows, in runs
   alternating with a yardstick of the machine's speed (wall and CPU time, and their ratio), and
   the explained path (:func:`legislation.resolver.calculate`, every step) on prebuilt purchases, with
   a check that both give identical outcomes (status, amount, eligible, version, paragraph);
2. end to end: `vigueur batch --no-reasons` (amounts-only regression runs) on a generated CSV (1 000 000 rows by
   default, in a temporary folder), CSV out, and the same rows as Parquet, Parquet out: wall time (median), rows/s
   and peak memory of the process tree (and on a tenth of the rows, to show that memory does not grow with the
   input); once each: one worker, the row engine (its output compared), the default with every result explained
   (--reasons), and the start-up cost (a one-row input);
3. HTTP: `vigueur serve --workers 2` on loopback, SQLite and PostgreSQL, POST /v1/calculate alone from 8 and 32
   keep-alive connections (benchmarks/load.py --calculate, wrk when installed): requests/s, p50 and p99 latency,
   medians of 3 runs, and the split of the answers across the workers.
4. the auditors' web pages: each page's render time on the server (benchmarks/ui.py), median over runs.

5. columnar (``--peer PATH`` adds the OpenFisca peer): :func:`legislation.columnar.compute` on the same mixed
   batch as 1. (every version, both schemes): results/s in CPU time and the share left to the row engine, and
   identical outcomes to the row engine on every row; with ``--peer ../shared/peers/openfisca-bonus``, vigueur
   and OpenFisca on the same rows (the peer's seeded generator), alternating, in CPU time: one date and mixed
   dates, input building included and calculation only, and the rows whose amounts differ (benchmarks/peer.py).

Options: --quick (smaller sizes), --skip-batch, --skip-http, --skip-ui, --skip-in-process, --peer PATH,
--columnar-rows N, --json FILE (the figures as JSON).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from api.batch.csv_rows import CSV_COLUMNS, CsvPlan, Invalid  # noqa: E402
from api.catalogue.loader import load_catalogue  # noqa: E402
from benchmarks import ui  # noqa: E402
from benchmarks.generate import rows, write_csv  # noqa: E402
from legislation import InvalidDates, Purchase  # noqa: E402
from legislation.columnar import Columnar  # noqa: E402
from legislation.columnar.columns import from_rows  # noqa: E402
from legislation.fast import Engine, Row, explained_outcome  # noqa: E402
from legislation.resolver import calculate  # noqa: E402

VIGUEUR = str(Path(sys.executable).with_name("vigueur"))


def machine() -> dict[str, Any]:
    model = next(
        (line.split(":", 1)[1].strip() for line in _run(["lscpu"]).splitlines() if line.startswith("Model name")),
        platform.processor(),
    )
    return {
        "nproc": os.cpu_count(),
        "cpu": model,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "load_average": os.getloadavg(),
    }


def _run(cmd: list[str]) -> str:
    try:
        return subprocess.run(cmd, capture_output=True, text=True, check=False).stdout
    except OSError:
        return ""


def median_rate(work: Callable[[], int], runs: int) -> tuple[float, list[float]]:
    """Median of ``runs`` timings of ``work`` (which returns how many items it did), as items per second."""
    rates = []
    for _ in range(runs):
        started = time.perf_counter()
        count = work()
        rates.append(count / (time.perf_counter() - started))
    return statistics.median(rates), rates


# -- 1. in-process ------------------------------------------------------------------------------------


def in_process(count: int, explained_count: int, runs: int) -> dict[str, Any]:
    catalogue = load_catalogue()
    plan = CsvPlan(list(CSV_COLUMNS))
    prebuilt: list[Row] = []
    for cells in rows(catalogue, count):
        try:
            prebuilt.append(plan.row([cells.get(c, "") for c in CSV_COLUMNS]))
        except Invalid:
            continue
    engine = Engine(catalogue)
    gc.freeze()  # the prebuilt rows and the catalogue live on: out of the collector's way (as in batch)
    statuses: Counter[str] = Counter()
    for row in prebuilt:  # warm-up, and what the batch is made of
        try:
            statuses.update(o[1] for o in engine.outcomes(row))
        except InvalidDates:
            statuses["invalid_dates"] += 1
    results = sum(statuses.values()) - statuses["invalid_dates"]

    def fast() -> int:
        outcomes = engine.outcomes
        done = 0
        for row in prebuilt:
            try:  # noqa: SIM105 - contextlib.suppress would add a context manager per row to the measured loop
                done += len(outcomes(row))
            except InvalidDates:
                pass
        return done

    engine.fallbacks = 0
    paired = alternating(fast, yardstick(), runs)
    fast_rate, fast_runs = paired["a_per_s"], paired["a_runs"]
    fallback_share = engine.fallbacks / (results * runs)

    sample = prebuilt[:explained_count]
    purchases: list[Purchase] = [row.to_purchase() for row in sample]

    def explained() -> int:
        done = 0
        for purchase in purchases:
            for scheme in purchase.schemes:
                try:
                    calculate(catalogue, purchase, scheme)
                except InvalidDates:
                    continue
                done += 1
        return done

    slow_rate, slow_runs = median_rate(explained, max(1, runs // 2))
    mismatches = 0
    checker = Engine(catalogue)
    for row in sample:
        try:
            fast_out = checker.outcomes(row)
        except InvalidDates:
            continue
        if fast_out != [explained_outcome(catalogue, row, s) for s in row.schemes]:
            mismatches += 1
    return {
        "rows": len(prebuilt),
        "results": results,
        "statuses": dict(statuses),
        "fast_results_per_s": fast_rate,
        "fast_runs": fast_runs,
        "fast_rows_per_s": fast_rate * len(prebuilt) / results,
        "fallback_share": fallback_share,
        "explained_results_per_s": slow_rate,
        "explained_runs": slow_runs,
        "ratio": fast_rate / slow_rate,
        "checked_rows": len(sample),
        "mismatches": mismatches,
        "reference_per_s": paired["b_per_s"],
        # CPU time (time.process_time) of the same alternating runs: what a shared machine distorts least
        "fast_cpu_results_per_s": paired["a_cpu_per_s"],
        "reference_cpu_per_s": paired["b_cpu_per_s"],
        "cpu_ratio": paired["cpu_ratio"],
        "cpu_ratios": paired["cpu_ratios"],
        "compiled_forms": dict(engine.compiled_forms),  # how each version ran: "compiled" or "lean"
    }


def yardstick() -> Callable[[], int]:
    """A yardstick of the machine's speed at the time of the run: the issue's « plain loop over prebuilt
    Decimal objects » — D. 251-7 (2020), 1° to 3°, for 200 000 prebuilt (cost, legal person) pairs, one
    date, no resolution — per second. The machine varies by a third from one minute to the next (shared
    cores); compare the fast path with this figure taken in the same run, in alternating runs (:func:`alternating`)."""
    rng = random.Random(1)
    pairs = [(Decimal(rng.randint(100_000, 9_000_000)) / 100, rng.random() < 0.2) for _ in range(200_000)]
    rate, cent, low, mid = Decimal("0.27"), Decimal("0.01"), Decimal("45000"), Decimal("60000")
    cap_natural, cap_legal, fixed, zero = Decimal("7000"), Decimal("5000"), Decimal("3000"), Decimal("0")

    def loop() -> int:
        out = []
        for cost, legal in pairs:
            if cost < low:
                amount, cap = (cost * rate).quantize(cent, ROUND_HALF_UP), cap_legal if legal else cap_natural
                out.append(cap if amount > cap else amount)
            else:
                out.append(fixed if cost <= mid else zero)
        return len(out)

    return loop


def alternating(a: Callable[[], int], b: Callable[[], int], runs: int) -> dict[str, Any]:
    """``runs`` timings of ``a`` and of ``b`` (each returns how many items it did), alternating which goes first:
    the medians of their rates in wall time and in CPU time (``time.process_time``), and the median of the
    per-pair ratios a / b in CPU time — on a shared machine, what varies least from one minute to the next."""
    wall: dict[str, list[float]] = {"a": [], "b": []}
    cpu: dict[str, list[float]] = {"a": [], "b": []}
    for i in range(runs):
        for key in ("a", "b") if i % 2 == 0 else ("b", "a"):
            work = a if key == "a" else b
            started, started_cpu = time.perf_counter(), time.process_time()
            count = work()
            cpu_time, wall_time = time.process_time() - started_cpu, time.perf_counter() - started
            wall[key].append(count / wall_time)
            cpu[key].append(count / cpu_time)
    ratios = [x / y for x, y in zip(cpu["a"], cpu["b"], strict=True)]
    return {
        "a_per_s": statistics.median(wall["a"]),
        "a_runs": wall["a"],
        "b_per_s": statistics.median(wall["b"]),
        "a_cpu_per_s": statistics.median(cpu["a"]),
        "b_cpu_per_s": statistics.median(cpu["b"]),
        "cpu_ratio": statistics.median(ratios),
        "cpu_ratios": ratios,
    }


# -- 4. columnar --------------------------------------------------------------------------------------------


def columnar(count: int, runs: int) -> dict[str, Any]:
    """The columnar path on the mixed batch of every version (benchmarks/generate.py), both schemes per row as the
    rows ask: results/s in CPU time (median of ``runs``), fallback share, and every row checked against the row
    engine. The columns are built once from the rows (the input building of a caller is its own)."""
    catalogue = load_catalogue()
    plan = CsvPlan(list(CSV_COLUMNS))
    prebuilt: list[Row] = []
    for cells in rows(catalogue, count):
        try:
            prebuilt.append(plan.row([cells.get(c, "") for c in CSV_COLUMNS]))
        except Invalid:
            continue
    columns: dict[str, Any] = dict(from_rows(prebuilt))
    columns["schemes"] = ["|".join(s.value for s in row.schemes) for row in prebuilt]
    engine = Engine(catalogue)
    runner = Columnar(catalogue, engine)
    # the first call traces every version (and records what it finds); the later ones replay the recordings
    started = time.process_time()
    result = runner.compute(columns)  # the result checked below
    first = time.process_time() - started
    timings = []
    for _ in range(runs):
        started = time.process_time()
        later = runner.compute(columns)
        timings.append(time.process_time() - started)
    seconds = statistics.median(timings)
    mismatches = 0
    for i, row in enumerate(prebuilt):
        try:
            expected: Any = engine.outcomes(row)
        except InvalidDates as exc:
            expected = str(exc)
        for computed in (result, later):  # traced, and replayed from the recordings
            got = str(computed.errors[i]) if i in computed.errors else computed.outcomes(i)
            mismatches += got != expected
    return {
        "rows": len(prebuilt),
        "results": result.results,
        "cpu_seconds": timings,
        "results_per_s": result.results / seconds,
        "rows_per_s": len(prebuilt) / seconds,
        "fallback": result.fallback_count,
        "fallback_share": result.fallback_count / result.results,
        "fallback_reasons": dict(result.fallback_reasons.most_common(8)),
        "paths": result.paths,
        "first_call_cpu_seconds": first,
        "first_call_results_per_s": result.results / first,
        "later_paths": later.paths,
        "later_replayed_rows": later.replayed,
        "mismatches": mismatches,
    }


def _print_columnar(r: dict[str, Any]) -> None:
    print(
        f"columnar path, mixed batch of every version: {r['rows']:,} rows, {r['results']:,} results; CPU time, median "
        f"of {len(r['cpu_seconds'])}: {r['results_per_s']:,.0f} results/s ({r['rows_per_s']:,.0f} rows/s)"
    )
    print(
        f"  left to the row engine: {r['fallback']:,} results ({100 * r['fallback_share']:.2f} %); outcomes "
        f"differing from the row engine: {r['mismatches']} (first and later calls); paths traced by the first "
        f"call (each a replay of a calculator in Python): {r['paths']:,}",
        flush=True,
    )
    print(
        f"  the first call (every version traced, and recorded): {r['first_call_results_per_s']:,.0f} results/s; "
        f"the later calls replay the recordings: {r['later_replayed_rows']:,} version-rows replayed, "
        f"{r['later_paths']:,} paths traced"
    )
    for reason, count in r["fallback_reasons"].items():
        print(f"    {count:>8,}  {reason[:150]}")


# -- 2. end to end through `vigueur batch` ----------------------------------------------------------------


class TreeMemory(threading.Thread):
    """Polls the resident memory of a process and its descendants (sum, and the largest one)."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid, self.peak_total, self.peak_single, self.stop = pid, 0, 0, threading.Event()

    def run(self) -> None:
        while not self.stop.wait(0.05):
            sizes = [_rss(p) for p in _tree(self.pid)]
            self.peak_total = max(self.peak_total, sum(sizes))
            self.peak_single = max([self.peak_single, *sizes])


def _tree(pid: int) -> list[int]:
    found, stack = [], [pid]
    while stack:
        p = stack.pop()
        found.append(p)
        try:
            stack.extend(int(x) for x in Path(f"/proc/{p}/task/{p}/children").read_text().split())
        except OSError:
            continue
    return found


def _rss(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def batch_run(source: Path, target: Path, extra: list[str], cache: Path | None = None) -> dict[str, Any]:
    """One `vigueur batch` run, with vigueur's cache directory ``cache`` (compiled kernels, recorded paths)."""
    env = dict(os.environ)
    if cache is not None:
        env["VIGUEUR_CACHE_DIR"] = str(cache)
    # Python's default: the modules' bytecode written once and read after (a sandbox may set this off; measured, it
    # costs a run ~0.1 s of compiling vigueur's modules from source)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    process = subprocess.Popen(
        [VIGUEUR, "batch", str(source), "--out", str(target), *extra], stderr=subprocess.PIPE, text=True, env=env
    )
    memory = TreeMemory(process.pid)
    memory.start()
    _, stderr = process.communicate()
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)  # (its workers included: waited for by the run)
    memory.stop.set()
    memory.join()
    if process.returncode not in (0, 1):
        raise RuntimeError(f"vigueur batch failed ({process.returncode}): {stderr}")
    return {
        "seconds": elapsed,
        # the CPU time of the run's processes, user and system (its wall time on two cores is at least half of it);
        # less moved by the machine's other tenants than the wall time, not unmoved (shared caches and cores)
        "cpu_seconds": after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime,
        "peak_rss_total": memory.peak_total,
        "peak_rss_largest": memory.peak_single,
        "summary": stderr.strip().splitlines()[0] if stderr.strip() else "",
    }


LEAN = ["--no-reasons"]  # the timed runs: amounts-only regression runs


def end_to_end(count: int, runs: int, workdir: Path) -> dict[str, Any]:
    """`vigueur batch` on ``count`` generated rows: CSV → CSV and Parquet → Parquet, the same rows in each Parquet
    layout of :data:`PARQUET_LAYOUTS` (median of ``runs`` each, wall time and peak memory of the process tree), then
    once each: a tenth of the rows (memory does not grow with the
    input), one worker, the row engine, the default with every result explained (--reasons), and a one-row input (the
    start-up). The timed runs are amounts-only regression runs (--no-reasons: `reason` and `missing_facts` filled only
    where they depend on the version and date alone).

    Every run uses a cache directory of the benchmark's own (``VIGUEUR_CACHE_DIR``), empty at first: the first run,
    reported as *cold*, compiles the calculators and traces every path of the columnar engine, and keeps both; the
    timed runs after it find them (*warm*: a run over data whose paths an earlier run of the same catalogue met)."""
    catalogue = load_catalogue()
    source, small = workdir / "batch.csv", workdir / "batch-tenth.csv"
    parquets = {layout: workdir / f"batch-{layout}.parquet" for layout in PARQUET_LAYOUTS}
    one_row = workdir / "batch-one.csv"
    started = time.perf_counter()
    write_csv(catalogue, source, count)
    write_csv(catalogue, small, count // 10, seed=7)
    with source.open(encoding="utf-8") as handle:
        one_row.write_text(handle.readline() + handle.readline(), encoding="utf-8")
    for layout, parquet in parquets.items():
        _csv_to_parquet(source, parquet, layout)
    generated = time.perf_counter() - started
    load_before = os.getloadavg()
    cache = workdir / "cache"
    cold = batch_run(source, workdir / "out-cold.csv", LEAN, cache)  # an empty cache: compiles, traces, keeps
    timings: list[dict[str, Any]] = []
    parquet_timings: dict[str, list[dict[str, Any]]] = {layout: [] for layout in PARQUET_LAYOUTS}
    for _ in range(runs):  # alternating, so that every input meets the same load
        timings.append(batch_run(source, workdir / "out.csv", LEAN, cache))
        for layout, parquet in parquets.items():
            parquet_timings[layout].append(batch_run(parquet, workdir / f"out-{layout}.parquet", LEAN, cache))
    tenth = batch_run(small, workdir / "out-tenth.csv", LEAN, cache)
    one = batch_run(source, workdir / "out-one.csv", [*LEAN, "--workers", "1"], cache)
    rows_engine = batch_run(source, workdir / "out-rows.csv", [*LEAN, "--engine", "rows"], cache)
    reasons = batch_run(source, workdir / "out-reasons.csv", ["--reasons"], cache)
    start_up = [batch_run(one_row, workdir / "out-one-row.csv", LEAN, cache)["seconds"] for _ in range(3)]
    load_after = os.getloadavg()
    with (workdir / "out.csv").open(encoding="utf-8") as handle:
        lines = sum(1 for _ in handle) - 1
    with (workdir / "out-rows.csv").open("rb") as a, (workdir / "out.csv").open("rb") as b:
        same = a.read() == b.read()
    with (workdir / "out-cold.csv").open("rb") as a, (workdir / "out.csv").open("rb") as b:
        cold_same = a.read() == b.read()
    seconds = statistics.median(t["seconds"] for t in timings)
    import pyarrow.parquet as pq

    outputs = [pq.read_table(workdir / f"out-{layout}.parquet") for layout in PARQUET_LAYOUTS]
    parquet_same = all(table.equals(outputs[0]) for table in outputs[1:])
    return {
        "rows": count,
        "input_bytes": source.stat().st_size,
        "output_lines": lines,
        "generation_seconds": generated,
        "load_average": [load_before, load_after],
        "cold_seconds": cold["seconds"],
        "cold_same_output": cold_same,
        "cold_summary": cold["summary"],
        "seconds_median": seconds,
        "seconds_runs": [t["seconds"] for t in timings],
        "cpu_seconds_median": statistics.median(t["cpu_seconds"] for t in timings),
        "rows_per_s": count / seconds,
        "peak_rss_total": max(t["peak_rss_total"] for t in timings),
        "peak_rss_largest": max(t["peak_rss_largest"] for t in timings),
        "parquet": {
            layout: {
                "layout": PARQUET_LAYOUTS[layout],
                "bytes": parquets[layout].stat().st_size,
                "row_groups": pq.ParquetFile(parquets[layout]).metadata.num_row_groups,
                "seconds_median": statistics.median(t["seconds"] for t in found),
                "seconds_runs": [t["seconds"] for t in found],
                "cpu_seconds_median": statistics.median(t["cpu_seconds"] for t in found),
                "peak_rss_total": max(t["peak_rss_total"] for t in found),
                "summary": found[-1]["summary"],
            }
            for layout, found in parquet_timings.items()
        },
        "parquet_same_output": parquet_same,
        "tenth_rows": count // 10,
        "tenth_peak_rss_total": tenth["peak_rss_total"],
        "one_worker_seconds": one["seconds"],
        "rows_engine_seconds": rows_engine["seconds"],
        "rows_engine_same_output": same,
        "reasons_seconds": reasons["seconds"],
        "start_up_seconds": statistics.median(start_up),
        "summary": timings[-1]["summary"],
    }


# The same rows as Parquet, in three layouts (text columns, as a CSV's cells; empty: null): how the row groups are cut
# changes the reading's cost (each column chunk has its own dictionary, pages and decompression), and which process
# reads them (row groups of more than 4 × 65 536 rows are read by the main process: api/cli/batch.py).
PARQUET_LAYOUTS = {
    "streamed": "a row group per 1 MB block of the CSV (~4 500 rows), zstd: a CSV converted batch by batch",
    "row-groups-122880": "row groups of 122 880 rows, snappy: DuckDB's defaults",
    "one-row-group": "pyarrow's write_table defaults, one row group of up to 1 Mi rows, snappy: pandas' to_parquet",
}


def _csv_to_parquet(source: Path, target: Path, layout: str = "streamed") -> None:
    """``source``'s rows written to ``target`` in ``layout`` (:data:`PARQUET_LAYOUTS`)."""
    import pyarrow as pa
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    options = {
        "convert_options": pacsv.ConvertOptions(
            column_types={c: pa.string() for c in CSV_COLUMNS}, strings_can_be_null=True
        ),
        "parse_options": pacsv.ParseOptions(invalid_row_handler=lambda row: "skip"),
    }
    if layout == "streamed":
        reader = pacsv.open_csv(source, **options)
        with pq.ParquetWriter(target, reader.schema, compression="zstd") as writer:
            for batch in reader:
                writer.write_batch(batch)
        return
    table = pacsv.read_csv(source, **options)
    pq.write_table(table, target, row_group_size=122_880 if layout == "row-groups-122880" else None)


# -- 3. HTTP --------------------------------------------------------------------------------------------


def http(duration: float, repeat: int, workers: int) -> dict[str, Any]:
    """`vigueur serve --workers 2` on loopback, SQLite and a scratch PostgreSQL database: POST /v1/calculate alone at
    8 and 32 keep-alive connections, ``repeat`` runs each, medians and the split across workers
    (benchmarks/load.py --calculate: wrk when it is installed, else its asyncio client)."""
    from benchmarks.load import DEFAULT_POSTGRES, calculate_benchmark

    postgres = os.environ.get("TEST_DATABASE_URL") or DEFAULT_POSTGRES
    # and paced at the target's rate at 8 connections: the latency at 1 000 req/s, not only at saturation
    runs = calculate_benchmark(
        ["sqlite", "postgresql"], [8, 32], duration, repeat, workers, postgres, paced={8: 1000.0}
    )
    return {"server_workers": workers, "runs": runs}


# -- report -----------------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes (a quick look, not the figures)")
    parser.add_argument("--skip-batch", action="store_true")
    parser.add_argument("--skip-http", action="store_true")
    parser.add_argument("--skip-ui", action="store_true", help="skip the web pages' render time (benchmarks/ui.py)")
    parser.add_argument("--skip-in-process", action="store_true", help="skip the row engine's in-process figures")
    parser.add_argument("--peer", type=Path, help="the OpenFisca peer's folder (shared/peers/openfisca-bonus)")
    parser.add_argument("--columnar-rows", type=int, help="rows of the columnar mixed batch (default 1 000 000)")
    parser.add_argument("--json", type=Path, help="write the figures here as JSON")
    args = parser.parse_args()
    quick = args.quick
    report: dict[str, Any] = {"machine": machine()}
    print(f"machine: {report['machine']}", flush=True)
    if not args.skip_in_process:
        report["in_process"] = in_process(40_000 if quick else 200_000, 2_000 if quick else 10_000, 3 if quick else 5)
        _print_in_process(report["in_process"])
    columnar_rows = args.columnar_rows or (100_000 if quick else 1_000_000)
    report["columnar"] = columnar(columnar_rows, 3 if quick else 5)
    _print_columnar(report["columnar"])
    if args.peer is not None:
        from benchmarks.peer import compare, print_report

        with tempfile.TemporaryDirectory(prefix="vigueur-peer-") as tmp:
            n = 100_000 if quick else 1_000_000
            report["peer"] = compare(load_catalogue(), args.peer.resolve(), n, n, 3 if quick else 7, Path(tmp))
        print_report(report["peer"])
    with tempfile.TemporaryDirectory(prefix="vigueur-bench-") as tmp:
        if not args.skip_batch:
            report["batch"] = end_to_end(100_000 if quick else 1_000_000, 1 if quick else 3, Path(tmp))
            _print_batch(report["batch"])
        if not args.skip_http:
            report["http"] = http(5 if quick else 10, 1 if quick else 3, 2)
            _print_http(report["http"])
    if not args.skip_ui:
        report["ui"] = ui.measure(7 if quick else 21)
        ui.print_report(report["ui"])
    if args.json:
        args.json.write_text(json.dumps(report, indent=2, default=str) + "\n", encoding="utf-8")


def _print_in_process(r: dict[str, Any]) -> None:
    print(f"in-process, one core: {r['rows']:,} rows, {r['results']:,} results {r['statuses']}")
    print(
        f"  fast path      {r['fast_results_per_s']:>12,.0f} results/s ({r['fast_rows_per_s']:,.0f} rows/s); "
        f"{100 * r['fallback_share']:.2f} % of results by the explained path"
    )
    print(f"  explained path {r['explained_results_per_s']:>12,.0f} results/s; fast / explained = {r['ratio']:.0f}×")
    print(f"  identical outcomes on {r['checked_rows']:,} rows: {r['mismatches']} mismatches")
    print(
        f"  yardstick: a plain loop over prebuilt Decimals (D. 251-7 2020, 1°-3°, one date, no resolution): "
        f"{r['reference_per_s']:,.0f} /s",
        flush=True,
    )
    forms = r.get("compiled_forms", {})
    lean = sorted(v for v, form in forms.items() if form != "compiled")
    print(
        f"  CPU time, the same alternating runs: fast path {r['fast_cpu_results_per_s']:,.0f} results/s, yardstick "
        f"{r['reference_cpu_per_s']:,.0f} /s, ratio {r['cpu_ratio']:.3f} (median of the pairs' ratios: "
        f"{', '.join(f'{x:.3f}' for x in r['cpu_ratios'])})",
        flush=True,
    )
    print(
        f"  fast path / yardstick = {r['fast_results_per_s'] / r['reference_per_s']:.3f} (wall); "
        f"{len(forms) - len(lean)} of {len(forms)} calculators compiled from their source"
        + (f" (run as written: {', '.join(lean)})" if lean else ""),
        flush=True,
    )


def _print_batch(r: dict[str, Any]) -> None:
    mb = 1 << 20
    load = ", ".join(f"{a[0]:.1f}" for a in r["load_average"])
    print(
        f"vigueur batch: {r['rows']:,} rows (CSV {r['input_bytes'] / mb:.0f} MB) → {r['output_lines']:,} result lines; "
        f"load average (1 min) before, after: {load}"
    )
    print(
        f"  CSV → CSV, cold (empty cache: calculators compiled, every path traced) {r['cold_seconds']:.2f} s "
        f"(same output as warm: {r['cold_same_output']}); {r['cold_summary']}"
    )
    print(
        f"  CSV → CSV, warm   median {r['seconds_median']:.2f} s over {[round(x, 2) for x in r['seconds_runs']]} → "
        f"{r['rows_per_s']:,.0f} rows/s; CPU {r['cpu_seconds_median']:.2f} s (user and system, every process of "
        f"the run; median); peak RSS of the process tree {r['peak_rss_total'] / mb:.0f} MB "
        f"(largest process {r['peak_rss_largest'] / mb:.0f} MB; on {r['tenth_rows']:,} rows: "
        f"{r['tenth_peak_rss_total'] / mb:.0f} MB)"
    )
    for found in r["parquet"].values():
        print(
            f"  Parquet → Parquet, warm median {found['seconds_median']:.2f} s over "
            f"{[round(x, 2) for x in found['seconds_runs']]}; CPU {found['cpu_seconds_median']:.2f} s; "
            f"peak RSS {found['peak_rss_total'] / mb:.0f} MB — "
            f"{found['layout']} ({found['row_groups']} row group{'s' if found['row_groups'] != 1 else ''}, "
            f"{found['bytes'] / mb:.0f} MB)"
        )
    print(f"  the same Parquet output from every layout: {r['parquet_same_output']}")
    print(
        f"  once: one worker {r['one_worker_seconds']:.2f} s; --engine rows {r['rows_engine_seconds']:.2f} s "
        f"(same output: {r['rows_engine_same_output']}); default (--reasons) {r['reasons_seconds']:.2f} s; "
        f"start-up (one row) {r['start_up_seconds']:.2f} s"
    )
    print(f"  {r['summary']}")
    for found in r["parquet"].values():
        print(f"  {found['summary']}", flush=True)


def _print_http(r: dict[str, Any]) -> None:
    from benchmarks.load import calculate_median_line

    for run in r["runs"]:
        print(calculate_median_line(run), flush=True)


if __name__ == "__main__":
    main()
