"""The law is data, byte for byte: every text on file is found verbatim in the shared legal sources."""

from __future__ import annotations

from pathlib import Path

import pytest

from api.catalogue.loader import DEFAULT_VERSIONS_DIR

SHARED = Path(__file__).resolve().parents[3] / "shared"


def _sources() -> list[bytes]:
    files = sorted((SHARED / "seeds").glob("*.txt")) + sorted((SHARED / "legal" / "texts").glob("*.txt"))
    return [f.read_bytes() for f in files]


@pytest.mark.skipif(not (SHARED / "seeds").is_dir(), reason="../shared (the legal sources) is not beside the checkout")
@pytest.mark.parametrize("folder", sorted(p.name for p in DEFAULT_VERSIONS_DIR.iterdir() if p.is_dir()))
def test_text_is_verbatim_in_a_shared_source(folder: str) -> None:
    text = (DEFAULT_VERSIONS_DIR / folder / "text.txt").read_bytes()
    assert text.strip(), "empty text"
    assert any(text in source for source in _sources()), f"{folder}/text.txt is not verbatim in ../shared"
