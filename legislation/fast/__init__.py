"""The fast path for batches: flat rows in, (status, amount, version, paragraph) out.

Pure domain like the rest of ``legislation``: no I/O. It runs the same calculators as the explained path
(:func:`legislation.resolver.calculate`) in a context that records nothing; the explained path remains the
path for single answers and reports.
"""

from legislation.calculators.kit import Outcome
from legislation.fast.engine import Engine, explained_outcome
from legislation.row import ROW_FIELDS, Row

__all__ = ["ROW_FIELDS", "Engine", "Outcome", "Row", "explained_outcome"]
