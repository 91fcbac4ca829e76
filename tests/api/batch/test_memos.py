"""The batch's values met kept between runs (api/batch/memos.py), and the recordings' leaf tables kept with
the recorded paths (api/batch/learned.py): what a worker's first block would otherwise compute again.

A run keeps them; the next run reads them and computes none of them again (the functions that compute them are made
to fail); its output is the same bytes as a run without a cache. A file of the cache that is damaged, foreign or
holds values of another kind is a miss, never an error.
"""

from __future__ import annotations

import hashlib
import pickle
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from api.batch import arrow_cells, arrow_run, learned, memos, results
from api.batch.csv_rows import CSV_COLUMNS
from api.batch.results import Memo, Tables
from api.catalogue.loader import load_catalogue
from legislation.columnar import Columnar, recorded
from legislation.columnar import engine as engine_module
from legislation.enums import Acquisition
from legislation.fast import Engine
from tests.api.cli.test_batch_arrow import cells, run
from tests.property.test_columnar import _columnar, _columns, _generated, _row_engine

CATALOGUE = load_catalogue()
ENGINE = Engine(CATALOGUE)


def _source(tmp_path: Path) -> Path:
    """Rows of every amounts version, and some whose date no version covers (explained by key), some leases."""
    rows, _ = _generated(41, 6)
    more = [replace(rows[0], invoice_date=date(1990, 1, 1)), replace(rows[1], invoice_date=date(2091, 5, 17))]
    leases = [
        replace(r, acquisition=Acquisition.LEASE, first_rent_date=r.invoice_date, lease_duration_months=24)
        for r in rows[:5]
    ]
    lines = [",".join(CSV_COLUMNS)]
    lines += [",".join([f"R{i}", *cells(row)]) for i, row in enumerate([*rows, *more, *leases])]
    lines.append("BAD,purchase,not a date" + "," * (len(CSV_COLUMNS) - 3))
    source = tmp_path / "in.csv"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return source


def _fresh_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """This process as a new one: no engines, tables or converted cells (a run in this process sets them up)."""
    monkeypatch.setattr(arrow_run, "_STATE", {})
    monkeypatch.setattr(arrow_cells, "_SEEN", {})


def _batch(source: Path, out: Path, *args: str) -> bytes:
    done = run(str(source), "--out", str(out), "--quiet", *args)
    assert done.exit_code in (0, 1), done.output
    return out.read_bytes()


def _unexpected(*args: Any) -> Any:
    raise AssertionError("computed again")


