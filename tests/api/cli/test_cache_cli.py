"""`vigueur cache info` / `vigueur cache clear`: what the runs keep, and emptying it without touching anything else."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from api.cli.main import app as cli


def _run(*args: str) -> dict[str, object]:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def test_info_then_clear(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = tmp_path / "cache"
    monkeypatch.setenv("VIGUEUR_CACHE_DIR", str(cache))
    empty = _run("cache", "info")
    assert empty["directory"] == str(cache) and empty["enabled"] is True
    assert {k: v["files"] for k, v in empty["kinds"].items()} == {  # type: ignore[union-attr]
        "kernels": 0,
        "catalogue": 0,
        "paths": 0,
        "memos": 0,
    }
    source = tmp_path / "in.csv"
    source.write_text(
        "id,acquisition,invoice_date,vehicle_category,vehicle_energy,vehicle_co2_g_per_km,vehicle_acquisition_cost,"
        "buyer_person_kind\nA,purchase,2020-07-15,passenger_car,electric,0,20000.00,natural_person\n",
        encoding="utf-8",
    )
    done = CliRunner().invoke(cli, ["batch", str(source), "--out", str(tmp_path / "out.csv"), "--quiet"])
    assert done.exit_code == 0, done.output
    # (the kernels are written only where this process compiled them: an earlier test may have, so one is added)
    (cache / "kernels").mkdir(exist_ok=True)
    (cache / "kernels" / "0123456789abcdef.form").write_bytes(b"an entry")
    full = _run("cache", "info")
    files = {k: v["files"] for k, v in full["kinds"].items()}  # type: ignore[union-attr]
    assert files["kernels"] >= 1 and files["catalogue"] == 1 and files["paths"] == 1 and files["memos"] == 1, files
    (cache / "paths" / "notes.txt").write_text("not the cache's")  # another file there: never removed
    cleared = _run("cache", "clear")
    assert cleared["removed"] == files
    assert (cache / "paths" / "notes.txt").exists()
    after = _run("cache", "info")
    assert all(v["files"] == 0 for v in after["kinds"].values())  # type: ignore[union-attr]


def test_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VIGUEUR_CACHE_DIR", "off")
    assert _run("cache", "info") == {"directory": None, "enabled": False}
    assert _run("cache", "clear") == {
        "directory": None,
        "removed": {"kernels": 0, "catalogue": 0, "paths": 0, "memos": 0},
    }
