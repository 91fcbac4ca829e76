"""The database as the commands see it: one configured location (``--database-url``, else
``$VIGUEUR_DATABASE_URL`` or ``$DATABASE_URL``, else ``vigueur.db`` in the user's data directory), and two
errors told apart, each a problem document on standard error:

* exit 5, ``urn:vigueur:problem:database-unavailable``: cannot connect to the database;
* exit 7, ``urn:vigueur:problem:catalogue-not-loaded``: the database answers (or does not exist yet) but holds no
  catalogue — run ``vigueur load``. A command that only reads never creates an empty database file.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

from api.cli.options import fail_with
from api.problem_types import problem, problem_type
from api.settings import Settings, create_data_dir, normalize_database_url, redact_database_url, sqlite_path

if TYPE_CHECKING:
    from sqlmodel import Session

    from api.catalogue.store import KnownCatalogue

CANNOT_CONNECT = 5
NO_CATALOGUE = 7

DatabaseUrl = Annotated[
    str | None,
    typer.Option(
        "--database-url",
        help=(
            "Default: $VIGUEUR_DATABASE_URL, else $DATABASE_URL, else vigueur.db in the user's data directory "
            "(`vigueur db path`). PostgreSQL: postgresql://user@host/db."
        ),
    ),
]


def settings_for(database_url: str | None, versions_dir: Path | None = None, *, writes: bool = False) -> Settings:
    """The settings of a command; ``writes``: the default data directory is created if need be."""
    env = Settings.from_env()
    settings = Settings(
        database_url=normalize_database_url(database_url) if database_url else env.database_url,
        versions_dir=versions_dir or env.versions_dir,
        cors_origins=env.cors_origins,
    )
    if writes:
        create_data_dir(settings.database_url)
    return settings


def cannot_connect(settings: Settings, exc: BaseException) -> NoReturn:
    reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    fail_with(
        problem(
            503,
            "Database unavailable",
            type_=problem_type("database-unavailable"),
            detail=f"cannot connect to the database {redact_database_url(settings.database_url)}: {reason}",
            database=redact_database_url(settings.database_url),
        ),
        CANNOT_CONNECT,
    )


def no_catalogue(settings: Settings) -> NoReturn:
    where = redact_database_url(settings.database_url)
    fail_with(
        problem(
            503,
            "Catalogue not loaded",
            type_=problem_type("catalogue-not-loaded"),
            detail=f"the database {where} holds no catalogue: run `vigueur load` (or `vigueur serve`)",
            database=where,
        ),
        NO_CATALOGUE,
    )


@contextmanager
def reading(database_url: str | None, *, migrate_first: bool = False) -> Iterator[Session]:
    """A session on a database that holds a catalogue; else the right problem and its exit code.
    ``migrate_first``: bring the schema to the head first (a command that writes, e.g. a receipt)."""
    import sqlalchemy as sa
    from sqlalchemy import exc as sa_exc
    from sqlmodel import Session

    from api.catalogue.db import make_engine, migrate
    from api.catalogue.store import CatalogueNotLoaded
    from api.catalogue.tables import LoadRow

    settings = settings_for(database_url)
    path = sqlite_path(settings.database_url)
    if path is not None and not path.is_file():
        no_catalogue(settings)  # and no empty file left behind by asking
    engine = make_engine(settings.database_url)
    try:
        with engine.connect() as connection:
            if not sa.inspect(connection).has_table(LoadRow.__tablename__):
                no_catalogue(settings)
        if migrate_first:
            migrate(engine)
        with Session(engine) as session:
            yield session
    except CatalogueNotLoaded:
        no_catalogue(settings)
    except (sa_exc.OperationalError, sa_exc.InterfaceError, sa_exc.TimeoutError) as exc:
        cannot_connect(settings, exc)
    finally:
        engine.dispose()


def parse_instant(known_at: str) -> datetime:
    """``--known-at``: an ISO 8601 instant with its offset, not to come; else the API's 422, exit 2."""
    from api.http.deps import parse_known_at
    from api.http.problems import ProblemError

    try:
        return parse_known_at(known_at, datetime.now(UTC))
    except ProblemError as exc:
        fail_with(exc.document, 2)


def known_catalogue(session: Session, known_at: str | None) -> KnownCatalogue:
    """The catalogue of the database as known at ``known_at`` (default: the latest load); 404 before the first."""
    from api.catalogue.store import NothingKnownThen, read_known

    instant = parse_instant(known_at) if known_at is not None else None
    try:
        return read_known(session, instant)
    except NothingKnownThen as exc:
        fail_with(nothing_known_problem(exc), 4)


def nothing_known_problem(exc: Exception) -> dict[str, object]:
    from api.catalogue.store import NothingKnownThen

    assert isinstance(exc, NothingKnownThen)
    return problem(
        404,
        "Nothing known then",
        type_=problem_type("nothing-known-then"),
        detail=str(exc),
        errors=[{"field": "known_at", "message": "before the first load of the catalogue: it held no version then"}],
        known_at=exc.known_at.isoformat(),
        first_recorded_at=exc.first_recorded_at.isoformat(),
    )


def path(database_url: DatabaseUrl = None) -> None:
    """Where the database is: the SQLite file (or the URL, password hidden), and where that setting comes from."""
    import os

    settings = settings_for(database_url)
    origin = (
        "--database-url"
        if database_url
        else next((f"${name}" for name in ("VIGUEUR_DATABASE_URL", "DATABASE_URL") if os.environ.get(name)), None)
        or "default: the user's data directory"
    )
    file = sqlite_path(settings.database_url)
    typer.echo(str(file) if file is not None else redact_database_url(settings.database_url))
    typer.echo(f"({origin}{'' if file is None or file.is_file() else '; not created yet'})", err=True)
