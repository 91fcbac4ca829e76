"""A version's decisive event and the clauses that keep the version in force on a date, once or every year.

``version_revision.decisive_event`` (« date de facturation », « date d'acquisition ou de prise en location », …),
``transitional_clause.rules_date`` and ``transitional_clause.yearly`` (décret 2007-1873: « bénéficient des
dispositions relatives aux véhicules qui font l'objet d'une facturation au plus tard le … »). Nullable: revisions
recorded before them have none (NULL = the default) and are rebuilt, and their hash verified, as recorded.
``ALTER TABLE … ADD COLUMN`` on SQLite and PostgreSQL: tables not rebuilt, append-only triggers kept.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("version_revision", sa.Column("decisive_event", sa.String(), nullable=True))
    op.add_column("transitional_clause", sa.Column("rules_date", sa.Date(), nullable=True))
    op.add_column("transitional_clause", sa.Column("yearly", sa.Boolean(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("transitional_clause", schema=None) as batch_op:
        batch_op.drop_column("yearly")
        batch_op.drop_column("rules_date")
    with op.batch_alter_table("version_revision", schema=None) as batch_op:
        batch_op.drop_column("decisive_event")
