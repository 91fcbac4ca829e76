"""The compiled fast path for batches: flat rows in, (status, amount, version, paragraph) out.

Pure domain like the rest of ``legislation``: no I/O. Results are identical to the explained path
(:func:`legislation.resolver.calculate`), which remains the path for single answers and reports.
"""

from legislation.fast.engine import Engine, Outcome, explained_outcome
from legislation.fast.row import ROW_FIELDS, Row

__all__ = ["ROW_FIELDS", "Engine", "Outcome", "Row", "explained_outcome"]
