"""The columnar engine's walk compiled in C (legislation/columnar/walk_c.c, legislation.columnar.recorded.FAST_WALK)
reaches, for every row, the leaf numpy's walk reaches; an index outside its table is refused, never read."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import legislation.columnar.recorded as recorded
from legislation.columnar import Columnar
from legislation.fast import Engine
from tests.property.test_columnar import CATALOGUE, _columnar, _columns, _generated, _replaying, _row_engine

COMPILED = recorded.COMPILED_WALK
pytestmark = pytest.mark.skipif(COMPILED is None, reason="the C module legislation.columnar.walk_c is not built")


def test_the_compiled_walk_reaches_numpys_leaves(monkeypatch: pytest.MonkeyPatch) -> None:
    first, _ = _generated(41, 40)
    later, _ = _generated(42, 60)
    engine = Engine(CATALOGUE)
    walks: list[tuple[Any, ...]] = []
    recorded_walk = recorded.walk  # (the C walk while FAST_WALK is set)

    def kept(combined: Any, matrix: Any, rows: Any, start: Any) -> Any:
        walks.append((combined, matrix.copy(), rows.copy(), start.copy()))
        return recorded_walk(combined, matrix, rows, start)

    results = []
    for walker in (COMPILED, None):
        monkeypatch.setattr(recorded, "FAST_DECIDE", None)  # the codes computed beforehand, then walked
        monkeypatch.setattr(recorded, "FAST_WALK", walker)
        runner = _replaying(engine, first, later)
        if walker is not None:
            monkeypatch.setattr("legislation.columnar.engine.walk", kept)
        result = runner.compute(_columns(later))
        monkeypatch.undo()
        assert result.paths == 0 and result.replayed > 0
        results.append(result)
    assert walks  # the replay walked
    for combined, matrix, rows, start in walks:  # each walk of the C run, again by both
        monkeypatch.setattr(recorded, "FAST_WALK", COMPILED)
        in_c = recorded.walk(combined, matrix, rows, start)
        monkeypatch.setattr(recorded, "FAST_WALK", None)
        by_numpy = recorded.walk(combined, matrix, rows, start)
        assert np.array_equal(in_c, by_numpy) and (in_c >= 0).any()
    in_c_result, numpy_result = results
    for i, row in enumerate(later):
        assert _columnar(in_c_result, i) == _columnar(numpy_result, i) == _row_engine(engine, row), row


def test_the_compiled_walk_refuses_an_index_outside_its_arrays() -> None:
    assert COMPILED is not None
    # two states: 0 a node deciding recipe 0 (two slots: table[0], table[1]), 1 a leaf (recipe 1 = constant)
    table = np.array([1, 1], dtype=np.intp)
    states = np.array([[0, 0], [1, 0]], dtype=np.intp)  # per state: (its decision, where its slots start)
    matrix = np.array([[0, 1, 2], [0, 0, 0]], dtype=np.int8)  # the codes of recipe 0 for 3 rows; the last line: 0
    rows, start = np.arange(3, dtype=np.intp), np.zeros(3, dtype=np.intp)
    state = np.empty(3, dtype=np.intp)
    with pytest.raises(IndexError):  # row 2's code 2: past state 0's two slots, past the table
        COMPILED(table, states, 1, matrix, 1, 3, rows, start, 5, state)
    COMPILED(table, states, 1, matrix[:, :2].copy(), 1, 2, rows[:2], start[:2], 5, state[:2])
    assert state[:2].tolist() == [1, 1]  # both rows on the leaf
    with pytest.raises(ValueError, match="walk"):  # a matrix of another size than (constant + 1) x columns
        COMPILED(table, states, 1, matrix, 1, 2, rows[:2], start[:2], 5, state[:2])


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.int16, np.int32, np.int64])
@pytest.mark.parametrize("leaf_type", [np.uint8, np.intp])
def test_the_compiled_lookup_is_numpys_take(dtype: Any, leaf_type: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The results by leaf (engine._assemble through recorded.take): the C look-up gives numpy's ``take`` with
    ``mode="clip"`` for every item size, a leaf past the table's end (200, 300: clipped to the last item) and a
    negative intp leaf (clipped to the first) included."""
    rng = np.random.default_rng(5)
    table = (np.arange(33, dtype=np.int64) * 7919 - 100_000).astype(dtype)  # 33 distinct items (bool: 0/1)
    leaf = rng.integers(0, 33, size=10_007).astype(leaf_type)
    leaf[[0, 5, 10_006]] = [32, 200 if leaf_type is np.uint8 else 300, 0]
    if leaf_type is np.intp:
        leaf[7] = -4
    expected = np.take(table, leaf, mode="clip")
    assert expected[5] == table[-1] and (leaf_type is np.uint8 or expected[7] == table[0])
    monkeypatch.setattr(recorded, "FAST_LOOKUP", recorded.COMPILED_LOOKUP)
    compiled = recorded.take(table, leaf, np.zeros(len(leaf), dtype=dtype))
    monkeypatch.setattr(recorded, "FAST_LOOKUP", None)
    plain = recorded.take(table, leaf, np.zeros(len(leaf), dtype=dtype))
    assert (compiled == expected).all() and (plain == expected).all()
    with pytest.raises(ValueError, match="lookup"):  # an output of another length than the leaves: refused
        recorded.COMPILED_LOOKUP(table, leaf.astype(np.uint8), 1, np.zeros(len(leaf) + 1, dtype=dtype))  # type: ignore[misc]


@pytest.mark.parametrize("size", [0, 1, 7, 8, 9, 63, 1000, 100_003])
@pytest.mark.parametrize("share", [0.0, 0.01, 0.3, 1.0])
def test_the_compiled_indices_are_numpys_flatnonzero(size: int, share: float) -> None:
    from legislation.columnar import symbolic

    assert symbolic.COMPILED_INDICES is not None
    mask = np.random.default_rng(size).random(size) < share
    count = int(np.count_nonzero(mask))
    out = np.empty(count + 8, dtype=np.intp)
    assert symbolic.COMPILED_INDICES(mask, out) == count
    assert out[:count].tolist() == np.flatnonzero(mask).tolist()
    if count:  # an output too short is refused, never written past
        with pytest.raises(ValueError, match="too short"):
            symbolic.COMPILED_INDICES(mask, np.empty(count - 1, dtype=np.intp))


@pytest.mark.parametrize("sparse", [1, 10**12])
def test_a_paths_rows_as_indices_or_as_masks_decide_the_same(sparse: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A path's rows are indices when it holds fewer than one row in SPARSE of the chunk, else a mask
    (legislation/columnar/symbolic.py, Rows): every path as indices (1: past its first split) and every path as a mask
    give the row engine's outcomes."""
    from legislation.columnar import symbolic

    monkeypatch.setattr(symbolic, "SPARSE", sparse)
    rows, _ = _generated(43, 30)
    engine = Engine(CATALOGUE)
    runner = Columnar(CATALOGUE, engine)
    runner.rows_per_path = 0  # every row traced
    result = runner.compute(_columns(rows))
    for i, row in enumerate(rows):
        assert _columnar(result, i) == _row_engine(engine, row)
