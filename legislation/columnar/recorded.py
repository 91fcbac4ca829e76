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

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

import numpy as np
import numpy.typing as npt

from legislation.columnar.columns import FACTS
from legislation.columnar.symbolic import Sym, Trace, Unvectorisable, lift_table

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
    widths, held, slot = _decision_slots(
        recording.recipe_list, recipe, code, lambda r: len(recording.members.get(r, {})) + 1
    )
    constant = len(recording.recipe_list)
    recipe_of[recipe_of < 0] = constant
    width_of = np.array([*widths, 1], dtype=np.intp)[recipe_of]
    offset = np.zeros(len(recipe_of), dtype=np.intp)
    np.cumsum(width_of[:-1], out=offset[1:])
    table = np.full(int(offset[-1] + width_of[-1]), UNKNOWN, dtype=np.int32)
    table[offset[recipe_of == constant]] = np.flatnonzero(recipe_of == constant)  # leaves, UNKNOWN: stay
    table[offset[origin] + slot] = targets_of_nodes
    return Tables(recipe_of, offset, table, np.array(recording.leaf_of, dtype=np.int32), widths, held)


def _decision_slots(
    recipe_list: Any, recipe: Any, code: Any, member_width: Any
) -> tuple[list[int], list[npt.NDArray[np.int64] | None], Any]:
    """Per decision (``recipe_list``), its number of slots (the last: « not held ») and, for a plain value, the
    values its transitions hold (sorted); and each transition's slot (``recipe``, ``code``: the transitions'
    decisions and codes; a plain value's code becomes its place among those held). ``member_width``: an enum's."""
    widths: list[int] = []
    held: list[npt.NDArray[np.int64] | None] = []
    slot = code.copy()
    for r, (kind, _) in enumerate(recipe_list):
        if kind in ("bool", "null"):
            widths.append(3)
            held.append(None)
        elif kind == "member":
            widths.append(member_width(r))
            held.append(None)
        else:
            mine = recipe == r
            values = np.unique(code[mine])
            slot[mine] = np.searchsorted(values, code[mine])
            widths.append(len(values) + 1)
            held.append(values)
    return widths, held, slot


def _member_width(labels: dict[Any, int] | None) -> int:
    assert labels is not None
    return max(labels.values()) + 2


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
            lookup = _member_lookup(recording.members.get(r, {}), column.members, missing, np.int32)
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
    slots: npt.NDArray[np.int32] = _held_codes(values, null, codes_held, missing).astype(np.int32)
    return slots


def _held_codes(values: Any, null: Any, held: npt.NDArray[np.int64], missing: int) -> npt.NDArray[np.int64]:
    """Each value's place among ``held`` (the sorted plain values a tree holds), ``missing`` where it is not held; a
    value outside the int64 bounds the trace checks, and a value not given (``null``), are never held."""
    values = values.astype(np.int64)
    values = np.where((values < _LOW) | (values > _HIGH), _BAD, values)
    if null is not None:
        values[null] = _NONE
    at = np.searchsorted(held, values)
    inside = np.minimum(at, max(len(held) - 1, 0))
    found = (at < len(held)) & (held[inside] == values) if len(held) else np.zeros(len(at), np.bool_)
    return np.where(found, at, missing)


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


def expression(trace: Trace, key: Any, recording: Recording) -> npt.NDArray[Any]:
    """The expression ``key`` (an amount's, a decision's) over the trace's rows, the recording's lifted functions
    at hand."""
    return _sym(trace, key, recording).value


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


# -- every version of a scheme at once ---------------------------------------------------------------------------
#
# A block's rows are in force under many versions (one recording each): replayed one version after another, each
# version's rows are gathered and each of its decisions computed on them — thousands of small numpy calls a block.
# :func:`combine` puts the recordings of one scheme side by side in one dense table, their decisions numbered once
# across them (a decision several versions make, the same expression, is computed once), and :func:`walk` replays
# every row of the block down that table at once, each row starting at the root of its version's tree. The trees
# are the recordings' own (nothing is added or decided here): a row ends on the leaf its version's
# :func:`replay` gives it.


