"""The catalogue in the database: load a ``versions/`` tree (atomic, idempotent), read it back as a Catalogue.

Loading runs the strict file loader first, so a rejected tree never touches the database; then, in the
caller's transaction, it compares each version's content hash with the current revision: equal →
unchanged; different → the current revision is superseded (knowledge time closed) and a new one is
recorded; absent from the tree → superseded with no successor. A tree equal to the catalogue writes
nothing at all.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any, Literal

from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from api import codec
from api.db import create_tables
from api.loader import DEFAULT_VERSIONS_DIR, check_catalogue, load_catalogue
from api.tables import ClauseRow, GapRow, LoadRow, ParameterRow, SourceRow, TextRow, VersionRow
from legislation import Catalogue, Source, Version
from legislation.timeline import Gap

Change = Literal["added", "superseded", "removed", "unchanged"]


class CatalogueNotLoaded(Exception):
    """The database holds no catalogue yet (``vigueur load`` was never run on it)."""


class StoreIntegrityError(Exception):
    """A row does not rebuild into the version it was recorded as (its content hash differs)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class VersionChange:
    version_id: str
    change: Change
    old_hash: str | None
    new_hash: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class LoadReport:
    """What a load recorded; ``load_id`` is None when the tree equalled the catalogue (nothing written)."""

    origin: str
    load_id: int | None
    recorded_at: datetime | None
    tree_hash: str
    versions: tuple[VersionChange, ...]
    gaps_added: int
    gaps_removed: int

    @property
    def changed(self) -> bool:
        return self.load_id is not None

    def count(self, change: Change) -> int:
        return sum(1 for v in self.versions if v.change == change)

    def to_json(self) -> dict[str, Any]:
        return {
            "origin": self.origin,
            "changed": self.changed,
            "load_id": self.load_id,
            "recorded_at": self.recorded_at.isoformat() if self.recorded_at else None,
            "tree_hash": self.tree_hash,
            "counts": {c: self.count(c) for c in ("added", "superseded", "removed", "unchanged")}
            | {"gaps_added": self.gaps_added, "gaps_removed": self.gaps_removed},
            "versions": [
                {
                    "version_id": v.version_id,
                    "change": v.change,
                    "old_hash": v.old_hash,
                    "new_hash": v.new_hash,
                }
                for v in self.versions
                if v.change != "unchanged"
            ],
        }


# -- loading -------------------------------------------------------------------------------------


def load_tree(session: Session, root: Path | None = None, *, now: datetime | None = None) -> LoadReport:
    """Record ``root`` (default: ``versions/``) in the session's transaction, uncommitted."""
    root = root or DEFAULT_VERSIONS_DIR
    catalogue = load_catalogue(root)  # strict: raises CatalogueError before anything is written
    versions = sorted(catalogue.versions.values(), key=lambda v: v.id)
    gaps = {gap_hash(g): g for g in catalogue_gaps(catalogue)}
    current = {
        r.version_id: r
        for r in session.exec(select(VersionRow).where(col(VersionRow.superseded_at).is_(None)))
    }
    current_gaps = {
        g.gap_hash: g for g in session.exec(select(GapRow).where(col(GapRow.superseded_at).is_(None)))
    }
    changes = _changes(versions, current)
    tree = tree_hash(((v.id, v.content_hash) for v in versions), gaps)
    new_gaps = [h for h in gaps if h not in current_gaps]
    old_gaps = [row for h, row in current_gaps.items() if h not in gaps]
    if all(c.change == "unchanged" for c in changes) and not new_gaps and not old_gaps:
        return LoadReport(
            origin=str(root),
            load_id=None,
            recorded_at=None,
            tree_hash=tree,
            versions=tuple(changes),
            gaps_added=0,
            gaps_removed=0,
        )
    load = LoadRow(
        recorded_at=_next_instant(session, now),
        origin=str(root),
        tree_hash=tree,
        versions_added=_n(changes, "added"),
        versions_superseded=_n(changes, "superseded"),
        versions_removed=_n(changes, "removed"),
        versions_unchanged=_n(changes, "unchanged"),
        gaps_added=len(new_gaps),
        gaps_removed=len(old_gaps),
    )
    session.add(load)
    session.flush()
    assert load.id is not None
    _supersede([current[c.version_id] for c in changes if c.change in ("superseded", "removed")], load)
    _supersede(old_gaps, load)
    session.flush()  # the superseded rows leave the « current » unique index before their successors enter it
    by_id = {v.id: v for v in versions}
    sources: set[str] = set()
    for c in changes:
        if c.change in ("added", "superseded"):
            _record_version(session, by_id[c.version_id], load, sources)
    for h in new_gaps:
        session.add(_gap_row(gaps[h], h, load))
    session.flush()
    return LoadReport(
        origin=str(root),
        load_id=load.id,
        recorded_at=load.recorded_at,
        tree_hash=tree,
        versions=tuple(changes),
        gaps_added=len(new_gaps),
        gaps_removed=len(old_gaps),
    )


