"""Fixtures of the store tests: the fixture tree (files, built once) and an engine per backend (per test)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import Engine

from api.catalogue.store import CACHE
from tests.api.support import BACKENDS, build_tree, engine_for


@pytest.fixture(scope="session")
def fixture_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_tree(tmp_path_factory.mktemp("tree") / "versions")


@pytest.fixture(params=BACKENDS)
def engine(request: pytest.FixtureRequest) -> Iterator[Engine]:
    with engine_for(request.param) as engine:
        yield engine


@pytest.fixture(autouse=True)
def _empty_cache() -> Iterator[None]:
    CACHE.clear()
    yield
    CACHE.clear()