@pytest.mark.parametrize("reasons", [(), ("--no-reasons",)])
def test_a_run_keeps_its_values_and_the_next_computes_none_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reasons: tuple[str, ...]
) -> None:
    source = _source(tmp_path)
    monkeypatch.setenv("VIGUEUR_CACHE_DIR", "off")
    _fresh_process(monkeypatch)
    expected = _batch(source, tmp_path / "off.csv", *reasons)
    monkeypatch.setenv("VIGUEUR_CACHE_DIR", str(tmp_path / "cache"))
    _fresh_process(monkeypatch)
    first = _batch(source, tmp_path / "first.csv", "--workers", "2", *reasons)  # the workers' values, saved
    kept = list((tmp_path / "cache" / "memos").glob("*.memos"))
    assert len(kept) == 1
    tables = Tables(CATALOGUE, ENGINE)
    assert memos.load(tables, CATALOGUE) is True
    assert len(tables.deadlines) > 10 and len(tables.explanations) >= 1, (tables.deadlines, tables.explanations)
    assert tables.eventful_known
    assert arrow_cells._SEEN  # the cells converted by the workers, read back
    # the next run: every deadline, explanation by key, eventful day and cell read from the cache
    _fresh_process(monkeypatch)
    monkeypatch.setattr(results, "claim_deadline_for", _unexpected)
    monkeypatch.setattr(results, "version_for", _unexpected)
    monkeypatch.setattr(arrow_cells, "_distinct", _unexpected)
    if reasons:  # (with every reason, the results not « computed » are explained row by row)
        monkeypatch.setattr(results, "calculate", _unexpected)
    second = _batch(source, tmp_path / "second.csv", "--workers", "1", *reasons)
    assert first == second == expected
    assert list((tmp_path / "cache" / "memos").glob("*.memos")) == kept  # nothing new: not written again


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: b"",
        lambda data: b"not an entry",
        lambda data: data[:-7],  # truncated
        lambda data: data[:-1] + bytes([data[-1] ^ 1]),  # a bit changed: the checksum differs
        lambda data: data.replace(b"vigueur-memos-1", b"vigueur-memos-0"),  # another layout
    ],
)
def test_a_damaged_entry_is_a_miss(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: Any) -> None:
    monkeypatch.setenv("VIGUEUR_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(arrow_cells, "_SEEN", {})
    tables = _tables_with_values()
    key = memos.fingerprint(CATALOGUE)
    assert key is not None
    data = memos.dumps(key, tables)
    assert memos.loads(data, key) is not None  # undamaged: read
    path = memos.cache_file(CATALOGUE)
    assert path is not None
    path.parent.mkdir(parents=True)
    path.write_bytes(damage(data))
    other = Tables(CATALOGUE, ENGINE)
    assert memos.load(other, CATALOGUE) is False
    assert len(other.deadlines) == len(other.explanations) == 0 and not other.eventful_known


def _entry(key: str, found: Any) -> bytes:
    """An entry as :func:`memos.dumps` writes one (a valid checksum), holding ``found``."""
    body = key.encode("ascii") + pickle.dumps(found, protocol=pickle.HIGHEST_PROTOCOL)
    return memos.MAGIC + hashlib.sha256(body).digest() + body


def _plain(**changed: Any) -> dict[str, Any]:
    keys = np.array([5, 9], dtype="<i8").tobytes()
    found = {
        "deadlines": (keys, ["2021-01-31", None]),
        "explanations": (keys, [("a reason", None), (None, "vehicle_co2_g_per_km")]),
        "eventful": [(0, 737000, -1, -1, 737000)],
        "cells": {},
    }
    return {**found, **changed}


@pytest.mark.parametrize(
    "found",
    [
        ["not", "a", "dictionary"],
        _plain(deadlines=(np.array([5, 9], dtype="<i8").tobytes(), [20210131, None])),  # not a text
        _plain(deadlines=(np.array([5], dtype="<i8").tobytes(), ["2021-01-31", None])),  # keys and values differ
        _plain(deadlines=(np.array([9, 5], dtype="<i8").tobytes(), ["2021-01-31", None])),  # keys not sorted
        _plain(explanations=(np.array([5, 9], dtype="<i8").tobytes(), ["a reason", None])),  # not pairs
        _plain(eventful=[(0, "737000", -1, -1, 737000)]),
        # offsets past the characters
        _plain(cells={"invoice_date": (np.array([0, 5], "<i4").tobytes(), b"", b"\0" * 8, b"\0", b"\0")}),
        _plain(cells={"no such column": (b"\0" * 4, b"", b"", b"", b"")}),
        _plain(cells={"acquisition": (np.array([0, 1, 2], "<i4").tobytes(), b"aa", b"\0\0", b"\0\0", b"\0\0")}),
    ],
)
def test_values_of_another_kind_are_a_miss(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, found: Any) -> None:
    monkeypatch.setenv("VIGUEUR_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(arrow_cells, "_SEEN", {})
    key = memos.fingerprint(CATALOGUE)
    path = memos.cache_file(CATALOGUE)
    assert key is not None and path is not None
    path.parent.mkdir(parents=True)
    path.write_bytes(_entry(key, _plain()))
    assert memos.load(Tables(CATALOGUE, ENGINE), CATALOGUE) is True  # the well-formed entry is read
    path.write_bytes(_entry(key, found))
    tables = Tables(CATALOGUE, ENGINE)
    assert memos.load(tables, CATALOGUE) is False
    assert len(tables.deadlines) == 0 and not tables.eventful_known and not arrow_cells._SEEN
    path.write_bytes(_entry(key, {"os": pickle.loads(pickle.dumps(Path("/etc")))}))  # noqa: S301 - built here
    assert memos.load(Tables(CATALOGUE, ENGINE), CATALOGUE) is False  # a class: refused by the unpickler


def test_off_keeps_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VIGUEUR_CACHE_DIR", "off")
    tables = _tables_with_values()
    memos.save(tables, CATALOGUE)
    assert memos.cache_file(CATALOGUE) is None
    assert memos.load(Tables(CATALOGUE, ENGINE), CATALOGUE) is False


def _tables_with_values() -> Tables:
    tables = Tables(CATALOGUE, ENGINE)
    n = np.array([0, 1, 0])
    day = np.array([date(2021, 3, 4).toordinal(), date(2019, 6, 30).toordinal(), date(2024, 2, 29).toordinal()])
    tables.deadline_codes(n, day, np.zeros(3, np.int64), np.zeros(3, np.int8))
    tables.eventful_day(0, date(2020, 1, 5).toordinal(), -1, -1)
    assert len(tables.deadlines) == 3
    return tables


def test_a_memo_learns_what_another_met() -> None:
    one, other = Memo(), Memo()
    keys = np.array([7, 3, 7, 11, 3], dtype=np.int64)
    codes = one.codes(keys, lambda first: [f"v{int(keys[j])}" if keys[j] != 11 else None for j in first])
    assert [one.values[c] if c >= 0 else None for c in codes.tolist()] == ["v7", "v3", "v7", None, "v3"]
    found, values = one.entries()
    assert found.tolist() == [3, 7, 11] and values == ["v3", "v7", None]
    assert other.learn(found, values) == 3
    assert other.learn(found, values) == 0  # already met
    again = other.codes(keys, _unexpected)
    assert [other.values[c] if c >= 0 else None for c in again.tolist()] == ["v7", "v3", "v7", None, "v3"]
    assert other.array("texts", str).to_pylist() == ["v3", "v7"]
    other.codes(np.array([1], dtype=np.int64), lambda first: ["v1"])
    assert other.array("texts", str).to_pylist() == ["v3", "v7", "v1"]  # the value added, appended


# -- the recordings' leaf tables --------- ----------------------------------------------------------------------


def _runner() -> Columnar:
    runner = Columnar(CATALOGUE, ENGINE)
    runner.rows_per_path, runner.rows_per_recorded_path = 0, 0  # every row traced, every recording replayed
    return runner


def _kept(runner: Columnar) -> dict[str, Any]:
    """What :func:`learned.save` writes, read back."""
    data = {
        "recordings": runner.recordings(),
        "lifted": runner.lifted_results(),
        "leaves": learned._leaf_tables(runner),
        "combined": learned._combined(runner),
    }
    found = learned.loads(learned.dumps(data))
    assert isinstance(found, dict)
    return found


def _restored(kept: dict[str, Any]) -> Columnar:
    runner = _runner()
    runner._paragraphs.number("a paragraph met first here: the kept tables' paragraphs are numbered again")
    runner.restore(kept["recordings"])
    assert learned._restore_leaf_tables(runner, kept["leaves"]) == len(kept["recordings"])
    return runner


def test_kept_tables_give_what_a_fresh_engine_gives_and_grow() -> None:
    rows, _ = _generated(43, 12)
    first = _runner()
    first.compute(_columns(rows))
    runner = _restored(_kept(first))
    assert all(r.extra.get("arrays") is not None for r in runner._recordings.values())
    more, _ = _generated(44, 12)  # other rows: the same paths replayed, new ones traced (the tables grow)
    for batch in (rows, more):
        result = runner.compute(_columns(batch))
        for i, row in enumerate(batch):
            assert _columnar(result, i) == _row_engine(ENGINE, row), row  # type: ignore[arg-type]
    assert result.paths > 0  # (new paths were traced: the restored tables were extended)


@pytest.mark.parametrize(
    "damage",
    [
        lambda t: (t[0][:, :-1], t[1], t[2]),  # a leaf missing
        lambda t: (t[0] * 0 + 10**6, t[1], t[2]),  # a paragraph not kept, a slot of no expression
        lambda t: (t[0], t[1].astype(np.int8), t[2]),
        lambda t: (t[0], t[1], [*t[2], 10**6]),  # the slot of no leaf
    ],
)
def test_a_leaf_table_that_does_not_fit_is_built_again(damage: Any) -> None:
    rows, _ = _generated(46, 4)
    first = _runner()
    first.compute(_columns(rows))
    kept = _kept(first)
    kept["leaves"]["tables"] = {key: damage(t) for key, t in kept["leaves"]["tables"].items()}
    runner = _runner()
    runner.restore(kept["recordings"])
    assert learned._restore_leaf_tables(runner, kept["leaves"]) == 0
    result = runner.compute(_columns(rows))
    for i, row in enumerate(rows):
        assert _columnar(result, i) == _row_engine(ENGINE, row)  # type: ignore[arg-type]


# -- the schemes' combined tables -------------------------------------------------------------------------------


def _fresh_combined(runner: Columnar, key: tuple[int, tuple[str, ...]]) -> tuple[Any, Any, list[str]]:
    """What the engine builds for ``key`` from ``runner``'s recordings, without the cache: the combined table, its
    leaves, the paragraphs' texts."""
    from legislation.row import ALL_SCHEMES

    s, facts_key = key
    vids = [p.vid for p in ENGINE.schemes[ALL_SCHEMES[s]].plans if (s, p.vid, facts_key) in runner._recordings]
    recordings = [runner._recordings[(s, vid, facts_key)] for vid in vids]
    registry = recorded.Registry()
    combined = recorded.combine(recordings, registry)
    return combined, runner._combined_leaves(combined, recordings, vids, registry), runner.paragraphs


def _same_leaves(a: Any, a_texts: list[str], b: Any, b_texts: list[str]) -> None:
    (a_columns, *a_rest), (b_columns, *b_rest) = a, b
    assert np.array_equal(np.delete(a_columns, 5, axis=0), np.delete(b_columns, 5, axis=0))
    assert [a_texts[p] if p >= 0 else None for p in a_columns[5].tolist()] == [
        b_texts[p] if p >= 0 else None for p in b_columns[5].tolist()
    ]  # the same paragraphs, whatever their numbers in each process
    for x, y in zip(a_rest, b_rest, strict=True):
        assert np.array_equal(x, y) if isinstance(x, np.ndarray) else x == y


def test_kept_combined_tables_are_the_ones_built_again_and_are_used(monkeypatch: pytest.MonkeyPatch) -> None:
    rows, _ = _generated(47, 12)
    first = _runner()
    first.compute(_columns(rows))
    kept = _kept(first)
    assert kept["combined"]["tables"]
    runner = _restored(kept)
    assert learned._restore_combined(runner, kept["combined"]) == len(kept["combined"]["tables"])
    rebuilt = Columnar(CATALOGUE, ENGINE)  # (a process without the cache)
    rebuilt.restore(kept["recordings"])
    for key, combined in runner._combined.items():
        expected, leaves, texts = _fresh_combined(rebuilt, key)
        for name in ("signature", "recipes", "widths", "labels", "depth"):
            if name != "signature":
                assert getattr(combined, name) == getattr(expected, name), name
        assert combined.signature == recorded.signature(
            [runner._recordings[(key[0], vid, key[1])] for vid in kept["combined"]["tables"][key][0]]
        )
        assert all(
            (x is None and y is None) or np.array_equal(x, y) for x, y in zip(combined.held, expected.held, strict=True)
        )
        for name in ("recipe_of", "offset", "table", "leaf_of", "base", "leaf_base", "users"):
            found, wanted = getattr(combined, name), getattr(expected, name)
            assert found.dtype == wanted.dtype and np.array_equal(found, wanted), name
        _same_leaves(combined.extra["leaves"], runner.paragraphs, leaves, texts)
    # the same rows again: replayed through the kept tables, none combined again
    monkeypatch.setattr(engine_module, "combine", _unexpected)
    result = runner.compute(_columns(rows))
    assert runner.combined_blocks > 0
    for i, row in enumerate(rows):
        assert _columnar(result, i) == _row_engine(ENGINE, row), row  # type: ignore[arg-type]


def _damage_fields(item: Any, at: int, value: Any) -> Any:
    vids, sizes, fields, placing, leaves = item
    return (vids, sizes, (*fields[:at], value(fields[at]), *fields[at + 1 :]), placing, leaves)


@pytest.mark.parametrize(
    "damage",
    [
        lambda t: ([*t[0][:-1], "another version"], *t[1:]),  # built for other recordings
        lambda t: (t[0], [(states + 1, leaves) for states, leaves in t[1]], *t[2:]),  # for other states
        lambda t: _damage_fields(t, 6, lambda table: np.full_like(table, 10**6)),  # a transition to no state
        lambda t: _damage_fields(t, 1, lambda widths: widths[:-1]),  # a recipe's width missing
        lambda t: _damage_fields(t, 6, lambda table: table.astype(np.int32)),  # another kind of array
        lambda t: _damage_fields(t, 7, lambda leaf_of: leaf_of + 10**6),  # a leaf of no recording
        lambda t: (*t[:4], (t[4][0][:, :-1], *t[4][1:])),  # a leaf's codes missing
        lambda t: (*t[:4], (t[4][0] * 0 + 10**6, *t[4][1:])),  # a paragraph not kept
        lambda t: (*t[:4], (*t[4][:3], t[4][3] + 10**6, *t[4][4:])),  # an amount of no expression
        lambda t: (*t[:3], (t[3][0] + 1, *t[3][1:]), t[4]),  # the versions placed otherwise
        lambda t: "not a table",
    ],
)
def test_a_combined_table_that_does_not_fit_is_built_again(damage: Any) -> None:
    rows, _ = _generated(48, 4)
    first = _runner()
    first.compute(_columns(rows))
    kept = _kept(first)
    assert kept["combined"]["tables"]
    kept["combined"]["tables"] = {key: damage(t) for key, t in kept["combined"]["tables"].items()}
    runner = _runner()
    runner.restore(kept["recordings"])
    assert learned._restore_combined(runner, kept["combined"]) == 0
    assert not runner._combined
    result = runner.compute(_columns(rows))
    for i, row in enumerate(rows):
        assert _columnar(result, i) == _row_engine(ENGINE, row)  # type: ignore[arg-type]
