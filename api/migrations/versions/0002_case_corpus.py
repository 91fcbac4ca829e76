"""The regression-case corpus (``api/cases/tables.py``): case imports and case revisions.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "case_import",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("imported_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("origin", sa.Text(), nullable=False),
        sa.Column("cases_added", sa.Integer(), nullable=False),
        sa.Column("cases_superseded", sa.Integer(), nullable=False),
        sa.Column("cases_unchanged", sa.Integer(), nullable=False),
        sa.Column("cases_removed", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("case_import", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_case_import_imported_at"), ["imported_at"], unique=False)

    op.create_table(
        "regression_case",
        sa.Column("revision_id", sa.Integer(), nullable=False),
        sa.Column("case_id", sa.String(), nullable=False),
        sa.Column("title", sa.Text(), nullable=False),
        sa.Column("paragraph", sa.Text(), nullable=False),
        sa.Column("url", sa.Text(), nullable=True),
        sa.Column("request", sa.JSON(), nullable=False),
        sa.Column("expected", sa.JSON(), nullable=False),
        sa.Column("tolerance", sa.String(), nullable=False),
        sa.Column("notes", sa.Text(), nullable=False),
        sa.Column("file", sa.Text(), nullable=False),
        sa.Column("line", sa.Integer(), nullable=False),
        sa.Column("content_hash", sa.String(), nullable=False),
        sa.Column("import_id", sa.Integer(), nullable=False),
        sa.Column("imported_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("superseded_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["import_id"],
            ["case_import.id"],
        ),
        sa.PrimaryKeyConstraint("revision_id"),
        sa.UniqueConstraint("case_id", "content_hash", "imported_at", name="uq_regression_case_recorded"),
    )
    with op.batch_alter_table("regression_case", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_regression_case_case_id"), ["case_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_regression_case_content_hash"), ["content_hash"], unique=False)
        batch_op.create_index(batch_op.f("ix_regression_case_import_id"), ["import_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_regression_case_superseded_at"), ["superseded_at"], unique=False)
        batch_op.create_index(
            "uq_regression_case_current",
            ["case_id"],
            unique=True,
            sqlite_where=sa.text("superseded_at IS NULL"),
            postgresql_where=sa.text("superseded_at IS NULL"),
        )


def downgrade() -> None:
    op.drop_table("regression_case")
    op.drop_table("case_import")
