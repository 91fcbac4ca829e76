"""Engines, schema, write locks: the embedded SQLite file by default, PostgreSQL (psycopg 3) by URL.

The schema is made by the Alembic migrations of ``api/migrations`` (``vigueur db upgrade``), and
:func:`migrate` runs them when a process needs the database: an empty SQLite file (the default) or an empty
PostgreSQL database is brought to the current schema without a separate step, a database already at the head
revision is left untouched (no DDL at all, so a role without DDL rights can serve once an operator has run
``vigueur db upgrade``). Migrations and catalogue writes take a lock (:func:`write_lock`): PostgreSQL's
transaction-level advisory lock, SQLite's database write lock (``BEGIN IMMEDIATE``).
"""

from __future__ import annotations

import importlib
from functools import cache
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.pool import StaticPool
from sqlmodel import SQLModel, create_engine

from api.catalogue import tables  # noqa: F401 - registers the table models on SQLModel.metadata

CONNECT_TIMEOUT_SECONDS = 3
SQLITE_BUSY_SECONDS = 60  # how long a SQLite writer waits for another one (a load) before giving up
# A pool as large as AnyIO's 40 threads (issue 10): a thread never waits for a connection another request's
# thread could not give back; and a wait that happens anyway ends in a 503 within POOL_TIMEOUT_SECONDS.
POOL_SIZE, POOL_OVERFLOW, POOL_TIMEOUT_SECONDS = 10, 30, 10
MIGRATIONS_DIR = Path(__file__).resolve().parent.parent / "migrations"  # api/migrations


def make_engine(url: str, **options: Any) -> Engine:
    """An engine for ``url``; SQLite gets foreign keys on, PostgreSQL a short connect timeout."""
    backend = sa.engine.make_url(url).get_backend_name()
    if backend == "sqlite":
        connect_args: dict[str, Any] = {"check_same_thread": False, "timeout": SQLITE_BUSY_SECONDS}
        if sa.engine.make_url(url).database in (None, "", ":memory:"):
            options.setdefault("poolclass", StaticPool)  # one in-memory database shared by every session
        else:
            options = _pool(options)
        engine = create_engine(url, connect_args=connect_args, **options)
        sa.event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    if backend == "postgresql":
        connect_args = {"connect_timeout": CONNECT_TIMEOUT_SECONDS, **options.pop("connect_args", {})}
        return create_engine(url, connect_args=connect_args, pool_pre_ping=True, **_pool(options))
    return create_engine(url, pool_pre_ping=True, **options)


def _pool(options: dict[str, Any]) -> dict[str, Any]:
    if "poolclass" in options:
        return options
    return {"pool_size": POOL_SIZE, "max_overflow": POOL_OVERFLOW, "pool_timeout": POOL_TIMEOUT_SECONDS} | options


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def write_lock(connection: Connection, name: str = "catalogue") -> None:
    """Serialize writers, inside the connection's transaction, until it ends (commit or rollback).

    PostgreSQL: ``pg_advisory_xact_lock`` on a key made of the schema and ``name`` (two catalogues in two
    schemas of one database do not wait for each other). SQLite: the database write lock, taken at once with
    ``BEGIN IMMEDIATE`` — a second writer waits (up to ``SQLITE_BUSY_SECONDS``) and then reads what the
    first one committed. (An in-memory SQLite database shares one connection between its sessions: there is
    no second writer to wait for.)
    """
    dialect = connection.dialect.name
    if dialect == "postgresql":
        connection.execute(
            sa.text("SELECT pg_advisory_xact_lock(hashtext(current_schema() || :key))"),
            {"key": f"/vigueur.{name}"},
        )
    elif dialect == "sqlite":
        raw = connection.connection.driver_connection
        if raw is not None and not raw.in_transaction:
            # pysqlite begins a transaction only before a write: this one is begun here, holding the lock.
            connection.exec_driver_sql("BEGIN IMMEDIATE")


# -- schema ------------------------------------------------------------------------------------------


def alembic_config(url: str | None = None, connection: Connection | None = None) -> Any:
    """The Alembic configuration of the store (no alembic.ini needed); ``url`` for offline SQL scripts."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    if url is not None:
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    config.attributes["connection"] = connection
    return config


@cache
def _scripts() -> Any:
    """The migration scripts, read once per process (a ScriptDirectory keeps its revision modules)."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config())


def head_revisions() -> tuple[str, ...]:
    return tuple(sorted(_scripts().get_heads()))


def current_revisions(connection: Connection) -> tuple[str, ...]:
    from alembic.runtime.migration import MigrationContext

    return tuple(sorted(MigrationContext.configure(connection).get_current_heads()))


def migrate(engine: Engine, target: str = "head") -> list[str]:
    """Bring the database to ``target`` in one transaction, under the schema lock; the revisions before.

    Returns the revisions the database was at before ([] for an empty database). At the head already:
    nothing is executed but the version check.
    """
    with engine.connect() as connection:
        before = list(current_revisions(connection))
        connection.rollback()
        if target == "head" and tuple(before) == head_revisions():
            return before
        with connection.begin():
            write_lock(connection, "schema")
            before = list(current_revisions(connection))  # another process may have migrated meanwhile
            if target == "head" and tuple(before) == head_revisions():
                return before
            _upgrade(connection, target)
    return before


def _upgrade(connection: Connection, target: str) -> None:
    """``alembic upgrade`` on ``connection``, the scripts read once per process (as env.py does)."""
    from alembic.runtime.environment import EnvironmentContext

    scripts = _scripts()

    def steps(revision: Any, _context: Any) -> Any:
        return scripts._upgrade_revs(target, revision)

    with EnvironmentContext(
        alembic_config(connection=connection), scripts, fn=steps, destination_rev=target
    ) as env:
        env.configure(connection=connection, target_metadata=SQLModel.metadata)
        with env.begin_transaction():
            env.run_migrations()


def create_tables(engine: Engine) -> None:
    """Bring the database to the current schema (the migrations; idempotent)."""
    migrate(engine)


# Every module that declares table models (``table=True``); imported by name, so that the catalogue does not
# import the cases at load time.
TABLE_MODULES = ("api.catalogue.tables", "api.cases.tables")


def table_metadata() -> sa.MetaData:
    """SQLModel's metadata, every table model of the ``api`` package imported (for Alembic, the tests)."""
    for module in TABLE_MODULES:
        importlib.import_module(module)
    return SQLModel.metadata