def load_into(engine: Engine, root: Path | None = None, *, now: datetime | None = None) -> LoadReport:
    """Load ``root`` in one transaction: all of it or, on any error, nothing."""
    create_tables(engine)
    with Session(engine) as session:
        report = load_tree(session, root, now=now)
        session.commit()
    return report


def ensure_loaded(engine: Engine, root: Path | None = None) -> LoadReport | None:
    """Create the tables and load ``root`` when the database holds no catalogue yet; None when it does."""
    create_tables(engine)
    with Session(engine) as session:
        if latest_load(session) is not None:
            return None
    return load_into(engine, root)


def _changes(versions: list[Version], current: dict[str, VersionRow]) -> list[VersionChange]:
    changes = []
    for v in versions:
        row = current.get(v.id)
        if row is None:
            changes.append(
                VersionChange(version_id=v.id, change="added", old_hash=None, new_hash=v.content_hash)
            )
        else:
            change: Change = "unchanged" if row.content_hash == v.content_hash else "superseded"
            changes.append(
                VersionChange(
                    version_id=v.id, change=change, old_hash=row.content_hash, new_hash=v.content_hash
                )
            )
    seen = {v.id for v in versions}
    for version_id, row in sorted(current.items()):
        if version_id not in seen:
            changes.append(
                VersionChange(
                    version_id=version_id, change="removed", old_hash=row.content_hash, new_hash=None
                )
            )
    return changes


def _n(changes: list[VersionChange], change: Change) -> int:
    return sum(1 for c in changes if c.change == change)


def _next_instant(session: Session, now: datetime | None) -> datetime:
    """Now, or just after the previous load when the clock went back: knowledge time only moves forward."""
    instant = (now or datetime.now(UTC)).astimezone(UTC)
    last = latest_load(session)
    if last is not None and instant <= last.recorded_at:
        instant = last.recorded_at + timedelta(microseconds=1)
    return instant


def _supersede(rows: Iterable[VersionRow | GapRow], load: LoadRow) -> None:
    for row in rows:
        row.superseded_at = load.recorded_at
        row.superseded_by_load_id = load.id


def _record_version(session: Session, version: Version, load: LoadRow, sources: set[str]) -> None:
    assert load.id is not None
    if session.get(TextRow, version.article) is None:
        session.add(TextRow(article=version.article, recorded_at=load.recorded_at, load_id=load.id))
        session.flush()
    doc = codec.version_to_json(version)
    row = VersionRow(
        version_id=version.id,
        article=version.article,
        scheme=doc["scheme"],
        role=doc["role"],
        citation=version.citation,
        title=version.title,
        valid_from=version.valid_from,
        valid_until=version.valid_until,
        text=version.text,
        source_hash=_record_source(session, version.source, load, sources),
        provenance=doc["provenance"],
        period_confidence=version.period_confidence,
        calculator=version.calculator,
        relies_on=doc["relies_on"],
        claim_deadline_months=version.claim_deadline_months,
        claim_deadline_paragraph=version.claim_deadline_paragraph,
        notes=version.notes,
        content_hash=version.content_hash,
        recorded_at=load.recorded_at,
        load_id=load.id,
    )
    session.add(row)
    session.flush()
    assert row.revision_id is not None
    for position, (name, p) in enumerate(doc["parameters"].items()):
        session.add(ParameterRow(revision_id=row.revision_id, name=name, position=position, **p))
    for position, (clause, c) in enumerate(zip(version.transitional, doc["transitional"], strict=True)):
        source = _record_source(session, clause.source, load, sources) if clause.source is not None else None
        fields = {k: v for k, v in c.items() if k not in ("id", "source")}
        session.add(
            ClauseRow(
                revision_id=row.revision_id,
                position=position,
                clause_id=c["id"],
                source_hash=source,
                **_dated(fields, ("order_limit", "decisive_on_or_before")),
            )
        )


