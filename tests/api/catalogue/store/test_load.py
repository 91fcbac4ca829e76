"""Loading versions/ into the database: exact, atomic, idempotent; corrections supersede, never overwrite.

Every test runs on SQLite in memory and, when TEST_DATABASE_URL is set, on PostgreSQL.
"""

from __future__ import annotations

import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from api.catalogue import store
from api.catalogue.loader import load_catalogue
from api.catalogue.store import CatalogueNotLoaded, StoreIntegrityError, ensure_loaded, load_into, read_catalogue
from api.catalogue.tables import GapRow, LoadRow, VersionRow
from legislation import Scheme
from legislation.errors import CatalogueError
from tests.api.support import CONDITIONS, REFERENCE, SUCCESSOR, copy_tree, snapshot

T0 = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
REFERENCE_SCHEME = Scheme.BONUS


def read(engine: Engine):  # noqa: ANN201 - a Catalogue
    with Session(engine) as session:
        return read_catalogue(session)


def test_load_records_every_version_exactly(engine: Engine, fixture_tree: Path) -> None:
    report = load_into(engine, fixture_tree, now=T0)
    assert report.changed and report.load_id is not None
    assert report.count("added") == 3 and report.gaps_added == 1
    expected = load_catalogue(fixture_tree)
    found = read(engine)
    assert found.versions == expected.versions  # every field, text and parameters included
    assert {v.content_hash for v in found.versions.values()} == {
        v.content_hash for v in expected.versions.values()
    }
    assert found.timeline(REFERENCE_SCHEME).gaps == expected.timeline(REFERENCE_SCHEME).gaps


def test_load_rebuilds_the_repository_catalogue_with_the_same_hashes(engine: Engine) -> None:
    load_into(engine)  # the repository's versions/
    expected = load_catalogue()
    with Session(engine) as session:
        found = store.rebuild_catalogue(session)
    for version_id, version in expected.versions.items():
        assert found.versions[version_id] == version
        assert found.versions[version_id].content_hash == version.content_hash


def test_load_of_the_same_tree_twice_changes_nothing(engine: Engine, fixture_tree: Path) -> None:
    load_into(engine, fixture_tree, now=T0)
    before = snapshot(engine)
    again = load_into(engine, fixture_tree, now=T0 + timedelta(days=1))
    assert not again.changed and again.load_id is None
    assert again.count("unchanged") == 3
    assert snapshot(engine) == before


def test_load_of_a_rejected_tree_leaves_the_database_as_it_was(
    engine: Engine, fixture_tree: Path, tmp_path: Path
) -> None:
    load_into(engine, fixture_tree, now=T0)
    before = snapshot(engine)
    broken = copy_tree(fixture_tree, tmp_path / "versions")
    meta = broken / SUCCESSOR / "version.toml"
    meta.write_text(meta.read_text(encoding="utf-8") + '\nunknown_key = "x"\n', encoding="utf-8")
    with pytest.raises(CatalogueError, match="unknown_key"):
        load_into(engine, broken)
    assert snapshot(engine) == before


def test_load_of_a_rejected_tree_into_an_empty_database_writes_nothing(
    engine: Engine, fixture_tree: Path, tmp_path: Path
) -> None:
    broken = copy_tree(fixture_tree, tmp_path / "versions")
    (broken / REFERENCE / "text.txt").write_bytes(b"not the words the parameters quote")
    with pytest.raises(CatalogueError):
        load_into(engine, broken)
    assert all(rows == [] for rows in snapshot(engine).values())


