"""`vigueur parameter NAME`: a parameter's value across every version (= ``GET /v1/parameters/{name}``)."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from api.cli.options import JsonOut, VersionsDir, catalogue_from, fail
from legislation import Scheme


def parameter(
    name: Annotated[str | None, typer.Argument(help="A notion or a parameter name (nothing: list them).")] = None,
    scheme: Annotated[Scheme | None, typer.Option(help="Only this aid's versions.")] = None,
    versions_dir: VersionsDir = None,
    as_json: JsonOut = False,
) -> None:
    """A parameter's value in every version on file (unit, period, paragraph, quote, decree); without NAME, the list
    of parameters (= GET /v1/parameters)."""
    from api.catalogue.parameters import history_document, parameters_document
    from api.cli.browse import emit
    from legislation.parameters import parameter_history

    catalogue = catalogue_from(versions_dir)
    if name is None:
        emit(parameters_document(catalogue, scheme), as_json, _list_table)
        return
    history = parameter_history(catalogue, name, scheme)
    if history is None:
        fail(404, "Unknown parameter", [{"field": "name", "message": f"no parameter or notion {name!r} on file; "
             "`vigueur parameter` lists them"}], 4)  # fmt: skip
    emit(history_document(history, scheme), as_json, _history_table)


def _history_table(doc: dict[str, Any]) -> list[Any]:
    from rich.table import Table

    table = Table(title=f"{doc['name']} (notion {doc['notion']})")
    for column in ("from", "until", "value", "unit", "parameter", "version", "paragraph", "decree"):
        table.add_column(column)
    for v in doc["values"]:
        value = f"[bold]{v['value']}[/bold]" if v["changed"] else v["value"]
        table.add_row(v["valid_from"], v["valid_until"] or "", value, v["unit"] or "", v["parameter"],
                      v["version_id"], v["paragraph"], v["decree"])  # fmt: skip
    return [table, *doc["notes"]]


def _list_table(doc: dict[str, Any]) -> list[Any]:
    from rich.table import Table

    table = Table(title="parameters")
    for column in ("name", "names", "units", "versions", "from", "until"):
        table.add_column(column)
    for p in doc["parameters"]:
        table.add_row(p["name"], ", ".join(p["names"]), ", ".join(p["units"]), str(p["versions"]), p["valid_from"],
                      p["valid_until"] or "")  # fmt: skip
    return [table]
