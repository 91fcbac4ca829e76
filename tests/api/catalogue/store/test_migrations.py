"""The Alembic migrations: from an empty database to the schema of every table model, on both backends.

A table (or column, index, constraint) added to a model without its migration fails here: the database
upgraded from empty is compared with ``SQLModel.metadata`` (every table model of the ``api`` package).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy.engine import Engine
from typer.testing import CliRunner

from api.catalogue.db import alembic_config, current_revisions, head_revisions, make_engine, migrate, table_metadata
from api.cli.main import app as cli
from tests.api.support import BACKENDS, postgres_engine


def _empty(backend: str, tmp_path: Path):  # noqa: ANN202 - a context manager of an Engine
    if backend == "postgresql":
        return postgres_engine(migrate=False)
    return _sqlite(tmp_path)


class _sqlite:
    def __init__(self, tmp_path: Path) -> None:
        self.engine = make_engine(f"sqlite:///{tmp_path / 'empty.db'}")

    def __enter__(self) -> Engine:
        return self.engine

    def __exit__(self, *_: object) -> None:
        self.engine.dispose()


def _differences(engine: Engine) -> list[object]:
    metadata = table_metadata()
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        return [d for d in compare_metadata(context, metadata) if not _is_alembic_version(d)]


def _is_alembic_version(diff: object) -> bool:
    return isinstance(diff, tuple) and len(diff) > 1 and getattr(diff[1], "name", None) == "alembic_version"


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_migrations_make_exactly_the_schema_of_the_models(backend: str, tmp_path: Path) -> None:
    with _empty(backend, tmp_path) as engine:
        assert sa.inspect(engine).get_table_names() == []
        assert migrate(engine) == []
        assert _differences(engine) == []
        tables = set(sa.inspect(engine).get_table_names())
        assert {t.name for t in table_metadata().sorted_tables} <= tables
        assert {"catalogue_load", "version_revision", "receipt", "regression_case"} <= tables


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_table_model_without_its_migration_is_caught(backend: str, tmp_path: Path) -> None:
    metadata = sa.MetaData()
    for table in table_metadata().sorted_tables:
        table.to_metadata(metadata)
    sa.Table("not_migrated", metadata, sa.Column("id", sa.Integer, primary_key=True))
    with _empty(backend, tmp_path) as engine:
        migrate(engine)
        with engine.connect() as connection:
            context = MigrationContext.configure(connection)
            found = [d for d in compare_metadata(context, metadata) if not _is_alembic_version(d)]
    assert [(d[0], d[1].name) for d in found] == [("add_table", "not_migrated")]


@pytest.mark.parametrize("backend", BACKENDS)
def test_migrate_is_idempotent_and_at_head_runs_no_ddl(backend: str, tmp_path: Path) -> None:
    with _empty(backend, tmp_path) as engine:
        migrate(engine)
        statements: list[str] = []
        sa.event.listen(engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
        assert migrate(engine) == list(head_revisions())
        assert not [s for s in statements if s.lstrip().upper().startswith(("CREATE", "ALTER", "DROP"))]
        with engine.connect() as connection:
            assert current_revisions(connection) == head_revisions()


@pytest.mark.parametrize("backend", BACKENDS)
def test_downgrade_to_empty_and_upgrade_again(backend: str, tmp_path: Path) -> None:
    from alembic import command

    with _empty(backend, tmp_path) as engine:
        migrate(engine)
        with engine.begin() as connection:
            command.downgrade(alembic_config(connection=connection), "base")
        assert set(sa.inspect(engine).get_table_names()) <= {"alembic_version"}
        migrate(engine)
        assert _differences(engine) == []


def test_vigueur_db_upgrade_from_empty_then_nothing(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    first = CliRunner().invoke(cli, ["db", "upgrade", "--database-url", url])
    assert first.exit_code == 0, first.output
    assert "upgraded from empty to" in first.stdout
    again = CliRunner().invoke(cli, ["db", "upgrade", "--database-url", url])
    assert "already at" in again.stdout
    current = CliRunner().invoke(cli, ["db", "current", "--database-url", url])
    assert json.loads(current.stdout)["up_to_date"] is True


def test_vigueur_db_upgrade_reports_an_unreachable_database() -> None:
    result = CliRunner().invoke(
        cli, ["db", "upgrade", "--database-url", "postgresql://nobody:secret@127.0.0.1:1/vigueur"]
    )
    assert result.exit_code == 5 and "secret" not in result.output


def test_alembic_reads_database_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`alembic upgrade head` from the repository's root (alembic.ini, env.py reading DATABASE_URL)."""
    from alembic import command
    from alembic.config import Config

    root = Path(__file__).resolve().parents[4]
    monkeypatch.chdir(root)
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'env.db'}")
    command.upgrade(Config(str(root / "alembic.ini")), "head")
    engine = make_engine(f"sqlite:///{tmp_path / 'env.db'}")
    try:
        assert _differences(engine) == []
    finally:
        engine.dispose()
