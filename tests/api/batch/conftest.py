"""Fixtures of the batch's tests."""

from __future__ import annotations

import pytest

from api.batch.arrow_cells import c_reading


@pytest.fixture(params=["C", "without C"])
def with_and_without_c(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The test runs with the optional C module (api/batch/split_c.c) and without it (VIGUEUR_NO_C=1: numpy and
    Arrow); skipped with it where it is not built (no C compiler at install)."""
    if request.param == "without C":
        monkeypatch.setenv("VIGUEUR_NO_C", "1")
    else:
        monkeypatch.delenv("VIGUEUR_NO_C", raising=False)
        if not c_reading():
            pytest.skip("the C module api.batch.split_c is not built (no C compiler at install)")
    return str(request.param)
