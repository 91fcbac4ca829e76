"""Engines and schema: the embedded SQLite file by default, PostgreSQL (psycopg 3) when the URL says so."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.pool import StaticPool
from sqlmodel import SQLModel, create_engine

from api import tables  # noqa: F401 - registers the table models on SQLModel.metadata

CONNECT_TIMEOUT_SECONDS = 3


def make_engine(url: str, **options: Any) -> Engine:
    """An engine for ``url``; SQLite gets foreign keys on, PostgreSQL a short connect timeout."""
    backend = sa.engine.make_url(url).get_backend_name()
    if backend == "sqlite":
        connect_args: dict[str, Any] = {"check_same_thread": False}
        if sa.engine.make_url(url).database in (None, "", ":memory:"):
            options.setdefault("poolclass", StaticPool)  # one in-memory database shared by every session
        engine = create_engine(url, connect_args=connect_args, **options)
        sa.event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    if backend == "postgresql":
        connect_args = {"connect_timeout": CONNECT_TIMEOUT_SECONDS, **options.pop("connect_args", {})}
        return create_engine(url, connect_args=connect_args, pool_pre_ping=True, **options)
    return create_engine(url, pool_pre_ping=True, **options)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def create_tables(engine: Engine) -> None:
    """Create the catalogue tables that do not exist yet (idempotent)."""
    SQLModel.metadata.create_all(engine)


def ping(engine: Engine) -> None:
    """Raise when the database does not answer."""
    with engine.connect() as connection:
        connection.execute(sa.text("SELECT 1"))
