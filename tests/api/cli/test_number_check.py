"""A parameter whose value contradicts its quote is refused by `vigueur load` and `vigueur versions` (issue 9)."""

from __future__ import annotations

import shutil
from pathlib import Path

from typer.testing import CliRunner

from api.catalogue.db import make_engine
from api.catalogue.loader import DEFAULT_VERSIONS_DIR
from api.cli.main import app
from tests.api.support import snapshot

REFERENCE = "D251-7.2020-06-01"


def contradicted(tmp_path: Path) -> Path:
    """versions/ whose ev_cap_natural reads 7500 while its quote says « dans la limite de 7 000 euros »."""
    tree = tmp_path / "versions"
    shutil.copytree(DEFAULT_VERSIONS_DIR, tree)
    toml = tree / REFERENCE / "version.toml"
    text = toml.read_text(encoding="utf-8")
    assert 'ev_cap_natural = { value = "7000"' in text
    toml.write_text(text.replace('ev_cap_natural = { value = "7000"', 'ev_cap_natural = { value = "7500"'), "utf-8")
    return tree


def _names_it(output: str) -> None:
    assert f"{REFERENCE}/version.toml" in output
    assert "parameters.ev_cap_natural.value" in output and "dans la limite de 7 000 euros" in output


def test_versions_refuses_a_value_that_contradicts_its_quote(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["versions", "--versions-dir", str(contradicted(tmp_path))])
    assert result.exit_code == 3
    _names_it(result.stderr)


def test_load_refuses_a_value_that_contradicts_its_quote_and_writes_nothing(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'v.db'}"
    result = CliRunner().invoke(app, ["load", "--versions-dir", str(contradicted(tmp_path)), "--database-url", url])
    assert result.exit_code == 3
    _names_it(result.stderr)
    assert "the database was not changed" in result.stderr
    assert not any(snapshot(make_engine(url)).values())


def test_every_version_on_file_passes() -> None:
    assert CliRunner().invoke(app, ["versions"]).exit_code == 0
