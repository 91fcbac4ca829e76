"""Alembic environment of the store.

The database is, in this order: the connection handed by :func:`api.catalogue.db.migrate` (``vigueur db upgrade``,
start-up of ``vigueur load|serve``), the ``sqlalchemy.url`` option (``alembic -x``-less offline scripts), or
``VIGUEUR_DATABASE_URL`` or ``DATABASE_URL`` (default: ``vigueur.db`` in the user data directory), as
``alembic upgrade head`` from the repository's root reads it.
"""

from __future__ import annotations

from alembic import context

from api.catalogue.db import make_engine, table_metadata
from api.settings import Settings

config = context.config
target_metadata = table_metadata()


def _url() -> str:
    return config.get_main_option("sqlalchemy.url") or Settings.from_env().database_url


def run_offline() -> None:
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = make_engine(_url())
    try:
        with engine.connect() as connection:
            _run(connection)
            connection.commit()
    finally:
        engine.dispose()


def _run(connection: object) -> None:
    context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
