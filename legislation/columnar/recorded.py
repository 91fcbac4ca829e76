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

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

import numpy as np
import numpy.typing as npt

from legislation.columnar.symbolic import Sym, Trace, Unvectorisable

Index = npt.NDArray[np.intp]

LEAF_LIMIT = 20_000  # leaves kept per recording (a version whose rows take more paths records no more)


@dataclass(slots=True)
class Leaf:
    outcome: Any  # the calculator's outcome tuple, or a Fallback
    value: Any  # the key of its amount's expression (None: the amount is in the tuple)


@dataclass(slots=True)
class Node:
    # what the decision computes: ("bool", key), ("member" | "null" | "plain", fact), ("int", key)
    recipe: tuple[str, Any]
    children: dict[Any, Node | Leaf] = field(default_factory=dict)  # by the label taken (True/False, a member…)


@dataclass(slots=True)
class Recording:
    """One version's decision tree over chunks with the same columns (the facts given, read plainly or not)."""

    concrete: frozenset[str]
    root: Node | Leaf | None = None
    lifts: dict[Any, tuple[Callable[..., Any], tuple[tuple[str, Any], ...]]] = field(default_factory=dict)
    leaves: int = 0

    def add(self, trace: Trace) -> None:
        """What ``trace`` explored: each path run (its decisions and leaf) that is not known yet."""
        self.lifts.update(trace.lifts)
        for steps, outcome in trace.records:
            if self.leaves >= LEAF_LIMIT:
                return
            self._insert(steps, _leaf(outcome))

    def _insert(self, steps: tuple[tuple[Any, Any], ...], leaf: Leaf) -> None:
        if self.root is None:
            self.root = _chain(steps, leaf)
            self.leaves += 1
            return
        node = self.root
        for k, (recipe, label) in enumerate(steps):
            if not isinstance(node, Node) or node.recipe != recipe:
                return  # not the same decisions (never expected: the function is deterministic): not recorded
            child = node.children.get(label)
            if child is None:
                node.children[label] = _chain(steps[k + 1 :], leaf)
                self.leaves += 1
                return
            node = child


def _leaf(outcome: Any) -> Leaf:
    if isinstance(outcome, tuple) and isinstance(outcome[2], Sym):
        return Leaf(outcome, outcome[2].key)
    return Leaf(outcome, None)


def _chain(steps: tuple[tuple[Any, Any], ...], leaf: Leaf) -> Node | Leaf:
    found: Node | Leaf = leaf
    for recipe, label in reversed(steps):
        found = Node(recipe, {label: found})
    return found


class Stale(Exception):
    """A recording that does not fit a chunk (a fact it reads is not a column there): the chunk is traced."""


class Value:
    """A leaf's amount over the chunk (what :func:`legislation.columnar.engine._amounts` reads as ``.value``)."""

    __slots__ = ("value",)

    def __init__(self, value: npt.NDArray[Any]) -> None:
        self.value = value


def replay(recording: Recording, trace: Trace) -> tuple[list[tuple[Index, Any]], Index]:
    """The recorded tree over ``trace``'s chunk: each leaf's rows (indices in the chunk) and outcome (its amount a
    :class:`Value`), and the rows no recorded path decides. Raises :class:`Stale` or
    :class:`~legislation.columnar.symbolic.Unvectorisable` (an expression that could leave int64 on these rows)."""
    root = recording.root
    assert root is not None
    leaves: list[tuple[Index, Any]] = []
    unknown: list[Index] = []
    stack: list[tuple[Node | Leaf, Index]] = [(root, np.arange(trace.size, dtype=np.intp))]
    with np.errstate(all="ignore"):
        while stack:
            node, rows = stack.pop()
            if isinstance(node, Leaf):
                outcome = node.outcome
                if node.value is not None:
                    value = _sym(trace, node.value, recording)
                    outcome = (*outcome[:2], Value(value.value), *outcome[3:])
                leaves.append((rows, outcome))
                continue
            kind, what = node.recipe
            children = node.children
            if kind == "bool":
                truth = _sym(trace, what, recording).value[rows]
                held, other = children.get(True), children.get(False)
                _push(stack, unknown, held, rows[truth])
                _push(stack, unknown, other, rows[~truth])
                continue
            if kind == "null":
                column = _column(trace, what)
                if column.null is None:
                    _push(stack, unknown, children.get(True), rows)
                    continue
                missing = column.null[rows]
                _push(stack, unknown, children.get(None), rows[missing])
                _push(stack, unknown, children.get(True), rows[~missing])
                continue
            taken = np.zeros(len(rows), dtype=np.bool_)
            if kind == "member":
                column = _column(trace, what)
                codes = column.values[rows]
                index = {m: c for c, m in enumerate(column.members)}
                for label, child in children.items():
                    where = codes == (-1 if label is None else index[label])
                    taken |= where
                    _push(stack, unknown, child, rows[where])
            elif kind == "plain":
                column = _column(trace, what)
                values = column.values[rows]
                null = column.null[rows] if column.null is not None else None
                for label, child in children.items():
                    if label is None:
                        where = null if null is not None else np.zeros(len(rows), dtype=np.bool_)
                    else:
                        where = values == (label.toordinal() if isinstance(label, date) else label)
                        if null is not None:
                            where &= ~null
                    taken |= where
                    _push(stack, unknown, child, rows[where])
            else:  # "int": a computed number read as a plain int
                values = _sym(trace, what, recording).value[rows]
                for label, child in children.items():
                    where = values == label
                    taken |= where
                    _push(stack, unknown, child, rows[where])
            if not taken.all():
                unknown.append(rows[~taken])
    rest = np.concatenate(unknown) if unknown else np.empty(0, dtype=np.intp)
    return leaves, rest


def _push(
    stack: list[tuple[Node | Leaf, Index]], unknown: list[Index], child: Node | Leaf | None, rows: Index
) -> None:
    if not len(rows):
        return
    if child is None:
        unknown.append(rows)
    else:
        stack.append((child, rows))


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
