"""Receipts record the git commit of the code and of the catalogue (``versions/``) besides the package version.

Two nullable columns (receipts kept before them have none: null, never made up). ``ALTER TABLE … ADD COLUMN``
on both SQLite and PostgreSQL: the table is not rebuilt, its append-only triggers stay.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("receipt", sa.Column("code_commit", sa.String(), nullable=True))
    op.add_column("receipt", sa.Column("catalogue_commit", sa.String(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("receipt", schema=None) as batch_op:
        batch_op.drop_column("catalogue_commit")
        batch_op.drop_column("code_commit")
