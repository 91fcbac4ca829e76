"""A parameter's unit (``version_parameter.unit``): what its number counts (issue 9, the number check).

Revisions recorded before it have no unit (NULL): they are rebuilt, and their hash verified, as recorded.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # A plain ADD COLUMN (no batch copy): the append-only triggers of the table stay as they are.
    op.add_column("version_parameter", sa.Column("unit", sa.String(), nullable=True))


def downgrade() -> None:
    op.drop_column("version_parameter", "unit")