@dataclass(slots=True, frozen=True)
class Combined:
    """The recordings of one scheme (a version each) in one dense table, like :class:`Tables`: ``recipes`` are the
    decisions of all of them, each once; a decision gives each row a *code* (a truth 0/1, a fact missing 0 / given
    1, an enum member's place among ``labels``, a plain value's place among ``held``), its last code « not held »
    (:data:`UNKNOWN` next); version ``v``'s states are numbered from ``base[v]`` (its UNKNOWN) and its leaves from
    ``leaf_base[v]``."""

    signature: tuple[tuple[int, int], ...]  # per recording: its identity and states when combined
    recipes: list[tuple[str, Any]]
    widths: list[int]  # per recipe: its codes (the last: not held)
    labels: list[dict[Any, int] | None]  # per member recipe: each label's code
    held: list[npt.NDArray[np.int64] | None]  # per plain or computed-value recipe: the values the trees hold
    recipe_of: npt.NDArray[np.intp]  # per state (leaves and UNKNOWN: len(recipes))
    offset: npt.NDArray[np.intp]
    table: npt.NDArray[np.intp]  # intp: states as indices (an int32 index is converted at every gather)
    leaf_of: npt.NDArray[np.int32]  # per state: the leaf's number across the recordings (-1: a node, UNKNOWN)
    base: npt.NDArray[np.intp]  # per recording: its first state (its UNKNOWN; its root: base + 1)
    leaf_base: npt.NDArray[np.intp]  # per recording: its first leaf's number
    depth: int
    lifts: Recording  # the recordings' lifted functions, for :func:`_sym`
    users: npt.NDArray[np.bool_]  # [recipe, recording]: the recording's tree makes that decision
    extra: dict[str, Any] = field(default_factory=dict)  # what a caller derives from the leaves


def signature(recordings: list[Recording]) -> tuple[tuple[int, int], ...]:
    """What :func:`combine` depends on: each recording and its size (a tree that grew is combined again)."""
    return tuple((id(r), len(r.recipe_of)) for r in recordings)


@dataclass(slots=True)
class Registry:
    """The decisions of a scheme's recordings numbered across them, and each member decision's labels coded — only
    ever added to, so that what :func:`combine` derived from one recording holds while the others grow."""

    recipes: dict[tuple[str, Any], int] = field(default_factory=dict)
    recipe_list: list[tuple[str, Any]] = field(default_factory=list)
    labels: list[dict[Any, int] | None] = field(default_factory=list)
    values: dict[Any, int] = field(default_factory=dict)  # the leaves' amounts' expressions, numbered
    extra: dict[str, Any] = field(default_factory=dict)  # what a caller derives, by recording

    def number(self, recipe: tuple[str, Any]) -> int:
        found = self.recipes.get(recipe)
        if found is None:
            found = self.recipes[recipe] = len(self.recipe_list)
            self.recipe_list.append(recipe)
            kind, what = recipe
            # an enum's or a boolean's member: its place in the fact's members + 1 (0: not given), the column's
            # code + 1
            self.labels.append(
                {None: 0, **{m: i + 1 for i, m in enumerate(_members(what))}} if kind == "member" else None
            )
        return found


def _part(recording: Recording, registry: Registry) -> tuple[Any, ...]:
    """One recording's transitions in the registry's numbering (kept with the recording while it does not grow):
    each node transition's state, decision, code (a member's: the registry's; a value: itself) and target, each
    state's decision (-1: a leaf or UNKNOWN), each state's leaf, the decisions it makes."""
    found = recording.extra.get("combined")
    if found is not None and found[0] == len(recording.recipe_of) and found[1] is registry:
        return found[2]  # type: ignore[no-any-return]
    local = np.array([registry.number(r) for r in recording.recipe_list] + [-1], dtype=np.intp)
    recipe_of = np.array(recording.recipe_of, dtype=np.intp)  # -1: a leaf or UNKNOWN
    keys = np.array(recording.keys, dtype=np.int64)
    origin = keys // _SHIFT
    code = keys - origin * _SHIFT - _OFFSET
    node = recipe_of[origin] >= 0
    origin, code, target = origin[node], code[node], np.array(recording.targets, dtype=np.intp)[node]
    for r, codes_of in recording.members.items():  # a member's code in this tree → the registry's
        labels = registry.labels[int(local[r])]
        assert labels is not None
        lookup = np.zeros(max(codes_of.values(), default=0) + 1, dtype=np.int64)
        for label, c in codes_of.items():
            lookup[c] = labels.setdefault(label, len(labels))
        mine = recipe_of[origin] == r
        code[mine] = lookup[code[mine]]
    part = (
        origin,
        local[recipe_of[origin]],
        code,
        target,
        local[recipe_of],
        np.array(recording.leaf_of, dtype=np.int32),
        np.unique(local[:-1]),
    )
    recording.extra["combined"] = (len(recording.recipe_of), registry, part)
    return part