def test_load_failing_half_way_writes_nothing(
    engine: Engine, fixture_tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    load_into(engine, fixture_tree, now=T0)
    corrected = _corrected_tree(fixture_tree, Path(str(fixture_tree) + "-corrected"))
    before = snapshot(engine)
    calls = []
    real = store._record_version

    def failing(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202 - same signature as the real one
        calls.append(1)
        real(*args, **kwargs)
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(store, "_record_version", failing)
    with pytest.raises(RuntimeError, match="disk is full"):
        load_into(engine, corrected)
    assert calls, "the failure happened after rows were written in the transaction"
    assert snapshot(engine) == before
    shutil.rmtree(corrected)


def test_a_correction_supersedes_the_old_revision_and_never_overwrites_it(
    engine: Engine, fixture_tree: Path
) -> None:
    first = load_into(engine, fixture_tree, now=T0)
    corrected = _corrected_tree(fixture_tree, Path(str(fixture_tree) + "-fix"))
    second = load_into(engine, corrected, now=T0 + timedelta(days=30))
    shutil.rmtree(corrected)
    assert [(v.version_id, v.change) for v in second.versions if v.change != "unchanged"] == [
        (SUCCESSOR, "superseded")
    ]
    with Session(engine) as session:
        rows = session.exec(
            select(VersionRow).where(VersionRow.version_id == SUCCESSOR).order_by(col(VersionRow.revision_id))
        ).all()
        assert len(rows) == 2
        old, new = rows
        assert old.recorded_at == first.recorded_at and old.superseded_at == second.recorded_at
        assert old.superseded_by_load_id == second.load_id and old.load_id == first.load_id
        assert (
            "6 000 euros" in old.text and "6 300 euros" not in old.text
        )  # the old wording is kept as it was
        assert new.superseded_at is None and "6 300 euros" in new.text
        assert (
            new.content_hash
            == second.versions[[v.version_id for v in second.versions].index(SUCCESSOR)].new_hash
        )
    assert "6 300 euros" in read(engine).get(SUCCESSOR).text


def test_a_version_removed_from_the_tree_is_superseded_without_successor(
    engine: Engine, fixture_tree: Path, tmp_path: Path
) -> None:
    load_into(engine, fixture_tree, now=T0)
    smaller = copy_tree(fixture_tree, tmp_path / "versions")
    shutil.rmtree(smaller / CONDITIONS)
    report = load_into(engine, smaller, now=T0 + timedelta(hours=1))
    assert [(v.version_id, v.change, v.new_hash) for v in report.versions if v.change == "removed"] == [
        (CONDITIONS, "removed", None)
    ]
    assert CONDITIONS not in read(engine).versions
    with Session(engine) as session:
        row = session.exec(select(VersionRow).where(VersionRow.version_id == CONDITIONS)).one()
        assert row.superseded_at == report.recorded_at


def test_a_changed_gap_supersedes_the_old_one(engine: Engine, fixture_tree: Path, tmp_path: Path) -> None:
    load_into(engine, fixture_tree, now=T0)
    tree = copy_tree(fixture_tree, tmp_path / "versions")
    path = tree / "catalogue.toml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("fixture gap", "fixture gap, reason corrected"),
        encoding="utf-8",
    )
    report = load_into(engine, tree, now=T0 + timedelta(hours=1))
    assert (report.gaps_added, report.gaps_removed, report.count("unchanged")) == (1, 1, 3)
    with Session(engine) as session:
        gaps = session.exec(select(GapRow).order_by(col(GapRow.id))).all()
    assert [g.superseded_at is None for g in gaps] == [False, True]
    assert read(engine).timeline(REFERENCE_SCHEME).gaps[0].reason.startswith("fixture gap, reason corrected")


def test_knowledge_time_only_moves_forward(engine: Engine, fixture_tree: Path, tmp_path: Path) -> None:
    first = load_into(engine, fixture_tree, now=T0)
    corrected = _corrected_tree(fixture_tree, tmp_path / "versions")
    second = load_into(engine, corrected, now=T0 - timedelta(days=1))  # a clock gone back
    assert first.recorded_at is not None and second.recorded_at is not None
    assert second.recorded_at > first.recorded_at
    assert second.recorded_at.tzinfo is not None


def test_the_database_keeps_one_current_revision_per_version(engine: Engine, fixture_tree: Path) -> None:
    load_into(engine, fixture_tree, now=T0)
    with Session(engine) as session:
        row = session.exec(select(VersionRow).where(VersionRow.version_id == REFERENCE)).one()
        twin = VersionRow.model_validate(
            row.model_dump(exclude={"revision_id"}) | {"content_hash": "sha256:other"}
        )
        session.add(twin)
        with pytest.raises(sa.exc.IntegrityError):
            session.flush()


def test_a_tampered_row_is_refused_when_read(engine: Engine, fixture_tree: Path) -> None:
    """The database refuses the update (tests/api/catalogue/store/test_history.py); past a DBA who lifts that rule, the
    rebuild refuses the row whose content no longer has its recorded hash."""
    load_into(engine, fixture_tree, now=T0)
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            connection.execute(sa.text("ALTER TABLE version_revision DISABLE TRIGGER USER"))
        else:
            connection.execute(sa.text("DROP TRIGGER version_revision_supersede_only"))
        connection.execute(
            sa.update(VersionRow).where(VersionRow.version_id == REFERENCE).values(text="altered")
        )
    with pytest.raises(StoreIntegrityError, match=REFERENCE):
        read(engine)


def test_read_of_an_empty_database_says_the_catalogue_is_not_loaded(engine: Engine) -> None:
    with pytest.raises(CatalogueNotLoaded, match="vigueur load"):
        read(engine)


def test_ensure_loaded_loads_only_an_empty_database(
    engine: Engine, fixture_tree: Path, tmp_path: Path
) -> None:
    assert ensure_loaded(engine, fixture_tree) is not None
    corrected = _corrected_tree(fixture_tree, tmp_path / "versions")
    assert ensure_loaded(engine, corrected) is None  # not empty: left alone
    with Session(engine) as session:
        assert len(session.exec(select(LoadRow)).all()) == 1


def test_read_serves_the_cached_catalogue_until_a_load_changes_it(
    engine: Engine, fixture_tree: Path, tmp_path: Path
) -> None:
    load_into(engine, fixture_tree, now=T0)
    assert read(engine) is read(engine)
    first = read(engine)
    load_into(engine, _corrected_tree(fixture_tree, tmp_path / "versions"), now=T0 + timedelta(days=1))
    assert read(engine) is not first


def _corrected_tree(tree: Path, destination: Path) -> Path:
    """A copy of ``tree`` whose successor version reads « 6 300 euros » where it read « 6 000 euros »."""
    copy = copy_tree(tree, destination)
    text = copy / SUCCESSOR / "text.txt"
    text.write_bytes(text.read_bytes().replace(b"6 000 euros", b"6 300 euros"))
    meta = copy / SUCCESSOR / "version.toml"
    meta.write_text(
        meta.read_text(encoding="utf-8")
        .replace("6 000 euros", "6 300 euros")
        .replace('value = "6000"', 'value = "6300"'),
        encoding="utf-8",
    )
    return copy
