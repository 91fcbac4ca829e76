"""`vigueur cases moved PATH… --before DIR`: which cases a change of the catalogue moves.

Each case's request is computed with two catalogues — ``--before`` (e.g. ``versions/`` of the last release,
checked out with ``git worktree add``) and the current one — and every scheme whose answer differs is listed:
amount, eligible, version in force, status, the paragraph cited, the transitional clause that kept another
version, or an error on one side. Expected values play no part: a case whose expectation was already wrong
still shows when its answer moves, and a case that moves is what a reviewer of the change must read.
The command is registered by :mod:`api.cli.cases`.

Exit codes: 0 no case moved; 1 some cases moved (listed); 2 a case file is invalid or none was found; 3 one
of the two catalogues is invalid.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from api.catalogue.kept import load_catalogue
from legislation import Catalogue
from legislation.errors import CatalogueError

if TYPE_CHECKING:
    from api.cases.files import Case

# What an answer is compared on, per scheme (the fields of a batch row, and the clause that kept a version).
COMPARED = ("status", "amount", "eligible", "version_id", "paragraph", "kept_by")


@dataclass(frozen=True, slots=True)
class Change:
    scheme: str
    field: str
    before: Any
    after: Any


@dataclass(frozen=True, slots=True)
class Moved:
    case: Case
    changes: tuple[Change, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.case.id,
            "file": self.case.file,
            "line": self.case.line,
            "changes": [
                {"scheme": c.scheme, "field": c.field, "before": c.before, "after": c.after} for c in self.changes
            ],
        }


def answer(catalogue: Catalogue, case: Case) -> dict[str, dict[str, Any]]:
    """Per scheme, the compared fields of the case's answer with ``catalogue`` (an error: one pseudo-scheme)."""
    from api.purchase.render import calculate_document
    from legislation.errors import VigueurError

    try:
        document = calculate_document(catalogue, case.request)
    except VigueurError as exc:
        return {"(request)": {"error": f"{type(exc).__name__}: {exc}"}}
    return {r["scheme"]: {name: r.get(name) for name in COMPARED} for r in document["results"]}


def moved_cases(before: Catalogue, after: Catalogue, cases: list[Case]) -> list[Moved]:
    """The cases whose answer differs between the two catalogues, with each differing field."""
    found = []
    for case in cases:
        old, new = answer(before, case), answer(after, case)
        changes = [
            Change(scheme, name, old.get(scheme, {}).get(name), new.get(scheme, {}).get(name))
            for scheme in dict.fromkeys([*old, *new])
            for name in dict.fromkeys([*old.get(scheme, {}), *new.get(scheme, {})])
            if old.get(scheme, {}).get(name) != new.get(scheme, {}).get(name)
        ]
        if changes:
            found.append(Moved(case, tuple(changes)))
    return found


def moved_command(
    paths: Annotated[list[Path], typer.Argument(help="Case files (.yaml, .json) or folders searched recursively.")],
    before: Annotated[
        Path, typer.Option("--before", help="The catalogue folder before the change (e.g. a worktree's versions/).")
    ],
    versions_dir: Annotated[
        Path | None,
        typer.Option("--versions-dir", help="The catalogue folder after the change (default: versions/)."),
    ] = None,
    json_report: Annotated[Path | None, typer.Option("--json", help="Write the moved cases as JSON here.")] = None,
) -> None:
    """List the cases whose answer a change of the catalogue moves (before → after); exit 1 if any."""
    from rich.table import Table

    from api.cases.files import CaseFileError, load_cases
    from api.terminal import console

    out, err = console(), console(stderr=True)
    try:
        cases = load_cases(paths)
    except CaseFileError as exc:
        err.print(f"invalid case file: {exc}", markup=False)
        raise typer.Exit(2) from None
    if not cases:
        err.print("no case to run")
        raise typer.Exit(2)
    catalogues = []
    for side, folder in (("--before", before), ("--versions-dir", versions_dir)):
        try:
            catalogues.append(load_catalogue(folder))
        except CatalogueError as exc:
            err.print(f"invalid catalogue ({side}): {exc}", markup=False)
            raise typer.Exit(3) from None
    moved = moved_cases(catalogues[0], catalogues[1], cases)
    if moved:
        table = Table(title=f"Cases moved by the change ({len(moved)} of {len(cases)})")
        for column in ("case", "scheme", "field", "before", "after"):
            table.add_column(column)
        for m in moved:
            for i, c in enumerate(m.changes):
                table.add_row(m.case.id if i == 0 else "", c.scheme, c.field, _text(c.before), _text(c.after))
        out.print(table)
    out.print(f"{len(cases)} cases: {len(moved)} moved, {len(cases) - len(moved)} unchanged")
    if json_report:
        document = {
            "before": str(before),
            "after": str(versions_dir) if versions_dir else "versions/",
            "cases": len(cases),
            "moved": [m.to_json() for m in moved],
        }
        json_report.write_text(json.dumps(document, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    raise typer.Exit(1 if moved else 0)


def _text(value: Any) -> str:
    return "—" if value is None else str(value)


__all__ = ["COMPARED", "Change", "Moved", "moved_cases"]
