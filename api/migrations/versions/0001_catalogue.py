"""The catalogue (loads, texts, sources, version revisions, parameters, clauses, gaps) and the receipts.

Revision ID: 0001
Revises: (none: from an empty database)
Create Date: 2026-11-29

Besides the tables, the rules that make history impossible to overwrite, enforced by the database itself:

* append-only tables: ``catalogue_load``, ``legal_text``, ``source``, ``version_parameter``,
  ``transitional_clause`` and ``receipt`` refuse every UPDATE and DELETE (and, on PostgreSQL, TRUNCATE);
* ``version_revision`` and ``declared_gap`` accept one UPDATE per row only: closing its knowledge period
  (``superseded_at`` and ``superseded_by_load_id`` from null to a value, every other column unchanged);
* PostgreSQL: an exclusion constraint (btree_gist) refuses two revisions of the same article whose valid
  periods ``[valid_from, valid_until)`` overlap while their knowledge periods ``[recorded_at, superseded_at)``
  overlap — two wordings of one article can never be in force on the same day in the same knowledge time.

The SQLite triggers name the columns of this revision: a migration that adds a column to
``version_revision`` or ``declared_gap`` recreates them (the test of the rules updates every column).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

APPEND_ONLY = (
    "catalogue_load",
    "legal_text",
    "source",
    "version_parameter",
    "transitional_clause",
    "receipt",
)
CLOSING_COLUMNS = ("superseded_at", "superseded_by_load_id")
SUPERSEDE_ONLY = {
    "version_revision": (
        "revision_id",
        "version_id",
        "article",
        "scheme",
        "role",
        "citation",
        "title",
        "valid_from",
        "valid_until",
        "text",
        "source_hash",
        "provenance",
        "period_confidence",
        "calculator",
        "relies_on",
        "claim_deadline_months",
        "claim_deadline_paragraph",
        "notes",
        "content_hash",
        "recorded_at",
        "load_id",
    ),
    "declared_gap": ("id", "gap_hash", "scheme", "start", "end", "reason", "recorded_at", "load_id"),
}
REFUSED = "history is never overwritten: the catalogue and the receipts are append-only"


def upgrade() -> None:
    op.create_table(
        "catalogue_load",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("origin", sa.String(), nullable=False),
        sa.Column("tree_hash", sa.String(), nullable=False),
        sa.Column("versions_added", sa.Integer(), nullable=False),
        sa.Column("versions_superseded", sa.Integer(), nullable=False),
        sa.Column("versions_removed", sa.Integer(), nullable=False),
        sa.Column("versions_unchanged", sa.Integer(), nullable=False),
        sa.Column("gaps_added", sa.Integer(), nullable=False),
        sa.Column("gaps_removed", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("catalogue_load", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_catalogue_load_recorded_at"), ["recorded_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_catalogue_load_tree_hash"), ["tree_hash"], unique=False)

    op.create_table(
        "source",
        sa.Column("source_hash", sa.String(), nullable=False),
        sa.Column("decree", sa.Text(), nullable=False),
        sa.Column("decree_date", sa.Date(), nullable=True),
        sa.Column("jorf", sa.String(), nullable=True),
        sa.Column("jorf_date", sa.Date(), nullable=True),
        sa.Column("nor", sa.String(), nullable=True),
        sa.Column("eli", sa.String(), nullable=True),
        sa.Column("url", sa.String(), nullable=True),
        sa.Column("legiarti", sa.String(), nullable=True),
        sa.Column("jorftext", sa.String(), nullable=True),
        sa.Column("confidence", sa.String(), nullable=False),
        sa.Column("notes", sa.Text(), nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("source_hash"),
    )
    op.create_table(
        "declared_gap",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("gap_hash", sa.String(), nullable=False),
        sa.Column("scheme", sa.String(), nullable=False),
        sa.Column("start", sa.Date(), nullable=False),
        sa.Column("end", sa.Date(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("superseded_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("load_id", sa.Integer(), nullable=False),
        sa.Column("superseded_by_load_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["load_id"],
            ["catalogue_load.id"],
        ),
        sa.ForeignKeyConstraint(
            ["superseded_by_load_id"],
            ["catalogue_load.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("declared_gap", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_declared_gap_gap_hash"), ["gap_hash"], unique=False)
        batch_op.create_index(batch_op.f("ix_declared_gap_recorded_at"), ["recorded_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_declared_gap_superseded_at"), ["superseded_at"], unique=False)
        batch_op.create_index(
            "uq_declared_gap_current",
            ["gap_hash"],
            unique=True,
            sqlite_where=sa.text("superseded_at IS NULL"),
            postgresql_where=sa.text("superseded_at IS NULL"),
        )

    op.create_table(
        "legal_text",
        sa.Column("article", sa.String(), nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("load_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["load_id"],
            ["catalogue_load.id"],
        ),
        sa.PrimaryKeyConstraint("article"),
    )
    op.create_table(
        "receipt",
        sa.Column("receipt_id", sa.String(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("known_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("load_id", sa.Integer(), nullable=False),
        sa.Column("tree_hash", sa.String(), nullable=False),
        sa.Column("request", sa.Text(), nullable=False),
        sa.Column("request_hash", sa.String(), nullable=False),
        sa.Column("response", sa.Text(), nullable=False),
        sa.Column("response_hash", sa.String(), nullable=False),
        sa.Column("revisions", sa.JSON(), nullable=False),
        sa.Column("software_version", sa.String(), nullable=False),
        sa.ForeignKeyConstraint(
            ["load_id"],
            ["catalogue_load.id"],
        ),
        sa.PrimaryKeyConstraint("receipt_id"),
    )
    with op.batch_alter_table("receipt", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_receipt_created_at"), ["created_at"], unique=False)

    op.create_table(
        "version_revision",
        sa.Column("revision_id", sa.Integer(), nullable=False),
        sa.Column("version_id", sa.String(), nullable=False),
        sa.Column("article", sa.String(), nullable=False),
        sa.Column("scheme", sa.String(), nullable=True),
        sa.Column("role", sa.String(), nullable=False),
        sa.Column("citation", sa.String(), nullable=False),
        sa.Column("title", sa.Text(), nullable=False),
        sa.Column("valid_from", sa.Date(), nullable=False),
        sa.Column("valid_until", sa.Date(), nullable=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("source_hash", sa.String(), nullable=False),
        sa.Column("provenance", sa.String(), nullable=False),
        sa.Column("period_confidence", sa.String(), nullable=False),
        sa.Column("calculator", sa.String(), nullable=True),
        sa.Column("relies_on", sa.JSON(), nullable=False),
        sa.Column("claim_deadline_months", sa.Integer(), nullable=True),
        sa.Column("claim_deadline_paragraph", sa.String(), nullable=False),
        sa.Column("notes", sa.Text(), nullable=False),
        sa.Column("content_hash", sa.String(), nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("superseded_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("load_id", sa.Integer(), nullable=False),
        sa.Column("superseded_by_load_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["article"],
            ["legal_text.article"],
        ),
        sa.ForeignKeyConstraint(
            ["load_id"],
            ["catalogue_load.id"],
        ),
        sa.ForeignKeyConstraint(
            ["source_hash"],
            ["source.source_hash"],
        ),
        sa.ForeignKeyConstraint(
            ["superseded_by_load_id"],
            ["catalogue_load.id"],
        ),
        sa.PrimaryKeyConstraint("revision_id"),
        sa.UniqueConstraint("version_id", "content_hash", "recorded_at", name="uq_version_revision_recorded"),
    )
    with op.batch_alter_table("version_revision", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_version_revision_article"), ["article"], unique=False)
        batch_op.create_index(batch_op.f("ix_version_revision_content_hash"), ["content_hash"], unique=False)
        batch_op.create_index(batch_op.f("ix_version_revision_recorded_at"), ["recorded_at"], unique=False)
        batch_op.create_index(
            batch_op.f("ix_version_revision_superseded_at"), ["superseded_at"], unique=False
        )
        batch_op.create_index(batch_op.f("ix_version_revision_version_id"), ["version_id"], unique=False)
        batch_op.create_index(
            "uq_version_revision_current",
            ["version_id"],
            unique=True,
            sqlite_where=sa.text("superseded_at IS NULL"),
            postgresql_where=sa.text("superseded_at IS NULL"),
        )

    op.create_table(
        "transitional_clause",
        sa.Column("revision_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("clause_id", sa.String(), nullable=False),
        sa.Column("keeps", sa.String(), nullable=False),
        sa.Column("order_test", sa.String(), nullable=False),
        sa.Column("order_limit", sa.Date(), nullable=False),
        sa.Column("decisive_on_or_before", sa.Date(), nullable=False),
        sa.Column("deadline_basis", sa.String(), nullable=False),
        sa.Column("deadline_reading", sa.Text(), nullable=False),
        sa.Column("paragraph", sa.String(), nullable=False),
        sa.Column("wording", sa.Text(), nullable=False),
        sa.Column("source_hash", sa.String(), nullable=True),
        sa.Column("kept_version_id", sa.String(), nullable=True),
        sa.Column("kept_version_label", sa.String(), nullable=False),
        sa.Column("new_vehicles_only", sa.Boolean(), nullable=False),
        sa.Column("branches", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["revision_id"],
            ["version_revision.revision_id"],
        ),
        sa.ForeignKeyConstraint(
            ["source_hash"],
            ["source.source_hash"],
        ),
        sa.PrimaryKeyConstraint("revision_id", "position"),
    )
    op.create_table(
        "version_parameter",
        sa.Column("revision_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("value", sa.String(), nullable=False),
        sa.Column("paragraph", sa.String(), nullable=False),
        sa.Column("quote", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["revision_id"],
            ["version_revision.revision_id"],
        ),
        sa.PrimaryKeyConstraint("revision_id", "name"),
    )

    _rules()


def _rules() -> None:
    if op.get_bind().dialect.name == "postgresql":
        _postgresql_rules()
    else:
        _sqlite_rules()


def _postgresql_rules() -> None:
    op.execute("CREATE EXTENSION IF NOT EXISTS btree_gist")
    op.execute(
        "ALTER TABLE version_revision ADD CONSTRAINT ex_version_revision_overlap EXCLUDE USING gist ("
        "article WITH =, "
        "daterange(valid_from, valid_until, '[)') WITH &&, "
        "tstzrange(recorded_at, superseded_at, '[)') WITH &&)"
    )
    op.execute(
        f"""CREATE FUNCTION vigueur_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'vigueur: % on % refused: {REFUSED}', TG_OP, TG_TABLE_NAME USING ERRCODE = '23000';
