"""vigueur against the OpenFisca peer (``shared/peers/openfisca-bonus``) on the same rows, in the same run.

The peer's own seeded generator (``synthetic.generate``) makes the rows; the peer runs in its own virtual
environment (``build/peer-venv``, made here from its ``requirements.txt``) in a worker process
(``benchmarks/peer_worker.py``) that answers one timed repetition per request, so that the repetitions of the
two engines alternate. Both are timed in CPU time (``time.process_time``): the machine's two cores are shared.

- **one date** (2020-07-15): OpenFisca's ``build_default_simulation`` + ``set_input`` + ``calculate`` against
  vigueur's columns built from the same arrays + :func:`legislation.columnar.compute`; and the calculation alone
  on each side (``calculate`` / ``compute`` on prebuilt columns);
- **mixed dates**: each row its own invoice day over the peer's 234 days (2020-06-01 → 2021-01-20), the peer's
  offsets (seed 2021); OpenFisca computes one simulation per distinct day, as its bench does.

Every amount is compared: a row differs when the two amounts are not the same number of cents (OpenFisca's
float32 rounded to the cent).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
import venv
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np

from legislation import Catalogue
from legislation.columnar import MEMBERS, Columnar
from legislation.enums import Acquisition, Energy, PersonKind, PowerBasis, Scheme, VehicleCategory

ROOT = Path(__file__).resolve().parent.parent
WORKER = Path(__file__).resolve().with_name("peer_worker.py")
PEER_VENV = ROOT / "build" / "peer-venv"
ONE_DAY = date(2020, 7, 15)
FIRST, LAST = date(2020, 6, 1), date(2021, 1, 20)


def _code(field: str, member: Any) -> int:
    return MEMBERS[field].index(member)


# The peer's category indices (synthetic.py: PASSENGER_CAR, VAN, TWO_THREE_WHEELER, M2_N2_LIGHT = 0…3).
CATEGORIES = np.array(
    [
        _code("vehicle_category", c)
        for c in (
            VehicleCategory.PASSENGER_CAR,
            VehicleCategory.VAN,
            VehicleCategory.TWO_THREE_WHEELER,
            VehicleCategory.LIGHT_M2_N2,
        )
    ],
    dtype=np.int8,
)


ENERGIES = np.array(
    [
        _code("vehicle_energy", e)
        for e in (Energy.ELECTRIC, Energy.PETROL_ELECTRIC_HYBRID, Energy.PETROL, Energy.HYDROGEN)
    ],
    dtype=np.int8,
)


# The peer's is_legal_person (False, True) as buyer_person_kind codes.
PERSONS = np.array(
    [_code("buyer_person_kind", PersonKind.NATURAL_PERSON), _code("buyer_person_kind", PersonKind.LEGAL_PERSON)],
    dtype=np.int8,
)


def peer_venv(peer: Path) -> Path:
    """The peer's interpreter: ``build/peer-venv`` with the peer's requirements (made once)."""
    python = PEER_VENV / "bin" / "python"
    if not python.exists():
        print(f"making {PEER_VENV} and installing {peer / 'requirements.txt'} …", flush=True)
        venv.create(PEER_VENV, with_pip=True)
        subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", "-r", str(peer / "requirements.txt")], check=True
        )
    found = subprocess.run(
        [str(python), "-c", "from importlib.metadata import version as v; print(v('openfisca-core'), v('numpy'))"],
        capture_output=True,
        text=True,
        check=False,
    )
    if found.returncode != 0:
        raise RuntimeError(f"openfisca-core is not importable in {PEER_VENV}: {found.stderr.strip()}")
    print(f"peer venv {PEER_VENV}: openfisca-core {found.stdout.split()[0]}, numpy {found.stdout.split()[1]}")
    return python


def generate(peer: Path, n: int) -> tuple[dict[str, np.ndarray[Any, Any]], np.ndarray[Any, Any]]:
    """The peer's rows (its seeded ``synthetic.generate``) and its mixed invoice days (its seed 2021)."""
    sys.path.insert(0, str(peer))
    try:
        import synthetic  # type: ignore[import-not-found]  # the peer's generator, read from its folder
    finally:
        sys.path.remove(str(peer))
    columns = synthetic.generate(n)
    rng = np.random.default_rng(2021)
    offsets = rng.integers(0, (LAST - FIRST).days + 1, size=n)
    days = np.datetime64(FIRST) + offsets.astype("timedelta64[D]")
    return columns, days


