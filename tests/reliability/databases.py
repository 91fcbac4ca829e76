"""Scratch PostgreSQL databases for the tests that need a whole database (created, dropped, recreated)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import sqlalchemy as sa

from api.catalogue.db import make_engine


def _admin(url: str) -> sa.Engine:
    return make_engine(url, isolation_level="AUTOCOMMIT")


def database_url(url: str, name: str) -> str:
    return sa.engine.make_url(url).set(database=name).render_as_string(hide_password=False)


def create_database(url: str, name: str) -> None:
    admin = _admin(url)
    try:
        with admin.connect() as connection:
            connection.execute(sa.text(f'CREATE DATABASE "{name}"'))
    finally:
        admin.dispose()


def drop_database(url: str, name: str) -> None:
    admin = _admin(url)
    try:
        with admin.connect() as connection:
            connection.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        admin.dispose()


@contextmanager
def scratch_postgres(url: str, *, create: bool = True) -> Iterator[str]:
    """The URL of a database of its own on the server of ``url`` (created unless ``create`` is false), dropped
    at the end whoever created it."""
    name = f"vigueur_rel_{uuid.uuid4().hex[:10]}"
    if create:
        create_database(url, name)
    try:
        yield database_url(url, name)
    finally:
        drop_database(url, name)
