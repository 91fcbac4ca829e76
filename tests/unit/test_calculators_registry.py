"""The calculators are registered explicitly, declare the facts they read, and have a fast form by construction."""

from __future__ import annotations

from api.catalogue.loader import load_catalogue
from api.purchase.inputs import is_request_path
from legislation import Role
from legislation.calculators import CALCULATORS
from legislation.fast.engine import Engine

CATALOGUE = load_catalogue()


def test_every_calculator_declares_request_facts() -> None:
    for key, module in CALCULATORS.items():
        assert module.FACTS, key
        assert list(module.FACTS) == sorted(set(module.FACTS)), f"{key}: FACTS sorted, without repeats"
        assert all(is_request_path(f) for f in module.FACTS), key
        assert not hasattr(module, "PARAMETERS"), f"{key}: parameters are declared in version.toml only"


def test_every_amounts_version_names_a_registered_calculator_with_a_fast_form() -> None:
    engine = Engine(CATALOGUE)
    amounts = {v.id for v in CATALOGUE.versions.values() if v.role is Role.AMOUNTS}
    assert amounts and amounts <= set(engine.compiled)
    for vid in amounts:
        assert CATALOGUE.versions[vid].calculator in CALCULATORS, vid


def test_every_registered_calculator_is_used_by_a_version() -> None:
    used = {v.calculator for v in CATALOGUE.versions.values()}
    assert set(CALCULATORS) <= used
