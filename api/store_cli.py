"""`vigueur load`, `vigueur serve`, `vigueur db upgrade|current`, `vigueur receipts show|replay`: the
catalogue into the database, the HTTP API over it, the schema, and the receipts.

Exit codes (as the rest of the CLI): 0 success; 3 the ``versions/`` tree is invalid (the database is left
as it was); 4 unknown receipt; 5 the database does not answer; 6 a store integrity check failed (rows no
longer rebuild into what was recorded).
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from api.output import dumps
from api.settings import Settings, normalize_database_url, redact_database_url
from legislation.errors import CatalogueError

if TYPE_CHECKING:
    from api.store import LoadReport

# The database layer (SQLAlchemy, SQLModel, Alembic) is imported by the commands that use it, not when
# `vigueur` starts: `vigueur batch` and `vigueur calculate` never touch a database.

WORKER_START_SECONDS = 60
GRACEFUL_SHUTDOWN_SECONDS = 10
HEADER_TIMEOUT_SECONDS = 10.0  # api/server.py's default, repeated here so that `vigueur --help` imports no uvicorn

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
    from sqlalchemy import exc as sa_exc

    from api.db import make_engine
    from api.store import load_into

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
    typer.echo(readable_report(report), err=True, nl=False)
    typer.echo(dumps({"database": redact_database_url(settings.database_url)} | report.to_json()), nl=False)


def readable_report(report: LoadReport) -> str:
    """What a load recorded, one line per version: new, superseded (old → new hash), removed, unchanged."""
    head = (
        f"recorded load {report.load_id} at {report.recorded_at.isoformat()}"
        if report.recorded_at is not None
        else "nothing recorded: the tree equals the catalogue"
    )
    words = {
        "added": "new       ",
        "superseded": "superseded",
        "removed": "removed   ",
        "unchanged": "unchanged ",
    }
    lines = [f"{head} (tree {report.tree_hash})"]
    for v in report.versions:
        if v.change == "superseded":
            hashes = f"{v.old_hash} → {v.new_hash}"
        else:
            hashes = v.new_hash or f"{v.old_hash} → (none)"
        lines.append(f"  {words[v.change]} {v.version_id}  {hashes}")
    if report.gaps_added or report.gaps_removed:
        lines.append(f"  gaps: {report.gaps_added} new, {report.gaps_removed} superseded")
    return "\n".join(lines) + "\n"


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
    graceful_timeout: Annotated[
        int, typer.Option(help="On SIGTERM: seconds given to the requests in flight before they are cut.", min=1)
    ] = GRACEFUL_SHUTDOWN_SECONDS,
    header_timeout: Annotated[
        float, typer.Option(help="Seconds a client has to send a request's headers.", min=0.1)
    ] = HEADER_TIMEOUT_SECONDS,
) -> None:
    """Serve the HTTP API with uvicorn; an empty database is first filled from versions/. Docs at /docs."""
    import uvicorn
    from sqlalchemy import exc as sa_exc

    from api.db import make_engine
    from api.server import HEADER_TIMEOUT_ENV, NoDelayHTTPProtocol
    from api.store import ensure_loaded

    settings = _settings(database_url, versions_dir)
    os.environ["DATABASE_URL"] = settings.database_url  # the workers read their settings from the environment
    if settings.versions_dir is not None:
        os.environ["VIGUEUR_VERSIONS_DIR"] = str(settings.versions_dir)
    os.environ[HEADER_TIMEOUT_ENV] = str(header_timeout)
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
    # http: uvicorn's protocol with TCP_NODELAY on each connection, which --workers N leaves off otherwise (a
    # keep-alive client then waits on its own delayed ACK, ~40 ms a request): see api/server.py.
    uvicorn.run(
        "api.app:app",
        host=host,
        port=port,
        workers=workers,
        log_level=log_level,
        timeout_worker_healthcheck=WORKER_START_SECONDS,
        http=NoDelayHTTPProtocol,
        # Issue 10: SIGTERM on a saturated server took minutes; in-flight requests get this long, then go.
        timeout_graceful_shutdown=graceful_timeout,
    )


# -- vigueur db ------------------------------------------------------------------------------------

db_app = typer.Typer(help="The database schema (Alembic migrations of api/migrations).", no_args_is_help=True)


@db_app.command("upgrade")
def db_upgrade(database_url: DatabaseUrl = None) -> None:
    """Bring the database to the current schema (from empty, or from an older revision); idempotent."""
    from sqlalchemy import exc as sa_exc

    from api.db import current_revisions, make_engine, migrate

    settings = _settings(database_url, None)
    engine = make_engine(settings.database_url)
    try:
        before = migrate(engine)
        with engine.connect() as connection:
            after = current_revisions(connection)
    except (sa_exc.OperationalError, sa_exc.InterfaceError) as exc:
        _unreachable(settings, exc)
    finally:
        engine.dispose()
    where = redact_database_url(settings.database_url)
    state = "already at" if tuple(before) == after else f"upgraded from {', '.join(before) or 'empty'} to"
    typer.echo(f"database {where}: {state} {', '.join(after)} (head)")


@db_app.command("current")
def db_current(database_url: DatabaseUrl = None) -> None:
    """The schema revision of the database, and the head revision of this vigueur."""
    from sqlalchemy import exc as sa_exc

    from api.db import current_revisions, head_revisions, make_engine

    settings = _settings(database_url, None)
    engine = make_engine(settings.database_url)
    try:
        with engine.connect() as connection:
            current = current_revisions(connection)
    except (sa_exc.OperationalError, sa_exc.InterfaceError) as exc:
        _unreachable(settings, exc)
    finally:
        engine.dispose()
    head = head_revisions()
    typer.echo(dumps({"current": list(current), "head": list(head), "up_to_date": current == head}), nl=False)


def _unreachable(settings: Settings, exc: Exception) -> None:
    typer.echo(
        f"database {redact_database_url(settings.database_url)} does not answer: {str(exc).splitlines()[0]}",
        err=True,
    )
    raise typer.Exit(5)


# -- vigueur receipts ------------------------------------------------------------------------------

receipts_app = typer.Typer(
    help="Receipts of calculations (`vigueur calculate --receipt`): show one, replay one.",
    no_args_is_help=True,
)
ReceiptId = Annotated[str, typer.Argument(help="The receipt id (32 hexadecimal digits).")]


@receipts_app.command("show")
def receipts_show(receipt_id: ReceiptId, database_url: DatabaseUrl = None) -> None:
    """The receipt as recorded: request, response, the revisions used, the knowledge instant."""
    from api import receipts

    typer.echo(dumps(_with_receipt(database_url, receipt_id, lambda s, r: receipts.document(s, r))), nl=False)


@receipts_app.command("replay")
def receipts_replay(receipt_id: ReceiptId, database_url: DatabaseUrl = None) -> None:
    """Recompute with the same revisions (verified by hash) and with today's catalogue; both, and the diff."""
    from api import receipts

    now = datetime.now(UTC)
    typer.echo(
        dumps(_with_receipt(database_url, receipt_id, lambda s, r: receipts.replay(s, r, now=now))), nl=False
    )


