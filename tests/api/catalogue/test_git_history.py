"""`vigueur load --history`: each commit that changed versions/ becomes a load at its commit time, in order,
once; without git history, a clear message. The repository is made here, in a temporary folder."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from api.cli.main import app
from tests.api.support import SUCCESSOR, copy_tree, raise_successor_cap

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
runner = CliRunner()


def git(repo: Path, *args: str, when: str | None = None) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"}  # fmt: skip
    if when:
        env |= {"GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when}
    subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)


@pytest.fixture
def repo(tmp_path: Path, fixture_tree: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q")
    copy_tree(fixture_tree, root / "versions")
    git(root, "add", "versions")
    git(root, "commit", "-qm", "catalogue", when="2026-01-10T12:00:00+00:00")
    (root / "README.md").write_text("not the catalogue\n", encoding="utf-8")
    git(root, "add", "README.md")
    git(root, "commit", "-qm", "docs only", when="2026-02-01T12:00:00+00:00")
    raise_successor_cap(root / "versions")
    git(root, "commit", "-qam", "6 100", when="2026-03-10T12:00:00+00:00")
    return root


def load(repo: Path, url: str) -> dict:  # type: ignore[type-arg]
    result = runner.invoke(app, ["load", "--history", "--versions-dir", str(repo / "versions"), "--database-url", url])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def test_each_commit_of_versions_becomes_a_load_at_its_commit_time(repo: Path, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'h.db'}"
    report = load(repo, url)
    assert [(h["committed_at"], h["outcome"]) for h in report["history"]] == [
        ("2026-01-10T12:00:00+00:00", "recorded"),
        ("2026-03-10T12:00:00+00:00", "recorded"),
    ]
    assert report["changed"] is False  # the working tree is the last commit's: nothing more to record
    then = runner.invoke(app, ["show", SUCCESSOR, "--known-at", "2026-02-01T00:00:00Z", "--database-url", url])
    assert "6 000 euros" in json.loads(then.stdout)["text"]
    now = runner.invoke(app, ["show", SUCCESSOR, "--known-at", "2026-03-11T00:00:00Z", "--database-url", url])
    assert "6 100 euros" in json.loads(now.stdout)["text"]
    before = runner.invoke(app, ["show", SUCCESSOR, "--known-at", "2026-01-01T00:00:00Z", "--database-url", url])
    assert before.exit_code == 4


def test_replaying_twice_records_nothing_new(repo: Path, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'h.db'}"
    load(repo, url)
    again = load(repo, url)
    assert {h["outcome"] for h in again["history"]} == {"already_recorded"} and again["changed"] is False


def test_history_never_goes_before_what_the_database_knew(repo: Path, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'h.db'}"
    plain = runner.invoke(app, ["load", "--versions-dir", str(repo / "versions"), "--database-url", url])
    assert plain.exit_code == 0
    report = load(repo, url)
    assert {h["outcome"] for h in report["history"]} == {"not_after_latest_load"}


def test_without_a_git_repository_the_message_is_clear(tmp_path: Path, fixture_tree: Path) -> None:
    tree = copy_tree(fixture_tree, tmp_path / "plain" / "versions")
    result = runner.invoke(
        app, ["load", "--history", "--versions-dir", str(tree), "--database-url", f"sqlite:///{tmp_path / 'x.db'}"]
    )
    problem = json.loads(result.stderr)
    assert result.exit_code == 8 and problem["type"] == "urn:vigueur:problem:history-unavailable"
    assert "not in a git repository" in problem["detail"]