def combine(recordings: list[Recording], registry: Registry | None = None) -> Combined:
    """The recordings' trees in one dense table (:class:`Combined`); ``registry``: the numbering of their decisions
    (kept by the caller between calls: what was derived from a recording that did not grow is reused)."""
    registry = registry if registry is not None else Registry()
    parts = [_part(recording, registry) for recording in recordings]
    recipe_list = list(registry.recipe_list)
    constant = len(recipe_list)
    labels = [None if found is None else dict(found) for found in registry.labels]
    origins, recipes_at, codes, targets, states, leaves = [], [], [], [], [], []
    base = np.zeros(len(recordings), dtype=np.intp)
    leaf_base = np.zeros(len(recordings), dtype=np.intp)
    lifts = Recording(frozenset())
    users = np.zeros((constant, len(recordings)), dtype=np.bool_)
    total, total_leaves, depth = 0, 0, 0
    for v, (recording, part) in enumerate(zip(recordings, parts, strict=True)):
        origin, recipe, code, target, state_recipe, leaf_of, used = part
        base[v], leaf_base[v] = total, total_leaves
        lifts.lifts.update(recording.lifts)
        depth = max(depth, recording.depth)
        users[used, v] = True
        origins.append(origin + total)
        recipes_at.append(recipe)
        codes.append(code)
        targets.append(target + total)
        states.append(np.where(state_recipe < 0, constant, state_recipe))
        leaves.append(np.where(leaf_of >= 0, leaf_of + np.int32(total_leaves), np.int32(-1)).astype(np.int32))
        total += len(state_recipe)
        total_leaves += recording.leaves
    origin = np.concatenate(origins) if origins else np.zeros(0, dtype=np.intp)
    recipe = np.concatenate(recipes_at) if recipes_at else np.zeros(0, dtype=np.intp)
    code = np.concatenate(codes) if codes else np.zeros(0, dtype=np.int64)
    target = np.concatenate(targets) if targets else np.zeros(0, dtype=np.intp)
    widths, held, slot = _decision_slots(recipe_list, recipe, code, lambda r: _member_width(labels[r]))
    state_recipe = np.concatenate(states) if states else np.zeros(0, dtype=np.intp)
    width_of = np.array([*widths, 1], dtype=np.intp)[state_recipe]
    offset = np.zeros(len(state_recipe), dtype=np.intp)
    if len(state_recipe):
        np.cumsum(width_of[:-1], out=offset[1:])
    size = int(offset[-1] + width_of[-1]) if len(state_recipe) else 0
    table = np.zeros(size, dtype=np.intp)  # state 0: the first recording's UNKNOWN (a row no path decides)
    stay = np.flatnonzero(state_recipe == constant)
    table[offset[stay]] = stay  # leaves, UNKNOWN: stay
    table[offset[origin] + slot] = target
    return Combined(
        signature(recordings),
        recipe_list,
        widths,
        labels,
        held,
        state_recipe,
        offset,
        table,
        np.concatenate(leaves) if leaves else np.zeros(0, dtype=np.int32),
        base,
        leaf_base,
        depth,
        lifts,
        users,
    )


def _member_lookup(labels: Mapping[Any, int], members: Sequence[Any], missing: int, dtype: Any) -> npt.NDArray[Any]:
    """The code of each of a column's codes + 1 (0: not given, then its members in order): the label of the member,
    ``missing`` for a member no path took."""
    return np.array([labels.get(None, missing), *(labels.get(m, missing) for m in members)], dtype=dtype)


def _members(name: str) -> tuple[Any, ...]:
    """The members of an enum or boolean fact, in the order of its columns' codes."""
    return FACTS[name][1] if name in FACTS else ()


