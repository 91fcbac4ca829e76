"""The catalogue in the database: load a ``versions/`` tree (atomic, idempotent, serialized), record a
correction, read the catalogue back as it is known now or as it was known at any past instant.

Loading runs the strict file loader first, so a rejected tree never touches the database; then, in the
caller's transaction and under the write lock (:func:`api.catalogue.db.write_lock`: one writer at a time, the next one
sees what the previous one committed), it compares each version's content hash with the current revision:
equal → unchanged; different → the current revision is superseded (knowledge time closed) and a new one is
recorded; absent from the tree → superseded with no successor. A tree equal to the catalogue writes nothing
at all. Every write is a new ``catalogue_load`` row; the catalogue known at an instant is the one the last
load recorded at or before it left (its tree hash checks the rebuild).
"""

from __future__ import annotations

import hashlib
import json
import re
import tempfile
import threading
import tomllib
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any, Literal

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from api.catalogue import codec
from api.catalogue.announce import announce
from api.catalogue.db import create_tables, write_lock
from api.catalogue.hashing import legacy_version_hash
from api.catalogue.loader import DEFAULT_VERSIONS_DIR, check_catalogue, load_catalogue, load_version
from api.catalogue.tables import ClauseRow, GapRow, LoadRow, ParameterRow, SourceRow, TextRow, VersionRow
from legislation import Catalogue, Source, Version
from legislation.errors import CatalogueError
from legislation.timeline import Gap

Change = Literal["added", "superseded", "removed", "unchanged"]


class CatalogueNotLoaded(Exception):
    """The database holds no catalogue yet (``vigueur load`` was never run on it)."""


class StoreIntegrityError(Exception):
    """A row does not rebuild into the version it was recorded as (its content hash differs)."""


class NothingKnownThen(Exception):
    """A knowledge instant before the first load: the catalogue held nothing then."""

    def __init__(self, known_at: datetime, first_recorded_at: datetime) -> None:
        super().__init__(
            f"the catalogue held nothing at {known_at.isoformat()}: "
            f"its first load was recorded at {first_recorded_at.isoformat()}"
        )
        self.known_at = known_at
        self.first_recorded_at = first_recorded_at


VERSION_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")


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

    def to_json(self, unchanged: bool = True) -> dict[str, Any]:
        """The report; ``versions`` lists every version with its old and new hash (``unchanged`` ones too)."""
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
                if unchanged or v.change != "unchanged"
            ],
        }


# -- loading -------------------------------------------------------------------------------------


def load_tree(session: Session, root: Path | None = None, *, now: datetime | None = None) -> LoadReport:
    """Record ``root`` (default: ``versions/``) in the session's transaction, uncommitted, under the lock."""
    root = root or DEFAULT_VERSIONS_DIR
    catalogue = load_catalogue(root)  # strict: raises CatalogueError before anything is written
    write_lock(session.connection())  # held until the caller's commit or rollback
    return record_catalogue(
        session, list(catalogue.versions.values()), catalogue_gaps(catalogue), origin=str(root), now=now
    )


def record_catalogue(
    session: Session,
    versions: list[Version],
    gap_list: list[Gap],
    *,
    origin: str,
    now: datetime | None = None,
) -> LoadReport:
    """Make ``versions`` and ``gap_list`` the current catalogue: supersede what changed, record what is new.

    The caller holds the write lock and has checked the catalogue (the loader's rules); nothing is ever
    updated but the closing of a superseded row's knowledge period.
    """
    versions = sorted(versions, key=lambda v: v.id)
    gaps = {gap_hash(g): g for g in gap_list}
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
            origin=origin,
            load_id=None,
            recorded_at=None,
            tree_hash=tree,
            versions=tuple(changes),
            gaps_added=0,
            gaps_removed=0,
        )
    load = LoadRow(
        recorded_at=_next_instant(session, now),
        origin=origin,
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
    announce(session, load.id)  # the serving processes read the catalogue again once this commits
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
        origin=origin,
        load_id=load.id,
        recorded_at=load.recorded_at,
        tree_hash=tree,
        versions=tuple(changes),
        gaps_added=len(new_gaps),
        gaps_removed=len(old_gaps),
    )


