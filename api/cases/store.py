"""Regression cases in the database: import case files (idempotent), list the current cases, run them.

Importing reads the files with the strict parser of :mod:`api.cases.files` first, so a file it rejects never
touches the database. Then, in the caller's transaction, each case's content hash is compared with its
current row: equal → unchanged (nothing written); different → the current row is superseded and a new
revision recorded; new id → added. With ``prune`` the current cases absent from the import are retired
(superseded with no successor), so a full import of the corpus mirrors it. An import changing nothing
writes nothing at all.

A stored case is turned back into a :class:`api.cases.files.Case` by the same strict parser, so running the
stored corpus is exactly running the files (``vigueur cases run``), and gives the same report.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

import yaml
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, func, select

from api.cases.files import NO_VERSION, Case, CaseFileError, CaseLoader, CaseResult, load_cases, parse_case, run_case
from api.cases.report import report
from api.cases.tables import CaseImportRow, CaseRow
from api.catalogue.db import create_tables
from legislation import Catalogue

Change = Literal["added", "superseded", "unchanged", "removed"]


@dataclass(frozen=True, slots=True, kw_only=True)
class CaseChange:
    case_id: str
    change: Change
    old_hash: str | None
    new_hash: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class ImportReport:
    """What an import recorded; ``import_id`` is None when nothing changed (nothing was written)."""

    origin: str
    import_id: int | None
    imported_at: datetime | None
    cases: tuple[CaseChange, ...]

    @property
    def changed(self) -> bool:
        return self.import_id is not None

    def count(self, change: Change) -> int:
        return sum(1 for c in self.cases if c.change == change)

    def to_json(self) -> dict[str, Any]:
        return {
            "origin": self.origin,
            "changed": self.changed,
            "import_id": self.import_id,
            "imported_at": self.imported_at.isoformat() if self.imported_at else None,
            "counts": {c: self.count(c) for c in ("added", "superseded", "unchanged", "removed")},
            "cases": [
                {"id": c.case_id, "change": c.change, "old_hash": c.old_hash, "new_hash": c.new_hash}
                for c in self.cases
            ],
        }


class UnknownCases(Exception):
    """Case ids asked for that are not in the stored corpus."""

    def __init__(self, ids: Sequence[str]) -> None:
        super().__init__(", ".join(ids))
        self.ids = tuple(ids)


# -- the content of a case ---------------------------------------------------------------------------------


def case_document(case: Case) -> dict[str, Any]:
    """The content of a case as the case file states it (JSON types; amounts as strings): what is hashed."""
    expected: dict[str, Any] = {}
    for scheme, e in case.expected.items():
        doc: dict[str, Any] = {
            "amount": None if e.amount is None else str(e.amount),
            "eligible": e.eligible,
            "version_id": e.version_id,
        }
        if e.status is not None:
            doc["status"] = e.status
        if e.kept_by is not None:
            doc["kept_by"] = e.kept_by
        if e.missing_facts is not None:
            doc["missing_facts"] = list(e.missing_facts)
        expected[scheme.value] = doc
    source: dict[str, Any] = {"paragraph": case.paragraph}
    if case.url is not None:
        source["url"] = case.url
    return {
        "id": case.id,
        "title": case.title,
        "source": source,
        "request": json.loads(case.request_json),
        "expected": expected,
        "tolerance": str(case.tolerance),
        "notes": case.notes,
    }


def content_hash(document: dict[str, Any]) -> str:
    """sha256 of the canonical JSON of a case's content (keys sorted, no spaces)."""
    canonical = json.dumps(document, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def row_document(row: CaseRow) -> dict[str, Any]:
    """The content of a stored case, in the shape of the case file."""
    source: dict[str, Any] = {"paragraph": row.paragraph}
    if row.url is not None:
        source["url"] = row.url
    return {
        "id": row.case_id,
        "title": row.title,
        "source": source,
        "request": row.request,
        "expected": row.expected,
        "tolerance": row.tolerance,
        "notes": row.notes,
    }


def to_case(row: CaseRow) -> Case:
    """The stored case, parsed again by the strict parser (so a stored case runs exactly as its file)."""
    return parse_case(row_document(row), row.file, row.line, 0)


# -- reading case files ------------------------------------------------------------------------------------


def parse_case_text(text: str, file: str) -> list[Case]:
    """The cases of one case file given as text (YAML, or JSON ``{"cases": [...]}``), parsed strictly."""
    try:
        loader = CaseLoader(text)
        try:
            root = loader.get_single_node()
            data = loader.construct_document(root) if root is not None else None
        finally:
            loader.dispose()
    except yaml.YAMLError as exc:
        raise CaseFileError(file, None, "", f"not valid YAML or JSON: {exc}") from None
    if not isinstance(data, dict) or set(data) != {"cases"}:
        raise CaseFileError(file, None, "", "a case file is a mapping with the single key `cases` (a list)")
    if not isinstance(data["cases"], list) or not data["cases"]:
        raise CaseFileError(file, None, "cases", "must be a non-empty list of cases")
    assert root is not None
    items = next(v for k, v in root.value if k.value == "cases").value
    cases = [
        parse_case(raw, file, node.start_mark.line + 1, i)
        for i, (raw, node) in enumerate(zip(data["cases"], items, strict=True))
    ]
    seen: dict[str, int] = {}
    for case in cases:
        if case.id in seen:
            raise CaseFileError(file, case.id, "id", f"duplicate case id (also on line {seen[case.id]})")
        seen[case.id] = case.line
    return cases


def read_case_files(paths: Iterable[str]) -> list[Case]:
    """Every case of the files and folders given (ids unique across them), as ``vigueur cases run`` reads."""
    return load_cases(paths)


# -- importing ---------------------------------------------------------------------------------------------


def ensure_tables(engine: Engine) -> None:
    """Bring the database to the current schema (the store's migrations, which include the case tables)."""
    create_tables(engine)


def current_rows(session: Session) -> list[CaseRow]:
    """Every current case, in the order of the corpus: by file of origin, then line, then id."""
    query = (
        select(CaseRow)
        .where(col(CaseRow.superseded_at).is_(None))
        .order_by(col(CaseRow.file), col(CaseRow.line), col(CaseRow.case_id))
    )
    return list(session.exec(query))


def import_cases(
    session: Session,
    cases: Sequence[Case],
    origin: str,
    *,
    prune: bool = False,
    now: datetime | None = None,
) -> ImportReport:
    """Record the cases in the caller's transaction (flushed, not committed); see the module docstring."""
    ids = [c.id for c in cases]
    if len(set(ids)) != len(ids):
        duplicate = next(i for i in ids if ids.count(i) > 1)
        raise CaseFileError(origin, duplicate, "id", "duplicate case id in one import")
    current = {
        r.case_id: r for r in session.exec(select(CaseRow).where(col(CaseRow.superseded_at).is_(None)))
    }
    changes: list[CaseChange] = []
    new: list[tuple[Case, dict[str, Any], str]] = []
    closing: list[CaseRow] = []
    for case in cases:
        document = case_document(case)
        digest = content_hash(document)
        row = current.get(case.id)
        if row is None:
            changes.append(CaseChange(case_id=case.id, change="added", old_hash=None, new_hash=digest))
            new.append((case, document, digest))
        elif row.content_hash == digest:
            changes.append(CaseChange(case_id=case.id, change="unchanged", old_hash=digest, new_hash=digest))
        else:
            changes.append(
                CaseChange(case_id=case.id, change="superseded", old_hash=row.content_hash, new_hash=digest)
            )
            new.append((case, document, digest))
            closing.append(row)
    if prune:
        imported = set(ids)
        for case_id, row in sorted(current.items()):
            if case_id not in imported:
                changes.append(
                    CaseChange(case_id=case_id, change="removed", old_hash=row.content_hash, new_hash=None)
                )
                closing.append(row)
    if not new and not closing:
        return ImportReport(origin=origin, import_id=None, imported_at=None, cases=tuple(changes))
    instant = _next_instant(session, now)
    counts = {
        c: sum(1 for x in changes if x.change == c) for c in ("added", "superseded", "unchanged", "removed")
    }
    record = CaseImportRow(
        imported_at=instant,
        origin=origin,
        cases_added=counts["added"],
        cases_superseded=counts["superseded"],
        cases_unchanged=counts["unchanged"],
        cases_removed=counts["removed"],
    )
    session.add(record)
    session.flush()
    assert record.id is not None
    for row in closing:
        row.superseded_at = instant
        session.add(row)
    session.flush()  # the old rows are closed before their successors open (one current row per id)
    for case, document, digest in new:
        session.add(
            CaseRow(
                case_id=case.id,
                title=document["title"],
                paragraph=document["source"]["paragraph"],
                url=document["source"].get("url"),
                request=document["request"],
                expected=document["expected"],
                tolerance=document["tolerance"],
                notes=document["notes"],
                file=case.file,
                line=case.line,
                content_hash=digest,
                import_id=record.id,
                imported_at=instant,
            )
        )
    session.flush()
    return ImportReport(origin=origin, import_id=record.id, imported_at=instant, cases=tuple(changes))


def _next_instant(session: Session, now: datetime | None) -> datetime:
    """Now (UTC), strictly after the last import: knowledge time never runs backwards nor repeats."""
    instant = (now or datetime.now(UTC)).astimezone(UTC)
    last = session.exec(select(func.max(CaseImportRow.imported_at))).first()
    if last is not None:
        last = last.replace(tzinfo=UTC) if last.tzinfo is None else last.astimezone(UTC)
        if instant <= last:
            instant = last + timedelta(microseconds=1)
    return instant


# -- selecting and running ---------------------------------------------------------------------------------


def matches_file(row: CaseRow, file: str) -> bool:
    """The file of origin is ``file`` or ends with ``/file`` (« bonus_2017.yaml »: tests/regression/…)."""
    return row.file == file or row.file.endswith("/" + file)


def row_versions(row: CaseRow) -> tuple[str | None, ...]:
    """The versions the case exercises (one per expected scheme; None for « no version on file »)."""
    return tuple(dict.fromkeys(e.get("version_id") for e in row.expected.values()))


def select_rows(
    session: Session,
    *,
    ids: Sequence[str] | None = None,
    version: str | None = None,
    file: str | None = None,
) -> list[CaseRow]:
    """The current cases matching every filter, in corpus order; unknown ``ids``: :class:`UnknownCases`."""
    rows = current_rows(session)
    if ids:
        wanted = list(dict.fromkeys(ids))
        known = {r.case_id for r in rows}
        missing = [i for i in wanted if i not in known]
        if missing:
            raise UnknownCases(missing)
        chosen = set(wanted)
        rows = [r for r in rows if r.case_id in chosen]
    if version is not None:
        target = None if version == NO_VERSION else version
        rows = [r for r in rows if target in row_versions(r)]
    if file is not None:
        rows = [r for r in rows if matches_file(r, file)]
    return rows


def run_rows(catalogue: Catalogue, rows: Sequence[CaseRow]) -> list[CaseResult]:
    """Each stored case run against the catalogue, timed as ``vigueur cases run`` times them."""
    results: list[CaseResult] = []
    for row in rows:
        case = to_case(row)
        started = time.perf_counter()
        result = run_case(catalogue, case)
        result.seconds = time.perf_counter() - started
        results.append(result)
    return results


def run_report(catalogue: Catalogue, rows: Sequence[CaseRow]) -> dict[str, Any]:
    """The report of ``vigueur cases run --json`` for the stored cases given."""
    started = time.perf_counter()
    results = run_rows(catalogue, rows)
    return report(results, time.perf_counter() - started)


def case_out(row: CaseRow) -> dict[str, Any]:
    """A stored case as the API shows it: its content, where it came from, its hash, when it was imported."""
    return row_document(row) | {
        "file": row.file,
        "line": row.line,
        "content_hash": row.content_hash,
        "imported_at": row.imported_at.isoformat(),
        "href": f"/v1/cases/{row.case_id}",
    }
