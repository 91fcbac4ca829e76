"""The compiled form of each calculator (legislation.fast.compile) gives exactly what its lean and explained forms give.

The compiled form is generated from the calculator's own source; these tests hold it to the two contexts that
run that source as written: on every regression corpus case and on generated purchases, for **every** amounts
version (not only the one in force: each version is run on each row, with its inline transitional branches
closed and open), the three give the same outcome — or raise the same error. A registered calculator that the
compiler cannot handle fails here, and so do the transformation rules, one by one.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from api.cases.files import load_cases
from api.catalogue.loader import load_catalogue
from api.purchase.render import to_purchase
from legislation import Purchase, Role
from legislation.calculators import CALCULATORS
from legislation.calculators.kit import COMPUTED, MISSING_FACTS, NOT_COVERED, Lean
from legislation.errors import InvalidDates, InvalidFacts
from legislation.fast import Engine, Row
from legislation.fast.compile import CompileError, compile_version, kernel_of, main, rewrite_source
from legislation.fast.engine import NO_BRANCHES, Kernel, lean_kernel
from legislation.resolver import decisive_day, run_calculator
from legislation.row import cents
from legislation.versions import Version
from tests.property.test_fast_path import purchases

CATALOGUE = load_catalogue()
CASES = load_cases([Path(__file__).resolve().parent.parent / "regression"])
AMOUNTS = sorted(
    (v for v in CATALOGUE.versions.values() if v.role is Role.AMOUNTS and v.calculator is not None),
    key=lambda v: v.id,
)
COMPILED: dict[str, Kernel] = {v.id: kernel_of(compile_version(v, CATALOGUE)) for v in AMOUNTS}
LEAN: dict[str, Kernel] = {v.id: lean_kernel(v, CATALOGUE) for v in AMOUNTS}


def _branches(version: Version) -> list[frozenset[str]]:
    """No branch open, and every inline branch of the version open."""
    inline = frozenset(b for c in version.transitional for b in c.branches)
    return [NO_BRANCHES, inline] if inline else [NO_BRANCHES]


def _explained(version: Version, row: Row, day: date, branches: frozenset[str]) -> Any:
    award = run_calculator(version, row, day, branches, CATALOGUE)
    if award.missing_facts:
        status = MISSING_FACTS
    elif award.not_covered:
        status = NOT_COVERED
    else:
        status = COMPUTED
    amount = None if status != COMPUTED or award.amount is None else cents(award.amount)
    scheme = version.scheme.value if version.scheme is not None else ""
    return scheme, status, amount, award.eligible, version.id, award.paragraph, None


def _result(run: Callable[[], Any]) -> Any:
    """The outcome, or the error (its type and message): the three forms must agree on errors too."""
    try:
        return run()
    except Exception as exc:  # noqa: BLE001 - compared, not swallowed
        return ("raised", type(exc).__name__, str(exc))


def _agree(row: Row) -> int:
    """Every amounts version on ``row`` in the three forms; how many comparisons were made."""
    try:
        row.check_exact()
        day, _ = decisive_day(row)
    except (InvalidDates, InvalidFacts):
        return 0
    done = 0
    for version in AMOUNTS:
        for branches in _branches(version):
            compiled = _result(lambda: COMPILED[version.id](row, branches, day))  # noqa: B023
            lean = _result(lambda: LEAN[version.id](row, branches, day))  # noqa: B023
            explained = _result(lambda: _explained(version, row, day, branches))  # noqa: B023
            assert compiled == lean == explained, (version.id, sorted(branches), row)
            done += 1
    return done


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_compiled_equals_lean_equals_explained_on_the_corpus(case: Any) -> None:
    purchase = to_purchase(case.request)
    _agree(Row.from_purchase(purchase))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(purchases())
def test_compiled_equals_lean_equals_explained_on_generated_purchases(purchase: Purchase) -> None:
    _agree(Row.from_purchase(purchase))


# -- every calculator compiles --------------------------------------------------------------------------


def test_every_registered_calculator_compiles() -> None:
    """A calculator written in a style the compiler does not handle fails here (the engine would run it lean)."""
    used = {v.calculator for v in CATALOGUE.versions.values() if v.calculator is not None}
    assert used == set(CALCULATORS), "a registered calculator that no version uses cannot be compiled here"
    for version in CATALOGUE.versions.values():
        if version.calculator is not None:
            form = compile_version(version, CATALOGUE)  # raises CompileError, loudly
            assert form.version_id == version.id and form.source
            # What is left to the context must be a method of it (a calculator calling ``ctx.p`` of an old API
            # fails here), and never a number: a number left means a parameter the version does not give (a
            # CatalogueError at run time). A step whose argument may have an effect is left, as it must be.
            assert all(callable(getattr(Lean, method, None)) for method in form.left), (version.id, form.left)
            assert not {"money", "count", "qty"} & set(form.left), (version.id, form.left)



def test_the_engine_runs_every_version_compiled() -> None:
    engine = Engine(CATALOGUE)
    assert engine.compile_errors == {}
    assert set(engine.compiled_forms.values()) == {"compiled"}
    assert set(engine.compiled_forms) == {v.id for v in CATALOGUE.versions.values() if v.calculator is not None}


def test_a_calculator_that_does_not_compile_runs_lean_and_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    import legislation.fast.compile as compile_module

    def refuse(version: Version, catalogue: object, store: object = None) -> Kernel:
        raise CompileError("not handled")

    monkeypatch.setattr(compile_module, "compiled_kernel", refuse)
    engine = Engine(CATALOGUE)
    assert set(engine.compiled_forms.values()) == {"lean"}
    assert all("not handled" in e for e in engine.compile_errors.values())


def test_the_generated_source_is_printed_for_an_auditor(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["D251-7.2020-06-01"]) == 0
    printed = capsys.readouterr().out
    assert "def calculate(ctx" in printed and "def _kit_cost_with_battery(ctx" in printed
    assert "ctx.step(" not in printed
    assert main(["no-such-version"]) == 2


# -- the transformation rules, one by one -------------------------------------------------------------


V2020 = CATALOGUE.versions["D251-7.2020-06-01"]
V2015 = CATALOGUE.versions["decret-2014-1672-art3.2015-01-01"]


def rewrite(body: str, version: Version = V2020, **module_globals: Any) -> str:
    source = "def f(ctx, x, y):\n" + "".join(f"    {line}\n" for line in body.strip().splitlines())
    return rewrite_source(source, version, CATALOGUE, module_globals).split("\n", 1)[1]


def test_numbers_become_the_versions_constants() -> None:
    assert rewrite('return ctx.money("ev_cap_natural")').strip() == "return 700000"
    assert rewrite('return ctx.count("ev_co2_max")').strip() == "return 20"
    assert rewrite('return ctx.qty("l_min_kw_regulation")').strip() == "return 2000"
    # a number the version does not give, or one that is not whole at its scale, keeps the call (it raises)
    assert "ctx.money('no_such_parameter')" in rewrite('return ctx.money("no_such_parameter")')
    assert "ctx.count('ev_rate')" in rewrite('return ctx.count("ev_rate")')
    # a name that is not a literal (nor a module constant): the version's table, read as the context reads it
    assert rewrite("return ctx.money(x)").strip() == "return _numbers_money[x]"
    # ... which may raise (a parameter the version does not give): a step reading it is kept
    assert "ctx.step(" in rewrite('ctx.step("1°", "t", ctx.money(x))\nreturn x')
    assert rewrite("return ctx.money(CAP)", CAP="ev_cap_legal").strip() == "return 500000"


def test_a_relied_versions_numbers_become_constants() -> None:
    relied = V2015.relies_on[0]
    name = next(n for n, p in CATALOGUE.versions[relied].parameters.items() if p.value == int(p.value))
    value = int(CATALOGUE.versions[relied].parameters[name].value)
    assert rewrite(f'return ctx.of(VID).count["{name}"]', V2015, VID=relied).strip() == f"return {value}"
    assert "ctx.of('elsewhere')" in rewrite(f'return ctx.of("elsewhere").count["{name}"]', V2015)


def test_rates_caps_and_floors_become_integer_arithmetic() -> None:
    assert rewrite('return ctx.rate("1°", "ev_rate", x, "cost")').strip() == "return (54 * x + 100) // 200"
    assert rewrite('return ctx.per_unit("4°", "l_per_kwh", x, "kWh")').strip() == "return (50000 * x + 1000) // 2000"
    cap = rewrite('return ctx.cap("1°", x, y, "cap")').strip()
    assert cap.startswith("return ") and "ctx" not in cap
    for a, c in ((1, 2), (2, 1), (2, 2)):
        assert eval(cap[len("return ") :], {}, {"x": a, "y": c}) == min(a, c)  # noqa: S307
    floor = rewrite('return ctx.floor("1°", x, y, "floor")').strip()
    for a, c in ((1, 2), (2, 1), (2, 2)):
        assert eval(floor[len("return ") :], {}, {"x": a, "y": c}) == max(a, c)  # noqa: S307
    # inside a comprehension, no walrus: min / max
    assert "min(" in rewrite('return [ctx.cap("1°", v, y, "cap") for v in x]')


def test_pure_recordings_are_dropped_and_others_kept() -> None:
    assert rewrite('ctx.step("1°", "a {x}", x, x=x)\nreturn x').strip() == "return x"
    assert rewrite('ctx.assume("text " + x)\nctx.read("id", f"{x} and {y.value}")\nreturn x').strip() == "return x"
    assert rewrite('ctx.step_at("citation", "t", ctx.money("ev_mid_amount"))\nreturn x').strip() == "return x"
    # an argument that calls ctx.need (it may raise) keeps the step as written, and the need inside it
    kept = rewrite('ctx.step("1°", "t", ctx.need(x, "vehicle.energy", "1°"))\nreturn x')
    assert "ctx.step('1°'" in kept and "ctx.need(" in kept
    # so does a call of anything else, or a number the version does not give
    assert "ctx.step(" in rewrite('ctx.step("1°", "t", len(x))\nreturn x')
    assert "ctx.step(" in rewrite('ctx.step("1°", "t", ctx.money("no_such_parameter"))\nreturn x')
    # a method of a string literal and a comprehension, on pure arguments, are pure; a method of anything else
    # (its type unknown) is not
    assert rewrite('ctx.step("1°", "t", v=" or ".join(f"{c} g" for c in x))\nreturn x').strip() == "return x"
    assert "ctx.step(" in rewrite('ctx.step("1°", "t", v=x.value.replace("_", " "))\nreturn x')
    assert "ctx.step(" in rewrite('ctx.step("1°", "t", v=[f(c) for c in x])\nreturn x')
    # a method of a parameter annotated str (the calculators pass mypy --strict) is pure too, unless it is rebound
    source = 'def f(ctx, p: str):\n    ctx.step(p, p.removeprefix("x"))\n    return p\n'
    assert "ctx.step" not in rewrite_source(source, V2020, CATALOGUE)
    assert "ctx.step" in rewrite_source(source.replace("    return", "    p = ctx\n    return"), V2020, CATALOGUE)
    # an if left empty by the rewriting goes when its test is pure; a body left empty gets a pass
    assert rewrite('if x:\n    ctx.read("id", "t")\nreturn y').strip() == "return y"
    assert rewrite('for v in x:\n    ctx.step("1°", "t")\nreturn y').split() == [
        "for",
        "v",
        "in",
        "x:",
        "pass",
        "return",
        "y",
    ]


def test_results_become_outcome_tuples() -> None:
    award = rewrite('return ctx.award(x, "1°", "{cost:€}", cost=y)').strip()
    assert award == "return ('bonus', 'computed', x, True, 'D251-7.2020-06-01', 'C. énergie, art. D. 251-7, 1°', None)"
    refuse = rewrite('return ctx.refuse("", "no", category=x)').strip()
    assert refuse == "return ('bonus', 'computed', 0, False, 'D251-7.2020-06-01', 'C. énergie, art. D. 251-7', None)"
    assert "'elsewhere, 2°'" in rewrite('return ctx.refuse("1°", "no", "elsewhere, 2°")')
    assert "x or 'C. énergie, art. D. 251-7, 1°'" in rewrite('return ctx.refuse("1°", "no", x)')
    covered = rewrite('return ctx.not_covered("8°", "not on file")').strip()
    assert covered == (
        "return ('bonus', 'not_covered_on_file', None, None, 'D251-7.2020-06-01', 'C. énergie, art. D. 251-7, 8°', "
        "None)"
    )
    # a keyword with an effect keeps the call; so does a paragraph that is not a literal
    assert "ctx.award(" in rewrite('return ctx.award(x, "1°", "t", v=len(y))')
    # a paragraph known only at run time is cited where it is read, as ctx.cite does
    cited = rewrite('return ctx.award(x, y, "t")').strip()[len("return ") :]
    for paragraph, citation in (("2°", "C. énergie, art. D. 251-7, 2°"), ("", "C. énergie, art. D. 251-7")):
        assert eval(cited, {}, {"x": 1, "y": paragraph})[5] == citation  # noqa: S307
    assert "ctx.award(" in rewrite('return ctx.award(x, y.f(), "t")')
    assert rewrite('return ctx.reworded(x, "prefix: ")').strip() == "return x"


def test_need_becomes_a_test_that_still_raises_through_the_context() -> None:
    need = rewrite('return ctx.need(x.vehicle_energy, "vehicle.energy", "3°")').strip()
    assert "ctx.need(None, 'vehicle.energy', '3°')" in need and ":=" in need
    # in a comprehension or a lambda the walrus would bind in the wrong scope: the call stays
    assert rewrite('return [ctx.need(v, "f", "p") for v in x]').count("ctx.need(v") == 1
    assert rewrite('return lambda v: ctx.need(v, "f", "p")').count("ctx.need(v") == 1


def test_a_local_name_is_never_taken_for_a_module_constant() -> None:
    assert "_numbers_money[CAP]" in rewrite("CAP = x\nreturn ctx.money(CAP)", CAP="ev_cap_legal")


def test_constant_values_are_built_once() -> None:
    from datetime import date as real_date

    hoisted = rewrite("return x < date(2001, 1, 1)", date=real_date).strip()
    assert hoisted.startswith("return x < _const_") and "date(" not in hoisted
    assert "date(2001, 13, 1)" in rewrite("return x < date(2001, 13, 1)", date=real_date)  # raises as written
    assert "date(2001, 1, y)" in rewrite("return x < date(2001, 1, y)", date=real_date)


def test_rebinding_the_context_is_refused() -> None:
    with pytest.raises(CompileError):
        rewrite("ctx = x\nreturn ctx.money('ev_cap_legal')")
    with pytest.raises(CompileError):
        rewrite("import os\nreturn x")


def test_kit_records_are_built_by_their_fields() -> None:
    from legislation.calculators.kit import Candidate
    from legislation.fast.compile import record_maker

    built = rewrite('return Candidate(amount=x, paragraph="1°", reason=y)', Candidate=Candidate).strip()
    assert built == "return _make_Candidate(amount=x, paragraph='1°', reason=y)"
    make = record_maker(Candidate)
    assert make is not None
    made = make(amount=5, paragraph="1°", reason="r")
    assert type(made) is Candidate and made == Candidate(amount=5, paragraph="1°", reason="r")
    with pytest.raises(TypeError):
        make(amount=5, paragraph="1°")  # a field without a default is required, as in the dataclass
    assert record_maker(Version) is None  # not a record of the kit
