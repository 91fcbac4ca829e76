"""The SQLModel-docs fixture pair: an in-memory SQLite session holding the fixture tree, and a client whose
app uses it through ``app.dependency_overrides`` (both function-scoped)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session

from api.catalogue.store import CACHE, load_tree
from api.http.app import create_app
from api.http.deps import get_session
from tests.api.support import build_tree, sqlite_engine


@pytest.fixture(scope="session")
def fixture_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_tree(tmp_path_factory.mktemp("tree") / "versions")


@pytest.fixture(name="session")
def session_fixture(fixture_tree: Path) -> Iterator[Session]:
    engine = sqlite_engine()
    with Session(engine) as session:
        load_tree(session, fixture_tree)
        session.commit()
        yield session
    engine.dispose()


@pytest.fixture(name="client")
def client_fixture(session: Session) -> Iterator[TestClient]:
    app = create_app()

    def get_session_override() -> Session:
        return session

    app.dependency_overrides[get_session] = get_session_override
    yield TestClient(app)  # no lifespan: the override is the only database
    app.dependency_overrides.clear()


@pytest.fixture(autouse=True)
def _empty_cache() -> Iterator[None]:
    CACHE.clear()
    yield
    CACHE.clear()
