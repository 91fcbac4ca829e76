"""``ctx.miss`` / ``ctx.refuse_missed`` and ``ctx.step_once``: recorded by the explaining context only, dropped
from the compiled form like any pure recording, and a rate named at run time compiled to integer arithmetic."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from api.catalogue.loader import load_catalogue
from legislation.calculators.kit import COMPUTED, Explain, Lean
from legislation.enums import Acquisition
from legislation.fast.compile import rewrite_source
from legislation.row import Row

CATALOGUE = load_catalogue()
V2021 = CATALOGUE.versions["D251-8.2021-07-26"]
ROW = Row(acquisition=Acquisition.PURCHASE, invoice_date=date(2021, 8, 1))


def _started(ctx: Explain | Lean) -> Explain | Lean:
    ctx.start(ROW, date(2021, 8, 1), frozenset())
    return ctx


def test_the_explained_refusal_lists_the_misses_in_order_with_their_values() -> None:
    ctx = _started(Explain(V2021))
    assert isinstance(ctx, Explain)
    ctx.miss("1°: cost {cost:€} > {c1_price_max:€}", cost=7_000_000)
    ctx.miss("3°: classed « {critair} », not « 1 »", critair="2")
    award = ctx.refuse_missed("1°, 3° et 4°")
    assert award.amount == Decimal("0.00") and award.eligible is False
    assert award.reason == "1°: cost 70 000 € > 60 000 €; 3°: classed « 2 », not « 1 »"
    assert award.paragraph.endswith("1°, 3° et 4°")


def test_the_lean_refusal_is_the_plain_refusal() -> None:
    ctx = _started(Lean(V2021))
    ctx.miss("1°: cost {cost:€} > {c1_price_max:€}", cost=7_000_000)
    assert ctx.refuse_missed("1°, 3° et 4°") == ctx.refuse("1°, 3° et 4°", "")
    assert ctx.refuse_missed("1°")[1] == COMPUTED


def test_a_step_once_is_shown_once() -> None:
    ctx = _started(Explain(V2021))
    assert isinstance(ctx, Explain)
    for paragraph in ("3°", "4°"):
        ctx.step_once("5°, 1re phrase", "CO2 {co2} g/km", co2=40)
        ctx.step(paragraph, "read")
    assert [s.text for s in ctx.steps] == ["CO2 40 g/km", "read", "read"]


def test_misses_and_steps_once_are_dropped_from_the_compiled_form() -> None:
    source = (
        "def f(ctx, p: str, x):\n"
        '    ctx.miss(p + ": {x} too high", x=x)\n'
        '    ctx.step_once("5°", "CO2 {x}", x=x)\n'
        "    return ctx.refuse_missed(p)\n"
    )
    compiled = rewrite_source(source, V2021, CATALOGUE)
    assert "ctx.miss" not in compiled and "ctx.step_once" not in compiled
    # an argument that may raise keeps the recording as written
    raising = source.replace("x=x)\n    ctx.step_once", "x=ctx.need(x, 'f', 'p'))\n    ctx.step_once")
    kept = rewrite_source(raising, V2021, CATALOGUE)
    assert "ctx.miss(" in kept


def test_a_rate_named_at_run_time_becomes_integer_arithmetic() -> None:
    source = 'def f(ctx, rate: str, base):\n    return ctx.rate("1°", rate, base, "price")\n'
    compiled = rewrite_source(source, V2021, CATALOGUE)
    assert "ctx.rate" not in compiled and "_numbers_rates[rate]" in compiled
