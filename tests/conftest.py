"""Shared fixtures: the catalogue loaded from ``versions/`` (immutable, so one load serves every test)."""

from __future__ import annotations

import os
import tempfile

import pytest
from hypothesis import settings

from api.catalogue.loader import load_catalogue
from legislation import Catalogue

# CI runs the property tests on a fixed sequence of examples (a submission's test run must not depend on the
# draw); a developer's run keeps exploring new examples (settings' default), and what it finds becomes a case.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

# Before any test module is imported (some build an app at import time, whose start-up opens the default
# database): the default database lives in a data directory of the run's own, never the user's.
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="vigueur-tests-data-")
# The compiled calculators' cache (api.kernel_cache) of the run's own, never the user's (tests/api/test_kernel_cache
# gives each of its tests another).
os.environ["VIGUEUR_CACHE_DIR"] = tempfile.mkdtemp(prefix="vigueur-tests-cache-")
os.environ.pop("VIGUEUR_DATABASE_URL", None)


@pytest.fixture(scope="session")
def catalogue() -> Catalogue:
    return load_catalogue()


@pytest.fixture(autouse=True)
def _own_data_directory(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test writes to the user's real data directory (the default database lives there)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("xdg-data")))
    monkeypatch.delenv("VIGUEUR_DATABASE_URL", raising=False)
    monkeypatch.delenv("VIGUEUR_CORS_ORIGINS", raising=False)
