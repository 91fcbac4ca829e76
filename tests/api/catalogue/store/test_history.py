"""History cannot be overwritten, loads cannot interleave, an interrupted load leaves the previous state.

On both backends: the database refuses every UPDATE and DELETE of the append-only tables and every change
of a revision or gap but the closing of its knowledge period (once); two loads at once give the result of
one after the other; a load that fails or whose process is killed half-way leaves the database as it was.
On PostgreSQL the database itself refuses two revisions of one article overlapping in valid time within
the same knowledge time (exclusion constraint); on SQLite, which cannot, the loader refuses them and a row
slipped in by hand makes the read fail.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from api.catalogue import store
from api.catalogue.db import make_engine
from api.catalogue.loader import load_catalogue
from api.catalogue.store import LoadReport, load_into, read_catalogue
from api.catalogue.tables import AUDIT_TABLES, VersionRow
from legislation.errors import CatalogueError
from tests.api.support import (
    BACKENDS,
    REFERENCE,
    SUCCESSOR,
    copy_tree,
    postgres_engine,
    snapshot,
)

T0 = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
T1 = T0 + timedelta(days=30)
T2 = T0 + timedelta(days=60)
REFUSED = "history is never overwritten"
CLOSING = {"superseded_at", "superseded_by_load_id"}


def corrected(tree: Path, destination: Path, amount: str) -> Path:
    """A copy of ``tree`` whose successor's natural-person cap reads « {amount} euros » (was 6 000)."""
    copy = copy_tree(tree, destination)
    text = copy / SUCCESSOR / "text.txt"
    text.write_bytes(text.read_bytes().replace(b"6 000 euros", f"{amount} euros".encode()))
    meta = copy / SUCCESSOR / "version.toml"
    value = amount.replace(" ", "")
    meta.write_text(
        meta.read_text(encoding="utf-8")
        .replace("6 000 euros", f"{amount} euros")
        .replace('value = "6000"', f'value = "{value}"'),
        encoding="utf-8",
    )
    return copy


@pytest.fixture(params=BACKENDS)
def file_engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    """An engine whose sessions have connections of their own: a SQLite file, or PostgreSQL."""
    if request.param == "postgresql":
        with postgres_engine() as engine:
            yield engine
        return
    engine = make_engine(f"sqlite:///{tmp_path / 'history.db'}")
    try:
        yield engine
    finally:
        engine.dispose()


# -- the database refuses to overwrite history ------------------------------------------------------


def _one_receipt(engine: Engine) -> None:
    from api.audit import receipts

    with Session(engine) as session:
        known = store.read_known(session)
        receipts.record(session, known, b'{"acquisition": "purchase"}', '{"results": []}\n', now=T1)


def _changed(value: Any, column: sa.Column[Any]) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1000
    if isinstance(value, str):
        return value + " (altered)"
    if isinstance(value, datetime):
        return value + timedelta(seconds=1)
    if isinstance(value, date):
        return value + timedelta(days=1)
    if isinstance(value, list):
        return [*value, "altered"]
    if value is None:
        return (
            {
                sa.Integer: 7,
                sa.Date: date(2030, 1, 1),
                sa.Boolean: True,  # a nullable flag recorded before its migration (transitional_clause.yearly)
            }.get(type(column.type), "altered")
            if not isinstance(column.type, sa.DateTime)
            else T2
        )
    raise AssertionError(f"no altered value for {column.name}: {value!r}")


def _refused(engine: Engine, statement: Any) -> None:
    with pytest.raises(sa.exc.IntegrityError, match=REFUSED), engine.begin() as connection:
        connection.execute(statement)


