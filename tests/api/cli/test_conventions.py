"""The conventions users expect of the command line (issue 10): one contract with the API (same bodies, same
problem types, same options), problems on standard error, tables on a terminal and JSON when piped, shell
completion, no hard wrapping in logs, a tidy serve banner, one configured database with distinct errors."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from api.catalogue.db import make_engine
from api.catalogue.store import load_into
from api.cli.catalogue import banner
from api.cli.main import app
from api.http.app import create_app
from tests.api.support import REFERENCE, SUCCESSOR, copy_tree, raise_successor_cap

runner = CliRunner()


def run(*args: str, stdin: str | None = None):  # type: ignore[no-untyped-def]
    result = runner.invoke(app, list(args), input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


# -- one contract ------------------------------------------------------------------------------------


def test_versions_prints_the_body_of_the_scheme_versions_endpoint(client: TestClient, fixture_tree: Path) -> None:
    printed = run("versions", "--scheme", "bonus", "--versions-dir", str(fixture_tree))
    assert printed.exit_code == 0
    assert printed.stdout_bytes == client.get("/v1/schemes/bonus/versions").content


def test_versions_of_every_scheme_lists_the_same_summaries(client: TestClient, fixture_tree: Path) -> None:
    doc = json.loads(run("versions", "--versions-dir", str(fixture_tree)).stdout)
    assert [s["scheme"] for s in doc["schemes"]] == ["bonus", "conversion_premium"]
    assert doc["schemes"][0] == client.get("/v1/schemes/bonus/versions").json()


def test_versions_on_a_day_is_the_in_force_body(client: TestClient, fixture_tree: Path) -> None:
    printed = run("versions", "--scheme", "bonus", "--on", "2020-07-15", "--versions-dir", str(fixture_tree))
    answered = client.get("/v1/schemes/bonus/in-force", params={"on": "2020-07-15"})
    assert printed.exit_code == 0 and printed.stdout_bytes == answered.content


def test_versions_on_a_declared_gap_fails_with_the_api_problem(client: TestClient, fixture_tree: Path) -> None:
    printed = run("versions", "--scheme", "bonus", "--on", "2019-06-01", "--versions-dir", str(fixture_tree))
    answered = client.get("/v1/schemes/bonus/in-force", params={"on": "2019-06-01"})
    assert answered.status_code == 404 and printed.exit_code == 4
    assert printed.stdout == "" and printed.stderr_bytes == answered.content
    problem = json.loads(printed.stderr)
    assert problem["type"] == "urn:vigueur:problem:no-version-on-file"
    assert problem["declared_gap"]["reason"].startswith("fixture gap")


def test_show_prints_the_body_of_the_version_endpoint(client: TestClient, fixture_tree: Path) -> None:
    printed = run("show", REFERENCE, "--versions-dir", str(fixture_tree))
    assert printed.stdout_bytes == client.get(f"/v1/versions/{REFERENCE}").content


def test_cli_problems_use_the_api_problem_types(fixture_tree: Path) -> None:
    unknown = run("show", "D251-7.1999-01-01", "--versions-dir", str(fixture_tree))
    assert unknown.exit_code == 4 and unknown.stdout == ""
    assert json.loads(unknown.stderr)["type"] == "urn:vigueur:problem:unknown-version"


def test_schema_states_the_decisive_date_rule_as_openapi_does() -> None:
    request = json.loads(run("schema").stdout)["request"]
    openapi = create_app().openapi()["components"]["schemas"]["CalculationRequest"]
    assert request["allOf"] == openapi["allOf"]
    rules = {r["if"]["properties"]["acquisition"]["const"]: r["then"]["required"] for r in request["allOf"]}
    assert rules == {"purchase": ["invoice_date"], "lease": ["first_rent_date"]}


def _two_loads(tmp_path: Path, fixture_tree: Path) -> tuple[str, datetime, datetime]:
    url = f"sqlite:///{tmp_path / 'known.db'}"
    first, second = datetime(2026, 1, 10, 12, tzinfo=UTC), datetime(2026, 3, 10, 12, tzinfo=UTC)
    engine = make_engine(url)
    load_into(engine, fixture_tree, now=first)
    changed = copy_tree(fixture_tree, tmp_path / "versions")
    raise_successor_cap(changed)
    load_into(engine, changed, now=second)
    engine.dispose()
    return url, first, second


def test_show_and_versions_take_known_at(tmp_path: Path, fixture_tree: Path) -> None:
    url, first, _ = _two_loads(tmp_path, fixture_tree)
    then = run("show", SUCCESSOR, "--known-at", "2026-02-01T00:00:00Z", "--database-url", url)
    now = run("show", SUCCESSOR, "--database-url", url)
    assert then.exit_code == 0 and now.exit_code == 0, then.output + now.output
    assert "6 000 euros" in json.loads(then.stdout)["text"] and "6 100 euros" in json.loads(now.stdout)["text"]
    timeline = run("versions", "--scheme", "bonus", "--known-at", "2026-02-01T00:00:00Z", "--database-url", url)
    hashes = {v["version_id"]: v["version_hash"] for v in json.loads(timeline.stdout)["versions"]}
    assert hashes[SUCCESSOR] == json.loads(then.stdout)["version_hash"] != json.loads(now.stdout)["version_hash"]
    before = run("versions", "--known-at", "2025-01-01T00:00:00Z", "--database-url", url)
    assert before.exit_code == 4 and json.loads(before.stderr)["type"] == "urn:vigueur:problem:nothing-known-then"


# -- CLI habits --------------------------------------------------------------------------------------


def test_problems_go_to_standard_error(fixture_tree: Path) -> None:
    result = run("calculate", stdin="{")
    assert result.exit_code == 2 and result.stdout == "" and json.loads(result.stderr)["status"] == 422


def test_a_terminal_gets_tables_and_json_on_request(fixture_tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("api.cli.options.is_terminal", lambda stream="stdout": True)
    table = run("versions", "--scheme", "bonus", "--versions-dir", str(fixture_tree))
    assert table.exit_code == 0 and REFERENCE in table.stdout and not table.stdout.lstrip().startswith("{")
    assert "gap" in table.stdout
    shown = run("show", REFERENCE, "--versions-dir", str(fixture_tree))
    assert "version_hash" in shown.stdout and not shown.stdout.lstrip().startswith("{")
    as_json = run("versions", "--scheme", "bonus", "--json", "--versions-dir", str(fixture_tree))
    assert json.loads(as_json.stdout)["scheme"] == "bonus"
    request = json.dumps(
        {"acquisition": "purchase", "invoice_date": "2020-07-15", "schemes": ["bonus"],
         "vehicle": {"category": "passenger_car", "energy": "electric", "co2_g_per_km": 0,
                     "acquisition_cost": "32000.00"},
         "buyer": {"person_kind": "natural_person"}}
    )  # fmt: skip
    calculated = run("calculate", "--versions-dir", str(fixture_tree), stdin=request)
    assert "total: " in calculated.stdout and "D. 251-7" in calculated.stdout
    resolved = run("resolve", "--versions-dir", str(fixture_tree), stdin=request)
    assert "resolution" in resolved.stdout and REFERENCE in resolved.stdout
    assert json.loads(run("calculate", "--json", "--versions-dir", str(fixture_tree), stdin=request).stdout)["results"]


def test_shell_completion_is_offered() -> None:
    help_text = run("--help").stdout
    assert "--install-completion" in help_text and "--show-completion" in help_text


def test_piped_output_is_never_hard_wrapped(capsys: pytest.CaptureFixture[str]) -> None:
    from api.terminal import console

    line = "FAILED case-id: " + "expected 6000.00, got 6300.00; " * 20
    console().print(line)
    assert capsys.readouterr().out == line + "\n"


def test_serve_banner_says_where_and_what() -> None:
    text = banner("127.0.0.1", 8000, "sqlite:////data/vigueur.db", "on file (loaded before)", 2)
    lines = text.splitlines()
    assert lines[0].startswith("vigueur ")
    assert "http://127.0.0.1:8000/" in lines[1] and "2 workers" in lines[1]
    assert "http://127.0.0.1:8000/docs" in lines[2]
    assert "sqlite:////data/vigueur.db" in lines[3] and "on file" in lines[4]


# -- the database location and its errors ----------------------------------------------------------


def test_db_path_prints_the_default_in_the_data_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.chdir(tmp_path)
    result = run("db", "path")
    assert result.stdout.strip() == str(tmp_path / "xdg" / "vigueur" / "vigueur.db")
    monkeypatch.setenv("VIGUEUR_DATABASE_URL", f"sqlite:///{tmp_path / 'mine.db'}")
    assert run("db", "path").stdout.strip() == str(tmp_path / "mine.db")


def test_reading_an_absent_database_says_no_catalogue_and_creates_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    url = f"sqlite:///{tmp_path / 'absent.db'}"
    result = run("receipts", "show", "0" * 32, "--database-url", url)
    problem = json.loads(result.stderr)
    assert result.exit_code == 7 and problem["type"] == "urn:vigueur:problem:catalogue-not-loaded"
    assert "run `vigueur load`" in problem["detail"]
    assert list(tmp_path.iterdir()) == []


def test_an_empty_database_says_no_catalogue(tmp_path: Path) -> None:
    (tmp_path / "empty.db").write_bytes(b"")
    result = run("show", REFERENCE, "--database-url", f"sqlite:///{tmp_path / 'empty.db'}")
    assert result.exit_code == 7 and "holds no catalogue" in json.loads(result.stderr)["detail"]


def test_an_unreachable_database_says_cannot_connect() -> None:
    result = run("receipts", "show", "0" * 32, "--database-url", "postgresql://nobody:secret@127.0.0.1:1/vigueur")
    problem = json.loads(result.stderr)
    assert result.exit_code == 5 and problem["type"] == "urn:vigueur:problem:database-unavailable"
    assert problem["detail"].startswith("cannot connect to the database") and "secret" not in result.stderr


def test_a_receipt_records_the_commits_of_the_code_and_the_catalogue(tmp_path: Path, fixture_tree: Path) -> None:
    url = f"sqlite:///{tmp_path / 'r.db'}"
    assert run("load", "--versions-dir", str(fixture_tree), "--database-url", url).exit_code == 0
    request = tmp_path / "request.json"
    request.write_text(
        json.dumps(
            {
                "acquisition": "purchase",
                "invoice_date": "2020-07-15",
                "vehicle": {"category": "passenger_car", "energy": "electric", "co2_g_per_km": 0,
                            "acquisition_cost": "32000.00"},
                "buyer": {"person_kind": "natural_person"},
                "schemes": ["bonus"],
            }
        ),
        encoding="utf-8",
    )
    kept = run("calculate", str(request), "--receipt", "--database-url", url)
    receipt_id = kept.stderr.split("receipt: ", 1)[1].split()[0]
    shown = json.loads(run("receipts", "show", receipt_id, "--database-url", url).stdout)
    from importlib import metadata

    assert shown["software_version"] == metadata.version("vigueur")
    assert shown["code_commit"] and shown["catalogue_commit"]
    assert shown["code_commit"] == "unknown" or len(shown["code_commit"].split("+")[0]) == 40
