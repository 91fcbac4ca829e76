"""The cache of compiled calculators (api.kernel_cache, legislation.fast.stored): a kernel read from it gives what
the explained path gives; another source, other numbers, a damaged entry or an unwritable directory is a miss,
compiled as without a cache; ``VIGUEUR_CACHE_DIR=off`` turns it off. Every test has a cache directory of its own."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

import legislation.fast.compile as compile_module
import legislation.fast.stored as stored
from api.cases.files import load_cases
from api.catalogue.loader import load_catalogue
from api.cli.main import app as cli
from api.kernel_cache import FileStore, cache_dir, form_store
from api.purchase.render import to_purchase
from legislation.errors import InvalidFacts
from legislation.fast import Engine, Outcome, Row, explained_outcome
from legislation.fast.compile import Compiler, form_key
from legislation.fast.stored import pack, package_digest, slot_of

CATALOGUE = load_catalogue()
CALCULATED = sorted(v.id for v in CATALOGUE.versions.values() if v.calculator is not None)
REGRESSION = Path(__file__).resolve().parents[1] / "regression"


def _rows() -> list[tuple[Row, list[Outcome]]]:
    """The regression corpus's requests as rows, each with what the explained path gives for each scheme."""
    found = []
    for case in load_cases([REGRESSION]):
        purchase = to_purchase(case.request)
        row = Row.from_purchase(purchase)
        try:
            found.append((row, [explained_outcome(CATALOGUE, row, s) for s in purchase.schemes]))
        except InvalidFacts:
            continue
    return found


ROWS = _rows()


@pytest.fixture(autouse=True)
def _no_forms_in_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each engine compiles or reads the store: not the forms this process already made."""
    monkeypatch.setattr(compile_module, "_FORMS", {})


@pytest.fixture
def generated(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The titles of the modules rewritten (generated, not read from a store) from now on."""
    titles: list[str] = []
    generate = Compiler._generate

    def counted(self: Compiler, functions: list[object], source: str, module: object, title: str) -> object:
        titles.append(title)
        return generate(self, functions, source, module, title)  # type: ignore[arg-type]

    monkeypatch.setattr(Compiler, "_generate", counted)
    return titles


def new_engine(store: FileStore | None) -> Engine:
    compile_module._FORMS.clear()
    engine = Engine(CATALOGUE, store)
    assert engine.compile_errors == {}
    return engine


def assert_explained_outcomes(engine: Engine) -> None:
    assert len(ROWS) > 250
    for row, expected in ROWS:
        assert engine.outcomes(row) == expected


def test_a_kernel_read_from_the_cache_gives_the_outcomes_of_the_explained_path(
    tmp_path: Path, generated: list[str]
) -> None:
    store = FileStore(tmp_path)
    new_engine(store)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(f"{slot_of(v)}.form" for v in CALCULATED)
    assert len(generated) > len(CALCULATED)  # the kit and at least one module per version
    generated.clear()
    engine = new_engine(store)
    assert generated == []  # every form read from the cache, nothing rewritten
    assert set(engine.compiled_forms.values()) == {"compiled"}
    assert_explained_outcomes(engine)


def test_a_lazy_engine_compiles_each_kernel_at_its_first_call_and_gives_the_explained_outcomes(
    tmp_path: Path, generated: list[str]
) -> None:
    """Engine(lazy=True), as `vigueur batch` makes it: nothing compiled nor stored when made; a kernel compiled (and
    stored) when a row first calls it, once; every row's outcomes those of the explained path."""
    store = FileStore(tmp_path)
    compile_module._FORMS.clear()
    engine = Engine(CATALOGUE, store, lazy=True)
    assert engine.compiled_forms == {} and generated == [] and list(tmp_path.iterdir()) == []
    for row, expected in ROWS:  # up to the first row that calls a kernel (not a gap, nor an ended aid)
        assert engine.outcomes(row) == expected
        if engine.compiled_forms:
            break
    first = dict(engine.compiled_forms)
    assert 1 <= len(first) < len(CALCULATED) and set(first.values()) == {"compiled"}
    assert len(list(tmp_path.iterdir())) == len(first)  # stored, as an eager engine stores them
    made = len(generated)
    assert engine.outcomes(row) == expected and len(generated) == made  # not compiled again
    assert_explained_outcomes(engine)
    assert engine.compile_errors == {}


