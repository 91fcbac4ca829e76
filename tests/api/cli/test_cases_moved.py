"""`vigueur cases moved`: a change to a version shows exactly which cases it moves."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import yaml
from typer.testing import CliRunner

from api.cli.main import app

ROOT = Path(__file__).resolve().parents[3]
VERSIONS, CORPUS = ROOT / "versions", ROOT / "tests" / "regression"
FILE_2020 = CORPUS / "bonus_2020_06_01.yaml"
runner = CliRunner()


def run(*args: str | Path):  # type: ignore[no-untyped-def]
    result = runner.invoke(app, ["cases", "moved", *map(str, args)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def lowered_cap(tmp_path: Path) -> Path:
    """versions/ with the natural-person cap of D. 251-7 (2020) 1° changed from 7 000 to 6 000 €."""
    changed = tmp_path / "versions"
    shutil.copytree(VERSIONS, changed)
    toml = changed / "D251-7.2020-06-01" / "version.toml"
    text = toml.read_text(encoding="utf-8")
    assert 'ev_cap_natural = { value = "7000"' in text
    # the value and the words that say it (text and quotes): the loader proves each number against its quote
    text = text.replace('ev_cap_natural = { value = "7000"', 'ev_cap_natural = { value = "6000"')
    toml.write_text(text.replace("dans la limite de 7 000 euros", "dans la limite de 6 000 euros"), "utf-8")
    words = changed / "D251-7.2020-06-01" / "text.txt"
    words.write_bytes(
        words.read_bytes().replace(b"dans la limite de 7 000 euros", b"dans la limite de 6 000 euros")
    )
    return changed


def test_the_cases_a_lowered_cap_moves_are_listed_exactly(tmp_path: Path) -> None:
    # The cases the change must move are those the corpus expects at the 7 000 € cap of 1° (a natural
    # person, 27 % of the cost ≥ 7 000 €): read from the case files, whose amounts were computed by hand.
    cases = yaml.safe_load(FILE_2020.read_text(encoding="utf-8"))["cases"]
    at_cap = {
        c["id"]
        for c in cases
        if (e := c["expected"].get("bonus"))
        and e["version_id"] == "D251-7.2020-06-01"
        and str(e["amount"]) == "7000.00"
    }
    assert at_cap  # the corpus has such cases
    report = tmp_path / "moved.json"
    result = run(FILE_2020, "--before", VERSIONS, "--versions-dir", lowered_cap(tmp_path), "--json", report)
    assert result.exit_code == 1, result.output
    moved = json.loads(report.read_text(encoding="utf-8"))
    assert {m["id"] for m in moved["moved"]} == at_cap
    for m in moved["moved"]:  # 27 % × cost ≥ 7 000 > 6 000: the new cap binds, nothing else changes
        assert m["changes"] == [{"scheme": "bonus", "field": "amount", "before": "7000.00", "after": "6000.00"}]
    assert f"{len(cases)} cases: {len(at_cap)} moved" in result.output


def test_no_change_moves_nothing_and_exits_0() -> None:
    result = run(CORPUS, "--before", VERSIONS)
    assert result.exit_code == 0, result.output
    assert "0 moved" in result.output


def test_an_invalid_catalogue_exits_3_naming_the_side(tmp_path: Path) -> None:
    result = run(FILE_2020, "--before", tmp_path / "nowhere")
    assert result.exit_code == 3
    assert "--before" in result.output