def _record_source(session: Session, source: Source, load: LoadRow, sources: set[str]) -> str:
    doc = codec.source_to_json(source)
    key = _digest(doc)
    if key not in sources and session.get(SourceRow, key) is None:
        session.add(
            SourceRow(source_hash=key, recorded_at=load.recorded_at, **_dated(doc, codec.SOURCE_DATES))
        )
        session.flush()
    sources.add(key)
    return key


def _gap_row(gap: Gap, key: str, load: LoadRow) -> GapRow:
    assert load.id is not None
    return GapRow(
        gap_hash=key,
        scheme=gap.scheme.value,
        start=gap.start,
        end=gap.end,
        reason=gap.reason,
        recorded_at=load.recorded_at,
        load_id=load.id,
    )


def _dated(doc: dict[str, Any], keys: Iterable[str]) -> dict[str, Any]:
    return {k: (date.fromisoformat(v) if k in keys and v is not None else v) for k, v in doc.items()}


# -- fingerprints ----------------------------------------------------------------------------------


def _digest(doc: Any) -> str:
    return (
        "sha256:" + hashlib.sha256(json.dumps(doc, sort_keys=True, ensure_ascii=False).encode()).hexdigest()
    )


def gap_hash(gap: Gap) -> str:
    return _digest(codec.gap_to_json(gap))


def tree_hash(version_hashes: Iterable[tuple[str, str]], gap_hashes: Iterable[str]) -> str:
    """The fingerprint of a whole catalogue: its versions' content hashes and its gaps."""
    return _digest({"versions": sorted(f"{i} {h}" for i, h in version_hashes), "gaps": sorted(gap_hashes)})


def catalogue_gaps(catalogue: Catalogue) -> list[Gap]:
    return [g for timeline in catalogue.timelines.values() for g in timeline.gaps]


# -- reading ---------------------------------------------------------------------------------------


def latest_load(session: Session) -> LoadRow | None:
    return session.exec(select(LoadRow).order_by(col(LoadRow.id).desc()).limit(1)).first()


class _CatalogueCache:
    """Catalogues rebuilt from the database, by tree hash (content-addressed, so never stale)."""

    def __init__(self, size: int = 8) -> None:
        self._items: OrderedDict[str, Catalogue] = OrderedDict()
        self._lock = threading.Lock()
        self._size = size

    def get(self, key: str) -> Catalogue | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: str, catalogue: Catalogue) -> None:
        with self._lock:
            self._items[key] = catalogue
            while len(self._items) > self._size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


CACHE = _CatalogueCache()


def read_catalogue(session: Session) -> Catalogue:
    """The latest catalogue in the database (rebuilt once per tree hash, then served from memory)."""
    load = latest_load(session)
    if load is None:
        raise CatalogueNotLoaded("the database holds no catalogue: run `vigueur load`")
    cached = CACHE.get(load.tree_hash)
    if cached is not None:
        return cached
    catalogue = rebuild_catalogue(session)
    found = tree_hash(
        ((v.id, v.content_hash) for v in catalogue.versions.values()),
        (gap_hash(g) for g in catalogue_gaps(catalogue)),
    )
    if found != load.tree_hash:
        raise StoreIntegrityError(
            f"the catalogue rows hash to {found}, the last load recorded {load.tree_hash}"
        )
    CACHE.put(load.tree_hash, catalogue)
    return catalogue


