"""The columnar path: numpy columns of purchases in, arrays of outcomes out — the row engine's answers, exactly.

Pure domain like the rest of ``legislation``: no I/O. Nothing of a rule is written here: each version's rows run
through the version's own compiled calculator (:mod:`legislation.fast.compile`) and the resolver's clause and keep
rules, traced over whole columns (:mod:`legislation.columnar.symbolic`: every ``if`` splits the rows into masks,
money stays int64 cents). What the columns cannot decide falls back to the row engine, counted and reported.

Entry point: :func:`compute` (see its docstring for the columns and :class:`ColumnarResult` for the arrays).
"""

from legislation.columnar.columns import MEMBERS, ColumnError
from legislation.columnar.engine import STATUSES, Columnar, ColumnarResult, Numbering, compute, iter_outcomes

__all__ = ["MEMBERS", "STATUSES", "ColumnError", "Columnar", "ColumnarResult", "Numbering", "compute", "iter_outcomes"]
