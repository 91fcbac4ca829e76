"""`vigueur cases run` and the strict case parser: exit codes, reports naming the case, clear errors.

The runner is tested against a small catalogue copied from ``versions/`` (D. 251-7, 2020 only) so that its
behaviour does not depend on the rest of the catalogue. Amounts: 27 % × 30 000 = 8 100 > 7 000 → 7 000.00.
"""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from api.cases.files import CaseFileError, load_case_file, load_cases
from api.cli.main import app

VERSIONS = Path(__file__).resolve().parents[3] / "versions"
runner = CliRunner()

REQUEST: dict[str, Any] = {
    "acquisition": "purchase",
    "invoice_date": "2020-07-15",
    "schemes": ["bonus"],
    "vehicle": {
        "category": "passenger_car",
        "energy": "electric",
        "co2_g_per_km": 0,
        "acquisition_cost": "30000.00",
    },
    "buyer": {"person_kind": "natural_person"},
}


def a_case(case_id: str = "ev-cap", amount: str = "7000.00", **over: Any) -> dict[str, Any]:
    case: dict[str, Any] = {
        "id": case_id,
        "title": "Electric car at 30 000 €, natural person",
        "source": {"paragraph": "C. énergie, art. D. 251-7, 1°"},
        "request": json.loads(json.dumps(REQUEST)),
        "expected": {
            "bonus": {
                "amount": amount,
                "eligible": True,
                "version_id": "D251-7.2020-06-01",
                "status": "computed",
            }
        },
        "notes": "27 % × 30 000 = 8 100 > 7 000 → 7 000.00",
    }
    case.update(over)
    return case


def write(path: Path, *cases: dict[str, Any]) -> Path:
    path.write_text(
        yaml.safe_dump({"cases": list(cases)}, allow_unicode=True, sort_keys=False), encoding="utf-8"
    )
    return path


@pytest.fixture
def versions_dir(tmp_path: Path) -> Path:
    root = tmp_path / "versions"
    root.mkdir()
    shutil.copytree(VERSIONS / "D251-7.2020-06-01", root / "D251-7.2020-06-01")
    (root / "catalogue.toml").write_text("", encoding="utf-8")
    return root


def run(*args: str | Path) -> Any:
    result = runner.invoke(app, ["cases", "run", *map(str, args)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def test_passing_file_exits_0(tmp_path: Path, versions_dir: Path) -> None:
    file = write(tmp_path / "ok.yaml", a_case())
    result = run(file, "--versions-dir", versions_dir)
    assert result.exit_code == 0, result.output
    assert "1 cases: 1 passed, 0 failed, 0 errors" in result.output
    assert "D251-7.2020-06-01" in result.output  # the summary row of the version


def test_wrong_amount_exits_1_and_reports_name_the_case(tmp_path: Path, versions_dir: Path) -> None:
    file = write(tmp_path / "bad.yaml", a_case("ev-ok"), a_case("ev-wrong-amount", amount="6999.99"))
    junit, report = tmp_path / "junit.xml", tmp_path / "report.json"
    result = run(file, "--versions-dir", versions_dir, "--junit", junit, "--json", report)
    assert result.exit_code == 1
    assert "FAILED" in result.output and "ev-wrong-amount" in result.output
    assert "expected '6999.99', got '7000.00'" in result.output
    assert "C. énergie, art. D. 251-7, 1°" in result.output  # the steps of the answer are shown

    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite is not None and suite.get("tests") == "2" and suite.get("failures") == "1"
    failed = [tc for tc in suite.iter("testcase") if tc.find("failure") is not None]
    assert [tc.get("name") for tc in failed] == ["ev-wrong-amount"]
    assert "6999.99" in (failed[0].find("failure").get("message") or "")  # type: ignore[union-attr]

    doc = json.loads(report.read_text(encoding="utf-8"))
    assert doc["summary"] == {**doc["summary"], "cases": 2, "passed": 1, "failed": 1, "errors": 0}
    bad = next(c for c in doc["cases"] if c["outcome"] == "failed")
    assert bad["id"] == "ev-wrong-amount"
    assert {
        "scheme": "bonus",
        "field": "amount",
        "expected": "6999.99",
        "got": "7000.00",
        "ok": False,
    } in bad["checks"]
    assert doc["per_version"] == [
        {"version_id": "D251-7.2020-06-01", "cases": 2, "passed": 1, "failed": 1, "errors": 0}
    ]


def test_case_that_cannot_run_is_an_error(tmp_path: Path, versions_dir: Path) -> None:
    request = dict(REQUEST, order_date="2020-08-01")  # an invoice before the order: InvalidDates
    file = write(tmp_path / "err.yaml", a_case("invoice-before-order", request=request))
    report = tmp_path / "r.json"
    result = run(file, "--versions-dir", versions_dir, "--json", report)
    assert result.exit_code == 1
    case = json.loads(report.read_text(encoding="utf-8"))["cases"][0]
    assert case["outcome"] == "error" and "InvalidDates" in case["error"]


def test_folder_is_searched_and_match_filters(tmp_path: Path, versions_dir: Path) -> None:
    (tmp_path / "sub").mkdir()
    write(tmp_path / "sub" / "a.yaml", a_case("alpha"))
    write(tmp_path / "b.yml", a_case("beta", amount="1.00"))
    result = run(tmp_path, "--versions-dir", versions_dir, "-k", "alpha", "--progress")
    assert result.exit_code == 0, result.output
    assert "1 cases: 1 passed" in result.output


def test_invalid_case_file_exits_2_naming_file_case_and_field(tmp_path: Path, versions_dir: Path) -> None:
    file = write(tmp_path / "invalid.yaml", a_case("typo", expected_amount="7000.00"))
    result = run(file, "--versions-dir", versions_dir)
    assert result.exit_code == 2
    message = " ".join(result.output.split())
    assert "invalid.yaml" in message and "case typo" in message and "field expected_amount" in message
    assert "unknown key" in message


def test_invalid_catalogue_exits_3(tmp_path: Path) -> None:
    file = write(tmp_path / "ok.yaml", a_case())
    result = run(file, "--versions-dir", tmp_path / "nowhere")
    assert result.exit_code == 3


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        (
            {"request": dict(REQUEST, vehicle={"acquisition_cots": "1"})},
            "request.vehicle.acquisition_cots",
            "unknown field",
        ),
        ({"request": dict(REQUEST, invoice_date="2020-13-01")}, "request.invoice_date", ""),
        ({"source": {"paragraph": "1°", "page": 3}}, "source.page", "unknown key"),
        ({"source": {"paragraph": "1°", "url": "legifrance"}}, "source.url", "http"),
        (
            {"expected": {"bonus": {"amount": "7000.00", "eligible": True, "status": "computed"}}},
            "expected.bonus.version_id",
            "required",
        ),
        (
            {
                "expected": {
                    "bonus": {"amount": "7000.00", "eligible": True, "version_id": "x", "status": "ok"}
                }
            },
            "expected.bonus.status",
            "not one of",
        ),
        (
            {
                "expected": {
                    "bonus": {"amount": "7000.001", "eligible": True, "version_id": "x", "status": "computed"}
                }
            },
            "expected.bonus.amount",
            "to the cent",
        ),
        (
            {
                "expected": {
                    "bonus": {"amount": "7000", "eligible": "yes", "version_id": "x", "status": "computed"}
                }
            },
            "expected.bonus.eligible",
            "true, false or null",
        ),
        ({"expected": {"bonus_ecologique": {}}}, "expected.bonus_ecologique", "unknown scheme"),
        ({"request": dict(REQUEST, schemes=None)}, "expected.conversion_premium", "expects nothing"),
        ({"tolerance": -1}, "tolerance", "non-negative"),
        ({"notes": ""}, "notes", "non-empty"),
    ],
)
def test_parser_names_the_field(tmp_path: Path, change: dict[str, Any], field: str, words: str) -> None:
    file = write(tmp_path / "c.yaml", a_case("c1", **change))
    with pytest.raises(CaseFileError) as info:
        load_case_file(file)
    assert info.value.field == field and info.value.case_id == "c1" and info.value.file == str(file)
    assert words in info.value.message


