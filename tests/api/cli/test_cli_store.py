"""`vigueur load` and `vigueur serve`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from api.catalogue.db import make_engine
from api.cli.main import app as cli
from tests.api.support import SUCCESSOR, copy_tree, snapshot


def run(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args))


def test_load_reports_what_it_recorded_then_nothing_the_second_time(
    tmp_path: Path, fixture_tree: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'v.db'}"
    first = run("load", "--versions-dir", str(fixture_tree), "--database-url", url)
    assert first.exit_code == 0, first.output
    report = json.loads(first.stdout)
    assert (
        report["changed"],
        report["load_id"],
        report["counts"]["added"],
        report["counts"]["gaps_added"],
    ) == (True, 1, 3, 1)
    assert {v["change"] for v in report["versions"]} == {"added"}
    engine = make_engine(url)
    before = snapshot(engine)
    second = run("load", "--versions-dir", str(fixture_tree), "--database-url", url)
    assert second.exit_code == 0 and json.loads(second.stdout)["changed"] is False
    assert json.loads(second.stdout)["counts"]["unchanged"] == 3
    assert snapshot(engine) == before
    engine.dispose()


def test_load_of_a_rejected_tree_exits_3_and_changes_nothing(tmp_path: Path, fixture_tree: Path) -> None:
    url = f"sqlite:///{tmp_path / 'v.db'}"
    assert run("load", "--versions-dir", str(fixture_tree), "--database-url", url).exit_code == 0
    engine = make_engine(url)
    before = snapshot(engine)
    broken = copy_tree(fixture_tree, tmp_path / "versions")
    (broken / SUCCESSOR / "version.toml").write_text("id = ", encoding="utf-8")
    result = run("load", "--versions-dir", str(broken), "--database-url", url)
    assert result.exit_code == 3
    assert "invalid catalogue, the database was not changed" in result.stderr
    assert snapshot(engine) == before
    engine.dispose()


def test_load_reads_database_url_from_the_environment(
    tmp_path: Path, fixture_tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'env.db'}")
    monkeypatch.setenv("VIGUEUR_VERSIONS_DIR", str(fixture_tree))
    result = run("load")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["database"].endswith("env.db")


def test_load_into_an_unreachable_database_exits_5(fixture_tree: Path) -> None:
    result = run(
        "load",
        "--versions-dir",
        str(fixture_tree),
        "--database-url",
        "postgresql://nobody:secret@127.0.0.1:1/vigueur",
    )
    assert result.exit_code == 5
    assert "cannot connect" in result.stderr and "secret" not in result.stderr


def test_serve_fills_an_empty_database_then_starts_uvicorn(
    tmp_path: Path, fixture_tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from api.http import server
    from api.http.server import NoDelayHTTPProtocol

    started: dict[str, Any] = {}
    monkeypatch.setattr(server, "serve_app", lambda app, **options: started.update(app=app, **options))
    monkeypatch.delenv("DATABASE_URL", raising=False)  # restored after the test: serve sets it for its workers
    monkeypatch.delenv("VIGUEUR_DATABASE_URL", raising=False)
    monkeypatch.delenv("VIGUEUR_VERSIONS_DIR", raising=False)
    monkeypatch.delenv("VIGUEUR_HEADER_TIMEOUT_SECONDS", raising=False)  # restored: serve sets it for its workers
    url = f"sqlite:///{tmp_path / 'served.db'}"
    result = run(
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        "8123",
        "--workers",
        "2",
        "--versions-dir",
        str(fixture_tree),
        "--database-url",
        url,
    )
    assert result.exit_code == 0, result.output
    assert started == {
        "app": "api.http.app:app",
        "host": "127.0.0.1",
        "port": 8123,
        "workers": 2,
        "log_level": "info",
        "timeout_worker_healthcheck": 60,
        "http": NoDelayHTTPProtocol,
        "timeout_graceful_shutdown": 10,
    }
    assert "loaded now" in result.stderr and "http://127.0.0.1:8123/docs" in result.stderr
    import os

    assert os.environ["DATABASE_URL"] == os.environ["VIGUEUR_DATABASE_URL"] == url
    assert os.environ["VIGUEUR_VERSIONS_DIR"] == str(fixture_tree)
    again = run("serve", "--versions-dir", str(fixture_tree), "--database-url", url)
    assert "on file (loaded before)" in again.stderr


def test_serve_refuses_a_rejected_tree(
    tmp_path: Path, fixture_tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from api.http import server

    monkeypatch.setattr(server, "serve_app", lambda *a, **k: pytest.fail("must not start"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("VIGUEUR_VERSIONS_DIR", raising=False)
    broken = copy_tree(fixture_tree, tmp_path / "versions")
    (broken / "catalogue.toml").write_text("[[gaps]]\nscheme = 'bonus'\n", encoding="utf-8")
    result = run("serve", "--versions-dir", str(broken), "--database-url", f"sqlite:///{tmp_path / 'x.db'}")
    assert result.exit_code == 3


def test_load_prints_each_version_with_its_old_and_new_hash(tmp_path: Path, fixture_tree: Path) -> None:
    from api.catalogue.loader import load_catalogue
    from tests.api.http.test_knowledge_time import corrected

    url = f"sqlite:///{tmp_path / 'v.db'}"
    first = run("load", "--versions-dir", str(fixture_tree), "--database-url", url)
    old = load_catalogue(fixture_tree).get(SUCCESSOR).content_hash
    assert f"new        {SUCCESSOR}  {old}" in first.stderr
    tree = corrected(fixture_tree, tmp_path / "versions")
    second = run("load", "--versions-dir", str(tree), "--database-url", url)
    new = load_catalogue(tree).get(SUCCESSOR).content_hash
    assert second.exit_code == 0, second.output
    assert f"superseded {SUCCESSOR}  {old} → {new}" in second.stderr
    assert second.stderr.count("unchanged ") == 2 and second.stderr.startswith("recorded load 2 at ")
    report = json.loads(second.stdout)
    assert {(v["version_id"], v["change"], v["old_hash"], v["new_hash"]) for v in report["versions"]} >= {
        (SUCCESSOR, "superseded", old, new)
    }
    assert [v["change"] for v in report["versions"]].count("unchanged") == 2
    third = run("load", "--versions-dir", str(tree), "--database-url", url)
    assert third.stderr.startswith("nothing recorded: the tree equals the catalogue")


def test_calculate_with_a_receipt_then_show_and_replay_it(tmp_path: Path, fixture_tree: Path) -> None:
    from tests.api.http.test_knowledge_time import REQUEST, corrected

    url = f"sqlite:///{tmp_path / 'v.db'}"
    assert run("load", "--versions-dir", str(fixture_tree), "--database-url", url).exit_code == 0
    request = tmp_path / "request.json"
    request.write_text(json.dumps(REQUEST), encoding="utf-8")
    plain = run("calculate", str(request), "--versions-dir", str(fixture_tree))
    kept = run("calculate", str(request), "--receipt", "--database-url", url)
    assert kept.exit_code == 0, kept.output
    assert kept.stdout == plain.stdout  # the same document, byte for byte
    receipt_id = kept.stderr.removeprefix("receipt: ").strip()
    shown = json.loads(run("receipts", "show", receipt_id, "--database-url", url).stdout)
    assert shown["response"] == json.loads(plain.stdout) and shown["request"] == REQUEST
    assert (
        run(
            "load", "--versions-dir", str(corrected(fixture_tree, tmp_path / "v")), "--database-url", url
        ).exit_code
        == 0
    )
    replayed = run("receipts", "replay", receipt_id, "--database-url", url)
    assert replayed.exit_code == 0, replayed.output
    doc = json.loads(replayed.stdout)
    # The cap of the successor: 6 000 € when the receipt was made, 6 300 € since the correction.
    assert (doc["same_revisions"]["total_amount"], doc["today"]["total_amount"]) == ("6000.00", "6300.00")
    assert doc["same_revisions"]["identical_to_receipt"] and doc["today_differs"]
    at = shown["known_at"]
    then = run("calculate", str(request), "--known-at", at, "--database-url", url)
    assert then.stdout == plain.stdout
    assert json.loads(run("resolve", str(request), "--known-at", at, "--database-url", url).stdout)["results"]
    unknown = run("receipts", "show", "0" * 32, "--database-url", url)
    assert unknown.exit_code == 4 and json.loads(unknown.stderr)["errors"][0]["field"] == "receipt_id"
    naive = run("calculate", str(request), "--known-at", "2024-01-01T00:00:00", "--database-url", url)
    assert naive.exit_code == 2 and json.loads(naive.stderr)["errors"][0]["field"] == "known_at"
    before = run("calculate", str(request), "--known-at", "2000-01-01T00:00:00Z", "--database-url", url)
    assert before.exit_code == 4 and "held nothing" in before.stderr
