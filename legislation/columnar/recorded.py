"""What a trace learnt about a version, kept for the next chunks: its decision tree, replayed as masks.

A :class:`~legislation.columnar.symbolic.Trace` replays a calculator's Python once per path. What it finds is a
tree: each decision reads one column (a truth computed from columns, an enum's member, a fact given or not, a
value read as plain) and each path ends on a leaf, the outcome the calculator returned there (its amount a number
or an expression of columns). That tree is a *recording* of what the calculator's single source did — nothing of a
rule is written here — and it does not depend on the rows: the calculator is deterministic and each decision is
named by what it computes (the expression's key), not by the rows that took it.

:func:`replay` evaluates a recorded tree on another chunk of rows: the decisions' expressions are computed again
from that chunk's columns (by the same :class:`Trace` operations, with their int64 bounds checks), the rows are
split by index down the tree, and each leaf's amount expression is computed once. A row that reaches a decision
side no earlier chunk took is *unknown*: the caller traces those rows as before (and adds what that trace finds to
the recording). The replay is exact because it is the trace's own evaluation minus the Python replay of the path.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any

import numpy as np
import numpy.typing as npt

from legislation.columnar.symbolic import Sym, Trace, Unvectorisable

Index = npt.NDArray[np.intp]

LEAF_LIMIT = 20_000  # leaves kept per recording (a version whose rows take more paths records no more)


# Transitions are keyed ``state * _SHIFT + code + _OFFSET``: a decision's code for a row is a number (a truth 0/1, a
# fact missing 0 / given 1, the place of an enum's member among the labels the tree holds, a plain value itself).
_OFFSET = 1 << 32
_SHIFT = 1 << 33
_LOW, _HIGH = -_OFFSET + 2, _OFFSET - 2  # the codes a transition may have
_NONE = -_OFFSET + 1  # a plain fact not given
_BAD = _OFFSET - 1  # a row's code no transition has (a value out of range, a decision this chunk cannot compute)
UNKNOWN = 0  # the state of a row that reaches a decision side no earlier chunk took (absorbing)


@dataclass(slots=True)
class Leaf:
    outcome: Any  # the calculator's outcome tuple, or a Fallback
    value: Any  # the key of its amount's expression (None: the amount is in the tuple)


@dataclass(slots=True)
class Recording:
    """One version's decision tree over chunks with the same columns (the facts given, read plainly or not).

    The tree is kept as transitions between numbered *states* — :data:`UNKNOWN`, then each decision (node) and leaf
    in the order they were added, the root first — so that :func:`replay` walks every row of a chunk at once (one
    gather per level of the tree), and so that it is plain data (:meth:`state` / :meth:`from_state`)."""

    concrete: frozenset[str]
    lifts: dict[Any, tuple[Callable[..., Any], tuple[tuple[str, Any], ...]]] = field(default_factory=dict)
    leaf_list: list[Leaf] = field(default_factory=list)  # in the order added (a leaf's number)
    recipes: dict[tuple[str, Any], int] = field(default_factory=dict)  # each decision's recipe, numbered
    recipe_list: list[tuple[str, Any]] = field(default_factory=list)
    recipe_of: list[int] = field(default_factory=lambda: [-1])  # per state (-1: a leaf, or UNKNOWN)
    leaf_of: list[int] = field(default_factory=lambda: [-1])  # per state: its leaf's number (-1: a node, UNKNOWN)
    keys: list[int] = field(default_factory=lambda: [UNKNOWN * _SHIFT + _OFFSET])  # transitions (code 0 …
    targets: list[int] = field(default_factory=lambda: [UNKNOWN])  # … of a leaf or UNKNOWN: itself)
    members: dict[int, dict[Any, int]] = field(default_factory=dict)  # per member recipe: its labels' codes
    depth: int = 0
    arrays: tuple[Any, ...] = ()  # (states when built, the transitions as a dense Tables)
    extra: dict[str, Any] = field(default_factory=dict)  # what a caller derives from the leaves, kept with them
    fresh: list[tuple[Any, Any, Any]] = field(default_factory=list)  # paths traced since :meth:`take_fresh`
    transitions: dict[int, int] | None = None  # key → target, built when a path is first added

    @property
    def leaves(self) -> int:
        return len(self.leaf_list)

    def add(self, trace: Trace) -> None:
        """What ``trace`` explored: each path run (its decisions and leaf) that is not known yet (and kept in
        ``fresh`` for :meth:`take_fresh`)."""
        self.lifts.update(trace.lifts)
        recipe = self._recipe
        for steps, outcome in trace.records:
            if self.leaves >= LEAF_LIMIT:
                return
            leaf = _leaf(outcome)
            numbered = tuple((recipe(r), label) for r, label in steps)
            if self._insert(numbered, leaf):
                self.fresh.append((numbered, leaf.outcome, leaf.value))

    def take_fresh(self) -> dict[str, Any] | None:
        """The paths added by traces since the last call (None: none), as plain data: the recipes (``recipes``),
        the amounts' expressions (``values``) and each path as (decisions: (recipe's number, label taken)…, outcome,
        its amount's number in ``values`` or -1) — what :meth:`learn` reads."""
        fresh, self.fresh = self.fresh, []
        if not fresh:
            return None
        values: dict[Any, int] = {}
        paths = [
            (steps, outcome, -1 if value is None else values.setdefault(value, len(values)))
            for steps, outcome, value in fresh
        ]
        return {"recipes": list(self.recipe_list), "values": list(values), "paths": paths}

    def learn(self, learned: Mapping[str, Any]) -> None:
        """Paths another recording of the same function and columns found (:meth:`take_fresh`), added as known."""
        local = [self._recipe(r) for r in learned["recipes"]]
        values = learned["values"]
        for steps, outcome, value in learned["paths"]:
            if self.leaves >= LEAF_LIMIT:
                return
            numbered = tuple((local[r], label) for r, label in steps)
            self._insert(numbered, Leaf(outcome, None if value < 0 else values[value]))

    def _recipe(self, recipe: tuple[str, Any]) -> int:
        found = self.recipes.get(recipe)
        if found is None:
            found = self.recipes[recipe] = len(self.recipe_list)
            self.recipe_list.append(recipe)
        return found

    def _insert(self, steps: tuple[tuple[int, Any], ...], leaf: Leaf) -> bool:
        """Add a path, its decisions by their recipes' numbers (False: known already, or not recordable — never
        expected: the function is deterministic)."""
        transitions = self.transitions
        if transitions is None:
            transitions = self.transitions = dict(zip(self.keys, self.targets, strict=True))
        self.depth = max(self.depth, len(steps))
        if len(self.recipe_of) == 1:  # no root yet
            return self._chain(-1, 0, steps, leaf)
        state = 1
        for k, (r, label) in enumerate(steps):
            if self.recipe_of[state] != r:
                return False
            code = self._code(r, label)
            if code is None:
                return False  # a value out of range: its rows are traced each time
            child = transitions.get(state * _SHIFT + code + _OFFSET)
            if child is None:
                return self._chain(state, code, steps[k + 1 :], leaf)
            state = child
        return False

    def _chain(self, parent: int, code: int, steps: tuple[tuple[int, Any], ...], leaf: Leaf) -> bool:
        """New states for ``steps`` and ``leaf``, linked from ``parent`` by ``code`` (-1: the root)."""
        for r, label in steps:
            state = len(self.recipe_of)
            self.recipe_of.append(r)
            self.leaf_of.append(-1)
            if parent >= 0:
                self._link(parent, code, state)
            found = self._code(r, label)
            if found is None:
                return False  # a value out of range (the nodes made are reached by no row)
            parent, code = state, found
        state = len(self.recipe_of)
        self.recipe_of.append(-1)
        self.leaf_of.append(len(self.leaf_list))
        self.leaf_list.append(leaf)
        self._link(state, 0, state)  # a leaf stays where it is
        if parent >= 0:
            self._link(parent, code, state)
        return True

    def _link(self, state: int, code: int, target: int) -> None:
        key = state * _SHIFT + code + _OFFSET
        self.keys.append(key)
        self.targets.append(target)
        assert self.transitions is not None
        self.transitions[key] = target

    def _code(self, r: int, label: Any) -> int | None:
        kind = self.recipe_list[r][0]
        if kind == "bool":
            return 1 if label else 0
        if kind == "null":
            return 0 if label is None else 1
        if kind == "member":
            codes = self.members.setdefault(r, {})
            return codes.setdefault(label, len(codes))
        if label is None:
            return _NONE
        value = label.toordinal() if isinstance(label, date) else label
        return int(value) if isinstance(value, int) and _LOW <= value <= _HIGH else None

    def tables(self) -> Tables:
        """The transitions as a dense table (:class:`Tables`): built again only when the tree has grown."""
        found = self.arrays
        if not found or found[0] != len(self.recipe_of):
            self.arrays = (len(self.recipe_of), _dense(self))
        return self.arrays[1]  # type: ignore[no-any-return]

    def state(self) -> dict[str, Any]:
        """The recording as plain data (numbers, lists, the recipes' keys, the leaves' outcomes)."""
        return {
            "concrete": self.concrete,
            "lifts": dict(self.lifts),
            "outcomes": [leaf.outcome for leaf in self.leaf_list],
            "values": [leaf.value for leaf in self.leaf_list],
            "recipes": list(self.recipe_list),
            "recipe_of": np.array(self.recipe_of, dtype=np.int32),
            "leaf_of": np.array(self.leaf_of, dtype=np.int32),
            "keys": np.array(self.keys, dtype=np.int64),
            "targets": np.array(self.targets, dtype=np.int32),
            "members": {r: dict(codes) for r, codes in self.members.items()},
            "depth": self.depth,
        }

    @classmethod
    def from_state(cls, state: Mapping[str, Any]) -> Recording:
        """A recording from :meth:`state` (raises ValueError when its parts do not fit together)."""
        recipes = [tuple(r) for r in state["recipes"]]
        recipe_of, leaf_of, keys, targets = (_integers(state[n]) for n in ("recipe_of", "leaf_of", "keys", "targets"))
        leaf_list = [Leaf(o, v) for o, v in zip(state["outcomes"], state["values"], strict=True)]
        states = len(recipe_of)
        if (
            len(leaf_of) != states
            or len(keys) != len(targets)
            or len(set(recipes)) != len(recipes)
            or not _within(recipe_of, -1, len(recipes))
            or not _within(leaf_of, -1, len(leaf_list))
            or not _within(targets, 0, states)
        ):
            raise ValueError("a recording whose parts do not fit together")
        return cls(
            frozenset(state["concrete"]),
            lifts=dict(state["lifts"]),
            leaf_list=leaf_list,
            recipes={r: k for k, r in enumerate(recipes)},
            recipe_list=recipes,
            recipe_of=recipe_of.tolist(),
            leaf_of=leaf_of.tolist(),
            keys=keys.tolist(),
            targets=targets.tolist(),
            members={int(r): dict(codes) for r, codes in state["members"].items()},
            depth=int(state["depth"]),
        )