END $$"""
    )
    closing = " - ".join(f"'{c}'" for c in CLOSING_COLUMNS)
    op.execute(
        f"""CREATE FUNCTION vigueur_supersede_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.superseded_at IS NULL AND NEW.superseded_at IS NOT NULL
     AND NEW.superseded_by_load_id IS NOT NULL
     AND (to_jsonb(NEW) - {closing}) = (to_jsonb(OLD) - {closing}) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'vigueur: % on % refused: a row is only ever superseded (once); {REFUSED}',
    TG_OP, TG_TABLE_NAME USING ERRCODE = '23000';
END $$"""
    )
    for table in APPEND_ONLY:
        op.execute(
            f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
            "FOR EACH ROW EXECUTE FUNCTION vigueur_refuse_change()"
        )
    for table in SUPERSEDE_ONLY:
        op.execute(
            f"CREATE TRIGGER {table}_supersede_only BEFORE UPDATE OR DELETE ON {table} "
            "FOR EACH ROW EXECUTE FUNCTION vigueur_supersede_only()"
        )
    for table in (*APPEND_ONLY, *SUPERSEDE_ONLY):
        op.execute(
            f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
            "FOR EACH STATEMENT EXECUTE FUNCTION vigueur_refuse_change()"
        )


def _sqlite_rules() -> None:
    for table in (*APPEND_ONLY, *SUPERSEDE_ONLY):
        op.execute(
            f"CREATE TRIGGER {table}_no_delete BEFORE DELETE ON {table} "
            f"BEGIN SELECT RAISE(ABORT, 'vigueur: DELETE on {table} refused: {REFUSED}'); END"
        )
    for table in APPEND_ONLY:
        op.execute(
            f"CREATE TRIGGER {table}_no_update BEFORE UPDATE ON {table} "
            f"BEGIN SELECT RAISE(ABORT, 'vigueur: UPDATE on {table} refused: {REFUSED}'); END"
        )
    for table, columns in SUPERSEDE_ONLY.items():
        same = " AND ".join(f'NEW."{c}" IS OLD."{c}"' for c in columns)
        op.execute(
            f"CREATE TRIGGER {table}_supersede_only BEFORE UPDATE ON {table} "
            f"WHEN NOT (OLD.superseded_at IS NULL AND NEW.superseded_at IS NOT NULL "
            f"AND NEW.superseded_by_load_id IS NOT NULL AND {same}) "
            f"BEGIN SELECT RAISE(ABORT, 'vigueur: UPDATE on {table} refused: a row is only ever superseded "
            f"(once); {REFUSED}'); END"
        )


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION vigueur_refuse_change() CASCADE")
        op.execute("DROP FUNCTION vigueur_supersede_only() CASCADE")
    for table in (
        "version_parameter",
        "transitional_clause",
        "receipt",
        "version_revision",
        "legal_text",
        "declared_gap",
        "source",
        "catalogue_load",
    ):
        op.drop_table(table)