def codes(combined: Combined, n: int, spans: list[tuple[list[int], Trace, int, int]]) -> npt.NDArray[Any]:
    """Each row's code for the decisions of ``combined``: a matrix (recipes + 1) × ``n`` rows, its last line 0 (leaves
    and UNKNOWN). ``spans``: decisions, and the trace over the rows ``start:stop`` that compute them — the rows whose
    versions' trees make those decisions (a row never reads a decision elsewhere: those codes are not written). A
    decision the rows cannot compute — a fact that is not a column here, an expression that could leave int64 —
    gives « not held »: the rows that reach it are traced."""
    constant = len(combined.recipes)
    dtype = np.int8 if max(combined.widths, default=1) < 127 else np.int32
    matrix = np.empty((constant + 1, n), dtype=dtype)
    matrix[constant] = 0
    for recipes, trace, start, stop in spans:
        for r in recipes:
            _code_line(combined, r, trace, matrix[r, start:stop])
    return matrix


def _code_line(combined: Combined, r: int, trace: Trace, line: npt.NDArray[Any]) -> None:
    """Decision ``r``'s code for each row of the trace, into ``line``."""
    kind, what = combined.recipes[r]
    recording = combined.lifts
    missing = combined.widths[r] - 1
    try:
        if kind == "bool":
            line[...] = _sym(trace, what, recording).value
            return
        if kind == "null":
            column = _column(trace, what)
            line[...] = 1 if column.null is None else ~column.null
            return
        if kind == "member":
            column = _column(trace, what)
            if column.members == _members(what):  # the codes of combine: the column's + 1
                np.add(column.values, 1, out=line, casting="unsafe")
                return
            labels = combined.labels[r]
            assert labels is not None
            lookup = _member_lookup(labels, column.members, missing, line.dtype)
            np.take(lookup, column.values.astype(np.intp) + 1, out=line)
            return
        if kind == "plain":
            column = _column(trace, what)
            values, null = column.values, column.null
        else:
            values, null = _sym(trace, what, recording).value, None
    except (Stale, Unvectorisable):
        line[...] = missing
        return
    held = combined.held[r]
    assert held is not None
    line[...] = _held_codes(values, null, held, missing)


# The same walk compiled, row by row instead of level by level (legislation/columnar/walk_c.c, built by ``pip install``
# when a C compiler is there: it reads the tables given, and holds no rule); None: numpy's, below. Off with
# VIGUEUR_NO_C set (to 1, or any non-empty text) when this module is imported; the batch sets it again at its set-up
# (api.batch.arrow_run._fast_walk). The tests (tests/unit/test_columnar_walk.py) pin both walks to the same leaves.
try:
    from legislation.columnar import walk_c  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - no C compiler at install
    walk_c = None
COMPILED_WALK: Callable[..., None] | None = None if walk_c is None else walk_c.walk
FAST_WALK: Callable[..., None] | None = None if os.environ.get("VIGUEUR_NO_C") else COMPILED_WALK
# and its look-up of the results by leaf (engine._assemble), switched with the walk
COMPILED_LOOKUP: Callable[..., None] | None = None if walk_c is None else walk_c.lookup
FAST_LOOKUP: Callable[..., None] | None = None if os.environ.get("VIGUEUR_NO_C") else COMPILED_LOOKUP


# The decisions computed in C as each row reaches them (walk_c.decide), rather than a matrix of codes computed in numpy
# for every row beforehand (:func:`codes`) and then walked: a row computes the few decisions its path makes, not every
# decision of its version's tree, and no column is gathered into the versions' order. Off with VIGUEUR_NO_C, as the
# walk; the tests (tests/unit/test_columnar_decide.py) pin it to the codes' walk.
COMPILED_DECIDE: Callable[..., None] | None = None if walk_c is None else walk_c.decide
FAST_DECIDE: Callable[..., None] | None = None if os.environ.get("VIGUEUR_NO_C") else COMPILED_DECIDE

# walk_c.c's kinds of decision and operations (its enums, in order)
_TRUTH, _NULL, _MEMBER, _PLAIN, _VALUE, _MISSING, _COMPARE = range(7)
_OPCODES = {
    name: k
    for k, name in enumerate(
        ("end", "k", "col", "add", "sub", "mul", "floordiv", "mod", "abs", "lt", "le", "gt", "ge", "eq", "ne",
         "year", "month", "day", "lift", "code")
    )
}
_STACK = 32  # walk_c.c's STACK
_INT64 = (-(1 << 63), (1 << 63) - 1)


class Uncompilable(Exception):
    """A recorded expression the C decisions cannot compute (the block's codes are then computed by numpy)."""