def version_from_files(version_toml: str, text: str) -> Version:
    """A version from a folder's two files given as strings, by the loader's own strict rules."""
    try:
        raw = tomllib.loads(version_toml)
    except tomllib.TOMLDecodeError as exc:
        raise CatalogueError("version.toml", "-", f"not valid TOML: {exc}") from None
    version_id = raw.get("id")
    if not isinstance(version_id, str) or not VERSION_ID.match(version_id):
        raise CatalogueError(
            "version.toml", "id", f"{version_id!r} is not a version id (letters, digits, « . », « - », « _ »)"
        )
    with tempfile.TemporaryDirectory(prefix="vigueur-correction-") as tmp:
        folder = Path(tmp) / version_id
        folder.mkdir()
        (folder / "version.toml").write_text(version_toml, encoding="utf-8")
        (folder / "text.txt").write_bytes(text.encode("utf-8"))
        try:
            return load_version(folder)
        except CatalogueError as exc:
            raise CatalogueError(exc.path.replace(str(folder), version_id), exc.field, _reason(exc)) from None


def _reason(exc: CatalogueError) -> str:
    return str(exc).split(f"{exc.path}: {exc.field}: ", 1)[-1]


def record_correction(
    session: Session, version: Version, *, origin: str, now: datetime | None = None
) -> LoadReport:
    """Record ``version`` as the new revision of its id (or a new version), in the session's transaction.

    Checked against the catalogue as currently recorded by the loader's cross-version rules (overlaps per
    article and per scheme, declared gaps, links): a correction that breaks one raises CatalogueError and
    writes nothing. It supersedes the current revision; it never updates it.
    """
    write_lock(session.connection())
    load = latest_load(session)
    if load is None:
        raise CatalogueNotLoaded("the database holds no catalogue: run `vigueur load` first")
    catalogue = rebuild_catalogue(session)
    versions = [v for v in catalogue.versions.values() if v.id != version.id] + [version]
    gaps = catalogue_gaps(catalogue)
    check_catalogue(versions, gaps, "the catalogue as recorded")
    return record_catalogue(session, versions, gaps, origin=origin, now=now)


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
        decisive_event=doc["decisive_event"],
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
                **_dated(fields, ("order_limit", "decisive_on_or_before", "rules_date")),
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


@dataclass(frozen=True, slots=True)
class KnownCatalogue:
    """The catalogue as known at an instant, with the load that made it so."""

    catalogue: Catalogue
    load: LoadRow
    known_at: datetime | None  # the instant asked; None: the latest knowledge

    @property
    def load_id(self) -> int:
        assert self.load.id is not None
        return self.load.id


def load_known_at(session: Session, known_at: datetime | None = None) -> LoadRow:
    """The load whose catalogue was the latest knowledge at ``known_at`` (default: the latest load)."""
    if known_at is None:
        load = latest_load(session)
        if load is None:
            raise CatalogueNotLoaded("the database holds no catalogue: run `vigueur load`")
        return load
    if known_at.tzinfo is None:
        raise ValueError("known_at must be timezone-aware")
    load = session.exec(
        select(LoadRow)
        .where(col(LoadRow.recorded_at) <= known_at)
        .order_by(col(LoadRow.recorded_at).desc(), col(LoadRow.id).desc())
        .limit(1)
    ).first()
    if load is None:
        first = session.exec(select(LoadRow).order_by(col(LoadRow.recorded_at)).limit(1)).first()
        if first is None:
            raise CatalogueNotLoaded("the database holds no catalogue: run `vigueur load`")
        raise NothingKnownThen(known_at, first.recorded_at)
    return load


def read_known(session: Session, known_at: datetime | None = None) -> KnownCatalogue:
    """The catalogue known at ``known_at`` (default: now), rebuilt once per tree hash, then from memory."""
    load = load_known_at(session, known_at)
    cached = CACHE.get(load.tree_hash)
    if cached is None:
        cached = rebuild_catalogue(session, load)
        CACHE.put(load.tree_hash, cached)
    return KnownCatalogue(cached, load, known_at)