def test_every_update_and_delete_of_history_is_refused_by_the_database(
    engine: Engine, fixture_tree: Path, tmp_path: Path
) -> None:
    load_into(engine, fixture_tree, now=T0)
    load_into(engine, corrected(fixture_tree, tmp_path / "v", "6 300"), now=T1)  # one row superseded
    _one_receipt(engine)
    before = snapshot(engine)
    tried = 0
    for model in AUDIT_TABLES:
        table: sa.Table = model.__table__  # type: ignore[attr-defined]
        with engine.connect() as connection:
            rows = connection.execute(sa.select(table)).mappings().all()
        assert rows, f"{table.name} has no row to try"
        for row in rows[:2]:  # a current and (revisions, gaps) a superseded one
            where = sa.and_(*(c == row[c.name] for c in table.primary_key.columns))
            _refused(engine, sa.delete(table).where(where))
            for column in table.columns:
                if column.name in CLOSING and row["superseded_at"] is None:
                    continue  # the closing of a current row is the one change allowed (below)
                _refused(
                    engine,
                    sa.update(table).where(where).values({column.name: _changed(row[column.name], column)}),
                )
                tried += 1
    assert tried > 100
    assert snapshot(engine) == before


def test_a_row_is_superseded_once_and_only_that(engine: Engine, fixture_tree: Path, tmp_path: Path) -> None:
    load_into(engine, fixture_tree, now=T0)
    second = load_into(engine, corrected(fixture_tree, tmp_path / "v", "6 300"), now=T1)
    with engine.connect() as connection:
        old = (
            connection.execute(
                sa.select(VersionRow.__table__).where(  # type: ignore[attr-defined]
                    VersionRow.version_id == SUCCESSOR,
                    VersionRow.superseded_at.is_not(None),  # type: ignore[union-attr]
                )
            )
            .mappings()
            .one()
        )
    # Closing it again (a second supersession, or moving its end) is refused.
    _refused(
        engine,
        sa.update(VersionRow).where(VersionRow.revision_id == old["revision_id"]).values(superseded_at=T2),
    )
    # Reopening it is refused.
    _refused(
        engine,
        sa.update(VersionRow)
        .where(VersionRow.revision_id == old["revision_id"])
        .values(superseded_at=None, superseded_by_load_id=None),
    )
    # Closing a current row with its other columns untouched is what a load does: accepted (rolled back).
    with engine.connect() as connection, connection.begin() as transaction:
        connection.execute(
            sa.update(VersionRow)
            .where(VersionRow.version_id == REFERENCE)
            .values(superseded_at=T2, superseded_by_load_id=second.load_id)
        )
        transaction.rollback()


@pytest.mark.postgres
def test_postgresql_refuses_truncate() -> None:
    with postgres_engine() as engine:
        for model in AUDIT_TABLES:
            _refused(engine, sa.text(f"TRUNCATE {model.__tablename__} CASCADE"))  # type: ignore[attr-defined]


# -- two revisions of one article in force on one day, in the same knowledge time -------------------


def _overlapping_row(engine: Engine, **changes: Any) -> dict[str, Any]:
    """A copy of the reference revision under another id, starting inside its valid period."""
    with engine.connect() as connection:
        row = dict(
            connection.execute(
                sa.select(VersionRow.__table__).where(VersionRow.version_id == REFERENCE)  # type: ignore[attr-defined]
            )
            .mappings()
            .one()
        )
    row.pop("revision_id")
    return (
        row
        | {
            "version_id": "D251-7.2020-07-01",
            "valid_from": date(2020, 7, 1),
            "content_hash": "sha256:inserted-by-hand",
        }
        | changes
    )


@pytest.mark.postgres
def test_postgresql_refuses_overlapping_revisions_of_an_article(fixture_tree: Path) -> None:
    with postgres_engine() as engine:
        load_into(engine, fixture_tree, now=T0)
        table = VersionRow.__table__  # type: ignore[attr-defined]
        inside = _overlapping_row(engine)
        around = _overlapping_row(engine, valid_from=date(2020, 1, 1), valid_until=date(2020, 6, 2))
        for row in (inside, around):  # starting inside, or ending inside: refused
            with (
                pytest.raises(sa.exc.IntegrityError, match="ex_version_revision_overlap"),
                engine.begin() as c,
            ):
                c.execute(sa.insert(table), [row])
        # Adjacent periods ([2020-06-01, 2021-01-21) then [2021-01-21, …)): accepted, rolled back.
        with engine.connect() as connection, connection.begin() as transaction:
            connection.execute(
                sa.insert(VersionRow.__table__),  # type: ignore[attr-defined]
                [_overlapping_row(engine, article="D251-7", valid_from=date(2021, 7, 1), valid_until=None)],
            )
            transaction.rollback()
        # The same periods in knowledge times that do not meet (before the first load): accepted.
        with engine.connect() as connection, connection.begin() as transaction:
            connection.execute(
                sa.insert(VersionRow.__table__),  # type: ignore[attr-defined]
                [_overlapping_row(engine, recorded_at=T0 - timedelta(days=2), superseded_at=T0)],
            )
            transaction.rollback()