@dataclass(slots=True, frozen=True)
class Decisions:
    """What each decision of a :class:`Combined` reads, for walk_c.decide: per decision (``recipes``, six int64:
    kind, column, where its program starts in ``code``, its « not held » slot, where its look-up starts, its length),
    the programs of the computed ones (``code``: pairs of operation and argument, from the recorded expressions'
    keys — the trace's operations, one for one), the values a plain or computed value's tree holds (``held``), and
    the columns and lifted functions they read, by number (``names``, ``lifts``)."""

    recipes: npt.NDArray[np.int64]
    code: npt.NDArray[np.int64]
    held: npt.NDArray[np.int64]
    names: list[str]
    lifts: list[Any]
    members: list[tuple[int, str]]  # (decision, fact): the member decisions, whose look-up depends on the column


def decisions(combined: Combined) -> Decisions | None:
    """The combined table's decisions compiled (kept with it); None where one is not compilable."""
    if "decisions" in combined.extra:
        kept: Decisions | None = combined.extra["decisions"]
        return kept
    found: Decisions | None
    try:
        found = _compile_decisions(combined)
        _nodes(combined)
    except Uncompilable:
        found = None
    combined.extra["decisions"] = found
    return found


def _compile_decisions(combined: Combined) -> Decisions:
    names: dict[str, int] = {}
    lifts: dict[Any, int] = {}
    code: list[int] = []
    held_parts: list[npt.NDArray[np.int64]] = []
    held_at = 0
    recipes = np.zeros((len(combined.recipes), 6), dtype=np.int64)
    members = []
    for r, (kind, what) in enumerate(combined.recipes):
        missing = combined.widths[r] - 1
        row = recipes[r]
        row[1], row[3] = -1, missing
        if kind in ("null", "member", "plain"):
            row[0] = {"null": _NULL, "member": _MEMBER, "plain": _PLAIN}[kind]
            row[1] = names.setdefault(what, len(names))
            if kind == "member":
                members.append((r, what))
        elif kind == "bool" and (compared := _comparison(what)) is not None:  # a column against a number: no program
            name, tag, number = compared
            row[0], row[1], row[4], row[5] = _COMPARE, names.setdefault(name, len(names)), number, _OPCODES[tag]
        else:
            row[0] = _TRUTH if kind == "bool" else _VALUE
            row[2] = len(code)
            _program(what, combined.lifts, names, lifts, code)
            code.extend((_OPCODES["end"], 0))
        if kind in ("plain", "int"):
            found = combined.held[r]
            values = np.zeros(0, dtype=np.int64) if found is None else found.astype(np.int64)
            row[4], row[5] = held_at, len(values)
            held_parts.append(values)
            held_at += len(values)
    return Decisions(
        recipes,
        np.array(code or [0, 0], dtype=np.int64),
        np.concatenate(held_parts) if held_parts else np.zeros(0, dtype=np.int64),
        list(names),
        list(lifts),
        members,
    )


def _comparison(key: Any) -> tuple[str, str, int] | None:
    """A comparison of a column with a number — ``(tag, ("col", name), ("k", number))`` —, as (name, tag, number)."""
    if (
        isinstance(key, tuple)
        and len(key) == 3
        and key[0] in ("lt", "le", "gt", "ge", "eq", "ne")
        and isinstance(key[1], tuple)
        and len(key[1]) == 2
        and key[1][0] == "col"
        and isinstance(key[2], tuple)
        and len(key[2]) == 2
        and key[2][0] == "k"
        and type(key[2][1]) is int
        and _INT64[0] <= key[2][1] <= _INT64[1]
    ):
        return key[1][1], key[0], key[2][1]
    return None


