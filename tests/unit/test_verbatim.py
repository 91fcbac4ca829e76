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


# Each version added from a file of ../shared/legal/texts, held against that file (its header lines — source,
# period, the « # Article N » title — are not the article's wording and are not in text.txt).
OWN_SOURCE = {
    "decret-2014-1672-art2.2015-01-01": "decret-2014-1672-art2-v2015-01-01.txt",
    "decret-2014-1672-art2.2015-04-01": "decret-2014-1672-art2-v2015-04-01.txt",
    "decret-2007-1873-art4.2007-12-31": "decret-2007-1873-art4-v2007-12-31.txt",
    "decret-2007-1873-art4.2009-01-21": "decret-2007-1873-art4-v2009-01-21.txt",
    "decret-2007-1873-art4.2012-01-01": "decret-2007-1873-art4-v2012-01-01.txt",
    "decret-2009-66-art12.2009-01-21": "decret-2009-66-art12-v2009-01-21.txt",
    "decret-2009-66-art12.2009-12-20": "decret-2009-66-art12-v2009-12-20-extrait.txt",  # truncated in the source
}


@pytest.mark.skipif(not (SHARED / "legal" / "texts").is_dir(), reason="../shared/legal/texts is not beside us")
@pytest.mark.parametrize(("folder", "source"), sorted(OWN_SOURCE.items()))
def test_text_is_verbatim_in_its_own_source_file(folder: str, source: str) -> None:
    text = (DEFAULT_VERSIONS_DIR / folder / "text.txt").read_bytes()
    assert text.strip() and text in (SHARED / "legal" / "texts" / source).read_bytes()
