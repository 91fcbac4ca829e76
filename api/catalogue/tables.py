"""The catalogue as tables: loads, texts, sources, version revisions (with parameters and clauses), gaps.

Two time axes. Valid time is the law's (``valid_from``/``valid_until`` of a version, ``start``/``end``
of a gap). Knowledge time is the catalogue's: a revision or a gap row is ``recorded_at`` by a load and
stays true until ``superseded_at`` (null = still the latest knowledge). A correction in ``versions/``
never updates a revision: the load that sees it closes the old row's knowledge period and records a
new revision. Parameters and clauses belong to one revision and are immutable with it; sources are
content-addressed (their hash is their key), so a row once written is never changed.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.types import TypeDecorator
from sqlmodel import Column, Field, SQLModel


class UTCDateTime(TypeDecorator[datetime]):
    """An instant, always UTC and timezone-aware in Python (``timestamptz`` on PostgreSQL, text on SQLite)."""

    impl = sa.DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("knowledge-time instants must be timezone-aware")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def _instant(nullable: bool = False, index: bool = False) -> Any:
    return Field(sa_column=Column(UTCDateTime(), nullable=nullable, index=index))


def _long_text() -> Any:
    return Field(sa_column=Column(sa.Text(), nullable=False))


def _json_list() -> Any:
    return Field(default_factory=list, sa_column=Column(sa.JSON(), nullable=False))


class LoadRow(SQLModel, table=True):
    """One load of a ``versions/`` tree that changed the catalogue (a load changing nothing writes nothing).

    ``tree_hash`` fingerprints the whole catalogue as it stood after this load: the latest load's hash is
    the key of the in-process cache, and the last load recorded at or before an instant gives the
    catalogue known at that instant.
    """

    __tablename__ = "catalogue_load"

    id: int | None = Field(default=None, primary_key=True)
    recorded_at: datetime = _instant(index=True)
    origin: str = Field(description="The tree loaded (its path).")
    tree_hash: str = Field(index=True)
    versions_added: int = 0
    versions_superseded: int = 0
    versions_removed: int = 0
    versions_unchanged: int = 0
    gaps_added: int = 0
    gaps_removed: int = 0


class TextRow(SQLModel, table=True):
    """A legal provision (« C. énergie, art. D. 251-7 »), the stable key its versions share."""

    __tablename__ = "legal_text"

    article: str = Field(primary_key=True)
    recorded_at: datetime = _instant()
    load_id: int = Field(foreign_key="catalogue_load.id")


class SourceRow(SQLModel, table=True):
    """Where a wording comes from (decree, JORF, NOR, ELI…); content-addressed, shared by revisions."""

    __tablename__ = "source"

    source_hash: str = Field(primary_key=True)
    decree: str = _long_text()
    decree_date: date | None = None
    jorf: str | None = None
    jorf_date: date | None = None
    nor: str | None = None
    eli: str | None = None
    url: str | None = None
    legiarti: str | None = None
    jorftext: str | None = None
    confidence: str
    notes: str = _long_text()
    recorded_at: datetime = _instant()


class VersionRow(SQLModel, table=True):
    """One revision of a version: wording and metadata as known from ``recorded_at`` to ``superseded_at``."""

    __tablename__ = "version_revision"
    __table_args__ = (
        # At most one current revision per version (the latest knowledge).
        sa.Index(
            "uq_version_revision_current",
            "version_id",
            unique=True,
            sqlite_where=sa.text("superseded_at IS NULL"),
            postgresql_where=sa.text("superseded_at IS NULL"),
        ),
        sa.UniqueConstraint("version_id", "content_hash", "recorded_at", name="uq_version_revision_recorded"),
    )

    revision_id: int | None = Field(default=None, primary_key=True)
    version_id: str = Field(index=True)
    article: str = Field(foreign_key="legal_text.article", index=True)
    scheme: str | None = None
    role: str
    citation: str
    title: str = _long_text()
    valid_from: date
    valid_until: date | None = None
    text: str = _long_text()
    source_hash: str = Field(foreign_key="source.source_hash")
    provenance: str
    period_confidence: str
    calculator: str | None = None
    relies_on: list[str] = _json_list()
    claim_deadline_months: int | None = None
    claim_deadline_paragraph: str = ""
    notes: str = _long_text()
    decisive_event: str | None = None  # DecisiveEvent; NULL = the default, and for revisions before migration 0007
    content_hash: str = Field(index=True)
    recorded_at: datetime = _instant(index=True)
    superseded_at: datetime | None = _instant(nullable=True, index=True)
    load_id: int = Field(foreign_key="catalogue_load.id")
    superseded_by_load_id: int | None = Field(default=None, foreign_key="catalogue_load.id")


class ParameterRow(SQLModel, table=True):
    """A number of a revision's text: value (a decimal written as a string), paragraph, verbatim quote."""

    __tablename__ = "version_parameter"

    revision_id: int = Field(foreign_key="version_revision.revision_id", primary_key=True)
    name: str = Field(primary_key=True)
    position: int
    value: str
    paragraph: str
    quote: str = _long_text()
    unit: str | None = None  # ParameterUnit; NULL for revisions recorded before units (migration 0003)
    notion: str | None = None  # NULL: the parameter's name is its notion (migration 0007)