def rebuild_catalogue(session: Session) -> Catalogue:
    """Every current revision and gap, rebuilt into the domain and checked as the file loader checks trees."""
    rows = list(session.exec(select(VersionRow).where(col(VersionRow.superseded_at).is_(None))))
    ids = [r.revision_id for r in rows]
    params: dict[int, list[ParameterRow]] = {}
    for p in session.exec(
        select(ParameterRow)
        .where(col(ParameterRow.revision_id).in_(ids))
        .order_by(col(ParameterRow.position))
    ):
        params.setdefault(p.revision_id, []).append(p)
    clauses: dict[int, list[ClauseRow]] = {}
    for c in session.exec(
        select(ClauseRow).where(col(ClauseRow.revision_id).in_(ids)).order_by(col(ClauseRow.position))
    ):
        clauses.setdefault(c.revision_id, []).append(c)
    sources = {s.source_hash: s for s in session.exec(select(SourceRow))}
    versions = [
        _version(r, params.get(r.revision_id or 0, []), clauses.get(r.revision_id or 0, []), sources)
        for r in rows
    ]
    gaps = [
        codec.gap_from_json(
            {"scheme": g.scheme, "start": g.start.isoformat(), "end": g.end.isoformat(), "reason": g.reason}
        )
        for g in session.exec(select(GapRow).where(col(GapRow.superseded_at).is_(None)))
    ]
    check_catalogue(versions, gaps, "database")
    return Catalogue(versions, gaps)


def _version(
    row: VersionRow, params: list[ParameterRow], clauses: list[ClauseRow], sources: dict[str, SourceRow]
) -> Version:
    doc = {
        "id": row.version_id,
        "scheme": row.scheme,
        "role": row.role,
        "article": row.article,
        "citation": row.citation,
        "title": row.title,
        "valid_from": row.valid_from.isoformat(),
        "valid_until": row.valid_until.isoformat() if row.valid_until else None,
        "text": row.text,
        "source": _source_doc(sources[row.source_hash]),
        "provenance": row.provenance,
        "period_confidence": row.period_confidence,
        "calculator": row.calculator,
        "parameters": {
            p.name: {"value": p.value, "paragraph": p.paragraph, "quote": p.quote} for p in params
        },
        "transitional": [_clause_doc(c, sources) for c in clauses],
        "relies_on": list(row.relies_on),
        "claim_deadline_months": row.claim_deadline_months,
        "claim_deadline_paragraph": row.claim_deadline_paragraph,
        "notes": row.notes,
    }
    version = codec.version_from_json(doc)
    if version.content_hash != row.content_hash:
        raise StoreIntegrityError(
            f"revision {row.revision_id} of {row.version_id} rebuilds to {version.content_hash}, "
            f"recorded as {row.content_hash}"
        )
    return version


def _source_doc(row: SourceRow) -> dict[str, Any]:
    doc = {k: getattr(row, k) for k in codec.SOURCE_FIELDS}
    return {k: (v.isoformat() if k in codec.SOURCE_DATES and v is not None else v) for k, v in doc.items()}


def _clause_doc(row: ClauseRow, sources: dict[str, SourceRow]) -> dict[str, Any]:
    return {
        "id": row.clause_id,
        "keeps": row.keeps,
        "order_test": row.order_test,
        "order_limit": row.order_limit.isoformat(),
        "decisive_on_or_before": row.decisive_on_or_before.isoformat(),
        "deadline_basis": row.deadline_basis,
        "deadline_reading": row.deadline_reading,
        "paragraph": row.paragraph,
        "wording": row.wording,
        "source": _source_doc(sources[row.source_hash]) if row.source_hash else None,
        "kept_version_id": row.kept_version_id,
        "kept_version_label": row.kept_version_label,
        "new_vehicles_only": row.new_vehicles_only,
        "branches": list(row.branches),
    }
