"""The law is data, byte for byte: every text on file is found verbatim in the shared legal sources."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from api.catalogue.loader import DEFAULT_VERSIONS_DIR

SHARED = Path(__file__).resolve().parents[3] / "shared"


def _sources() -> list[bytes]:
    files = sorted((SHARED / "seeds").glob("*.txt")) + sorted((SHARED / "legal" / "texts").glob("*.txt"))
    return [f.read_bytes() for f in files]


NOT_ON_FILE = b"OFFICIAL WORDING NOT ON FILE."
CONFIDENCE = re.compile(r"\b(confirmed|likely|guess)\b")
SHARED_MISSING = not (SHARED / "seeds").is_dir()
FOLDERS = sorted(p.name for p in DEFAULT_VERSIONS_DIR.iterdir() if p.is_dir())


def _provenance(folder: str) -> str:
    return str(tomllib.loads((DEFAULT_VERSIONS_DIR / folder / "version.toml").read_text())["provenance"])


@pytest.mark.skipif(SHARED_MISSING, reason="../shared (the legal sources) is not beside the checkout")
@pytest.mark.parametrize("folder", [f for f in FOLDERS if _provenance(f) != "secondary"])
def test_text_is_verbatim_in_a_shared_source(folder: str) -> None:
    text = (DEFAULT_VERSIONS_DIR / folder / "text.txt").read_bytes()
    assert text.strip(), "empty text"
    assert not text.startswith(NOT_ON_FILE), f"{folder}: a text said not on file must be graded secondary"
    assert any(text in source for source in _sources()), f"{folder}/text.txt is not verbatim in ../shared"


@pytest.mark.skipif(SHARED_MISSING, reason="../shared (the legal sources) is not beside the checkout")
@pytest.mark.parametrize("folder", [f for f in FOLDERS if _provenance(f) == "secondary"])
def test_secondary_text_says_not_on_file_and_quotes_its_sources_verbatim(folder: str) -> None:
    """A ``secondary`` version never invents a wording: its text.txt opens by saying the official wording is not
    on file, and each line it quotes (« > ») is word for word in a history file or a text of ../shared/legal;
    each parameter's paragraph names its source's confidence."""
    text = (DEFAULT_VERSIONS_DIR / folder / "text.txt").read_bytes()
    assert text.startswith(NOT_ON_FILE), f"{folder}/text.txt must open with {NOT_ON_FILE!r}"
    history = [f.read_bytes() for f in sorted((SHARED / "legal" / "history").glob("*.md"))]
    quoted = [line[2:] for line in text.splitlines() if line.startswith(b"> ")]
    assert quoted, f"{folder}/text.txt quotes nothing"
    for line in quoted:
        assert any(line in source for source in history + _sources()), f"{folder}: {line!r} is not verbatim"
    parameters = tomllib.loads((DEFAULT_VERSIONS_DIR / folder / "version.toml").read_text()).get("parameters", {})
    for name, spec in parameters.items():
        assert CONFIDENCE.search(spec["paragraph"]), f"{folder}: parameters.{name}.paragraph names no confidence"
