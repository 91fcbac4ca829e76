"""Regression cases in the database: `vigueur cases import`, GET /v1/cases, POST /v1/cases/import (admin) and
POST /v1/cases/run, whose report is the one `vigueur cases run --json` writes for the same cases."""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from sqlmodel import Session, col, select
from typer.testing import CliRunner

from api.cases.files import Case, load_cases
from api.cases.store import case_document, current_rows, import_cases, to_case
from api.cases.tables import CaseImportRow, CaseRow
from api.catalogue.db import make_engine
from api.catalogue.store import load_tree
from api.cli.main import app as cli
from api.http.app import create_app
from api.http.auth import ADMIN_TOKEN_ENV
from api.http.deps import get_session
from api.http.public import cases as case_public
from api.http.public import catalogue as public
from api.http.routes import cases as case_routes
from tests.api.support import REFERENCE, sqlite_engine

CORPUS = Path(__file__).resolve().parents[2] / "regression"
CORPUS_FILES = sorted(CORPUS.glob("*.yaml"))
TOKEN = "s3cret-admin-token"
YAML = {"content-type": "application/yaml"}
ADMIN = YAML | {"authorization": f"Bearer {TOKEN}"}


@cache
def corpus() -> tuple[Case, ...]:
    return tuple(load_cases([CORPUS]))


# Two cases on the fixture tree's reference version (D. 251-7, 2020-06-01): an electric car at 32 000 € for
# a natural person. 1° : 27 % × 32 000 = 8 640 > 7 000 → 7 000.00 €. The second case expects 6 000.00 on
# purpose: it must fail, in the CLI's report and in the API's alike.
CASE_FILE = f"""\
cases:
  - id: fixture-ev-cap
    title: "Electric car at 32 000 €, natural person: the 7 000 € cap binds"
    source: {{paragraph: "C. énergie, art. D. 251-7, 1°"}}
    request:
      acquisition: purchase
      invoice_date: 2020-07-15
      schemes: [bonus]
      vehicle: {{category: passenger_car, energy: electric, co2_g_per_km: 0, acquisition_cost: "32000.00"}}
      buyer: {{person_kind: natural_person}}
    expected:
      bonus: {{amount: "7000.00", eligible: true, version_id: {REFERENCE}, status: computed}}
    notes: |
      27 % × 32 000 = 8 640 > 7 000 → 7 000.00 €.
  - id: fixture-ev-wrong-on-purpose
    title: "The same car, expecting 6 000 €: a failing case"
    source: {{paragraph: "C. énergie, art. D. 251-7, 1°"}}
    request:
      acquisition: purchase
      invoice_date: 2020-07-15
      schemes: [bonus]
      vehicle: {{category: passenger_car, energy: electric, co2_g_per_km: 0, acquisition_cost: "32000.00"}}
      buyer: {{person_kind: natural_person}}
    expected:
      bonus: {{amount: "6000.00", eligible: true, version_id: {REFERENCE}, status: computed}}
    notes: |
      Wrong on purpose: 27 % × 32 000 = 8 640 > 7 000 → 7 000.00 €, not 6 000.00 €.
"""


