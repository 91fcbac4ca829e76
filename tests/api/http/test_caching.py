"""ETag and Cache-Control on the catalogue's texts (api/http/caching.py): the tag is the SHA-256 of the answer's
bytes (first 32 hex digits, quoted), ``If-None-Match`` naming it gives 304 with no body, a correction gives new
bytes and a new tag, and the catalogue as known at a settled past instant may be kept for a year."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from sqlmodel import Session

from api.catalogue import store
from api.catalogue.store import CACHE, load_into
from tests.api.http.test_knowledge_time import client_of
from tests.api.support import REFERENCE, SUCCESSOR, sqlite_engine

T0 = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)  # the load
T1 = datetime(2024, 5, 1, 8, 0, tzinfo=UTC)  # the correction
PATHS = (
    f"/v1/versions/{REFERENCE}",
    f"/v1/versions/{REFERENCE}/diff/{SUCCESSOR}",
    "/v1/versions",
    "/v1/articles/D251-7/versions",
    "/v1/schemes/bonus/versions",
)


@pytest.fixture
def engine(fixture_tree: Path) -> Iterator[Engine]:
    CACHE.clear()
    engine = sqlite_engine()
    load_into(engine, fixture_tree, now=T0)
    yield engine
    engine.dispose()
    CACHE.clear()


@pytest.fixture
def client(engine: Engine) -> TestClient:
    return client_of(engine)


def tag_of(content: bytes) -> str:
    return '"' + hashlib.sha256(content).hexdigest()[:32] + '"'


@pytest.mark.parametrize("path", PATHS)
def test_the_etag_is_the_hash_of_the_bytes_and_if_none_match_gives_304(client: TestClient, path: str) -> None:
    answer = client.get(path)
    assert answer.status_code == 200
    tag = tag_of(answer.content)
    assert answer.headers["etag"] == tag
    assert answer.headers["cache-control"] == "public, no-cache"  # the latest knowledge: ask again each time
    for asked in (tag, f"W/{tag}", f'"0123", {tag}', "*"):
        again = client.get(path, headers={"if-none-match": asked})
        assert again.status_code == 304, asked
        assert again.content == b""
        assert again.headers["etag"] == tag
        assert again.headers["x-vigueur-catalogue-load"] == answer.headers["x-vigueur-catalogue-load"]
    other = client.get(path, headers={"if-none-match": '"0123456789abcdef0123456789abcdef"'})
    assert (other.status_code, other.content) == (200, answer.content)


def test_two_versions_have_two_tags(client: TestClient) -> None:
    one, two = client.get(f"/v1/versions/{REFERENCE}"), client.get(f"/v1/versions/{SUCCESSOR}")
    assert one.headers["etag"] != two.headers["etag"]


def test_a_correction_gives_new_bytes_and_a_new_tag(client: TestClient, engine: Engine, fixture_tree: Path) -> None:
    path = f"/v1/versions/{SUCCESSOR}"
    before = client.get(path)
    meta = (fixture_tree / SUCCESSOR / "version.toml").read_text(encoding="utf-8")
    text = (fixture_tree / SUCCESSOR / "text.txt").read_text(encoding="utf-8")
    corrected = store.version_from_files(
        meta.replace("6 000 euros", "6 300 euros").replace('value = "6000"', 'value = "6300"'),
        text.replace("6 000 euros", "6 300 euros"),
    )
    with Session(engine) as session:
        store.record_correction(session, corrected, origin="erratum", now=T1)
        session.commit()
    after = client.get(path)
    assert "6 300 euros" in after.json()["text"]
    assert after.headers["etag"] == tag_of(after.content) != before.headers["etag"]
    assert client.get(path, headers={"if-none-match": before.headers["etag"]}).status_code == 200
    # the catalogue as known before the correction (2024-04-15, settled): the old bytes, kept for a year
    old = client.get(f"{path}?known_at=2024-04-15T12:00:00Z")
    assert old.content == before.content and old.headers["etag"] == before.headers["etag"]
    assert old.headers["cache-control"] == "public, max-age=31536000, immutable"


def test_calculate_is_not_cached(client: TestClient) -> None:
    answer = client.post(
        "/v1/calculate",
        content=b'{"acquisition": "purchase", "invoice_date": "2020-07-15"}',
        headers={"content-type": "application/json"},
    )
    assert answer.status_code == 200
    assert "etag" not in answer.headers and "cache-control" not in answer.headers
