"""The columnar engine's decisions computed in C as each row reaches them (legislation/columnar/walk_c.c, decide;
legislation.columnar.recorded.decide): the engine's results are those of the codes computed beforehand by numpy and
of the row engine; the C machine's arithmetic is Python's on integers (floor division, dates' parts), a value that
would leave int64 or a lifted value never computed is « not held » (the row is traced), and an index outside its
array is refused, never read."""

from __future__ import annotations

import random
from datetime import date
from typing import Any

import numpy as np
import pytest

import legislation.columnar.engine as engine_module
import legislation.columnar.recorded as recorded
from legislation.fast import Engine
from tests.property.test_columnar import CATALOGUE, _columnar, _columns, _generated, _replaying, _row_engine

COMPILED = recorded.COMPILED_DECIDE
pytestmark = pytest.mark.skipif(COMPILED is None, reason="the C module legislation.columnar.walk_c is not built")

CONSTANT = 1  # one decision (number 0); the constant decision of leaves and UNKNOWN: 1
# kinds and operations as walk_c.c numbers them (recorded.py's copies, checked against the C by the tests below)
TRUTH, NULL, MEMBER, PLAIN, VALUE, MISSING, COMPARE = range(7)
OPS = recorded._OPCODES


def test_the_engine_with_c_decisions_gives_the_codes_results(monkeypatch: pytest.MonkeyPatch) -> None:
    first, _ = _generated(43, 40)
    later, _ = _generated(44, 60)
    engine = Engine(CATALOGUE)
    decided: list[int] = []
    c_decide = engine_module.decide

    def counted(*args: Any) -> Any:
        leaf = c_decide(*args)
        decided.append(len(leaf))
        return leaf

    results = []
    for decider in (COMPILED, None):
        monkeypatch.setattr(recorded, "FAST_DECIDE", decider)
        runner = _replaying(engine, first, later)
        if decider is not None:
            monkeypatch.setattr(engine_module, "decide", counted)
        result = runner.compute(_columns(later))
        monkeypatch.undo()
        assert result.paths == 0 and result.replayed > 0
        results.append(result)
    assert sum(decided) > 0  # the C decisions were taken
    in_c, by_codes = results
    for i, row in enumerate(later):
        assert _columnar(in_c, i) == _columnar(by_codes, i) == _row_engine(engine, row), row


def _one_decision(kind: int, column: int = -1, program: int = 0, aux: int = 0, length: int = 0, width: int = 3) -> Any:
    """A table of one decision (kind, column, program, look-up) whose slot c leads to leaf c: the nodes (the decision
    at place 0, its ``width`` slots after it, then a leaf per slot: the constant decision and itself), the decision's
    six numbers, and the place of each slot's leaf."""
    leaves = [1 + width + 2 * c for c in range(width)]
    nodes = [0, *leaves]
    for place in leaves:
        nodes += [CONSTANT, place]
    recipes = np.array([[kind, column, program, width - 1, aux, length]], dtype=np.int64)
    return np.array(nodes, dtype=np.int32), recipes, leaves


def _decide(
    nodes: Any,
    recipes: Any,
    columns: tuple[Any, ...],
    nulls: tuple[Any, ...] | None = None,
    code: Any = None,
    held: Any = None,
    lookups: Any = None,
    lifts: tuple[Any, Any, Any] | None = None,
) -> list[int]:
    n = len(columns[0]) if columns else 1
    out = np.empty(n, dtype=np.intp)
    empty = np.zeros(0, dtype=np.int64)
    keys, values, spans = lifts if lifts is not None else (empty, empty, np.zeros(2, dtype=np.int64))
    assert COMPILED is not None
    COMPILED(
        nodes,
        CONSTANT,
        recipes,
        np.array([0, 0], dtype=np.int64) if code is None else code,
        empty if held is None else held,
        empty if lookups is None else lookups,
        keys,
        values,
        spans,
        columns,
        nulls if nulls is not None else tuple(None for _ in columns),
        np.arange(n, dtype=np.intp),
        np.zeros(n, dtype=np.intp),
        5,
        out,
    )
    return out.tolist()  # type: ignore[no-any-return]


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64])
def test_a_comparison_of_a_column_with_a_number(dtype: Any) -> None:
    values = np.array([3, 10, 20, -5], dtype=dtype)
    for tag, expected in (("lt", [1, 0, 0, 1]), ("ge", [0, 1, 1, 0]), ("eq", [0, 1, 0, 0]), ("ne", [1, 0, 1, 1])):
        nodes, recipes, leaves = _one_decision(COMPARE, column=0, aux=10, length=OPS[tag])
        assert _decide(nodes, recipes, (values,)) == [leaves[e] for e in expected], tag


