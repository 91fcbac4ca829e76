"""The columnar engine's recorded paths, kept between runs and handed from worker processes (api/batch/learned.py).

A path recorded by one :class:`Columnar` and replayed by another must give exactly what a fresh trace gives (and
the row engine): the outcomes are compared row by row, and the second engine must trace nothing. A file of the
cache that is damaged, foreign or unsafe is a miss, never an error; the cache's key changes with the catalogue.
"""

from __future__ import annotations

import pickle
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import pytest

from api.batch import learned
from api.catalogue.loader import load_catalogue
from legislation import Catalogue
from legislation.columnar import Columnar
from legislation.fast import Engine
from tests.property.test_columnar import _columnar, _columns, _generated, _row_engine

CATALOGUE = load_catalogue()
ENGINE = Engine(CATALOGUE)


def _runner() -> Columnar:
    runner = Columnar(CATALOGUE, ENGINE)
    runner.rows_per_path, runner.rows_per_recorded_path = 0, 0  # every row traced, every recording replayed
    return runner


def _fresh(columns: dict[str, object]) -> object:
    fresh = Columnar(CATALOGUE, ENGINE)
    fresh.rows_per_path, fresh.record = 0, False
    return fresh.compute(columns)


def test_kept_recordings_decide_another_engines_rows_without_a_trace(tmp_path: Path) -> None:
    rows, _ = _generated(31, 25)
    columns = _columns(rows)
    first = _runner()
    first.compute(columns)
    path = tmp_path / "kept.paths"
    path.write_bytes(learned.dumps(first.recordings()))
    second = _runner()
    second.restore(learned.loads(path.read_bytes()))
    result = second.compute(columns)
    assert result.paths == 0, result.fallback_reasons  # every row on a kept path: nothing traced
    assert result.replayed > 0
    expected = _fresh(columns)
    for i, row in enumerate(rows):
        assert _columnar(result, i) == _columnar(expected, i) == _row_engine(ENGINE, row), row  # type: ignore[arg-type]


def test_a_workers_new_paths_are_learnt_by_another_engine(tmp_path: Path) -> None:
    rows, _ = _generated(32, 25)
    columns = _columns(rows)
    worker = _runner()
    worker.compute(columns)
    path = tmp_path / "worker.paths"
    path.write_bytes(learned.dumps(worker.take_learned()))
    assert worker.take_learned() == {}  # taken once
    main = _runner()
    main.learn(learned.loads(path.read_bytes()))
    result = main.compute(columns)
    assert result.paths == 0, result.fallback_reasons
    expected = _fresh(columns)
    for i in range(len(rows)):
        assert _columnar(result, i) == _columnar(expected, i)  # type: ignore[arg-type]


def test_kept_lifted_results_are_indexed_as_a_trace_indexes_them(tmp_path: Path) -> None:
    """The calendar helpers' results an earlier run kept, indexed at load (index_lifted_results), are the very tables
    a trace makes after computing them, and the rows looked up in them get the outcomes of a fresh trace."""
    import numpy as np

    rows, _ = _generated(33, 25)
    columns = _columns(rows)
    first = _runner()
    first.compute(columns)
    made = dict(first._lift_tables)
    assert made, "the generated rows call no calendar helper: nothing to compare"
    path = tmp_path / "kept.paths"
    path.write_bytes(learned.dumps({"recordings": first.recordings(), "lifted": first.lifted_results()}))
    kept = learned.loads(path.read_bytes())
    second = _runner()
    second.restore(kept["recordings"])
    second.learn_lifted_results(kept["lifted"])
    second.index_lifted_results()
    assert set(second._lift_tables) == set(made)
    for key, table in made.items():
        indexed = second._lift_tables[key]
        assert indexed[0] == table[0] and indexed[3:6] == table[3:6], key  # how many, kind, least, greatest
        assert np.array_equal(indexed[1], table[1]) and np.array_equal(indexed[2], table[2]), key
        assert (indexed[6] is None) == (table[6] is None), key
        if table[6] is not None:
            assert indexed[6][0] == table[6][0], key
            assert np.array_equal(indexed[6][1], table[6][1]) and np.array_equal(indexed[6][2], table[6][2]), key
    result = second.compute(columns)
    expected = _fresh(columns)
    for i in range(len(rows)):
        assert _columnar(result, i) == _columnar(expected, i)  # type: ignore[arg-type]