def _with_receipt(database_url: str | None, receipt_id: str, fn: Any) -> Any:
    from sqlalchemy import exc as sa_exc
    from sqlmodel import Session

    from api import receipts
    from api.db import make_engine
    from api.store import StoreIntegrityError

    settings = _settings(database_url, None)
    engine = make_engine(settings.database_url)
    try:
        with Session(engine) as session:
            return fn(session, receipts.get(session, receipt_id))
    except receipts.UnknownReceipt as exc:
        typer.echo(
            dumps(
                {
                    "type": "about:blank",
                    "title": "Unknown receipt",
                    "status": 404,
                    "errors": [{"field": "receipt_id", "message": str(exc)}],
                }
            ),
            nl=False,
        )
        raise typer.Exit(4) from None
    except StoreIntegrityError as exc:
        typer.echo(f"store integrity check failed: {exc}", err=True)
        raise typer.Exit(6) from None
    except (sa_exc.OperationalError, sa_exc.InterfaceError) as exc:
        _unreachable(settings, exc)
    finally:
        engine.dispose()


# -- vigueur calculate --receipt / --known-at -------------------------------------------------------


def calculate_from_database(
    raw: bytes,
    compute: Any,
    *,
    known_at: str | None,
    receipt: bool,
    database_url: str | None,
) -> str:
    """``compute(catalogue)`` with the catalogue of the database (as known at ``known_at``), as JSON text;
    with ``receipt``, the receipt is recorded and its id printed on standard error."""
    from sqlalchemy import exc as sa_exc
    from sqlmodel import Session

    from api import receipts
    from api.db import make_engine, migrate
    from api.deps import parse_known_at
    from api.problems import ProblemError
    from api.store import CatalogueNotLoaded, NothingKnownThen, read_known

    now = datetime.now(UTC)
    try:
        instant = parse_known_at(known_at, now) if known_at is not None else None
    except ProblemError as exc:
        typer.echo(dumps(exc.document), nl=False)
        raise typer.Exit(2) from None
    settings = _settings(database_url, None)
    engine = make_engine(settings.database_url)
    try:
        migrate(engine)
        with Session(engine) as session:
            known = read_known(session, instant)
            text = dumps(compute(known.catalogue))
            if receipt:
                kept = receipts.record(session, known, raw, text, now=now)
                typer.echo(f"receipt: {kept.receipt_id}", err=True)
        return text
    except NothingKnownThen as exc:
        typer.echo(
            dumps(
                {
                    "type": "about:blank",
                    "title": "Nothing known then",
                    "status": 404,
                    "errors": [{"field": "known_at", "message": str(exc)}],
                }
            ),
            nl=False,
        )
        raise typer.Exit(4) from None
    except CatalogueNotLoaded as exc:
        typer.echo(f"{exc}", err=True)
        raise typer.Exit(5) from None
    except (sa_exc.OperationalError, sa_exc.InterfaceError) as exc:
        _unreachable(settings, exc)
        raise
    finally:
        engine.dispose()
