"""`vigueur calculate` and `vigueur resolve`: one purchase or lease, from the catalogue folder or the database."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import typer

from api.cli.catalogue import DatabaseUrl
from api.cli.options import (
    Explain,
    JsonOut,
    KnownAt,
    Receipt,
    RequestFile,
    VersionsDir,
    catalogue_from,
    fail_facts,
    parse_raw,
    read_raw,
    read_request,
)
from legislation import Catalogue
from legislation.errors import InvalidFacts

if TYPE_CHECKING:
    from api.purchase.request import CalculationRequest

# The request contract (pydantic), the services and the explanations are imported by the commands that
# use them: `vigueur batch` on a CSV file needs none of them, and starts in a fraction of the time.


def _document(kind: str, catalogue: Catalogue, request: CalculationRequest) -> dict[str, Any]:
    from api.purchase.render import calculate_document, resolve_document

    try:
        if kind == "calculate":
            return calculate_document(catalogue, request)
        return resolve_document(catalogue, request)
    except InvalidFacts as exc:
        fail_facts(exc)


def calculate(
    request: RequestFile = None,
    explain: Explain = False,
    versions_dir: VersionsDir = None,
    receipt: Receipt = False,
    known_at: KnownAt = None,
    database_url: DatabaseUrl = None,
    as_json: JsonOut = False,
) -> None:
    """Compute the aid(s) for a purchase or lease: amount, version, paragraphs, clauses, claim deadline."""
    if receipt or known_at is not None:
        from api.cli.catalogue import calculate_from_database

        raw = read_raw(request)
        parsed = parse_raw(raw)
        text = calculate_from_database(
            raw,
            lambda c: _document("calculate", c, parsed),
            known_at=known_at,
            receipt=receipt,
            database_url=database_url,
        )
        _print(json.loads(text), explain, as_json, "calculate")
        return
    catalogue = catalogue_from(versions_dir)
    _print(_document("calculate", catalogue, read_request(request)), explain, as_json, "calculate")


def resolve(
    request: RequestFile = None,
    explain: Explain = False,
    versions_dir: VersionsDir = None,
    known_at: KnownAt = None,
    database_url: DatabaseUrl = None,
    as_json: JsonOut = False,
) -> None:
    """Which version applies to a purchase or lease, and which transitional clauses are open."""
    if known_at is not None:
        from api.cli.catalogue import calculate_from_database

        raw = read_raw(request)
        parsed = parse_raw(raw)
        text = calculate_from_database(
            raw, lambda c: _document("resolve", c, parsed), known_at=known_at, receipt=False, database_url=database_url
        )
        _print(json.loads(text), explain, as_json, "resolve")
        return
    catalogue = catalogue_from(versions_dir)
    _print(_document("resolve", catalogue, read_request(request)), explain, as_json, "resolve")


def _print(doc: dict[str, Any], explain: bool, as_json: bool, kind: str) -> None:
    """The trace with ``--explain``; else JSON (piped, ``--json``: the API's body) or tables on a terminal."""
    from api.cli.browse import emit
    from api.cli.tables import calculation, resolution

    if explain:
        from api.purchase.explain import explain_calculation, explain_resolution

        typer.echo((explain_calculation if kind == "calculate" else explain_resolution)(doc), nl=False)
        return
    emit(doc, as_json, calculation if kind == "calculate" else resolution)
