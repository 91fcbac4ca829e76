"""Running a calculator over a whole column of rows at once: its ``if`` statements become masks.

A calculator is ordinary Python that reads one row's facts. :class:`Trace` runs the very same function (the
engine's compiled kernel, the resolver's clause and keep rules) with a :class:`SymRow` in place of a
:class:`~legislation.row.Row`: each integer fact is a :class:`Sym`, a numpy array of that fact for every row of a
chunk, and arithmetic on it is arithmetic on the array (int64, exact: ``(N * base + H) // D`` is the kit's
half-up rounding in integers, as in the row engine).

When the calculator *branches* on a value (``if cost < limit``, ``a if a < cap else cap``, ``and``/``or``/``not``
all call ``bool``), :meth:`Sym.__bool__` asks the trace to decide: the rows of the current path are split by the
condition; the run goes on with the rows for which it holds and the others are kept for a later run, which
replays the same decisions up to that point and takes the other side (the function is deterministic and has no
effect: the lean context records nothing). Each run ends on a *leaf*: the outcome tuple the kernel returns, for
the rows of that path — its amount an array or a number. A side no row takes is never explored, so a batch
only pays for the paths its rows follow. A path's rows are a mask over the chunk, or — once it holds fewer than
one row in :data:`SPARSE` — their indices: its later decisions then read those rows only, not the whole chunk
(:data:`Rows`).

Facts that are not numbers are made concrete when read: an enum, a boolean, or an absent (``None``) fact splits
the path by its values present among the path's rows, and the calculator then sees the plain value — ``is``,
``in``, dictionary look-ups and ``need`` work unchanged. Dates are day numbers (``date.toordinal``), compared
with dates and shifted by ``timedelta``.

Anything else a :class:`Sym` cannot do exactly — hashing it, formatting it, ``.year``, a division by a
non-constant, a product that could leave int64 — raises; any exception ends the path as a *fallback* leaf: its
rows go to the row engine, which computes them (or raises) as it always does. Nothing is approximated.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from enum import Enum
from operator import itemgetter
from pathlib import Path
from typing import Any, cast

import numpy as np
import numpy.typing as npt

Mask = npt.NDArray[np.bool_]
# the rows of a path: None (every row of the chunk), a mask over the chunk, or — a path holding fewer than one row in
# SPARSE of the chunk — their indices, in order: a decision on such a path reads its rows only, not the whole chunk
# (measured on the peer's million one-date rows, 33 paths: the decisions' passes over the chunk were 40 % of a call)
Rows = npt.NDArray[np.bool_] | npt.NDArray[np.intp]
SPARSE = 16
Array = npt.NDArray[Any]

_EPOCH = date(1970, 1, 1).toordinal()
BOUND = 1 << 62  # an intermediate value beyond ±2^62 could overflow int64: the path falls back instead


class Unvectorisable(Exception):
    """What a column cannot do exactly (the path's rows go to the row engine)."""


class Concretize(Exception):
    """A fact that must be read as plain values (hashed by a cache): the trace restarts splitting by its values."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


class TooManyPaths(Exception):
    """A calculator whose rows follow more paths than the trace explores (the chunk goes to the row engine)."""


@dataclass(frozen=True, slots=True)
class Fallback:
    """A leaf the columnar path does not decide: its rows go to the row engine (``reason`` is reported)."""

    reason: str


class Sym:
    """An integer (or a date, as its ordinal, or a truth value) for every row of a chunk: ``value[i]`` is row i's.

    ``lo``/``hi`` bound the values (from the data, then by interval arithmetic) so that no product leaves int64.
    """

    __slots__ = ("trace", "key", "array", "lo", "hi", "kind", "expr", "wide")

    def __init__(
        self,
        trace: Trace,
        key: Any,
        array: Array | None,
        lo: int,
        hi: int,
        kind: str,
        expr: tuple[str, Any, Any] | None = None,
        wide: bool = True,
    ) -> None:
        self.trace, self.key, self.array, self.lo, self.hi, self.kind = trace, key, array, lo, hi, kind
        self.expr, self.wide = expr, wide  # an arithmetic result is computed when first read (:meth:`value`)

    @property
    def value(self) -> Array:
        """The values (computed on first read: a chain such as ``(N * x + H) // D`` in place, in one buffer)."""
        if self.array is None:
            self.array = _evaluate(self)
        return self.array

    def __repr__(self) -> str:
        return f"<Sym {self.kind} {self.key!r}>"

    # -- what it cannot do: the path falls back ---------------------------------------------------------------

    def __hash__(self) -> int:
        raise self._concretize("used as a key")

    def _concretize(self, use: str) -> Exception:
        """A fact used as a key (a cache, a table) or an index: split by its values, when there are few."""
        for name in _columns_of(self.key):
            if name not in self.trace.concrete:
                return Concretize(name)
        return Unvectorisable(f"a column value {use} ({self.key!r})")

    def __str__(self) -> str:
        raise Unvectorisable(f"a column value formatted ({self.key!r})")

    def __format__(self, spec: str) -> str:
        raise Unvectorisable(f"a column value formatted ({self.key!r})")

    def __index__(self) -> int:
        if self.kind != "int":
            raise Unvectorisable(f"a {self.kind} column value used as an index ({self.key!r})")
        return self.trace.split_values(self)  # ``date.replace(year=…)``, ``range(…)``: one path per value

    def __int__(self) -> int:
        return self.__index__()

    def __float__(self) -> float:
        raise Unvectorisable(f"a column value converted to float ({self.key!r})")

    def __iter__(self) -> Any:
        raise Unvectorisable(f"a column value iterated ({self.key!r})")

    def __getattr__(self, name: str) -> Any:
        if self.kind == "date" and name in ("year", "month", "day"):
            return self.trace.date_part(self, name)
        raise Unvectorisable(f"attribute {name} of a column value ({self.key!r})")

    def __lift__(self, function: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        """``function(*args)`` for every row (a calendar helper given a date column): called once per value."""
        return self.trace.lift(function, args)

    # -- branching -------------------------------------------------------------------------------------------

    def __bool__(self) -> bool:
        truth = self if self.kind == "bool" else self.trace.op("ne", self, 0)
        return self.trace.decide_bool(truth)

    # -- arithmetic (integers; a date ± timedelta) ---------------------------------------------------------------

    def __add__(self, other: Any) -> Any:
        return self.trace.arith("add", self, other)

    def __radd__(self, other: Any) -> Any:
        return self.trace.arith("add", other, self)

    def __sub__(self, other: Any) -> Any:
        return self.trace.arith("sub", self, other)

    def __rsub__(self, other: Any) -> Any:
        return self.trace.arith("sub", other, self)

    def __mul__(self, other: Any) -> Any:
        return self.trace.arith("mul", self, other)

    def __rmul__(self, other: Any) -> Any:
        return self.trace.arith("mul", other, self)

    def __floordiv__(self, other: Any) -> Any:
        return self.trace.arith("floordiv", self, other)

    def __rfloordiv__(self, other: Any) -> Any:
        raise Unvectorisable("a division by a column value")

    def __mod__(self, other: Any) -> Any:
        return self.trace.arith("mod", self, other)

    def __rmod__(self, other: Any) -> Any:
        raise Unvectorisable("a modulo by a column value")

    def __neg__(self) -> Any:
        return self.trace.arith("sub", 0, self)

    def __pos__(self) -> Any:
        return self

    def __abs__(self) -> Any:
        if self.kind != "int":
            raise Unvectorisable("abs of a non-integer column value")
        return self.trace.op("abs", self, 0)

    # -- comparisons → truth columns -----------------------------------------------------------------------------

    def __lt__(self, other: Any) -> Any:
        return self.trace.compare("lt", self, other)

    def __le__(self, other: Any) -> Any:
        return self.trace.compare("le", self, other)

    def __gt__(self, other: Any) -> Any:
        return self.trace.compare("gt", self, other)

    def __ge__(self, other: Any) -> Any:
        return self.trace.compare("ge", self, other)

    def __eq__(self, other: object) -> Any:
        return self.trace.compare("eq", self, other)

    def __ne__(self, other: object) -> Any:
        return self.trace.compare("ne", self, other)


_OPS: dict[str, Any] = {
    "add": np.add,
    "sub": np.subtract,
    "mul": np.multiply,
    "floordiv": np.floor_divide,
    "mod": np.remainder,
    "abs": lambda a, _: np.abs(a),
    "lt": np.less,
    "le": np.less_equal,
    "gt": np.greater,
    "ge": np.greater_equal,
    "eq": np.equal,
    "ne": np.not_equal,
}
_MIRROR = {"lt": "gt", "le": "ge", "gt": "lt", "ge": "le", "eq": "eq", "ne": "ne"}


class Column:
    """One fact over a chunk: its values (int64 numbers and day ordinals, int8 codes of an enum's members, bool)
    and which rows do not give it (``null``: None when every row gives it)."""

    __slots__ = ("name", "kind", "values", "null", "members", "bounds")

    def __init__(
        self,
        name: str,
        kind: str,
        values: Array,
        null: Mask | None,
        members: tuple[Any, ...] = (),
        bounds: tuple[int, int] | None = None,
    ) -> None:
        self.name, self.kind, self.values, self.null, self.members = name, kind, values, null, members
        self.bounds = bounds  # the lowest and highest given value (of the whole column: a chunk shares them)

    def limits(self) -> tuple[int, int]:
        """The lowest and highest given value (codes: -1 when some row does not give it), computed once."""
        if self.bounds is None:
            values, null = self.values, self.null
            if null is not None and values.size:  # a given value in place of the others (no gathering)
                first = int(np.argmin(null))
                values = values[first:first] if null[first] else np.where(null, values[first], values)
            self.bounds = (int(values.min()), int(values.max())) if values.size else (0, 0)
        return self.bounds


class Trace:
    """Explores one function over one chunk of rows: every path some row takes, each ending on a leaf."""

    def __init__(self, columns: Mapping[str, Column], defaults: Mapping[str, Any], size: int, limit: int) -> None:
        self.columns, self.defaults, self.size, self.limit = columns, defaults, size, limit
        self.cache: dict[Any, Sym] = {}
        self.forced: tuple[int, ...] = ()
        self.forced_labels: list[Any] = []  # the labels of each decision of the forced prefix (None: a truth)
        self.path: list[int] = []
        self.path_labels: list[Any] = []  # the labels of each decision of the current path
        self.rows: Rows | None = None  # the rows of the current path (see Rows)
        self.count = size  # how many
        # paths to run: (the decisions that lead to it, its rows, their labels, how many rows)
        self.pending: list[tuple[tuple[int, ...], Rows | None, list[Any], int]] = []
        self.reads: dict[str, Any] = {}
        self.concrete: set[str] = set()  # facts read as plain values (:class:`Concretize`)
        self.paths = 0
        self.known: dict[str, Column | None] = {}  # the columns looked up (None: not given as a column)
        # what the exploration learnt, for :class:`Recording`: each path's decisions as (recipe, label taken) and
        # its leaf; each lifted function by its key
        self.steps: list[tuple[Any, Any]] = []
        self.records: list[tuple[tuple[tuple[Any, Any], ...], Any]] = []
        self.lifts: dict[Any, tuple[Callable[..., Any], tuple[tuple[str, Any], ...]]] = {}
        # each lifted function's results by value (the function is pure: a caller may share this across traces)
        self.lift_memo: dict[Any, dict[int, tuple[int, str | None]]] = {}
        # the same results as sorted arrays (memo's size when built, values, results, kind, bounds), shared likewise
        self.lift_tables: dict[Any, tuple[int, Any, Any, str, int, int, Any]] = {}

    def close(self) -> None:
        """Let the chunk's values go with the trace: its values (:class:`Sym`) name it, and it keeps them (``cache``),
        a reference cycle that held the chunk's columns until the cyclic collector came by — the columnar engine
        pauses it while computing, so a million rows' ~200 MB waited after the call, and the next call paid fresh
        pages for all of it. The engine closes each trace when its results are stored."""
        self.cache.clear()
        self.known.clear()
        self.reads, self.steps, self.records, self.pending = {}, [], [], []

    # -- exploring ---------------------------------------------------------------------------------------------

    def explore(self, function: Callable[[Trace], Any]) -> list[tuple[Rows | None, Any]]:
        """Every leaf: (its rows — None: all; see :data:`Rows` —, what ``function`` returned there, or a
        :class:`Fallback`)."""
        while True:
            try:
                return self._explore(function)
            except Concretize as exc:  # from the start again, that fact read as plain values
                if exc.name in self.concrete:
                    raise TooManyPaths(f"{exc.name} read as plain values and still hashed") from exc
                self.concrete.add(exc.name)

    def _explore(self, function: Callable[[Trace], Any]) -> list[tuple[Rows | None, Any]]:
        self.pending = [((), None, [], self.size)]
        self.paths = 0  # paths run (each a replay of the function)
        self.records = []
        leaves: list[tuple[Rows | None, Any]] = []
        with np.errstate(all="ignore"):  # values outside a path's rows are computed and never read
            while self.pending:
                self.forced, self.rows, self.forced_labels, self.count = self.pending.pop()
                self.paths += 1
                self.path, self.path_labels, self.reads, self.steps = [], [], {}, []
                try:
                    result = function(self)
                except (TooManyPaths, Concretize):
                    raise
                except Exception as exc:  # noqa: BLE001 - any failure: the row engine computes these rows
                    result = Fallback(_failure(exc))
                leaves.append((self.rows, result))
                self.records.append((tuple(self.steps), result))
                if len(leaves) >= self.limit and self.pending:
                    # the paths found are kept (their rows are decided); the rows of the paths not explored yet
                    # go to the row engine
                    beyond = Fallback(f"more than {self.limit} paths")
                    leaves.extend((rows, beyond) for _, rows, _, _ in self.pending)
                    self.pending = []
        return leaves

    def _decide(self, recipe: Any, labels: list[Any], conditions: Callable[[], list[Mask]]) -> Any:
        """One of ``labels``, each holding on the rows of its condition (the conditions split the chunk);
        ``recipe`` says how to compute the conditions again (:func:`recipe_masks`)."""
        k = len(self.path)
        if k < len(self.forced):  # replaying a prefix: the decision is known, and so are the path's rows
            i = self.forced[k]
            self.path.append(i)
            found = self.forced_labels[k]
            self.path_labels.append(found)
            self.steps.append((recipe, found[i]))
            return found[i]
        rows, size = self.rows, self.size
        present: list[tuple[int, Mask, int]] = []  # (label, the condition on the path's rows, how many hold it)
        for i, condition in enumerate(conditions()):
            held = _on(rows, condition)
            count = int(np.count_nonzero(held))
            if count:
                present.append((i, held, count))
        if len(present) == 1:  # every row of the path goes the same way: no split
            i = present[0][0]
        else:
            prefix, prefix_labels = tuple(self.path), [*self.path_labels, labels]
            for j, held, count in present[1:]:
                self.pending.append(((*prefix, j), _sub(rows, held, count, size), prefix_labels, count))
            i, held, self.count = present[0]
            self.rows = _sub(rows, held, self.count, size)
        self.path.append(i)
        self.path_labels.append(labels)
        self.steps.append((recipe, labels[i]))
        return labels[i]

    def decide_bool(self, truth: Sym) -> bool:
        k = len(self.path)
        self.path_labels.append(None)
        if k < len(self.forced):
            i = self.forced[k]
            self.path.append(i)
            self.steps.append((("bool", truth.key), i == 0))
            return i == 0
        value, rows = truth.value, self.rows
        if value.dtype != np.bool_:
            value = value.astype(np.bool_)
        held = _on(rows, value)
        count = int(np.count_nonzero(held))
        if count == 0:
            self.path.append(1)
            self.steps.append((("bool", truth.key), False))
            return False
        if count == (self.size if rows is None else self.count):
            self.path.append(0)
            self.steps.append((("bool", truth.key), True))
            return True
        others = self.count - count
        other = _sub(rows, _others(rows, held), others, self.size)
        self.pending.append(((*self.path, 1), other, self.path_labels[:], others))
        self.path.append(0)
        self.steps.append((("bool", truth.key), True))
        self.rows, self.count = _sub(rows, held, count, self.size), count
        return True

    # -- reading a fact ------------------------------------------------------------------------------------------

    def read(self, name: str) -> Any:
        reads = self.reads
        if name in reads:
            return reads[name]
        known = self.known
        column = known[name] if name in known else known.setdefault(name, self.columns.get(name))
        if column is None:
            value = self.defaults.get(name)
        elif column.kind in ("enum", "bool") and len(self.path) < len(self.forced):
            k = len(self.path)  # replaying: the value the path took, without a split (the common case, inline)
            i = self.forced[k]
            labels = self.forced_labels[k]
            self.path.append(i)
            self.path_labels.append(labels)
            value = labels[i]
            self.steps.append((("member", name), value))
        else:
            value = self._concrete(column)
        reads[name] = value
        return value

    def _concrete(self, column: Column) -> Any:
        null = column.null
        if column.kind in ("enum", "bool"):
            return self._member(column)
        if column.name in self.concrete:
            return self._plain(column)
        if null is None:  # every row gives it: recorded as a decision all rows take (a later chunk may not)
            self.steps.append((("null", column.name), True))
        elif self._decide(("null", column.name), [None, True], lambda: [null, ~null]) is None:
            return None
        return self._column_sym(column)

    def _column_sym(self, column: Column) -> Sym:
        """A number or date fact's values for every row of the chunk, as a :class:`Sym` (built once)."""
        key = ("col", column.name)
        found = self.cache.get(key)
        if found is None:
            lo, hi = column.limits()
            found = self.cache[key] = Sym(self, key, _narrow(column.values, lo, hi), lo, hi, column.kind)
        return found

    def _member(self, column: Column) -> Any:
        """An enum's member or a boolean, made concrete: the path splits by the values its rows hold."""
        recipe = ("member", column.name)
        if len(self.path) < len(self.forced):
            return self._decide(recipe, [], list)
        codes = self._present(column)
        labels = [None if c < 0 else column.members[c] for c in codes]
        if len(codes) == 1:  # one value in the whole chunk
            self.path_labels.append(labels)
            self.path.append(0)
            self.steps.append((recipe, labels[0]))
            return labels[0]
        return self._decide(recipe, labels, lambda: [self._equals(column, c) for c in codes])

    def _present(self, column: Column) -> list[int]:
        """The codes a column holds in this chunk (-1: not given), counted once."""
        key = ("present", column.name)
        found: list[int] | None = self.cache.get(key)  # type: ignore[assignment]
        if found is None:
            low, high = column.limits()
            found = list(range(low, high + 1))  # the codes it may hold (two reductions, not a count)
            self.cache[key] = found  # type: ignore[assignment]
        return found

    def _plain(self, column: Column) -> Any:
        """A date or number fact as plain values: the path splits by the values its rows hold (at most 512)."""
        recipe = ("plain", column.name)
        if len(self.path) < len(self.forced):
            return self._decide(recipe, [], list)
        rows, null = self.rows, column.null
        values = column.values if rows is None else column.values[rows]  # (a mask or indices: either indexes)
        if null is not None:
            values = values[~(null if rows is None else null[rows])]
        found = _distinct(values)
        if len(found) > 512:
            raise Unvectorisable(f"{column.name} read as plain values: {len(found)} different values")
        has_null = null is not None and bool(null.any() if rows is None else null[rows].any())
        labels: list[Any] = [date.fromordinal(v) if column.kind == "date" else v for v in found]
        if has_null:
            labels.append(None)

        def conditions() -> list[Mask]:
            masks = [column.values == v for v in found]
            if null is not None:
                masks = [m & ~null for m in masks]
            return [*masks, null] if has_null and null is not None else masks

        if len(labels) == 1:
            self.path_labels.append(labels)
            self.path.append(0)
            self.steps.append((recipe, labels[0]))
            return labels[0]
        return self._decide(recipe, labels, conditions)

    def split_values(self, value: Sym) -> int:
        """A computed number as a plain int: the path splits by the values its rows hold (at most 512)."""
        recipe = ("int", value.key)
        if len(self.path) < len(self.forced):
            return self._decide(recipe, [], list)  # type: ignore[no-any-return]
        rows = self.rows
        found = _distinct(value.value if rows is None else value.value[rows])
        if len(found) > 512:
            raise Unvectorisable(f"{value.key!r} used as a plain number: {len(found)} different values")
        if len(found) == 1:
            self.path_labels.append(found)
            self.path.append(0)
            self.steps.append((recipe, found[0]))
            return found[0]
        return self._decide(recipe, found, lambda: [value.value == v for v in found])  # type: ignore[no-any-return]

    def lift(self, function: Callable[..., Any], args: tuple[Any, ...]) -> Sym:
        """A pure function of one column and plain values (:func:`legislation.fast.compile.lifted`), computed by
        calling it once per distinct value of the chunk's rows that give the column — no path per value."""
        columns = [a for a in args if isinstance(a, Sym)]
        if len(columns) != 1 or columns[0].kind not in ("date", "int"):
            raise Unvectorisable(f"{getattr(function, '__name__', function)} of {len(columns)} columns")
        column = columns[0]
        # the function by its qualified name (lifted helpers are module-level functions): a key is the same in every
        # process, so that recorded paths can be kept between runs (api.batch.learned)
        key = ("lift", f"{function.__module__}.{function.__qualname__}", tuple(_key(a) for a in args))
        found = self.cache.get(key)
        if found is not None:
            return found
        self.lifts[key] = (function, tuple(("sym", a.key) if isinstance(a, Sym) else ("value", a) for a in args))
        values = column.value
        nulls = [
            c.null
            for c in (self.columns.get(n) for n in _columns_of(column.key))
            if c is not None and c.null is not None
        ]
        given = ~np.logical_or.reduce(nulls) if nulls else None  # a row that does not give it never reads this
        memo = self.lift_memo.setdefault(key, {})
        known = self.lift_tables.get(key)
        if known is not None and known[0] == len(memo):  # every value of the chunk met before: one search
            _, values_known, results_known, kind_known, lo_known, hi_known, dense = known
            if dense is not None:  # values over a short range (days): a look-up by value, no binary search
                first, dense_results, dense_hit = dense
                at = np.subtract(values, first, dtype=np.int64)  # int64: ``first`` may not fit the values' dtype
                inside = at >= 0
                inside &= at < len(dense_hit)
                np.clip(at, 0, len(dense_hit) - 1, out=at)
                hit = dense_hit[at]
                hit &= inside
                lifted_of = dense_results
            else:
                at = np.minimum(np.searchsorted(values_known, values), len(values_known) - 1)
                hit = values_known[at] == values
                lifted_of = results_known
            if hit.all() if given is None else hit[given].all():
                lifted = lifted_of[at]  # a row that does not give the column: any value (within the bounds)
                narrow = _narrow(lifted, lo_known, hi_known)
                found = self.cache[key] = Sym(self, key, narrow, lo_known, hi_known, kind_known)
                return found
        distinct = _distinct(values if given is None else values[given])
        results = []
        for v in distinct:
            got = memo.get(v)
            if got is None:
                plain = date.fromordinal(v) if column.kind == "date" else v
                result = function(*[plain if a is column else a for a in args])
                kind_of = _kind(result)
                got = (result.toordinal() if kind_of == "date" else result, kind_of)
                if len(memo) < 1 << 16:
                    memo[v] = got
            results.append(got)
        kinds = {k for _, k in results}
        if len(kinds) > 1 or not kinds <= {"date", "int"}:
            raise Unvectorisable(f"{getattr(function, '__name__', function)} gives {sorted(map(str, kinds))}")
        kind = str(kinds.pop()) if kinds else "int"
        table = np.array([r for r, _ in results] or [0], dtype=np.int64)
        tables = lift_table(memo)
        if tables is not None and tables[3] == kind:  # for the next chunks
            self.lift_tables[key] = tables
        where = np.searchsorted(np.array(distinct or [0], dtype=np.int64), values)
        lifted = table[np.minimum(where, len(table) - 1)]  # a row that does not give the column: any value
        lo, hi = (int(table.min()), int(table.max()))
        found = self.cache[key] = Sym(self, key, _narrow(lifted, lo, hi), lo, hi, kind)
        return found

    def date_part(self, day: Sym, part: str) -> Sym:
        """``day.year`` / ``.month`` / ``.day`` of a date column."""
        key = (part, day.key)
        found = self.cache.get(key)
        if found is None:
            days = (day.value - _EPOCH).astype("datetime64[D]")
            if part == "year":
                value = days.astype("datetime64[Y]").astype(np.int64) + 1970
                lo, hi = 1, 9999
            elif part == "month":
                value = (days.astype("datetime64[M]") - days.astype("datetime64[Y]")).astype(np.int64) + 1
                lo, hi = 1, 12
            else:
                value = (days - days.astype("datetime64[M]")).astype(np.int64) + 1
                lo, hi = 1, 31
            found = self.cache[key] = Sym(self, key, value, lo, hi, "int")
        return found

    def _equals(self, column: Column, code: int) -> Mask:
        key = ("code", column.name, code)
        found = self.cache.get(key)
        if found is None:
            found = self.cache[key] = Sym(self, key, column.values == code, 0, 1, "bool")
        return found.value

    # -- operations ---------------------------------------------------------------------------------------------

    def op(self, name: str, a: Any, b: Any) -> Sym:
        key = (name, _key(a), _key(b))
        found = self.cache.get(key)
        if found is not None:
            return found
        if name in _MIRROR:
            (alo, ahi), (blo, bhi) = _range(a), _range(b)
            wide = not (min(alo, blo) >= _I32_MIN and max(ahi, bhi) <= _I32_MAX)
            found = Sym(self, key, _OPS[name](_operand(a, wide), _operand(b, wide)), 0, 1, "bool")
        else:
            lo, hi = _bounds(name, a, b)
            (alo, ahi), (blo, bhi) = _range(a), _range(b)
            # int32 where every operand and the result fit (a third of int64's memory traffic), else int64
            wide = not (min(lo, alo, blo) >= _I32_MIN and max(hi, ahi, bhi) <= _I32_MAX)
            kind = "date" if _kind(a) == "date" or _kind(b) == "date" else "int"
            found = Sym(self, key, None, lo, hi, kind, (name, a, b), wide)
        self.cache[key] = found
        return found

    def arith(self, name: str, a: Any, b: Any) -> Any:
        ka, kb = _kind(a), _kind(b)
        if ka is None or kb is None:
            return NotImplemented
        if "bool" in (ka, kb):
            raise Unvectorisable("arithmetic on a truth value")
        if "date" in (ka, kb):
            return self._date_arith(name, a, b, ka, kb)
        if name in ("floordiv", "mod") and (isinstance(b, Sym) or b <= 0):
            raise Unvectorisable(f"{name} by {b!r}: only by a positive constant")
        return self.op(name, a, b)

    def _date_arith(self, name: str, a: Any, b: Any, ka: str, kb: str) -> Any:
        if name == "add" and kb == "delta":
            return self.op("add", a, b.days)
        if name == "add" and ka == "delta":
            return self.op("add", b, a.days)
        if name == "sub" and ka == "date" and kb == "delta":
            return self.op("sub", a, b.days)
        raise Unvectorisable(f"{name} of dates ({ka}, {kb})")

    def compare(self, name: str, a: Sym, other: Any) -> Any:
        kb = _kind(other)
        if kb is None or kb == "delta":
            return NotImplemented
        if (a.kind == "date") != (kb == "date"):
            if name in ("eq", "ne"):
                return name == "ne"  # a date is never equal to a number
            raise TypeError(f"'{name}' between a {a.kind} and a {kb}")
        if isinstance(other, date):
            other = other.toordinal()
        if a.kind == "bool" or kb == "bool":
            raise Unvectorisable("a comparison of truth values")
        return self.op(name, a, other)


_TRUTH: list[Any] = [True, False]


def _kind(value: Any) -> str | None:
    """The kind of an operand: None for None and for what a number is never equal to (a string, an enum
    member…); a float, a Decimal or any other number is not exact in a column: :class:`Unvectorisable`."""
    if isinstance(value, Sym):
        return value.kind
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int) and not isinstance(value, Enum):
        return "int"
    if isinstance(value, date) and not hasattr(value, "hour"):
        return "date"
    if isinstance(value, timedelta):
        return "delta"
    if value is None or isinstance(value, str | Enum | tuple | frozenset | list):
        return None
    raise Unvectorisable(f"an operation with a {type(value).__name__}")


_I32_MIN, _I32_MAX = -(1 << 31), (1 << 31) - 1


def _narrow(values: Array, lo: int, hi: int) -> Array:
    """A column as int32 when its values fit (numpy then computes in int32 while the bounds allow it)."""
    if values.dtype != np.int32 and lo >= _I32_MIN and hi <= _I32_MAX:
        return values.astype(np.int32)
    return values


def _evaluate(sym: Sym, owned: bool = False) -> Array:
    """An arithmetic Sym's values. An operand not computed yet is computed into a buffer of its own, which this
    operation then reuses (``out=``): that operand stays uncomputed (its buffer is gone) and is computed again only
    if something reads it later."""
    assert sym.expr is not None
    name, a, b = sym.expr
    dtype = np.int64 if sym.wide else np.int32
    left, left_owned = _input(a, sym.wide)
    right, right_owned = _input(b, sym.wide)
    out = left if left_owned and left.dtype == dtype else right if right_owned and right.dtype == dtype else None
    if name == "abs":
        return np.abs(left, out=out)  # type: ignore[no-any-return]
    return _OPS[name](left, right, out=out, dtype=dtype)  # type: ignore[no-any-return]


def _input(value: Any, wide: bool) -> tuple[Any, bool]:
    """An operand for numpy, and whether it is a buffer this operation may overwrite."""
    if isinstance(value, Sym):
        if value.array is None and value.expr is not None:
            return _evaluate(value), True
        return value.value, False
    return (np.int64(value) if wide else np.int32(value)), False


def _operand(value: Any, wide: bool) -> Any:
    """An operand as numpy computes it: int64 when the operation's values may not fit int32."""
    if isinstance(value, Sym):
        array = value.value
        return array.astype(np.int64) if wide and array.dtype != np.int64 and array.dtype != np.bool_ else array
    return np.int64(value) if wide else np.int32(value)


def _failure(exc: Exception) -> str:
    """Why a path fell back, as the report counts it: the exception and its message, and where the calculator's code
    raised it when the message says nothing (« StopIteration » alone: which ``next`` ran out, in which function)."""
    if str(exc):
        return f"{type(exc).__name__}: {exc}"
    text, where = type(exc).__name__, None
    tb = exc.__traceback__
    while tb is not None:  # the innermost frame outside this package: the calculator's or the kit's line
        path = Path(tb.tb_frame.f_code.co_filename).resolve()
        if path.parent != _HERE:
            shown = path.relative_to(_ROOT).as_posix() if path.is_relative_to(_ROOT) else path.name
            where = f"{shown}:{tb.tb_lineno} ({tb.tb_frame.f_code.co_name})"
        tb = tb.tb_next
    return text if where is None else f"{text} in {where}"


_HERE = Path(__file__).resolve().parent
_ROOT = _HERE.parent.parent


_FIRST, _SECOND = itemgetter(0), itemgetter(1)


def lift_table(memo: Mapping[int, tuple[int, str | None]]) -> tuple[int, Array, Array, str, int, int, Any] | None:
    """A lifted function's known results (``memo``: value -> (result, its kind)) as sorted arrays, for a look-up of
    a whole column (:meth:`Trace.lift`): (how many, the values, their results, the kind, the least and the greatest
    result, the dense look-up of :func:`_dense_lookup`); None when the results are not all of one kind. Made by a
    trace from what it computed, or by :meth:`~legislation.columnar.Columnar.learn_lifted_results` from what an
    earlier run kept (then a process's first chunk finds its values without a call per value)."""
    if not memo:
        return None
    kinds = set(map(_SECOND, memo.values()))
    if len(kinds) != 1:
        return None
    kind = kinds.pop()
    if kind not in ("date", "int"):
        return None
    values_all = np.fromiter(memo.keys(), dtype=np.int64, count=len(memo))
    results_all = np.fromiter(map(_FIRST, memo.values()), dtype=np.int64, count=len(memo))
    order = np.argsort(values_all, kind="stable")
    values_all, results_all = values_all[order], results_all[order]
    return (
        len(memo),
        values_all,
        results_all,
        str(kind),
        int(results_all.min()),
        int(results_all.max()),
        _dense_lookup(values_all, results_all),
    )


def rows_count(rows: Rows | None, size: int) -> int:
    """How many rows a path holds (:data:`Rows`; ``size``: the chunk's, for None)."""
    if rows is None:
        return size
    return len(rows) if rows.dtype != np.bool_ else int(np.count_nonzero(rows))


def _on(rows: Rows | None, condition: Mask) -> Mask:
    """A condition (a mask over the chunk) on a path's rows: over the chunk (its rows None or a mask), or over the
    rows' indices."""
    if rows is None:
        return condition
    if rows.dtype == np.bool_:
        return cast(Mask, rows & condition)
    return condition[rows]


def _others(rows: Rows | None, held: Mask) -> Mask:
    """The path's rows where :func:`_on` said no, in the same form."""
    if rows is None:
        return ~held
    if rows.dtype == np.bool_:
        return cast(Mask, rows ^ held)
    return ~held


def _sub(rows: Rows | None, held: Mask, count: int, size: int) -> Rows:
    """The rows of a sub-path: ``held`` (:func:`_on`'s form, ``count`` rows of the ``size`` of the chunk) as a mask,
    or as indices when they are few (:data:`Rows`)."""
    if rows is not None and rows.dtype != np.bool_:
        return rows[held]
    if count * SPARSE >= size:
        return held
    if FAST_INDICES is not None and held.dtype == np.bool_ and held.flags.c_contiguous:
        found = np.empty(count + 8, dtype=np.intp)  # (8 more: the C writes a word's eight without a test)
        if FAST_INDICES(held, found) == count:
            return found[:count]
    return np.flatnonzero(held)


# A sparse path's indices found in C (legislation/columnar/walk_c.c, ``indices``: words of zeros skipped; built by
# ``pip install`` when a C compiler is there), else numpy's flatnonzero; off with VIGUEUR_NO_C set when this module
# is imported (the batch sets it again at its set-up, as the walk: api.batch.arrow_run._fast_walk).
try:
    from legislation.columnar import walk_c  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - no C compiler at install
    walk_c = None
COMPILED_INDICES: Callable[..., int] | None = getattr(walk_c, "indices", None)
FAST_INDICES: Callable[..., int] | None = None if os.environ.get("VIGUEUR_NO_C") else COMPILED_INDICES


def _dense_lookup(values: Array, results: Array) -> tuple[int, Array, Mask] | None:
    """A lifted function's known results by value over the range of the values (sorted, distinct), when short (days
    over some decades): (the first value, each value's result — the first result where none is known —, whether it
    is known). None for a range longer than 2^20."""
    if not len(values) or int(values[-1]) - int(values[0]) >= 1 << 20:
        return None
    first = int(values[0])
    span = int(values[-1]) - first + 1
    dense_results = np.full(span, results[0], dtype=np.int64)
    dense_results[values - first] = results
    dense_hit = np.zeros(span, dtype=np.bool_)
    dense_hit[values - first] = True
    return first, dense_results, dense_hit


def _distinct(values: Array) -> list[int]:
    """The distinct values, in order (``np.unique`` without its checks for masked arrays: ~80 µs a call)."""
    if values.size < 64:
        return sorted(set(values.tolist()))
    ordered = np.sort(values)
    first = np.empty(ordered.size, dtype=np.bool_)
    first[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=first[1:])
    return ordered[first].tolist()  # type: ignore[no-any-return]


def _columns_of(key: Any) -> list[str]:
    """The facts an expression's key reads (``("col", name)`` inside it)."""
    if not isinstance(key, tuple):
        return []
    if len(key) == 2 and key[0] == "col":
        return [key[1]]
    return [name for part in key for name in _columns_of(part)]


def _key(value: Any) -> Any:
    return value.key if isinstance(value, Sym) else ("k", value)


def _range(value: Any) -> tuple[int, int]:
    if isinstance(value, Sym):
        return value.lo, value.hi
    return int(value), int(value)


def _bounds(name: str, a: Any, b: Any) -> tuple[int, int]:
    (alo, ahi), (blo, bhi) = _range(a), _range(b)
    if name == "add":
        lo, hi = alo + blo, ahi + bhi
    elif name == "sub":
        lo, hi = alo - bhi, ahi - blo
    elif name == "mul":
        products = (alo * blo, alo * bhi, ahi * blo, ahi * bhi)
        lo, hi = min(products), max(products)
    elif name == "floordiv":
        lo, hi = alo // blo, ahi // blo
    elif name == "mod":
        lo, hi = 0, blo - 1
    else:  # abs
        lo, hi = 0, max(abs(alo), abs(ahi))
    if lo < -BOUND or hi > BOUND:
        raise Unvectorisable(f"{name} could leave int64 ([{lo}, {hi}])")
    return lo, hi


class SymRow:
    """What a calculator reads as ``ctx.row``: each attribute is the fact for the rows of the current path (one
    SymRow per path: a fact read once is then an attribute of the instance, read without a call)."""

    def __init__(self, trace: Trace) -> None:
        object.__setattr__(self, "_trace", trace)

    def __getattr__(self, name: str) -> Any:
        trace: Trace = object.__getattribute__(self, "_trace")
        if name not in trace.defaults:
            raise AttributeError(name)
        value = trace.read(name)
        object.__setattr__(self, name, value)
        return value

    def __setattr__(self, name: str, value: Any) -> None:
        raise Unvectorisable(f"a calculator sets row.{name}")