def read_catalogue(session: Session, known_at: datetime | None = None) -> Catalogue:
    """The latest catalogue in the database, or the one known at ``known_at``."""
    return read_known(session, known_at).catalogue


def _known_then(model: type[VersionRow] | type[GapRow], instant: datetime | None) -> Any:
    """Rows that were the latest knowledge at ``instant`` (None: now)."""
    if instant is None:
        return col(model.superseded_at).is_(None)
    return sa.and_(
        col(model.recorded_at) <= instant,
        sa.or_(col(model.superseded_at).is_(None), col(model.superseded_at) > instant),
    )


def revisions_at(session: Session, load: LoadRow | None = None) -> dict[str, VersionRow]:
    """The revision of each version that was current just after ``load`` (default: now), by version id."""
    instant = load.recorded_at if load is not None else None
    return {r.version_id: r for r in session.exec(select(VersionRow).where(_known_then(VersionRow, instant)))}


def rebuild_catalogue(session: Session, load: LoadRow | None = None) -> Catalogue:
    """The catalogue as ``load`` left it (default: the current revisions and gaps), checked twice: as the
    file loader checks a tree, and against the tree hash ``load`` recorded."""
    instant = load.recorded_at if load is not None else None
    rows = list(session.exec(select(VersionRow).where(_known_then(VersionRow, instant))))
    versions = _versions(session, rows)
    gaps = [
        codec.gap_from_json(
            {"scheme": g.scheme, "start": g.start.isoformat(), "end": g.end.isoformat(), "reason": g.reason}
        )
        for g in session.exec(select(GapRow).where(_known_then(GapRow, instant)))
    ]
    check_catalogue(versions, gaps, "database")
    catalogue = Catalogue(versions, gaps)
    expected = load if load is not None else latest_load(session)
    if expected is not None:
        found = tree_hash(
            ((v.id, v.content_hash) for v in versions), (gap_hash(g) for g in catalogue_gaps(catalogue))
        )
        if found != expected.tree_hash:
            raise StoreIntegrityError(
                f"the catalogue rows hash to {found}, load {expected.id} recorded {expected.tree_hash}"
            )
    return catalogue


def rebuild_revision(session: Session, revision_id: int) -> Version:
    """One revision, rebuilt from its rows and checked against the content hash it was recorded with."""
    row = session.get(VersionRow, revision_id)
    if row is None:
        raise StoreIntegrityError(f"no revision {revision_id}")
    return _versions(session, [row])[0]


def version_revisions(session: Session, version_id: str, until: datetime | None = None) -> list[VersionRow]:
    """Every revision of a version recorded up to ``until`` (default: all), oldest first."""
    query = select(VersionRow).where(VersionRow.version_id == version_id)
    if until is not None:
        query = query.where(col(VersionRow.recorded_at) <= until)
    return list(session.exec(query.order_by(col(VersionRow.recorded_at), col(VersionRow.revision_id))))


def _versions(session: Session, rows: list[VersionRow]) -> list[Version]:
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
    return [
        _version(r, params.get(r.revision_id or 0, []), clauses.get(r.revision_id or 0, []), sources)
        for r in rows
    ]


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
            p.name: {"value": p.value, "paragraph": p.paragraph, "quote": p.quote, "unit": p.unit}
            | ({"notion": p.notion} if p.notion is not None else {})
            for p in params
        },
        "transitional": [_clause_doc(c, sources) for c in clauses],
        "relies_on": list(row.relies_on),
        "claim_deadline_months": row.claim_deadline_months,
        "claim_deadline_paragraph": row.claim_deadline_paragraph,
        "notes": row.notes,
    }
    if row.decisive_event is not None:
        doc["decisive_event"] = row.decisive_event
    version = codec.version_from_json(doc)
    if version.content_hash != row.content_hash and legacy_version_hash(version, row.text.encode()) == row.content_hash:
        version = replace(version, content_hash=row.content_hash)  # recorded before RFC 8785 hashes: kept
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
        "rules_date": row.rules_date.isoformat() if row.rules_date is not None else None,
        "yearly": bool(row.yearly),
        "category_deadlines": dict(row.category_deadlines or {}),
    }
