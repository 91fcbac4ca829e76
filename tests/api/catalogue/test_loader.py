"""The strict loader of versions/: every rule fails with the file and the field named."""

from __future__ import annotations

import os
import shutil
from decimal import Decimal
from pathlib import Path

import pytest

from api.catalogue.loader import DEFAULT_VERSIONS_DIR, MAX_TEXT_BYTES, load_catalogue
from legislation import CatalogueError, Energy, Scheme, VehicleCategory, calculate
from tests.builders import purchase

REFERENCE = "D251-7.2020-06-01"


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A one-version catalogue copied from the real one, to break in each test."""
    shutil.copytree(DEFAULT_VERSIONS_DIR / REFERENCE, tmp_path / REFERENCE)
    return tmp_path


def edit(tree: Path, old: str, new: str, name: str = "version.toml", version: str = REFERENCE) -> None:
    path = tree / version / name
    text = path.read_text(encoding="utf-8")
    assert old in text, f"test setup: {old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def load_error(tree: Path) -> CatalogueError:
    with pytest.raises(CatalogueError) as caught:
        load_catalogue(tree)
    return caught.value


def test_reference_tree_loads(tree: Path) -> None:
    catalogue = load_catalogue(tree)
    assert list(catalogue.versions) == [REFERENCE]
    assert catalogue.get(REFERENCE).content_hash.startswith("sha256:")


def test_unknown_key_is_named(tree: Path) -> None:
    edit(tree, 'role = "amounts"', 'role = "amounts"\ncolour = "blue"')
    err = load_error(tree)
    assert err.field == "colour" and err.path.endswith("version.toml")


def test_unknown_key_in_a_parameter_is_named(tree: Path) -> None:
    edit(tree, 'l_cap = { value = "900",', 'l_cap = { currency = "EUR", value = "900",')
    err = load_error(tree)
    assert err.field == "parameters.l_cap.currency" and "allowed: notion, paragraph, quote, unit, value" in str(err)


def test_missing_source_is_an_error(tree: Path) -> None:
    toml = (tree / REFERENCE / "version.toml").read_text(encoding="utf-8")
    start = toml.index("[source]")
    end = toml.index("[parameters]")
    (tree / REFERENCE / "version.toml").write_text(toml[:start] + toml[end:], encoding="utf-8")
    assert load_error(tree).field == "source"


def test_missing_calculator_on_an_amounts_text(tree: Path) -> None:
    edit(tree, 'calculator = "bonus_2020_06_01"\n', "")
    assert load_error(tree).field == "calculator"


def test_unregistered_calculator(tree: Path) -> None:
    edit(tree, 'calculator = "bonus_2020_06_01"', 'calculator = "bonus_1999_01_01"')
    err = load_error(tree)
    assert err.field == "calculator" and "bonus_1999_01_01" in str(err)


def test_parameter_the_calculator_needs_is_missing(tree: Path) -> None:
    # Parameters are declared once, in version.toml: the calculator does not list them, so a lone version that
    # lacks one is named when a calculation reaches it (tests/property/test_parameters.py proves on the corpus
    # that the versions on file lack none)…
    edit(tree, 'l_cap = { value = "900", unit = "euro", paragraph = "4° b)", quote = "b) 900 euros." }\n', "")
    catalogue = load_catalogue(tree)
    l_vehicle = purchase(
        "2020-07-15",
        category=VehicleCategory.TWO_THREE_WHEELER,
        energy=Energy.ELECTRIC,
        uses_lead_battery=False,
        net_max_power_kw=Decimal("4"),
        battery_energy_kwh=Decimal("3"),
        acquisition_cost="3000",
    )
    with pytest.raises(CatalogueError) as caught:
        calculate(catalogue, l_vehicle, Scheme.BONUS)
    assert caught.value.field == "parameters.l_cap" and REFERENCE in caught.value.path


def test_parameter_another_version_of_the_same_calculator_gives_is_missing(tree: Path) -> None:
    # … and refused by the loader when another version computed by the same calculator gives it.
    twin = "D251-7.2021-01-21"
    shutil.copytree(tree / REFERENCE, tree / twin)
    edit(tree, 'id = "D251-7.2020-06-01"', f'id = "{twin}"', version=twin)
    edit(tree, "valid_from = 2020-06-01\nvalid_until = 2021-01-21", "valid_from = 2021-01-21", version=twin)
    edit(tree, 'l_cap = { value = "900", unit = "euro", paragraph = "4° b)", quote = "b) 900 euros." }\n', "")
    error = load_error(tree)
    assert error.field == "parameters.l_cap" and REFERENCE in error.path


def test_quote_not_in_text(tree: Path) -> None:
    edit(tree, 'quote = "b) 900 euros."', 'quote = "b) 1 000 euros."')
    assert load_error(tree).field == "parameters.l_cap.quote"


def test_text_changed_so_a_quote_no_longer_matches(tree: Path) -> None:
    edit(tree, "b) 900 euros.", "b) 950 euros.", name="text.txt")
    assert load_error(tree).field == "parameters.l_cap.quote"


def test_value_must_be_a_decimal_string(tree: Path) -> None:
    edit(tree, 'l_cap = { value = "900"', 'l_cap = { value = "nine hundred"')
    assert load_error(tree).field == "parameters.l_cap.value"


def test_id_must_match_folder(tree: Path) -> None:
    edit(tree, 'id = "D251-7.2020-06-01"', 'id = "D251-7.2020-06-02"')
    assert load_error(tree).field == "id"


def test_period_must_be_positive(tree: Path) -> None:
    edit(tree, "valid_until = 2021-01-21", "valid_until = 2020-06-01")
    assert load_error(tree).field == "valid_until"


def test_dates_must_be_toml_dates(tree: Path) -> None:
    edit(tree, "valid_from = 2020-06-01", 'valid_from = "2020-06-01"')
    assert load_error(tree).field == "valid_from"


def test_overlapping_versions_of_a_scheme(tree: Path) -> None:
    twin = "D251-7.2020-12-01"
    shutil.copytree(tree / REFERENCE, tree / twin)
    edit(tree, 'id = "D251-7.2020-06-01"', f'id = "{twin}"', version=twin)
    edit(tree, "valid_from = 2020-06-01", "valid_from = 2020-12-01", version=twin)
    edit(tree, "valid_until = 2021-01-21", "valid_until = 2021-06-01", version=twin)
    err = load_error(tree)
    assert err.field == "valid_from" and "overlaps" in str(err) and twin in err.path


def test_undeclared_gap_is_refused_and_a_declared_one_accepted(tree: Path) -> None:
    later = "D251-7.2022-01-01"
    shutil.copytree(tree / REFERENCE, tree / later)
    edit(tree, 'id = "D251-7.2020-06-01"', f'id = "{later}"', version=later)
    edit(tree, "valid_from = 2020-06-01", "valid_from = 2022-01-01", version=later)
    edit(tree, "valid_until = 2021-01-21", "valid_until = 2022-06-01", version=later)
    err = load_error(tree)
    assert err.field == "gaps" and "2021-01-21" in str(err)
    (tree / "catalogue.toml").write_text(
        '[[gaps]]\nscheme = "bonus"\nstart = 2021-01-21\nend = 2022-01-01\nreason = "not on file"\n', encoding="utf-8"
    )
    catalogue = load_catalogue(tree)
    gap = catalogue.timeline(Scheme.BONUS).gap_on(__import__("datetime").date(2021, 6, 1))
    assert gap is not None and gap.reason == "not on file"


def test_declared_gap_may_not_overlap_a_version(tree: Path) -> None:
    (tree / "catalogue.toml").write_text(
        '[[gaps]]\nscheme = "bonus"\nstart = 2020-01-01\nend = 2020-07-01\nreason = "wrong"\n', encoding="utf-8"
    )
    assert "overlaps" in str(load_error(tree))


def test_missing_text_file(tree: Path) -> None:
    (tree / REFERENCE / "text.txt").unlink()
    assert "text.txt" in load_error(tree).path


def test_invalid_toml_is_reported(tree: Path) -> None:
    edit(tree, 'role = "amounts"', 'role = "amounts')
    assert "TOML" in str(load_error(tree))


def test_hash_changes_with_text_and_metadata(tree: Path) -> None:
    before = load_catalogue(tree).get(REFERENCE).content_hash
    edit(tree, "Seed 000.", "Seed 000 (reviewed).")  # a comment: not metadata, same hash
    assert load_catalogue(tree).get(REFERENCE).content_hash == before
    edit(tree, 'period_confidence = "confirmed"', 'period_confidence = "likely"')
    after_meta = load_catalogue(tree).get(REFERENCE).content_hash
    assert after_meta != before
    edit(tree, "Le montant de l'aide", "Le montant  de l'aide", name="text.txt")
    assert load_catalogue(tree).get(REFERENCE).content_hash != after_meta


def test_every_text_on_file_is_verbatim_utf8_without_added_newline() -> None:
    for folder in DEFAULT_VERSIONS_DIR.iterdir():
        if folder.is_dir():
            raw = (folder / "text.txt").read_bytes()
            raw.decode("utf-8")
            assert not raw.endswith(b"\n\n"), folder.name


# -- every number proved against its text (issue 9) ----------------------------------------------------


def test_a_value_that_contradicts_its_quote_is_refused(tree: Path) -> None:
    edit(tree, 'ev_cap_natural = { value = "7000"', 'ev_cap_natural = { value = "7500"')
    err = load_error(tree)
    assert err.path.endswith(f"{REFERENCE}/version.toml")
    assert err.field == "parameters.ev_cap_natural.value"
    assert "7500" in str(err) and "dans la limite de 7 000 euros" in str(err)


def test_a_rate_must_be_written_as_its_percentage(tree: Path) -> None:
    edit(tree, 'l_rate = { value = "0.27"', 'l_rate = { value = "0.28"')
    err = load_error(tree)
    assert err.field == "parameters.l_rate.value" and "28 %" in str(err)


def test_the_unit_is_required_and_from_the_closed_set(tree: Path) -> None:
    edit(tree, 'l_cap = { value = "900", unit = "euro",', 'l_cap = { value = "900",')
    assert load_error(tree).field == "parameters.l_cap.unit"
    edit(tree, 'l_cap = { value = "900",', 'l_cap = { value = "900", unit = "EUR",')
    err = load_error(tree)
    assert err.field == "parameters.l_cap.unit" and "'euro'" in str(err)


def test_a_wrong_unit_is_caught_by_the_number_check(tree: Path) -> None:
    edit(tree, 'l_cap = { value = "900", unit = "euro",', 'l_cap = { value = "900", unit = "month",')
    assert load_error(tree).field == "parameters.l_cap.value"


def test_every_parameter_on_file_is_written_in_its_quote() -> None:
    catalogue = load_catalogue()
    parameters = [p for v in catalogue.versions.values() for p in v.parameters.values()]
    assert len(parameters) >= 100 and all(p.unit for p in parameters)


# -- the versions tree holds regular files only, texts of bounded size (issue 10) ----------------------


def test_a_text_that_is_a_symbolic_link_is_refused(tree: Path) -> None:
    text = tree / REFERENCE / "text.txt"
    copy = tree / "elsewhere.txt"
    copy.write_bytes(text.read_bytes())  # the same words: only the link is wrong
    text.unlink()
    text.symlink_to(copy)
    err = load_error(tree)
    assert err.path == str(text) and "symbolic link" in str(err)


def test_a_link_to_proc_environ_is_refused(tree: Path) -> None:
    text = tree / REFERENCE / "text.txt"
    text.unlink()
    text.symlink_to("/proc/self/environ")
    err = load_error(tree)
    assert err.path == str(text) and "symbolic link" in str(err)


def test_a_version_folder_that_is_a_link_is_refused(tree: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    outside = tmp_path_factory.mktemp("outside") / REFERENCE
    (tree / REFERENCE).rename(outside)
    (tree / REFERENCE).symlink_to(outside, target_is_directory=True)
    err = load_error(tree)
    assert err.path == str(tree / REFERENCE) and "symbolic link" in str(err)


def test_a_special_file_in_the_tree_is_refused(tree: Path) -> None:
    fifo = tree / REFERENCE / "notes.fifo"
    os.mkfifo(fifo)
    err = load_error(tree)
    assert err.path == str(fifo) and "regular file" in str(err)


def test_a_text_above_the_cap_is_refused(tree: Path) -> None:
    text = tree / REFERENCE / "text.txt"
    text.write_bytes(text.read_bytes() + b" " * MAX_TEXT_BYTES)
    err = load_error(tree)
    assert err.path == str(text) and f"larger than {MAX_TEXT_BYTES} bytes" in str(err)
