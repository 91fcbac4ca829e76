"""Fixtures of the reliability tests: the store tests' fixture tree (the same small versions/ tree)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.api.support import build_tree


@pytest.fixture(scope="session")
def fixture_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_tree(tmp_path_factory.mktemp("tree") / "versions")