def _integers(values: Any) -> npt.NDArray[np.int64]:
    """A recording's array of integers, as int64 (raises ValueError for anything else)."""
    found = np.asarray(values)
    if found.ndim != 1 or (found.size and found.dtype.kind not in "iu"):
        raise ValueError("a recording's integers that are not")
    return found.astype(np.int64)


def _within(values: npt.NDArray[np.int64], low: int, high: int) -> bool:
    """Every value from ``low`` to ``high`` (excluded)."""
    return not values.size or (int(values.min()) >= low and int(values.max()) < high)


AMOUNT_OF_COLUMNS = "amount of columns"  # in a leaf's outcome, for an amount computed from the columns


def _leaf(outcome: Any) -> Leaf:
    """A leaf of what a path returned: an amount computed from the columns is kept as its expression's key (not the
    chunk's values: a recording outlives its chunks, and is written to files as plain data)."""
    if isinstance(outcome, tuple) and isinstance(outcome[2], Sym):
        return Leaf((*outcome[:2], AMOUNT_OF_COLUMNS, *outcome[3:]), outcome[2].key)
    return Leaf(outcome, None)


class Stale(Exception):
    """A recording that does not fit a chunk (a fact it reads is not a column there): the chunk is traced."""


@dataclass(slots=True, frozen=True)
class Tables:
    """A recording's transitions, dense: a node's decision gives each row a *slot* among the codes its recipe has
    in the tree (``held``: the sorted codes of a plain or computed value; a truth, a fact missing or given and an
    enum's member are their own slot; the last slot of each recipe is « not held »), and ``table[offset[state] +
    slot]`` is the next state. Leaves and UNKNOWN read the constant recipe ``len(recipes)`` (slot 0) and stay."""

    recipe_of: npt.NDArray[np.intp]  # per state (leaves and UNKNOWN: len(recipes))
    offset: npt.NDArray[np.intp]  # per state
    table: npt.NDArray[np.int32]
    leaf_of: npt.NDArray[np.int32]  # per state: its leaf's number (-1: a node, UNKNOWN)
    widths: list[int]  # per recipe: its slots (the last: not held)
    held: list[npt.NDArray[np.int64] | None]  # per plain or computed-value recipe: the codes the tree holds


