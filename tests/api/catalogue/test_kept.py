"""The validated catalogue kept between runs (api.catalogue.kept): what it reads equals what the loader builds; a
changed tree, a damaged entry or one naming any other class is a miss, loaded as without a cache; an invalid tree is
never kept; ``VIGUEUR_CACHE_DIR=off`` turns it off. Every test has a cache directory of its own."""

from __future__ import annotations

import hashlib
import os
import pickle
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

import api.catalogue.loader as loader
from api.catalogue import DEFAULT_VERSIONS_DIR
from api.catalogue.kept import MAGIC, load_catalogue, tree_key, unpack
from api.cli.main import app as cli
from legislation import Catalogue
from legislation.errors import CatalogueError

FRESH = loader.load_catalogue()
CALLS: list[str] = []  # what the refused pickle below would have run


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("VIGUEUR_CACHE_DIR", str(folder))
    return folder


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The trees the loader reads (parses and validates) from now on."""
    read: list[Path] = []
    load = loader.load_catalogue

    def counted(root: Path | None = None) -> Catalogue:
        read.append(Path(root or DEFAULT_VERSIONS_DIR))
        return load(root)

    monkeypatch.setattr(loader, "load_catalogue", counted)
    return read


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    copy = tmp_path / "versions"
    shutil.copytree(DEFAULT_VERSIONS_DIR, copy)
    return copy


def entries(cache: Path) -> list[Path]:
    return sorted((cache / "catalogue").iterdir())


def assert_same_catalogue(found: Catalogue, expected: Catalogue) -> None:
    assert isinstance(found, Catalogue) and found is not expected
    assert list(found.versions) == list(expected.versions)
    for vid, version in expected.versions.items():
        assert found.versions[vid] == version
        assert found.versions[vid].content_hash == version.content_hash != ""
    assert found.timelines.keys() == expected.timelines.keys()
    for scheme, timeline in expected.timelines.items():
        kept = found.timelines[scheme]
        assert kept.gaps == timeline.gaps
        assert kept.versions == timeline.versions and kept.endings == timeline.endings
        assert kept.events == timeline.events and kept.events_differ == timeline.events_differ
        assert all(v is found.versions[v.id] for v in kept.versions + kept.endings)  # one object per version
        for day in (v.valid_from for v in timeline.versions):
            assert kept.find(day) == timeline.find(day)


def test_the_kept_catalogue_equals_the_one_loaded(cache: Path, loads: list[Path]) -> None:
    cold = load_catalogue()
    assert loads == [DEFAULT_VERSIONS_DIR] and len(entries(cache)) == 1
    warm = load_catalogue()
    assert loads == [DEFAULT_VERSIONS_DIR]  # read from the cache: not loaded again
    assert_same_catalogue(cold, FRESH)
    assert_same_catalogue(warm, FRESH)
    assert any(t.gaps for t in FRESH.timelines.values())  # the gaps of catalogue.toml are compared


def test_a_changed_file_under_versions_is_a_miss(cache: Path, loads: list[Path], tree: Path) -> None:
    assert load_catalogue(tree).versions["D251-7.2020-06-01"].title == FRESH.versions["D251-7.2020-06-01"].title
    meta = tree / "D251-7.2020-06-01" / "version.toml"
    lines = meta.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith("title = "))
    lines[at] = 'title = "Un autre titre"\n'
    meta.write_text("".join(lines), encoding="utf-8")
    assert load_catalogue(tree).versions["D251-7.2020-06-01"].title == "Un autre titre"
    assert loads == [tree, tree]
    assert load_catalogue(tree).versions["D251-7.2020-06-01"].title == "Un autre titre"
    assert loads == [tree, tree]  # the new tree's catalogue replaced the entry
    assert len(entries(cache)) == 1
    (tree / "catalogue.toml").write_bytes((tree / "catalogue.toml").read_bytes() + b"\n")
    load_catalogue(tree)
    assert loads == [tree, tree, tree]  # catalogue.toml is part of the key


def test_an_invalid_tree_is_refused_every_time_and_never_kept(cache: Path, tree: Path) -> None:
    load_catalogue(tree)
    (tree / "D999-1.2030-01-01").mkdir()  # a folder without version.toml
    for _ in range(2):
        with pytest.raises(CatalogueError, match="missing version.toml"):
            load_catalogue(tree)
    shutil.rmtree(tree / "D999-1.2030-01-01")
    os.symlink(tree / "catalogue.toml", tree / "D251-7.2020-06-01" / "link.txt")
    assert tree_key(tree) is None
    with pytest.raises(CatalogueError, match="symbolic link"):
        load_catalogue(tree)


def test_the_loaders_sources_are_part_of_the_key(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = tree_key(tree)
    monkeypatch.setattr("api.catalogue.kept.sources_digest", lambda: "another legislation package")
    assert before is not None and tree_key(tree) not in (None, before)


@pytest.mark.parametrize("damage", ["truncated", "flipped", "garbage", "empty"])
def test_a_damaged_entry_is_loaded_again(cache: Path, loads: list[Path], damage: str) -> None:
    load_catalogue()
    [entry] = entries(cache)
    data = entry.read_bytes()
    damaged = {
        "truncated": data[: len(data) // 2],
        "flipped": data[:-100] + bytes([data[-100] ^ 0xFF]) + data[-99:],
        "garbage": b"\x80\x05garbage",
        "empty": b"",
    }[damage]
    entry.write_bytes(damaged)
    assert_same_catalogue(load_catalogue(), FRESH)
    assert len(loads) == 2
    assert entry.read_bytes() == data  # written again whole


def _called() -> None:
    CALLS.append("ran")


class Intruder:
    def __reduce__(self) -> tuple[object, tuple[()]]:
        return (_called, ())


def test_a_pickle_naming_any_other_global_is_refused_unrun(cache: Path, loads: list[Path]) -> None:
    load_catalogue()
    [entry] = entries(cache)
    key = entry.read_bytes()[len(MAGIC) + 32 : len(MAGIC) + 32 + 64]
    for hostile in (Intruder(), {"versions": [Intruder()]}, print, os.system):
        body = key + pickle.dumps(hostile, protocol=pickle.HIGHEST_PROTOCOL)
        data = MAGIC + hashlib.sha256(body).digest() + body  # a well-formed entry under the right key
        assert unpack(data, key.decode()) is None
        entry.write_bytes(data)
        assert_same_catalogue(load_catalogue(), FRESH)
    assert CALLS == []
    assert len(loads) == 5


def test_off_keeps_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, loads: list[Path]) -> None:
    monkeypatch.setenv("VIGUEUR_CACHE_DIR", "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    load_catalogue()
    load_catalogue()
    assert len(loads) == 2
    assert not (tmp_path / "xdg").exists()


def test_an_unwritable_cache_is_loaded_as_without(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("VIGUEUR_CACHE_DIR", str(blocker))
    assert_same_catalogue(load_catalogue(), FRESH)


def test_vigueur_calculate_and_batch_answer_the_same_from_the_cache(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, loads: list[Path]
) -> None:
    request = tmp_path / "request.json"
    request.write_text(
        '{"acquisition": "purchase", "invoice_date": "2020-07-15", "schemes": ["bonus"], "vehicle": {"category": '
        '"passenger_car", "energy": "electric", "co2_g_per_km": 0, "acquisition_cost": "20000.00"}, "buyer": '
        '{"person_kind": "natural_person"}}'
    )
    rows = tmp_path / "in.csv"
    rows.write_text(
        "id,acquisition,invoice_date,schemes,vehicle_category,vehicle_energy,vehicle_co2_g_per_km,"
        "vehicle_acquisition_cost,buyer_person_kind\n"
        "a1,purchase,2020-07-15,bonus,passenger_car,electric,0,20000.00,natural_person\n"
    )
    answers = []
    for setting in ("off", str(cache), str(cache)):  # without a cache, then cold, then warm
        monkeypatch.setenv("VIGUEUR_CACHE_DIR", setting)
        calculated = CliRunner().invoke(cli, ["calculate", str(request), "--json"])
        assert calculated.exit_code == 0, calculated.output
        out = tmp_path / "out.csv"
        batch = CliRunner().invoke(cli, ["batch", str(rows), "--out", str(out), "--workers", "1", "--quiet"])
        assert batch.exit_code == 0, batch.output
        answers.append((calculated.stdout, out.read_bytes()))
    assert answers[0] == answers[1] == answers[2]
    assert '"5400.00"' in answers[0][0] and b"5400.00" in answers[0][1]  # D. 251-7, 1°: 27 % of 20 000 €
    assert len(loads) == 3  # off: calculate and batch; cold: calculate, which kept it for batch; warm: none
