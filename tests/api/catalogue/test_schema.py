"""The JSON Schemas of version.toml and of the case files: published, committed, and true to the files."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from api.cases.schema import CaseFileDocument, cases_schema
from api.catalogue.loader import DEFAULT_VERSIONS_DIR
from api.catalogue.schema import VersionFile, catalogue_schema, schema_text
from api.cli.main import app

REGRESSION = Path(__file__).resolve().parents[2] / "regression"


@pytest.mark.parametrize(
    ("path", "schema"),
    [
        (DEFAULT_VERSIONS_DIR / "version.schema.json", catalogue_schema),
        (REGRESSION / "cases.schema.json", cases_schema),
    ],
)
def test_the_committed_schema_equals_the_generated_one(path: Path, schema: object) -> None:
    assert callable(schema)
    assert path.read_text(encoding="utf-8") == schema_text(schema()), (
        f"{path} drifted from its model: regenerate it with `vigueur schema --catalogue` / `--cases`"
    )


def test_vigueur_schema_prints_them() -> None:
    result = CliRunner().invoke(app, ["schema", "--catalogue"])
    assert result.exit_code == 0 and json.loads(result.stdout) == catalogue_schema()
    result = CliRunner().invoke(app, ["schema", "--cases"])
    assert result.exit_code == 0 and json.loads(result.stdout) == cases_schema()
    assert "request" in json.loads(CliRunner().invoke(app, ["schema"]).stdout)


def test_every_file_on_file_follows_its_model() -> None:
    tomls = sorted(DEFAULT_VERSIONS_DIR.glob("*/version.toml"))
    assert tomls
    for path in tomls:
        VersionFile.model_validate(tomllib.loads(path.read_text(encoding="utf-8")))
    cases = sorted(REGRESSION.glob("*.yaml"))
    assert cases
    for path in cases:
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
        CaseFileDocument.model_validate_json(json.dumps(document, default=str))  # as an editor reads it: JSON


def test_documented_fields() -> None:
    props = catalogue_schema()["$defs"]["ParameterFile"]["properties"]
    assert set(props) == {"value", "unit", "paragraph", "quote", "notion"}
    assert all("description" in p for p in props.values())
    assert catalogue_schema()["additionalProperties"] is False
