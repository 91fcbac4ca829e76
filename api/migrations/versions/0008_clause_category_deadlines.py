"""A transitional clause's deadline by vehicle category (décret 2022-1761 art. 2: « a) Le 31 décembre 2023 si le
véhicule appartient aux catégories M2, M3, N2 ou N3 … b) Le 30 juin 2023 dans les autres cas »).

``transitional_clause.category_deadlines``: JSON ``{category: ISO date}``, nullable — clauses recorded before it
have none (NULL = none) and are rebuilt, and their hash verified, as recorded. ``ALTER TABLE … ADD COLUMN`` on
SQLite and PostgreSQL: tables not rebuilt, append-only triggers kept.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | Sequence[str] | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("transitional_clause", sa.Column("category_deadlines", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("transitional_clause", schema=None) as batch_op:
        batch_op.drop_column("category_deadlines")