class ClauseRow(SQLModel, table=True):
    """A transitional clause (« dispositions transitoires ») of a revision, as data."""

    __tablename__ = "transitional_clause"

    revision_id: int = Field(foreign_key="version_revision.revision_id", primary_key=True)
    position: int = Field(primary_key=True)
    clause_id: str
    keeps: str
    order_test: str
    order_limit: date
    decisive_on_or_before: date
    deadline_basis: str
    deadline_reading: str = _long_text()
    paragraph: str
    wording: str = _long_text()
    source_hash: str | None = Field(default=None, foreign_key="source.source_hash")
    kept_version_id: str | None = None
    kept_version_label: str = ""
    new_vehicles_only: bool = False
    branches: list[str] = _json_list()
    rules_date: date | None = None  # in_force_on: the date D kept (migration 0007; NULL before it)
    yearly: bool | None = None  # a clause that repeats every year (migration 0007; NULL before it = false)
    # A deadline by vehicle category, {category: ISO date} (migration 0008; NULL before it = none)
    category_deadlines: dict[str, str] | None = Field(default=None, sa_column=Column(sa.JSON(), nullable=True))


class GapRow(SQLModel, table=True):
    """A declared period of a scheme with no version on file, with the same knowledge time as revisions."""

    __tablename__ = "declared_gap"
    __table_args__ = (
        sa.Index(
            "uq_declared_gap_current",
            "gap_hash",
            unique=True,
            sqlite_where=sa.text("superseded_at IS NULL"),
            postgresql_where=sa.text("superseded_at IS NULL"),
        ),
    )

    id: int | None = Field(default=None, primary_key=True)
    gap_hash: str = Field(index=True)
    scheme: str
    start: date
    end: date
    reason: str = _long_text()
    recorded_at: datetime = _instant(index=True)
    superseded_at: datetime | None = _instant(nullable=True, index=True)
    load_id: int = Field(foreign_key="catalogue_load.id")
    superseded_by_load_id: int | None = Field(default=None, foreign_key="catalogue_load.id")


class ReceiptRow(SQLModel, table=True):
    """A calculation kept for audit: the request and the response as sent, the catalogue as known then.

    ``revisions`` are the revisions the calculation used (``version_id``, ``revision_id``, ``version_hash``);
    ``load_id`` and ``tree_hash`` identify the whole catalogue as known at ``known_at``. Never updated nor
    deleted (the database refuses it): a replay recomputes, it records nothing.
    """

    __tablename__ = "receipt"

    receipt_id: str = Field(primary_key=True)
    created_at: datetime = _instant(index=True)
    known_at: datetime = _instant()
    load_id: int = Field(foreign_key="catalogue_load.id")
    tree_hash: str
    request: str = _long_text()
    request_hash: str
    response: str = _long_text()
    response_hash: str
    revisions: list[dict[str, Any]] = _json_list()
    software_version: str
    code_commit: str | None = None  # git commit of the code (api/versioning.py); null before migration 0004
    catalogue_commit: str | None = None  # last git commit of versions/


CATALOGUE_TABLES = (LoadRow, TextRow, SourceRow, VersionRow, ParameterRow, ClauseRow, GapRow)
AUDIT_TABLES = (*CATALOGUE_TABLES, ReceiptRow)
