"""`vigueur load` and `vigueur serve`: the catalogue into the database, and the HTTP API over it.

Exit codes (as the rest of the CLI): 0 success; 3 the ``versions/`` tree is invalid (the database is left
as it was); 5 the database does not answer.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer
from sqlalchemy import exc as sa_exc

from api.contract import dumps
from api.db import make_engine
from api.settings import Settings, normalize_database_url, redact_database_url
from api.store import ensure_loaded, load_into
from legislation.errors import CatalogueError

WORKER_START_SECONDS = 60

VersionsDir = Annotated[
    Path | None,
    typer.Option(
        "--versions-dir",
        help="The catalogue folder (default: $VIGUEUR_VERSIONS_DIR, else the repository's versions/).",
    ),
]
DatabaseUrl = Annotated[
    str | None,
    typer.Option(
        "--database-url",
        help="Default: $DATABASE_URL, else the SQLite file ./vigueur.db. PostgreSQL: postgresql://user@host/db.",
    ),
]


def _settings(database_url: str | None, versions_dir: Path | None) -> Settings:
    env = Settings.from_env()
    return Settings(
        database_url=normalize_database_url(database_url) if database_url else env.database_url,
        versions_dir=versions_dir or env.versions_dir,
    )


def load(versions_dir: VersionsDir = None, database_url: DatabaseUrl = None) -> None:
    """Load versions/ into the database in one transaction: all or nothing; the same tree twice: nothing."""
    settings = _settings(database_url, versions_dir)
    engine = make_engine(settings.database_url)
    try:
        report = load_into(engine, settings.versions_dir)
    except CatalogueError as exc:
        typer.echo(f"invalid catalogue, the database was not changed: {exc}", err=True)
        raise typer.Exit(3) from None
    except (sa_exc.OperationalError, sa_exc.InterfaceError) as exc:
        typer.echo(
            f"database {redact_database_url(settings.database_url)} does not answer: "
            f"{str(exc).splitlines()[0]}",
            err=True,
        )
        raise typer.Exit(5) from None
    finally:
        engine.dispose()
    typer.echo(dumps({"database": redact_database_url(settings.database_url)} | report.to_json()), nl=False)


def serve(
    host: Annotated[
        str, typer.Option(help="Interface to listen on (0.0.0.0 for every interface).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port.", min=1, max=65535)] = 8000,
    workers: Annotated[
        int, typer.Option(help="Worker processes (the API is stateless: any number).", min=1)
    ] = 1,
    versions_dir: VersionsDir = None,
    database_url: DatabaseUrl = None,
    log_level: Annotated[str, typer.Option(help="uvicorn log level.")] = "info",
) -> None:
    """Serve the HTTP API with uvicorn; an empty database is first filled from versions/. Docs at /docs."""
    import uvicorn

    settings = _settings(database_url, versions_dir)
    os.environ["DATABASE_URL"] = settings.database_url  # the workers read their settings from the environment
    if settings.versions_dir is not None:
        os.environ["VIGUEUR_VERSIONS_DIR"] = str(settings.versions_dir)
    where = redact_database_url(settings.database_url)
    engine = make_engine(settings.database_url)
    try:
        report = ensure_loaded(engine, settings.versions_dir)
        state = (
            "catalogue loaded: " + dumps(report.to_json()["counts"]).replace("\n", " ")
            if report
            else "catalogue on file"
        )
        typer.echo(f"vigueur: database {where}, {state}", err=True)
    except CatalogueError as exc:
        typer.echo(f"invalid catalogue, not serving: {exc}", err=True)
        raise typer.Exit(3) from None
    except (sa_exc.OperationalError, sa_exc.InterfaceError) as exc:
        typer.echo(
            f"vigueur: database {where} does not answer ({str(exc).splitlines()[0]}); serving anyway, "
            "/readyz and the catalogue endpoints answer 503 until it does",
            err=True,
        )
    finally:
        engine.dispose()
    typer.echo(f"vigueur: API on http://{host}:{port}/  (docs: http://{host}:{port}/docs)", err=True)
    # A worker imports the whole app before it answers the supervisor's health check: on a busy machine that
    # takes longer than uvicorn's 5 s default, and the supervisor would kill it while it starts.
    uvicorn.run(
        "api.app:app",
        host=host,
        port=port,
        workers=workers,
        log_level=log_level,
        timeout_worker_healthcheck=WORKER_START_SECONDS,
    )