def _dense(recording: Recording) -> Tables:
    keys = np.array(recording.keys, dtype=np.int64)
    targets = np.array(recording.targets, dtype=np.int32)
    recipe_of = np.array(recording.recipe_of, dtype=np.intp)
    origin = keys // _SHIFT
    code = keys - origin * _SHIFT - _OFFSET
    node = recipe_of[origin] >= 0  # a node's transitions (not a leaf's or UNKNOWN's own)
    recipe = recipe_of[origin[node]]
    code, origin, targets_of_nodes = code[node], origin[node], targets[node]
    widths: list[int] = []
    held: list[npt.NDArray[np.int64] | None] = []
    slot = code.copy()
    for r, (kind, _) in enumerate(recording.recipe_list):
        if kind in ("bool", "null"):
            widths.append(3)
            held.append(None)
        elif kind == "member":
            widths.append(len(recording.members.get(r, {})) + 1)
            held.append(None)
        else:
            mine = recipe == r
            values = np.unique(code[mine])
            slot[mine] = np.searchsorted(values, code[mine])
            widths.append(len(values) + 1)
            held.append(values)
    constant = len(recording.recipe_list)
    recipe_of[recipe_of < 0] = constant
    width_of = np.array([*widths, 1], dtype=np.intp)[recipe_of]
    offset = np.zeros(len(recipe_of), dtype=np.intp)
    np.cumsum(width_of[:-1], out=offset[1:])
    table = np.full(int(offset[-1] + width_of[-1]), UNKNOWN, dtype=np.int32)
    table[offset[recipe_of == constant]] = np.flatnonzero(recipe_of == constant)  # leaves, UNKNOWN: stay
    table[offset[origin] + slot] = targets_of_nodes
    return Tables(recipe_of, offset, table, np.array(recording.leaf_of, dtype=np.int32), widths, held)


