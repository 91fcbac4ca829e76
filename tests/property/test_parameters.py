"""Parameters are declared once, in version.toml: proved here on the case corpus.

No calculator lists the names it reads. Running every case of the regression corpus (which covers every
paragraph of every amounts version) through the explained path, every parameter a calculator reads must be in
its version.toml (a missing one is a CatalogueError naming it), and every parameter of every version.toml must
be read by some case — in a rule or in a sentence the answer shows — so that none is dead data.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from api.cases.files import load_cases
from api.catalogue.loader import load_catalogue
from api.purchase.render import to_purchase
from legislation import Role, calculate
from legislation.calculators import kit
from legislation.errors import InvalidFacts

CATALOGUE = load_catalogue()
CASES = load_cases([Path(__file__).resolve().parent.parent / "regression"])


def test_every_parameter_is_read_and_none_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    read: dict[str, set[str]] = defaultdict(set)
    numbers_get = kit.Numbers.__getitem__
    texts_get = kit.Texts.get_value

    def record_number(self: kit.Numbers, name: str) -> Any:
        read[self.version.id].add(name)
        return numbers_get(self, name)

    def record_text(self: kit.Texts, key: str, args: Any, kwargs: Any) -> Any:
        if key not in kwargs:
            read[self.ctx.version.id].add(key)
        return texts_get(self, key, args, kwargs)

    monkeypatch.setattr(kit.Numbers, "__getitem__", record_number)
    monkeypatch.setattr(kit.Texts, "get_value", record_text)
    for case in CASES:
        purchase = to_purchase(case.request)
        for scheme in purchase.schemes:
            try:
                calculate(CATALOGUE, purchase, scheme)
            except InvalidFacts:
                continue
    for version in CATALOGUE.versions.values():
        if version.role is Role.AMOUNTS or version.id in read:
            assert read[version.id] == set(version.parameters), (
                version.id,
                "never read by the corpus:",
                sorted(set(version.parameters) - read[version.id]),
            )


def test_a_parameter_the_version_lacks_is_named() -> None:
    version = next(v for v in CATALOGUE.versions.values() if v.calculator == "bonus_2020_06_01")
    params = kit.Params(version)
    with pytest.raises(Exception) as error:
        params.money["no_such_cap"]
    assert "parameters.no_such_cap" in str(error.value) and version.id in str(error.value)