def vigueur_columns(peer: dict[str, np.ndarray[Any, Any]], days: np.ndarray[Any, Any]) -> dict[str, Any]:
    """The input building: vigueur's columns (codes, cents, thousandths) from the peer's arrays."""
    n = len(peer["acquisition_cost"])
    category = np.take(CATEGORIES, peer["category"])  # np.take: half the time of an index of a small table
    phev = peer["is_plug_in_hybrid"]
    thermal = (peer["category"] <= 1) & ~phev & (peer["co2_g_per_km"] > 0)
    # the energy by a table: 0 electric, 1 plug-in hybrid, 2 thermal, 3 hydrogen (one of them at most)
    kind = phev.view(np.uint8) + thermal.view(np.uint8) * np.uint8(2) + peer["is_hydrogen"].view(np.uint8) * np.uint8(3)
    energy = np.take(ENERGIES, kind)
    person = np.take(PERSONS, peer["is_legal_person"].view(np.uint8))
    return {
        "acquisition": np.full(n, _code("acquisition", Acquisition.PURCHASE), dtype=np.int8),
        "invoice_date": days,
        "vehicle_category": category,
        "vehicle_energy": energy,
        # int32 where the values fit (the columns take any integer width; the trace widens where needed)
        "vehicle_co2_g_per_km": peer["co2_g_per_km"],
        "vehicle_acquisition_cost": peer["acquisition_cost"].astype(np.int32) * np.int32(100),  # euros → cents
        "vehicle_battery_rental_cost": peer["battery_rental_cost"].astype(np.int32) * np.int32(100),
        "vehicle_battery_energy_kwh": peer["battery_kwh_tenths"].astype(np.int32) * np.int32(100),  # → thousandths
        "vehicle_net_max_power_kw": peer["net_max_power_kw_tenths"].astype(np.int32) * np.int32(100),
        "vehicle_power_basis": np.full(n, _code("vehicle_power_basis", PowerBasis.REGULATION_EU_168_2013), np.int8),
        "vehicle_uses_lead_battery": peer["lead_acid_battery"],
        "vehicle_city_electric_range_km": peer["city_electric_range_km"].astype(np.int32) * np.int32(1000),  # → m
        "vehicle_previously_registered": np.zeros(n, dtype=np.bool_),
        "buyer_person_kind": person,
    }


