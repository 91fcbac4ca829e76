"""`vigueur cases import PATH…`: case files into the database (idempotent), for `GET /v1/cases` and
`POST /v1/cases/run`.

Exit codes: 0 imported (or nothing to change); 2 a case file is invalid (the message names the file, the
case and the field; the database is not touched) or no case was found; 5 the database does not answer.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from api.cases_cli import cases_app
from api.output import dumps
from api.settings import Settings, normalize_database_url, redact_database_url


@cases_app.command("import")
def import_command(
    paths: Annotated[list[Path], typer.Argument(help="Case files (.yaml) or folders searched recursively.")],
    database_url: Annotated[
        str | None,
        typer.Option(
            "--database-url",
            help="Default: $DATABASE_URL, else the SQLite file ./vigueur.db. PostgreSQL: postgresql://user@host/db.",
        ),
    ] = None,
    prune: Annotated[
        bool,
        typer.Option(
            "--prune",
            help="Retire the stored cases not in these files (import the whole corpus to mirror it).",
        ),
    ] = False,
) -> None:
    """Import case files: a new case is added, a changed one supersedes its row, the same writes nothing."""
    from sqlalchemy import exc as sa_exc  # the database layer, imported when the command runs
    from sqlmodel import Session

    from api.case_store import ensure_tables, import_cases, read_case_files
    from api.cases import CaseFileError
    from api.db import make_engine

    try:
        cases = read_case_files([str(p) for p in paths])
    except CaseFileError as exc:
        typer.echo(f"invalid case file, the database was not changed: {exc}", err=True)
        raise typer.Exit(2) from None
    if not cases:
        typer.echo("no case to import", err=True)
        raise typer.Exit(2)
    url = normalize_database_url(database_url) if database_url else Settings.from_env().database_url
    origin = " ".join(str(p) for p in paths)
    engine = make_engine(url)
    try:
        ensure_tables(engine)
        with Session(engine) as session:
            result = import_cases(session, cases, origin, prune=prune)
            session.commit()
    except (sa_exc.OperationalError, sa_exc.InterfaceError) as exc:
        typer.echo(
            f"database {redact_database_url(url)} does not answer: {str(exc).splitlines()[0]}", err=True
        )
        raise typer.Exit(5) from None
    finally:
        engine.dispose()
    typer.echo(dumps({"database": redact_database_url(url)} | result.to_json()), nl=False)
