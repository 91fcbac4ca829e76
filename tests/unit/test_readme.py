"""The README stays true: every version on file is listed, the two commands are there."""

from __future__ import annotations

from pathlib import Path

from legislation import Catalogue

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")


def test_readme_lists_every_version_on_file(catalogue: Catalogue) -> None:
    missing = [
        v
        for v in catalogue.versions
        if f"`{v}`" not in README
        and not (v.startswith("D251-1") and "`D251-9.2017-01-01` … `D251-13.2017-01-01`" in README)
    ]
    assert missing == []


def test_readme_has_the_two_commands() -> None:
    assert "pip install -e . && vigueur serve" in README
    assert "bash .ci/run" in README