class Worker:
    """The peer in its own interpreter: one timed repetition per request (JSON lines)."""

    def __init__(self, python: Path, peer: Path, n: int, results: Path) -> None:
        self.process = subprocess.Popen(
            [str(python), str(WORKER), str(peer), str(n), str(results)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )
        self.ready = self._answer()

    def _answer(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("the peer worker stopped")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def run(self, mode: str) -> dict[str, Any]:
        assert self.process.stdin is not None
        self.process.stdin.write(mode + "\n")
        self.process.stdin.flush()
        return self._answer()

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=60)


def _vigueur(columnar: Columnar, columns: dict[str, Any], days: np.ndarray[Any, Any]) -> tuple[float, float]:
    """One repetition: the input building, then the bonus of every row (CPU seconds of each)."""
    started = time.process_time()
    built = vigueur_columns(columns, days)
    middle = time.process_time()
    columnar.compute(built, schemes=(Scheme.BONUS,))
    return middle - started, time.process_time() - middle


def differing(peer_euros: np.ndarray[Any, Any], cents: np.ndarray[Any, Any], known: np.ndarray[Any, Any]) -> int:
    """Rows whose amounts are not the same number of cents (an unknown vigueur amount differs from any)."""
    theirs = np.rint(peer_euros.astype(np.float64) * 100).astype(np.int64)
    return int(((theirs != cents) | ~known).sum())


def compare(catalogue: Catalogue, peer: Path, n: int, mixed_n: int, reps: int, workdir: Path) -> dict[str, Any]:
    """Both engines on the same rows, alternating repetitions; medians and the median of the pairs' ratios."""
    python = peer_venv(peer)
    columnar = Columnar(catalogue)
    report: dict[str, Any] = {"rows": n, "mixed_rows": mixed_n}
    for mode, size in (("one", n), ("mixed", mixed_n)):
        columns, mixed_days = generate(peer, size)
        days = np.full(size, np.datetime64(ONE_DAY), dtype="datetime64[D]") if mode == "one" else mixed_days
        worker = Worker(python, peer, size, workdir / f"peer-{mode}.npy")
        try:
            built = vigueur_columns(columns, days)
            result = columnar.compute(built, schemes=(Scheme.BONUS,))  # warm-up, and the amounts compared
            bonus = result.schemes.index(Scheme.BONUS)
            theirs = worker.run(f"{mode} save")
            peer_amounts = np.load(workdir / f"peer-{mode}.npy")
            pairs: list[dict[str, float]] = []
            for i in range(reps):
                order = ("peer", "vigueur") if i % 2 == 0 else ("vigueur", "peer")
                pair: dict[str, float] = {}
                for who in order:
                    if who == "peer":
                        timing = worker.run(mode)
                        pair["peer_total"], pair["peer_calc"] = timing["total"], timing["calculate"]
                    else:
                        build_s, calc_s = _vigueur(columnar, columns, days)
                        pair["vigueur_total"], pair["vigueur_calc"] = build_s + calc_s, calc_s
                pairs.append(pair)
        finally:
            worker.close()
        report[mode] = {
            "peer": theirs.get("info", {}),
            "differing_rows": differing(peer_amounts, result.amount[bonus], result.amount_known[bonus]),
            "fallback": result.fallback_count,
            "fallback_reasons": dict(result.fallback_reasons),
            "distinct_days": int(len(np.unique(days))),
            "pairs": pairs,
            **{
                f"{who}_{what}_per_s": statistics.median(size / p[f"{who}_{what}"] for p in pairs)
                for who in ("peer", "vigueur")
                for what in ("total", "calc")
            },
            "ratio_total": statistics.median(p["peer_total"] / p["vigueur_total"] for p in pairs),
            "ratio_calc": statistics.median(p["peer_calc"] / p["vigueur_calc"] for p in pairs),
        }
    return report


def print_report(r: dict[str, Any]) -> None:
    for mode, title in (("one", "one invoice date (2020-07-15)"), ("mixed", "mixed invoice dates")):
        m = r[mode]
        size = r["rows"] if mode == "one" else r["mixed_rows"]
        print(
            f"vs OpenFisca {m['peer'].get('openfisca_core', '?')}, {title}: {size:,} rows "
            f"({m['distinct_days']} distinct days), CPU time, median of {len(m['pairs'])} alternating pairs"
        )
        print(
            f"  input building included: vigueur {m['vigueur_total_per_s']:,.0f} rows/s, OpenFisca "
            f"{m['peer_total_per_s']:,.0f} rows/s → vigueur / OpenFisca = {m['ratio_total']:.2f}"
        )
        print(
            f"  calculation only:        vigueur {m['vigueur_calc_per_s']:,.0f} rows/s, OpenFisca "
            f"{m['peer_calc_per_s']:,.0f} rows/s → vigueur / OpenFisca = {m['ratio_calc']:.2f}"
        )
        print(
            f"  rows differing by a cent or more: {m['differing_rows']}; vigueur results left to the row engine: "
            f"{m['fallback']}",
            flush=True,
        )
