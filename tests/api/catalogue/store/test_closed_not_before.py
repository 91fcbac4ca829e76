"""A current revision is closed at an honest instant only: not before it was recorded, not before the
newest knowledge of its table (migration 0005), on SQLite and on PostgreSQL."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Engine

from api.catalogue.store import load_into
from api.catalogue.tables import GapRow, VersionRow
from tests.api.catalogue.store.test_history import REFUSED, T0, T1, T2, corrected
from tests.api.support import REFERENCE


def _close(engine: Engine, model: type, where: sa.ColumnElement[bool], instant: object, load_id: int) -> None:
    with engine.connect() as connection, connection.begin() as transaction:
        connection.execute(sa.update(model).where(where).values(superseded_at=instant, superseded_by_load_id=load_id))
        transaction.rollback()


def test_a_current_revision_cannot_be_closed_in_the_past(engine: Engine, fixture_tree: Path, tmp_path: Path) -> None:
    load_into(engine, fixture_tree, now=T0)
    second = load_into(engine, corrected(fixture_tree, tmp_path / "v", "6 300"), now=T1)  # newest knowledge: T1
    assert second.load_id is not None
    current = sa.and_(VersionRow.version_id == REFERENCE, VersionRow.superseded_at.is_(None))  # type: ignore[union-attr]
    for instant in (T0 - timedelta(days=1), T0 + timedelta(days=1), T1 - timedelta(microseconds=1)):
        with pytest.raises(sa.exc.IntegrityError, match=REFUSED):
            _close(engine, VersionRow, current, instant, second.load_id)
    _close(engine, VersionRow, current, T2, second.load_id)  # later than every recorded_at: accepted
    _close(engine, VersionRow, current, T1, second.load_id)  # the instant of the newest load: accepted


def test_a_current_gap_cannot_be_closed_in_the_past(engine: Engine, fixture_tree: Path) -> None:
    first = load_into(engine, fixture_tree, now=T0)
    assert first.load_id is not None
    current = GapRow.superseded_at.is_(None)  # type: ignore[union-attr]
    with pytest.raises(sa.exc.IntegrityError, match=REFUSED):
        _close(engine, GapRow, current, T0 - timedelta(seconds=1), first.load_id)
    _close(engine, GapRow, current, T1, first.load_id)
