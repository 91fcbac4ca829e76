"""The `vigueur` command line. Its JSON output is the contract the HTTP API reuses byte for byte.

Exit codes: 0 success; 2 invalid request or arguments (a problem document names the field);
3 the catalogue in ``versions/`` is invalid; 4 unknown version or no version on file;
5 the database does not answer (`load`, see :mod:`api.store_cli`).
"""

from __future__ import annotations

import json
import sys
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from api.cases_cli import cases_app
from api.loader import load_catalogue
from api.output import dumps
from api.store_cli import DatabaseUrl, db_app, load, receipts_app, serve
from legislation import Catalogue, Scheme
from legislation.errors import CatalogueError, InvalidDates, UnknownVersion

if TYPE_CHECKING:
    from api.contract import CalculationRequest

# The request contract (pydantic), the services and the explanations are imported by the commands that
# use them: `vigueur batch` on a CSV file needs none of them, and starts in a fraction of the time.

app = typer.Typer(
    name="vigueur",
    help="Which version of the French clean-vehicle aid decrees applied to a purchase, and what it gave.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(cases_app, name="cases")
app.command()(load)
app.command()(serve)
app.add_typer(db_app, name="db")
app.add_typer(receipts_app, name="receipts")

VersionsDir = Annotated[
    Path | None, typer.Option("--versions-dir", help="The catalogue folder (default: the repository's versions/).")
]
RequestFile = Annotated[str | None, typer.Argument(help="Request JSON file; '-' or nothing reads standard input.")]
Explain = Annotated[bool, typer.Option("--explain", help="A readable French/English trace instead of JSON.")]
KnownAt = Annotated[
    str | None,
    typer.Option(
        "--known-at",
        help=(
            "Compute with the catalogue of the database as it was recorded at this instant (ISO 8601 with its offset, "
            "e.g. 2021-03-02T10:00:00+01:00); implies the database."
        ),
    ),
]
Receipt = Annotated[
    bool,
    typer.Option(
        "--receipt",
        help=(
            "Compute with the catalogue of the database and keep a receipt there (its id on standard error); "
            "`vigueur receipts show|replay ID`."
        ),
    ),
]


def fail(status: int, title: str, errors: list[dict[str, str]], code: int) -> None:
    """Print an RFC 9457 problem document and exit with ``code``."""
    typer.echo(dumps({"type": "about:blank", "title": title, "status": status, "errors": errors}), nl=False)
    raise typer.Exit(code)


def catalogue_from(versions_dir: Path | None) -> Catalogue:
    try:
        return load_catalogue(versions_dir)
    except CatalogueError as exc:
        typer.echo(f"invalid catalogue: {exc}", err=True)
        raise typer.Exit(3) from None


def read_raw(source: str | None) -> bytes:
    if source in (None, "-"):
        return sys.stdin.buffer.read()
    path = Path(source)
    if not path.is_file():
        fail(400, "Request file not found", [{"field": "request", "message": f"no file {source}"}], 2)
    return path.read_bytes()


def read_request(source: str | None) -> CalculationRequest:
    return _parse(read_raw(source))


def _parse(raw: bytes) -> CalculationRequest:
    from api.contract import RequestError, parse_request

    try:
        return parse_request(raw)
    except RequestError as exc:
        fail(422, "Invalid request", exc.errors, 2)
    raise AssertionError("unreachable")  # pragma: no cover


def _document(kind: str, catalogue: Catalogue, request: CalculationRequest) -> dict[str, Any]:
    from api.service import calculate_document, resolve_document

    try:
        if kind == "calculate":
            return calculate_document(catalogue, request)
        return resolve_document(catalogue, request)
    except InvalidDates as exc:
        fail(422, "Invalid dates", [{"field": exc.field or "", "message": str(exc)}], 2)
    raise AssertionError("unreachable")  # pragma: no cover


@app.command()
def calculate(
    request: RequestFile = None,
    explain: Explain = False,
    versions_dir: VersionsDir = None,
    receipt: Receipt = False,
    known_at: KnownAt = None,
    database_url: DatabaseUrl = None,
) -> None:
    """Compute the aid(s) for a purchase or lease: amount, version, paragraphs, clauses, claim deadline."""
    from api.explain import explain_calculation

    if receipt or known_at is not None:
        from api.store_cli import calculate_from_database

        raw = read_raw(request)
        parsed = _parse(raw)
        text = calculate_from_database(
            raw,
            lambda c: _document("calculate", c, parsed),
            known_at=known_at,
            receipt=receipt,
            database_url=database_url,
        )
        typer.echo(explain_calculation(json.loads(text)) if explain else text, nl=False)
        return
    catalogue = catalogue_from(versions_dir)
    doc = _document("calculate", catalogue, read_request(request))
    typer.echo(explain_calculation(doc) if explain else dumps(doc), nl=False)


@app.command()
def resolve(
    request: RequestFile = None,
    explain: Explain = False,
    versions_dir: VersionsDir = None,
    known_at: KnownAt = None,
    database_url: DatabaseUrl = None,
) -> None:
    """Which version applies to a purchase or lease, and which transitional clauses are open."""
    from api.explain import explain_resolution

    if known_at is not None:
        from api.store_cli import calculate_from_database

        raw = read_raw(request)
        parsed = _parse(raw)
        text = calculate_from_database(
            raw, lambda c: _document("resolve", c, parsed), known_at=known_at, receipt=False, database_url=database_url
        )
        typer.echo(explain_resolution(json.loads(text)) if explain else text, nl=False)
        return
    catalogue = catalogue_from(versions_dir)
    doc = _document("resolve", catalogue, read_request(request))
    typer.echo(explain_resolution(doc) if explain else dumps(doc), nl=False)


@app.command()
def versions(
    scheme: Annotated[Scheme | None, typer.Option(help="Only this scheme.")] = None,
    on: Annotated[str | None, typer.Option(help="The version in force on this date (YYYY-MM-DD).")] = None,
    versions_dir: VersionsDir = None,
) -> None:
    """The timeline of each scheme, or the version in force on a date."""
    from api.service import render_version, version_ref

    catalogue = catalogue_from(versions_dir)
    day = _parse_day(on) if on else None
    schemes = [scheme] if scheme else list(Scheme)
    out = []
    for s in schemes:
        timeline = catalogue.timeline(s)
        if day is None:
            out.append(
                {
                    "scheme": s.value,
                    "versions": [render_version(v, with_text=False) for v in timeline.versions],
                    "gaps": [
                        {"start": g.start.isoformat(), "end": g.end.isoformat(), "reason": g.reason}
                        for g in timeline.gaps
                    ],
                }
            )
            continue
        found = timeline.find(day)
        before, after = timeline.nearest(day)
        out.append(
            {
                "scheme": s.value,
                "on": day.isoformat(),
                "in_force": render_version(found, with_text=False) if found else None,
                "message": None if found else f"no version of the {s.value} amounts on file for {day.isoformat()}",
                "nearest_versions": None if found else {"before": version_ref(before), "after": version_ref(after)},
            }
        )
    typer.echo(dumps({"schemes": out}), nl=False)


@app.command()
def show(
    version_id: Annotated[str, typer.Argument(help="A version id, e.g. D251-7.2020-06-01.")],
    versions_dir: VersionsDir = None,
) -> None:
    """A version's metadata, source and verbatim text."""
    from api.service import render_version

    catalogue = catalogue_from(versions_dir)
    try:
        version = catalogue.get(version_id)
    except UnknownVersion as exc:
        fail(
            404,
            "Unknown version",
            [{"field": "version_id", "message": f"{exc}; known: {', '.join(sorted(catalogue.versions))}"}],
            4,
        )
        return
    typer.echo(dumps(render_version(version)), nl=False)


@app.command()
def schema(
    catalogue: Annotated[
        bool, typer.Option("--catalogue", help="The JSON Schema of versions/<id>/version.toml instead.")
    ] = False,
    cases: Annotated[bool, typer.Option("--cases", help="The JSON Schema of a regression case file instead.")] = False,
) -> None:
    """The JSON Schema of the request and of the responses (or of version.toml, or of a case file)."""
    from api.contract import CalculationRequest
    from api.responses import CalculationResponse, ResolveResponse

    if catalogue or cases:
        from api.catalogue_schema import cases_schema, catalogue_schema, schema_text

        typer.echo(schema_text(catalogue_schema() if catalogue else cases_schema()), nl=False)
        return
    typer.echo(
        dumps(
            {
                "request": CalculationRequest.model_json_schema(),
                "calculate_response": CalculationResponse.model_json_schema(),
                "resolve_response": ResolveResponse.model_json_schema(),
            }
        ),
        nl=False,
    )


def _parse_day(value: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError:
        fail(422, "Invalid date", [{"field": "on", "message": f"{value!r} is not a date YYYY-MM-DD"}], 2)
    raise AssertionError("unreachable")  # pragma: no cover


def main() -> None:  # pragma: no cover - console entry point
    app()


import api.batch  # noqa: E402,F401 - registers `vigueur batch` (it needs fail, catalogue_from, VersionsDir above)
import api.case_cli  # noqa: E402,F401 - registers `vigueur cases import` (issue 5)
import api.case_moves  # noqa: E402,F401 - registers `vigueur cases moved` (which cases a catalogue change moves)