def test_a_fact_given_or_not_and_an_enum_member() -> None:
    values = np.array([5, 0, 7], dtype=np.int64)
    null = np.array([False, True, False])
    nodes, recipes, leaves = _one_decision(NULL, column=0)
    assert _decide(nodes, recipes, (values,), (null,)) == [leaves[1], leaves[0], leaves[1]]
    assert _decide(nodes, recipes, (values,)) == [leaves[1]] * 3  # no mask: every row gives it
    # an enum's codes (-1: not given) through its look-up (code + 1 → slot); a code past the look-up: « not held »
    codes = np.array([-1, 0, 1, 2], dtype=np.int8)
    lookup = np.array([0, 2, 1], dtype=np.int64)  # not given → 0, member 0 → 2, member 1 → 1
    nodes, recipes, leaves = _one_decision(MEMBER, column=0, aux=0, length=3, width=4)
    assert _decide(nodes, recipes, (codes,), lookups=lookup) == [leaves[0], leaves[2], leaves[1], leaves[3]]


def test_a_plain_value_among_those_the_tree_holds() -> None:
    values = np.array([10, 20, 30, 1 << 40], dtype=np.int64)
    null = np.array([False, False, True, False])
    none = recorded._NONE  # a plain fact not given
    held = np.array([none, 10, 20], dtype=np.int64)  # sorted; slot 3: not held
    nodes, recipes, leaves = _one_decision(PLAIN, column=0, aux=0, length=3, width=4)
    got = _decide(nodes, recipes, (values,), (null,), held=held)
    assert got == [leaves[1], leaves[2], leaves[0], leaves[3]]  # 2^40: outside the codes' range, never held
    # a value given that happens to be the code of « not given »: outside the codes' range, not held (numpy's codes)
    given = np.array([none], dtype=np.int64)
    assert _decide(nodes, recipes, (given,), held=held) == [leaves[3]]
    assert recorded._held_codes(given, None, held, 3).tolist() == [3]


def _program(key: Any) -> tuple[Any, list[str]]:
    names: dict[str, int] = {}
    code: list[int] = []
    recorded._program(key, recorded.Recording(frozenset()), names, {}, code)
    code += [OPS["end"], 0]
    return np.array(code, dtype=np.int64), list(names)


def _exact(key: Any, row: dict[str, int]) -> int | None:
    """Python's value of an expression key on a row (None where a value along the way leaves int64)."""
    tag = key[0]
    if tag == "k":
        return int(key[1])
    if tag == "col":
        return row[key[1]]
    if tag in ("year", "month", "day", "abs"):
        inner = _exact(key[1], row)
        if inner is None:
            return None
        if tag == "abs":
            found = abs(inner)
        else:
            found = getattr(date.fromordinal(inner), tag)
        return found if -(1 << 63) <= found < 1 << 63 else None
    a, b = _exact(key[1], row), _exact(key[2], row)
    if a is None or b is None:
        return None
    found = {
        "add": lambda: a + b,
        "sub": lambda: a - b,
        "mul": lambda: a * b,
        "floordiv": lambda: a // b,
        "mod": lambda: a % b,
        "lt": lambda: int(a < b),
        "le": lambda: int(a <= b),
        "gt": lambda: int(a > b),
        "ge": lambda: int(a >= b),
        "eq": lambda: int(a == b),
        "ne": lambda: int(a != b),
    }[tag]()
    return found if -(1 << 63) <= found < 1 << 63 else None


def _random_key(rng: random.Random, depth: int) -> Any:
    if depth == 0 or rng.random() < 0.3:
        return ("col", rng.choice("xyz")) if rng.random() < 0.7 else ("k", rng.choice([0, 1, -7, 100, 1 << 40]))
    tag = rng.choice(["add", "sub", "mul", "floordiv", "mod", "abs"])
    if tag in ("floordiv", "mod"):  # as the trace has them: by a positive constant
        return (tag, _random_key(rng, depth - 1), ("k", rng.choice([1, 3, 7, 100])))
    if tag == "abs":
        return ("abs", _random_key(rng, depth - 1), ("k", 0))
    return (tag, _random_key(rng, depth - 1), _random_key(rng, depth - 1))


