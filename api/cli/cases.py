"""`vigueur cases run|import|moved`: the regression cases from the command line.

`vigueur cases run PATH…`: run case files against the catalogue, summarise per version, write reports.
Exit codes: 0 every case passed; 1 a case failed or could not run; 2 a case file is invalid (the message
names the file, the case and the field) or no case was found; 3 the catalogue in ``versions/`` is invalid.

`vigueur cases import PATH…`: case files into the database (idempotent), for `GET /v1/cases` and
`POST /v1/cases/run`. Exit codes: 0 imported (or nothing to change); 2 a case file is invalid (the message
names the file, the case and the field; the database is not touched) or no case was found; 5 the database
does not answer.

`vigueur cases moved PATH… --before DIR`: which cases a change of the catalogue moves (see
:mod:`api.cases.moves`). Exit codes: 0 no case moved; 1 some cases moved (listed); 2 a case file is invalid
or none was found; 3 one of the two catalogues is invalid.
"""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from api.cases.moves import moved_command
from api.cases.report import per_version, write_json, write_junit
from api.catalogue.kept import load_catalogue
from api.output import dumps
from api.settings import Settings, normalize_database_url, redact_database_url
from legislation import Catalogue
from legislation.errors import CatalogueError

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from api.cases.files import Case, CaseResult

# rich, YAML and the request contract are imported when a command runs (not when `vigueur` starts).

cases_app = typer.Typer(
    help="Regression cases: run case files (YAML) against the catalogue.", no_args_is_help=True
)

PROGRESS_FROM = 200  # cases: a shorter run finishes before a bar is worth drawing


@cases_app.command("run")
def run(
    paths: Annotated[list[Path], typer.Argument(help="Case files (.yaml) or folders searched recursively.")],
    junit: Annotated[
        Path | None, typer.Option("--junit", help="Write a JUnit XML report to this file.")
    ] = None,
    json_report: Annotated[
        Path | None, typer.Option("--json", help="Write a JSON report to this file.")
    ] = None,
    match: Annotated[
        str | None, typer.Option("-k", "--match", help="Only the cases whose id contains this text.")
    ] = None,
    progress: Annotated[
        bool | None,
        typer.Option(
            "--progress/--no-progress", help=f"Progress bar (default: on from {PROGRESS_FROM} cases)."
        ),
    ] = None,
    versions_dir: Annotated[
        Path | None, typer.Option("--versions-dir", help="The catalogue folder (default: versions/).")
    ] = None,
) -> None:
    """Run every case; print a summary per version and each failure with the steps; exit 1 on any failure."""
    from api.cases.files import CaseFileError, load_cases
    from api.terminal import console

    out, err = console(), console(stderr=True)
    try:
        cases = load_cases(paths)
    except CaseFileError as exc:
        err.print(f"[bold red]invalid case file[/]: {exc}", markup=True)
        raise typer.Exit(2) from None
    if match:
        cases = [c for c in cases if match in c.id]
    if not cases:
        err.print("no case to run")
        raise typer.Exit(2)
    try:
        catalogue = load_catalogue(versions_dir)
    except CatalogueError as exc:
        err.print(f"invalid catalogue: {exc}")
        raise typer.Exit(3) from None
    show = progress if progress is not None else len(cases) >= PROGRESS_FROM
    started = time.perf_counter()
    results = _run_all(catalogue, cases, show, err)
    elapsed = time.perf_counter() - started
    for result in results:
        if result.outcome != "passed":
            print_failure(out, result)
    out.print(summary_table(results))
    counts = Counter(r.outcome for r in results)
    out.print(
        f"{len(results)} cases: {counts['passed']} passed, {counts['failed']} failed, "
        f"{counts['error']} errors in {elapsed:.2f} s"
    )
    if junit:
        write_junit(junit, results, elapsed)
    if json_report:
        write_json(json_report, results, elapsed)
    raise typer.Exit(0 if counts["passed"] == len(results) else 1)


def _run_all(catalogue: Catalogue, cases: list[Case], show: bool, console: Console) -> list[CaseResult]:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from api.cases.files import run_case

    results: list[CaseResult] = []
    columns = (TextColumn("cases"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console, disable=not show, transient=True) as bar:
        task = bar.add_task("cases", total=len(cases))
        for case in cases:
            t0 = time.perf_counter()
            result = run_case(catalogue, case)
            result.seconds = time.perf_counter() - t0
            results.append(result)
            bar.advance(task)
    return results


def summary_table(results: list[CaseResult]) -> Table:
    from rich.table import Table

    table = Table(title="Regression cases per version")
    for name, justify in (
        ("version", "left"),
        ("cases", "right"),
        ("passed", "right"),
        ("failed", "right"),
        ("errors", "right"),
    ):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for version, c in per_version(results).items():
        table.add_row(version, str(sum(c.values())), str(c["passed"]), _red(c["failed"]), _red(c["error"]))
    total = Counter(r.outcome for r in results)
    table.add_section()
    table.add_row(
        "all cases", str(len(results)), str(total["passed"]), _red(total["failed"]), _red(total["error"])
    )
    return table


def _red(n: int) -> str:
    return f"[red]{n}[/]" if n else "0"


def print_failure(console: Console, result: CaseResult) -> None:
    """The case, what differed (expected / got), and the answer's steps for each scheme."""
    case = result.case
    console.rule(f"[bold red]{result.outcome.upper()}[/] {case.id}", style="red")
    console.print(f"{case.title}\n{case.file}:{case.line} — {case.paragraph}", markup=False)
    if result.error:
        console.print(f"error: {result.error}", markup=False)
        return
    for check in result.failures:
        console.print(
            f"  {check.scheme}.{check.field}: expected {check.expected!r}, got {check.got!r}", markup=False
        )
    for doc in (result.document or {}).get("results", []):
        console.print(
            f"  [{doc['scheme']}] {doc.get('version_id')} {doc.get('status')}: {doc.get('reason')}",
            markup=False,
        )
        for step in doc.get("steps", []):
            amount = f" → {step['amount']} €" if step.get("amount") is not None else ""
            console.print(f"    · {step['citation']}: {step['text']}{amount}", markup=False)
        for key in ("readings", "assumptions", "missing_facts", "warnings"):
            for item in doc.get(key) or []:
                text = item["text"] if isinstance(item, dict) else item
                console.print(f"    {key[:-1]}: {text}", markup=False)
    console.print("  notes: " + case.notes.replace("\n", "\n         "), markup=False)


@cases_app.command("import")
def import_command(
    paths: Annotated[list[Path], typer.Argument(help="Case files (.yaml) or folders searched recursively.")],
    database_url: Annotated[
        str | None,
        typer.Option(
            "--database-url",
            help="Default: as `vigueur db path` ($VIGUEUR_DATABASE_URL, $DATABASE_URL, the user's data directory).",
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

    from api.cases.files import CaseFileError
    from api.cases.store import ensure_tables, import_cases, read_case_files
    from api.catalogue.db import make_engine

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


cases_app.command("moved")(moved_command)
