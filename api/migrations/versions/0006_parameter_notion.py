"""A parameter may name its notion (``notion`` in version.toml): the same law's number across versions whose
parameters are named differently (« ev_cap » in 2017, « ev_cap_natural » in 2020).

One nullable column (parameters recorded before it have none: their name is their notion). ``ALTER TABLE … ADD
COLUMN`` on both SQLite and PostgreSQL.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("version_parameter", sa.Column("notion", sa.String(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("version_parameter", schema=None) as batch_op:
        batch_op.drop_column("notion")
