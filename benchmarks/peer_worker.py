"""The OpenFisca peer's side of ``benchmarks/run.py --peer``: run in the peer's virtual environment.

``python peer_worker.py PEER_DIR N RESULTS.npy`` makes the peer's rows (its ``synthetic.generate(N)``, and the
mixed invoice days of its bench: seed 2021 over 2020-06-01 → 2021-01-20), loads its tax-benefit system, says
``{"ready": …}`` and then, for each line ``one`` or ``mixed`` (``… save``: write the amounts to RESULTS.npy) on
standard input, times one repetition in CPU time and answers ``{"total": s, "calculate": s}``:

- ``one``: ``build_default_simulation`` + ``set_input`` of each input, then ``calculate("bonus", "2020-07-15")``
  (the documented vector path, as the peer's ``bench.py``);
- ``mixed``: one simulation per distinct invoice day (OpenFisca computes one period per ``calculate``), as the
  peer's ``openfisca_per_row_dates``.

The conversion of the generated columns to OpenFisca's dtypes (the peer's ``openfisca_inputs``) is not timed,
as in the peer's own bench; ``set_input`` (which copies each array) is.
"""

from __future__ import annotations

import json
import sys
import time
from datetime import date
from importlib.metadata import version

import numpy as np

PEER, N, RESULTS = sys.argv[1], int(sys.argv[2]), sys.argv[3]
sys.path.insert(0, PEER)

import synthetic  # noqa: E402
from bonus_system import BonusSystem  # noqa: E402
from openfisca_core.simulations import SimulationBuilder  # noqa: E402

DAY = "2020-07-15"
FIRST, LAST = date(2020, 6, 1), date(2021, 1, 20)


def main() -> None:
    inputs = synthetic.openfisca_inputs(synthetic.generate(N))
    rng = np.random.default_rng(2021)
    offsets = rng.integers(0, (LAST - FIRST).days + 1, size=N)
    days = np.datetime64(FIRST) + offsets.astype("timedelta64[D]")
    tbs = BonusSystem()
    info = {"openfisca_core": version("openfisca-core"), "numpy": version("numpy")}
    print(json.dumps({"ready": True, "info": info}), flush=True)
    for line in sys.stdin:
        mode, *flags = line.split()
        if mode == "one":
            timing, amounts = one_day(tbs, inputs)
        else:
            timing, amounts = mixed(tbs, inputs, days)
        if "save" in flags:
            np.save(RESULTS, amounts)
        print(json.dumps({**timing, "info": info}), flush=True)


def one_day(tbs: BonusSystem, inputs: dict[str, np.ndarray]) -> tuple[dict[str, float], np.ndarray]:
    started = time.process_time()
    simulation = SimulationBuilder.build_default_simulation(tbs, N)
    for name, array in inputs.items():
        simulation.set_input(name, "ETERNITY", array)
    built = time.process_time()
    amounts = simulation.calculate("bonus", DAY)
    done = time.process_time()
    return {"total": done - started, "calculate": done - built}, amounts


def mixed(tbs: BonusSystem, inputs: dict[str, np.ndarray], days: np.ndarray) -> tuple[dict[str, float], np.ndarray]:
    calculating = 0.0
    started = time.process_time()
    out = np.empty(N, dtype=np.float32)
    order = np.argsort(days, kind="stable")
    unique, starts = np.unique(days[order], return_index=True)
    bounds = [*starts, N]
    for k, day in enumerate(unique):
        rows = order[bounds[k] : bounds[k + 1]]
        simulation = SimulationBuilder.build_default_simulation(tbs, len(rows))
        for name, array in inputs.items():
            simulation.set_input(name, "ETERNITY", array[rows])
        before = time.process_time()
        out[rows] = simulation.calculate("bonus", str(day))
        calculating += time.process_time() - before
    return {"total": time.process_time() - started, "calculate": calculating}, out


if __name__ == "__main__":
    main()
