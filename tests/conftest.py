"""Shared fixtures: the catalogue loaded from ``versions/`` (immutable, so one load serves every test)."""

from __future__ import annotations

import pytest

from api.catalogue.loader import load_catalogue
from legislation import Catalogue


@pytest.fixture(scope="session")
def catalogue() -> Catalogue:
    return load_catalogue()
