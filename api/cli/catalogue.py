"""`vigueur load`, `vigueur serve`, `vigueur db upgrade|current|path`, `vigueur receipts show|replay`: the
catalogue into the database, the HTTP API over it, the schema, and the receipts.

Exit codes (as the rest of the CLI): 0 success; 3 the ``versions/`` tree is invalid (the database is left
as it was); 4 unknown receipt, or nothing known at ``--known-at``; 5 cannot connect to the database; 6 a store
integrity check failed (rows no longer rebuild into what was recorded); 7 the database holds no catalogue;
8 `load --history` without git or without the repository's .git folder.
Errors are problem documents on standard error.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from api.cli import database
from api.cli.database import DatabaseUrl, cannot_connect, settings_for
from api.cli.options import fail_with
from api.output import dumps
from api.problem_types import problem, problem_type
from api.settings import DATABASE_URL_VARIABLES, Settings, redact_database_url
from api.versioning import software_version
from legislation.errors import CatalogueError

if TYPE_CHECKING:
    from api.catalogue.store import LoadReport

# The database layer (SQLAlchemy, SQLModel, Alembic) is imported by the commands that use it, not when
# `vigueur` starts: `vigueur batch` and `vigueur calculate` never touch a database.

WORKER_START_SECONDS = 60
GRACEFUL_SHUTDOWN_SECONDS = 10
HEADER_TIMEOUT_SECONDS = 10.0  # api/http/server.py's default, repeated here so that `vigueur --help` imports no uvicorn

VersionsDir = Annotated[
    Path | None,
    typer.Option(
        "--versions-dir",
        help="The catalogue folder (default: $VIGUEUR_VERSIONS_DIR, else the repository's versions/).",
    ),
]


def _settings(database_url: str | None, versions_dir: Path | None, *, writes: bool = True) -> Settings:
    return settings_for(database_url, versions_dir, writes=writes)


History = Annotated[
    bool,
    typer.Option(
        "--history",
        help=(
            "First replay the catalogue's own history from the repository's git log: each commit that changed "
            "versions/ becomes a load recorded at its commit time (idempotent), so --known-at works from the start."
        ),
    ),
]


def load(versions_dir: VersionsDir = None, database_url: DatabaseUrl = None, history: History = False) -> None:
    """Load versions/ into the database in one transaction: all or nothing; the same tree twice: nothing."""
    from sqlalchemy import exc as sa_exc

    from api.catalogue.db import make_engine
    from api.catalogue.store import load_into

    settings = _settings(database_url, versions_dir)
    engine = make_engine(settings.database_url)
    replayed: list[dict[str, object]] = []
    try:
        if history:
            replayed = _replay_history(engine, settings.versions_dir)
        report = load_into(engine, settings.versions_dir)
    except CatalogueError as exc:
        detail = f"invalid catalogue, the database was not changed: {exc}"
        fail_with(problem(422, "Invalid catalogue", detail=detail), 3)
    except (sa_exc.OperationalError, sa_exc.InterfaceError) as exc:
        cannot_connect(settings, exc)
    finally:
        engine.dispose()
    typer.echo(readable_report(report), err=True, nl=False)
    extra = {"history": replayed} if history else {}
    typer.echo(dumps({"database": redact_database_url(settings.database_url)} | report.to_json() | extra), nl=False)


def _replay_history(engine: Any, versions_dir: Path | None) -> list[dict[str, object]]:
    from api.catalogue.history import HistoryUnavailable, replay

    try:
        done = replay(engine, versions_dir)
    except HistoryUnavailable as exc:
        fail_with(
            problem(
                422,
                "History unavailable",
                type_=problem_type("history-unavailable"),
                detail=f"{exc}; `vigueur load` without --history loads the tree as it is now",
            ),
            8,
        )
    for r in done:
        load = f" (load {r.load_id})" if r.load_id is not None else ""
        why = f": {r.reason}" if r.reason else ""
        typer.echo(f"history {r.commit[:12]} {r.committed_at.isoformat()} {r.outcome}{load}{why}", err=True)
    return [r.to_json() for r in done]


def _catalogue_state(report: LoadReport | None) -> str:
    if report is None:
        return "on file (loaded before)"
    counts = report.to_json()["counts"]
    return f"loaded now: {counts['added']} versions new, {counts['superseded']} superseded, load {report.load_id}"


def banner(host: str, port: int, database: str, catalogue: str, workers: int) -> str:
    """What `vigueur serve` says before uvicorn starts: where, on which database, which catalogue, the docs."""
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}"
    rows = [
        ("API", f"{url}/  ({workers} worker{'s' if workers > 1 else ''})"),
        ("docs", f"{url}/docs  (and /redoc, /openapi.json)"),
        ("database", database),
        ("catalogue", catalogue),
    ]
    return "vigueur " + software_version() + "\n" + "".join(f"  {k:<10} {v}\n" for k, v in rows)


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
    from sqlalchemy import exc as sa_exc

    from api.catalogue.db import make_engine
    from api.catalogue.store import ensure_loaded
    from api.http.server import HEADER_TIMEOUT_ENV, NoDelayHTTPProtocol, serve_app

    settings = _settings(database_url, versions_dir)
    for name in DATABASE_URL_VARIABLES:  # the workers read their settings from the environment
        os.environ[name] = settings.database_url
    if settings.versions_dir is not None:
        os.environ["VIGUEUR_VERSIONS_DIR"] = str(settings.versions_dir)
    os.environ[HEADER_TIMEOUT_ENV] = str(header_timeout)
    where = redact_database_url(settings.database_url)
    engine = make_engine(settings.database_url)
    try:
        report = ensure_loaded(engine, settings.versions_dir)
        state = _catalogue_state(report)
    except CatalogueError as exc:
        fail_with(problem(500, "Invalid catalogue", detail=f"invalid catalogue, not serving: {exc}"), 3)
    except (sa_exc.OperationalError, sa_exc.InterfaceError) as exc:
        state = (
            f"cannot connect ({str(exc).splitlines()[0]}); serving anyway, /readyz and the catalogue "
            "endpoints answer 503 until it answers"
        )
    finally:
        engine.dispose()
    typer.echo(banner(host, port, where, state, workers), err=True, nl=False)
    # A worker imports the whole app before it answers the supervisor's health check: on a busy machine that
    # takes longer than uvicorn's 5 s default, and the supervisor would kill it while it starts.
    # http: uvicorn's protocol with TCP_NODELAY on each connection, which --workers N leaves off otherwise (a
    # keep-alive client then waits on its own delayed ACK, ~40 ms a request): see api/http/server.py.
    # serve_app: with several workers, each listens on a SO_REUSEPORT socket of its own (balanced workers).
    serve_app(
        "api.http.app:app",
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

    from api.catalogue.db import current_revisions, make_engine, migrate

    settings = _settings(database_url, None)
    engine = make_engine(settings.database_url)
    try:
        before = migrate(engine)
        with engine.connect() as connection:
            after = current_revisions(connection)
    except (sa_exc.OperationalError, sa_exc.InterfaceError) as exc:
        cannot_connect(settings, exc)
    finally:
        engine.dispose()
    where = redact_database_url(settings.database_url)
    state = "already at" if tuple(before) == after else f"upgraded from {', '.join(before) or 'empty'} to"
    typer.echo(f"database {where}: {state} {', '.join(after)} (head)")


db_app.command("path")(database.path)


@db_app.command("current")
def db_current(database_url: DatabaseUrl = None) -> None:
    """The schema revision of the database, and the head revision of this vigueur."""
    from sqlalchemy import exc as sa_exc

    from api.catalogue.db import current_revisions, head_revisions, make_engine

    settings = _settings(database_url, None, writes=False)
    engine = make_engine(settings.database_url)
    try:
        with engine.connect() as connection:
            current = current_revisions(connection)
    except (sa_exc.OperationalError, sa_exc.InterfaceError) as exc:
        cannot_connect(settings, exc)
    finally:
        engine.dispose()
    head = head_revisions()
    typer.echo(dumps({"current": list(current), "head": list(head), "up_to_date": current == head}), nl=False)


# -- vigueur receipts ------------------------------------------------------------------------------

receipts_app = typer.Typer(
    help="Receipts of calculations (`vigueur calculate --receipt`): show one, replay one.",
    no_args_is_help=True,
)
ReceiptId = Annotated[str, typer.Argument(help="The receipt id (32 hexadecimal digits).")]


@receipts_app.command("show")
def receipts_show(receipt_id: ReceiptId, database_url: DatabaseUrl = None) -> None:
    """The receipt as recorded: request, response, the revisions used, the knowledge instant."""
    from api.audit import receipts

    typer.echo(dumps(_with_receipt(database_url, receipt_id, lambda s, r: receipts.document(s, r))), nl=False)


@receipts_app.command("replay")
def receipts_replay(receipt_id: ReceiptId, database_url: DatabaseUrl = None) -> None:
    """Recompute with the same revisions (verified by hash) and with today's catalogue; both, and the diff."""
    from api.audit import receipts

    now = datetime.now(UTC)
    typer.echo(
        dumps(_with_receipt(database_url, receipt_id, lambda s, r: receipts.replay(s, r, now=now))), nl=False
    )


