"""Regression cases in the database: one row per revision of a case, and one row per import that changed them.

A case is keyed by its id. Its content (title, source, request, expected, tolerance, notes) has a hash;
importing the same content again writes nothing. A changed case never updates its row: the import closes
the old row (``superseded_at``) and records a new one, so what the corpus said at any instant stays on
file. ``file`` and ``line`` say where the revision was read from (provenance, not content: a case that
only moved within its file is unchanged).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import Column, Field, SQLModel

from api.catalogue.tables import UTCDateTime


def _instant(nullable: bool = False, index: bool = False) -> Any:
    return Field(sa_column=Column(UTCDateTime(), nullable=nullable, index=index))


def _text() -> Any:
    return Field(sa_column=Column(sa.Text(), nullable=False))


def _json() -> Any:
    return Field(sa_column=Column(sa.JSON(), nullable=False))


class CaseImportRow(SQLModel, table=True):
    """One import of case files that changed the stored corpus (an import changing nothing writes nothing)."""

    __tablename__ = "case_import"

    id: int | None = Field(default=None, primary_key=True)
    imported_at: datetime = _instant(index=True)
    origin: str = _text()  # the files imported (CLI) or « POST /v1/cases/import (file=…) »
    cases_added: int = 0
    cases_superseded: int = 0
    cases_unchanged: int = 0
    cases_removed: int = 0


class CaseRow(SQLModel, table=True):
    """One revision of a regression case, current from ``imported_at`` to ``superseded_at`` (null: now)."""

    __tablename__ = "regression_case"
    __table_args__ = (
        # At most one current revision per case id.
        sa.Index(
            "uq_regression_case_current",
            "case_id",
            unique=True,
            sqlite_where=sa.text("superseded_at IS NULL"),
            postgresql_where=sa.text("superseded_at IS NULL"),
        ),
        sa.UniqueConstraint("case_id", "content_hash", "imported_at", name="uq_regression_case_recorded"),
    )

    revision_id: int | None = Field(default=None, primary_key=True)
    case_id: str = Field(index=True)
    title: str = _text()
    paragraph: str = _text()  # the source: the paragraph applied, or the published example
    url: str | None = Field(default=None, sa_column=Column(sa.Text(), nullable=True))
    request: dict[str, Any] = _json()  # the request contract of `vigueur calculate`
    expected: dict[str, Any] = (
        _json()
    )  # {scheme: {amount, eligible, version_id, status[, kept_by, missing_facts]}}
    tolerance: str = "0.00"  # euros
    notes: str = _text()
    file: str = _text()  # the case file it was read from
    line: int = 0
    content_hash: str = Field(index=True)
    import_id: int = Field(foreign_key="case_import.id", index=True)
    imported_at: datetime = _instant()
    superseded_at: datetime | None = _instant(nullable=True, index=True)