def _slots(recording: Recording, tables: Tables, r: int, trace: Trace) -> npt.NDArray[np.int32] | int:
    """Each row's slot for recipe ``r`` over the trace's chunk (a number: the same for every row). A decision the
    chunk cannot compute — a fact that is not a column here, an expression that could leave int64 — gives the
    « not held » slot: the rows that reach it are traced again."""
    kind, what = recording.recipe_list[r]
    missing = tables.widths[r] - 1
    try:
        if kind == "bool":
            truth: npt.NDArray[np.bool_] = _sym(trace, what, recording).value
            return truth  # type: ignore[return-value]
        if kind == "null":
            column = _column(trace, what)
            return 1 if column.null is None else ~column.null
        if kind == "member":
            column = _column(trace, what)
            codes = recording.members.get(r, {})
            lookup = np.array(
                [codes.get(None, missing), *(codes.get(m, missing) for m in column.members)], dtype=np.int32
            )
            found: npt.NDArray[np.int32] = lookup[column.values.astype(np.intp) + 1]
            return found
        if kind == "plain":
            column = _column(trace, what)
            values, null = column.values, column.null
        else:
            values, null = _sym(trace, what, recording).value, None
    except (Stale, Unvectorisable):
        return missing
    codes_held = tables.held[r]
    assert codes_held is not None
    values = values.astype(np.int64)
    values = np.where((values < _LOW) | (values > _HIGH), _BAD, values)
    if null is not None:
        values[null] = _NONE
    at = np.searchsorted(codes_held, values)
    inside = np.minimum(at, max(len(codes_held) - 1, 0))
    held = (at < len(codes_held)) & (codes_held[inside] == values) if len(codes_held) else np.zeros(len(at), bool)
    slots: npt.NDArray[np.int32] = np.where(held, at, missing).astype(np.int32)
    return slots


