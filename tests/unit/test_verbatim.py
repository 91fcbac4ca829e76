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


def _says_not_on_file(folder: str) -> bool:
    return (DEFAULT_VERSIONS_DIR / folder / "text.txt").read_bytes().startswith(NOT_ON_FILE)


@pytest.mark.skipif(SHARED_MISSING, reason="../shared (the legal sources) is not beside the checkout")
@pytest.mark.parametrize("folder", [f for f in FOLDERS if not _says_not_on_file(f)])
def test_text_is_verbatim_in_a_shared_source(folder: str) -> None:
    text = (DEFAULT_VERSIONS_DIR / folder / "text.txt").read_bytes()
    assert text.strip(), "empty text"
    if b'provenance = "derived"' in (DEFAULT_VERSIONS_DIR / folder / "version.toml").read_bytes():
        preface, _, text = text.partition(b"\n\n")  # a derived version: a first paragraph says so, in brackets
        assert preface.startswith(b"[The wording of this version") and preface.endswith(b"]"), preface
    assert any(text in source for source in _sources()), f"{folder}/text.txt is not verbatim in ../shared"


@pytest.mark.skipif(SHARED_MISSING, reason="../shared (the legal sources) is not beside the checkout")
@pytest.mark.parametrize("folder", [f for f in FOLDERS if _says_not_on_file(f)])
def test_secondary_text_says_not_on_file_and_quotes_its_sources_verbatim(folder: str) -> None:
    """A version whose wording is not on file never invents one: it is graded ``secondary``, its text.txt opens by
    saying so, each line it quotes (« > ») is word for word in a history file or a text of ../shared/legal, and each
    parameter's paragraph names its source's confidence. (A secondary version may also hold a truncated official
    text: that one is held verbatim by the test above.)"""
    assert _provenance(folder) == "secondary", f"{folder}: a text said not on file must be graded secondary"
    text = (DEFAULT_VERSIONS_DIR / folder / "text.txt").read_bytes()
    history = [f.read_bytes() for f in sorted((SHARED / "legal" / "history").glob("*.md"))]
    quoted = [line[2:] for line in text.splitlines() if line.startswith(b"> ")]
    assert quoted, f"{folder}/text.txt quotes nothing"
    for line in quoted:
        assert any(line in source for source in history + _sources()), f"{folder}: {line!r} is not verbatim"
    parameters = tomllib.loads((DEFAULT_VERSIONS_DIR / folder / "version.toml").read_text()).get("parameters", {})
    for name, spec in parameters.items():
        assert CONFIDENCE.search(spec["paragraph"]), f"{folder}: parameters.{name}.paragraph names no confidence"


# Décret 2007-1873 (2008–2014): each text.txt is its file of shared/legal/texts, byte for byte, after the two header
# lines (« source: », « in force: ») and the title line « # Article N » of the etalab mirror, which are not the
# article's wording. A derived version's text is its bracketed first paragraph, then the later text it is read from.
ERA_2008 = {
    "decret-2007-1873-art3.2007-12-31": "decret-2007-1873-art3-v2007-12-31.txt",
    "decret-2007-1873-art3.2009-01-21": "decret-2007-1873-art3-v2009-01-21.txt",
    "decret-2007-1873-art3.2009-12-20": "decret-2007-1873-art3-v2009-12-20-or-2010-05-06.txt",
    "decret-2007-1873-art3.2010-05-06": "decret-2007-1873-art3-v2013-11-01.txt",
    "decret-2007-1873-art3.2010-12-27": "decret-2007-1873-art3-v2013-11-01.txt",
    "decret-2007-1873-art3.2011-03-25": "decret-2007-1873-art3-v2013-11-01.txt",
    "decret-2007-1873-art3.2012-01-01": "decret-2007-1873-art3-v2012-01-01.txt",
    "decret-2007-1873-art3.2012-08-01": "decret-2007-1873-art3-v2013-11-01.txt",
    "decret-2007-1873-art3.2013-01-01": "decret-2007-1873-art3-v2013-11-01.txt",
    "decret-2007-1873-art3.2013-11-01": "decret-2007-1873-art3-v2013-11-01.txt",
    "decret-2007-1873-art3.2014-06-30": "decret-2007-1873-art3-v2014-06-30.txt",
    "decret-2007-1873-art1.2007-12-31": "decret-2007-1873-art1-v2007-12-31.txt",
    "decret-2007-1873-art1.2009-01-21": "decret-2007-1873-art1-v2009-01-21.txt",
    "decret-2007-1873-art1.2013-11-01": "decret-2007-1873-art1-v2013-11-01.txt",
    "decret-2007-1873-art10.2013-11-01": "decret-2007-1873-art10-v2013-11-01.txt",
    "decret-2007-1873-art11.2007-12-31": "decret-2007-1873-art11-v2007-12-31.txt",
    "decret-2007-1873-art11.2009-01-21": "decret-2007-1873-art11-v2009-01-21.txt",
    "decret-2007-1873-art4.2011-01-01": "decret-2007-1873-art4-v2012-01-01.txt",  # derived (issue 12)
}


@pytest.mark.skipif(not (SHARED / "legal").is_dir(), reason="../shared (the legal sources) is not beside the checkout")
@pytest.mark.parametrize(("folder", "source"), sorted(ERA_2008.items()))
def test_era_2008_text_is_its_source_file_after_the_header(folder: str, source: str) -> None:
    lines = (SHARED / "legal" / "texts" / source).read_bytes().split(b"\n")
    assert lines[0].startswith(b"source: ") and lines[1].startswith(b"in force: ") and lines[2] == b""
    assert lines[3].startswith(b"# Article ") and lines[4] == b""
    wording = b"\n".join(lines[5:])
    text = (DEFAULT_VERSIONS_DIR / folder / "text.txt").read_bytes()
    if text.startswith(b"[The wording of this version"):
        text = text.split(b"\n\n", 1)[1]
    assert text == wording


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
