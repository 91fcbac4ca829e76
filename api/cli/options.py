"""The options, arguments and helpers the commands share: the catalogue folder, the request file, ``--json``,
problem documents on standard error (the API's problem types, :mod:`api.problem_types`) with their exit code."""

from __future__ import annotations

import sys
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from api.catalogue.kept import load_catalogue
from api.output import dumps
from api.problem_types import BLANK, problem
from api.terminal import is_terminal
from legislation import Catalogue
from legislation.errors import CatalogueError, InvalidDates, InvalidFacts

if TYPE_CHECKING:
    from api.purchase.request import CalculationRequest

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


JsonOut = Annotated[
    bool,
    typer.Option("--json", help="JSON (the API's body) even on a terminal; JSON is the default when piped."),
]


def fail(status: int, title: str, errors: list[dict[str, str]], code: int, *, type_: str = BLANK) -> NoReturn:
    """Print an RFC 9457 problem document on standard error and exit with ``code``."""
    fail_with(problem(status, title, type_=type_, errors=errors), code)


def fail_facts(exc: InvalidFacts) -> NoReturn:
    """Exit 2 with the problem document the API answers for facts it refuses (422, the field named)."""
    title = "Invalid dates" if isinstance(exc, InvalidDates) else "Invalid facts"
    fail(422, title, [{"field": exc.field or "", "message": str(exc)}], 2)


def fail_with(document: dict[str, Any], code: int) -> NoReturn:
    """Print ``document`` (a problem) on standard error, as the API's body, and exit with ``code``."""
    typer.echo(dumps(document), nl=False, err=True)
    raise typer.Exit(code)


def wants_json(json_flag: bool) -> bool:
    """JSON when asked, or when standard output is not a terminal (a pipe, a file); tables otherwise."""
    return json_flag or not is_terminal()


def catalogue_from(versions_dir: Path | None) -> Catalogue:
    try:
        return load_catalogue(versions_dir)
    except CatalogueError as exc:
        fail_with(problem(422, "Invalid catalogue", detail=f"invalid catalogue: {exc}"), 3)


def read_raw(source: str | None) -> bytes:
    if source in (None, "-"):
        return sys.stdin.buffer.read()
    path = Path(source)
    if not path.is_file():
        fail(400, "Request file not found", [{"field": "request", "message": f"no file {source}"}], 2)
    return path.read_bytes()


def read_request(source: str | None) -> CalculationRequest:
    return parse_raw(read_raw(source))


def parse_raw(raw: bytes) -> CalculationRequest:
    from api.purchase.request import RequestError, parse_request

    try:
        return parse_request(raw)
    except RequestError as exc:
        fail(422, "Invalid request", exc.errors, 2)


def parse_day(value: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError:
        fail(422, "Invalid date", [{"field": "on", "message": f"{value!r} is not a date YYYY-MM-DD"}], 2)