@pytest.fixture
def admin_token(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv(ADMIN_TOKEN_ENV, TOKEN)
    return TOKEN


@pytest.fixture
def corpus_client() -> Iterator[TestClient]:
    """A client over an in-memory database holding the repository's catalogue (versions/)."""
    engine = sqlite_engine()
    with Session(engine) as session:
        load_tree(session)
        session.commit()
        app = create_app()
        app.dependency_overrides[get_session] = lambda: session
        yield TestClient(app)
    engine.dispose()


def post_file(client: TestClient, text: str | bytes, name: str | None = None, **params: Any) -> Any:
    query = {"file": name} if name else {}
    return client.post(
        "/v1/cases/import",
        content=text,
        headers=ADMIN,
        params=query | {k: str(v).lower() for k, v in params.items()},
    )


def rows_of(session: Session) -> list[tuple[Any, ...]]:
    found = session.exec(select(CaseRow).order_by(col(CaseRow.revision_id))).all()
    return [(r.revision_id, r.case_id, r.content_hash, r.superseded_at) for r in found]


def cli_report(tmp_path: Path, *paths: Path, versions_dir: Path | None = None) -> dict[str, Any]:
    out = tmp_path / "cli-report.json"
    args = ["cases", "run", *map(str, paths), "--json", str(out), "--no-progress"]
    if versions_dir is not None:
        args += ["--versions-dir", str(versions_dir)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code in (0, 1), result.output
    return json.loads(out.read_text(encoding="utf-8"))


def comparable(report: dict[str, Any]) -> dict[str, Any]:
    """A report without its timing: what a run decided, case by case."""
    summary = {k: v for k, v in report["summary"].items() if k != "seconds"}
    return {"summary": summary, "per_version": report["per_version"], "cases": report["cases"]}


# -- the token ---------------------------------------------------------------------------------------------


def test_import_is_off_without_a_configured_token(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(ADMIN_TOKEN_ENV, raising=False)
    response = client.post("/v1/cases/import", content=CASE_FILE, headers=ADMIN)
    assert response.status_code == 404
    assert response.headers["content-type"] == "application/problem+json"
    assert ADMIN_TOKEN_ENV in response.json()["detail"]
    assert client.get("/v1/cases").json()["total"] == 0


def test_import_needs_the_token(client: TestClient, admin_token: str, session: Session) -> None:
    missing = client.post("/v1/cases/import", content=CASE_FILE, headers=YAML)
    wrong = client.post(
        "/v1/cases/import", content=CASE_FILE, headers=YAML | {"authorization": "Bearer nope"}
    )
    not_bearer = client.post(
        "/v1/cases/import", content=CASE_FILE, headers=YAML | {"authorization": admin_token}
    )
    for response in (missing, wrong, not_bearer):
        assert response.status_code == 401, response.text
        assert response.headers["content-type"] == "application/problem+json"
        assert response.headers["www-authenticate"].startswith("Bearer")
        assert admin_token not in response.text
    assert rows_of(session) == []
    right = client.post("/v1/cases/import", content=CASE_FILE, headers=ADMIN)
    assert right.status_code == 201, right.text
    assert right.json()["counts"] == {"added": 2, "superseded": 0, "unchanged": 0, "removed": 0}


def test_reading_and_running_need_no_token(client: TestClient, admin_token: str) -> None:
    assert post_file(client, CASE_FILE).status_code == 201
    assert client.get("/v1/cases").status_code == 200
    assert client.get("/v1/cases/fixture-ev-cap").status_code == 200
    assert client.post("/v1/cases/run").status_code == 200


# -- importing ---------------------------------------------------------------------------------------------


def test_import_is_idempotent(client: TestClient, admin_token: str, session: Session) -> None:
    first = post_file(client, CASE_FILE, "fixture.yaml")
    assert first.status_code == 201 and first.json()["changed"] is True
    before = rows_of(session)
    imports = session.exec(select(CaseImportRow)).all()
    second = post_file(client, CASE_FILE, "fixture.yaml")
    assert second.status_code == 200, second.text
    body = second.json()
    assert body["changed"] is False and body["import_id"] is None
    assert body["counts"] == {"added": 0, "superseded": 0, "unchanged": 2, "removed": 0}
    assert rows_of(session) == before
    assert session.exec(select(CaseImportRow)).all() == imports


def test_a_changed_case_supersedes_its_row_never_updates_it(
    client: TestClient, admin_token: str, session: Session
) -> None:
    post_file(client, CASE_FILE, "fixture.yaml")
    (old,) = [r for r in current_rows(session) if r.case_id == "fixture-ev-wrong-on-purpose"]
    old_id, old_hash = old.revision_id, old.content_hash
    changed = CASE_FILE.replace('amount: "6000.00"', 'amount: "7000.00"')
    answer = post_file(client, changed, "fixture.yaml")
    assert answer.status_code == 201
    assert answer.json()["counts"] == {"added": 0, "superseded": 1, "unchanged": 1, "removed": 0}
    (change,) = [c for c in answer.json()["cases"] if c["change"] == "superseded"]
    assert change["id"] == "fixture-ev-wrong-on-purpose" and change["old_hash"] == old_hash
    revisions = session.exec(
        select(CaseRow)
        .where(CaseRow.case_id == "fixture-ev-wrong-on-purpose")
        .order_by(col(CaseRow.revision_id))
    ).all()
    assert [r.revision_id for r in revisions][0] == old_id and len(revisions) == 2
    assert revisions[0].content_hash == old_hash and revisions[0].superseded_at is not None
    assert revisions[0].expected["bonus"]["amount"] == "6000.00"  # the old row is kept as it was
    assert revisions[1].superseded_at is None and revisions[1].expected["bonus"]["amount"] == "7000.00"
    assert revisions[1].imported_at == revisions[0].superseded_at
    shown = client.get("/v1/cases/fixture-ev-wrong-on-purpose").json()
    assert shown["content_hash"] == change["new_hash"] and shown["expected"]["bonus"]["amount"] == "7000.00"
    assert client.post("/v1/cases/run").json()["summary"]["passed"] == 2


def test_a_case_that_only_moved_is_unchanged(client: TestClient, admin_token: str) -> None:
    post_file(client, CASE_FILE, "fixture.yaml")
    moved = "# a comment above the cases moves every line\n\n" + CASE_FILE
    assert post_file(client, moved, "fixture.yaml").json()["changed"] is False


def test_prune_retires_the_cases_no_longer_in_the_file(
    client: TestClient, admin_token: str, session: Session
) -> None:
    post_file(client, CASE_FILE, "fixture.yaml")
    first_only = CASE_FILE.split("  - id: fixture-ev-wrong-on-purpose")[0]
    kept = post_file(client, first_only, "fixture.yaml")
    assert kept.json()["changed"] is False  # without prune an absent case stays
    pruned = post_file(client, first_only, "fixture.yaml", prune=True)
    assert pruned.status_code == 201
    assert pruned.json()["counts"] == {"added": 0, "superseded": 0, "unchanged": 1, "removed": 1}
    assert [r.case_id for r in current_rows(session)] == ["fixture-ev-cap"]
    assert client.get("/v1/cases/fixture-ev-wrong-on-purpose").status_code == 404
    assert len(rows_of(session)) == 2  # the retired row is still on file


def test_an_invalid_case_file_is_422_naming_the_case_and_field_and_writes_nothing(
    client: TestClient, admin_token: str, session: Session
) -> None:
    broken = CASE_FILE.replace('amount: "6000.00"', 'amount: "6000.001"')
    response = post_file(client, broken, "fixture.yaml")
    assert response.status_code == 422
    problem = response.json()
    assert problem["case_id"] == "fixture-ev-wrong-on-purpose" and problem["file"] == "fixture.yaml"
    assert problem["errors"] == [
        {
            "field": "expected.bonus.amount",
            "message": "'6000.001': a non-negative amount to the cent is required",
        }
    ]
    duplicate = CASE_FILE.replace("id: fixture-ev-wrong-on-purpose", "id: fixture-ev-cap")
    assert post_file(client, duplicate).json()["errors"][0]["field"] == "id"
    for text in ("cases: [", "not: a case file", "cases: []", b"\xff\xfe"):
        assert post_file(client, text).status_code == 422, text
    assert rows_of(session) == []


def test_a_case_file_as_json_is_accepted(client: TestClient, admin_token: str) -> None:
    document = {"cases": [case_document(c) for c in _cases_of(CASE_FILE)]}
    response = client.post(
        "/v1/cases/import", json=document, headers={"authorization": f"Bearer {admin_token}"}
    )
    assert response.status_code == 201
    assert post_file(client, CASE_FILE).json()["changed"] is False  # the same content as the YAML


def test_import_refuses_other_media_types_and_big_bodies(
    client: TestClient, admin_token: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    response = client.post(
        "/v1/cases/import",
        content=CASE_FILE,
        headers={"authorization": f"Bearer {admin_token}", "content-type": "text/plain"},
    )
    assert response.status_code == 415 and response.headers["content-type"] == "application/problem+json"
    monkeypatch.setattr(case_routes, "MAX_CASE_FILE_BYTES", 100)
    assert post_file(client, CASE_FILE).status_code == 413


# -- listing -----------------------------------------------------------------------------------------------


def test_list_pages_through_the_current_cases(corpus_client: TestClient, admin_token: str) -> None:
    for path in CORPUS_FILES:
        assert post_file(corpus_client, path.read_bytes(), f"tests/regression/{path.name}").status_code == 201
    cases = corpus()
    seen: list[str] = []
    url: str | None = "/v1/cases?limit=100"
    while url is not None:
        page = corpus_client.get(url)
        assert page.status_code == 200
        body = case_public.CaseListOut.model_validate(page.json())
        assert body.total == len(cases)
        seen += [c.id for c in body.cases]
        url = body.next
    assert seen == [c.id for c in cases]  # corpus order: file, then line
    one = corpus_client.get("/v1/cases", params={"limit": 1, "offset": 5}).json()
    assert [c["id"] for c in one["cases"]] == [cases[5].id] and one["next"] == "/v1/cases?limit=1&offset=6"
    by_file = corpus_client.get("/v1/cases", params={"file": "bonus_2017.yaml", "limit": 1000}).json()
    assert by_file["total"] == sum(1 for c in cases if c.file.endswith("bonus_2017.yaml"))
    by_version = corpus_client.get("/v1/cases", params={"version": "D251-7.2020-06-01"}).json()
    assert by_version["total"] == sum(1 for c in cases if "D251-7.2020-06-01" in c.versions) > 0
    no_version = corpus_client.get("/v1/cases", params={"version": "(no version on file)"}).json()
    assert no_version["total"] == sum(1 for c in cases if "(no version on file)" in c.versions) > 0
    for bad in ({"limit": 0}, {"limit": 1001}, {"offset": -1}, {"limit": "x"}):
        response = corpus_client.get("/v1/cases", params=bad)
        assert response.status_code == 422 and response.headers["content-type"] == "application/problem+json"


def test_a_stored_case_is_the_case_of_its_file(corpus_client: TestClient, admin_token: str) -> None:
    for path in CORPUS_FILES:
        post_file(corpus_client, path.read_bytes(), f"tests/regression/{path.name}")
    for case in corpus()[::17]:
        shown = corpus_client.get(f"/v1/cases/{case.id}")
        assert shown.status_code == 200
        case_public.CaseOut.model_validate(shown.json())
        content = {k: v for k, v in shown.json().items() if k in case_document(case)}
        assert content == case_document(case)
    unknown = corpus_client.get("/v1/cases/no-such-case")
    assert unknown.status_code == 404 and unknown.json()["type"] == "urn:vigueur:problem:unknown-case"


# -- running -----------------------------------------------------------------------------------------------


def test_the_corpus_run_through_the_api_gives_the_cli_report(
    corpus_client: TestClient, admin_token: str, tmp_path: Path
) -> None:
    for path in CORPUS_FILES:
        # Recorded under the path the CLI is given, so both reports name the same files.
        assert post_file(corpus_client, path.read_bytes(), str(path)).status_code == 201
    answered = corpus_client.post("/v1/cases/run")
    assert answered.status_code == 200 and answered.headers["content-type"] == "application/json"
    api_report = answered.json()
    case_public.RunReportOut.model_validate(api_report)
    printed = cli_report(tmp_path, CORPUS)
    assert api_report["summary"]["cases"] == printed["summary"]["cases"] >= 150
    for key in ("passed", "failed", "errors"):
        assert api_report["summary"][key] == printed["summary"][key], key
    assert comparable(api_report) == comparable(printed)


def test_failures_are_reported_as_the_cli_reports_them(
    client: TestClient, admin_token: str, tmp_path: Path, fixture_tree: Path
) -> None:
    case_file = tmp_path / "fixture.yaml"
    case_file.write_text(CASE_FILE, encoding="utf-8")
    post_file(client, CASE_FILE, str(case_file))
    api_report = client.post("/v1/cases/run").json()
    printed = cli_report(tmp_path, case_file, versions_dir=fixture_tree)
    assert api_report["summary"] | {"seconds": 0} == {
        "cases": 2,
        "passed": 1,
        "failed": 1,
        "errors": 0,
        "seconds": 0,
    }
    assert comparable(api_report) == comparable(printed)
    (failed,) = [c for c in api_report["cases"] if c["outcome"] == "failed"]
    assert failed["id"] == "fixture-ev-wrong-on-purpose"
    assert [c for c in failed["checks"] if not c["ok"]] == [
        {"scheme": "bonus", "field": "amount", "expected": "6000.00", "got": "7000.00", "ok": False}
    ]
    assert failed["steps"]["bonus"]  # the answer's steps, with their citations


def test_run_filters(client: TestClient, admin_token: str) -> None:
    post_file(client, CASE_FILE, "tests/regression/fixture.yaml")

    def ran(body: Any) -> list[str]:
        response = client.post("/v1/cases/run", json=body)
        assert response.status_code == 200, response.text
        return [c["id"] for c in response.json()["cases"]]

    everything = ["fixture-ev-cap", "fixture-ev-wrong-on-purpose"]
    assert ran({}) == everything and ran(None) == everything
    assert ran({"ids": ["fixture-ev-wrong-on-purpose"]}) == ["fixture-ev-wrong-on-purpose"]
    assert ran({"version": REFERENCE}) == everything
    assert ran({"file": "fixture.yaml"}) == everything
    assert ran({"file": "tests/regression/fixture.yaml", "ids": ["fixture-ev-cap"]}) == ["fixture-ev-cap"]
    unknown = client.post("/v1/cases/run", json={"ids": ["fixture-ev-cap", "nope"]})
    assert unknown.status_code == 404 and "'nope'" in unknown.json()["detail"]
    for body in ({"version": "D251-7.1999-01-01"}, {"file": "other.yaml"}):
        none = client.post("/v1/cases/run", json=body)
        assert none.status_code == 404 and none.json()["title"] == "No case to run"
    extra = client.post("/v1/cases/run", json={"id": ["fixture-ev-cap"]})
    assert extra.status_code == 422 and extra.json()["errors"][0]["field"] == "id"


def test_running_an_empty_corpus_is_404_not_a_pass(client: TestClient) -> None:
    response = client.post("/v1/cases/run")
    assert response.status_code == 404 and response.headers["content-type"] == "application/problem+json"


# -- the command line --------------------------------------------------------------------------------------


def test_cli_import_is_idempotent_and_refuses_invalid_files(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'cases.db'}"
    first = CliRunner().invoke(cli, ["cases", "import", str(CORPUS), "--database-url", url])
    assert first.exit_code == 0, first.output
    report = json.loads(first.stdout)
    total = len(corpus())
    assert report["changed"] is True and report["counts"]["added"] == total
    second = CliRunner().invoke(cli, ["cases", "import", str(CORPUS), "--database-url", url])
    assert second.exit_code == 0 and json.loads(second.stdout)["counts"]["unchanged"] == total
    assert json.loads(second.stdout)["changed"] is False
    broken = tmp_path / "broken.yaml"
    broken.write_text(CASE_FILE.replace("status: computed", "status: done", 1), encoding="utf-8")
    refused = CliRunner().invoke(cli, ["cases", "import", str(broken), "--database-url", url])
    assert (
        refused.exit_code == 2
        and "fixture-ev-cap" in refused.stderr
        and "expected.bonus.status" in refused.stderr
    )
    engine = make_engine(url)
    with Session(engine) as session:
        assert len(current_rows(session)) == total
        assert session.exec(select(sa.func.count()).select_from(CaseImportRow)).one() == 1
        by_id = {c.id: c for c in corpus()}
        for row in current_rows(session)[::7]:  # what was stored parses back into the file's case
            assert to_case(row) == by_id[row.case_id]
    engine.dispose()


def test_cli_import_prune(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'cases.db'}"
    everything = CliRunner().invoke(cli, ["cases", "import", str(CORPUS), "--database-url", url])
    assert everything.exit_code == 0
    one = CORPUS_FILES[0]
    pruned = CliRunner().invoke(cli, ["cases", "import", str(one), "--prune", "--database-url", url])
    assert pruned.exit_code == 0, pruned.output
    counts = json.loads(pruned.stdout)["counts"]
    in_file = sum(1 for c in corpus() if c.file == str(one))
    assert counts["unchanged"] == in_file > 0
    assert counts["removed"] == len(corpus()) - in_file


def test_import_cases_in_the_callers_transaction(fixture_tree: Path) -> None:
    engine = sqlite_engine()
    with Session(engine) as session:
        cases = _cases_of(CASE_FILE)
        report = import_cases(session, cases, "test")
        assert report.changed and report.count("added") == 2
        session.rollback()  # nothing is committed by the store itself
        assert current_rows(session) == []
    engine.dispose()


# -- documents ---------------------------------------------------------------------------------------------


def test_the_examples_match_their_models() -> None:
    case_public.CaseOut.model_validate(case_public.CASE_EXAMPLE)
    case_public.CaseListOut.model_validate(case_public.CASE_LIST_EXAMPLE)
    case_public.ImportOut.model_validate(case_public.IMPORT_EXAMPLE)
    case_public.RunReportOut.model_validate(case_public.RUN_EXAMPLE)
    for example in case_public.RUN_FILTERS_EXAMPLES.values():
        case_public.CaseRunFilters.model_validate(example["value"])
    for problem in case_public.PROBLEM_EXAMPLES:
        public.Problem.model_validate(problem)
    assert _cases_of(case_public.CASE_FILE_EXAMPLE)


def _cases_of(text: str) -> list[Any]:
    from api.cases.store import parse_case_text

    return parse_case_text(text, "fixture.yaml")
