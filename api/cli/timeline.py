"""`vigueur timeline`: one purchase's amounts across a window of invoice (or first-rent) dates, with advice."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any

import typer

from api.cli.options import Explain, JsonOut, RequestFile, VersionsDir, catalogue_from, fail, fail_facts, read_request
from legislation.errors import InvalidFacts

FromDay = Annotated[
    str | None,
    typer.Option("--from", help="First decisive day of the window (default: the order date, or today)."),
]
UntilDay = Annotated[
    str | None,
    typer.Option(
        "--until",
        help="First day after the window (exclusive; default: 18 months later, capped at the catalogue's end).",
    ),
]
Today = Annotated[
    str | None,
    typer.Option(
        "--today", help="Today's date for the default window (default: the day in Europe/Paris).", hidden=True
    ),
]
NoWhatIf = Annotated[
    bool, typer.Option("--no-what-if", help="Leave out the order-date what-ifs (« an order placed before … »).")
]


def timeline(
    request: RequestFile = None,
    start: FromDay = None,
    until: UntilDay = None,
    explain: Explain = False,
    no_what_if: NoWhatIf = False,
    versions_dir: VersionsDir = None,
    as_json: JsonOut = False,
    today: Today = None,
) -> None:
    """One purchase across invoice dates: the segments over which each aid is constant, and advice in words."""
    from api.cli.browse import emit
    from api.purchase.timeline import explain_timeline, timeline_document

    catalogue = catalogue_from(versions_dir)
    parsed = read_request(request)
    try:
        doc = timeline_document(
            catalogue,
            parsed,
            today=_day(today, "today") if today else paris_today(),
            start=_day(start, "from") if start else None,
            until=_day(until, "until") if until else None,
            what_if_order=not no_what_if,
        )
    except InvalidFacts as exc:
        fail_facts(exc)
    if explain:
        typer.echo(explain_timeline(doc), nl=False)
        return
    emit(doc, as_json, _tables)


def paris_today() -> date:
    from api.http.deps import get_today

    return get_today()


def _day(value: str, field: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError:
        fail(422, "Invalid date", [{"field": field, "message": f"{value!r} is not a date YYYY-MM-DD"}], 2)


def _tables(doc: dict[str, Any]) -> list[Any]:
    from rich.text import Text

    from api.purchase.timeline import explain_timeline

    return [Text(explain_timeline(doc).rstrip("\n"))]