def test_a_form_read_from_the_cache_is_the_generated_one(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    for vid in CALCULATED:
        made = compile_module.compile_version(CATALOGUE.versions[vid], CATALOGUE, store)
        compile_module._FORMS.clear()
        read = compile_module.compile_version(CATALOGUE.versions[vid], CATALOGUE, store)
        assert made.trees and not read.trees  # the second one was not generated
        assert read.left == made.left
        assert (read.fused is None) == (made.fused is None)
        if made.fused is not None:
            assert read.fused.__code__.co_code == made.fused.__code__.co_code
            assert read.fused.__code__.co_filename == made.fused.__code__.co_filename


def test_other_sources_are_a_miss(tmp_path: Path, generated: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    store = FileStore(tmp_path)
    new_engine(store)
    monkeypatch.setattr(stored, "sources_digest", lambda: "the sources as edited")
    generated.clear()
    engine = new_engine(store)
    assert len(generated) > len(CALCULATED)  # compiled again: the entries were made from other sources
    assert_explained_outcomes(engine)
    generated.clear()
    new_engine(store)
    assert generated == []  # and kept for these sources


def test_the_sources_digest_changes_with_any_source_file(tmp_path: Path) -> None:
    package = tmp_path / "package"
    (package / "calculators").mkdir(parents=True)
    (package / "compile.py").write_text("RULES = 1\n")
    (package / "calculators" / "kit.py").write_text("CAP = 7000\n")
    before = package_digest(package)
    (package / "calculators" / "kit.py").write_text("CAP = 6000\n")
    changed = package_digest(package)
    (package / "calculators" / "kit.py").write_text("CAP = 7000\n")
    (package / "calculators" / "new.py").write_text("")
    added = package_digest(package)
    assert len({before, changed, added}) == 3
    (package / "calculators" / "new.py").unlink()
    assert package_digest(package) == before


def test_other_numbers_are_another_key() -> None:
    version = CATALOGUE.versions[CALCULATED[-1]]
    name, parameter = sorted(version.parameters.items())[0]
    changed = dataclasses.replace(
        version, parameters={**version.parameters, name: dataclasses.replace(parameter, value=parameter.value + 1)}
    )
    assert form_key(Compiler(version, CATALOGUE)) == form_key(Compiler(version, CATALOGUE))
    assert form_key(Compiler(changed, CATALOGUE)) != form_key(Compiler(version, CATALOGUE))


def _valid_but_wrong(data: bytes, vid: str) -> bytes:
    """An entry whose checksum and key are right, whose steps are not the calculator's."""
    key = form_key(Compiler(CATALOGUE.versions[vid], CATALOGUE))
    assert key is not None
    return pack(key, ((("kit.Ctx rules", "nowhere", (), compile("", "x", "exec"), (), ()),), None))


DAMAGES: dict[str, Callable[[bytes, str], bytes]] = {
    "truncated": lambda data, vid: data[: len(data) // 2],
    "a byte changed": lambda data, vid: data[:-10] + bytes([data[-10] ^ 1]) + data[-9:],
    "empty": lambda data, vid: b"",
    "not an entry": lambda data, vid: b"\x00garbage" * 100,
    "another version's": lambda data, vid: data,  # (the slots swapped: see the test)
    "valid but wrong": _valid_but_wrong,
}


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_a_damaged_entry_is_compiled_again(tmp_path: Path, generated: list[str], damage: str) -> None:
    store = FileStore(tmp_path)
    new_engine(store)
    entries = {vid: store.path(slot_of(vid)) for vid in CALCULATED}
    if damage == "another version's":  # each slot holds the entry of the next version
        contents = [entries[vid].read_bytes() for vid in CALCULATED]
        for vid, data in zip(CALCULATED, contents[1:] + contents[:1], strict=True):
            entries[vid].write_bytes(data)
    else:
        for vid, path in entries.items():
            path.write_bytes(DAMAGES[damage](path.read_bytes(), vid))
    generated.clear()
    engine = new_engine(store)
    assert len(generated) > len(CALCULATED)
    assert set(engine.compiled_forms.values()) == {"compiled"}
    assert_explained_outcomes(engine)
    generated.clear()
    new_engine(store)
    assert generated == []  # the damaged entries were replaced


def test_an_unwritable_cache_directory_compiles(tmp_path: Path, generated: list[str]) -> None:
    (tmp_path / "a file").write_text("not a directory")
    store = FileStore(tmp_path / "a file" / "kernels")
    for _ in range(2):
        generated.clear()
        engine = new_engine(store)
        assert len(generated) > len(CALCULATED)
    assert_explained_outcomes(engine)


def test_the_cache_directory_is_chosen_by_the_environment(tmp_path: Path) -> None:
    assert cache_dir({"VIGUEUR_CACHE_DIR": str(tmp_path / "c"), "XDG_CACHE_HOME": "/x"}) == tmp_path / "c"
    assert cache_dir({"XDG_CACHE_HOME": str(tmp_path)}) == tmp_path / "vigueur"
    assert cache_dir({"VIGUEUR_CACHE_DIR": "", "XDG_CACHE_HOME": str(tmp_path)}) == tmp_path / "vigueur"
    for off in ("off", "OFF", "0", "none", "false", "no"):
        assert cache_dir({"VIGUEUR_CACHE_DIR": off, "XDG_CACHE_HOME": str(tmp_path)}) is None
        assert form_store({"VIGUEUR_CACHE_DIR": off}) is None
    found = form_store({"VIGUEUR_CACHE_DIR": str(tmp_path)})
    assert isinstance(found, FileStore) and found.directory == tmp_path / "kernels"


def _batch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cache: str, name: str) -> bytes:
    monkeypatch.setenv("VIGUEUR_CACHE_DIR", cache)
    compile_module._FORMS.clear()
    source = tmp_path / "in.csv"
    source.write_text(
        "id,acquisition,invoice_date,schemes,vehicle_category,vehicle_energy,vehicle_co2_g_per_km,"
        "vehicle_acquisition_cost,buyer_person_kind\n"
        "a1,purchase,2020-07-15,bonus,passenger_car,electric,0,20000.00,natural_person\n"
        "a2,purchase,2017-01-10,bonus|conversion_premium,passenger_car,electric,0,30000,legal_person\n"
    )
    out = tmp_path / name
    result = CliRunner().invoke(cli, ["batch", str(source), "--out", str(out), "--workers", "1"])
    assert result.exit_code == 0, result.output
    return out.read_bytes()


def test_vigueur_batch_writes_the_cache_and_reads_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    without = _batch(tmp_path, monkeypatch, "off", "off.csv")
    assert not (tmp_path / "xdg").exists()  # off: nothing written anywhere
    cache = tmp_path / "cache"
    cold = _batch(tmp_path, monkeypatch, str(cache), "cold.csv")
    # the kernels the run called, each compiled at its first call (Engine(lazy=True): api/batch/arrow_run.setup)
    assert 0 < len(list((cache / "kernels").iterdir())) <= len(CALCULATED)
    warm = _batch(tmp_path, monkeypatch, str(cache), "warm.csv")
    assert cold == warm == without
    assert b"5400.00" in without  # D. 251-7, 1°: 27 % of 20 000 €


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="file owners and modes are POSIX")
def test_an_entry_others_may_write_is_not_read(tmp_path: Path, generated: list[str]) -> None:
    store = FileStore(tmp_path)
    new_engine(store)
    for path in tmp_path.iterdir():
        path.chmod(0o666)
    generated.clear()
    new_engine(store)
    assert len(generated) > len(CALCULATED)  # compiled again (and the entries written again, this user's only)
    assert all(path.stat().st_mode & 0o022 == 0 for path in tmp_path.iterdir())
    generated.clear()
    new_engine(store)
    assert generated == []