def _program(key: Any, recording: Recording, names: dict[str, int], lifts: dict[Any, int], code: list[int]) -> int:
    """Expression ``key``'s operations appended to ``code`` (post-order: its operands first), as :func:`_sym` builds
    it; returns the values it stacks at most."""
    if not isinstance(key, tuple) or not key:
        raise Uncompilable(repr(key))
    tag = key[0]
    if tag == "k":
        value = key[1]
        if type(value) is not int or not _INT64[0] <= value <= _INT64[1]:
            raise Uncompilable(repr(key))
        code.extend((_OPCODES["k"], value))
        return 1
    if tag == "col":
        code.extend((_OPCODES["col"], names.setdefault(key[1], len(names))))
        return 1
    if tag == "code":
        column = names.setdefault(key[1], len(names))
        code.extend((_OPCODES["code"], (column << 32) | (int(key[2]) & 0xFFFFFFFF)))
        return 1
    if tag == "lift":
        found = recording.lifts.get(key)
        if found is None:
            raise Uncompilable(repr(key))
        operands = [a for k, a in found[1] if k == "sym"]
        if len(operands) != 1:
            raise Uncompilable(repr(key))
        depth = _program(operands[0], recording, names, lifts, code)
        code.extend((_OPCODES["lift"], lifts.setdefault(key, len(lifts))))
        return depth
    if tag in ("year", "month", "day", "abs"):
        depth = _program(key[1], recording, names, lifts, code)
        code.extend((_OPCODES[tag], 0))
        return depth
    if tag not in _OPCODES or tag == "end":
        raise Uncompilable(repr(key))
    depth = max(_program(key[1], recording, names, lifts, code), 1 + _program(key[2], recording, names, lifts, code))
    if depth > _STACK:
        raise Uncompilable(repr(key))
    code.extend((_OPCODES[tag], 0))
    return depth


def decide(
    combined: Combined,
    found: Decisions,
    columns: Mapping[str, Any],
    rows: Index,
    start: Index,
    lift_memo: Mapping[Any, Mapping[int, tuple[int, str | None]]],
    lift_tables: dict[Any, Any],
) -> npt.NDArray[np.int32]:
    """Rows ``rows`` of a block (``columns``: its facts by name, :class:`~legislation.columnar.symbolic.Column`)
    down the combined table from the states ``start``, each decision computed in C when the row reaches it
    (walk_c.decide): each row's leaf (its number across the recordings; -1: no recorded path decides it — a side no
    earlier chunk took, or a decision the row cannot compute exactly: traced, as with :func:`codes`)."""
    assert FAST_DECIDE is not None
    values: list[npt.NDArray[Any] | None] = []
    nulls: list[npt.NDArray[Any] | None] = []
    for name in found.names:
        column = columns.get(name)
        if column is None:
            values.append(None)
            nulls.append(None)
            continue
        values.append(np.ascontiguousarray(column.values))
        nulls.append(None if column.null is None else np.ascontiguousarray(column.null))
    recipes = found.recipes
    lookups: list[npt.NDArray[np.int64]] = []
    if found.members:
        recipes = recipes.copy()
        at = 0
        for r, name in found.members:
            column = columns.get(name)
            labels = combined.labels[r]
            assert labels is not None
            lookup = _member_lookup(labels, () if column is None else column.members, combined.widths[r] - 1, np.int64)
            recipes[r, 4], recipes[r, 5] = at, len(lookup)
            lookups.append(lookup)
            at += len(lookup)
    keys: list[npt.NDArray[np.int64]] = []
    results: list[npt.NDArray[np.int64]] = []
    spans: list[int] = []
    at = 0
    for key in found.lifts:
        memo = lift_memo.get(key)
        table = lift_tables.get(key)
        if memo and (table is None or table[0] != len(memo)):
            table = lift_table(memo)
            if table is not None:
                lift_tables[key] = table
        if not memo or table is None or table[3] not in ("date", "int"):
            spans.extend((at, 0))
            continue
        keys.append(table[1])
        results.append(table[2])
        spans.extend((at, len(table[1])))
        at += len(table[1])
    nodes, place, leaf_at = _nodes(combined)
    state = np.empty(len(rows), dtype=np.intp)
    FAST_DECIDE(
        nodes,
        len(combined.recipes),
        recipes,
        found.code,
        found.held,
        np.concatenate(lookups) if lookups else np.zeros(0, dtype=np.int64),
        np.concatenate(keys).astype(np.int64) if keys else np.zeros(0, dtype=np.int64),
        np.concatenate(results).astype(np.int64) if results else np.zeros(0, dtype=np.int64),
        np.array(spans or [0, 0], dtype=np.int64),
        tuple(values),
        tuple(nulls),
        np.ascontiguousarray(rows, dtype=np.intp),
        place[start],
        combined.depth,
        state,
    )
    return leaf_at[state]


