"""`vigueur versions`, `vigueur show`, `vigueur schema`: the catalogue as the API answers it.

`versions --scheme S` prints the body of ``GET /v1/schemes/S/versions`` (without ``--scheme``: one per scheme
under ``schemes``); `versions --scheme S --on D` the body of ``GET /v1/schemes/S/in-force?on=D`` or, on a day
with no version on file, the API's 404 problem (``declared_gap``) on standard error and exit 4; `show ID` the
body of ``GET /v1/versions/ID``. The catalogue is the ``versions/`` folder, or with ``--known-at`` (or
``--database-url``) the database's as recorded at that instant. On a terminal they draw tables; piped, or
with ``--json``, they print the JSON.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated, Any

import typer

from api.cli import options
from api.cli.database import DatabaseUrl
from api.output import dumps
from legislation import Catalogue, Scheme
from legislation.errors import UnknownVersion

KnownAt = Annotated[
    str | None,
    typer.Option(
        "--known-at",
        help=(
            "The catalogue of the database as recorded at this instant (ISO 8601 with its offset, e.g. "
            "2026-11-30T12:00:00Z), as the API's known_at; implies the database."
        ),
    ),
]


@contextmanager
def catalogue_for(
    versions_dir: options.VersionsDir, known_at: str | None, database_url: str | None
) -> Iterator[Catalogue]:
    """The folder's catalogue, or the database's as known at ``known_at`` when a database is asked for."""
    if known_at is None and database_url is None:
        yield options.catalogue_from(versions_dir)
        return
    from api.cli.database import known_catalogue, reading

    with reading(database_url) as session:
        yield known_catalogue(session, known_at).catalogue


def emit(document: Any, as_json: bool, table: Callable[[Any], Any]) -> None:
    """The document as JSON (piped, or ``--json``: the API's bytes), or drawn as tables on a terminal."""
    if options.wants_json(as_json):
        typer.echo(dumps(document), nl=False)
        return
    from api.terminal import console

    out = console()
    for renderable in table(document):
        out.print(renderable)


def versions(
    scheme: Annotated[Scheme | None, typer.Option(help="Only this scheme.")] = None,
    on: Annotated[str | None, typer.Option(help="The version in force on this date (YYYY-MM-DD).")] = None,
    versions_dir: options.VersionsDir = None,
    known_at: KnownAt = None,
    database_url: DatabaseUrl = None,
    as_json: options.JsonOut = False,
) -> None:
    """The timeline of each scheme (GET /v1/schemes/{scheme}/versions), or the version in force on a date."""
    from api.catalogue import documents
    from api.cli import tables

    day = options.parse_day(on) if on else None
    schemes = [scheme] if scheme else list(Scheme)
    with catalogue_for(versions_dir, known_at, database_url) as catalogue:
        timelines = [catalogue.timeline(s) for s in schemes]
    if day is None:
        docs = [documents.timeline_document(t) for t in timelines]
        emit(docs[0] if scheme else {"schemes": docs}, as_json, tables.timelines)
        return
    found = [documents.in_force_document(t, day, on_is_today=False) for t in timelines]
    missing = [documents.no_version_problem(t, day) for t, doc in zip(timelines, found, strict=True) if doc is None]
    present = [doc for doc in found if doc is not None]
    if present:
        emit(present[0] if scheme else {"schemes": present}, as_json, tables.in_force)
    for problem in missing[:-1]:
        typer.echo(dumps(problem), nl=False, err=True)
    if missing:
        options.fail_with(missing[-1], 4)


def coverage(
    scheme: Annotated[Scheme | None, typer.Option(help="Only this scheme.")] = None,
    first_day: Annotated[
        str | None, typer.Option("--from", help="First day measured (YYYY-MM-DD; default 2008-01-01).")
    ] = None,
    last_day: Annotated[
        str | None, typer.Option("--to", help="Last day measured, inclusive (YYYY-MM-DD; default 2025-06-30).")
    ] = None,
    versions_dir: options.VersionsDir = None,
    known_at: KnownAt = None,
    database_url: DatabaseUrl = None,
    as_json: options.JsonOut = False,
) -> None:
    """Days covered per scheme: by a version (per provenance grade), by a declared gap, by nothing
    (the ``measured`` part of GET /v1/schemes, which uses the default period)."""
    from api.catalogue import documents
    from api.cli import tables
    from legislation.coverage import HISTORY_FIRST_DAY, HISTORY_LAST_DAY, measure

    start = options.parse_day(first_day) if first_day else HISTORY_FIRST_DAY
    end = options.parse_day(last_day) if last_day else HISTORY_LAST_DAY
    if end < start:
        options.fail(422, "Invalid period", [{"field": "to", "message": f"{end} is before {start}"}], 2)
    schemes = [scheme] if scheme else list(Scheme)
    with catalogue_for(versions_dir, known_at, database_url) as catalogue:
        report = documents.coverage_report([measure(catalogue.timeline(s), start, end) for s in schemes])
    emit(report, as_json, tables.coverage)


def show(
    version_id: Annotated[str, typer.Argument(help="A version id, e.g. D251-7.2020-06-01.")],
    versions_dir: options.VersionsDir = None,
    known_at: KnownAt = None,
    database_url: DatabaseUrl = None,
    as_json: options.JsonOut = False,
) -> None:
    """A version's metadata, source and verbatim text (GET /v1/versions/{id})."""
    from api.catalogue import documents
    from api.cli import tables
    from api.problem_types import problem, problem_type

    with catalogue_for(versions_dir, known_at, database_url) as catalogue:
        try:
            version = catalogue.get(version_id)
        except UnknownVersion:
            options.fail_with(
                problem(
                    404,
                    "Unknown version",
                    type_=problem_type("unknown-version"),
                    detail=f"no version with id {version_id!r} on file",
                    errors=[{"field": "version_id", "message": f"no such version; known: {', '.join(sorted(catalogue.versions))}"}],  # noqa: E501 - one problem entry
                ),
                4,
            )
    emit(documents.version_document(version), as_json, tables.version)


def schema(
    catalogue: Annotated[
        bool, typer.Option("--catalogue", help="The JSON Schema of versions/<id>/version.toml instead.")
    ] = False,
    cases: Annotated[bool, typer.Option("--cases", help="The JSON Schema of a regression case file instead.")] = False,
) -> None:
    """The JSON Schema of the request (with its decisive-date rule, as /openapi.json) and of the responses (or of
    version.toml, or of a case file)."""
    from api.purchase.models import CalculationResponse, ResolveResponse
    from api.purchase.request import CalculationRequest
    from api.purchase.timeline_models import TimelineResponse

    if catalogue or cases:
        from api.cases.schema import cases_schema
        from api.catalogue.schema import catalogue_schema, schema_text

        typer.echo(schema_text(catalogue_schema() if catalogue else cases_schema()), nl=False)
        return
    typer.echo(
        dumps(
            {
                "request": CalculationRequest.model_json_schema(),
                "calculate_response": CalculationResponse.model_json_schema(),
                "resolve_response": ResolveResponse.model_json_schema(),
                "timeline_response": TimelineResponse.model_json_schema(),
            }
        ),
        nl=False,
    )