def _with_receipt(database_url: str | None, receipt_id: str, fn: Any) -> Any:
    from api.audit import receipts
    from api.catalogue.store import StoreIntegrityError
    from api.cli.database import reading

    with reading(database_url) as session:
        try:
            return fn(session, receipts.get(session, receipt_id))
        except receipts.UnknownReceipt as exc:
            fail_with(
                problem(
                    404,
                    "Unknown receipt",
                    type_=problem_type("unknown-receipt"),
                    detail=str(exc),
                    errors=[{"field": "receipt_id", "message": "no such receipt"}],
                ),
                4,
            )
        except StoreIntegrityError as exc:
            fail_with(
                problem(
                    500,
                    "Store integrity check failed",
                    type_=problem_type("store-integrity"),
                    detail=f"rows of the catalogue no longer rebuild into what was recorded: {exc}",
                ),
                6,
            )


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
    from api.audit import receipts
    from api.cli.database import known_catalogue, parse_instant, reading

    now = datetime.now(UTC)
    if known_at is not None:
        parse_instant(known_at)  # a bad instant is told before the database is asked
    with reading(database_url, migrate_first=receipt) as session:
        known = known_catalogue(session, known_at)
        text = dumps(compute(known.catalogue))
        if receipt:
            kept = receipts.record(session, known, raw, text, now=now)
            typer.echo(f"receipt: {kept.receipt_id}", err=True)
    return text