def test_the_loader_refuses_overlapping_versions_on_every_backend(
    engine: Engine, fixture_tree: Path, tmp_path: Path
) -> None:
    load_into(engine, fixture_tree, now=T0)
    before = snapshot(engine)
    tree = copy_tree(fixture_tree, tmp_path / "overlap")
    meta = tree / SUCCESSOR / "version.toml"
    meta.write_text(
        meta.read_text(encoding="utf-8").replace("valid_from = 2021-01-21", "valid_from = 2020-12-01"),
        encoding="utf-8",
    )
    with pytest.raises(CatalogueError, match="overlaps"):
        load_into(engine, tree, now=T1)
    assert snapshot(engine) == before


def test_on_sqlite_a_row_slipped_in_by_hand_makes_the_read_fail(fixture_tree: Path) -> None:
    """SQLite cannot refuse it (no exclusion constraints): the rebuild does, as the loader would."""
    engine = make_engine("sqlite://")
    from api.catalogue.db import create_tables

    create_tables(engine)
    load_into(engine, fixture_tree, now=T0)
    with engine.begin() as connection:
        connection.execute(sa.insert(VersionRow.__table__), [_overlapping_row(engine)])  # type: ignore[attr-defined]
    store.CACHE.clear()
    with Session(engine) as session, pytest.raises((CatalogueError, store.StoreIntegrityError)):
        read_catalogue(session)
    engine.dispose()


# -- concurrent loads -------------------------------------------------------------------------------