def test_parser_reads_decimals_exactly_and_rejects_duplicate_keys(tmp_path: Path) -> None:
    text = tmp_path / "ok.yaml"
    write(text, a_case())
    raw = text.read_text(encoding="utf-8").replace("amount: '7000.00'", "amount: 7000.10")
    text.write_text(raw, encoding="utf-8")
    (case,) = load_case_file(text)
    assert str(case.expected[next(iter(case.expected))].amount) == "7000.10"
    text.write_text(raw.replace("  notes:", "  title: again\n  notes:"), encoding="utf-8")
    with pytest.raises(CaseFileError, match="duplicate key 'title'"):
        load_case_file(text)


def test_duplicate_case_ids_across_files(tmp_path: Path) -> None:
    write(tmp_path / "a.yaml", a_case("same"))
    write(tmp_path / "b.yaml", a_case("same"))
    with pytest.raises(CaseFileError, match="duplicate case id"):
        load_cases([tmp_path])


def test_file_must_hold_a_case_list(tmp_path: Path) -> None:
    file = tmp_path / "x.yaml"
    file.write_text("cases: []\n", encoding="utf-8")
    with pytest.raises(CaseFileError, match="non-empty list"):
        load_case_file(file)
    file.write_text("- id: 1\n", encoding="utf-8")
    with pytest.raises(CaseFileError, match="single key `cases`"):
        load_case_file(file)
    file.write_text("cases: [\n", encoding="utf-8")
    with pytest.raises(CaseFileError, match="not valid YAML"):
        load_case_file(file)


def test_status_is_optional_and_checked_only_when_given(tmp_path: Path, versions_dir: Path) -> None:
    """A case may give amount, eligible and version only (the issue's minimum); a JSON case file reads too."""
    bare = a_case("no-status")
    del bare["expected"]["bonus"]["status"]
    wrong = a_case("no-status-wrong-version")
    del wrong["expected"]["bonus"]["status"]
    wrong["expected"]["bonus"]["version_id"] = "D251-7.2017-01-01"
    folder = tmp_path / "json"
    folder.mkdir()
    (folder / "cases.json").write_text(json.dumps({"cases": [bare]}), encoding="utf-8")
    passing = run(folder, "--versions-dir", versions_dir)
    assert passing.exit_code == 0, passing.output
    assert "1 cases: 1 passed" in passing.output
    failing = run(write(tmp_path / "wrong.yaml", wrong), "--versions-dir", versions_dir)
    assert failing.exit_code == 1
    assert "expected 'D251-7.2017-01-01', got 'D251-7.2020-06-01'" in failing.output