def replay(recording: Recording, trace: Trace) -> npt.NDArray[np.int32]:
    """The recorded tree over ``trace``'s chunk: each row's leaf (its number in ``recording.leaf_list``; -1: no
    recorded path decides the row, the caller traces it). Every row walks down the dense table at once, one
    gather per level; every few levels, the rows already on a leaf are set aside."""
    tables = recording.tables()
    recipe_of, offset, table = tables.recipe_of, tables.offset, tables.table
    constant = len(recording.recipe_list)
    n = trace.size
    width = constant + 1
    rows_at_once = max(1024, (1 << 22) // width)  # the slots of a slice of rows: 16 MB at most
    state = np.empty(n, dtype=np.int32)
    with np.errstate(all="ignore"):
        slots = [_slots(recording, tables, r, trace) for r in range(constant)]
        for start in range(0, n, rows_at_once):
            stop = min(n, start + rows_at_once)
            m = stop - start
            matrix = np.empty((width, m), dtype=np.int32)
            for r, found in enumerate(slots):
                matrix[r] = found if isinstance(found, int) else found[start:stop]
            matrix[constant] = 0  # leaves and UNKNOWN: slot 0, themselves
            flat = matrix.reshape(-1)
            rows = np.arange(m, dtype=np.intp)
            current = np.ones(m, dtype=np.int32)  # the root: the first state after UNKNOWN
            done = state[start:stop]
            for level in range(recording.depth):
                if level and not level % 4:
                    going = recipe_of[current] != constant
                    if not going.all():
                        done[rows[~going]] = current[~going]
                        rows, current = rows[going], current[going]
                        if not len(rows):
                            break
                current = table[offset[current] + flat[recipe_of[current] * m + rows]]
            done[rows] = current
    leaf: npt.NDArray[np.int32] = tables.leaf_of[state]
    return leaf


def leaf_value(recording: Recording, j: int, trace: Trace) -> npt.NDArray[Any]:
    """Leaf ``j``'s amount over the chunk (an expression of columns: computed by the trace's own operations)."""
    return _sym(trace, recording.leaf_list[j].value, recording).value


def _column(trace: Trace, name: str) -> Any:
    column = trace.columns.get(name)
    if column is None:
        raise Stale(name)
    return column


def _sym(trace: Trace, key: Any, recording: Recording) -> Sym:
    """The expression ``key`` over the trace's chunk, built by the trace's own operations (bounds checked)."""
    found = trace.cache.get(key)
    if found is not None:
        return found
    tag = key[0]
    if tag == "col":
        column = _column(trace, key[1])
        found = trace._column_sym(column)
    elif tag == "lift":
        function, args = recording.lifts[key]
        found = trace.lift(function, tuple(_sym(trace, a, recording) if k == "sym" else a for k, a in args))
    elif tag in ("year", "month", "day"):
        found = trace.date_part(_sym(trace, key[1], recording), tag)
    elif tag == "code":
        trace._equals(_column(trace, key[1]), key[2])
        found = trace.cache[key]
    else:
        found = trace.op(tag, _operand(trace, key[1], recording), _operand(trace, key[2], recording))
    if found.key != key:
        raise Unvectorisable(f"a recorded expression rebuilt as another ({key!r})")
    return found


def _operand(trace: Trace, key: Any, recording: Recording) -> Any:
    return key[1] if key[0] == "k" else _sym(trace, key, recording)
