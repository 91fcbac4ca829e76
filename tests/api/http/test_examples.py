"""The OpenAPI examples are live answers: regenerated in memory, they equal the committed files
(``python -m api.http.examples.generate`` rewrites them), and the hand-written example modules are gone."""

from __future__ import annotations

from pathlib import Path

from api.http import examples
from api.http.examples.generate import HERE, generate, render


def test_the_committed_examples_are_the_live_answers() -> None:
    live = generate()
    committed = {p.stem for p in HERE.glob("*.json")}
    assert committed == set(live), "run `python -m api.http.examples.generate` (files added or left over)"
    drifted = [name for name, document in live.items() if render(document) != examples.HERE.joinpath(f"{name}.json")
               .read_text(encoding="utf-8")]
    assert not drifted, f"examples differ from the live answers: {drifted}; run `python -m api.http.examples.generate`"


def test_every_example_module_is_generated_data_not_python() -> None:
    python = sorted(p.name for p in Path(examples.__file__).parent.glob("*.py"))
    assert python == ["__init__.py", "generate.py"]


def test_the_examples_show_null_amounts_and_a_flagged_lower_bound() -> None:
    for name in ("missing_facts", "no_version_on_file", "electric_bicycle_2017"):
        answer = examples.load(f"calculate.{name}")
        assert answer["total_amount"] is None and answer["total_unknown_for"]
        assert all(r["amount"] is None for r in answer["results"] if r["scheme"] in answer["total_unknown_for"])
    lower = examples.load("calculate.more_favourable_2021")
    assert lower["results"][0]["status"] == "kept_version_not_on_file"
    assert lower["results"][0]["amount_is_lower_bound"] and lower["total_is_lower_bound"]
