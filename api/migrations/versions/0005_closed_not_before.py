"""A revision (or gap) is closed at an honest instant: not before it was recorded, not before the newest
knowledge of its table.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01

0001 lets the one allowed UPDATE of ``version_revision`` and ``declared_gap`` — closing the knowledge
period of a current row — set any ``superseded_at``: a current revision could be closed at any past
instant, rewriting what the catalogue « knew » back then. A load closes rows at its own ``recorded_at``,
which is later than every row recorded before it (knowledge time only moves forward, see
``api.catalogue.store._next_instant``). The database now refuses a ``superseded_at`` earlier than the row's own
``recorded_at`` or earlier than the newest ``recorded_at`` of the table — on SQLite and on PostgreSQL, by
a trigger of its own beside the ones of 0001 (which are left as they are).
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLES = ("version_revision", "declared_gap")
REFUSED = "history is never overwritten: the catalogue and the receipts are append-only"
WHY = "a row is closed no earlier than it was recorded, nor than the newest knowledge of its table"


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        _postgresql()
    else:
        _sqlite()


def _postgresql() -> None:
    op.execute(
        f"""CREATE FUNCTION vigueur_closed_not_before() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE newest timestamptz;
BEGIN
  IF OLD.superseded_at IS NULL AND NEW.superseded_at IS NOT NULL THEN
    EXECUTE format('SELECT max(recorded_at) FROM %I.%I', TG_TABLE_SCHEMA, TG_TABLE_NAME) INTO newest;
    IF NEW.superseded_at < OLD.recorded_at OR NEW.superseded_at < newest THEN
      RAISE EXCEPTION 'vigueur: UPDATE on % refused: {WHY} (superseded_at %, recorded_at %, newest %); {REFUSED}',
        TG_TABLE_NAME, NEW.superseded_at, OLD.recorded_at, newest USING ERRCODE = '23000';
    END IF;
  END IF;
  RETURN NEW;
END $$"""
    )
    for table in TABLES:
        op.execute(
            f"CREATE TRIGGER {table}_closed_not_before BEFORE UPDATE ON {table} "
            "FOR EACH ROW EXECUTE FUNCTION vigueur_closed_not_before()"
        )


def _sqlite() -> None:
    for table in TABLES:
        op.execute(
            f"CREATE TRIGGER {table}_closed_not_before BEFORE UPDATE ON {table} "
            "WHEN OLD.superseded_at IS NULL AND NEW.superseded_at IS NOT NULL AND ("
            "NEW.superseded_at < OLD.recorded_at "
            f"OR NEW.superseded_at < (SELECT max(recorded_at) FROM {table})) "
            f"BEGIN SELECT RAISE(ABORT, 'vigueur: UPDATE on {table} refused: {WHY}; {REFUSED}'); END"
        )


def downgrade() -> None:
    for table in TABLES:
        op.execute(
            f"DROP TRIGGER IF EXISTS {table}_closed_not_before"
            + (f" ON {table}" if op.get_bind().dialect.name == "postgresql" else "")
        )
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS vigueur_closed_not_before()")
