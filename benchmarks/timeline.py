"""The amount timeline's speed: `python benchmarks/timeline.py` (from the repository root, in the venv).

One purchase, both schemes, a 10-year window of invoice dates (2014-01-01 → 2024-01-01): the segments
(:func:`legislation.segments.amount_timeline`), then the same with the advice and the order-date what-ifs,
median over runs, in one process on one core (CPython runs it in one thread). The engine is built once per
catalogue (as in a server process); its build is measured apart. Two purchases: the README's 2015 hybrid
(both schemes asked) and a 2021-style conversion with a scrapped vehicle, whose date conditions (age of the
scrapped car, time owned, destruction window, a first registration less than six months old) add
breakpoints.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from dataclasses import replace
from datetime import date
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from api.catalogue.loader import load_catalogue  # noqa: E402
from api.purchase.render import to_purchase  # noqa: E402
from api.purchase.request import parse_request  # noqa: E402
from legislation import Energy, Purchase, Scheme, ScrappedVehicle  # noqa: E402
from legislation.advice import order_what_ifs, timeline_advice  # noqa: E402
from legislation.fast import Engine  # noqa: E402
from legislation.row import Row  # noqa: E402
from legislation.segments import amount_timeline, breakpoints  # noqa: E402

START, UNTIL = date(2014, 1, 1), date(2024, 1, 1)


def purchases() -> dict[str, Purchase]:
    hybrid = to_purchase(parse_request((ROOT / "examples" / "timeline-2015-hybrid.json").read_bytes()))
    hybrid = replace(hybrid, schemes=tuple(Scheme))
    scrapped = replace(
        hybrid,
        order_date=date(2014, 12, 20),
        vehicle=replace(hybrid.vehicle, energy=Energy.ELECTRIC, co2_g_per_km=0, acquisition_cost=Decimal("25000"),
                        first_registration_date=date(2015, 2, 1)),  # fmt: skip
        scrapped_vehicle=ScrappedVehicle(
            energy=Energy.DIESEL, first_registration_date=date(2000, 3, 31), owned_since=date(2014, 5, 31),
            destruction_date=date(2015, 3, 31),
        ),  # fmt: skip
    )
    return {"2015 hybrid, both schemes": hybrid, "electric car with a scrapped diesel, both schemes": scrapped}


def median_ms(work: object, runs: int) -> tuple[float, float, float]:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        work()  # type: ignore[operator]
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times), min(times), max(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=201)
    args = parser.parse_args()
    catalogue = load_catalogue()
    t0 = time.perf_counter()
    engine = Engine(catalogue)
    build = (time.perf_counter() - t0) * 1000
    print(f"load average {os.getloadavg()[0]:.2f}; Python {sys.version.split()[0]}; engine built in {build:.1f} ms")
    print(f"window {START} → {UNTIL} (10 years), median of {args.runs} runs (min, max)")
    for label, purchase in purchases().items():
        base = replace(Row.from_purchase(purchase), source=None, invoice_date=START)
        points = [p for p in breakpoints(catalogue, base) if START < p < UNTIL]
        timeline = amount_timeline(catalogue, purchase, START, UNTIL, engine)
        segments = sum(len(s) for s in timeline.segments.values())

        def segments_only(p: Purchase = purchase) -> None:
            amount_timeline(catalogue, p, START, UNTIL, engine)

        def with_advice(p: Purchase = purchase) -> None:
            found = amount_timeline(catalogue, p, START, UNTIL, engine)
            timeline_advice(found)
            order_what_ifs(catalogue, p, found, engine)

        seg = median_ms(segments_only, args.runs)
        adv = median_ms(with_advice, args.runs)
        print(f"- {label}: {len(points)} candidate breakpoints → {segments} segments")
        print(f"    segments:                     {seg[0]:6.2f} ms  ({seg[1]:.2f}, {seg[2]:.2f})")
        print(f"    segments + advice + what-ifs: {adv[0]:6.2f} ms  ({adv[1]:.2f}, {adv[2]:.2f})")


if __name__ == "__main__":
    main()
