"""The auditors' pages' render time on the server: `python benchmarks/ui.py` (from the repository root, in the
venv); `benchmarks/run.py` calls it too (skip with --skip-ui).

The application is started in process with its lifespan (a new SQLite database in a temporary folder, filled
from versions/ on start, as `vigueur serve` does) and each page is asked through the ASGI interface: no socket,
no browser. Each page is asked once to warm up (the first request builds what a server process keeps: the
batch engine of the amount timeline, the run of the case corpus), then ``--runs`` times. The figure is the
server's own time for the page, from the route's start to the HTML rendered (the ``Server-Timing: render``
header the pages send), median and 90th percentile, in wall time; the round trip through the ASGI stack is given
beside it, in wall time and in CPU time of the process (client and server: an upper bound of the server's CPU,
which a loaded machine does not inflate as it inflates wall time).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from api.web.forms import README_REQUEST, from_request  # noqa: E402

REPLAY = "receipt replay"
HYBRID = urlencode(from_request(README_REQUEST))
PAGES = {
    "home": "/",
    "home, a date picked": "/?on=2015-03-31",
    "version (text, quotes)": "/versions/decret-2014-1672-art3.2015-01-01",
    "version, cited paragraph": "/versions/decret-2014-1672-art3.2015-01-01?p=1%C2%B0%20a%29%2C%202e%20alin%C3%A9a",
    "diff across the codification": "/versions/decret-2014-1672-art3.2015-01-01/diff/D251-7.2017-01-01",
    "calculator, 2015 hybrid": f"/calculate?{HYBRID}",
    "date change, 2015 hybrid": f"/timeline?{HYBRID}&from=2014-12-20&until=2016-01-01",
    "parameter history ev_cap": "/parameters/ev_cap",
    "parameters": "/parameters",
    "cases (corpus run kept)": "/cases",
}


def _render_ms(headers: Any) -> float:
    timing = headers.get("server-timing", "")
    return float(timing.split("dur=", 1)[1]) if "dur=" in timing else float("nan")


def measure(runs: int = 21) -> dict[str, Any]:
    """Median and 90th percentile of each page's render time (ms), and of its in-process round trip."""
    from fastapi.testclient import TestClient

    with tempfile.TemporaryDirectory(prefix="vigueur-ui-") as tmp:
        os.environ["VIGUEUR_DATABASE_URL"] = f"sqlite:///{Path(tmp) / 'vigueur.db'}"
        from api.http.app import create_app

        with TestClient(create_app()) as client:
            receipt = client.post("/receipts", data=dict(from_request(README_REQUEST)), follow_redirects=False)
            pages = dict(PAGES)
            pages["receipt"] = receipt.headers["location"]
            pages[REPLAY] = receipt.headers["location"] + "/replay"
            out: dict[str, Any] = {}
            for name, url in pages.items():
                first = time.perf_counter()
                warm = client.get(url)
                assert warm.status_code == 200, (url, warm.status_code)
                cold_ms = (time.perf_counter() - first) * 1000
                render, trip, cpu = [], [], []
                for _ in range(runs):
                    started, cpu_started = time.perf_counter(), time.process_time()
                    answer = client.get(url)
                    trip.append((time.perf_counter() - started) * 1000)
                    cpu.append((time.process_time() - cpu_started) * 1000)
                    render.append(_render_ms(answer.headers))
                out[name] = {
                    "url": url,
                    "bytes": len(warm.content),
                    "first_ms": round(cold_ms, 1),
                    "render_median_ms": round(statistics.median(render), 1),
                    "render_p90_ms": round(statistics.quantiles(render, n=10)[-1], 1),
                    "round_trip_median_ms": round(statistics.median(trip), 1),
                    "round_trip_cpu_median_ms": round(statistics.median(cpu), 1),
                }
            api_trip = []
            for _ in range(runs):
                started = time.perf_counter()
                client.post(f"/v1{pages['receipt']}/replay")
                api_trip.append((time.perf_counter() - started) * 1000)
    return {
        "runs": runs,
        "load_average": os.getloadavg(),
        "pages": out,
        "api_replay_round_trip_median_ms": round(statistics.median(api_trip), 1),
    }


def print_report(report: dict[str, Any]) -> None:
    print(f"pages rendered on the server, median of {report['runs']} runs (load average {report['load_average']}):")
    for name, r in report["pages"].items():
        print(
            f"  {name:<32} render {r['render_median_ms']:>7.1f} ms (p90 {r['render_p90_ms']:>7.1f}), "
            f"round trip {r['round_trip_median_ms']:>7.1f} ms (CPU {r['round_trip_cpu_median_ms']:>6.1f}), "
            f"first {r['first_ms']:>8.1f} ms, {r['bytes']:,} bytes"
        )
    api_replay = report["api_replay_round_trip_median_ms"]
    print(f"  (POST /v1/receipts/{{id}}/replay, the JSON of the replay: {api_replay} ms)")
    pages = {n: r for n, r in report["pages"].items() if n != REPLAY}
    worst = max(pages, key=lambda n: pages[n]["render_median_ms"])
    print(f"  slowest page median: {pages[worst]['render_median_ms']:.1f} ms, {worst} (target: under 100 ms; the "
          "replay recomputes twice, one catalogue rebuilt from the database, as the API's replay does)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    print_report(measure(parser.parse_args().runs))


if __name__ == "__main__":
    main()