def test_the_c_arithmetic_is_pythons_on_integers_or_not_held() -> None:
    """Random expressions over random values — large ones included, so that products leave int64: where Python's
    exact value stays within int64 at every step, the decision « expression == that value » is true in C (its slot
    1); where it leaves int64, the decision is « not held » (slot 2: the row is traced, never a wrapped value)."""
    rng = random.Random(11)
    values = {name: [rng.choice([0, 1, -1, 99, -12_345, 1 << 31, -(1 << 40), (1 << 62) + 3, rng.randint(-999, 999)])
                     for _ in range(64)] for name in "xyz"}
    overflowed = decided = 0
    for _ in range(150):
        key = _random_key(rng, 4)
        exact = [_exact(key, {n: values[n][i] for n in "xyz"}) for i in range(64)]
        for i in range(64):
            # the expected value is a constant of the decision (one program per row: each compares with its own)
            target = exact[i] if exact[i] is not None else 0
            code, names = _program(("eq", key, ("k", target)))
            columns = tuple(np.array([values[n][i]], dtype=np.int64) for n in names) or (np.zeros(1, np.int64),)
            nodes, recipes, leaves = _one_decision(TRUTH, program=0)
            got = _decide(nodes, recipes, columns, code=code)
            if exact[i] is None:
                overflowed += 1
                assert got == [leaves[2]], (key, i)
            else:
                decided += 1
                assert got == [leaves[1]], (key, i, exact[i])
    assert overflowed > 100 and decided > 1000  # both cases met


def test_the_parts_of_a_date() -> None:
    days = [date(1, 1, 1), date(1970, 1, 1), date(2000, 2, 29), date(2024, 12, 31), date(2100, 3, 1)]
    days.append(date(9999, 12, 31))
    ordinals = np.array([d.toordinal() for d in days], dtype=np.int32)
    for part in ("year", "month", "day"):
        for d, ordinal in zip(days, ordinals.tolist(), strict=True):
            code, _ = _program(("eq", (part, ("col", "d")), ("k", getattr(d, part))))
            nodes, recipes, leaves = _one_decision(TRUTH, program=0)
            assert _decide(nodes, recipes, (np.array([ordinal], dtype=np.int32),), code=code) == [leaves[1]], (part, d)


def test_a_lifted_value_looked_up_or_not_held() -> None:
    key = ("lift", "module.function", (("col", "d"),))
    recording = recorded.Recording(frozenset())
    recording.lifts[key] = (abs, (("sym", ("col", "d")),))
    names: dict[str, int] = {}
    lifts: dict[Any, int] = {}
    code: list[int] = []
    recorded._program(("eq", key, ("k", 42)), recording, names, lifts, code)
    code += [OPS["end"], 0]
    keys = np.array([1, 5, 9], dtype=np.int64)  # the values the function was asked, sorted
    results = np.array([40, 42, 44], dtype=np.int64)
    nodes, recipes, leaves = _one_decision(TRUTH, program=0)
    column = np.array([5, 9, 7], dtype=np.int64)
    got = _decide(
        nodes, recipes, (column,), code=np.array(code, dtype=np.int64), lifts=(keys, results, np.array([0, 3]))
    )
    assert got == [leaves[1], leaves[0], leaves[2]]  # 5 → 42: true; 9 → 44: false; 7: never asked, not held


def test_an_index_outside_its_arrays_is_refused() -> None:
    values = np.array([3, 10], dtype=np.int64)
    nodes, recipes, _ = _one_decision(COMPARE, column=0, aux=10, length=OPS["lt"])
    broken = nodes.copy()
    broken[1] = 10_000  # slot 0's next place: past the nodes
    with pytest.raises(IndexError):
        _decide(broken, recipes, (values,))
    wrong = recipes.copy()
    wrong[0, 1] = 3  # a column that is not there
    with pytest.raises(IndexError):
        _decide(nodes, wrong, (values,))
    with pytest.raises(ValueError, match="signed integers"):  # a column of floats
        _decide(nodes, recipes, (values.astype(np.float64),))
    with pytest.raises(ValueError, match="null mask"):  # a mask of another length
        _decide(nodes, recipes, (values,), (np.zeros(3, dtype=np.bool_),))
    code, _ = _program(("lt", ("col", "x"), ("k", 1)))
    nodes, recipes, _ = _one_decision(TRUTH, program=len(code))  # a program past the code
    with pytest.raises(IndexError):
        _decide(nodes, recipes, (values,), code=code)
