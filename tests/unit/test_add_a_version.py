"""README « How to add a decree version », followed from start to finish in a temporary catalogue.

A numbers-only version is data only: three files created (text.txt, version.toml, its cases) and one line
edited (the amended version's ``valid_until``). The version below is a **test fixture, not law**: a copy of
D. 251-7 in the wording of décret n° 2017-196 whose 1° a) cap is changed from 6 000 € to 6 300 € from
2017-07-01, so that the test can tell the new numbers from the old ones.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from api.catalogue.loader import DEFAULT_VERSIONS_DIR
from api.cli.main import app

AMENDED, NEW = "D251-7.2017-02-19", "D251-7.2017-07-01"

CASES = f"""\
cases:
- id: fixture-2017-07-cap
  title: 'Electric car at 30 000 €, invoiced 2017-07-01: the new 6 300 € cap binds'
  source:
    paragraph: C. énergie, art. D. 251-7, 1° a)
  request:
    acquisition: purchase
    invoice_date: 2017-07-01
    schemes: [bonus]
    vehicle: {{category: passenger_car, energy: electric, co2_g_per_km: 0, acquisition_cost: '30000.00'}}
    buyer: {{person_kind: natural_person}}
  expected:
    bonus: {{amount: '6300.00', eligible: true, version_id: {NEW}, status: computed}}
  notes: 27 % × 30 000 = 8 100 > 6 300 (« sans être supérieur à 6 300 euros ») → 6 300.00 €.
- id: fixture-2017-06-30-old-cap
  title: 'The day before: the amended version, 6 000 €'
  source:
    paragraph: C. énergie, art. D. 251-7, 1° a)
  request:
    acquisition: purchase
    invoice_date: 2017-06-30
    schemes: [bonus]
    vehicle: {{category: passenger_car, energy: electric, co2_g_per_km: 0, acquisition_cost: '30000.00'}}
    buyer: {{person_kind: natural_person}}
  expected:
    bonus: {{amount: '6000.00', eligible: true, version_id: {AMENDED}, status: computed}}
  notes: 27 % × 30 000 = 8 100 > 6 000 → 6 000.00 €.
"""


def replace_once(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) >= 1, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_a_numbers_only_version_is_three_files_and_one_line(tmp_path: Path) -> None:
    versions = tmp_path / "versions"
    shutil.copytree(DEFAULT_VERSIONS_DIR, versions)
    before = {p.relative_to(versions) for p in versions.rglob("*") if p.is_file()}

    # 1. text.txt (here: the amended wording with the fixture's new cap).
    folder = versions / NEW
    folder.mkdir()
    text = (versions / AMENDED / "text.txt").read_bytes().replace(b"6 000 euros", b"6 300 euros")
    (folder / "text.txt").write_bytes(text)
    # 2. version.toml: the amended version's, with its id, dates and numbers changed.
    shutil.copy(versions / AMENDED / "version.toml", folder / "version.toml")
    toml = folder / "version.toml"
    replace_once(toml, f'id = "{AMENDED}"', f'id = "{NEW}"')
    replace_once(toml, "valid_from = 2017-02-19", "valid_from = 2017-07-01")
    replace_once(toml, 'ev_cap = { value = "6000"', 'ev_cap = { value = "6300"')
    replace_once(toml, "6 000 euros", "6 300 euros")
    # 3. its cases.
    cases = tmp_path / f"{NEW}.yaml"
    cases.write_text(CASES, encoding="utf-8")
    # 4. one line edited: the amended version now ends where the new one starts.
    replace_once(versions / AMENDED / "version.toml", "valid_until = 2018-01-01", "valid_until = 2017-07-01")

    after = {p.relative_to(versions) for p in versions.rglob("*") if p.is_file()}
    assert after - before == {Path(NEW, "text.txt"), Path(NEW, "version.toml")}

    # 5. check: the tree loads, the new version is on the timeline, its cases pass.
    runner = CliRunner()
    listed = runner.invoke(app, ["versions", "--scheme", "bonus", "--versions-dir", str(versions), "--json"])
    assert listed.exit_code == 0, listed.output
    assert NEW in json.dumps(json.loads(listed.stdout))
    run = runner.invoke(app, ["cases", "run", str(cases), "--versions-dir", str(versions), "--no-progress"])
    assert run.exit_code == 0, run.output
    assert "2 cases: 2 passed, 0 failed, 0 errors" in run.output