def _nodes(combined: Combined) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.intp], npt.NDArray[np.int32]]:
    """The combined table as walk_c.decide reads it, kept with it: one int32 array where the state at place p holds
    its decision at p and the place of its next state for slot c at p + 1 + c (a leaf or UNKNOWN: the constant
    decision, and itself) — a level one look-up, the table about a third of its size —; each state's place; the
    leaf at each place (-1: a node, UNKNOWN, or no state's place)."""
    found: tuple[npt.NDArray[np.int32], npt.NDArray[np.intp], npt.NDArray[np.int32]] | None
    found = combined.extra.get("nodes")
    if found is None:
        width = np.array([*combined.widths, 1], dtype=np.intp)[combined.recipe_of]
        place = np.zeros(len(width), dtype=np.intp)
        np.cumsum(width[:-1] + 1, out=place[1:])
        size = int(place[-1] + width[-1] + 1) if len(width) else 0
        if size >= 1 << 31:
            raise Uncompilable("a combined table too big for int32 places")
        nodes = np.zeros(size, dtype=np.int32)
        nodes[place] = combined.recipe_of
        # slot c of state s: the place of table[offset[s] + c]
        slot_state = np.repeat(np.arange(len(width)), width)
        slot = np.arange(int(width.sum())) - np.repeat(np.cumsum(width) - width, width)
        nodes[place[slot_state] + 1 + slot] = place[combined.table[combined.offset[slot_state] + slot]]
        leaf_at = np.full(size, -1, dtype=np.int32)
        leaf_at[place] = combined.leaf_of
        found = combined.extra["nodes"] = (nodes, place, leaf_at)
    return found


def _states(combined: Combined) -> npt.NDArray[np.intp]:
    """Each state's decision and where its slots start, side by side (one look-up a level), kept with the table."""
    states = combined.extra.get("walk")
    if states is None:
        states = combined.extra["walk"] = np.stack([combined.recipe_of, combined.offset], axis=1).astype(np.intp)
    return states


def take(table: npt.NDArray[Any], leaf: npt.NDArray[Any], out: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """``out[r] = table[leaf[r]]``, a leaf past the table's end taking its last item (numpy's ``take``,
    ``mode="clip"``): in C when the module is there (about half of numpy's time for the small tables of the results
    by leaf, 1- to 4-byte items, the leaves as uint8), else numpy's. ``table`` is cast to ``out``'s type."""
    table = np.ascontiguousarray(table, dtype=out.dtype)
    if (
        FAST_LOOKUP is not None
        and len(table)
        and leaf.dtype in (np.uint8, np.intp)
        and leaf.flags.c_contiguous
        and out.flags.c_contiguous
        and out.flags.writeable
    ):
        FAST_LOOKUP(table, leaf, leaf.dtype.itemsize, out)
    else:
        np.take(table, leaf, out=out, mode="clip")
    return out


def walk(combined: Combined, matrix: npt.NDArray[Any], rows: Index, start: Index) -> Any:
    """Rows ``rows`` (columns of ``matrix``) down the combined table from the states ``start`` (their versions'
    roots): each row's leaf (its number across the recordings; -1: no recorded path decides it). One gather per
    level for every row; every few levels, the rows already on a leaf are set aside."""
    if FAST_WALK is not None and matrix.flags.c_contiguous and matrix.dtype in (np.int8, np.int32):
        state = np.empty(len(rows), dtype=np.intp)
        FAST_WALK(
            combined.table,
            _states(combined),
            len(combined.recipes),
            matrix,
            matrix.dtype.itemsize,
            matrix.shape[1],
            np.ascontiguousarray(rows, dtype=np.intp),
            np.ascontiguousarray(start, dtype=np.intp),
            combined.depth,
            state,
        )
        return combined.leaf_of[state]
    offset, table = combined.offset, combined.table
    n = matrix.shape[1]
    flat = matrix.reshape(-1)
    line = combined.recipe_of * n  # per state: where its decision's line of the matrix starts
    stays = combined.recipe_of == len(combined.recipes)  # a leaf or UNKNOWN
    state = np.empty(len(rows), dtype=np.intp)
    at = np.arange(len(rows), dtype=np.intp)  # the rows still walking, by their place in ``rows``
    current = start.astype(np.intp)
    walking = rows.astype(np.intp)
    for level in range(combined.depth):
        if level and not level % 4:
            stopped = stays[current]
            if stopped.any():
                going = ~stopped
                state[at[stopped]] = current[stopped]
                at, current, walking = at[going], current[going], walking[going]
                if not len(at):
                    break
        current = table[offset[current] + flat[line[current] + walking]]
    state[at] = current
    return combined.leaf_of[state]