def test_a_run_of_vigueur_batch_keeps_its_paths_for_the_next(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from api.batch.csv_rows import CSV_COLUMNS
    from tests.api.cli.test_batch_arrow import cells, run

    rows, _ = _generated(36, 12)
    source = tmp_path / "in.csv"
    lines = [",".join(CSV_COLUMNS), *(",".join([f"R{i}", *cells(row)]) for i, row in enumerate(rows))]
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    monkeypatch.setenv("VIGUEUR_CACHE_DIR", str(tmp_path / "cache"))
    outputs = {}
    for name, workers in (("first", "2"), ("second", "2"), ("one", "1")):
        done = run(str(source), "--out", str(tmp_path / f"{name}.csv"), "--workers", workers, "--quiet")
        assert done.exit_code in (0, 1), done.output
        outputs[name] = (tmp_path / f"{name}.csv").read_bytes()
        if name == "first":
            kept = list((tmp_path / "cache" / "paths").glob("*.paths"))
            assert len(kept) == 1  # the workers' paths, kept by the main process
            states = learned.loads(kept[0].read_bytes())
            assert isinstance(states, dict) and sum(len(s["outcomes"]) for s in states["recordings"].values()) > 50
    monkeypatch.setenv("VIGUEUR_CACHE_DIR", "off")
    done = run(str(source), "--out", str(tmp_path / "off.csv"), "--workers", "2", "--quiet")
    assert done.exit_code in (0, 1), done.output
    assert outputs["first"] == outputs["second"] == outputs["one"] == (tmp_path / "off.csv").read_bytes()


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"not a pickle",
        pickle.dumps({"x": 1})[:-3],  # truncated
        pickle.dumps(Path("/etc")),  # a class that is not plain data: refused, never built
        b"cos\nsystem\n(S'echo unsafe'\ntR.",  # a call of os.system: refused, never run
        b"clegislation.enums\nEnum\n.",  # of the enums' module, only its enums
    ],
)
def test_a_damaged_or_foreign_file_is_a_miss(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: bytes) -> None:
    monkeypatch.setenv("VIGUEUR_CACHE_DIR", str(tmp_path))
    assert learned.loads(content) is None
    path = learned.cache_file(CATALOGUE)
    assert path is not None
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    runner = _runner()
    assert learned.load(runner, CATALOGUE) is False
    rows, _ = _generated(33, 3)
    result = runner.compute(_columns(rows))
    expected = _fresh(_columns(rows))
    for i in range(len(rows)):
        assert _columnar(result, i) == _columnar(expected, i)  # type: ignore[arg-type]


def test_a_recording_whose_parts_do_not_fit_is_refused(tmp_path: Path) -> None:
    runner = _runner()
    rows, _ = _generated(34, 3)
    runner.compute(_columns(rows))
    states = runner.recordings()
    key = next(iter(states))
    states[key] = {**states[key], "targets": states[key]["targets"] + 10**6}  # a transition to no state
    with pytest.raises(ValueError, match="do not fit"):
        _runner().restore(states)


def test_the_key_changes_with_the_catalogue() -> None:
    version = next(v for v in CATALOGUE.versions.values() if v.parameters)
    name, parameter = next(iter(version.parameters.items()))
    more = replace(parameter, value=parameter.value + Decimal(1))
    changed = replace(version, parameters={**version.parameters, name: more})
    other = Catalogue([changed if v.id == version.id else v for v in CATALOGUE.versions.values()], _gaps(CATALOGUE))
    assert learned.fingerprint(other) != learned.fingerprint(CATALOGUE)
    assert learned.fingerprint(load_catalogue()) == learned.fingerprint(CATALOGUE)  # the same files: the same key


def _gaps(catalogue: Catalogue) -> list[object]:
    return [gap for timeline in catalogue.timelines.values() for gap in timeline.gaps]


def test_off_keeps_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VIGUEUR_CACHE_DIR", "off")
    runner = _runner()
    rows, _ = _generated(35, 3)
    runner.compute(_columns(rows))
    assert learned.cache_file(CATALOGUE) is None
    learned.save(runner, CATALOGUE)
    assert learned.load(_runner(), CATALOGUE) is False


def test_only_the_latest_files_are_kept(tmp_path: Path) -> None:
    import os

    for k in range(7):  # seven catalogues or code changes, written one after the other
        path = tmp_path / f"{k:032x}{learned.SUFFIX}"
        path.write_bytes(b"x")
        os.utime(path, (1_000_000 + k, 1_000_000 + k))
    (tmp_path / "other.txt").write_text("not ours")
    learned.prune(tmp_path)
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == [*(f"{k:032x}{learned.SUFFIX}" for k in (3, 4, 5, 6)), "other.txt"]  # the 4 latest (KEPT)
