"""`vigueur cases run PATH…`: run case files against the catalogue, summarise per version, write reports.

Exit codes: 0 every case passed; 1 a case failed or could not run; 2 a case file is invalid (the message
names the file, the case and the field) or no case was found; 3 the catalogue in ``versions/`` is invalid.
"""

from __future__ import annotations

import json
import time
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from api.loader import load_catalogue
from legislation import Catalogue
from legislation.errors import CatalogueError

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from api.cases import Case, CaseResult

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
    from rich.console import Console

    from api.cases import CaseFileError, load_cases

    out, err = Console(highlight=False), Console(stderr=True, highlight=False)
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

    from api.cases import run_case

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


def per_version(results: list[CaseResult]) -> dict[str, Counter[str]]:
    """passed / failed / error counts for each version a case expects (a case counts once per version)."""
    table: dict[str, Counter[str]] = defaultdict(Counter)
    for result in results:
        for version in result.case.versions:
            table[version][result.outcome] += 1
    return dict(sorted(table.items()))


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


def report(results: list[CaseResult], elapsed: float) -> dict[str, Any]:
    """The JSON report: totals, per-version counts, and each case with its checks."""
    from api.cases import NO_VERSION

    counts = Counter(r.outcome for r in results)
    return {
        "summary": {
            "cases": len(results),
            "passed": counts["passed"],
            "failed": counts["failed"],
            "errors": counts["error"],
            "seconds": round(elapsed, 3),
        },
        "per_version": [
            {
                "version_id": None if v == NO_VERSION else v,
                "cases": sum(c.values()),
                "passed": c["passed"],
                "failed": c["failed"],
                "errors": c["error"],
            }
            for v, c in per_version(results).items()
        ],
        "cases": [_case_report(r) for r in results],
    }


def _case_report(result: CaseResult) -> dict[str, Any]:
    case = result.case
    doc: dict[str, Any] = {
        "id": case.id,
        "title": case.title,
        "file": case.file,
        "line": case.line,
        "paragraph": case.paragraph,
        "outcome": result.outcome,
        "error": result.error,
        "checks": [
            {"scheme": c.scheme, "field": c.field, "expected": c.expected, "got": c.got, "ok": c.ok}
            for c in result.checks
        ],
    }
    if result.outcome == "failed" and result.document is not None:
        doc["steps"] = {r["scheme"]: r.get("steps", []) for r in result.document["results"]}
    return doc


def write_json(path: Path, results: list[CaseResult], elapsed: float) -> None:
    path.write_text(
        json.dumps(report(results, elapsed), ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
    )


def write_junit(path: Path, results: list[CaseResult], elapsed: float) -> None:
    """JUnit XML: a testsuite per case file, a testcase per case (classname = file stem, name = case id)."""
    root = ET.Element("testsuites", name="vigueur cases", tests=str(len(results)), time=f"{elapsed:.3f}")
    by_file: dict[str, list[CaseResult]] = defaultdict(list)
    for result in results:
        by_file[result.case.file].append(result)
    for file, items in by_file.items():
        counts = Counter(r.outcome for r in items)
        suite = ET.SubElement(
            root,
            "testsuite",
            name=file,
            tests=str(len(items)),
            failures=str(counts["failed"]),
            errors=str(counts["error"]),
            time=f"{sum(r.seconds for r in items):.3f}",
        )
        for result in items:
            case = result.case
            node = ET.SubElement(
                suite,
                "testcase",
                classname=Path(file).stem,
                name=case.id,
                file=file,
                line=str(case.line),
                time=f"{result.seconds:.4f}",
            )
            if result.outcome == "failed":
                diff = "; ".join(
                    f"{c.scheme}.{c.field}: expected {c.expected!r}, got {c.got!r}" for c in result.failures
                )
                failure = ET.SubElement(node, "failure", message=f"{case.id}: {diff}", type="mismatch")
                failure.text = _failure_text(result)
            elif result.outcome == "error":
                ET.SubElement(
                    node, "error", message=f"{case.id}: {result.error}", type="error"
                ).text = result.error
    ET.indent(root)
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)


def _failure_text(result: CaseResult) -> str:
    lines = [result.case.title, f"source: {result.case.paragraph}"]
    lines += [f"{c.scheme}.{c.field}: expected {c.expected!r}, got {c.got!r}" for c in result.failures]
    for doc in (result.document or {}).get("results", []):
        lines.append(f"[{doc['scheme']}] {doc.get('version_id')} {doc.get('status')}: {doc.get('reason')}")
        lines += [f"  {s['citation']}: {s['text']}" for s in doc.get("steps", [])]
    lines += ["notes:", result.case.notes]
    return "\n".join(lines)