def test_two_loads_at_once_give_the_result_of_one_after_the_other(
    file_engine: Engine, fixture_tree: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    load_into(file_engine, fixture_tree, now=T0)
    first_tree = corrected(fixture_tree, tmp_path / "a", "6 300")
    second_tree = corrected(fixture_tree, tmp_path / "b", "6 500")
    inside = threading.Event()  # the first load holds the lock
    release = threading.Event()
    second_waits = threading.Event()  # the second load asks for the lock
    second_inside = threading.Event()
    real_changes, real_lock = store._changes, store.write_lock

    def changes(*args: Any) -> Any:
        if threading.current_thread().name == "first":
            inside.set()
            assert release.wait(30)
        else:
            second_inside.set()
        return real_changes(*args)

    def lock(connection: Any, *args: Any) -> None:
        if threading.current_thread().name == "second":
            second_waits.set()
        real_lock(connection, *args)

    monkeypatch.setattr(store, "_changes", changes)
    monkeypatch.setattr(store, "write_lock", lock)
    reports: dict[str, LoadReport] = {}
    errors: list[BaseException] = []

    def run(name: str, tree: Path, now: datetime) -> None:
        try:
            reports[name] = load_into(file_engine, tree, now=now)
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            errors.append(exc)

    first = threading.Thread(target=run, args=("first", first_tree, T1), name="first")
    second = threading.Thread(target=run, args=("second", second_tree, T1), name="second")
    first.start()
    assert inside.wait(30)
    second.start()
    assert second_waits.wait(30)
    _until_waiting(file_engine)
    assert not second_inside.is_set(), "the second load read the catalogue while the first one held the lock"
    release.set()
    first.join(60)
    second.join(60)
    assert not errors, errors
    a, b = reports["first"], reports["second"]
    assert a.changed and b.changed and b.load_id == (a.load_id or 0) + 1
    assert b.recorded_at is not None and a.recorded_at is not None and b.recorded_at > a.recorded_at
    (change,) = [v for v in b.versions if v.change != "unchanged"]
    new_hash = load_catalogue(first_tree).get(SUCCESSOR).content_hash
    assert (change.version_id, change.change, change.old_hash) == (SUCCESSOR, "superseded", new_hash)
    with Session(file_engine) as session:
        rows = session.exec(
            select(VersionRow).where(VersionRow.version_id == SUCCESSOR).order_by(col(VersionRow.revision_id))
        ).all()
        assert ["6 000 euros" in r.text for r in rows] == [True, False, False]
        assert [r.superseded_by_load_id for r in rows] == [a.load_id, b.load_id, None]
        assert "6 500 euros" in read_catalogue(session).get(SUCCESSOR).text


def _until_waiting(engine: Engine) -> None:
    """PostgreSQL: until the second load is seen waiting for the advisory lock. SQLite: a moment (its
    lock wait cannot be observed), after which the second load must still not have read anything."""
    if engine.dialect.name != "postgresql":
        time.sleep(0.5)
        return
    for _ in range(300):
        with engine.connect() as connection:
            waiting = connection.execute(
                sa.text("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")
            ).scalar_one()
        if waiting:
            return
        time.sleep(0.05)
    raise AssertionError("the second load never waited for the lock")


# -- interrupted loads ------------------------------------------------------------------------------

KILLED_LOAD = """
import os, signal, sys
from pathlib import Path
from api.catalogue import store
from api.catalogue.db import make_engine

url, search_path, tree = sys.argv[1:4]
options = {"connect_args": {"options": f"-csearch_path={search_path}"}} if search_path else {}
real = store._record_version

def dying(session, *args, **kwargs):
    real(session, *args, **kwargs)
    session.flush()  # rows written in the open transaction
    print("half-way", flush=True)
    os.kill(os.getpid(), signal.SIGKILL)

store._record_version = dying
store.load_into(make_engine(url, **options), Path(tree))
print("finished", flush=True)
"""


def test_a_load_killed_half_way_leaves_the_previous_state(
    file_engine: Engine, fixture_tree: Path, tmp_path: Path
) -> None:
    load_into(file_engine, fixture_tree, now=T0)
    before = snapshot(file_engine)
    tree = corrected(fixture_tree, tmp_path / "v", "6 300")
    search_path = ""
    if file_engine.dialect.name == "postgresql":
        with file_engine.connect() as connection:
            search_path = connection.execute(sa.text("SELECT current_schema()")).scalar_one()
    url = file_engine.url.render_as_string(hide_password=False)
    done = subprocess.run(
        [sys.executable, "-c", KILLED_LOAD, url, search_path, str(tree)],
        capture_output=True,
        text=True,
        timeout=120,
        env=os.environ | {"PYTHONPATH": str(Path(__file__).resolve().parents[4])},
    )
    assert done.returncode == -9, done.stderr
    assert done.stdout.split() == ["half-way"]
    file_engine.dispose()  # the next connection finds (SQLite: rolls back) what the killed one left
    assert snapshot(file_engine) == before
    # The lock died with the process: the next load goes through and records the correction.
    report = load_into(file_engine, tree, now=T1)
    assert [v.change for v in report.versions if v.change != "unchanged"] == ["superseded"]


def test_a_load_failing_half_way_in_a_correction_leaves_the_previous_state(
    file_engine: Engine, fixture_tree: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    load_into(file_engine, fixture_tree, now=T0)
    before = snapshot(file_engine)
    version = load_catalogue(corrected(fixture_tree, tmp_path / "v", "6 300")).get(SUCCESSOR)

    def failing(*_: Any, **__: Any) -> None:
        raise RuntimeError("the connection dropped")

    monkeypatch.setattr(store, "_gap_row", failing)
    monkeypatch.setattr(store, "_record_source", failing)
    with Session(file_engine) as session, pytest.raises(RuntimeError):
        store.record_correction(session, version, origin="test", now=T1)
    assert snapshot(file_engine) == before
